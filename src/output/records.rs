//! What the exporters write: the records of counts, tables, totals, stored answers and tours,
//! the formats, and the [`Exporter`] trait each format implements. The exporters and the
//! answer stream read these; none of them reads the face module above.

use std::fmt;

use num_bigint::BigUint;
use serde::{Serialize, Serializer};

use crate::board::{Board, Square};
use crate::count::CountTable;
use crate::error::Error;
use crate::existence::{no_closed_tour, no_open_tour, no_open_tour_between, no_tour};
use crate::question::TourKind;
use crate::store::Answer;

/// An exact count; serialized as a string of decimal digits so that no reader rounds it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Count(pub BigUint);

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The number of tours from one start square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StartCount {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Start row.
    pub row: u32,
    /// Start column.
    pub col: u32,
    /// What was counted: `open` or `closed` (directed tours from the start).
    pub kind: &'static str,
    /// The count; none when it could not be computed (see `reason`).
    pub count: Option<Count>,
    /// The theorem that makes the count 0 without a search, if one does; or why there is no
    /// count.
    pub reason: Option<String>,
}

impl StartCount {
    /// The number of `kind` tours from `start` on `board`.
    pub fn new(board: Board, start: Square, kind: TourKind, count: BigUint) -> Self {
        let reason = no_tour(board, kind, Some(start));
        StartCount {
            rows: board.rows(),
            cols: board.cols(),
            row: start.row,
            col: start.col,
            kind: kind.name(),
            count: Some(Count(count)),
            reason: reason.map(|r| r.to_string()),
        }
    }

    /// A query that has no count, with why (e.g. no engine takes its board).
    pub fn failed(board: Board, start: Square, kind: TourKind, why: &str) -> Self {
        StartCount {
            count: None,
            reason: Some(format!("not counted: {why}")),
            ..StartCount::new(board, start, kind, BigUint::default())
        }
    }

    /// The number of open tours from `start` on `board`.
    pub fn open(board: Board, start: Square, count: BigUint) -> Self {
        StartCount::new(board, start, TourKind::Open, count)
    }
}

/// The number of open tours from one square to another (`count ... --to`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BetweenCount {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Start row.
    pub row: u32,
    /// Start column.
    pub col: u32,
    /// End row.
    pub to_row: u32,
    /// End column.
    pub to_col: u32,
    /// Always `between`: directed open tours from the start that end on the end.
    pub kind: &'static str,
    /// The count.
    pub count: Count,
    /// The theorem that makes the count 0 without a search, if one does.
    pub reason: Option<String>,
}

impl BetweenCount {
    /// The number of open tours from `start` to `end` on `board`.
    pub fn new(board: Board, start: Square, end: Square, count: BigUint) -> Self {
        BetweenCount {
            rows: board.rows(),
            cols: board.cols(),
            row: start.row,
            col: start.col,
            to_row: end.row,
            to_col: end.col,
            kind: crate::question::AnswerKind::Between.name(),
            count: Count(count),
            reason: no_open_tour_between(board, start, end).map(|r| r.to_string()),
        }
    }
}

/// The closed tours of a board, as written by the exporters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClosedReport {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Always `closed`.
    pub kind: &'static str,
    /// Closed tours counted once each (Hamiltonian cycles, undirected).
    pub cycles: Count,
    /// Closed tours counted in both directions (twice the cycles).
    pub directed: Count,
    /// Directed closed tours from any one square: the same for every square.
    pub per_square: Count,
    /// The theorem that makes the count 0 without a search, if one does.
    pub reason: Option<String>,
}

impl ClosedReport {
    /// The report for `board` from its directed closed-tour count.
    pub fn new(board: Board, directed: &BigUint) -> Self {
        ClosedReport {
            rows: board.rows(),
            cols: board.cols(),
            kind: TourKind::Closed.name(),
            cycles: Count(directed / 2u32),
            directed: Count(directed.clone()),
            per_square: Count(directed.clone()),
            reason: no_closed_tour(board).map(|r| r.to_string()),
        }
    }
}

/// A per-square table with the board's totals, as written by the JSON exporter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableReport {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// What was counted: `open`.
    pub kind: &'static str,
    /// All tours on the board, each direction counted (the sum of the table).
    pub total_directed: Count,
    /// All tours on the board, each counted once.
    pub total_undirected: Count,
    /// The count for each start square, row by row.
    pub counts: Vec<Vec<Count>>,
    /// The theorem that makes every count 0 without a search, if one does.
    pub reason: Option<String>,
}

impl TableReport {
    /// The report of a table of open-tour counts.
    pub fn open(table: &CountTable) -> Result<Self, Error> {
        Ok(TableReport {
            rows: table.board().rows(),
            cols: table.board().cols(),
            kind: "open",
            total_directed: Count(table.total_directed()),
            total_undirected: Count(table.total_undirected()),
            counts: table
                .rows()
                .map(|row| row.iter().map(|c| Count(c.clone())).collect())
                .collect(),
            reason: no_open_tour(table.board(), None).map(|r| r.to_string()),
        })
    }
}

