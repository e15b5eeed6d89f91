//! Reading query strings: every parameter checked by the library's own parsers, so that a bad
//! one gets the same one-line message as the command's argument.

use std::time::Duration;

use crate::board::{Board, Square};
use crate::echo::echo;
use crate::input::{parse_coordinate, parse_side};
use crate::precompute::BoardRange;
use crate::question::{AnswerKind, TourKind};
use crate::store::{AnswerFilter, ListCursor, PageSpec};
use crate::view::{Ends, View};

use super::jobs::Asked;
use super::reply::ApiError;

/// A query string's `name=value` pairs, checked against the names a route knows.
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// The pairs of a route that knows `known`: an unknown or repeated name is an error, so
    /// that a misspelt parameter is not silently ignored.
    pub fn new(pairs: Vec<(String, String)>, known: &[&str]) -> Result<Self, ApiError> {
        for (i, (name, _)) in pairs.iter().enumerate() {
            if !known.contains(&name.as_str()) {
                return Err(ApiError::bad(format!(
                    "unknown parameter '{}' (known: {})",
                    echo(name),
                    known.join(", ")
                )));
            }
            if pairs[..i].iter().any(|(other, _)| other == name) {
                return Err(ApiError::bad(format!("'{name}' is given twice")));
            }
        }
        Ok(Params { pairs })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Parses `name` with `parse`, naming the parameter and its value when it fails.
    fn parsed<T>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<Option<T>, ApiError> {
        self.get(name)
            .map(|value| {
                parse(value).map_err(|why| {
                    ApiError::bad(format!(
                        "invalid value '{}' for '{}': {why}",
                        echo(value),
                        echo(name)
                    ))
                })
            })
            .transpose()
    }

    fn required<T>(&self, name: &str, what: &str, value: Option<T>) -> Result<T, ApiError> {
        value.ok_or_else(|| ApiError::bad(format!("missing parameter '{name}': {what}")))
    }

    /// The board of `rows` and `cols`, both required.
    fn board(&self) -> Result<Board, ApiError> {
        let rows = self.parsed("rows", parse_side)?;
        let rows = self.required("rows", "the number of rows, at least 1", rows)?;
        let cols = self.parsed("cols", parse_side)?;
        let cols = self.required("cols", "the number of columns, at least 1", cols)?;
        Ok(Board::new(rows, cols)?)
    }

    /// A square given as two parameters, both or neither.
    fn square(&self, row: &str, col: &str) -> Result<Option<Square>, ApiError> {
        let r = self.parsed(row, parse_coordinate)?;
        let c = self.parsed(col, parse_coordinate)?;
        match (r, c) {
            (Some(r), Some(c)) => Ok(Some(Square::new(r, c))),
            (None, None) => Ok(None),
            _ => Err(ApiError::bad(format!("give '{row}' and '{col}' together"))),
        }
    }

    /// A start square given as `row` and `col`, both or neither, checked to be on `board`.
    fn start(&self, board: Board) -> Result<Option<Square>, ApiError> {
        let start = self.square("row", "col")?;
        if let Some(square) = start {
            board.check_square(square)?;
        }
        Ok(start)
    }

    /// `kind=open|closed`, open when not given.
    fn kind(&self) -> Result<TourKind, ApiError> {
        Ok(self
            .parsed("kind", |v| v.parse::<TourKind>())?
            .unwrap_or(TourKind::Open))
    }

    /// A flag: present (`total`, `total=1`, `total=true`) or not (`total=0`, `total=false`).
    fn flag(&self, name: &str) -> Result<bool, ApiError> {
        Ok(self
            .parsed(name, |v| match v {
                "" | "1" | "true" | "yes" => Ok(true),
                "0" | "false" | "no" => Ok(false),
                _ => Err("give it alone, or as 1 or 0".to_string()),
            })?
            .unwrap_or(false))
    }

    /// `format`, one of `formats` (the first when not given).
    fn format(&self, formats: &[&'static str]) -> Result<&'static str, ApiError> {
        Ok(self
            .parsed("format", |v| {
                formats
                    .iter()
                    .find(|f| **f == v)
                    .copied()
                    .ok_or_else(|| format!("the formats are {}", formats.join(", ")))
            })?
            .unwrap_or(formats[0]))
    }

    fn whole(&self, name: &str) -> Result<Option<u64>, ApiError> {
        self.parsed(name, |v| {
            v.parse::<u64>()
                .map_err(|_| "not a whole number from 0".to_string())
        })
    }
}

/// `GET /api/count`.
pub struct CountRequest {
    /// What to show.
    pub asked: Asked,
    /// `json` or `csv`.
    pub format: &'static str,
    /// How long to wait for a computation before answering with its job.
    pub wait: Duration,
}

/// The longest a client may ask a request to wait.
pub const MAX_WAIT: Duration = Duration::from_secs(60);

impl CountRequest {
    /// Reads the parameters; `wait` is the server's default wait.
    pub fn parse(pairs: Vec<(String, String)>, wait: Duration) -> Result<Self, ApiError> {
        let params = Params::new(
            pairs,
            &[
                "rows", "cols", "row", "col", "to_row", "to_col", "kind", "total", "ends",
                "format", "wait",
            ],
        )?;
        let board = params.board()?;
        let start = params.start(board)?;
        let to = params.square("to_row", "to_col")?;
        let kind = params.kind()?;
        let total = params.flag("total")?;
        let ends = params.flag("ends")?;
        if ends && (start.is_none() || to.is_some() || total || kind == TourKind::Closed) {
            return Err(ApiError::bad(
                "'ends' counts the open tours from one start by the square they end on: give it with 'row' and 'col' alone",
            ));
        }
        if to.is_some() && start.is_none() {
            return Err(ApiError::bad(
                "tours between two squares need both: give 'row' and 'col' with 'to_row' and 'to_col'",
            ));
        }
        let view = match (start, to, kind) {
            (Some(_), Some(_), TourKind::Closed) => {
                return Err(ApiError::bad(
                    "tours between two squares are open tours: leave out 'kind=closed'",
                ));
            }
            (Some(_), _, _) if total => {
                return Err(ApiError::bad(
                    "'total' cannot be used with 'row' and 'col': a board total has no start square",
                ));
            }
            (Some(square), Some(end), _) => View::between(board, square, end).map_err(|e| {
                ApiError::bad(format!("'to_row' and 'to_col' are {}", e.predicate()))
            })?,
            (Some(square), None, kind) => View::Start(board, square, kind),
            (None, _, TourKind::Closed) => View::Closed(board),
            (None, _, TourKind::Open) if total => View::Total(board),
            (None, _, TourKind::Open) => View::Table(board),
        };
        let wait = params
            .parsed("wait", |v| {
                v.parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0 && *s <= MAX_WAIT.as_secs_f64())
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| format!("seconds from 0 to {}", MAX_WAIT.as_secs()))
            })?
            .unwrap_or(wait);
        let asked = match (ends, start) {
            (true, Some(start)) => Asked::Ends(Ends::new(board, start)?),
            _ => Asked::Count(view),
        };
        Ok(CountRequest {
            asked,
            format: params.format(&["json", "csv"])?,
            wait,
        })
    }
}

