//! Meeting in the middle: the top half's states up to the cut, reduced to what the other half
//! sees of them (`classes`), joined with their own half turns by lookup (`lookup`); both read
//! the cut as `cut` does. The joins that walk every pair of top and bottom states
//! (`oracle`) are kept as the tests' oracle.

mod between;
mod classes;
mod cut;
mod lookup;
#[cfg(test)]
mod oracle;
mod saved;
#[cfg(test)]
mod tests;

use num_bigint::BigUint;

use self::classes::{Bottoms, CutClasses, cut_classes};
use self::cut::{CutWord, Join, by_cut};
use self::lookup::{JoinRules, lookup_join};
use super::plan::{FrontierMode, FrontierStats, Plan, Purpose};
use super::sweep::Sweep;
use crate::board::Square;
use crate::cancel::CancelFlag;
use crate::count::Limits;
use crate::count::frontier::counts::tally::Tally;
use crate::count::frontier::pass::checkpoint::{Keeper, PassState, Resumed};
use crate::count::frontier::pass::layer::{Layer, by_key};
use crate::count::frontier::sweep::Key;
use crate::count::frontier::window::WindowSweep;
use crate::count::frontier::window::state::{Codec, Word};
use crate::error::Error;
use crate::memory::MemoryBudget;

pub(super) use self::between::meet_between;

impl Plan {
    /// The meeting in the middle (see [`count_meeting`](super::count_meeting)).
    pub(super) fn meet<T: Tally + Into<u128> + Copy>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
    ) -> Result<(BigUint, FrontierStats), Error> {
        let cut = self.join().cut;
        by_key!(self, Wd, K => by_cut!(cut, L => self.meet_word::<Wd, K, L, T>(budget, cancel)))
    }

    fn meet_word<Wd: Word, K: Key, L: CutWord, T: Tally + Into<u128> + Copy>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
    ) -> Result<(BigUint, FrontierStats), Error> {
        let mut stats = FrontierStats::counting_in::<T>();
        let (layer, kept) = self.top_half::<Wd, K, T>(budget, cancel, &mut stats)?;
        let Join {
            cut,
            offset,
            codec,
            fixed,
        } = self.join();
        let open = self.mode != FrontierMode::Closed;
        let classes = self.classes::<Wd, K, L, T>(layer, &codec, cut, offset, open)?;
        cancel.report_phase("classes", classes.states());
        let rules = JoinRules {
            cut,
            fixed: &fixed,
            open,
            required: 0,
        };
        let total = self.lookup(&classes, &classes, rules, cancel)?;
        cancel.report_phase("join", classes.states());
        kept.done();
        Ok((total, stats))
    }

    /// A half's last layer as the join's classes; an overflow of `T` is the plan's.
    fn classes<Wd: Word, K: Key, L: CutWord, T: Tally + Copy>(
        &self,
        layer: Layer<T, K>,
        codec: &Codec,
        cut: usize,
        offset: usize,
        open: bool,
    ) -> Result<CutClasses<L, T>, Error> {
        let mirror = self.folds_mirror_images().then_some(self.w);
        cut_classes::<Wd, K, L, T>(layer, codec, cut, offset, open, mirror)
            .ok_or(Error::Overflow { board: self.board })
    }

    /// The lookup join of `tops` with `bottoms`; an overflow is the plan's. Tops kept a pair
    /// of mirror images at a time (the total's half, as the bottoms) join once where the
    /// required ends are their own mirror image; else the tours with the required ends and
    /// those with their mirror image are counted together, which is twice the count.
    fn lookup<'b, L: CutWord + 'b, T: Tally + Copy + Into<u128> + 'b>(
        &self,
        tops: &CutClasses<L, T>,
        bottoms: impl Into<Bottoms<'b, L, T>>,
        rules: JoinRules,
        cancel: &CancelFlag,
    ) -> Result<BigUint, Error> {
        let bottoms = bottoms.into();
        let join = |rules: JoinRules| -> Result<BigUint, Error> {
            lookup_join(tops, bottoms, rules, cancel)?.ok_or(Error::Overflow { board: self.board })
        };
        debug_assert!(
            !tops.folded() || bottoms.folded(),
            "folded tops need whole bottoms"
        );
        let image = tops.mirror_squares(rules.required);
        if !tops.folded() || image == rules.required {
            return join(rules);
        }
        let both = join(rules)?
            + join(JoinRules {
                required: image,
                ..rules
            })?;
        Ok(both / 2u32)
    }

    /// The top half's states up to the last square of the cut, and its checkpoint (where
    /// passes save), kept until the caller has joined the half: [`Kept::done`].
    fn top_half<Wd: Word, K: Key, T: Tally>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        stats: &mut FrontierStats,
    ) -> Result<(Layer<T, K>, Kept), Error> {
        let last = self.last_of_top_half();
        let codec = Codec::new(self.k);
        let sweep = WindowSweep::<Wd, K>::new(self, &codec, self.h..=self.h);
        let mut layer = Layer::<T, K>::first(sweep.initial(), self.w);
        let limits = Limits::new(budget, cancel);
        let squares = last + 1;
        let identity = format!(
            "top half; {self:?}; counts {}; sweep {}",
            std::any::type_name::<T>(),
            std::any::type_name::<WindowSweep<Wd, K>>(),
        );
        let mut keeper = Keeper::for_pass(cancel, identity);
        let mut first = 0;
        if let Some(keeper) = keeper.as_mut()
            && let Some((state, resumed)) = keeper.resume::<T, K>(self.w)?
        {
            let Resumed::Lanes(resumed) = resumed else {
                unreachable!("a half counts in one type throughout")
            };
            (layer, first, *stats) = (resumed, state.square, state.stats);
        }
        // Saves before square `v` where due; `v == squares`: the half's last layer, which the
        // join reads (a stop during the join then loses the join only).
        let save = |keeper: &mut Option<Keeper>,
                    layer: &Layer<T, K>,
                    v: usize,
                    stats: &mut FrontierStats| {
            if let Some(keeper) = keeper.as_mut()
                && keeper.due(v)
            {
                let state = PassState {
                    square: v,
                    squares,
                    stats: *stats,
                    ..PassState::default()
                };
                keeper.save(&state, layer, stats)?;
            }
            Ok::<(), Error>(())
        };
        for v in first..squares {
            save(&mut keeper, &layer, v, stats)?;
            cancel.check()?;
            let step = sweep.step(v);
            layer = self.advance(&sweep, layer, &step, v, &limits, stats)?.0;
            let states = layer.states();
            cancel.report_pass(v as u64 + 1, squares as u64, states);
        }
        save(&mut keeper, &layer, squares, stats)?;
        if let Some(keeper) = keeper.as_mut() {
            keeper.passed();
        }
        Ok((layer, Kept(keeper)))
    }
}

