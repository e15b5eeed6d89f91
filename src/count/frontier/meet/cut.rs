//! The cut as the joins read it: the moves a window code stands for, the other end of a path
//! on the cut, and the self-turned moves a join chooses.

use crate::count::frontier::sweep::{EMPTY, FULL};
#[cfg(test)]
use crate::count::frontier::window::state::Word;

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
