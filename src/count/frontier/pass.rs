//! A whole pass of the dynamic program: the layers square by square (`layer`), the rows in the
//! middle of a long board as a recorded period (`periodic`), and the count type chosen before
//! the pass from the board's bound, so that no pass is ever redone.

use num_bigint::BigUint;

use super::layer::{Layer, by_word, first_layer, widening};
use super::periodic::{LaneCounts, MAX_PERIOD, Period, SquareTransfer, fingerprint};
use super::plan::{FrontierMode, FrontierStats, Plan};
use super::residue::primes_for;
use super::state::{Codec, Word};
use super::step::{Step, same_transfer};
use super::tally::Tally;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;

/// How a pass keeps its counts (see [`Plan::lanes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lanes {
    /// Modulo `2^64`.
    Wrapping,
    /// Modulo this many primes.
    Primes(usize),
    /// In arbitrary precision.
    Big,
}

/// `$call` with the type `$T` set to the count type of `$lanes`: `Residues<K>` for the least
/// `K` offered that is at least the primes asked (a few sizes, so that the engine is compiled
/// for a few count types only).
macro_rules! by_lanes {
    ($lanes:expr, $T:ident => $call:expr) => {{
        use $crate::count::frontier::pass::Lanes;
        use $crate::count::frontier::tally::{Residues, Wrapping64};
        match $lanes {
            Lanes::Wrapping => {
                type $T = Wrapping64;
                $call
            }
            Lanes::Primes(primes) => by_lanes!(@sizes primes, $T => $call; 2, 3, 4, 6, 8, 10, 12, 16, 32, 64, 128),
            Lanes::Big => {
                type $T = num_bigint::BigUint;
                $call
            }
        }
    }};
    (@sizes $primes:ident, $T:ident => $call:expr; $($k:literal),+) => {
        $(if $primes <= $k {
            type $T = Residues<$k>;
            $call
        }) else+ else {
            type $T = Residues<{ $crate::count::frontier::residue::MAX_PRIMES }>;
            $call
        }
    };
}

impl Plan {
    /// Runs the dynamic program over the board of `heights.end()` rows, reporting the count of
    /// every height in `heights` after its last row.
    pub(super) fn run(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        by_word!(self, Wd => self.run_word::<Wd>(heights, budget, cancel, report))
    }

    fn run_word<Wd: Word>(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        // Heights are reported as soon as they are known; a pass redone (see below) does not
        // report them again.
        let mut reported = std::collections::BTreeSet::new();
        let mut once = |height: usize, count: BigUint| {
            if reported.insert(height) {
                report(height, count);
            }
        };
        let lanes = self.lanes();
        by_lanes!(lanes, T => {
            if matches!(lanes, Lanes::Primes(_)) {
                // Counts in u64 while they fit (the rows before a period are few, and their
                // counts small), turned into residues when a period starts: an overflow
                // before it is the only case that redoes the pass, in residues throughout.
                widening!(
                    self.run_with::<Wd, T>(&heights, true, budget, cancel, &mut once),
                    self.run_with::<Wd, T>(&heights, false, budget, cancel, &mut once),
                )
            } else {
                self.run_with::<Wd, T>(&heights, false, budget, cancel, &mut once)
            }
        })
    }

    /// How this pass keeps its counts, chosen before it starts from the bound of the tallest
    /// board's moves (`crate::trust::tour_bound`), which every count of the pass is below: modulo
    /// `2^64` where the bound is below `2^63`, else modulo the fewest primes whose product
    /// exceeds it, else (past [`MAX_PRIMES`](super::residue::MAX_PRIMES) of them) in arbitrary precision.
    pub(super) fn lanes(&self) -> Lanes {
        use crate::question::{Question, TourKind};
        let asked = self.asked();
        let kind = if self.mode == FrontierMode::Closed {
            TourKind::Closed
        } else {
            TourKind::Open
        };
        let question = match self.mode {
            FrontierMode::Closed | FrontierMode::OpenAll => Question::total(asked, kind),
            FrontierMode::OpenFrom(start) => Question::from_start(asked, start, kind),
            FrontierMode::Between(from, to) => Question::between(asked, from, to),
        };
        let bound = crate::trust::tour_bound(&question);
        if bound.bits() < 63 {
            return Lanes::Wrapping;
        }
        match primes_for(&bound) {
            Some(primes) => Lanes::Primes(primes),
            None => Lanes::Big,
        }
    }

