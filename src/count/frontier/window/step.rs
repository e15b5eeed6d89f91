//! What each square does, whatever the state: the slots it can move back to, the moves its
//! neighbours have left, and the checks that follow.

use crate::count::frontier::plan::{FrontierMode, Plan};
use crate::count::frontier::window::state::Word;

/// The slots of the widest extended window: `2W + 2`.
const SLOTS: usize = 2 * crate::count::frontier::plan::MAX_WIDTH as usize + 2;

/// One square's step, with everything about it that does not depend on the state. Slots are
/// those of the extended window: `0..k` before the step, slot `k` is the new square `v`;
/// masks mark a slot `i` by bit `4 i`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step<Wd> {
    /// The square of this step (row-major, oriented board).
    pub(crate) v: usize,
    /// Slots that are a knight's move back from `v`.
    pub(crate) neighbours: [usize; 4],
    pub(crate) neighbour_count: usize,
    /// Completed boards can be read off after this step (the last square of a row in range).
    pub(crate) finishes: Option<usize>,
    /// No state goes on after this step.
    pub(crate) last: bool,
    /// The fewest moves the new square must make now, with the moves it will have later.
    pub(crate) min_moves: usize,
    /// Slots that lose a future move at this step and keep exactly one (closed tours: they may
    /// not still be empty).
    pub(crate) one_left: Wd,
    /// Slots whose squares have no move left after this step (slot 0 always): their degree is
    /// final.
    pub(crate) finals_mask: Wd,
    /// The colour of the square in each slot (`true`: the corners' colour).
    pub(crate) colour: [bool; SLOTS],
    /// The fixed start's slot, while it is in the window.
    pub(crate) start_slot: Option<usize>,
    /// The fixed start is still to come.
    pub(crate) start_pending: bool,
    /// Slots 0..=k (the whole extended window).
    pub(crate) all: Wd,
    /// The step ends a row: states are merged with their mirror images.
    pub(crate) mirror: bool,
    /// Slots 1..=k (the window after the step).
    pub(crate) next: Wd,
    /// Slots of the next window whose squares have at most one move left.
    pub(crate) weak: Wd,
    /// Slots of the next window of the corners' colour.
    pub(crate) corner: Wd,
    /// The fixed start's slot in the next window.
    pub(crate) start_mask: Wd,
    /// The fixed end's slot (tours between two squares), while it is in the window.
    pub(crate) end_slot: Option<usize>,
    /// The fixed end is still to come.
    pub(crate) end_pending: bool,
    /// The fixed start's and end's slots in the next window.
    pub(crate) fixed_mask: Wd,
    /// The fixed start's and end's slots in the extended window.
    pub(crate) fixed_all: Wd,
}

/// Two steps that act alike on states (everything but the square itself), neither of them
/// finishing a board.
pub(crate) fn same_step<Wd: Word>(a: &Step<Wd>, b: &Step<Wd>) -> bool {
    if a.finishes.is_some() || b.finishes.is_some() {
        return false;
    }
    let mut moved = b.clone();
    moved.v = a.v;
    *a == moved
}

/// Two steps that act alike on states, both finishing a board or neither: a square and the
/// same square a period of rows later, in the middle of a series' pass.
pub(crate) fn same_transfer<Wd: Word>(a: &Step<Wd>, b: &Step<Wd>) -> bool {
    if a.finishes.is_some() != b.finishes.is_some() {
        return false;
    }
    let mut moved = b.clone();
    moved.v = a.v;
    moved.finishes = a.finishes;
    *a == moved
}

