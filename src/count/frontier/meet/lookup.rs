//! The join by lookup, for open and closed tours alike.
//!
//! An open path becomes a closed cycle through one extra vertex, `INF`, standing for both tour
//! ends (Knuth's trick for Hamiltonian paths): a path that runs to a tour end inside a half is
//! a link to `INF`, and so is a tour end on a cut square. On the cut, each half is then a set
//! of links between cut squares and `INF`, and a tour is a top, a bottom, and a choice of the
//! self-turned moves and of the tour ends on the cut, whose links make one cycle through every
//! square they touch.
//!
//! Pairs are never walked. For each class of bottoms (cut degrees, tour ends behind), the
//! degrees the tops must bring follow from each choice, so their class is looked up; each such
//! top, with the chosen moves and ends, is followed to where it meets the bottom's path ends,
//! which gives the perfect matching of those ends that the top side makes; equal matchings are
//! added up in one map (very many tops make the same one). The bottoms of the class, as
//! matchings too, are sorted into a trie, and the map is pushed down the trie one bottom link
//! at a time: a link joins two paths into one, or closes a cycle, which only the last link may
//! do. Equal partial matchings merge again at every level, and the leaves give the count.

use hashbrown::HashMap;
use num_bigint::BigUint;
use rayon::prelude::*;

use super::classes::{Bottoms, CutClasses, CutState, class_key, degree_of, ends_of};
use super::cut::{CutWord, MAX_CUT_SQUARES, chosen_moves};
use crate::cancel::CancelFlag;
use crate::count::frontier::counts::tally::ProductSum;
use crate::count::frontier::counts::tally::Tally;
use crate::error::Error;

/// The vertex that stands for both tour ends (after every cut square).
const INF: usize = MAX_CUT_SQUARES;
/// The cut squares and `INF`.
const NODES: usize = MAX_CUT_SQUARES + 1;
/// No link, no rank.
const NONE: u8 = 255;

/// What a join is asked: the cut's squares, the self-turned moves, open or closed tours, and
/// the cut squares (one bit a square) that must hold a tour end.
#[derive(Clone, Copy)]
pub(super) struct JoinRules<'a> {
    pub(super) cut: usize,
    pub(super) fixed: &'a [(usize, usize)],
    pub(super) open: bool,
    pub(super) required: u32,
}

impl JoinRules<'_> {
    /// The rules of an open join on a cut of `cut` squares with the self-turned moves `fixed`.
    pub(super) fn open(cut: usize, fixed: &[(usize, usize)], required: u32) -> JoinRules<'_> {
        JoinRules {
            cut,
            fixed,
            open: true,
            required,
        }
    }
}

/// The number of tours (each path or cycle once) made of a top state of `tops` and a bottom
/// state of `bottoms` (a half's states turned 180 degrees: cut square `i` of a bottom is square
/// `cut - 1 - i` of the top), or `None` when a sum of counts overflows 128 bits. Tops kept a
/// pair of mirror images at a time are taken so (each pair once, with the count of both): right
/// where the bottoms and the required ends are symmetric left to right.
pub(super) fn lookup_join<L: CutWord, T: Tally + Copy + Into<u128>>(
    tops: &CutClasses<L, T>,
    bottoms: Bottoms<'_, L, T>,
    rules: JoinRules,
    cancel: &CancelFlag,
) -> Result<Option<BigUint>, Error> {
    cancel.check()?;
    let mut classes = bottoms.keys();
    // The largest classes first, so that all threads finish together.
    classes.sort_unstable_by_key(|&key| (std::cmp::Reverse(bottoms.kept(key)), key));
    let total = classes
        .par_iter()
        .map(|&key| {
            if cancel.is_cancelled() {
                return Some(BigUint::default());
            }
            join_class(tops, key, &bottoms.whole(key), rules)
        })
        .try_reduce(BigUint::default, |a, b| Some(a + b));
    cancel.check()?;
    Ok(total)
}

/// The path ends of one class of bottoms, in the top's coordinates: the rank of each node
/// (cut squares of degree 1 in the bottom, then `INF` when one tour end lies behind the bottom).
struct Ends {
    rank: [u8; NODES],
    nodes: usize,
    /// The cut's squares.
    cut: usize,
}

impl Ends {
    /// The nodes a top's links may touch: the cut squares, then `INF`.
    fn nodes(&self) -> impl Iterator<Item = usize> + use<> {
        (0..self.cut).chain(std::iter::once(INF))
    }
}

