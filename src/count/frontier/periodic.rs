//! The periodic transfer: in the middle of a long board every row's squares act on states as
//! the same squares a row earlier do, so the next `p` rows map states in the same way every
//! time. Their squares are then recorded once, as sparse matrices over sets of states closed
//! under the period (every state the period can reach from its set is in it), and every later
//! row in the middle of the board costs a few sparse matrix–vector products: no state is
//! generated, hashed or looked up again.
//!
//! The sets are closed, not waited for: the states after a row grow for many rows before they
//! repeat (six rows' open tours still gain states after twelve rows), but once a row's states
//! are within a small fraction of those a period earlier (the pass decides when), the states
//! every later row can reach are found at once, round after round of the new states only. A
//! state no row has reached yet is simply counted 0.
//!
//! A matrix is kept in pull form, each next state with the states it comes from, so that the
//! next states are summed independently, on both cores.

use hashbrown::HashMap;
use rayon::prelude::*;

use super::residue::add_mod;
use super::rules::Outcome;
use super::sweep::Sweep;
use super::tally::Tally;
use crate::cancel::CancelFlag;
use crate::error::Error;

/// The longest period looked for, in rows.
pub(super) const MAX_PERIOD: usize = 4;

/// The most times the new states may go round a period before its sets are taken as not
/// closing (the pass then goes on square by square).
const MAX_ROUNDS: usize = 1024;

/// One square as a matrix from the states before it to the states after it, each set in the
/// order its states were first reached.
pub(super) struct SquareTransfer {
    /// The states after the square.
    keys: Vec<u64>,
    /// Next state `t` comes from the states `sources[offsets[t]..offsets[t + 1]]` (a state
    /// reached twice from one state is listed twice).
    offsets: Vec<u32>,
    sources: Vec<u32>,
    /// The states that finish a board at this square (as often as they do).
    finished: Vec<u32>,
}

/// The states before one square of a period being recorded, numbered in the order they were
/// first reached.
#[derive(Default)]
struct StateSet {
    keys: Vec<u64>,
    index: HashMap<u64, u32>,
}

impl StateSet {
    /// The number of `key`, and whether it is new; `None` past 32 bits.
    fn insert(&mut self, key: u64) -> Option<(u32, bool)> {
        let next = u32::try_from(self.keys.len()).ok()?;
        let mut new = false;
        let number = *self.index.entry(key).or_insert_with(|| {
            new = true;
            next
        });
        if new {
            self.keys.push(key);
        }
        Some((number, new))
    }

    /// The bytes held: the keys, and the map's buckets (a key, a number and a control byte).
    fn bytes(&self) -> u64 {
        (self.keys.capacity() * 8 + self.index.capacity() * 13) as u64
    }
}

