//! The cut as the joins read it ([`Join`]): the moves a window code stands for, the other end
//! of a path on the cut, the self-turned moves a join chooses, and the words that hold a few
//! bits a cut square ([`CutWord`]).

pub(super) use crate::count::frontier::plan::MAX_CUT_SQUARES;
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

/// A word holding a few bits for each cut square (or each rank of a path end, or each pair of a
/// matching): which cut square a path on the cut runs to, or which rank an end is matched with.
/// Four bits in a `u64` hold a cut of at most 16 squares, what every board of width at most 8
/// cut between two rows needs; five bits in a `u128` hold [`MAX_CUT_SQUARES`]. A join chooses
/// the word once, by its cut ([`by_cut!`]), so that the narrow one keeps its bytes a state.
pub(crate) trait CutWord:
    Copy + Default + Eq + Ord + std::hash::Hash + Send + Sync + std::fmt::Debug
{
    /// The fields the word holds: the most cut squares it serves.
    const FIELDS: usize;
    /// The bytes of the word, as a saved half holds it.
    const BYTES: usize;
    /// The field `i`.
    fn field(self, i: usize) -> usize;
    /// The word with `value` added into field `i` (which holds 0).
    fn put(self, i: usize, value: usize) -> Self;
    /// The word with field `i` cleared.
    fn clear(self, i: usize) -> Self;
    /// The word's little-endian bytes appended to `out`.
    fn write(self, out: &mut Vec<u8>);
    /// The word from [`CutWord::BYTES`] little-endian bytes.
    fn read(bytes: &[u8]) -> Self;
}

macro_rules! cut_word {
    ($t:ty, $bits:expr) => {
        impl CutWord for $t {
            const FIELDS: usize = (<$t>::BITS / $bits) as usize;
            const BYTES: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn field(self, i: usize) -> usize {
                ((self >> ($bits * i as u32)) & ((1 << $bits) - 1)) as usize
            }
            #[inline(always)]
            fn put(self, i: usize, value: usize) -> Self {
                self | (value as $t) << ($bits * i as u32)
            }
            #[inline(always)]
            fn clear(self, i: usize) -> Self {
                self & !(((1 << $bits) - 1) << ($bits * i as u32))
            }
            fn write(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn read(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("a whole word"))
            }
        }
    };
}

cut_word!(u64, 4);
cut_word!(u128, 5);

/// Runs `$call` with `$L` the narrowest [`CutWord`] that holds a cut of `$cut` squares.
macro_rules! by_cut {
    ($cut:expr, $L:ident => $call:expr) => {
        if $cut <= <u64 as $crate::count::frontier::meet::cut::CutWord>::FIELDS {
            type $L = u64;
            $call
        } else {
            type $L = u128;
            $call
        }
    };
}
pub(crate) use by_cut;

/// The self-turned moves picked by the bits of `chosen`, and how many each cut square gets.
pub(super) fn chosen_moves(
    fixed: &[(usize, usize)],
    chosen: usize,
) -> (Vec<(usize, usize)>, [u32; MAX_CUT_SQUARES]) {
    let used: Vec<(usize, usize)> = fixed
        .iter()
        .enumerate()
        .filter(|(bit, _)| chosen & (1 << bit) != 0)
        .map(|(_, &edge)| edge)
        .collect();
    let mut extra = [0u32; MAX_CUT_SQUARES];
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
