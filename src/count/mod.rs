//! Counting knight's tours: the memoized engine, the frontier engine and the plain reference
//! counter.

pub mod frontier;
pub mod memo;
pub mod reference;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::memory::MemoryBudget;

/// What bounds an engine's work, the same for every engine: the memory its tables may take
/// and the flag that stops it (Ctrl-C, a server's client gone, a time limit). The reference
/// engine holds one path and no table, so only the flag bounds it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The memory for the engine's tables.
    pub budget: MemoryBudget,
    /// Raised to stop the engine, which returns [`crate::Error::Interrupted`].
    pub cancel: CancelFlag,
}

impl Limits {
    /// Limits of `budget` and `cancel` (a clone of the flag: raising either stops the engine).
    pub fn new(budget: MemoryBudget, cancel: &CancelFlag) -> Self {
        Limits {
            budget,
            cancel: cancel.clone(),
        }
    }

    /// Limits of the default budget and `cancel`: for the reference engine, which keeps no
    /// table, and for tests.
    pub fn stopped_by(cancel: &CancelFlag) -> Self {
        Limits::new(MemoryBudget::default(), cancel)
    }
}

/// The number of open tours starting on each square of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountTable {
    board: Board,
    counts: Vec<BigUint>,
}

impl CountTable {
    /// A table from per-square counts in row-major order.
    pub fn new(board: Board, counts: Vec<BigUint>) -> Self {
        assert_eq!(counts.len() as u64, board.squares(), "one count per square");
        CountTable { board, counts }
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The count for tours starting on `square`.
    pub fn get(&self, square: Square) -> &BigUint {
        &self.counts[self.board.index(square)]
    }

    /// The counts in row-major order.
    pub fn counts(&self) -> &[BigUint] {
        &self.counts
    }

    /// The counts row by row.
    pub fn rows(&self) -> impl Iterator<Item = &[BigUint]> {
        self.counts.chunks(self.board.cols() as usize)
    }

    /// All open tours on the board, each direction counted: the sum of the table.
    pub fn total_directed(&self) -> BigUint {
        self.counts.iter().fold(BigUint::zero(), |sum, c| sum + c)
    }

    /// All open tours on the board, each path counted once whichever way it is walked.
    pub fn total_undirected(&self) -> BigUint {
        undirected(self.board, &self.total_directed())
    }
}

/// Converts a directed board total to the undirected one: every tour of two or more squares is
/// counted once per direction, so this halves it. The single tour of the 1×1 board is its own
/// reverse and stays 1.
pub fn undirected(board: Board, directed: &BigUint) -> BigUint {
    if board.squares() == 1 {
        directed.clone()
    } else {
        directed / 2u32
    }
}

/// Converts an undirected board total to the directed one, the inverse of [`undirected`]: every
/// tour of two or more squares is walked both ways, so this doubles it. The single tour of the
/// 1×1 board is its own reverse and stays 1.
pub fn directed(board: Board, undirected: BigUint) -> BigUint {
    if board.squares() == 1 {
        undirected
    } else {
        undirected * 2u32
    }
}
