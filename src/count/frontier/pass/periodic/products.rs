//! How counts are run through recorded squares: the sparse matrix–vector products behind a
//! small trait ([`Products`]), so that another kernel (SIMD, a GPU, another process) is one
//! more implementation; [`Rayon`], on the threads of the pool, is the first. The counts of a
//! period are held whole or lane by lane ([`PeriodCounts`]).

use rayon::prelude::*;

use super::matrix::SquareTransfer;
use crate::count::frontier::counts::residue::add_mod;
use crate::count::frontier::counts::tally::Tally;

/// The products of a recorded square with a vector of counts.
pub(crate) trait Products: Sync {
    /// The counts after `square` from those before it (of the states it was recorded from),
    /// and the ways that finish a board at it; `None` when a count overflows its type.
    fn whole<T: Tally, K: Sync>(
        &self,
        square: &SquareTransfer<K>,
        counts: &[T],
    ) -> Option<(Vec<T>, T)>;

    /// [`Products::whole`] for one lane of the counts, added modulo `modulus` (0: `2^64`),
    /// into `next`; spread over the threads (`parallel`) or on this one. Returns the ways
    /// that finish.
    fn lane<K: Sync>(
        &self,
        square: &SquareTransfer<K>,
        counts: &[u64],
        next: &mut Vec<u64>,
        modulus: u64,
        parallel: bool,
    ) -> u64;
}

/// The products on the threads of rayon's pool.
pub(crate) struct Rayon;

impl Products for Rayon {
    fn whole<T: Tally, K: Sync>(
        &self,
        square: &SquareTransfer<K>,
        counts: &[T],
    ) -> Option<(Vec<T>, T)> {
        let next: Option<Vec<T>> = (0..square.keys.len())
            .into_par_iter()
            .with_min_len(1024)
            .map(|t| {
                let mut sum = T::zero();
                let (from, to) = (square.offsets[t] as usize, square.offsets[t + 1] as usize);
                for &source in &square.sources[from..to] {
                    if !sum.add(&counts[source as usize]) {
                        return None;
                    }
                }
                Some(sum)
            })
            .collect();
        let mut finished = T::zero();
        for &source in &square.finished {
            if !finished.add(&counts[source as usize]) {
                return None;
            }
        }
        Some((next?, finished))
    }

    fn lane<K: Sync>(
        &self,
        square: &SquareTransfer<K>,
        counts: &[u64],
        next: &mut Vec<u64>,
        modulus: u64,
        parallel: bool,
    ) -> u64 {
        if modulus == 0 {
            lane_with(square, counts, next, parallel, u64::wrapping_add)
        } else {
            lane_with(square, counts, next, parallel, |a, b| {
                add_mod(a, b, modulus)
            })
        }
    }
}

#[inline(always)]
fn lane_with<K: Sync>(
    square: &SquareTransfer<K>,
    counts: &[u64],
    next: &mut Vec<u64>,
    parallel: bool,
    add: impl Fn(u64, u64) -> u64 + Sync,
) -> u64 {
    let sum = |t: usize| {
        let (from, to) = (square.offsets[t] as usize, square.offsets[t + 1] as usize);
        square.sources[from..to]
            .iter()
            .fold(0, |sum, &source| add(sum, counts[source as usize]))
    };
    next.clear();
    if parallel {
        next.resize(square.keys.len(), 0);
        next.par_iter_mut()
            .enumerate()
            .with_min_len(4096)
            .for_each(|(t, count)| *count = sum(t));
    } else {
        next.extend((0..square.keys.len()).map(sum));
    }
    square
        .finished
        .iter()
        .fold(0, |sum, &source| add(sum, counts[source as usize]))
}

/// Counts held lane by lane (see [`Tally::LANES`]): lane `j` of every state in one vector, so
/// that a run of squares goes one lane at a time, lanes side by side on the cores, each with
/// its states in the cache (the counts of all lanes together are many times larger). Only the
/// lanes the pass reads its counts from are run: a count type is compiled for a few sizes, and
/// a pass that needs 35 primes keeps its counts in 64 (the other lanes come back as 0).
pub(crate) struct LaneCounts {
    lanes: Vec<Vec<u64>>,
    /// The lanes of the count type.
    width: usize,
}

impl LaneCounts {
    /// The first `used` lanes of the counts; `None` for a count type without lanes.
    pub(crate) fn split<T: Tally>(counts: &[T], used: usize) -> Option<LaneCounts> {
        (T::LANES > 0).then(|| LaneCounts {
            lanes: (0..used.clamp(1, T::LANES))
                .into_par_iter()
                .map(|j| counts.iter().map(|c| c.lanes()[j]).collect())
                .collect(),
            width: T::LANES,
        })
    }