    pub(super) fn run_with<Wd: Word, T: Tally>(
        &self,
        heights: &std::ops::RangeInclusive<usize>,
        small_first: bool,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        let codec = Codec::new(self.k);
        let mut stats = FrontierStats {
            count_bits: T::BITS,
            count_primes: T::PRIMES,
            ..FrontierStats::default()
        };
        let mut layer = if small_first {
            Counts::Small(first_layer::<Wd, u64>(&codec, self.w))
        } else {
            Counts::Lanes(first_layer::<Wd, T>(&codec, self.w))
        };
        if small_first {
            stats.count_bits = u64::BITS;
            stats.count_primes = 0;
        }
        let rows = *heights.end();
        let squares = rows * self.w;
        let mut last_reported = 0;
        let mut finish = |height: usize, count: T| {
            report(height, count.into_big());
            last_reported = height;
        };
        // The fingerprint of the states after each row.
        let mut prints = std::collections::BTreeMap::new();
        let mut v = 0;
        while v < squares {
            cancel.check()?;
            let step = self.step::<Wd>(v, heights);
            let finished;
            (layer, finished) = match layer {
                Counts::Small(layer) => {
                    let (next, finished) =
                        self.advance(&codec, layer, &step, budget, cancel, &mut stats)?;
                    (Counts::Small(next), T::from_u64(finished))
                }
                Counts::Lanes(layer) => {
                    let (next, finished) =
                        self.advance(&codec, layer, &step, budget, cancel, &mut stats)?;
                    (Counts::Lanes(next), finished)
                }
            };
            let states = layer.states();
            cancel.report_pass(v as u64 + 1, squares as u64, states);
            if let Some(height) = step.finishes {
                finish(height, finished);
            }
            if states == 0 {
                break; // nothing can finish any more: the heights left count 0
            }
            v += 1;
            if v % self.w == 0 && v < squares {
                let row = v / self.w - 1;
                prints.insert(row, layer.fingerprint());
                let period = self
                    .periodic
                    .then(|| self.period_from::<Wd>(&prints, row, heights));
                if let Some(period) = period.flatten() {
                    let ctx = PassContext {
                        codec: &codec,
                        heights,
                        budget,
                        cancel,
                    };
                    stats.count_bits = T::BITS;
                    stats.count_primes = T::PRIMES;
                    let (after, next_v) = self.periodic_rows::<Wd, T>(
                        &ctx,
                        layer.into_lanes(),
                        v,
                        period,
                        &mut stats,
                        &mut finish,
                    )?;
                    layer = Counts::Lanes(after);
                    v = next_v;
                    if layer.states() == 0 {
                        break;
                    }
                }
            }
        }
        for height in (last_reported + 1).max(*heights.start())..=*heights.end() {
            report(height, BigUint::default());
        }
        Ok(stats)
    }

    /// The period, in rows, after which the states after row `row` repeat, where the next
    /// rows act as the rows a period before them did: the fewest rows whose fingerprints
    /// match. (The fingerprint only proposes a period; [`Plan::periodic_rows`] checks it.)
    fn period_from<Wd: Word>(
        &self,
        prints: &std::collections::BTreeMap<usize, (u64, u64)>,
        row: usize,
        heights: &std::ops::RangeInclusive<usize>,
    ) -> Option<usize> {
        let rows = *heights.end();
        (1..=MAX_PERIOD.min(row)).find(|&p| {
            let (Some(now), Some(then)) = (prints.get(&row), prints.get(&(row - p))) else {
                return false;
            };
            // Rows row + 1 ..= row + p are recorded, and must act as the p rows before them;
            // the board's last row is never part of a period.
            now == then
                && row + p + 1 < rows
                && (0..p * self.w).all(|i| {
                    let u = (row + 1) * self.w + i;
                    same_transfer(
                        &self.step::<Wd>(u, heights),
                        &self.step::<Wd>(u - p * self.w, heights),
                    )
                })
        })
    }

