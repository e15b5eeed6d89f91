//! What a count request shows — a count from a square, between two squares, a per-square
//! table, a board's closed tours or its totals — for the two front ends that show counts:
//! `knights count` and the server's `/api/count`. Each builds a [`View`] from its own
//! arguments; the questions it needs, the engines' check and the table come from here.

use num_bigint::BigUint;

use crate::board::{Board, Square};
use crate::count::CountTable;
use crate::error::Error;
use crate::question::{BetweenError, Question, TourKind};
use crate::resolve::{self, Resolution, Settings};

/// The largest per-square table looked up in the store when no engine would count it.
const STORED_TABLE_SQUARES: u64 = 4096;
/// What a count request shows, as `knights count` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Tours from one square (`count ROWS COLS ROW COL`).
    Start(Board, Square, TourKind),
    /// The open tours from every square, with the totals (`count ROWS COLS`).
    Table(Board),
    /// The closed tours of a board (`count ROWS COLS --closed`).
    Closed(Board),
    /// The open totals alone (`count ROWS COLS --total`).
    Total(Board),
    /// Open tours from one square to another (`count ROWS COLS ROW COL --to ROW2 COL2`).
    Between(Board, Square, Square),
}

impl View {
    /// The view of open tours between `start` and `end` on `board`, once the pair rule holds
    /// ([`crate::question::check_between`]).
    pub fn between(board: Board, start: Square, end: Square) -> Result<View, BetweenError> {
        crate::question::check_between(board, start, end)?;
        Ok(View::Between(board, start, end))
    }

    /// The board shown.
    pub fn board(self) -> Board {
        match self {
            View::Start(board, ..)
            | View::Table(board)
            | View::Closed(board)
            | View::Total(board)
            | View::Between(board, ..) => board,
        }
    }

    /// The canonical question whose count is shown (a table's: its total).
    pub fn shown(self) -> Question {
        match self {
            View::Start(board, square, kind) => Question::from_start(board, square, kind),
            View::Closed(board) => Question::total(board, TourKind::Closed),
            View::Total(board) | View::Table(board) => Question::total(board, TourKind::Open),
            View::Between(board, start, end) => Question::between(board, start, end),
        }
    }

    /// The canonical questions whose answers make the view; the first is the one shown.
    pub fn questions(self) -> Vec<Question> {
        let shown = std::iter::once(self.shown());
        match self {
            View::Table(board) => shown
                .chain(
                    Question::starts_of_board(board, TourKind::Open)
                        .into_iter()
                        .map(|(q, _)| q),
                )
                .collect(),
            _ => shown.collect(),
        }
    }

    /// Whether a view the engines refuse is worth looking up in the store all the same (a
    /// merged plan's table beyond one machine): every view but a table of more squares than
    /// one lookup reads at once (a long board's table would list its starts by the million).
    pub fn may_be_stored(self) -> bool {
        match self {
            View::Table(board) => board.squares() <= STORED_TABLE_SQUARES,
            _ => true,
        }
    }

    /// Refuses, before any store is touched, a view the engine asked for cannot count; a
    /// table is checked before its starts are listed ([`resolve::check_table`]).
    pub fn check_engines(self, settings: &Settings) -> Result<(), Error> {
        match self {
            View::Table(board) => resolve::check_table(board, settings),
            view => resolve::check_engines(&view.questions(), settings),
        }
    }

    /// The count shown ([`View::shown`]), from `resolution`, which answered the view.
    pub fn count(self, resolution: &Resolution) -> &BigUint {
        resolution.count(&self.shown())
    }

    /// The per-square table of open tours of the view's board, from `resolution`, which
    /// answered a [`View::Table`].
    pub fn table(self, resolution: &Resolution) -> CountTable {
        let board = self.board();
        let counts = board
            .all_squares()
            .map(|square| {
                resolution
                    .count(&Question::from_start(board, square, TourKind::Open))
                    .clone()
            })
            .collect();
        CountTable::new(board, counts)
    }
}

/// The open tours from one start, split by the square they end on: the pairs from `start` to
/// every other square of `board` (the page's heatmap of a start's ends). Their sum is the
/// count from the start, so the table also counts the start on boards whose counts from one
/// square no engine gives directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    /// The board.
    pub board: Board,
    /// The start.
    pub start: Square,
}

impl Ends {
    /// The ends of `start` on `board` (checked to be on it).
    pub fn new(board: Board, start: Square) -> Result<Self, Error> {
        board.check_square(start)?;
        Ok(Ends { board, start })
    }

    /// The canonical pair questions, one for each end (the same question may come twice,
    /// from symmetric ends).
    pub fn questions(self) -> Vec<Question> {
        self.board
            .all_squares()
            .filter(|&end| end != self.start)
            .map(|end| Question::between(self.board, self.start, end))
            .collect()
    }

    /// The count of tours that end on each square (0 on the start), from `resolution`, which
    /// answered [`Ends::questions`].
    pub fn table(self, resolution: &Resolution) -> CountTable {
        let counts = self
            .board
            .all_squares()
            .map(|end| {
                if end == self.start {
                    BigUint::default()
                } else {
                    resolution
                        .count(&Question::between(self.board, self.start, end))
                        .clone()
                }
            })
            .collect();
        CountTable::new(self.board, counts)
    }
}
