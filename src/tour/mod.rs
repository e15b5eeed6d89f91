//! Finding tours: one open tour from a square, or one closed tour, on a board of any size —
//! found whenever one exists, and a reason given when none does.
//!
//! * Existence theorems first (Schwenk for closed tours, Conrad et al. for open ones, colour
//!   parity, the outer lines of 4×n boards): no search where a theorem says there is no tour.
//! * Boards with a side of 3 or 4: the frontier engine's exact search (a tour is found exactly
//!   when one exists; on boards of at most 64 squares, the memo engine's).
//! * Boards with both sides at least 5, up to 12×12: Warnsdorff's rule with tie-breaking and
//!   restarts, then the memo engine's exact search (at most 64 squares) or the construction.
//! * Larger boards: a construction that cannot fail ([`construct`]): the board is cut into
//!   blocks of 5 to 10 squares a side, each with a closed tour found once by search, and the
//!   blocks' cycles are joined one by one by exchanging two moves across each border.
//!
//! Every tour is checked by [`validate`] before it is returned.

pub mod construct;
pub mod search;

use std::fmt;

use serde::Serialize;

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::count::frontier;
use crate::count::memo;
use crate::error::Error;
use crate::existence::{NoTour, no_tour};
use crate::memory::MemoryBudget;
use crate::question::TourKind;

/// A knight's tour: every square once, by knight's moves (and back to the start, if closed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tour {
    board: Board,
    closed: bool,
    squares: Vec<Square>,
}

impl Tour {
    /// A tour from its squares in order, checked by [`validate`].
    pub fn new(board: Board, closed: bool, squares: Vec<Square>) -> Result<Tour, TourError> {
        validate(board, &squares, closed)?;
        Ok(Tour {
            board,
            closed,
            squares,
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// True for a closed tour (the last square is a knight's move from the first).
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The squares in the order of the tour.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The step number (from 1) of every square, row by row.
    pub fn step_numbers(&self) -> Vec<u64> {
        let mut steps = vec![0u64; self.board.squares() as usize];
        for (step, &square) in self.squares.iter().enumerate() {
            steps[self.board.index(square)] = step as u64 + 1;
        }
        steps
    }
}

/// What is wrong with a sequence of squares that should be a tour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TourError {
    /// Not one square per square of the board.
    #[error("a tour of the {board} board has {expected} squares, this one {found}")]
    WrongLength {
        /// The board.
        board: Board,
        /// Squares on the board.
        expected: u64,
        /// Squares in the sequence.
        found: usize,
    },
    /// A square off the board.
    #[error("step {step}: {square} is not on the {board} board")]
    OffBoard {
        /// The board.
        board: Board,
        /// The step (from 1).
        step: usize,
        /// The square.
        square: Square,
    },
    /// A square visited twice.
    #[error("step {step}: {square} was already visited")]
    Repeated {
        /// The step (from 1).
        step: usize,
        /// The square.
        square: Square,
    },
    /// Two consecutive squares that are not a knight's move apart.
    #[error("step {step}: {from} to {to} is not a knight's move")]
    NotAKnightMove {
        /// The step (from 1) of `to`.
        step: usize,
        /// The square before.
        from: Square,
        /// The square after.
        to: Square,
    },
    /// A closed tour whose ends do not meet.
    #[error("the tour is not closed: {last} is not a knight's move from {first}")]
    NotClosed {
        /// The first square.
        first: Square,
        /// The last square.
        last: Square,
    },
}

/// Checks that `squares` is a tour of `board`: every square exactly once, each step a knight's
/// move, and for a closed tour, the last square a knight's move from the first.
pub fn validate(board: Board, squares: &[Square], closed: bool) -> Result<(), TourError> {
    if squares.len() as u64 != board.squares() {
        return Err(TourError::WrongLength {
            board,
            expected: board.squares(),
            found: squares.len(),
        });
    }
    let mut seen = vec![false; squares.len()];
    for (i, &square) in squares.iter().enumerate() {
        if !board.contains(square) {
            return Err(TourError::OffBoard {
                board,
                step: i + 1,
                square,
            });
        }
        let index = board.index(square);
        if std::mem::replace(&mut seen[index], true) {
            return Err(TourError::Repeated {
                step: i + 1,
                square,
            });
        }
        if i > 0 && !Board::is_knight_move(squares[i - 1], square) {
            return Err(TourError::NotAKnightMove {
                step: i + 1,
                from: squares[i - 1],
                to: square,
            });
        }
    }
    if closed {
        let (first, last) = (squares[0], squares[squares.len() - 1]);
        if !Board::is_knight_move(last, first) {
            return Err(TourError::NotClosed { first, last });
        }
    }
    Ok(())
}

/// Why no tour was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoTourReason {
    /// An existence theorem rules it out.
    Theorem(NoTour),
    /// An exhaustive search found none.
    Search {
        /// The board.
        board: Board,
        /// What was asked: closed, or open from this square.
        start: Option<Square>,
    },
}

impl fmt::Display for NoTourReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoTourReason::Theorem(reason) => reason.fmt(f),
            NoTourReason::Search {
                board,
                start: Some(square),
            } => write!(
                f,
                "no open tour from {square} on {board}: an exhaustive search found none"
            ),
            NoTourReason::Search { board, start: None } => write!(
                f,
                "no closed tour on {board}: an exhaustive search found none"
            ),
        }
    }
}