impl Plan {
    pub(crate) fn step<Wd: Word>(
        &self,
        v: usize,
        heights: &std::ops::RangeInclusive<usize>,
    ) -> Step<Wd> {
        let (w, k) = (self.w, self.k);
        let (r, c) = (v / w, v % w);
        let mut neighbours = Vec::with_capacity(4);
        // Slot j of the window before the step holds square v - k + j.
        if r >= 2 && c >= 1 {
            neighbours.push(0); // (r-2, c-1)
        }
        if r >= 2 && c + 1 < w {
            neighbours.push(2); // (r-2, c+1)
        }
        if r >= 1 && c >= 2 {
            neighbours.push(k - (w + 2)); // (r-1, c-2)
        }
        if r >= 1 && c + 2 < w {
            neighbours.push(k - (w - 2)); // (r-1, c+2)
        }
        // Meeting in the middle, the other half decides some moves.
        neighbours.retain(|&slot| self.owned(v + slot - k, v));
        let rows = *heights.end();
        let square = |slot: usize| (v + slot).checked_sub(k);
        let future: Vec<u8> = (0..=k)
            .map(|slot| square(slot).map_or(0, |u| self.future_moves(u, v, rows)))
            .collect();
        // Without the colour rules the squares' colours are not looked at: they are left out,
        // so that the rows of a series' pass are alike from one row to the next.
        let colour: Vec<bool> = (0..=k)
            .map(|slot| {
                (self.colours || self.colour_flag)
                    && square(slot).is_some_and(|u| self.corner_colour(u))
            })
            .collect();
        let touched: Vec<usize> = neighbours
            .iter()
            .copied()
            .filter(|&slot| slot != 0)
            .chain(std::iter::once(k))
            .collect();
        let mut one_left = Wd::ZERO;
        for &slot in &touched {
            if future[slot] == 1 {
                one_left = one_left | Wd::nibble(slot, 1);
            }
        }
        let mut finals_mask = Wd::ZERO;
        for slot in std::iter::once(0).chain(touched.iter().copied().filter(|&s| future[s] == 0)) {
            finals_mask = finals_mask | Wd::nibble(slot, 1);
        }
        let mut colours = [false; SLOTS];
        colours[..=k].copy_from_slice(&colour);
        let slot_of =
            |square: Option<usize>| square.filter(|&s| s <= v && s + k >= v).map(|s| s + k - v);
        let start_slot = slot_of(self.start);
        let end_slot = slot_of(self.end);
        let mut next = Wd::ZERO;
        let mut weak = Wd::ZERO;
        let mut corner = Wd::ZERO;
        for slot in 1..=k {
            let bit = Wd::nibble(slot, 1);
            next = next | bit;
            if square(slot).is_some() && future[slot] <= 1 {
                weak = weak | bit;
            }
            if colour[slot] {
                corner = corner | bit;
            }
        }
        let next_mask = |slot: Option<usize>| match slot {
            Some(slot) if slot >= 1 => Wd::nibble(slot, 1),
            _ => Wd::ZERO,
        };
        let start_mask = next_mask(start_slot);
        let fixed_mask = start_mask | next_mask(end_slot);
        let fixed_all = [start_slot, end_slot]
            .into_iter()
            .flatten()
            .fold(Wd::ZERO, |mask, slot| mask | Wd::nibble(slot, 1));
        let row_end = c == w - 1;
        let mut neighbour_slots = [0usize; 4];
        neighbour_slots[..neighbours.len()].copy_from_slice(&neighbours);
        Step {
            v,
            all: next | Wd::nibble(0, 1),
            mirror: row_end && self.folds_mirror_images(),
            neighbours: neighbour_slots,
            neighbour_count: neighbours.len(),
            finishes: (row_end && heights.contains(&(r + 1))).then_some(r + 1),
            last: v + 1 == rows * w,
            min_moves: match self.mode {
                FrontierMode::Closed => 2usize.saturating_sub(future[k] as usize),
                _ => usize::from(future[k] == 0),
            },
            one_left,
            finals_mask,
            colour: colours,
            start_slot,
            start_pending: self.start.is_some_and(|s| s > v),
            next,
            weak,
            corner,
            start_mask,
            end_slot,
            end_pending: self.end.is_some_and(|e| e > v),
            fixed_mask,
            fixed_all,
        }
    }
}
