//! Exact counts: numbers of ways added with overflow detection, and sums of products for the
//! joins.

use std::ops::AddAssign;

use num_bigint::BigUint;

/// A number of ways: added with overflow detection.
pub(super) trait Tally: Clone + Send + Sync + AddAssign {
    /// 64, 128, or 0 for arbitrary precision.
    const BITS: u32;
    fn zero() -> Self;
    fn one() -> Self;
    /// Adds `other`; false on overflow.
    fn add(&mut self, other: &Self) -> bool;
    /// Half of this count (which is even).
    fn halve(&mut self);
    fn into_big(self) -> BigUint;
}

/// The checked integer types: a sum that would not fit is refused, not wrapped.
macro_rules! checked_tally {
    ($t:ty) => {
        impl Tally for $t {
            const BITS: u32 = <$t>::BITS;
            fn zero() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
            fn add(&mut self, other: &Self) -> bool {
                match self.checked_add(*other) {
                    Some(sum) => {
                        *self = sum;
                        true
                    }
                    None => false,
                }
            }
            fn halve(&mut self) {
                *self /= 2;
            }
            fn into_big(self) -> BigUint {
                BigUint::from(self)
            }
        }
    };
}

checked_tally!(u64);
checked_tally!(u128);

impl Tally for BigUint {
    const BITS: u32 = 0;
    fn zero() -> Self {
        BigUint::default()
    }
    fn one() -> Self {
        BigUint::from(1u32)
    }
    fn add(&mut self, other: &Self) -> bool {
        *self += other;
        true
    }
    fn halve(&mut self) {
        *self >>= 1u32;
    }
    fn into_big(self) -> BigUint {
        self
    }
}

/// A sum of products of two counts: kept in a `u128` while it fits, carried into a big integer
/// when the sum (or a single product) would not.
pub(super) struct ProductSum {
    big: BigUint,
    partial: u128,
}

impl ProductSum {
    pub(super) fn new() -> Self {
        ProductSum {
            big: BigUint::default(),
            partial: 0,
        }
    }

    pub(super) fn add(&mut self, a: u128, b: u128) {
        match a.checked_mul(b) {
            Some(product) => match self.partial.checked_add(product) {
                Some(sum) => self.partial = sum,
                None => {
                    self.big += self.partial;
                    self.partial = product;
                }
            },
            None => self.big += BigUint::from(a) * BigUint::from(b),
        }
    }

    pub(super) fn total(self) -> BigUint {
        self.big + self.partial
    }
}