/// The total of one board: every tour counted in both directions, and once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardTotal {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// What was counted: `open` or `closed`.
    pub kind: &'static str,
    /// Every tour in both directions.
    pub total_directed: Count,
    /// Every tour once: open paths, or cycles.
    pub total_undirected: Count,
    /// The theorem that makes the count 0 without a search, if one does.
    pub reason: Option<String>,
}

impl BoardTotal {
    /// The total of `kind` tours on `board` from its directed count.
    pub fn new(board: Board, kind: TourKind, directed: &BigUint) -> Self {
        BoardTotal {
            rows: board.rows(),
            cols: board.cols(),
            kind: kind.name(),
            total_directed: Count(directed.clone()),
            total_undirected: Count(crate::count::undirected(board, directed)),
            reason: no_tour(board, kind, None).map(|r| r.to_string()),
        }
    }
}

/// A stored answer as exported: the columns of `knights export` and `knights query`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerRecord {
    /// Board rows (canonical: `rows <= cols`).
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// What was counted.
    pub kind: &'static str,
    /// Start row, or empty (`null`) for a board total.
    pub row: Option<u32>,
    /// Start column, or empty (`null`) for a board total.
    pub col: Option<u32>,
    /// The exact count.
    pub count: Count,
    /// The engine that computed it.
    pub engine: String,
    /// The knights version that computed it.
    pub version: String,
    /// Seconds of computation.
    pub seconds: f64,
    /// When it was computed (UTC).
    pub computed_at: String,
    /// Where it came from: `computed`, `imported from FILE (...)`, `sum of starts (...)`,
    /// `sum of pairs (...)`.
    pub source: String,
    /// End row of a `between` answer, or empty (`null`).
    pub to_row: Option<u32>,
    /// End column of a `between` answer, or empty (`null`).
    pub to_col: Option<u32>,
}

impl From<&Answer> for AnswerRecord {
    fn from(answer: &Answer) -> Self {
        let q = answer.question;
        AnswerRecord {
            rows: q.board.rows(),
            cols: q.board.cols(),
            kind: q.answer_kind().name(),
            row: q.start.map(|s| s.row),
            col: q.start.map(|s| s.col),
            count: Count(answer.count.clone()),
            engine: answer.engine.to_string(),
            version: answer.version.clone(),
            seconds: answer.seconds,
            computed_at: answer.computed_at.clone().unwrap_or_default(),
            source: answer.source.clone(),
            to_row: q.end.map(|s| s.row),
            to_col: q.end.map(|s| s.col),
        }
    }
}

/// Output formats of the counting commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Plain text for people (and bare numbers for single counts).
    #[default]
    Table,
    /// JSON, counts as strings of digits.
    Json,
    /// CSV with a header line.
    Csv,
}

impl From<crate::exchange::ExchangeFormat> for Format {
    fn from(format: crate::exchange::ExchangeFormat) -> Self {
        match format {
            crate::exchange::ExchangeFormat::Csv => Format::Csv,
            crate::exchange::ExchangeFormat::Json => Format::Json,
        }
    }
}

/// Writes answers in one format. Every method returns the whole text, ending in a newline.
pub trait Exporter {
    /// One count from one start square.
    fn start_count(&self, answer: &StartCount) -> Result<String, Error>;
    /// One count of tours between two squares.
    fn between_count(&self, answer: &BetweenCount) -> Result<String, Error>;
    /// A per-square table and the board's totals.
    fn table(&self, table: &CountTable) -> Result<String, Error>;
    /// The closed tours of a board.
    fn closed_board(&self, report: &ClosedReport) -> Result<String, Error>;
    /// Board totals: one board (`count --total`) or a series of them.
    fn board_totals(&self, totals: &[BoardTotal]) -> Result<String, Error>;
    /// Counts of many queries, in order (a batch).
    fn start_counts(&self, answers: &[StartCount]) -> Result<String, Error>;
    /// Stored answers with their provenance (`query`, `export`).
    fn answers(&self, answers: &[Answer]) -> Result<String, Error>;
}

/// A tour as written by `knights tour --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TourRecord {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// A closed tour (the last square is a knight's move from the first).
    pub closed: bool,
    /// How it was found.
    pub method: crate::tour::Method,
    /// The first square, `[row, col]`.
    pub start: [u32; 2],
    /// The last square, `[row, col]`.
    pub end: [u32; 2],
    /// Every square in the order of the tour, `[row, col]`.
    pub squares: Vec<[u32; 2]>,
}

/// The formats of `knights tour`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TourFormat {
    /// The board with the step number of every square, aligned in columns.
    #[default]
    Board,
    /// JSON: the board's size and the squares in order.
    Json,
    /// An SVG picture of the board and the path.
    Svg,
    /// The same picture, animated: the knight moves along the path (plays with no script).
    AnimatedSvg,
}
