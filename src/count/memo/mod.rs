//! The memoized counting engine (moved to `counter`; split into parts in the next commit).

mod counter;

pub use self::counter::*;