/// The tours made with the bottoms of class `key`.
fn join_class<L: CutWord, T: Tally + Copy + Into<u128>>(
    tops: &CutClasses<L, T>,
    key: u64,
    bottoms: &[CutState<L, T>],
    rules: JoinRules,
) -> Option<BigUint> {
    let JoinRules {
        cut,
        fixed,
        open,
        required,
    } = rules;
    let last = cut - 1;
    let bottom_ends = ends_of(key) as usize;
    let bottom_degree = |i: usize| degree_of(key, last - i);
    let mut ends = Ends {
        rank: [NONE; NODES],
        nodes: 0,
        cut,
    };
    for i in 0..cut {
        if bottom_degree(i) == 1 {
            ends.rank[i] = ends.nodes as u8;
            ends.nodes += 1;
        }
    }
    if bottom_ends == 1 {
        ends.rank[INF] = ends.nodes as u8;
        ends.nodes += 1;
    }
    // A bottom meets the top where its paths end; with none, or an odd number, it cannot.
    if ends.nodes == 0 || ends.nodes % 2 == 1 || (!open && bottom_ends > 0) {
        return Some(BigUint::default());
    }

    // The matchings the top side makes of the bottom's path ends, with their summed counts.
    let mut made: HashMap<L, u128> = HashMap::new();
    let mut overflow = false;
    for chosen in 0..1usize << fixed.len() {
        let (used, extra) = chosen_moves(fixed, chosen);
        if (0..cut).any(|i| bottom_degree(i) + extra[i] > 2) {
            continue;
        }
        let may_end: Vec<usize> = if open {
            (0..cut)
                .filter(|&i| bottom_degree(i) + extra[i] <= 1)
                .collect()
        } else {
            Vec::new()
        };
        for tour_ends in end_sets(&may_end, 2usize.saturating_sub(bottom_ends)) {
            if tour_ends & required != required {
                continue;
            }
            let on_cut = tour_ends.count_ones() as usize;
            let top_ends = if open { 2 - bottom_ends - on_cut } else { 0 };
            let mut top_degrees = 0u64;
            for (i, moves) in extra.iter().enumerate().take(cut) {
                let end = u32::from(tour_ends & (1 << i) != 0);
                top_degrees |= u64::from(2 - end - moves - bottom_degree(i)) << (2 * i);
            }
            let top_class = tops.class(class_key(top_degrees, top_ends as u32));
            if top_class.is_empty() {
                continue;
            }
            // The links every top of the class gets: the chosen moves, and the tour ends on
            // the cut (to INF).
            let mut base = Links::new();
            let mut fits = true;
            for &(i, j) in &used {
                fits &= base.join(i, j);
            }
            for i in (0..cut).filter(|&i| tour_ends & (1 << i) != 0) {
                fits &= base.join(i, INF);
            }
            if !fits {
                continue;
            }
            for top in top_class {
                let links = base.with_top(top.links, top_degrees, cut);
                if let Some(matching) = links.and_then(|links| links.matching(&ends)) {
                    let sum = made.entry(matching).or_insert(0);
                    match sum.checked_add(top.count.into()) {
                        Some(total) => *sum = total,
                        None => overflow = true,
                    }
                }
            }
        }
    }
    if overflow {
        return None;
    }
    if made.is_empty() {
        return Some(BigUint::default());
    }

    // The bottoms as matchings of the same nodes, sorted into a trie, equal ones added up.
    let mut sequences: Vec<(L, u128)> = bottoms
        .iter()
        .map(|bottom| {
            (
                bottom_sequence(bottom.links, key, &ends, cut),
                bottom.count.into(),
            )
        })
        .collect();
    sequences.sort_unstable_by_key(|&(sequence, _)| sequence);
    sequences.dedup_by(|next, kept| {
        let same = next.0 == kept.0;
        if same {
            match kept.1.checked_add(next.1) {
                Some(total) => kept.1 = total,
                None => overflow = true,
            }
        }
        same
    });
    if overflow {
        return None;
    }
    let mut sum = ProductSum::new();
    let mut maps = vec![HashMap::new(); ends.nodes / 2];
    descend(&sequences, 0, ends.nodes / 2, 0, &made, &mut maps, &mut sum)?;
    Some(sum.total())
}

/// The sets of at most `most` squares of `may_end` (as bits), the empty set first.
fn end_sets(may_end: &[usize], most: usize) -> Vec<u32> {
    let mut sets = vec![0u32];
    if most >= 1 {
        for (n, &i) in may_end.iter().enumerate() {
            sets.push(1 << i);
            if most >= 2 {
                for &j in &may_end[n + 1..] {
                    sets.push(1 << i | 1 << j);
                }
            }
        }
    }
    sets
}

