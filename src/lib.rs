//! `knights` counts and finds knight's tours on rectangular boards, exactly.
//!
//! * [`board`]: boards, squares, knight's moves and the board's symmetries;
//! * [`graph`]: the knight graph of a board of at most 64 squares, as bitsets;
//! * [`count`]: the memoized counting engine and the plain reference counter;
//! * [`input`]: reading questions (the judge format);
//! * [`output`]: writing answers as text tables, JSON or CSV;
//! * [`solve`]: answering lists of questions.
#![deny(missing_docs)]

pub mod board;
pub mod cancel;
pub mod count;
pub mod error;
pub mod graph;
pub mod input;
pub mod memory;
pub mod output;
pub mod solve;

pub use board::{Board, CanonicalStart, Square, Symmetry};
pub use cancel::CancelFlag;
pub use error::Error;
pub use memory::MemoryBudget;
