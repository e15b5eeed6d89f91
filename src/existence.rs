//! When tours cannot exist: the existence theorems, used to answer 0 at once without a search.
//!
//! These theorems only decide whether a count is zero; every non-zero count comes from an
//! engine, and the tests check each theorem against the engines on small boards.
//!
//! * Closed tours (Schwenk 1991): for an `m×n` board with `m <= n`, a closed tour exists unless
//!   `m` and `n` are both odd, or `m ∈ {1, 2, 4}`, or `m = 3` and `n ∈ {4, 6, 8}`.
//! * Open tours (Conrad, Hindrichs, Morsy, Wegener 1994; Cull and De Curtins 1978): for
//!   `m <= n`, open tours exist only on 1×1, 3×4, 3×n with `n >= 7`, 4×n with `n >= 5`, and
//!   every board with `m >= 5`.
//! * Colour: a knight alternates colours, so on a board with an odd number of squares a tour
//!   starts and ends on the majority colour (the corners' colour).
//! * Four rows: on a 4×n board an open tour starts and ends in the two outer rows. The outer
//!   rows only border the inner ones (the partition of Schwenk's proof), so the outer squares,
//!   half of the board, are never next to each other on a tour; filling half of a path that way
//!   means alternating exactly, which would put every outer square on one colour — but the
//!   outer rows hold n squares of each — unless the path starts and ends outside and has one
//!   pair of inner squares in a row.
//! * Pairs: a tour from `s` to `t` walked backwards goes from `t` to `s`, so every rule for a
//!   start holds for the end too; and since a knight alternates colours, the two ends of a tour
//!   of an even board differ in colour (an odd board's are both the corners' colour, which the
//!   rule for each end already says).

use std::fmt;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::board::{Board, Square};
use crate::question::{Question, Shape, TourKind};

/// Why there is no tour: the theorem that rules it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoTour {
    /// Closed: the board has an odd number of squares.
    ClosedOddSquares(Board),
    /// Closed: the short side is 1, 2 or 4.
    ClosedShortSide(Board),
    /// Closed: the 3×4, 3×6 and 3×8 boards.
    ClosedThreeRows(Board),
    /// Open: the board has no open tour at all.
    OpenBoard(Board),
    /// Open: the start is on the minority colour of an odd board.
    OpenMinorityColour(Board, Square),
    /// Open: the start is in one of the two inner rows of a 4×n board.
    OpenFourRowsInner(Board, Square),
    /// Open, between two squares: the end is on the minority colour of an odd board.
    EndMinorityColour(Board, Square),
    /// Open, between two squares: the end is in one of the two inner rows of a 4×n board.
    EndFourRowsInner(Board, Square),
    /// Open, between two squares: both ends have the same colour on a board with an even
    /// number of squares.
    EndsSameColour(Board, Square, Square),
}

impl fmt::Display for NoTour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoTour::ClosedOddSquares(board) => write!(
                f,
                "no closed tour on {board}: it has {} square{}, an odd number, and a closed tour alternates colours so needs an even number (Schwenk 1991)",
                board.squares(),
                if board.squares() == 1 { "" } else { "s" }
            ),
            NoTour::ClosedShortSide(board) => write!(
                f,
                "no closed tour on {board}: no board with a side of 1, 2 or 4 has one (Schwenk 1991)"
            ),
            NoTour::ClosedThreeRows(board) => write!(
                f,
                "no closed tour on {board}: 3x4, 3x6 and 3x8 have none (Schwenk 1991)"
            ),
            NoTour::OpenBoard(board) => write!(
                f,
                "no open tour on {board}: for m <= n, open tours exist only on 1x1, 3x4, 3xn (n >= 7), 4xn (n >= 5) and boards with m >= 5 (Conrad et al. 1994)"
            ),
            NoTour::OpenFourRowsInner(board, square) => write!(
                f,
                "no open tour from {square} on {board}: on a board with a side of 4 a tour starts and ends in the two outer lines, and {square} is in an inner one"
            ),
            NoTour::OpenMinorityColour(board, square) => write!(
                f,
                "no open tour from {square} on {board}: the board has an odd number of squares, so a tour starts and ends on the corners' colour, and {square} is the other colour"
            ),
            NoTour::EndMinorityColour(board, square) => write!(
                f,
                "no open tour ends on {square} on {board}: the board has an odd number of squares, so a tour starts and ends on the corners' colour, and {square} is the other colour"
            ),
            NoTour::EndFourRowsInner(board, square) => write!(
                f,
                "no open tour ends on {square} on {board}: on a board with a side of 4 a tour starts and ends in the two outer lines, and {square} is in an inner one"
            ),
            NoTour::EndsSameColour(board, start, end) => write!(
                f,
                "no open tour from {start} to {end} on {board}: the board has an even number of squares, so a tour's two ends differ in colour, and these two have the same"
            ),
        }
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

/// The theorem ruling out closed tours on `board`, if one does.
pub fn no_closed_tour(board: Board) -> Option<NoTour> {
    let canonical = board.canonical();
    let (m, n) = (canonical.rows(), canonical.cols());
    if m % 2 == 1 && n % 2 == 1 {
        Some(NoTour::ClosedOddSquares(board))
    } else if matches!(m, 1 | 2 | 4) {
        Some(NoTour::ClosedShortSide(board))
    } else if m == 3 && matches!(n, 4 | 6 | 8) {
        Some(NoTour::ClosedThreeRows(board))
    } else {
        None
    }
}