/// The top side's links of the cut squares and `INF`: at most two a node.
#[derive(Clone, Copy)]
struct Links([[u8; 2]; NODES]);

impl Links {
    fn new() -> Links {
        Links([[NONE; 2]; NODES])
    }

    /// Adds a link from `a` to `b` (one way); false when `a` has two already.
    fn link(&mut self, a: usize, b: usize) -> bool {
        let slots = &mut self.0[a];
        if slots[0] == NONE {
            slots[0] = b as u8;
        } else if slots[1] == NONE {
            slots[1] = b as u8;
        } else {
            return false;
        }
        true
    }

    /// Adds a link between `a` and `b`, both ways.
    fn join(&mut self, a: usize, b: usize) -> bool {
        self.link(a, b) && self.link(b, a)
    }

    /// These links and those of a top state (its `links` word on the cut squares of degree 1
    /// in `degrees`).
    fn with_top<L: CutWord>(&self, links: L, degrees: u64, cut: usize) -> Option<Links> {
        let mut all = *self;
        for i in 0..cut {
            if (degrees >> (2 * i)) & 3 != 1 {
                continue;
            }
            let other = links.field(i);
            let fits = if other == i {
                all.join(i, INF)
            } else {
                all.link(i, other) // the other end adds the way back
            };
            if !fits {
                return None;
            }
        }
        Some(all)
    }

    /// The perfect matching of the bottom's path ends (by rank, a field a rank) that these
    /// links make, following each from an end through the squares the top side passes; `None`
    /// when they close a cycle among themselves.
    fn matching<L: CutWord>(&self, ends: &Ends) -> Option<L> {
        let links = self;
        // The nodes the top side passes through: two links, no bottom path end.
        let passes = ends
            .nodes()
            .filter(|&x| links.0[x][0] != NONE && ends.rank[x] == NONE)
            .count();
        let mut matching = L::default();
        let mut matched = 0u32;
        let mut passed = 0;
        for from in ends.nodes() {
            let r = ends.rank[from];
            if r == NONE || matched & (1 << r) != 0 {
                continue;
            }
            if links.0[from][1] != NONE {
                return None; // a path end of the bottom takes one link of the top side
            }
            let (mut before, mut at) = (from, links.0[from][0] as usize);
            while at != NONE as usize && ends.rank[at] == NONE {
                let [a, b] = links.0[at];
                if a == b || b == NONE {
                    return None;
                }
                let next = if a as usize == before { b } else { a };
                (before, at) = (at, next as usize);
                passed += 1;
                if passed > passes {
                    return None;
                }
            }
            if at == NONE as usize || at == from {
                return None;
            }
            let s = ends.rank[at];
            if matched & (1 << s) != 0 {
                return None;
            }
            matching = matching
                .put(usize::from(r), usize::from(s))
                .put(usize::from(s), usize::from(r));
            matched |= 1 << r | 1 << s;
        }
        // Nodes left unpassed lie on cycles of their own: no single tour.
        (passed == passes).then_some(matching)
    }
}

/// The field of the sequence's pair `depth`: the first pair in the highest field of those a
/// sequence uses, so that sequences sort as their pairs do.
fn pair_field<L: CutWord>(depth: usize) -> usize {
    L::FIELDS / 2 - 1 - depth
}

/// A bottom state (links in its own coordinates, class `key`) as a path of the trie: the
/// partner rank of the lowest unmatched rank, pair after pair, first in the highest field.
fn bottom_sequence<L: CutWord>(links: L, key: u64, ends: &Ends, cut: usize) -> L {
    let last = cut - 1;
    let mut partner = [NONE; MAX_CUT_SQUARES];
    let mut to_ends = [NONE; 2];
    let mut tour_ends = 0;
    for j in 0..cut {
        if degree_of(key, j) != 1 {
            continue;
        }
        let i = last - j;
        let other = links.field(j);
        if other == j {
            to_ends[tour_ends] = ends.rank[i];
            tour_ends += 1;
        } else {
            partner[ends.rank[i] as usize] = ends.rank[last - other];
        }
    }
    match to_ends[..tour_ends] {
        // One tour end behind the bottom: its path runs to INF.
        [r] => {
            let inf = ends.rank[INF];
            partner[r as usize] = inf;
            partner[inf as usize] = r;
        }
        // Both: the path through them is one link between its two cut squares.
        [r, s] => {
            partner[r as usize] = s;
            partner[s as usize] = r;
        }
        _ => {}
    }
    let mut sequence = L::default();
    let mut matched = 0u32;
    for depth in 0..ends.nodes / 2 {
        let a = (!matched).trailing_zeros() as usize;
        let b = partner[a];
        sequence = sequence.put(pair_field::<L>(depth), usize::from(b));
        matched |= 1 << a | 1 << b;
    }
    sequence
}