/// A half's checkpoint, kept while the half is joined.
pub(super) struct Kept(Option<Keeper>);

impl Kept {
    /// The half is joined: its checkpoint goes.
    pub(super) fn done(self) {
        if let Some(keeper) = self.0 {
            keeper.finish();
        }
    }
}

impl FrontierStats {
    /// Figures of a run whose counts are of type `T`.
    fn counting_in<T: Tally>() -> FrontierStats {
        FrontierStats {
            count_bits: T::BITS,
            ..FrontierStats::default()
        }
    }
}

/// Counts the open tours from each of `starts` by meeting in the middle, on a board whose open
/// total meets (`all` is its plan for the halves of the total). The bottom half of a tour from
/// a start above the cut is any half's states turned, so the top half of the total is computed
/// once and joined with the top half of each start; a start below the cut is counted as its
/// half turn, and a start on the cut joins the total's halves with a tour end required there.
/// `report` receives each start's count (directed) as soon as it is known.
pub(super) fn meet_starts<T: Tally + Into<u128> + Copy>(
    all: &Plan,
    starts: &[Square],
    budget: MemoryBudget,
    cancel: &CancelFlag,
    report: &mut dyn FnMut(Square, BigUint),
) -> Result<FrontierStats, Error> {
    let cut = all.join().cut;
    by_key!(all, Wd, K => by_cut!(cut, L => meet_starts_word::<Wd, K, L, T>(all, starts, budget, cancel, report)))
}

fn meet_starts_word<Wd: Word, K: Key, L: CutWord, T: Tally + Into<u128> + Copy>(
    all: &Plan,
    starts: &[Square],
    budget: MemoryBudget,
    cancel: &CancelFlag,
    report: &mut dyn FnMut(Square, BigUint),
) -> Result<FrontierStats, Error> {
    let mut stats = FrontierStats::counting_in::<T>();
    let (lo, hi) = all.cut();
    let Join {
        cut,
        offset,
        codec,
        fixed,
    } = all.join();
    let (halves, kept): (CutClasses<L, T>, Kept) = {
        let (layer, kept) = all.top_half::<Wd, K, T>(budget, cancel, &mut stats)?;
        let halves = all.classes::<Wd, K, L, T>(layer, &codec, cut, offset, true)?;
        cancel.report_phase("classes", halves.states());
        (halves, kept)
    };
    let rules = |required: u32| JoinRules::open(cut, &fixed, required);
    let asked = all.asked();
    for &start in starts {
        asked.check_square(start)?;
        let mut v = all.index(start);
        if v > hi {
            v = all.n - 1 - v; // its half turn
        }
        let count = if v >= lo {
            all.lookup(&halves, &halves, rules(1 << (v - lo)), cancel)?
        } else {
            let from = Plan::new(asked, FrontierMode::Start(all.square(v)), Purpose::Meet)?;
            let (layer, from_kept) = from.top_half::<Wd, K, T>(budget, cancel, &mut stats)?;
            let tops = from.classes::<Wd, K, L, T>(layer, &codec, cut, offset, true)?;
            let count = all.lookup(&tops, &halves, rules(0), cancel)?;
            from_kept.done();
            count
        };
        report(start, count);
    }
    kept.done();
    Ok(stats)
}
