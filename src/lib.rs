//! `knights` counts and finds knight's tours on rectangular boards, exactly.
//!
//! * [`board`]: boards, squares, knight's moves and the board's symmetries;
//! * [`graph`]: the knight graph of a board of at most 64 squares, as bitsets;
//! * [`count`]: the memoized counting engine and the plain reference counter;
//! * [`existence`]: the theorems that decide when no tour exists;
//! * [`input`]: reading queries (the judge format and plain lists);
//! * [`output`]: writing answers as text tables, JSON or CSV;
//! * [`question`]: questions in canonical form;
//! * [`store`]: the SQLite answer store;
//! * [`resolve`]: answering questions from the store or by computing them;
//! * [`batch`]: answering lists of queries in input order;
//! * [`series`]: tables of board totals, `ROWS × n` for a range of `n`;
//! * [`serve`]: the web page and JSON API (`knights serve`);
//! * [`precompute`]: choosing boards to fill the store with;
//! * [`exchange`]: reading exported answers back (import);
//! * [`tour`]: finding and checking tours.
#![deny(missing_docs)]

pub mod batch;
pub mod board;
pub mod cancel;
pub mod count;
pub mod error;
pub mod exchange;
pub mod existence;
pub mod graph;
pub mod input;
pub mod memory;
pub mod output;
pub mod precompute;
pub mod question;
pub mod resolve;
pub mod series;
pub mod serve;
pub mod store;
pub mod tour;

pub use board::{Board, CanonicalStart, Square, Symmetry};
pub use cancel::CancelFlag;
pub use error::Error;
pub use memory::MemoryBudget;