/// Pushes the matchings `made` down the trie of `bottoms` (sorted sequences sharing their first
/// `depth` links; `matched`: the ranks those links took), adding each leaf's ways to `sum`.
/// `maps`: one map a level below this one, kept from node to node (a map allocated anew at
/// every node of the trie is paged in anew too). `None` on overflow.
fn descend<L: CutWord>(
    bottoms: &[(L, u128)],
    depth: usize,
    pairs: usize,
    matched: u32,
    made: &HashMap<L, u128>,
    maps: &mut [HashMap<L, u128>],
    sum: &mut ProductSum,
) -> Option<()> {
    if depth + 1 == pairs {
        // Two ends are left, and every matching joins them: the last link closes the cycle.
        let mut ways = 0u128;
        for &w in made.values() {
            ways = ways.checked_add(w)?;
        }
        for &(_, count) in bottoms {
            sum.add(ways, count);
        }
        return Some(());
    }
    if bottoms.len() <= FEW_BOTTOMS {
        // Few bottoms left: each matching is checked against their remaining links at once,
        // cheaper than a map a level.
        for &(sequence, count) in bottoms {
            let mut ways = 0u128;
            let rest = Remaining::of(sequence, depth, pairs, matched);
            for (&q, &w) in made {
                if rest.one_cycle_with(q) {
                    ways = ways.checked_add(w)?;
                }
            }
            sum.add(ways, count);
        }
        return Some(());
    }
    let a = (!matched).trailing_zeros() as usize;
    let field = pair_field::<L>(depth);
    let (next, deeper) = maps.split_first_mut().expect("a map for every level");
    let mut from = 0;
    while from < bottoms.len() {
        let b = bottoms[from].0.field(field);
        let mut to = from + 1;
        while to < bottoms.len() && bottoms[to].0.field(field) == b {
            to += 1;
        }
        next.clear();
        for (&q, &w) in made {
            let x = q.field(a);
            if x == b {
                continue; // a cycle closed before the last link
            }
            let y = q.field(b);
            let cleared = q.clear(a).clear(b).clear(x).clear(y);
            let joined = cleared.put(x, y).put(y, x);
            let entry = next.entry(joined).or_insert(0);
            *entry = entry.checked_add(w)?;
        }
        if !next.is_empty() {
            descend(
                &bottoms[from..to],
                depth + 1,
                pairs,
                matched | 1 << a | 1 << b,
                next,
                deeper,
                sum,
            )?;
        }
        from = to;
    }
    Some(())
}

/// Bottoms below a node of the trie that are met one by one rather than by going down it.
const FEW_BOTTOMS: usize = 4;

/// The links of one bottom still to come below a node of the trie, by rank.
struct Remaining {
    partner: [u8; MAX_CUT_SQUARES],
    /// The lowest rank still unmatched, and how many are.
    start: u8,
    nodes: u32,
}

impl Remaining {
    /// The links of `sequence` from `depth` on, with the ranks `matched` taken above.
    fn of<L: CutWord>(sequence: L, depth: usize, pairs: usize, mut matched: u32) -> Remaining {
        let mut partner = [NONE; MAX_CUT_SQUARES];
        let start = (!matched).trailing_zeros() as u8;
        for d in depth..pairs {
            let a = (!matched).trailing_zeros() as usize;
            let b = sequence.field(pair_field::<L>(d));
            partner[a] = b as u8;
            partner[b] = a as u8;
            matched |= 1 << a | 1 << b;
        }
        Remaining {
            partner,
            start,
            nodes: 2 * (pairs - depth) as u32,
        }
    }

    /// Whether these links and the matching `q` of the same ranks make one cycle through all.
    fn one_cycle_with<L: CutWord>(&self, q: L) -> bool {
        let start = usize::from(self.start);
        let mut at = start;
        let mut passed = 0;
        loop {
            let across = usize::from(self.partner[at]);
            at = q.field(across);
            passed += 2;
            if at == start {
                return passed == self.nodes;
            }
            if passed >= self.nodes {
                return false;
            }
        }
    }
}
