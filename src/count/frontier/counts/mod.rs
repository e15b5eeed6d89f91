//! Exact counts: a pass's count type ([`tally::Tally`]: `u64` checked, `u64` modulo `2^64`,
//! residues modulo primes or arbitrary precision) and the arithmetic of residues, recombined
//! once at the end (`residue`).

pub(crate) mod residue;
pub(crate) mod tally;
