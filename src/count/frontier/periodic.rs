//! The periodic transfer: in the middle of a long board every row's squares act on states as
//! the same squares a row earlier do, so once the set of states after a row is the set of `p`
//! rows earlier, the next `p` rows map that set onto itself in the same way every time. Their
//! squares are then recorded once, as sparse matrices over the states' positions in sorted
//! order, and every later row in the middle of the board costs a few sparse matrix–vector
//! products: no state is generated, hashed or looked up again.
//!
//! A matrix is kept in pull form, each next state with the states it comes from, so that the
//! next states are summed independently, on both cores. Recording a square also computes its
//! counts, so a record that turns out not to repeat (two sets alike only in their fingerprint)
//! costs nothing but its sort.

use rayon::prelude::*;

use super::plan::Plan;
use super::residue::add_mod;
use super::rules::Outcome;
use super::state::{Codec, Word};
use super::step::Step;
use super::tally::Tally;

/// The longest period looked for, in rows.
pub(super) const MAX_PERIOD: usize = 4;

/// A fingerprint of a set of states: its size and a sum of well-mixed keys, which equal sets
/// share and different ones almost never do.
pub(super) fn fingerprint(keys: impl Iterator<Item = u64>) -> (u64, u64) {
    keys.fold((0, 0), |(len, sum), key| {
        (len + 1, sum.wrapping_add(mix(key)))
    })
}

fn mix(key: u64) -> u64 {
    let mut hash = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    hash ^ (hash >> 31)
}

/// One square as a matrix from the sorted states before it to the sorted states after it.
pub(super) struct SquareTransfer {
    /// The states after the square, sorted.
    keys: Vec<u64>,
    /// Next state `t` comes from the states `sources[offsets[t]..offsets[t + 1]]` (a state
    /// reached twice from one state is listed twice).
    offsets: Vec<u32>,
    sources: Vec<u32>,
    /// The states that finish a board at this square (as often as they do).
    finished: Vec<u32>,
}