/// How a tour was found (for reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Warnsdorff's rule (with restarts).
    Warnsdorff,
    /// The memo engine's exact search.
    Memo,
    /// The frontier engine's exact search.
    Frontier,
    /// The block construction.
    Construction,
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Warnsdorff => "Warnsdorff's rule",
            Method::Memo => "the memo engine's exhaustive search",
            Method::Frontier => "the frontier engine's exhaustive search",
            Method::Construction => "the block construction",
        })
    }
}

/// Narrow boards up to this many squares are searched by the memo engine.
const NARROW_MEMO_SQUARES: u64 = 30;

/// Bytes per square that finding, checking and printing a large tour take at most (measured:
/// about 30 on 1000x1000 and 2000x2000, output included).
pub const TOUR_BYTES_PER_SQUARE: u64 = 48;

/// Refuses, before any work, a board whose tour would not fit in `budget`.
pub fn check_memory(board: Board, budget: MemoryBudget) -> Result<(), Error> {
    let needed = board.squares().saturating_mul(TOUR_BYTES_PER_SQUARE);
    if needed > budget.bytes() {
        return Err(Error::TourTooLarge {
            board,
            needed,
            budget: budget.bytes(),
        });
    }
    Ok(())
}

/// Finds a tour of `board`: closed (listed from `start`), or open from `start`. The seed picks
/// among equally good moves; the same question and seed always give the same tour.
pub fn find_tour(
    board: Board,
    start: Square,
    closed: bool,
    seed: u64,
    cancel: &CancelFlag,
) -> Result<Result<(Tour, Method), NoTourReason>, Error> {
    board.check_square(start)?;
    let kind = if closed {
        TourKind::Closed
    } else {
        TourKind::Open
    };
    if let Some(reason) = no_tour(board, kind, Some(start)) {
        return Ok(Err(NoTourReason::Theorem(reason)));
    }
    let not_found = || NoTourReason::Search {
        board,
        start: (!closed).then_some(start),
    };
    let squares = board.squares();
    let short = board.rows().min(board.cols());
    let long = board.rows().max(board.cols());
    let (path, method) = if short <= 4 {
        // Narrow boards: tours exist from some squares only; an exact search decides (the
        // memo engine's on small boards, the frontier engine's, which is linear in the
        // length, beyond).
        if squares <= NARROW_MEMO_SQUARES {
            (exact_small(board, start, closed, cancel)?, Method::Memo)
        } else {
            let path = frontier::find_tour(board, closed, start, cancel)?;
            (path, Method::Frontier)
        }
    } else if long <= 12 {
        let found = if closed {
            search::closed_tour(board, start, seed, search::ATTEMPTS)
        } else {
            search::warnsdorff(board, start, false, seed, search::ATTEMPTS)
        };
        match found {
            Some(path) => (Some(path), Method::Warnsdorff),
            None if squares <= 64 => (exact_small(board, start, closed, cancel)?, Method::Memo),
            None => (
                Some(construct::construct(board, start, closed, cancel)?),
                Method::Construction,
            ),
        }
    } else {
        (
            Some(construct::construct(board, start, closed, cancel)?),
            Method::Construction,
        )
    };
    let Some(path) = path else {
        return Ok(Err(not_found()));
    };
    let tour = Tour::new(board, closed, path).map_err(|e| {
        Error::Internal(format!(
            "the tour found on {board} is not valid ({e}); nothing was printed"
        ))
    })?;
    Ok(Ok((tour, method)))
}

/// The memo engine's exact search, as squares.
fn exact_small(
    board: Board,
    start: Square,
    closed: bool,
    cancel: &CancelFlag,
) -> Result<Option<Vec<Square>>, Error> {
    let found = if closed {
        memo::find_closed_tour(board, start, cancel.clone())?
    } else {
        memo::find_open_tour(board, start, cancel.clone())?
    };
    Ok(found.map(|path| path.into_iter().map(|i| board.square(i)).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rejects_what_is_not_a_tour() {
        let board = Board::new(3, 4).unwrap();
        let sq = |r, c| Square::new(r, c);
        // An open tour of 3x4 from a corner.
        let good = vec![
            sq(0, 0),
            sq(1, 2),
            sq(2, 0),
            sq(0, 1),
            sq(1, 3),
            sq(2, 1),
            sq(0, 2),
            sq(2, 3),
            sq(1, 1),
            sq(0, 3),
            sq(2, 2),
            sq(1, 0),
        ];
        assert_eq!(validate(board, &good, false), Ok(()));
        assert!(matches!(
            validate(board, &good[..11], false),
            Err(TourError::WrongLength { .. })
        ));
        let mut repeated = good.clone();
        repeated[11] = sq(0, 0);
        assert!(matches!(
            validate(board, &repeated, false),
            Err(TourError::Repeated { step: 12, .. })
        ));
        let mut jump = good.clone();
        jump.swap(3, 5);
        assert!(matches!(
            validate(board, &jump, false),
            Err(TourError::NotAKnightMove { .. })
        ));
        let mut off = good.clone();
        off[5] = sq(3, 0);
        assert!(matches!(
            validate(board, &off, false),
            Err(TourError::OffBoard { .. })
        ));
        assert!(matches!(
            validate(board, &good, true),
            Err(TourError::NotClosed { .. })
        ));
    }
}