impl Period {
    /// Records the squares of `steps` (whole rows, from square `first`), the last leading back
    /// to the first, over sets closed under them: from the states `start` (the head of the
    /// first set, in their order), the new states of each square are taken through it, round
    /// after round, until a square reaches none new. `None` where the sets do not close within
    /// `max_bytes` or [`MAX_ROUNDS`], or are too many to number in 32 bits.
    pub(super) fn record_closed<S: Sweep>(
        sweep: &S,
        steps: &[S::Step],
        first: usize,
        start: &[u64],
        max_bytes: u64,
        cancel: &CancelFlag,
    ) -> Result<Option<Period>, Error> {
        const CHUNK: usize = 4096;
        let n = steps.len();
        // sets[j]: the states before square j of the period (sets[0] also those after it).
        let mut sets: Vec<StateSet> = (0..n).map(|_| StateSet::default()).collect();
        let mut fresh = Vec::with_capacity(start.len());
        for &key in start {
            let Some((number, _)) = sets[0].insert(key) else {
                return Ok(None);
            };
            fresh.push(number);
        }
        // Each square's moves as (next state << 32 | state), and its finishing states.
        let mut edges: Vec<Vec<u64>> = (0..n).map(|_| Vec::new()).collect();
        let mut finished: Vec<Vec<u32>> = (0..n).map(|_| Vec::new()).collect();
        let (mut j, mut rounds) = (0, 0);
        while !fresh.is_empty() {
            cancel.check()?;
            let keys: Vec<u64> = fresh.iter().map(|&s| sets[j].keys[s as usize]).collect();
            type Part = (Vec<(u64, u32)>, Vec<u32>);
            let parts: Vec<Part> = keys
                .par_chunks(CHUNK)
                .zip(fresh.par_chunks(CHUNK))
                .map(|(keys, numbers)| {
                    let (mut next, mut done) = (Vec::new(), Vec::new());
                    for (&key, &source) in keys.iter().zip(numbers) {
                        sweep.transitions(&steps[j], key, |outcome| match outcome {
                            Outcome::Next(key, _) => next.push((key, source)),
                            Outcome::Finished(_) => done.push(source),
                        });
                    }
                    (next, done)
                })
                .collect();
            drop(keys);
            let to = (j + 1) % n;
            let mut next_fresh = Vec::new();
            for (next, done) in parts {
                finished[j].extend(done);
                edges[j].reserve(next.len());
                for (key, source) in next {
                    let Some((number, new)) = sets[to].insert(key) else {
                        return Ok(None);
                    };
                    if new {
                        next_fresh.push(number);
                    }
                    edges[j].push(u64::from(number) << 32 | u64::from(source));
                }
            }
            let too_many = edges[j].len() >= u32::MAX as usize;
            fresh = next_fresh;
            j = to;
            if j == 0 {
                rounds += 1;
            }
            let bytes: u64 = sets.iter().map(StateSet::bytes).sum::<u64>()
                + edges.iter().map(|e| e.capacity() as u64 * 8).sum::<u64>();
            if too_many || rounds > MAX_ROUNDS || bytes > max_bytes {
                return Ok(None);
            }
        }
        // Square j leads to the states of set j + 1 (the last square, to those of set 0).
        let mut keys: Vec<Vec<u64>> = sets.into_iter().map(|set| set.keys).collect();
        keys.rotate_left(1);
        let squares = keys
            .into_iter()
            .zip(edges)
            .zip(finished)
            .map(|((keys, mut edges), finished)| {
                edges.par_sort_unstable();
                let mut offsets = vec![0u32; keys.len() + 1];
                for &edge in &edges {
                    offsets[(edge >> 32) as usize + 1] += 1;
                }
                for t in 0..keys.len() {
                    offsets[t + 1] += offsets[t];
                }
                let sources = edges.iter().map(|&edge| edge as u32).collect();
                SquareTransfer {
                    keys,
                    offsets,
                    sources,
                    finished,
                }
            })
            .collect();
        Ok(Some(Period { first, squares }))
    }

    /// The states the period starts from and ends at.
    pub(super) fn start_states(&self) -> usize {
        self.squares.last().map_or(0, |square| square.keys.len())
    }
}

impl SquareTransfer {
    /// The states after the square.
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
/// its states in the cache (the counts of all lanes together are many times larger). Only the
/// lanes the pass reads its counts from are run: a count type is compiled for a few sizes, and
/// a pass that needs 35 primes keeps its counts in 64 (the other lanes come back as 0).
pub(super) struct LaneCounts {
    lanes: Vec<Vec<u64>>,
    /// The lanes of the count type.
    width: usize,
}

impl LaneCounts {
    /// The first `used` lanes of the counts; `None` for a count type without lanes.
    pub(super) fn split<T: Tally>(counts: &[T], used: usize) -> Option<LaneCounts> {
        (T::LANES > 0).then(|| LaneCounts {
            lanes: (0..used.clamp(1, T::LANES))
                .into_par_iter()
                .map(|j| counts.iter().map(|c| c.lanes()[j]).collect())
                .collect(),
            width: T::LANES,
        })
    }

    /// The counts put back together.
    pub(super) fn join<T: Tally>(self) -> Vec<T> {
        let states = self.lanes.first().map_or(0, Vec::len);
        let mut word = vec![0; self.width];
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
        let mut word = vec![0; self.width];
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

/// The squares of one period, recorded over sets of states closed under it.
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
        let mut lanes = LaneCounts::split(&start, T::LANES).unwrap();
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
        assert!(LaneCounts::split(&[1u64, 2], 1).is_none());
        // Only the lanes asked for are run; the others come back as 0.
        let start = vec![
            Residues([5, 6, 7]),
            Residues([p[0] - 1, p[1] - 1, 1]),
            Residues([2, 3, p[2] - 4]),
            Residues([8, 9, 10]),
        ];
        let mut whole = start.clone();
        for transfer in &transfers() {
            whole = transfer.apply(&whole).unwrap().0;
        }
        let mut lanes = LaneCounts::split(&start, 2).unwrap();
        lanes.apply::<Residues<3>>(&transfers().iter().collect::<Vec<_>>());
        let first_two: Vec<_> = whole
            .iter()
            .map(|c| Residues([c.0[0], c.0[1], 0]))
            .collect();
        assert_eq!(lanes.join::<Residues<3>>(), first_two);
    }
}
