//! Exact counts: numbers of ways added with overflow detection, or modulo numbers chosen
//! before a pass so that the count is below their product; and sums of products for the joins.

use std::ops::AddAssign;

use num_bigint::BigUint;

use crate::count::frontier::counts::residue::{PRIMES, add_mod, combine, mul_mod};

/// A number of ways: added with overflow detection.
pub(crate) trait Tally: Clone + Send + Sync + AddAssign {
    /// 64, 128, or 0 for arbitrary precision; for counts kept modulo numbers, the bits of
    /// their product.
    const BITS: u32;
    /// The primes a count is kept modulo (0: an integer type, or modulo `2^64`).
    const PRIMES: u32 = 0;
    fn zero() -> Self;
    fn one() -> Self;
    /// Adds `other`; false on overflow.
    fn add(&mut self, other: &Self) -> bool;
    /// Half of this count (which is even).
    fn halve(&mut self);
    fn into_big(self) -> BigUint;
    /// The count, read from its first `lanes` lanes only (all of them for a type without
    /// lanes): a pass whose counts are below the product of fewer primes than its type holds
    /// runs the others not at all (see `LaneCounts`).
    fn into_big_within(self, lanes: usize) -> BigUint {
        let _ = lanes;
        self.into_big()
    }
    /// The count `value`.
    fn from_u64(value: u64) -> Self;
    /// How many independent words (lanes) the count is made of, each added on its own modulo
    /// [`Tally::lane_modulus`]: a layer's counts can then be run one lane at a time, each
    /// lane's states in the cache (the periodic rows are). 0 for the checked and
    /// arbitrary-precision types, which carry from word to word.
    const LANES: usize = 0;
    /// The count's lanes (empty where [`Tally::LANES`] is 0).
    fn lanes(&self) -> &[u64] {
        &[]
    }
    /// The count whose lanes are `lanes` (only called where [`Tally::LANES`] is not 0).
    fn from_lanes(lanes: &[u64]) -> Self {
        unreachable!("a count of {} lanes from {lanes:?}", Self::LANES)
    }
    /// What lane `j` is added modulo; 0 for `2^64`.
    fn lane_modulus(_j: usize) -> u64 {
        0
    }
    /// Appends the count's bytes, little-endian, for a saved layer (see `pass::checkpoint`).
    fn put_bytes(&self, out: &mut Vec<u8>);
    /// The count [`Tally::put_bytes`] wrote at the start of `bytes`, which it moves past;
    /// `None` where the bytes are too few or are no count of this type (a residue not below
    /// its prime).
    fn take_bytes(bytes: &mut &[u8]) -> Option<Self>;
}

