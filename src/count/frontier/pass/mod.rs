//! A whole pass of the dynamic program: the layers square by square (`layer`), the rows in the
//! middle of a long board as a recorded period (`periodic`), and the count type chosen before
//! the pass from the board's bound, so that no pass is ever redone.

pub(crate) mod checkpoint;
pub(crate) mod layer;
pub(crate) mod periodic;

use num_bigint::BigUint;

use crate::cancel::CancelFlag;
use crate::count::Limits;
use crate::count::frontier::boundary::BoundarySweep;
use crate::count::frontier::counts::residue::primes_for;
use crate::count::frontier::counts::tally::Tally;
use crate::count::frontier::pass::checkpoint::{Keeper, PassState, Resumed};
use crate::count::frontier::pass::layer::{Layer, by_key, widening};
use crate::count::frontier::pass::periodic::{
    MAX_PERIOD, Period, PeriodCounts, Rayon, SquareTransfer,
};
use crate::count::frontier::plan::{FrontierMode, FrontierStats, Plan};
use crate::count::frontier::sweep::Sweep;
use crate::count::frontier::window::WindowSweep;
use crate::count::frontier::window::state::Codec;
use crate::error::Error;
use crate::memory::MemoryBudget;

/// A layer is taken as settled, and a period recorded from it, when its states differ from
/// those a period earlier by at most this fraction of them (`1 / SETTLED`).
const SETTLED: u64 = 64;

/// The rows a period of `p` rows must run as products to be recorded. Recording it costs
/// about two periods of rows taken square by square (its sets are closed, then numbered and
/// put in pull form), a product next to nothing, and a board's last two rows little either
/// way where the products stop short of them (few states there can still finish).
const fn paying_rows(p: usize) -> usize {
    2 * p + 3
}

/// How a pass keeps its counts (see [`Plan::lanes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lanes {
    /// Modulo `2^64`.
    Wrapping,
    /// Modulo this many primes.
    Primes(usize),
    /// In arbitrary precision.
    Big,
}

/// `$call` with the type `$T` set to the count type of `$lanes`: `Residues<K>` for the least
/// `K` offered that is at least the primes asked (a few sizes, so that the engine is compiled
/// for a few count types only). Builds with debug assertions (the tests') offer fewer sizes:
/// each is the whole engine compiled once more, most of the test build's time, and a count in
/// more lanes than its primes is the same count, only slower.
#[cfg(not(debug_assertions))]
macro_rules! by_lanes {
    ($lanes:expr, $T:ident => $call:expr) => {
        by_lanes_types!($lanes, $T => $call; 2, 3, 4, 6, 8, 10, 12, 16, 32, 64, 128)
    };
}
#[cfg(debug_assertions)]
macro_rules! by_lanes {
    ($lanes:expr, $T:ident => $call:expr) => {
        by_lanes_types!($lanes, $T => $call; 2, 4, 8, 16)
    };
}

/// [`by_lanes`] over the residue sizes given.
macro_rules! by_lanes_types {
    ($lanes:expr, $T:ident => $call:expr; $($k:literal),+) => {{
        use $crate::count::frontier::pass::Lanes;
        use $crate::count::frontier::counts::tally::{Residues, Wrapping64};
        match $lanes {
            Lanes::Wrapping => {
                type $T = Wrapping64;
                $call
            }
            Lanes::Primes(primes) => by_lanes_sizes!(primes, $T => $call; $($k),+),
            Lanes::Big => {
                type $T = num_bigint::BigUint;
                $call
            }
        }
    }};
}

/// `Residues<K>` for the least `K` given that is at least `$primes`.
macro_rules! by_lanes_sizes {
    ($primes:ident, $T:ident => $call:expr; $($k:literal),+) => {
        $(if $primes <= $k {
            type $T = Residues<$k>;
            $call
        }) else+ else {
            type $T = Residues<{ $crate::count::frontier::counts::residue::MAX_PRIMES }>;
            $call
        }
    };
}

impl Plan {
    /// Runs the dynamic program over the board of `heights.end()` rows, reporting the count of
    /// every height in `heights` after its last row.
    pub(crate) fn run(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        by_key!(self, Wd, K => {
            let codec = Codec::new(self.k);
            let sweep = |finishing| WindowSweep::<Wd, K>::new(self, &codec, finishing);
            self.run_over(sweep, heights, budget, cancel, report)
        })
    }

