//! The other frontier: the boundary of the squares *not yet* taken, with a vertex joined to
//! every square, as in Knuth's frontier programs. A series' pass takes it where it holds
//! fewer states than the window of processed squares.
//!
//! The squares are taken in an order (`steps`); when a square is taken it chooses every move
//! it still needs, to squares not yet taken, so that it leaves with its two moves. The state
//! is the boundary: each square not yet taken that has a taken neighbour, with its moves so
//! far (0, 1 or 2) and, for a path end, the other end (a label shared by both, or "a tour
//! end" where the path runs to the joined vertex). An open tour is a cycle through the joined
//! vertex, which has two moves: the ends of the tour. A cycle that closes finishes the board
//! whose rows are exactly those of the squares that have both moves; it waits, as a key of its
//! own, for that board's last row to end.
//!
//! Within a row the squares are taken outside in (0, w-1, 1, w-2, …), so that after every
//! second square the taken part of the board is its own mirror image: the rest of the count is
//! then symmetric, and a state is merged with its mirror image.
//!
//! The parts: `steps` orders the squares and says what each step does whatever the state;
//! `rules` applies a step to a state.

mod rules;
mod steps;
#[cfg(test)]
mod tests;

use self::steps::{BoundaryStep, MAX_SLOTS, Order};
use super::plan::{FrontierMode, Plan};
use super::sweep::Sweep;
use crate::count::frontier::sweep::Outcome;

/// The boundary's squares, step by step, over a strip as its plan orients it.
pub(super) struct BoundarySweep {
    order: Order,
    open: bool,
    fold: bool,
    heights: std::ops::RangeInclusive<usize>,
}

impl BoundarySweep {
    /// The sweep for `plan`'s totals (open or closed; no fixed end) over the board of
    /// `heights.end()` rows, finishing those of `heights`, squares taken outside in when
    /// `outside_in`; `None` where this frontier does not count the plan or its boundary
    /// outgrows a key.
    pub(super) fn new(
        plan: &Plan,
        heights: std::ops::RangeInclusive<usize>,
        outside_in: bool,
    ) -> Option<BoundarySweep> {
        let open = match plan.mode {
            FrontierMode::Total => true,
            FrontierMode::Closed => false,
            FrontierMode::Start(_) | FrontierMode::Between(..) => return None,
        };
        if plan.w < 3 || plan.split || plan.witness {
            return None;
        }
        let order = Order::new(plan.w, *heights.end(), outside_in);
        if order.widest_boundary() > MAX_SLOTS {
            return None;
        }
        Some(BoundarySweep {
            order,
            open,
            fold: plan.mirror_fold,
            heights,
        })
    }
}

impl Sweep for BoundarySweep {
    type Step = BoundaryStep;
    type Key = u64;

    fn step(&self, v: usize) -> BoundaryStep {
        self.order.step(v, &self.heights, self.fold)
    }

    fn transitions(&self, step: &BoundaryStep, key: u64, emit: impl FnMut(Outcome)) {
        rules::transitions(step, self.open, key, emit);
    }

    fn finishes(step: &BoundaryStep) -> Option<usize> {
        step.finishes
    }

    fn same_transfer(a: &BoundaryStep, b: &BoundaryStep) -> bool {
        a.finishes.is_some() == b.finishes.is_some() && a.shape == b.shape
    }

    fn initial(&self) -> u64 {
        0
    }

    fn describe(&self) -> String {
        format!("outside in: {}", self.order.outside_in)
    }

    fn unending(&self) -> Option<BoundarySweep> {
        // A step sees at most the boundary two rows ahead and its squares' moves two rows on.
        const BEYOND: usize = 5;
        let order = Order::new(
            self.order.w,
            self.order.rows + BEYOND,
            self.order.outside_in,
        );
        (order.widest_boundary() <= MAX_SLOTS).then_some(BoundarySweep {
            order,
            open: self.open,
            fold: self.fold,
            heights: self.heights.clone(),
        })
    }
}
