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
    offsets: Vec<usize>,
    sources: Vec<u32>,
    /// The states that finish a board at this square (as often as they do).
    finished: Vec<u32>,
}

impl SquareTransfer {
    /// Records the square of `step` from the sorted states `from`.
    pub(super) fn record<Wd: Word>(
        plan: &Plan,
        codec: &Codec,
        step: &Step<Wd>,
        from: &[u64],
    ) -> SquareTransfer {
        const CHUNK: usize = 4096;
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
        edges.par_sort_unstable();
        let mut keys = Vec::new();
        let mut offsets = vec![0];
        let mut sources = Vec::with_capacity(edges.len());
        for (i, &(key, source)) in edges.iter().enumerate() {
            if i > 0 && edges[i - 1].0 != key {
                offsets.push(i);
            }
            if i == 0 || edges[i - 1].0 != key {
                keys.push(key);
            }
            sources.push(source);
        }
        offsets.push(edges.len());
        if keys.is_empty() {
            offsets = vec![0];
        }
        SquareTransfer {
            keys,
            offsets,
            sources,
            finished,
        }
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
            + self.offsets.capacity() * std::mem::size_of::<usize>()
            + (self.sources.capacity() + self.finished.capacity()) * 4) as u64
    }

    /// The counts after the square from those before it (of the states it was recorded
    /// from), and the ways that finish a board at it; `None` when a count overflows its type.
    pub(super) fn apply<T: Tally>(&self, counts: &[T]) -> Option<(Vec<T>, T)> {
        let next: Option<Vec<T>> = (0..self.keys.len())
            .into_par_iter()
            .with_min_len(1024)
            .map(|t| {
                let mut sum = T::zero();
                for &source in &self.sources[self.offsets[t]..self.offsets[t + 1]] {
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

    #[test]
    fn fingerprints_tell_sets_apart_whatever_the_order() {
        let a = fingerprint([1u64, 2, 3].into_iter());
        assert_eq!(a, fingerprint([3u64, 1, 2].into_iter()));
        assert_ne!(a, fingerprint([1u64, 2, 4].into_iter()));
        assert_ne!(a, fingerprint([1u64, 2].into_iter()));
    }
}