/// The `u64` at the start of `bytes`, which it moves past.
pub(crate) fn take_u64(bytes: &mut &[u8]) -> Option<u64> {
    let (word, rest) = bytes.split_first_chunk::<8>()?;
    *bytes = rest;
    Some(u64::from_le_bytes(*word))
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
            fn from_u64(value: u64) -> Self {
                value.into()
            }
            fn put_bytes(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn take_bytes(bytes: &mut &[u8]) -> Option<Self> {
                let (word, rest) = bytes.split_first_chunk()?;
                *bytes = rest;
                Some(<$t>::from_le_bytes(*word))
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
    fn from_u64(value: u64) -> Self {
        BigUint::from(value)
    }
    /// Its length in bytes, then the bytes.
    fn put_bytes(&self, out: &mut Vec<u8>) {
        let digits = self.to_bytes_le();
        out.extend_from_slice(&(digits.len() as u64).to_le_bytes());
        out.extend_from_slice(&digits);
    }
    fn take_bytes(bytes: &mut &[u8]) -> Option<Self> {
        let len = usize::try_from(take_u64(bytes)?).ok()?;
        let (digits, rest) = bytes.split_at_checked(len)?;
        *bytes = rest;
        Some(BigUint::from_bytes_le(digits))
    }
}

/// A count modulo `2^64`: exact for counts below `2^63` (the pass chooses it only where the
/// board's bound says so), and added without any check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Wrapping64(pub(crate) u64);

impl AddAssign for Wrapping64 {
    fn add_assign(&mut self, other: Self) {
        self.0 = self.0.wrapping_add(other.0);
    }
}

impl Tally for Wrapping64 {
    const BITS: u32 = 64;
    fn zero() -> Self {
        Wrapping64(0)
    }
    fn one() -> Self {
        Wrapping64(1)
    }
    #[inline(always)]
    fn add(&mut self, other: &Self) -> bool {
        self.0 = self.0.wrapping_add(other.0);
        true
    }
    fn halve(&mut self) {
        self.0 /= 2; // exact: the count, even, is below 2^63
    }
    fn into_big(self) -> BigUint {
        BigUint::from(self.0)
    }
    fn from_u64(value: u64) -> Self {
        Wrapping64(value)
    }
    const LANES: usize = 1;
    fn lanes(&self) -> &[u64] {
        std::slice::from_ref(&self.0)
    }
    fn from_lanes(lanes: &[u64]) -> Self {
        Wrapping64(lanes[0])
    }
    fn put_bytes(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.to_le_bytes());
    }
    fn take_bytes(bytes: &mut &[u8]) -> Option<Self> {
        take_u64(bytes).map(Wrapping64)
    }
}

/// A count as its residues modulo the first `K` of [`PRIMES`]: the pass
/// chooses `K` so that the product of the primes exceeds the board's bound, and the count is
/// read back by the Chinese remainder theorem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Residues<const K: usize>(pub(crate) [u64; K]);

impl<const K: usize> AddAssign for Residues<K> {
    fn add_assign(&mut self, other: Self) {
        Tally::add(self, &other);
    }
}

impl<const K: usize> Tally for Residues<K> {
    // Each prime is above 2^61.
    const BITS: u32 = 61 * K as u32;
    const PRIMES: u32 = K as u32;
    fn zero() -> Self {
        Residues([0; K])
    }
    fn one() -> Self {
        Residues([1; K])
    }
    #[inline(always)]
    fn add(&mut self, other: &Self) -> bool {
        let primes = &PRIMES[..K];
        for ((a, &b), &p) in self.0.iter_mut().zip(&other.0).zip(primes) {
            *a = add_mod(*a, b, p);
        }
        true
    }
    fn halve(&mut self) {
        for (a, &p) in self.0.iter_mut().zip(&PRIMES[..K]) {
            *a = mul_mod(*a, p.div_ceil(2), p); // (p + 1) / 2 is the inverse of 2
        }
    }
    fn into_big(self) -> BigUint {
        combine(&self.0)
    }
    fn into_big_within(self, lanes: usize) -> BigUint {
        combine(&self.0[..lanes.min(K)])
    }
    fn from_u64(value: u64) -> Self {
        let mut residues = [0; K];
        for (r, &p) in residues.iter_mut().zip(&PRIMES[..K]) {
            *r = value % p;
        }
        Residues(residues)
    }
    const LANES: usize = K;
    fn lanes(&self) -> &[u64] {
        &self.0
    }
    fn from_lanes(lanes: &[u64]) -> Self {
        Residues(lanes.try_into().expect("one residue a prime"))
    }
    fn lane_modulus(j: usize) -> u64 {
        PRIMES[j]
    }
    fn put_bytes(&self, out: &mut Vec<u8>) {
        for residue in &self.0 {
            out.extend_from_slice(&residue.to_le_bytes());
        }
    }
    fn take_bytes(bytes: &mut &[u8]) -> Option<Self> {
        let mut residues = [0; K];
        for (r, &p) in residues.iter_mut().zip(&PRIMES[..K]) {
            *r = take_u64(bytes).filter(|&r| r < p)?;
        }
        Some(Residues(residues))
    }
}

/// A sum of products of two counts: kept in a `u128` while it fits, carried into a big integer
/// when the sum (or a single product) would not.
pub(crate) struct ProductSum {
    big: BigUint,
    partial: u128,
}

impl ProductSum {
    pub(crate) fn new() -> Self {
        ProductSum {
            big: BigUint::default(),
            partial: 0,
        }
    }

    pub(crate) fn add(&mut self, a: u128, b: u128) {
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

    pub(crate) fn total(self) -> BigUint {
        self.big + self.partial
    }
}
