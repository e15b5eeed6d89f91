//! Questions in canonical form: what is counted, on which board, from which start.
//!
//! All symmetric questions (mirror images, turns, the transposed board) share one canonical form:
//! the board has `rows <= cols` and the start is the least square of its orbit. The answer store
//! keeps one row per canonical question.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::{Board, CanonicalStart, Square, Symmetry};

/// What is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TourKind {
    /// Open tours (Hamiltonian paths of the knight graph), each direction counted.
    Open,
    /// Closed tours (Hamiltonian cycles), each direction counted: from any square, twice the
    /// number of cycles.
    Closed,
}

impl TourKind {
    /// Every kind, in a fixed order.
    pub const ALL: [TourKind; 2] = [TourKind::Open, TourKind::Closed];

    /// The name used on the command line, in the store and in exports.
    pub const fn name(self) -> &'static str {
        match self {
            TourKind::Open => "open",
            TourKind::Closed => "closed",
        }
    }
}

impl fmt::Display for TourKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TourKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        TourKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = TourKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown kind '{}' (known: {})",
                    crate::echo::echo(name),
                    names.join(", ")
                )
            })
    }
}

/// What a stored answer counts, as the store, exports and `knights query --kind` name it: the
/// two tour kinds, and `between` for open tours between two squares (a [`Question`] of kind
/// open with both a start and an end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnswerKind {
    /// Open tours from a start, or the open board total.
    Open,
    /// Closed tours of a board.
    Closed,
    /// Open tours from a start to an end.
    Between,
}

impl AnswerKind {
    /// Every kind, in a fixed order.
    pub const ALL: [AnswerKind; 3] = [AnswerKind::Open, AnswerKind::Closed, AnswerKind::Between];

    /// The name in the store and in exports.
    pub const fn name(self) -> &'static str {
        match self {
            AnswerKind::Open => "open",
            AnswerKind::Closed => "closed",
            AnswerKind::Between => "between",
        }
    }

    /// The kind of tour counted.
    pub const fn tour_kind(self) -> TourKind {
        match self {
            AnswerKind::Closed => TourKind::Closed,
            AnswerKind::Open | AnswerKind::Between => TourKind::Open,
        }
    }
}

impl fmt::Display for AnswerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AnswerKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        AnswerKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = AnswerKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown kind '{}' (known: {})",
                    crate::echo::echo(name),
                    names.join(", ")
                )
            })
    }
}

impl From<TourKind> for AnswerKind {
    fn from(kind: TourKind) -> Self {
        match kind {
            TourKind::Open => AnswerKind::Open,
            TourKind::Closed => AnswerKind::Closed,
        }
    }
}

/// The shape of a question: what is fixed of the tours counted. Readers match on it (through
/// [`Question::shape`]) rather than on the `Option`s of a [`Question`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    /// The whole board: the directed open total, or the directed count of closed tours (the
    /// same from every square).
    Total,
    /// Open tours from one square.
    Start(Square),
    /// Open tours from one square to another (directed: walked from the first).
    Between(Square, Square),
}

/// Why two squares of a board make no question between two squares: the pair rule, checked
/// here once. The start is checked as any start is ([`Board::check_square`]); each front end
/// names the end its own way (an option, a parameter, a field) before [`BetweenError::predicate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BetweenError {
    /// The end is not a square of the board.
    #[error("the end {end} is {}", self.predicate())]
    Outside {
        /// The board.
        board: Board,
        /// The end given.
        end: Square,
    },
    /// The end is the start.
    #[error("the end {end} is {}", self.predicate(), end = .0)]
    Same(Square),
}

impl BetweenError {
    /// What is wrong with the end, after its name and `is`: `outside the 5x5 board (rows 0 to
    /// 4, columns 0 to 4)`, `the start itself: a tour between two squares needs two different
    /// squares`.
    pub fn predicate(&self) -> String {
        match self {
            BetweenError::Outside { board, .. } => format!(
                "outside the {board} board (rows 0 to {}, columns 0 to {})",
                board.rows() - 1,
                board.cols() - 1
            ),
            BetweenError::Same(_) => {
                "the start itself: a tour between two squares needs two different squares".into()
            }
        }
    }
}

