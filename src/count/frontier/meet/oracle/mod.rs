//! Joins by brute force over pairs of states, for tests only: the oracles that the joins by
//! lookup (`lookup`) are checked against.

pub(crate) mod closed;
pub(crate) mod open;
