//! `knights` counts and finds knight's tours on rectangular boards, exactly.
//!
//! The modules by layer, from the ground up. A module uses only modules of the layers above it
//! in this list, and of its own layer where the line says so.
//!
//! * [`echo`]: what a user typed, quoted for a message (short, invisible characters shown);
//!   it uses nothing else of the crate.
//! * [`board`]: boards, squares, knight's moves and the board's symmetries, with their own
//!   error ([`board::BoardError`]); it uses only [`echo`].
//! * [`question`]: questions in canonical form; [`input`]: reading queries (the judge format and
//!   plain lists), with [`input::InputError`], the one whole-number reader and `plural`.
//! * [`existence`]: the theorems that decide when no tour exists (the colour rule among them);
//!   [`store`]: the SQLite answer store (`store/`: the records, the schema, the file checks),
//!   which returns only its own [`store::StoreError`] and asks [`existence`] whether a sum of
//!   theorems' zeros is one itself; [`memory`]: the memory budget of the engines' tables, with
//!   its own [`memory::SizeError`].
//! * [`error`]: the library's [`Error`], which wraps the board's, the input's, the store's and
//!   the memory size's errors.
//! * [`trust`]: what any count must satisfy — the theorems, parity, a bound from the board's
//!   moves, totals equal to the sum of their starts, the counts known from elsewhere
//!   ([`trust::known`]) and the floors they give ([`trust::floor`]) — checked wherever a count
//!   is believed; the one gate of answers read from a store ([`trust::served`]) and the rules of
//!   how an answer is recorded ([`trust::provenance`]).
//! * [`cancel`]: stopping long work cleanly (Ctrl-C); [`graph`]: the knight graph of a board of
//!   at most 64 squares, as bitsets.
//! * [`count`]: the engines — the memoized engine ([`count::memo`], a puzzle's givens as its
//!   constraints in [`count::memo::givens`]), the frontier engine ([`count::frontier`], a
//!   transfer-matrix program over the board's rows) and the plain reference counter
//!   ([`count::reference`]); [`tour`]: finding and checking tours, which uses the engines'
//!   exact searches.
//! * [`exchange`]: the export file format read back (import), checked record by record before
//!   the store sees it; [`output`]: writing answers as text tables, JSON or CSV, and SVG pictures
//!   (which takes the file formats' names from [`exchange`]).
//! * [`puzzle`]: knight's tour puzzles (a board with some step numbers given): read, solved,
//!   counted and made by the memo engine with the given numbers as constraints, and written
//!   (through [`output`]'s JSON writer).
//! * [`resolve`]: answering questions from the store or by computing them: the engine policy
//!   ([`resolve::engine`]) and the one gate of answers entering a store ([`resolve::admit`]).
//! * [`view`]: what a count request shows (a count, a table, totals), for `knights count` and
//!   the server alike.
//! * [`verify`]: checking what the store holds — the checks of [`trust`], the engines' reach,
//!   and recounts by the engines.
//! * [`shards`]: one board's count split into independent shards for many machines: plans (by
//!   start, by pair or both, each shard for one worker or more), workers' runs (through
//!   [`resolve`]) and the merge of their stores (through [`resolve::admit`]), with its own
//!   [`shards::ShardError`].
//! * [`batch`]: answering lists of queries in input order; [`series`]: tables of board totals,
//!   `ROWS × n` for a range of `n`; [`precompute`]: choosing boards to fill the store with.
//! * [`serve`]: the web page and the JSON API over the store (`knights serve`), on top of
//!   everything else, with its own [`serve::ServeError`].
#![deny(missing_docs)]

pub mod batch;
pub mod board;
pub mod cancel;
pub mod count;
pub mod echo;
pub mod error;
pub mod exchange;
pub mod existence;
pub mod graph;
pub mod input;
pub mod memory;
pub mod output;
pub mod precompute;
pub mod puzzle;
pub mod question;
pub mod resolve;
pub mod series;
pub mod serve;
pub mod shards;
pub mod store;
pub mod tour;
pub mod trust;
pub mod verify;
pub mod view;

pub use board::{Board, CanonicalStart, Square, Symmetry};
pub use cancel::{CancelFlag, CheckpointNote, Checkpointing, Stop};
pub use error::Error;
pub use memory::MemoryBudget;

/// What the unit tests share.
#[cfg(test)]
pub(crate) mod testing {
    /// The long tier (`KNIGHTS_LONG_TESTS=1 cargo test`): the oracle sweeps at their full
    /// sizes. Without it each sweep runs on the smallest boards that still reach every path
    /// it checks, so that `cargo test` takes minutes.
    pub(crate) fn long() -> bool {
        std::env::var_os("KNIGHTS_LONG_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
    }
}
