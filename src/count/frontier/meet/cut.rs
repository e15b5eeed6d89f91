//! The cut as the joins read it ([`Join`]): the moves a window code stands for, the other end
//! of a path on the cut, and the self-turned moves a join chooses.

use crate::count::frontier::plan::Plan;
use crate::count::frontier::sweep::{EMPTY, FULL};
use crate::count::frontier::window::state::Codec;
#[cfg(test)]
use crate::count::frontier::window::state::Word;

/// The cut as the joins read it: its squares, the window slot of the first, the state codec and
/// the self-turned moves.
pub(super) struct Join {
    pub(super) cut: usize,
    pub(super) offset: usize,
    pub(super) codec: Codec,
    pub(super) fixed: Vec<(usize, usize)>,
}

impl Plan {
    /// What every join of this plan's halves reads the cut with.
    pub(super) fn join(&self) -> Join {
        let (cut, offset) = self.cut_slots();
        Join {
            cut,
            offset,
            codec: Codec::new(self.k),
            // Moves inside the cut that are their own half turn (between two rows, two moves on
            // an odd width): neither half owns them, and every join tries them both ways.
            fixed: self.self_turned_moves(),
        }
    }

    /// The number of cut squares, and the window slot of the first once the top half is done:
    /// slots 1..=2W (the square before the cut stays in slot 0); all slots 0..=2W; or, where
    /// the cut is one square longer than the window, slots 0..=2W and slot 2W + 1, which is
    /// always empty (see [`Plan::last_of_top_half`]).
    fn cut_slots(&self) -> (usize, usize) {
        let (lo, hi) = self.cut();
        let cut = hi - lo + 1;
        (cut, self.k.saturating_sub(cut))
    }
}

/// The self-turned moves picked by the bits of `chosen`, and how many each cut square gets.
pub(super) fn chosen_moves(
    fixed: &[(usize, usize)],
    chosen: usize,
) -> (Vec<(usize, usize)>, [u32; 16]) {
    let used: Vec<(usize, usize)> = fixed
        .iter()
        .enumerate()
        .filter(|(bit, _)| chosen & (1 << bit) != 0)
        .map(|(_, &edge)| edge)
        .collect();
    let mut extra = [0u32; 16];
    for &(i, j) in &used {
        extra[i] += 1;
        extra[j] += 1;
    }
    (used, extra)
}

/// The number of moves a window code stands for.
pub(super) fn code_degree(code: u8) -> u32 {
    match code {
        EMPTY => 0,
        FULL => 2,
        _ => 1,
    }
}

/// The cut square (of `cut`, window slots `offset..offset + cut`) at the other end of the path
/// ending at `i`.
#[cfg(test)]
pub(super) fn label_partner<Wd: Word>(window: Wd, i: usize, cut: usize, offset: usize) -> usize {
    let code = window.code(i + offset);
    (0..cut)
        .find(|&j| j != i && window.code(j + offset) == code)
        .expect("a path has two ends")
}