impl SquareTransfer {
    /// Records the square of `step` from the sorted states `from`; `None` where its states or
    /// edges are too many to number in 32 bits.
    pub(super) fn record<Wd: Word>(
        plan: &Plan,
        codec: &Codec,
        step: &Step<Wd>,
        from: &[u64],
    ) -> Option<SquareTransfer> {
        const CHUNK: usize = 4096;
        u32::try_from(from.len()).ok()?;
        // Each chunk's edges (next state, source) and finishing sources.
        type Part = (Vec<(u64, u32)>, Vec<u32>);
        let parts: Vec<Part> = from
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, keys)| {
                let (mut edges, mut finished) = (Vec::new(), Vec::new());
                for (i, &key) in keys.iter().enumerate() {
                    let source = (chunk * CHUNK + i) as u32;
                    plan.transitions(codec, step, key, |outcome| match outcome {
                        Outcome::Next(next, _) => edges.push((next, source)),
                        Outcome::Finished(_) => finished.push(source),
                    });
                }
                (edges, finished)
            })
            .collect();
        let mut edges: Vec<(u64, u32)> = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
        let mut finished = Vec::new();
        for (part, done) in parts {
            edges.extend(part);
            finished.extend(done);
        }
        u32::try_from(edges.len()).ok()?;
        edges.par_sort_unstable();
        let mut keys = Vec::new();
        let mut offsets = Vec::new();
        let mut sources = Vec::with_capacity(edges.len());
        for (i, &(key, source)) in edges.iter().enumerate() {
            if i == 0 || edges[i - 1].0 != key {
                keys.push(key);
                offsets.push(i as u32);
            }
            sources.push(source);
        }
        offsets.push(edges.len() as u32);
        Some(SquareTransfer {
            keys,
            offsets,
            sources,
            finished,
        })
    }

    /// The states after the square, sorted.
    pub(super) fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The transitions the square makes.
    pub(super) fn transitions(&self) -> u64 {
        (self.sources.len() + self.finished.len()) as u64
    }

    /// The bytes the matrix holds.
    pub(super) fn bytes(&self) -> u64 {
        (self.keys.capacity() * 8
            + (self.offsets.capacity() + self.sources.capacity() + self.finished.capacity()) * 4)
            as u64
    }

    /// The counts after the square from those before it (of the states it was recorded
    /// from), and the ways that finish a board at it; `None` when a count overflows its type.
    pub(super) fn apply<T: Tally>(&self, counts: &[T]) -> Option<(Vec<T>, T)> {
        let next: Option<Vec<T>> = (0..self.keys.len())
            .into_par_iter()
            .with_min_len(1024)
            .map(|t| {
                let mut sum = T::zero();
                let (from, to) = (self.offsets[t] as usize, self.offsets[t + 1] as usize);
                for &source in &self.sources[from..to] {
                    if !sum.add(&counts[source as usize]) {
                        return None;
                    }
                }
                Some(sum)
            })
            .collect();
        let mut finished = T::zero();
        for &source in &self.finished {
            if !finished.add(&counts[source as usize]) {
                return None;
            }
        }
        Some((next?, finished))
    }

    /// [`SquareTransfer::apply`] for one lane of the counts, added modulo `modulus` (0:
    /// `2^64`), into `next`; on both cores or on this one. Returns the ways that finish.
    fn apply_lane(&self, counts: &[u64], next: &mut Vec<u64>, modulus: u64, both: bool) -> u64 {
        if modulus == 0 {
            self.apply_lane_with(counts, next, both, u64::wrapping_add)
        } else {
            self.apply_lane_with(counts, next, both, |a, b| add_mod(a, b, modulus))
        }
    }

    #[inline(always)]
    fn apply_lane_with(
        &self,
        counts: &[u64],
        next: &mut Vec<u64>,
        both: bool,
        add: impl Fn(u64, u64) -> u64 + Sync,
    ) -> u64 {
        let sum = |t: usize| {
            let (from, to) = (self.offsets[t] as usize, self.offsets[t + 1] as usize);
            self.sources[from..to]
                .iter()
                .fold(0, |sum, &source| add(sum, counts[source as usize]))
        };
        next.clear();
        if both {
            next.resize(self.keys.len(), 0);
            next.par_iter_mut()
                .enumerate()
                .with_min_len(4096)
                .for_each(|(t, count)| *count = sum(t));
        } else {
            next.extend((0..self.keys.len()).map(sum));
        }
        self.finished
            .iter()
            .fold(0, |sum, &source| add(sum, counts[source as usize]))
    }
}

/// Counts held lane by lane (see [`Tally::LANES`]): lane `j` of every state in one vector, so
/// that a run of squares goes one lane at a time, lanes side by side on the cores, each with
/// its states in the cache (the counts of all lanes together are many times larger).
pub(super) struct LaneCounts {
    lanes: Vec<Vec<u64>>,
}

impl LaneCounts {
    /// The counts as lanes; `None` for a count type without lanes.
    pub(super) fn split<T: Tally>(counts: &[T]) -> Option<LaneCounts> {
        (T::LANES > 0).then(|| LaneCounts {
            lanes: (0..T::LANES)
                .into_par_iter()
                .map(|j| counts.iter().map(|c| c.lanes()[j]).collect())
                .collect(),
        })
    }

    /// The counts put back together.
    pub(super) fn join<T: Tally>(self) -> Vec<T> {
        let states = self.lanes.first().map_or(0, Vec::len);
        let mut word = vec![0; self.lanes.len()];
        (0..states)
            .map(|i| {
                for (w, lane) in word.iter_mut().zip(&self.lanes) {
                    *w = lane[i];
                }
                T::from_lanes(&word)
            })
            .collect()
    }

