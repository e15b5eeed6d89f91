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
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use num_traits::Zero;
use serde::Serialize;

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::count::frontier;
use crate::count::memo;
use crate::error::Error;
use crate::existence::{NoTour, no_open_tour_between, no_tour};
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
    /// A tour between two squares that ends elsewhere.
    #[error("the tour ends on {found}, not on {expected}")]
    WrongEnd {
        /// The square asked for.
        expected: Square,
        /// The last square of the tour.
        found: Square,
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

/// Checks that `squares` is an open tour of `board` that ends on `end` ([`validate`], then
/// its last square).
pub fn validate_between(board: Board, squares: &[Square], end: Square) -> Result<(), TourError> {
    validate(board, squares, false)?;
    let found = squares[squares.len() - 1];
    if found != end {
        return Err(TourError::WrongEnd {
            expected: end,
            found,
        });
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
    /// No open tour joins two squares: an exhaustive search found none, or an engine counted
    /// none.
    NoneBetween {
        /// The board.
        board: Board,
        /// The first square.
        start: Square,
        /// The last square.
        end: Square,
        /// True when the engine's count said so (else the search).
        counted: bool,
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
            NoTourReason::NoneBetween {
                board,
                start,
                end,
                counted,
            } => write!(
                f,
                "no open tour from {start} to {end} on {board}: {}",
                if *counted {
                    "the engine's exact count is 0"
                } else {
                    "an exhaustive search found none"
                }
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

/// Boards of at most this many squares: the memo engine's exhaustive search decides a tour
/// between two squares with no time limit (36: 6x6, a second or so at most).
pub const BETWEEN_EXACT_SQUARES: u64 = 36;

/// How long `knights tour --to` searches, by default, where no exact search decides.
pub const BETWEEN_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Warnsdorff attempts tried first between two squares, before the memo engine's exhaustive
/// search (on boards it takes): most pairs are found by one of them at once.
const BETWEEN_QUICK_ATTEMPTS: usize = 20;

/// Finds an open tour of `board` from `start` that ends on `end`, decided exactly where it can
/// be: a theorem or a `known` count of 0 says there is none; boards of at most
/// [`BETWEEN_EXACT_SQUARES`] squares are searched with no time limit; on other boards the
/// search stops after `limit` with [`Error::TourSearchGaveUp`], which does not mean there is
/// none — even when a positive `known` count says one exists, since finding it may take far
/// longer than counting took (a server gives no search more than its time).
/// The tour is checked to end on `end` before it is returned.
pub fn find_tour_between(
    board: Board,
    start: Square,
    end: Square,
    seed: u64,
    known: Option<&BigUint>,
    limit: Duration,
    cancel: &CancelFlag,
) -> Result<Result<(Tour, Method), NoTourReason>, Error> {
    board.check_square(start)?;
    crate::question::check_between(board, start, end)?;
    if let Some(reason) = no_open_tour_between(board, start, end) {
        return Ok(Err(NoTourReason::Theorem(reason)));
    }
    let none = |counted| NoTourReason::NoneBetween {
        board,
        start,
        end,
        counted,
    };
    if known.is_some_and(Zero::is_zero) {
        return Ok(Err(none(true)));
    }
    let unlimited = board.squares() <= BETWEEN_EXACT_SQUARES;
    let clock = Instant::now();
    let deadline = (!unlimited).then(|| clock + limit);
    // The search's own flag: set by the caller's, or when the time is up.
    let search_cancel = CancelFlag::new();
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    let finished = std::sync::atomic::AtomicBool::new(false);
    let found = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                if cancel.is_cancelled() || out_of_time() {
                    search_cancel.cancel();
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let result = search_between(board, start, end, seed, &search_cancel);
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    });
    let (path, method) = match found {
        Ok(Some(found)) => found,
        Ok(None) => return Ok(Err(none(false))),
        Err(Error::Interrupted) if !cancel.is_cancelled() => {
            return Err(Error::TourSearchGaveUp {
                board,
                start,
                end,
                seconds: clock.elapsed().as_secs_f64(),
            });
        }
        Err(e) => return Err(e),
    };
    validate_between(board, &path, end).map_err(|e| {
        Error::Internal(format!(
            "the tour found on {board} is not valid ({e}); nothing was printed"
        ))
    })?;
    let tour = Tour::new(board, false, path).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(Ok((tour, method)))
}

/// The search of [`find_tour_between`] until it finds a tour, proves there is none (the memo
/// engine's exhaustive search, on boards it takes) or `cancel` is set.
fn search_between(
    board: Board,
    start: Square,
    end: Square,
    seed: u64,
    cancel: &CancelFlag,
) -> Result<Option<(Vec<Square>, Method)>, Error> {
    let mut attempts = 0;
    let exact = memo::check_board(board).is_ok();
    let quick = search::path_between(board, start, end, seed, || {
        attempts += 1;
        !cancel.is_cancelled() && (!exact || attempts <= BETWEEN_QUICK_ATTEMPTS)
    });
    if let Some(path) = quick {
        return Ok(Some((path, Method::Warnsdorff)));
    }
    if !exact {
        // Attempts go on until the flag is set: then the time is up.
        return Err(Error::Interrupted);
    }
    let found = memo::find_open_tour_between(board, start, end, cancel.clone())?;
    Ok(found.map(|path| {
        (
            path.into_iter().map(|i| board.square(i)).collect(),
            Method::Memo,
        )
    }))
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
        assert_eq!(validate_between(board, &good, sq(1, 0)), Ok(()));
        assert_eq!(
            validate_between(board, &good, sq(2, 2)),
            Err(TourError::WrongEnd {
                expected: sq(2, 2),
                found: sq(1, 0)
            })
        );
    }

    #[test]
    fn a_tour_between_two_squares_is_decided_exactly_on_small_boards() {
        let board = Board::new(6, 6).unwrap();
        let (start, end) = (Square::new(0, 0), Square::new(5, 4));
        let never = Duration::ZERO;
        let (tour, _) = find_tour_between(board, start, end, 0, None, never, &CancelFlag::new())
            .unwrap()
            .unwrap();
        assert_eq!(tour.squares().last(), Some(&end));
        // The same colour on an even board: a theorem.
        let same = find_tour_between(
            board,
            start,
            Square::new(1, 1),
            0,
            None,
            never,
            &CancelFlag::new(),
        );
        assert!(matches!(same, Ok(Err(NoTourReason::Theorem(_)))));
        // A count of 0 is believed: no search.
        let zero = BigUint::zero();
        let counted =
            find_tour_between(board, start, end, 0, Some(&zero), never, &CancelFlag::new());
        assert!(matches!(
            counted,
            Ok(Err(NoTourReason::NoneBetween { counted: true, .. }))
        ));
    }

    #[test]
    fn a_search_past_its_time_limit_says_it_gave_up() {
        // 3x40 is past the memo engine, and Warnsdorff's rule finds nothing from the corner to
        // (1, 2) (measured): its attempts go on until the time is up.
        let board = Board::new(3, 40).unwrap();
        let result = find_tour_between(
            board,
            Square::new(0, 0),
            Square::new(1, 2),
            0,
            None,
            Duration::from_millis(200),
            &CancelFlag::new(),
        );
        match result {
            Err(Error::TourSearchGaveUp { seconds, .. }) => assert!(seconds >= 0.2),
            other => panic!("expected the search to give up, got {other:?}"),
        }
    }
}
