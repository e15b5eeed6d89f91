//! The open join: top and turned bottom states whose pieces make one open path.

use hashbrown::HashMap;
use num_bigint::BigUint;
use rayon::prelude::*;

use crate::cancel::CancelFlag;
use crate::count::frontier::counts::tally::{ProductSum, Tally};
use crate::count::frontier::meet::cut::{
    MAX_CUT_SQUARES, chosen_moves, code_degree, label_partner,
};
use crate::count::frontier::pass::layer::Layer;
use crate::count::frontier::sweep::{DANGLING, FIRST_LABEL, FULL, Key};
use crate::count::frontier::window::state::{Codec, Word};
use crate::error::Error;

/// One top state at the cut, for open paths: the partner of each label (4 bits a square) and
/// the squares whose path runs to a tour end inside the half (one bit a square).
#[derive(Clone, Copy)]
pub(crate) struct OpenCut<T> {
    /// For each cut square where a path of the half ends: the square at its other end, or
    /// [`LINK_END`] when it runs to a tour end inside the half; [`NO_LINK`] elsewhere.
    links: [u8; MAX_CUT_SQUARES],
    count: T,
}

/// A path that runs to a tour end inside a half.
const LINK_END: u8 = MAX_CUT_SQUARES as u8;
/// No path ends on this cut square.
const NO_LINK: u8 = 255;

/// A half's states at the cut, for the open join: by the degrees of the cut squares (two bits
/// a square), then by the number of tour ends behind the state's paths (0, 1 or 2).
pub(crate) struct OpenClasses<T>(HashMap<u64, [Vec<OpenCut<T>>; 3]>);

/// Reads a top half's last layer (the cut in window slots `offset..offset + cut`) as the open
/// join needs it, freeing the layer map by map.
pub(crate) fn open_classes<Wd: Word, K: Key, T: Tally + Copy>(
    layer: Layer<T, K>,
    codec: &Codec,
    cut: usize,
    offset: usize,
) -> OpenClasses<T> {
    let mut classes: HashMap<u64, [Vec<OpenCut<T>>; 3]> = HashMap::new();
    for shard in layer {
        for (key, count) in shard {
            let (window, _) = codec.decode_key::<Wd, K>(key);
            let mut dangling = 0u32;
            // The square before the cut, when it is still in the window: done, or a tour end.
            let leaving = if offset == 1 { window.code(0) } else { FULL };
            let mut leaving_label = None;
            match leaving {
                FULL => {}
                code if code >= FIRST_LABEL => leaving_label = Some(code), // a tour end
                _ => continue, // unreached, or a finished path that is not the whole board
            }
            let mut degrees = 0u64;
            let mut links = [NO_LINK; MAX_CUT_SQUARES];
            for (i, link) in links.iter_mut().enumerate().take(cut) {
                let code = window.code(i + offset);
                degrees |= u64::from(code_degree(code)) << (2 * i);
                if code == DANGLING || Some(code) == leaving_label {
                    dangling |= 1 << i;
                    *link = LINK_END;
                } else if code >= FIRST_LABEL {
                    *link = label_partner(window, i, cut, offset) as u8;
                }
            }
            if dangling.count_ones() > 2 {
                continue;
            }
            classes.entry(degrees).or_default()[dangling.count_ones() as usize]
                .push(OpenCut { links, count });
        }
    }
    OpenClasses(classes)
}