/// The theorem ruling out open tours on `board` (from `start`, when given), if one does.
pub fn no_open_tour(board: Board, start: Option<Square>) -> Option<NoTour> {
    let canonical = board.canonical();
    let (m, n) = (canonical.rows(), canonical.cols());
    let exists =
        (m == 1 && n == 1) || (m == 3 && (n == 4 || n >= 7)) || (m == 4 && n >= 5) || m >= 5;
    if !exists {
        return Some(NoTour::OpenBoard(board));
    }
    match start {
        Some(square) if colour_forbids_start(board, square) => {
            Some(NoTour::OpenMinorityColour(board, square))
        }
        Some(square) if in_inner_four_line(board, square) => {
            Some(NoTour::OpenFourRowsInner(board, square))
        }
        _ => None,
    }
}

/// True when `square` is in one of the two inner lines of a board with a side of 4.
fn in_inner_four_line(board: Board, square: Square) -> bool {
    board.rows() == 4 && matches!(square.row, 1 | 2)
        || board.cols() == 4 && matches!(square.col, 1 | 2)
}

/// The theorem ruling out open tours from `start` to `end` on `board` (two different squares),
/// if one does.
pub fn no_open_tour_between(board: Board, start: Square, end: Square) -> Option<NoTour> {
    if let Some(reason) = no_open_tour(board, Some(start)) {
        return Some(reason);
    }
    if colour_forbids_start(board, end) {
        Some(NoTour::EndMinorityColour(board, end))
    } else if in_inner_four_line(board, end) {
        Some(NoTour::EndFourRowsInner(board, end))
    } else if board.squares().is_multiple_of(2)
        && Board::is_corner_colour(start) == Board::is_corner_colour(end)
    {
        Some(NoTour::EndsSameColour(board, start, end))
    } else {
        None
    }
}

/// The theorem that makes the answer to `question` zero, if one does (pairs included).
pub fn no_tour_for(question: &Question) -> Option<NoTour> {
    match question.shape() {
        Shape::Between(start, end) => no_open_tour_between(question.board, start, end),
        Shape::Start(start) => no_tour(question.board, question.kind, Some(start)),
        Shape::Total => no_tour(question.board, question.kind, None),
    }
}

/// Why the count of open tours from `start` to `end` is what it is, in one sentence (for
/// `--explain`).
pub fn explain_between(board: Board, start: Square, end: Square, count: &BigUint) -> String {
    match no_open_tour_between(board, start, end) {
        Some(reason) => reason.to_string(),
        None if count.is_zero() => format!(
            "no open tour from {start} to {end}: no existence theorem rules it out, and the engine's exhaustive count found none"
        ),
        None => format!(
            "open tours from {start} to {end} exist on {board} (no existence theorem rules them out); the count is the engine's"
        ),
    }
}

/// The theorem that makes this count zero, if one does.
pub fn no_tour(board: Board, kind: TourKind, start: Option<Square>) -> Option<NoTour> {
    match kind {
        TourKind::Open => no_open_tour(board, start),
        TourKind::Closed => no_closed_tour(board),
    }
}

/// Why a count is what it is, in one sentence (for `--explain`).
pub fn explain(board: Board, kind: TourKind, start: Option<Square>, count: &BigUint) -> String {
    match no_tour(board, kind, start) {
        Some(reason) => reason.to_string(),
        None if count.is_zero() => format!(
            "no {kind} tour: no existence theorem rules it out, and the engine's exhaustive count found none"
        ),
        None => format!(
            "{kind} tours exist on {board} (no existence theorem rules them out); the count is the engine's"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(r: u32, c: u32) -> Board {
        Board::new(r, c).unwrap()
    }

    #[test]
    fn closed_theorem_cases() {
        assert!(no_closed_tour(board(6, 6)).is_none());
        assert!(no_closed_tour(board(3, 10)).is_none());
        assert!(no_closed_tour(board(5, 6)).is_none());
        assert!(no_closed_tour(board(8, 3)).is_some());
        assert!(no_closed_tour(board(4, 10)).is_some());
        assert!(no_closed_tour(board(5, 5)).is_some());
        assert!(no_closed_tour(board(1, 1)).is_some());
        assert!(no_closed_tour(board(12, 2)).is_some());
    }

    #[test]
    fn open_theorem_cases() {
        assert!(no_open_tour(board(1, 1), None).is_none());
        assert!(no_open_tour(board(4, 3), None).is_none());
        assert!(no_open_tour(board(3, 5), None).is_some());
        assert!(no_open_tour(board(3, 6), None).is_some());
        assert!(no_open_tour(board(4, 4), None).is_some());
        assert!(no_open_tour(board(5, 5), Some(Square::new(0, 1))).is_some());
        assert!(no_open_tour(board(5, 5), Some(Square::new(0, 0))).is_none());
        assert!(no_open_tour(board(4, 9), Some(Square::new(2, 3))).is_some());
        assert!(no_open_tour(board(9, 4), Some(Square::new(3, 1))).is_some());
        assert!(no_open_tour(board(9, 4), Some(Square::new(3, 0))).is_none());
    }
}
