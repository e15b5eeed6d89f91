//! The window frontier, the engine's own: the `2W + 1` squares processed last, whose degrees
//! and path labels a state records. `state` packs a window into a key, `step` says what each
//! square does whatever the state, `rules` applies one square to one state; [`WindowSweep`]
//! is the [`Sweep`] a pass runs.

pub(crate) mod rules;
pub(crate) mod state;
pub(crate) mod step;

use self::state::{Codec, Word};
use self::step::{Step, same_transfer};
use crate::count::frontier::plan::Plan;
use crate::count::frontier::sweep::{Key, Outcome, Sweep};

/// The window engine's squares: square `v` of the oriented board is step `v`; its windows are
/// words `Wd`, packed into keys `K`.
pub(crate) struct WindowSweep<'a, Wd, K = u64> {
    pub(crate) plan: &'a Plan,
    pub(crate) codec: &'a Codec,
    /// The heights whose boards the pass finishes.
    pub(crate) heights: std::ops::RangeInclusive<usize>,
    pub(crate) word: std::marker::PhantomData<(Wd, K)>,
}

impl<'a, Wd, K> WindowSweep<'a, Wd, K> {
    pub(crate) fn new(
        plan: &'a Plan,
        codec: &'a Codec,
        heights: std::ops::RangeInclusive<usize>,
    ) -> Self {
        WindowSweep {
            plan,
            codec,
            heights,
            word: std::marker::PhantomData,
        }
    }
}

impl<Wd: Word, K: Key> Sweep for WindowSweep<'_, Wd, K> {
    type Step = Step<Wd>;
    type Key = K;

    fn step(&self, v: usize) -> Step<Wd> {
        self.plan.step::<Wd>(v, &self.heights)
    }

    #[inline(always)]
    fn transitions(&self, step: &Step<Wd>, key: K, emit: impl FnMut(Outcome<K>)) {
        self.plan.transitions(self.codec, step, key, emit);
    }

    fn finishes(step: &Step<Wd>) -> Option<usize> {
        step.finishes
    }

    fn same_transfer(a: &Step<Wd>, b: &Step<Wd>) -> bool {
        same_transfer(a, b)
    }

    fn initial(&self) -> K {
        self.codec.initial::<Wd, K>()
    }

    fn unending(&self) -> Option<Self> {
        None // the window's steps are the plan's, for its board
    }
}