    /// Runs the counts through `transfers`, one after the other; returns the ways that finish
    /// a board at each.
    pub(super) fn apply<T: Tally>(&mut self, transfers: &[&SquareTransfer]) -> Vec<T> {
        // Lanes side by side on the cores; a single lane splits its states between them.
        let both = self.lanes.len() == 1;
        let finished: Vec<Vec<u64>> = self
            .lanes
            .par_iter_mut()
            .enumerate()
            .map(|(j, lane)| {
                let modulus = T::lane_modulus(j);
                let mut next = Vec::new();
                transfers
                    .iter()
                    .map(|transfer| {
                        let finished = transfer.apply_lane(lane, &mut next, modulus, both);
                        std::mem::swap(lane, &mut next);
                        finished
                    })
                    .collect()
            })
            .collect();
        let mut word = vec![0; self.lanes.len()];
        (0..transfers.len())
            .map(|s| {
                for (w, lane) in word.iter_mut().zip(&finished) {
                    *w = lane[s];
                }
                T::from_lanes(&word)
            })
            .collect()
    }
}

/// The squares of one period, recorded from the sorted states after the row before it.
pub(super) struct Period {
    /// The first square recorded.
    pub(super) first: usize,
    pub(super) squares: Vec<SquareTransfer>,
}

impl Period {
    /// The period's length in squares.
    pub(super) fn len(&self) -> usize {
        self.squares.len()
    }

    /// The matrix of square `v`, which lies a whole number of periods after the first.
    pub(super) fn square(&self, v: usize) -> &SquareTransfer {
        &self.squares[(v - self.first) % self.len()]
    }

    /// The bytes the matrices hold.
    pub(super) fn bytes(&self) -> u64 {
        self.squares.iter().map(SquareTransfer::bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::count::frontier::tally::{Residues, Wrapping64};

    /// Three squares over a few states, edges repeated and states finishing.
    fn transfers() -> Vec<SquareTransfer> {
        // (next states, their sources, finishing sources), the sources of each in order.
        type Square<'a> = (usize, &'a [&'a [u32]], &'a [u32]);
        let squares: [Square; 3] = [
            (3, &[&[0, 0, 1], &[2], &[1, 3]], &[0]),
            (2, &[&[0, 1, 2], &[2, 2]], &[1, 1]),
            (4, &[&[0], &[1], &[0, 1], &[1]], &[]),
        ];
        squares
            .iter()
            .map(|(states, sources, finished)| {
                let mut offsets = vec![0];
                for s in sources.iter() {
                    offsets.push(offsets.last().unwrap() + s.len() as u32);
                }
                SquareTransfer {
                    keys: (0..*states as u64).collect(),
                    offsets,
                    sources: sources.concat(),
                    finished: finished.to_vec(),
                }
            })
            .collect()
    }

    /// The counts lane by lane equal the counts whole, modulo 2^64 (one lane, on both cores)
    /// and modulo three primes.
    fn lanes_agree<T: Tally + PartialEq + std::fmt::Debug>(start: Vec<T>) {
        let transfers = transfers();
        let mut whole = start.clone();
        let mut finished_whole = Vec::new();
        for transfer in &transfers {
            let (next, finished) = transfer.apply(&whole).unwrap();
            whole = next;
            finished_whole.push(finished);
        }
        let mut lanes = LaneCounts::split(&start).unwrap();
        let finished = lanes.apply::<T>(&transfers.iter().collect::<Vec<_>>());
        assert_eq!(finished, finished_whole);
        assert_eq!(lanes.join::<T>(), whole);
    }

    #[test]
    fn counts_lane_by_lane_equal_counts_whole() {
        lanes_agree(vec![
            Wrapping64(u64::MAX - 1),
            Wrapping64(5),
            Wrapping64(7),
            Wrapping64(u64::MAX),
        ]);
        let p = crate::count::frontier::residue::PRIMES;
        lanes_agree(vec![
            Residues([p[0] - 1, 3, p[2] - 2]),
            Residues([1, p[1] - 1, 9]),
            Residues([p[0] - 3, p[1] - 5, 2]),
            Residues([11, 12, 13]),
        ]);
        assert!(LaneCounts::split(&[1u64, 2]).is_none());
    }

    #[test]
    fn fingerprints_tell_sets_apart_whatever_the_order() {
        let a = fingerprint([1u64, 2, 3].into_iter());
        assert_eq!(a, fingerprint([3u64, 1, 2].into_iter()));
        assert_ne!(a, fingerprint([1u64, 2, 4].into_iter()));
        assert_ne!(a, fingerprint([1u64, 2].into_iter()));
    }
}
