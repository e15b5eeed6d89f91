//! What a pass needs of a frontier: the squares in the order it takes them, each as a step
//! that turns a state into the states it can go on to. The layers (`layer`), the period
//! (`periodic`) and the pass (`pass`) run over any [`Sweep`]: the window of processed squares
//! (`WindowSweep`, the engine's own, in this file) or the boundary of unprocessed ones
//! (`boundary`), which series take where it holds fewer states.

use super::plan::Plan;
use super::rules::Outcome;
use super::state::{Codec, Word};
use super::step::{Step, same_transfer};

/// A frontier's squares, one step each, over states packed into `u64` keys.
pub(super) trait Sweep: Sync {
    /// What one square does, whatever the state.
    type Step: Send + Sync;
    /// The step of the `v`-th square taken.
    fn step(&self, v: usize) -> Self::Step;
    /// Every state `key` goes on to at `step`, and the ways it finishes a board there.
    fn transitions(&self, step: &Self::Step, key: u64, emit: impl FnMut(Outcome));
    /// The height of the board that `step` finishes, if any.
    fn finishes(step: &Self::Step) -> Option<usize>;
    /// Two steps that act alike on states, both finishing a board or neither: a square and
    /// the same square a period of rows later.
    fn same_transfer(a: &Self::Step, b: &Self::Step) -> bool;
    /// The state before the first square.
    fn initial(&self) -> u64;
    /// The same sweep over a strip that goes on past the board's last row, finishing the
    /// same boards: its rows near the board's end act as those in the middle (a square there
    /// no longer sees the end), so a recorded period runs on to the end as products. Its
    /// steps equal this sweep's away from the end. `None` where the sweep has no such form.
    fn unending(&self) -> Option<Self>
    where
        Self: Sized;
}

/// The window engine's squares: square `v` of the oriented board is step `v`.
pub(super) struct WindowSweep<'a, Wd> {
    pub(super) plan: &'a Plan,
    pub(super) codec: &'a Codec,
    /// The heights whose boards the pass finishes.
    pub(super) heights: std::ops::RangeInclusive<usize>,
    pub(super) word: std::marker::PhantomData<Wd>,
}

impl<'a, Wd> WindowSweep<'a, Wd> {
    pub(super) fn new(
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

impl<Wd: Word> Sweep for WindowSweep<'_, Wd> {
    type Step = Step<Wd>;

    fn step(&self, v: usize) -> Step<Wd> {
        self.plan.step::<Wd>(v, &self.heights)
    }

    #[inline(always)]
    fn transitions(&self, step: &Step<Wd>, key: u64, emit: impl FnMut(Outcome)) {
        self.plan.transitions(self.codec, step, key, emit);
    }

    fn finishes(step: &Step<Wd>) -> Option<usize> {
        step.finishes
    }

    fn same_transfer(a: &Step<Wd>, b: &Step<Wd>) -> bool {
        same_transfer(a, b)
    }

    fn initial(&self) -> u64 {
        self.codec.initial::<Wd>()
    }

    fn unending(&self) -> Option<Self> {
        None // the window's steps are the plan's, for its board
    }
}
