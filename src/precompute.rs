//! Filling the store ahead of time: every canonical start and the total of every board in a
//! range.

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, BoardError};
use crate::count::frontier;
use crate::echo::echo;
use crate::error::Error;
use crate::graph::MAX_BITSET_SQUARES;
use crate::question::{Question, TourKind};
use crate::resolve::Engine;

/// A rectangle of board sizes, `AxB..CxD`: rows `A..=C`, columns `B..=D`. A single size `AxB`
/// is the range of that one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardRange {
    /// The smallest board (rows, cols).
    pub from: (u32, u32),
    /// The largest board (rows, cols).
    pub to: (u32, u32),
}

impl FromStr for BoardRange {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let size = |part: &str| -> Result<(u32, u32), String> {
            let board: Board = part.parse()?;
            Ok((board.rows(), board.cols()))
        };
        let (from, to) = match text.split_once("..") {
            Some((a, b)) => (size(a)?, size(b)?),
            None => {
                let one = size(text)?;
                (one, one)
            }
        };
        if from.0 > to.0 || from.1 > to.1 {
            return Err(format!(
                "'{}' is empty: the first size must not exceed the second in rows or columns",
                echo(text)
            ));
        }
        Ok(BoardRange { from, to })
    }
}

impl BoardRange {
    /// One board, `RxC`, not a range (the `--board` filter of `query`, `board=` of the server).
    pub fn one_board(text: &str) -> Result<Board, String> {
        let range: BoardRange = text.parse()?;
        if range.from != range.to {
            return Err(format!(
                "'{}' is a range; give one board like 5x6",
                echo(text)
            ));
        }
        Board::new(range.from.0, range.from.1).map_err(|e| e.to_string())
    }
}

impl fmt::Display for BoardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{}..{}x{}",
            self.from.0, self.from.1, self.to.0, self.to.1
        )
    }
}

/// Which boards to precompute.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoardSelection {
    /// A range of sizes (both orientations are the same board).
    pub range: Option<BoardRange>,
    /// Only boards of at least this many squares.
    pub min_squares: Option<u64>,
    /// Only boards of at most this many squares.
    pub max_squares: Option<u64>,
}

impl BoardSelection {
    /// The distinct canonical boards selected (`rows <= cols`), smallest first.
    ///
    /// Without a range, every board of at most `max_squares` squares is selected (which must
    /// then be given). Every selected board must be within the counting engine's reach.
    pub fn boards(&self) -> Result<Vec<Board>, Error> {
        let invalid = |message: String| Error::from(BoardError::Invalid(message));
        let selected = |b: &Board| {
            self.min_squares.is_none_or(|min| b.squares() >= min)
                && self.max_squares.is_none_or(|max| b.squares() <= max)
        };
        // Boards are filtered as they are listed, and the first one past the engine's reach
        // stops the listing: a huge range never becomes a huge list.
        let mut boards: Vec<Board> = Vec::new();
        let mut keep = |board: Board| -> Result<(), Error> {
            if !selected(&board) {
                return Ok(());
            }
            // The engines' one rule, as `count` applies it: 3x23 is the frontier engine's.
            if Engine::Memo.check(board).is_err() && Engine::Frontier.check(board).is_err() {
                return Err(Error::BeyondEngines {
                    board,
                    max_squares: MAX_BITSET_SQUARES,
                    max_width: frontier::MAX_WIDTH,
                });
            }
            boards.push(board);
            Ok(())
        };
        match (self.range, self.max_squares) {
            (Some(range), _) => {
                for r in range.from.0..=range.to.0 {
                    for c in range.from.1..=range.to.1 {
                        let squares = u64::from(r) * u64::from(c);
                        if self.max_squares.is_some_and(|max| squares > max) {
                            break;
                        }
                        keep(Board::new(r, c)?.canonical())?;
                    }
                }
            }
            (None, Some(max)) => {
                // Boards of one short side have every length: beyond the memo engine's
                // squares, a range says which.
                if max > MAX_BITSET_SQUARES {
                    return Err(invalid(format!(
                        "without a range of sizes, boards have at most {MAX_BITSET_SQUARES} squares; for larger boards give a range (3x23..3x30)"
                    )));
                }
                for r in 1..=max {
                    for c in r..=max / r {
                        keep(Board::new(r as u32, c as u32)?)?;
                    }
                }
            }
            (None, None) => {
                return Err(invalid(
                    "say which boards: a range of sizes, a largest number of squares, or both"
                        .into(),
                ));
            }
        }
        boards.sort_by_key(|b| (b.squares(), *b));
        boards.dedup();
        if boards.is_empty() {
            return Err(invalid("the selection holds no board".into()));
        }
        Ok(boards)
    }
}

/// Every question a precompute of `boards` answers: each board's canonical starts and total
/// (for closed tours, the one board question: the count is the same from every square).
pub fn questions(boards: &[Board], kind: TourKind) -> Vec<Question> {
    boards
        .iter()
        .flat_map(|&board| {
            let starts: Vec<Question> = match kind {
                TourKind::Open => Question::starts_of_board(board, kind)
                    .into_iter()
                    .map(|(q, _)| q)
                    .collect(),
                TourKind::Closed => Vec::new(),
            };
            starts
                .into_iter()
                .chain(std::iter::once(Question::total(board, kind)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_square_limits() {
        let range: BoardRange = "3x3..6x6".parse().unwrap();
        let selection = BoardSelection {
            range: Some(range),
            ..Default::default()
        };
        let boards = selection.boards().unwrap();
        assert_eq!(boards.len(), 10);
        assert_eq!(boards[0], Board::new(3, 3).unwrap());
        let selection = BoardSelection {
            max_squares: Some(30),
            ..Default::default()
        };
        let boards = selection.boards().unwrap();
        assert!(boards.contains(&Board::new(1, 30).unwrap()));
        assert!(boards.contains(&Board::new(5, 6).unwrap()));
        assert!(
            boards
                .iter()
                .all(|b| b.squares() <= 30 && b.rows() <= b.cols())
        );
        assert!("6x6..3x3".parse::<BoardRange>().is_err());
        assert!("6x".parse::<BoardRange>().is_err());
        assert!(
            BoardSelection {
                range: Some("8x8..10x10".parse().unwrap()),
                ..Default::default()
            }
            .boards()
            .is_err()
        );
    }
}