/// `GET /api/tour`.
pub struct TourRequest {
    /// The board.
    pub board: Board,
    /// The first square.
    pub start: Square,
    /// The last square, for a tour between two squares.
    pub end: Option<Square>,
    /// A closed tour.
    pub closed: bool,
    /// Picks among equally good moves.
    pub seed: u64,
    /// `json` or `svg` (animated).
    pub format: &'static str,
}

impl TourRequest {
    /// Reads the parameters.
    pub fn parse(pairs: Vec<(String, String)>) -> Result<Self, ApiError> {
        let params = Params::new(
            pairs,
            &[
                "rows", "cols", "row", "col", "to_row", "to_col", "kind", "seed", "format",
            ],
        )?;
        let board = params.board()?;
        let start = params.start(board)?.ok_or_else(|| {
            ApiError::bad("missing parameters 'row' and 'col': the square the tour starts on")
        })?;
        let closed = params.kind()? == TourKind::Closed;
        let end = params.square("to_row", "to_col")?;
        if let Some(end) = end {
            if closed {
                return Err(ApiError::bad(
                    "tours between two squares are open tours: leave out 'kind=closed'",
                ));
            }
            crate::question::check_between(board, start, end).map_err(|e| {
                ApiError::bad(format!("'to_row' and 'to_col' are {}", e.predicate()))
            })?;
        }
        Ok(TourRequest {
            board,
            start,
            end,
            closed,
            seed: params.whole("seed")?.unwrap_or(0),
            format: params.format(&["json", "svg"])?,
        })
    }
}

/// `GET /api/answers`: the filters of `knights query`, a page at a time.
pub struct AnswersRequest {
    /// Which answers.
    pub filter: AnswerFilter,
    /// `json` or `csv`.
    pub format: &'static str,
    /// Where the page starts (`after`, the cursor of the page before) and how many answers
    /// it holds at most (`limit`).
    pub page: PageSpec,
}

/// Answers in a page of `/api/answers` unless `limit` says fewer: a page is built in memory,
/// so its size bounds what one request holds.
pub const ANSWERS_PAGE: u64 = 1000;

/// The largest `limit` of `/api/answers`.
pub const ANSWERS_PAGE_MAX: u64 = 10_000;

impl AnswersRequest {
    /// Reads the parameters.
    pub fn parse(pairs: Vec<(String, String)>) -> Result<Self, ApiError> {
        let params = Params::new(
            pairs,
            &[
                "board",
                "kind",
                "min_squares",
                "max_squares",
                "format",
                "limit",
                "after",
            ],
        )?;
        let limit = params.parsed("limit", |v| match v.parse::<u64>() {
            Ok(n) if (1..=ANSWERS_PAGE_MAX).contains(&n) => Ok(n),
            _ => Err(format!("a page holds 1 to {ANSWERS_PAGE_MAX} answers")),
        })?;
        let after = params.parsed("after", |v| {
            v.parse::<ListCursor>()
                .map_err(|e| format!("{e}: give the `after` of the page before"))
        })?;
        Ok(AnswersRequest {
            page: PageSpec {
                after,
                limit: Some(limit.unwrap_or(ANSWERS_PAGE)),
            },
            filter: AnswerFilter {
                board: params.parsed("board", BoardRange::one_board)?,
                kind: params.parsed("kind", |v| v.parse::<AnswerKind>())?,
                min_squares: params.whole("min_squares")?,
                max_squares: params.whole("max_squares")?,
            },
            format: params.format(&["json", "csv"])?,
        })
    }
}