    /// From the states after square `v - 1` (the end of a row), records the next `period`
    /// rows as matrices, and if the states after them are those it started from, runs every
    /// later row that acts alike as matrix products. Returns the layer it stops at and its
    /// next square.
    fn periodic_rows<Wd: Word, T: Tally>(
        &self,
        ctx: &PassContext<'_>,
        layer: Layer<T>,
        v: usize,
        period: usize,
        stats: &mut FrontierStats,
        finish: &mut dyn FnMut(usize, T),
    ) -> Result<(Layer<T>, usize), Error> {
        let squares = *ctx.heights.end() * self.w;
        let (start_keys, mut counts, mut growth) = layer.into_sorted();
        let mut record = Period {
            first: v,
            squares: Vec::with_capacity(period * self.w),
        };
        let mut steps = Vec::with_capacity(period * self.w);
        // A square counted: its states and transitions recorded, its finished ways reported.
        let mut settle = |transfer: &SquareTransfer,
                          step_finishes: Option<usize>,
                          u: usize,
                          finished: T,
                          growth: &mut super::layer::Growth,
                          stats: &mut FrontierStats| {
            let states = transfer.keys().len() as u64;
            growth.record(states);
            stats.transitions += transfer.transitions();
            stats.layer_states += states;
            stats.peak_states = stats.peak_states.max(states);
            ctx.cancel.report_pass(u as u64 + 1, squares as u64, states);
            if let Some(height) = step_finishes {
                finish(height, finished);
            }
        };
        // One square by its matrix, the counts whole: the ways that finish at it.
        let apply = |transfer: &SquareTransfer, counts: &mut Vec<T>| -> Result<T, Error> {
            ctx.cancel.check()?;
            let (next, finished) = transfer
                .apply(counts)
                .ok_or(Error::Overflow { board: self.board })?;
            *counts = next;
            Ok(finished)
        };
        for u in v..v + period * self.w {
            let step = self.step::<Wd>(u, ctx.heights);
            let from = record.squares.last().map_or(&start_keys[..], |s| s.keys());
            let Some(transfer) = SquareTransfer::record(self, ctx.codec, &step, from) else {
                // Too many to number: on square by square from the last square recorded.
                let keys = from.to_vec();
                return Ok((Layer::from_states(keys, counts, growth), u));
            };
            let finished = apply(&transfer, &mut counts)?;
            settle(&transfer, step.finishes, u, finished, &mut growth, stats);
            record.squares.push(transfer);
            steps.push(step);
            let held = record.bytes() + (counts.len() * std::mem::size_of::<T>()) as u64;
            let last = record.squares.last().expect("just recorded");
            if held > ctx.budget.bytes() / 2 || counts.is_empty() {
                // Too large to keep, or nothing goes on: on square by square.
                let keys = last.keys().to_vec();
                return Ok((Layer::from_states(keys, counts, growth), u + 1));
            }
        }
        let end = v + period * self.w;
        if record.squares.last().expect("a period has squares").keys() != &start_keys[..] {
            // Alike only in their fingerprints: on square by square.
            let keys = record.squares.last().expect("recorded").keys().to_vec();
            return Ok((Layer::from_states(keys, counts, growth), end));
        }
        drop(start_keys);
        let mut u = end;
        // The squares from `u` on that act as the recorded ones, at most a period of them.
        let acting_alike = |u: usize| -> Vec<Step<Wd>> {
            (u..squares.min(u + steps.len()))
                .map(|s| self.step::<Wd>(s, ctx.heights))
                .take_while(|step| same_transfer(step, &steps[(step.v - v) % steps.len()]))
                .collect()
        };
        if let Some(mut lanes) = LaneCounts::split(&counts) {
            // A period at a time, lane by lane.
            drop(counts);
            loop {
                let run = acting_alike(u);
                if run.is_empty() {
                    break;
                }
                ctx.cancel.check()?;
                let transfers: Vec<&SquareTransfer> =
                    run.iter().map(|step| record.square(step.v)).collect();
                let finished = lanes.apply::<T>(&transfers);
                for ((step, transfer), finished) in run.iter().zip(&transfers).zip(finished) {
                    settle(
                        transfer,
                        step.finishes,
                        step.v,
                        finished,
                        &mut growth,
                        stats,
                    );
                }
                u += run.len();
            }
            counts = lanes.join();
        } else {
            while u < squares {
                let step = self.step::<Wd>(u, ctx.heights);
                if !same_transfer(&step, &steps[(u - v) % steps.len()]) {
                    break;
                }
                let finished = apply(record.square(u), &mut counts)?;
                settle(
                    record.square(u),
                    step.finishes,
                    u,
                    finished,
                    &mut growth,
                    stats,
                );
                u += 1;
            }
        }
        stats.period_rows = period as u32;
        stats.periodic_squares += (u - end) as u64;
        let counts_bytes = (counts.len() * std::mem::size_of::<T>()) as u64;
        stats.peak_both_bytes = stats.peak_both_bytes.max(record.bytes() + 2 * counts_bytes);
        let keys = record.square(u - 1).keys().to_vec();
        Ok((Layer::from_states(keys, counts, growth), u))
    }
}

/// What every square of a pass shares.
struct PassContext<'a> {
    codec: &'a Codec,
    heights: &'a std::ops::RangeInclusive<usize>,
    budget: MemoryBudget,
    cancel: &'a CancelFlag,
}

/// A pass's layer: counts in `u64` (before a period, see [`Plan::run_word`]) or of the pass's
/// count type.
enum Counts<T> {
    Small(Layer<u64>),
    Lanes(Layer<T>),
}

impl<T: Tally> Counts<T> {
    fn states(&self) -> u64 {
        match self {
            Counts::Small(layer) => layer.states(),
            Counts::Lanes(layer) => layer.states(),
        }
    }

    fn fingerprint(&self) -> (u64, u64) {
        match self {
            Counts::Small(layer) => fingerprint(layer.keys()),
            Counts::Lanes(layer) => fingerprint(layer.keys()),
        }
    }

    fn into_lanes(self) -> Layer<T> {
        match self {
            Counts::Small(layer) => layer.map_counts(T::from_u64),
            Counts::Lanes(layer) => layer,
        }
    }
}