    /// [`Plan::run`] over the boundary of the squares not yet taken (see `boundary`), taken
    /// outside in or left to right; `None` where that frontier does not count this plan.
    pub(crate) fn run_boundary(
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
    /// exceeds it, else (past [`MAX_PRIMES`](crate::count::frontier::counts::residue::MAX_PRIMES) of them) in arbitrary precision.
    pub(crate) fn lanes(&self) -> Lanes {
        use crate::question::{Question, TourKind};
        let asked = self.asked();
        let kind = if self.mode == FrontierMode::Closed {
            TourKind::Closed
        } else {
            TourKind::Open
        };
        let question = match self.mode {
            FrontierMode::Closed | FrontierMode::Total => Question::total(asked, kind),
            FrontierMode::Start(start) => Question::from_start(asked, start, kind),
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
    pub(crate) fn run_with<Wd: crate::count::frontier::window::state::Word, T: Tally>(
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
    pub(crate) fn run_sweep<S: Sweep, T: Tally>(
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
        let limits = Limits::new(budget, cancel);
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
        let board_sweep = sweep_for(finishing.clone());
        // Where the sweep has a form that goes on past the board, a period runs in it, on to
        // the board's last row.
        let unending = if self.periodic {
            board_sweep.unending()
        } else {
            None
        };
        let ahead = unending.as_ref().unwrap_or(&board_sweep);
        let mut sweep = &board_sweep;
        let heights = &finishing;
        let mut layer = if small_first {
            Counts::Small(Layer::first(sweep.initial(), self.w))
        } else {
            Counts::Lanes(Layer::first(sweep.initial(), self.w))
        };
        // At most one period a pass: the rows after it are the board's last, which act
        // alike too briefly to pay for another.
        let mut look_for_period = self.periodic;
        // The states after each row.
        let mut row_ends: Vec<u64> = Vec::new();
        let mut v = 0;
        // The heights finished so far (asked ones, with their counts), and the last.
        let finished_so_far = std::cell::RefCell::new(Vec::new());
        let last_reported = std::cell::Cell::new(0);
        // Everything that makes this pass's layers what they are names its checkpoint.
        let identity = format!(
            "frontier pass; {self:?}; heights {asked:?}, finishing {finishing:?}; counts {}, \
             small first: {small_first}; sweep {} {}",
            std::any::type_name::<T>(),
            std::any::type_name::<S>(),
            board_sweep.describe(),
        );
        let mut keeper = Keeper::for_pass(cancel, identity);
        if let Some(keeper) = keeper.as_mut()
            && let Some((state, resumed)) = keeper.resume::<T, S::Key>(self.w)?
        {
            layer = match resumed {
                Resumed::Small(layer) => Counts::Small(layer),
                Resumed::Lanes(layer) => Counts::Lanes(layer),
            };
            if state.unending {
                sweep = ahead;
            }
            for (height, count) in state.finished_counts().unwrap_or_default() {
                report(height, count.clone());
                finished_so_far
                    .borrow_mut()
                    .push((height, count.to_string()));
            }
            (v, row_ends, look_for_period, stats) = (
                state.square,
                state.row_ends,
                state.look_for_period,
                state.stats,
            );
            last_reported.set(state.last_reported);
        }
        let mut finish = |height: usize, count: T| {
            if asked.contains(&height) {
                let count = count.into_big_within(used);
                finished_so_far
                    .borrow_mut()
                    .push((height, count.to_string()));
                report(height, count);
            }
            last_reported.set(height);
        };
        while v < squares {
            if let Some(keeper) = keeper.as_mut()
                && keeper.due(v)
            {
                let state = PassState {
                    square: v,
                    squares,
                    small: matches!(layer, Counts::Small(_)),
                    unending: !std::ptr::eq(sweep, &board_sweep),
                    look_for_period,
                    row_ends: row_ends.clone(),
                    finished: finished_so_far.borrow().clone(),
                    last_reported: last_reported.get(),
                    stats,
                };
                match &layer {
                    Counts::Small(layer) => keeper.save(&state, layer, &mut stats)?,
                    Counts::Lanes(layer) => keeper.save(&state, layer, &mut stats)?,
                }
            }
            cancel.check()?;
            let step = sweep.step(v);
            let finished;
            let advanced = match layer {
                Counts::Small(layer) => self
                    .advance(sweep, layer, &step, v, &limits, &mut stats)
                    .map(|(next, finished)| (Counts::Small(next), T::from_u64(finished))),
                Counts::Lanes(layer) => self
                    .advance(sweep, layer, &step, v, &limits, &mut stats)
                    .map(|(next, finished)| (Counts::Lanes(next), finished)),
            };
            (layer, finished) = match advanced {
                Err(overflow @ Error::Overflow { .. }) => {
                    // The pass is redone in wider counts: its checkpoint is of no use.
                    if let Some(keeper) = keeper.take() {
                        keeper.finish();
                    }
                    return Err(overflow);
                }
                other => other?,
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
            // Products in the unending sweep run on to the board's end.
            let settling = unending.is_none().then_some(row_ends.as_slice());
            if v % self.w == 0
                && v < squares
                && look_for_period
                && let Some(period) = self.period_from(ahead, sweep, v, settling, squares)
            {
                look_for_period = false;
                let ctx = PassContext {
                    heights,
                    limits: &limits,
                    used,
                };
                let after = self.periodic_rows::<S, T>(
                    ahead,
                    &ctx,
                    PassAt { layer, next: v },
                    period,
                    &mut stats,
                    &mut finish,
                )?;
                if after.next != v {
                    // The layer now holds the states of the sweep the period ran in.
                    sweep = ahead;
                    if matches!(after.layer, Counts::Lanes(_)) {
                        (stats.count_bits, stats.count_primes) = (count_bits, count_primes);
                    }
                }
                layer = after.layer;
                v = after.next;
                if layer.states() == 0 {
                    break;
                }
            }
        }
        if let Some(keeper) = keeper {
            keeper.finish();
        }
        let last_reported = last_reported.get();
        for height in (last_reported + 1).max(*asked.start())..=*asked.end() {
            report(height, BigUint::default());
        }
        Ok(stats)
    }

    /// The period, in rows, that the pass records after square `v - 1` (a row's end) and runs
    /// in the sweep `ahead` (the pass's `sweep` so far, or its unending form): the fewest rows
    /// `p` whose rows after `v` act alike in `ahead` long enough to pay for recording them
    /// (see [`paying_rows`]). Where the products stop short of the board's end (`row_ends`
    /// given: the states after each row so far), the states after the last row must also be
    /// within [`SETTLED`] of those `p` rows earlier: closed from a layer still far from
    /// settled, the sets hold the states of every row to come at once, more than a board that
    /// ends soon after reaches. `None` also where `ahead`'s steps so far differ from
    /// `sweep`'s (its states would not be the layer's).
    fn period_from<S: Sweep>(
        &self,
        ahead: &S,
        sweep: &S,
        v: usize,
        row_ends: Option<&[u64]>,
        squares: usize,
    ) -> Option<usize> {
        let period = (1..=MAX_PERIOD).find(|&p| {
            let settled = row_ends.is_none_or(|row_ends| {
                let rows = row_ends.len();
                rows > p && {
                    let (now, then) = (row_ends[rows - 1], row_ends[rows - 1 - p]);
                    now.abs_diff(then) <= then / SETTLED
                }
            });
            let span = p * self.w;
            // Enough rows from `v` on act as the period's.
            let paying = v + paying_rows(p) * self.w;
            settled
                && paying <= squares
                && (v + span..paying)
                    .all(|u| S::same_transfer(&ahead.step(u), &ahead.step(u - span)))
        })?;
        (0..v)
            .all(|u| {
                let (a, b) = (ahead.step(u), sweep.step(u));
                S::same_transfer(&a, &b) && S::finishes(&a) == S::finishes(&b)
            })
            .then_some(period)
    }

    /// From the states after square `v - 1` (the end of a row), records the next `period`
    /// rows as matrices over sets closed under them, and runs those rows and every later row
    /// that acts alike as matrix products. Returns the layer it stops at and its next square
    /// (`v` itself, the layer unchanged, when the sets do not close).
    fn periodic_rows<S: Sweep, T: Tally>(
        &self,
        sweep: &S,
        ctx: &PassContext<'_>,
        at: PassAt<T, S::Key>,
        period: usize,
        stats: &mut FrontierStats,
        finish: &mut dyn FnMut(usize, T),
    ) -> Result<PassAt<T, S::Key>, Error> {
        let PassAt { layer, next: v } = at;
        let squares = *ctx.heights.end() * self.w;
        let (start_keys, counts, mut growth) = match layer {
            Counts::Small(layer) => {
                let (keys, counts, growth) = layer.into_sorted();
                (keys, Ok(counts), growth)
            }
            Counts::Lanes(layer) => {
                let (keys, counts, growth) = layer.into_sorted();
                (keys, Err(counts), growth)
            }
        };
        let counts_bytes = match &counts {
            Ok(small) => small.len() * 8,
            Err(wide) => wide.len() * std::mem::size_of::<T>(),
        };
        let steps: Vec<S::Step> = (v..v + period * self.w).map(|u| sweep.step(u)).collect();
        let max_bytes = ctx
            .limits
            .budget
            .bytes()
            .saturating_sub(counts_bytes as u64)
            / 2;
        let record =
            Period::record_closed(sweep, &steps, v, &start_keys, max_bytes, &ctx.limits.cancel)?;
        let Some(record) = record else {
            let layer = match counts {
                Ok(small) => Counts::Small(Layer::from_states(start_keys, small, growth)),
                Err(wide) => Counts::Lanes(Layer::from_states(start_keys, wide, growth)),
            };
            return Ok(PassAt { layer, next: v });
        };
        drop(start_keys);
        // The states the period's sets add to those it starts from have not been reached.
        let mut counts = match counts {
            Ok(mut small) => {
                small.resize(record.start_states(), 0);
                PeriodCounts::Small(small)
            }
            Err(mut wide) => {
                wide.resize(record.start_states(), T::zero());
                PeriodCounts::wide(wide, ctx.used)
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
        loop {
            let run = acting_alike(u);
            if run.is_empty() {
                break;
            }
            ctx.limits.cancel.check()?;
            let transfers: Vec<&SquareTransfer<S::Key>> =
                run.iter().map(|(s, _)| record.square(*s)).collect();
            let finished = counts
                .apply(&Rayon, &transfers, ctx.used)
                .ok_or(Error::Overflow { board: self.board })?;
            for (((s, step), transfer), finished) in run.iter().zip(&transfers).zip(finished) {
                let states = transfer.keys().len() as u64;
                growth.record(states);
                stats.transitions += transfer.transitions();
                stats.layer_states += states;
                stats.peak_states = stats.peak_states.max(states);
                ctx.limits
                    .cancel
                    .report_pass(*s as u64 + 1, squares as u64, states);
                if let Some(height) = S::finishes(step) {
                    finish(height, finished);
                }
            }
            u += run.len();
        }
        stats.period_rows = period as u32;
        stats.periodic_squares += (u - v) as u64;
        let keys = record.square(u - 1).keys().to_vec();
        let both_bytes =
            |count_bytes: usize| record.bytes() + 2 * (keys.len() * count_bytes) as u64;
        let layer = match counts.into_counts() {
            Ok(small) => {
                stats.peak_both_bytes = stats.peak_both_bytes.max(both_bytes(8));
                Counts::Small(Layer::from_states(keys, small, growth))
            }
            Err(wide) => {
                stats.peak_both_bytes = stats
                    .peak_both_bytes
                    .max(both_bytes(std::mem::size_of::<T>()));
                Counts::Lanes(Layer::from_states(keys, wide, growth))
            }
        };
        Ok(PassAt { layer, next: u })
    }
}

/// What every square of a pass shares.
struct PassContext<'a> {
    heights: &'a std::ops::RangeInclusive<usize>,
    limits: &'a Limits,
    /// The lanes of a count the pass reads (see `Plan::run_with`).
    used: usize,
}

/// Where a pass stands: its layer and the square it takes next.
struct PassAt<T, K> {
    layer: Counts<T, K>,
    next: usize,
}

/// A pass's layer, keyed by `K`: counts in `u64` (while they fit, see [`Plan::run_over`]) or
/// of the pass's count type.
enum Counts<T, K> {
    Small(Layer<u64, K>),
    Lanes(Layer<T, K>),
}

impl<T: Tally, K> Counts<T, K> {
    fn states(&self) -> u64 {
        match self {
            Counts::Small(layer) => layer.states(),
            Counts::Lanes(layer) => layer.states(),
        }
    }
}
