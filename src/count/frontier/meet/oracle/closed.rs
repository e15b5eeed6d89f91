//! The closed join: top and turned bottom states that close into a single cycle.

use hashbrown::HashMap;
use num_bigint::BigUint;
use rayon::prelude::*;

use crate::cancel::CancelFlag;
use crate::count::frontier::counts::tally::{ProductSum, Tally};
use crate::count::frontier::meet::cut::{chosen_moves, code_degree, label_partner};
use crate::count::frontier::pass::layer::Layer;
use crate::count::frontier::sweep::{FIRST_LABEL, FULL, Key};
use crate::count::frontier::window::state::{Codec, Word};
use crate::error::Error;

/// Joins the top half's states with their half turns into closed tours: on every cut square
/// the moves of both halves (and the self-turned moves chosen, of `fixed`) add up to 2, and
/// the paths of both halves close into a single cycle.
pub(crate) fn closed_join<Wd: Word, K: Key, T: Tally + Into<u128> + Copy>(
    layer: Layer<T, K>,
    codec: &Codec,
    cut: usize,
    offset: usize,
    fixed: &[(usize, usize)],
    cancel: &CancelFlag,
) -> Result<BigUint, Error> {
    // Each state becomes the degrees and pairings of the cut's squares, grouped by degrees.
    let mut classes: HashMap<u64, Vec<(u128, T)>> = HashMap::new();
    for shard in layer {
        for (key, count) in shard {
            let (window, _) = codec.decode_key::<Wd, K>(key);
            if offset == 1 && window.code(0) != FULL {
                continue; // a square above the cut left unfinished
            }
            // Two bits a cut square's degree, five its partner: cuts of up to 24 squares.
            let mut degrees = 0u64;
            let mut partners = u128::MAX;
            for i in 0..cut {
                let code = window.code(i + offset);
                degrees |= u64::from(code_degree(code)) << (2 * i);
                if code >= FIRST_LABEL {
                    let other = label_partner(window, i, cut, offset);
                    partners &= !(31u128 << (5 * i));
                    partners |= (other as u128) << (5 * i);
                }
            }
            classes.entry(degrees).or_default().push((partners, count));
        }
    }
    cancel.check()?;
    let last = cut - 1;
    let entries: Vec<(&u64, &Vec<(u128, T)>)> = classes.iter().collect();
    let total = entries
        .par_iter()
        .map(|&(&degrees, tops)| {
            let mut sum = BigUint::default();
            for chosen in 0..1usize << fixed.len() {
                let (used, extra) = chosen_moves(fixed, chosen);
                // Degrees the bottom must bring, as a state of the top half turned.
                let mut wanted = 0u64;
                let mut possible = true;
                for i in 0..cut {
                    let have = ((degrees >> (2 * (last - i))) & 3) + u64::from(extra[last - i]);
                    if have > 2 {
                        possible = false;
                        break;
                    }
                    wanted |= (2 - have) << (2 * i);
                }
                let Some(bottoms) = classes.get(&wanted).filter(|_| possible) else {
                    continue;
                };
                sum += join_class(degrees, wanted, &used, tops, bottoms, cut);
            }
            sum
        })
        .reduce(BigUint::default, |a, b| a + b);
    Ok(total)
}

/// The ways the top states `tops` (degrees `degrees` on the cut) and the bottom states
/// `bottoms` (stored as top states: cut square `i` of a bottom state is square `last - i`;
/// degrees `wanted` in that form), with the moves `used` across the cut, close into a single
/// cycle, weighted by their counts.
fn join_class<T: Tally + Into<u128> + Copy>(
    degrees: u64,
    wanted: u64,
    used: &[(usize, usize)],
    tops: &[(u128, T)],
    bottoms: &[(u128, T)],
    cut: usize,
) -> BigUint {
    let last = cut - 1;
    let degree = |d: u64, i: usize| (d >> (2 * i)) & 3;
    let partner = |links: u128, i: usize| ((links >> (5 * i)) & 31) as usize;
    // The squares where paths meet, and their links by kind: 0 top, 1 across, 2 bottom.
    let mut nodes: Vec<usize> = Vec::new();
    for i in 0..cut {
        let top = degree(degrees, i) == 1;
        let bottom = degree(wanted, last - i) == 1;
        let across = used.iter().any(|&(a, b)| a == i || b == i);
        if top || bottom || across {
            nodes.push(i);
        }
    }
    let mut sum = ProductSum::new();
    if nodes.is_empty() {
        return sum.total(); // the halves would not meet
    }
    if used.is_empty() {
        // Every node has a top link and a bottom link: alternate them.
        for &(top, top_count) in tops {
            for &(bottom, bottom_count) in bottoms {
                let mut at = nodes[0];
                let mut seen = 0;
                loop {
                    let across = partner(top, at);
                    at = last - partner(bottom, last - across);
                    seen += 2;
                    if at == nodes[0] || seen > nodes.len() {
                        break;
                    }
                }
                if seen == nodes.len() && at == nodes[0] {
                    sum.add(top_count.into(), bottom_count.into());
                }
            }
        }
        return sum.total();
    }
    for &(top, top_count) in tops {
        for &(bottom, bottom_count) in bottoms {
            let link = |at: usize, kind: usize| -> Option<usize> {
                match kind {
                    0 if degree(degrees, at) == 1 => Some(partner(top, at)),
                    1 => used.iter().find_map(|&(a, b)| {
                        if a == at {
                            Some(b)
                        } else if b == at {
                            Some(a)
                        } else {
                            None
                        }
                    }),
                    2 if degree(wanted, last - at) == 1 => Some(last - partner(bottom, last - at)),
                    _ => None,
                }
            };
            // Walk the cycle through the first node: leave each node by the link it was not
            // entered by.
            let start = nodes[0];
            let Some(first) = (0..3).find(|&kind| link(start, kind).is_some()) else {
                continue;
            };
            let (mut at, mut came_by) = (link(start, first).expect("found"), first);
            let mut seen = 1;
            let mut closed = false;
            while seen <= nodes.len() {
                if at == start {
                    closed = true;
                    break;
                }
                seen += 1;
                let Some(out) = (0..3).find(|&kind| kind != came_by && link(at, kind).is_some())
                else {
                    break;
                };
                at = link(at, out).expect("found");
                came_by = out;
            }
            if closed && seen == nodes.len() {
                sum.add(top_count.into(), bottom_count.into());
            }
        }
    }
    sum.total()
}