/// Joins top states with turned bottom states (a half's states turned 180 degrees) into open
/// paths over the whole board (each path once): on every cut square the moves of both halves
/// (and the self-turned moves chosen) add up to 2, or to 1 where a tour end lies on the cut;
/// the ends — on the cut, or inside a half behind a dangling path — are two; and the pieces
/// form one path. Only paths with a tour end on every cut square of `required` (a bit a
/// square) count.
pub(crate) fn open_join<T: Tally + Into<u128> + Copy>(
    tops: &OpenClasses<T>,
    bottoms: &OpenClasses<T>,
    cut: usize,
    fixed: &[(usize, usize)],
    required: u32,
    cancel: &CancelFlag,
) -> Result<BigUint, Error> {
    let last = cut - 1;
    cancel.check()?;
    let entries: Vec<(&u64, &[Vec<OpenCut<T>>; 3])> = tops.0.iter().collect();
    let total = entries
        .par_iter()
        .map(|&(&degrees, tops_by_ends)| {
            let mut sum = ProductSum::new();
            if cancel.is_cancelled() {
                return sum.total();
            }
            let degree = |d: u64, i: usize| ((d >> (2 * i)) & 3) as u32;
            for chosen in 0..1usize << fixed.len() {
                let (used, extra) = chosen_moves(fixed, chosen);
                let mut fixed_links = [NO_LINK; MAX_CUT_SQUARES];
                for &(i, j) in &used {
                    fixed_links[i] = j as u8;
                    fixed_links[j] = i as u8;
                }
                let have: Vec<u32> = (0..cut).map(|i| degree(degrees, i) + extra[i]).collect();
                if have.iter().any(|&h| h > 2) {
                    continue;
                }
                // Tour ends on the cut: none, one or two squares that get one move in all.
                let may_end: Vec<usize> = (0..cut).filter(|&i| have[i] <= 1).collect();
                let mut end_sets: Vec<u32> = vec![0];
                for (n, &i) in may_end.iter().enumerate() {
                    end_sets.push(1 << i);
                    for &j in &may_end[n + 1..] {
                        end_sets.push(1 << i | 1 << j);
                    }
                }
                for ends in end_sets {
                    if ends & required != required {
                        continue;
                    }
                    let mut wanted = 0u64;
                    for (i, &had) in have.iter().enumerate() {
                        let total = if ends & (1 << i) != 0 { 1 } else { 2 };
                        wanted |= u64::from(total - had) << (2 * (last - i));
                    }
                    let Some(bottoms) = bottoms.0.get(&wanted) else {
                        continue;
                    };
                    let on_cut = ends.count_ones() as usize;
                    // The squares where pieces meet: those with a move of a half's path
                    // ending there, or a self-turned move.
                    let nodes = (0..cut)
                        .filter(|&i| {
                            degree(degrees, i) == 1 || degree(wanted, last - i) == 1 || extra[i] > 0
                        })
                        .count();
                    for top_ends in 0..=2 - on_cut {
                        let tops = &tops_by_ends[top_ends];
                        let bottoms = &bottoms[2 - on_cut - top_ends];
                        for top in tops {
                            for bottom in bottoms {
                                if one_path(top, bottom, &fixed_links, ends, cut, nodes) {
                                    sum.add(top.count.into(), bottom.count.into());
                                }
                            }
                        }
                    }
                }
            }
            sum.total()
        })
        .reduce(BigUint::default, |a, b| a + b);
    cancel.check()?;
    Ok(total)
}

/// Whether a top state and a turned bottom state (with the self-turned moves `fixed` and the
/// tour ends `ends` on the cut) make one path through all `nodes` cut squares they touch.
fn one_path<T>(
    top: &OpenCut<T>,
    bottom: &OpenCut<T>,
    fixed: &[u8; MAX_CUT_SQUARES],
    ends: u32,
    cut: usize,
    nodes: usize,
) -> bool {
    let last = cut - 1;
    // The link of cut square `at` of kind 0 (top), 1 (bottom, turned) or 2 (self-turned).
    let link = |at: usize, kind: usize| -> u8 {
        match kind {
            0 => top.links[at],
            1 => match bottom.links[last - at] {
                NO_LINK => NO_LINK,
                LINK_END => LINK_END,
                other => (last - other as usize) as u8,
            },
            _ => fixed[at],
        }
    };
    // Start at an end: a tour end on the cut, or a square whose path leads to one inside.
    let (mut at, mut came) = if ends != 0 {
        (ends.trailing_zeros() as usize, 3)
    } else {
        let Some((square, kind)) = (0..cut)
            .flat_map(|i| (0..2).map(move |kind| (i, kind)))
            .find(|&(i, kind)| link(i, kind) == LINK_END)
        else {
            return false;
        };
        (square, kind)
    };
    let mut seen = 1;
    loop {
        let Some((out, next)) = (0..3)
            .filter(|&kind| kind != came)
            .map(|kind| (kind, link(at, kind)))
            .find(|&(_, next)| next != NO_LINK)
        else {
            // Only a tour end on the cut has a single link.
            return ends & (1 << at) != 0 && seen == nodes;
        };
        if next == LINK_END {
            return seen == nodes;
        }
        at = next as usize;
        came = out;
        seen += 1;
        if seen > nodes {
            return false;
        }
    }
}