    /// The counts put back together.
    pub(crate) fn join<T: Tally>(self) -> Vec<T> {
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
    pub(crate) fn apply<T: Tally>(
        &mut self,
        products: &impl Products,
        transfers: &[&SquareTransfer<impl Sync>],
    ) -> Vec<T> {
        // Lanes side by side on the cores; a single lane splits its states between them.
        let parallel = self.lanes.len() == 1;
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
                        let finished = products.lane(transfer, lane, &mut next, modulus, parallel);
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

/// The counts a recorded period runs through its squares: in `u64` while they fit (checked;
/// the counts before the square that overflows are turned into the pass's count type), then
/// lane by lane (measured faster than a state's lanes side by side, even where a lane's
/// counts are many times the cache), or whole for a count type without lanes.
pub(crate) enum PeriodCounts<T> {
    Small(Vec<u64>),
    Whole(Vec<T>),
    Lanes(LaneCounts),
}

impl<T: Tally> PeriodCounts<T> {
    /// Counts of the pass's type, whose first `used` lanes are read.
    pub(crate) fn wide(counts: Vec<T>, used: usize) -> Self {
        match LaneCounts::split(&counts, used) {
            Some(lanes) => PeriodCounts::Lanes(lanes),
            None => PeriodCounts::Whole(counts),
        }
    }

    /// Runs the counts through `transfers`, one after the other; returns the ways that finish
    /// a board at each, or `None` where a count overflows the pass's type.
    pub(crate) fn apply(
        &mut self,
        products: &impl Products,
        transfers: &[&SquareTransfer<impl Sync>],
        used: usize,
    ) -> Option<Vec<T>> {
        let mut finished = Vec::with_capacity(transfers.len());
        for (i, transfer) in transfers.iter().enumerate() {
            match self {
                PeriodCounts::Small(counts) => match products.whole(transfer, counts) {
                    Some((next, done)) => {
                        *counts = next;
                        finished.push(T::from_u64(done));
                    }
                    None => {
                        let wide = counts.drain(..).map(T::from_u64).collect();
                        *self = PeriodCounts::wide(wide, used);
                        finished.extend(self.apply(products, &transfers[i..], used)?);
                        return Some(finished);
                    }
                },
                PeriodCounts::Whole(counts) => {
                    let (next, done) = products.whole(transfer, counts)?;
                    *counts = next;
                    finished.push(done);
                }
                PeriodCounts::Lanes(lanes) => {
                    finished.extend(lanes.apply::<T>(products, &transfers[i..]));
                    return Some(finished);
                }
            }
        }
        Some(finished)
    }

    /// The counts: in `u64` where none has overflowed (`Ok`), else in the pass's type.
    pub(crate) fn into_counts(self) -> Result<Vec<u64>, Vec<T>> {
        match self {
            PeriodCounts::Small(counts) => Ok(counts),
            PeriodCounts::Whole(counts) => Err(counts),
            PeriodCounts::Lanes(lanes) => Err(lanes.join()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::count::frontier::counts::tally::{Residues, Wrapping64};

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

    /// The counts lane by lane equal the counts whole, modulo 2^64 (one lane, on all threads)
    /// and modulo three primes.
    fn lanes_agree<T: Tally + PartialEq + std::fmt::Debug>(start: Vec<T>) {
        let transfers = transfers();
        let mut whole = start.clone();
        let mut finished_whole = Vec::new();
        for transfer in &transfers {
            let (next, finished) = Rayon.whole(transfer, &whole).unwrap();
            whole = next;
            finished_whole.push(finished);
        }
        let mut lanes = LaneCounts::split(&start, T::LANES).unwrap();
        let finished = lanes.apply::<T>(&Rayon, &transfers.iter().collect::<Vec<_>>());
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
        let p = crate::count::frontier::counts::residue::PRIMES;
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
            whole = Rayon.whole(transfer, &whole).unwrap().0;
        }
        let mut lanes = LaneCounts::split(&start, 2).unwrap();
        lanes.apply::<Residues<3>>(&Rayon, &transfers().iter().collect::<Vec<_>>());
        let first_two: Vec<_> = whole
            .iter()
            .map(|c| Residues([c.0[0], c.0[1], 0]))
            .collect();
        assert_eq!(lanes.join::<Residues<3>>(), first_two);
    }

    /// Counts in `u64` that overflow at some square of a run go on in the pass's count type
    /// from the counts before that square: every square's finishing ways and the counts after
    /// the run equal those of counts in that type from the start, with the overflow at the
    /// first square, at a later one, or at none.
    #[test]
    fn counts_in_u64_go_on_in_residues_where_they_overflow() {
        let transfers = transfers();
        let run: Vec<&SquareTransfer> = transfers.iter().chain(&transfers).collect();
        let (half, sixth) = (u64::MAX / 2 + 1, u64::MAX / 6);
        for (start, overflow) in [
            (vec![1u64, 2, 3, 4], None),
            (vec![half, 7, half / 3, 9], Some(0)),
            (vec![sixth, 7, sixth / 3, 9], Some(4)),
        ] {
            // The overflow is where the case says it is.
            let mut counts = start.clone();
            let first_overflow =
                run.iter()
                    .position(|transfer| match Rayon.whole(transfer, &counts) {
                        Some((next, _)) => {
                            counts = next;
                            false
                        }
                        None => true,
                    });
            assert_eq!(first_overflow, overflow);
            let wide: Vec<Residues<3>> = start.iter().map(|&c| Residues::from_u64(c)).collect();
            let mut expected = PeriodCounts::wide(wide, 3);
            let expected_finished = expected.apply(&Rayon, &run, 3).unwrap();
            let expected = expected.into_counts().unwrap_err();
            let mut small = PeriodCounts::<Residues<3>>::Small(start.clone());
            assert_eq!(
                small.apply(&Rayon, &run, 3).unwrap(),
                expected_finished,
                "{start:?}"
            );
            match (small.into_counts(), overflow) {
                (Ok(counts), None) => {
                    let counts: Vec<Residues<3>> =
                        counts.into_iter().map(Residues::from_u64).collect();
                    assert_eq!(counts, expected);
                }
                (Err(counts), Some(_)) => assert_eq!(counts, expected, "{start:?}"),
                (counts, _) => panic!("{start:?}: {}", counts.is_ok()),
            }
        }
    }
}