/// A question in canonical form: the count of `kind` tours on `board` from `start`, or on the
/// whole board when `start` is `None`.
///
/// Board totals are directed: twice the number of tours counted once each (open paths, or
/// cycles). For open tours that is the sum of the per-square counts. A closed tour passes
/// through every square, so the directed count from any square equals the board's: closed
/// questions are always about the whole board, and one answer serves every start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Question {
    /// The board, with `rows <= cols`.
    pub board: Board,
    /// What is counted.
    pub kind: TourKind,
    /// The start square (least of its orbit), or `None` for the board total.
    pub start: Option<Square>,
    /// The end square of open tours between two squares (with `start`), or `None`. A tour
    /// from `start` to `end` walked backwards goes from `end` to `start`, so the two counts are
    /// equal and the pair is kept in the order that is least under the board's symmetries.
    pub end: Option<Square>,
}

impl Question {
    /// The canonical question "tours of `kind` from `start` on `board`" (for closed tours, the
    /// board's question: the count is the same from every square).
    pub fn from_start(board: Board, start: Square, kind: TourKind) -> Self {
        match kind {
            TourKind::Open => {
                let canonical = CanonicalStart::of(board, start);
                Question {
                    board: canonical.board,
                    kind,
                    start: Some(canonical.square),
                    end: None,
                }
            }
            TourKind::Closed => Question::total(board, kind),
        }
    }

    /// The canonical question "all tours of `kind` on `board`" (the directed board total).
    pub fn total(board: Board, kind: TourKind) -> Self {
        Question {
            board: board.canonical(),
            kind,
            start: None,
            end: None,
        }
    }

    /// The canonical question "open tours from `start` that end on `end`" (directed: each
    /// tour walked from `start` to `end`): the pair, or the reversed pair, under every symmetry
    /// that maps `board` onto its canonical orientation, whichever is least.
    pub fn between(board: Board, start: Square, end: Square) -> Self {
        let target = board.canonical();
        let (start, end) = Symmetry::ALL
            .iter()
            .filter(|sym| sym.target(board) == target)
            .flat_map(|sym| {
                let (s, e) = (sym.apply(board, start), sym.apply(board, end));
                [(s, e), (e, s)]
            })
            .min()
            .expect("identity or transpose always targets the canonical board");
        Question {
            board: target,
            kind: TourKind::Open,
            start: Some(start),
            end: Some(end),
        }
    }

    /// The canonical question between `start` and `end` ([`Question::between`]) once the pair
    /// rule holds: the end is a square of the board and not the start (the start must be one:
    /// it is checked as any start).
    pub fn checked_between(board: Board, start: Square, end: Square) -> Result<Self, BetweenError> {
        check_between(board, start, end)?;
        Ok(Question::between(board, start, end))
    }

    /// The question's shape ([`Shape`]): closed questions are always about the whole board.
    pub fn shape(&self) -> Shape {
        match (self.kind, self.start, self.end) {
            (TourKind::Open, Some(start), Some(end)) => Shape::Between(start, end),
            (TourKind::Open, Some(start), None) => Shape::Start(start),
            _ => Shape::Total,
        }
    }

    /// True for the open board total, the question that is the sum of its starts.
    pub fn is_open_total(&self) -> bool {
        self.kind == TourKind::Open && self.shape() == Shape::Total
    }

