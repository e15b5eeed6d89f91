//! A whole pass of the dynamic program: the layers square by square (`layer`), the rows in the
//! middle of a long board as a recorded period (`periodic`), and the count type chosen before
//! the pass from the board's bound, so that no pass is ever redone.

use num_bigint::BigUint;

use super::boundary::BoundarySweep;
use super::layer::{Layer, by_word, first_layer, widening};
use super::periodic::{LaneCounts, MAX_PERIOD, Period, SquareTransfer};
use super::plan::{FrontierMode, FrontierStats, Plan};
use super::residue::primes_for;
use super::state::Codec;
use super::sweep::{Sweep, WindowSweep};
use super::tally::Tally;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;

/// A layer is taken as settled, and a period recorded from it, when its states differ from
/// those a period earlier by at most this fraction of them (`1 / SETTLED`).
const SETTLED: u64 = 64;

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
        by_word!(self, Wd => {
            let codec = Codec::new(self.k);
            let sweep = |finishing| WindowSweep::<Wd>::new(self, &codec, finishing);
            self.run_over(sweep, heights, budget, cancel, report)
        })
    }

    /// [`Plan::run`] over the boundary of the squares not yet taken (see `boundary`), taken
    /// outside in or left to right; `None` where that frontier does not count this plan.
    pub(super) fn run_boundary(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        outside_in: bool,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<Option<FrontierStats>, Error> {
        if BoundarySweep::new(self, heights.clone(), outside_in).is_none() {
            return Ok(None);
        }
        let sweep = |finishing| {
            BoundarySweep::new(self, finishing, outside_in).expect("the plan was checked")
        };
        self.run_over(sweep, heights, budget, cancel, report)
            .map(Some)
    }

    /// The pass over the sweep `sweep_for` makes, in the count type the board's bound asks for.
    fn run_over<S: Sweep>(
        &self,
        sweep_for: impl Fn(std::ops::RangeInclusive<usize>) -> S,
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
        let sweep_for = &sweep_for;
        by_lanes!(lanes, T => {
            if matches!(lanes, Lanes::Primes(_)) {
                // Counts in u64 while they fit (the rows before a period are few, and their
                // counts small), turned into residues when a period starts: an overflow
                // before it is the only case that redoes the pass, in residues throughout.
                widening!(
                    self.run_sweep::<S, T>(sweep_for, &heights, true, budget, cancel, &mut once),
                    self.run_sweep::<S, T>(sweep_for, &heights, false, budget, cancel, &mut once),
                )
            } else {
                self.run_sweep::<S, T>(sweep_for, &heights, false, budget, cancel, &mut once)
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

    #[cfg(test)]
    pub(super) fn run_with<Wd: super::state::Word, T: Tally>(
        &self,
        heights: &std::ops::RangeInclusive<usize>,
        small_first: bool,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        let codec = Codec::new(self.k);
        let sweep = |finishing| WindowSweep::<Wd>::new(self, &codec, finishing);
        self.run_sweep::<_, T>(sweep, heights, small_first, budget, cancel, report)
    }

    /// The pass over the squares of the sweep that `sweep_for` makes for the heights whose
    /// boards are finished (for a series, every row's; see below): layer by layer, and where
    /// rows repeat, as a recorded period.
    pub(super) fn run_sweep<S: Sweep, T: Tally>(
        &self,
        sweep_for: impl FnOnce(std::ops::RangeInclusive<usize>) -> S,
        heights: &std::ops::RangeInclusive<usize>,
        small_first: bool,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        // The lanes the counts are read from: those the bound asks for, where the count type
        // holds more (the others are not run through the period's products).
        let used = match self.lanes() {
            Lanes::Primes(primes) if T::PRIMES > 0 => primes.min(T::LANES),
            _ => T::LANES,
        };
        let (count_bits, count_primes) = match T::BITS.checked_div(T::PRIMES) {
            Some(bits_a_prime) => (bits_a_prime * used as u32, used as u32),
            None => (T::BITS, T::PRIMES),
        };
        let mut stats = FrontierStats {
            count_bits,
            count_primes,
            ..FrontierStats::default()
        };
        if small_first {
            stats.count_bits = u64::BITS;
            stats.count_primes = 0;
        }
        let rows = *heights.end();
        let squares = rows * self.w;
        let asked = heights.clone();
        // A series' pass finishes boards at every row, reporting the heights asked only: rows
        // then act alike from the top of the board down, not from the first height asked.
        let finishing = if self.periodic && heights.start() < heights.end() {
            1..=rows
        } else {
            asked.clone()
        };
        let sweep = sweep_for(finishing.clone());
        let heights = &finishing;
        let mut layer = if small_first {
            Counts::Small(first_layer::<u64>(sweep.initial(), self.w))
        } else {
            Counts::Lanes(first_layer::<T>(sweep.initial(), self.w))
        };
        let mut last_reported = 0;
        let mut finish = |height: usize, count: T| {
            if asked.contains(&height) {
                report(height, count.into_big_within(used));
            }
            last_reported = height;
        };
        // A period that did not close is not looked for again.
        let mut look_for_period = self.periodic;
        // The states after each row.
        let mut row_ends: Vec<u64> = Vec::new();
        let mut v = 0;
        while v < squares {
            cancel.check()?;
            let step = sweep.step(v);
            let finished;
            (layer, finished) = match layer {
                Counts::Small(layer) => {
                    let (next, finished) =
                        self.advance(&sweep, layer, &step, v, budget, cancel, &mut stats)?;
                    (Counts::Small(next), T::from_u64(finished))
                }
                Counts::Lanes(layer) => {
                    let (next, finished) =
                        self.advance(&sweep, layer, &step, v, budget, cancel, &mut stats)?;
                    (Counts::Lanes(next), finished)
                }
            };
            let states = layer.states();
            cancel.report_pass(v as u64 + 1, squares as u64, states);
            if let Some(height) = S::finishes(&step) {
                finish(height, finished);
            }
            if states == 0 {
                break; // nothing can finish any more: the heights left count 0
            }
            v += 1;
            if v % self.w == 0 {
                row_ends.push(states);
            }
            if v % self.w == 0
                && v < squares
                && look_for_period
                && let Some(period) = self.period_from(&sweep, &row_ends, heights)
            {
                let ctx = PassContext {
                    heights,
                    budget,
                    cancel,
                    used,
                };
                let (after, next_v) = self.periodic_rows::<S, T>(
                    &sweep,
                    &ctx,
                    layer.into_lanes(),
                    v,
                    period,
                    &mut stats,
                    &mut finish,
                )?;
                layer = Counts::Lanes(after);
                if next_v == v {
                    look_for_period = false;
                } else {
                    (stats.count_bits, stats.count_primes) = (count_bits, count_primes);
                }
                v = next_v;
                if layer.states() == 0 {
                    break;
                }
            }
        }
        for height in (last_reported + 1).max(*asked.start())..=*asked.end() {
            report(height, BigUint::default());
        }
        Ok(stats)
    }

    /// The period, in rows, that the pass takes after the rows whose states `row_ends` holds:
    /// the fewest rows `p` such that the `p` rows to come act as the `p` rows after them (so
    /// that a period recorded now is used at least twice; the board's last row acts as no
    /// other), and the states after the last row are within [`SETTLED`] of those `p` rows
    /// earlier. Closed from a layer still far from settled, the sets hold every state of the
    /// rows to come at once, and cost more than the rows they save.
    fn period_from<S: Sweep>(
        &self,
        sweep: &S,
        row_ends: &[u64],
        heights: &std::ops::RangeInclusive<usize>,
    ) -> Option<usize> {
        let squares = *heights.end() * self.w;
        let rows = row_ends.len();
        (1..=MAX_PERIOD.min(rows.saturating_sub(1))).find(|&p| {
            let (now, then) = (row_ends[rows - 1], row_ends[rows - 1 - p]);
            let first = rows * self.w;
            let span = p * self.w;
            now.abs_diff(then) <= then / SETTLED
                && first + 2 * span <= squares
                && (first..first + span)
                    .all(|u| S::same_transfer(&sweep.step(u + span), &sweep.step(u)))
        })
    }

    /// From the states after square `v - 1` (the end of a row), records the next `period`
    /// rows as matrices over sets closed under them, and runs those rows and every later row
    /// that acts alike as matrix products. Returns the layer it stops at and its next square
    /// (`v` itself, the layer unchanged, when the sets do not close).
    #[allow(clippy::too_many_arguments)]
    fn periodic_rows<S: Sweep, T: Tally>(
        &self,
        sweep: &S,
        ctx: &PassContext<'_>,
        layer: Layer<T>,
        v: usize,
        period: usize,
        stats: &mut FrontierStats,
        finish: &mut dyn FnMut(usize, T),
    ) -> Result<(Layer<T>, usize), Error> {
        let squares = *ctx.heights.end() * self.w;
        let (start_keys, mut counts, mut growth) = layer.into_sorted();
        let steps: Vec<S::Step> = (v..v + period * self.w).map(|u| sweep.step(u)).collect();
        let max_bytes = ctx
            .budget
            .bytes()
            .saturating_sub((counts.len() * std::mem::size_of::<T>()) as u64)
            / 2;
        let record = Period::record_closed(sweep, &steps, v, &start_keys, max_bytes, ctx.cancel)?;
        let Some(record) = record else {
            return Ok((Layer::from_states(start_keys, counts, growth), v));
        };
        drop(start_keys);
        // The states the period's sets add to those it starts from have not been reached.
        counts.resize(record.start_states(), T::zero());
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
        // The squares from `u` on that act as the recorded ones, at most a period of them.
        let acting_alike = |u: usize| -> Vec<(usize, S::Step)> {
            (u..squares.min(u + steps.len()))
                .map(|s| (s, sweep.step(s)))
                .take_while(|(s, step)| S::same_transfer(step, &steps[(s - v) % steps.len()]))
                .collect()
        };
        let mut u = v;
        if let Some(mut lanes) = LaneCounts::split(&counts, ctx.used) {
            // A period at a time, lane by lane.
            drop(counts);
            loop {
                let run = acting_alike(u);
                if run.is_empty() {
                    break;
                }
                ctx.cancel.check()?;
                let transfers: Vec<&SquareTransfer> =
                    run.iter().map(|(s, _)| record.square(*s)).collect();
                let finished = lanes.apply::<T>(&transfers);
                for (((s, step), transfer), finished) in run.iter().zip(&transfers).zip(finished) {
                    settle(
                        transfer,
                        S::finishes(step),
                        *s,
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
                let step = sweep.step(u);
                if !S::same_transfer(&step, &steps[(u - v) % steps.len()]) {
                    break;
                }
                ctx.cancel.check()?;
                let (next, finished) = record
                    .square(u)
                    .apply(&counts)
                    .ok_or(Error::Overflow { board: self.board })?;
                counts = next;
                settle(
                    record.square(u),
                    S::finishes(&step),
                    u,
                    finished,
                    &mut growth,
                    stats,
                );
                u += 1;
            }
        }
        stats.period_rows = period as u32;
        stats.periodic_squares += (u - v) as u64;
        let counts_bytes = (counts.len() * std::mem::size_of::<T>()) as u64;
        stats.peak_both_bytes = stats.peak_both_bytes.max(record.bytes() + 2 * counts_bytes);
        let keys = record.square(u - 1).keys().to_vec();
        Ok((Layer::from_states(keys, counts, growth), u))
    }
}

/// What every square of a pass shares.
struct PassContext<'a> {
    heights: &'a std::ops::RangeInclusive<usize>,
    budget: MemoryBudget,
    cancel: &'a CancelFlag,
    /// The lanes of a count the pass reads (see [`Plan::run_with`]).
    used: usize,
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

    fn into_lanes(self) -> Layer<T> {
        match self {
            Counts::Small(layer) => layer.map_counts(T::from_u64),
            Counts::Lanes(layer) => layer,
        }
    }
}
