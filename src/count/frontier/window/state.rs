//! The state encoding: what a slot of the window holds, the window as a machine word handled a
//! whole word at a time, and the packing of a window into a layer's key.

use crate::count::frontier::sweep::{FIRST_LABEL, FULL, Key};

/// A window as a machine word, four bits a slot (slot `i` at bits `4i..4i+4`), handled a whole
/// word at a time.
pub(crate) trait Word:
    Copy
    + Eq
    + Send
    + Sync
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// The low bit of every slot the word can hold.
    const LOW: Self;
    fn from_u8(value: u8) -> Self;
    fn times(self, value: u8) -> Self;
    fn low_u8(self) -> u8;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    fn to_u128(self) -> u128;
    fn from_u128(value: u128) -> Self;

    /// `value` in slot `slot`.
    fn nibble(slot: usize, value: u8) -> Self {
        Self::from_u8(value) << (4 * slot as u32)
    }

    /// `value` in each of the first `slots` slots.
    fn repeat(value: u8, slots: usize) -> Self {
        (0..slots).fold(Self::ZERO, |m, slot| m | Self::nibble(slot, value))
    }

    fn code(self, slot: usize) -> u8 {
        (self >> (4 * slot as u32)).low_u8() & 15
    }

    fn with(self, slot: usize, value: u8) -> Self {
        let shift = 4 * slot as u32;
        (self & !(Self::from_u8(15) << shift)) | (Self::from_u8(value) << shift)
    }

    /// The low bit of every slot in `among` (given as low bits) holding `value`.
    fn eq_mask(self, value: u8, among: Self) -> Self {
        let y = self ^ among.times(value);
        let any = (y | (y >> 1) | (y >> 2) | (y >> 3)) & among;
        among & !any
    }

    /// The low bit of every slot holding a path label (3 or more).
    fn labels(self) -> Self {
        ((self >> 3) | (self >> 2) | ((self >> 1) & self)) & Self::LOW
    }

    /// Replaces the (single) slot among `among` that holds `from` by `to`.
    fn replace(self, from: u8, to: u8, among: Self) -> Self {
        let mask = self.eq_mask(from, among);
        if mask == Self::ZERO {
            return self;
        }
        self.with((mask.trailing_zeros() / 4) as usize, to)
    }

    /// The window after the step: slot 0 leaves, the others move down one.
    fn shift_out(self) -> Self {
        self >> 4
    }

    /// Labels renumbered from 3 in order of first appearance.
    fn canonical(self) -> Self {
        let mut labels = self.labels();
        let mut map = 0u64;
        let mut next = FIRST_LABEL as u64;
        let mut out = self & !(labels.times(15));
        while labels != Self::ZERO {
            let shift = labels.trailing_zeros();
            let label = ((self >> shift).low_u8() & 15) as u32;
            let known = (map >> (4 * label)) & 15;
            // Branch-free: a label seen for the first time takes the next number.
            let new = u64::from(known == 0);
            let mapped = known | (new * next);
            map |= (new * next) << (4 * label);
            next += new;
            out = out | (Self::from_u8(mapped as u8) << shift);
            labels = labels & (labels ^ (Self::from_u8(1) << shift));
        }
        out
    }

    /// The low bits of the slots holding 0 (empty), 1 (full) and 2 (dangling).
    fn classes(self) -> (Self, Self, Self) {
        let b0 = self & Self::LOW;
        let b1 = (self >> 1) & Self::LOW;
        let high = ((self >> 2) | (self >> 3)) & Self::LOW;
        let empty = Self::LOW & !(b0 | b1 | high);
        let full = b0 & !b1 & !high;
        let dangling = b1 & !b0 & !high;
        (empty, full, dangling)
    }
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const LOW: Self = <$t>::MAX / 15;
            fn from_u8(value: u8) -> Self {
                value as $t
            }
            fn times(self, value: u8) -> Self {
                self.wrapping_mul(value as $t)
            }
            fn low_u8(self) -> u8 {
                self as u8
            }
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            fn to_u128(self) -> u128 {
                self as u128
            }
            fn from_u128(value: u128) -> Self {
                value as $t
            }
        }
    };
}

word!(u64);
word!(u128);

/// Packs a window (and the colour flag) into a key: in a `u64`, the slots' four bits as they
/// are up to width 7 (flag at bit 60), base 12 for width 8 (17 slots of at most 11); in a
/// `u128`, the slots' four bits as they are at every width (19 slots at width 9; flag at bit
/// 124), with no base to convert.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Codec {
    k: usize,
    base12: bool,
}

impl Codec {
    pub(crate) fn new(k: usize) -> Self {
        Codec { k, base12: k > 15 }
    }

    /// The key of the window before the first square: every slot holds a square that does not
    /// exist, done.
    pub(crate) fn initial<Wd: Word, K: Key>(&self) -> K {
        self.encode::<Wd, K>(Wd::repeat(FULL, self.k), 0)
    }

    #[inline(always)]
    pub(crate) fn encode<Wd: Word, K: Key>(&self, window: Wd, flag: u8) -> K {
        if K::BITS == 128 {
            K::from_u128(window.to_u128() | u128::from(flag) << 124)
        } else if self.base12 {
            debug_assert!(self.k <= 17, "12^{} passes a u64", self.k);
            let mut key = 0u64;
            for slot in (0..self.k).rev() {
                key = key * 12 + window.code(slot) as u64;
            }
            K::from_u128(u128::from(key))
        } else {
            K::from_u128(u128::from(window.to_u128() as u64 | (flag as u64) << 60))
        }
    }

    /// The window and flag of a key.
    #[inline(always)]
    pub(crate) fn decode_key<Wd: Word, K: Key>(&self, key: K) -> (Wd, u8) {
        if K::BITS == 128 {
            let key = key.to_u128();
            (
                Wd::from_u128(key & ((1u128 << 124) - 1)),
                (key >> 124) as u8,
            )
        } else if self.base12 {
            let mut window = Wd::ZERO;
            let mut rest = key.to_u128() as u64;
            for slot in 0..self.k {
                window = window | Wd::nibble(slot, (rest % 12) as u8);
                rest /= 12;
            }
            (window, 0)
        } else {
            let key = key.to_u128() as u64;
            (
                Wd::from_u128((key & ((1u64 << 60) - 1)) as u128),
                (key >> 60) as u8,
            )
        }
    }
}