    /// Every canonical pair question of `board` (start and end distinct), with the number of
    /// ordered (start, end) pairs of the board that share it: their weighted sum over the pairs
    /// from one start is that start's count.
    pub fn pairs_of_board(board: Board) -> Vec<(Question, u64)> {
        let board = board.canonical();
        let mut pairs: Vec<(Question, u64)> = Vec::new();
        let mut index: HashMap<Question, usize> = HashMap::new();
        for start in board.all_squares() {
            for end in board.all_squares().filter(|&end| end != start) {
                let question = Question::between(board, start, end);
                match index.entry(question) {
                    Entry::Occupied(at) => pairs[*at.get()].1 += 1,
                    Entry::Vacant(at) => {
                        at.insert(pairs.len());
                        pairs.push((question, 1));
                    }
                }
            }
        }
        pairs
    }

    /// The canonical pair questions from this open start question's square to every other
    /// square of its board, one per end square (some may be the same question): the counts
    /// they stand for add up to the start's.
    pub fn pairs_from(&self) -> impl Iterator<Item = Question> + use<> {
        let (board, from) = (self.board, self.start.expect("a start question"));
        (0..board.rows())
            .flat_map(move |row| (0..board.cols()).map(move |col| Square::new(row, col)))
            .filter(move |&end| end != from)
            .map(move |end| Question::between(board, from, end))
    }

    /// The kind this question's answer is stored under: `between` for a pair.
    pub fn answer_kind(&self) -> AnswerKind {
        match self.shape() {
            Shape::Between(..) => AnswerKind::Between,
            _ => self.kind.into(),
        }
    }

    /// True when the question is already in canonical form.
    pub fn is_canonical(&self) -> bool {
        self.board == self.board.canonical()
            && (self.kind == TourKind::Open || self.start.is_none())
            && match (self.start, self.end) {
                (Some(start), Some(end)) => {
                    start != end
                        && self.board.contains(start)
                        && self.board.contains(end)
                        && Question::between(self.board, start, end) == *self
                }
                (start, None) => start.is_none_or(|square| {
                    self.board.contains(square) && self.board.canonical_square(square).0 == square
                }),
                (None, Some(_)) => false,
            }
    }

    /// The start questions whose answers add up to this board's total: one per canonical start,
    /// with the number of squares of the board that share it.
    pub fn starts_of_board(board: Board, kind: TourKind) -> Vec<(Question, u64)> {
        let board = board.canonical();
        let mut starts: Vec<(Question, u64)> = Vec::new();
        let mut index: HashMap<Question, usize> = HashMap::new();
        for square in board.all_squares() {
            let question = Question::from_start(board, square, kind);
            match index.entry(question) {
                Entry::Occupied(at) => starts[*at.get()].1 += 1,
                Entry::Vacant(at) => {
                    at.insert(starts.len());
                    starts.push((question, 1));
                }
            }
        }
        starts
    }
}

/// The pair rule: `end` is a square of `board` and not `start`.
pub fn check_between(board: Board, start: Square, end: Square) -> Result<(), BetweenError> {
    if !board.contains(end) {
        Err(BetweenError::Outside { board, end })
    } else if end == start {
        Err(BetweenError::Same(end))
    } else {
        Ok(())
    }
}

impl fmt::Display for Question {
    /// The question as its fields hold it, even when they make no canonical question (a key
    /// found damaged in a store is shown as it is).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.start, self.end) {
            (Some(square), Some(end)) => write!(
                f,
                "{} tours of {} from {square} to {end}",
                self.kind, self.board
            ),
            (Some(square), None) => {
                write!(f, "{} tours of {} from {square}", self.kind, self.board)
            }
            (None, _) => write!(
                f,
                "{} tours of {} (directed board total)",
                self.kind, self.board
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_questions_share_one_form() {
        let a = Question::from_start(Board::new(5, 3).unwrap(), Square::new(4, 2), TourKind::Open);
        let b = Question::from_start(Board::new(3, 5).unwrap(), Square::new(0, 0), TourKind::Open);
        assert_eq!(a, b);
        assert!(a.is_canonical());
        let weights: u64 = Question::starts_of_board(Board::new(6, 4).unwrap(), TourKind::Open)
            .iter()
            .map(|(_, w)| w)
            .sum();
        assert_eq!(weights, 24);
    }
}
