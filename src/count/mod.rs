//! Counting knight's tours: the memoized engine, the frontier engine and the plain reference
//! counter.

pub mod frontier;
pub mod memo;
pub mod reference;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::board::{Board, Square};

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

/// True when an open tour from `start` is ruled out by colour alone: a knight alternates
/// colours, so a tour from `start` needs as many squares of the start's colour as of the other,
/// or exactly one more.
pub fn colour_forbids_start(board: Board, start: Square) -> bool {
    let corner = board.corner_colour_squares();
    let other = board.squares() - corner;
    let (mine, theirs) = if Board::is_corner_colour(start) {
        (corner, other)
    } else {
        (other, corner)
    };
    !(mine == theirs || mine == theirs + 1)
}
