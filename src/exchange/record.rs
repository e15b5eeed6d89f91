//! One record of an export: its fields as text, each bounded, made into an answer and checked
//! on its own (a canonical question of a known kind, an exact count that no rule of
//! [`crate::trust`] refutes, how it is recorded: [`crate::trust::provenance`]).

use std::collections::HashMap;

use num_bigint::BigUint;

use crate::board::{Board, Square};
use crate::echo::echo;
use crate::input::{InputError, MAX_FIELD_CHARS, MAX_QUERIES, max_count_digits};
use crate::memory::{MemoryBudget, human_bytes};
use crate::question::{AnswerKind, BetweenError, Question, Shape, TourKind};
use crate::store::{ANSWER_COLUMNS, Answer, EngineName, SUM};
use crate::trust;
use crate::trust::provenance::{self, check_utc_timestamp, seconds_in_range};

/// The fields of one record as text (`None` for an empty or null field).
pub(super) type Fields = HashMap<&'static str, Option<String>>;

/// A field's text, refused when it is longer than a field can be (the count excepted: its
/// bound depends on the board, [`max_count_digits`]; a source may have up to [`MAX_SOURCE`]).
pub(super) fn bounded(name: &'static str, value: &str, line: usize) -> Result<String, InputError> {
    let most = if name == "source" {
        MAX_SOURCE
    } else {
        MAX_FIELD_CHARS
    };
    if name != "count" && value.chars().count() > most {
        return Err(InputError::at(
            line,
            format!("{name} is longer than {most} characters: '{}'", echo(value)),
        ));
    }
    Ok(value.to_string())
}

/// Fields with every column present (`None` until given).
pub(super) fn empty_fields() -> Fields {
    ANSWER_COLUMNS.iter().map(|&name| (name, None)).collect()
}

/// The answers of a file as they are read, refused past [`MAX_QUERIES`] records or past the
/// memory budget: a file is held whole (its records are checked together), so that what it
/// holds is bounded before the gate and the write, which hold it as it is.
pub(super) struct Kept {
    pub(super) answers: Vec<(usize, Answer)>,
    bytes: u64,
    budget: MemoryBudget,
}

impl Kept {
    pub(super) fn new(budget: MemoryBudget) -> Self {
        Kept {
            answers: Vec::new(),
            bytes: 0,
            budget,
        }
    }

    /// Keeps the answer of `line`, or says why the file cannot be held.
    pub(super) fn push(&mut self, line: usize, answer: Answer) -> Result<(), InputError> {
        if self.answers.len() as u64 >= MAX_QUERIES {
            return Err(InputError::at(
                line,
                format!("more than {MAX_QUERIES} records; split the file"),
            ));
        }
        self.bytes += held_bytes(&answer);
        if self.bytes > self.budget.bytes() {
            return Err(InputError::at(
                line,
                format!(
                    "the first {} records need more than the memory budget of {} (with what checking them holds); split the file, or give a larger --memory",
                    self.answers.len() + 1,
                    human_bytes(self.budget.bytes())
                ),
            ));
        }
        self.answers.push((line, answer));
        Ok(())
    }
}

/// What one kept answer holds, measured as the import holds it: the record and its heap (the
/// count's digits, the strings), and the same again for the gate's tables of the file and for
/// the rows written (measured: a 418 MB CSV of 400,000 answers, estimated at 424 MB, peaked at 339 MB).
pub fn held_bytes(answer: &Answer) -> u64 {
    let own = std::mem::size_of::<(usize, Answer)>() as u64
        + answer.count.bits().div_ceil(64) * 8
        + answer.version.capacity() as u64
        + answer
            .computed_at
            .as_ref()
            .map_or(0, |t| t.capacity() as u64)
        + answer.source.capacity() as u64;
    own * 2
}

/// The answer of one record (`fields`, read on `line`), checked field by field: the board,
/// the question, the count, how it is recorded.
pub(super) fn answer_from_fields(fields: &Fields, line: usize) -> Result<Answer, InputError> {
    let record = Record { fields, line };
    let board = record.board()?;
    let question = record.question(board)?;
    let (count, count_text) = record.count(board)?;
    // Neither the memo engine nor the reference counts an open board total: under them, a
    // total was the sum of its starts (older exports say so), and is recorded as such.
    let engine = match record.text("engine")? {
        engine if question.is_open_total() && provenance::counts_starts_only(engine) => SUM,
        engine => engine,
    };
    provenance::check_engine(&question, engine).map_err(|fault| record.err(fault.to_string()))?;
    if let Err(why) = trust::check_count(&question, &count) {
        return Err(record.err(format!(
            "{question}: count {} cannot be right: {why}",
            echo(count_text)
        )));
    }
    let version = record.text("version")?;
    let seconds = seconds_in_range(record.text("seconds")?).map_err(|e| record.err(e))?;
    let computed_at = record.text("computed_at")?;
    check_utc_timestamp(computed_at).map_err(|e| record.err(e))?;
    let source = match record.optional("source") {
        None => String::new(),
        Some(source) if source.len() > MAX_SOURCE || source.chars().any(char::is_control) => {
            return Err(record.err(format!(
                "source must be one line of at most {MAX_SOURCE} bytes"
            )));
        }
        Some(source) => source.to_string(),
    };
    Ok(Answer {
        question,
        count,
        engine: EngineName::parse(engine),
        version: version.to_string(),
        seconds,
        computed_at: Some(computed_at.to_string()),
        source,
    })
}

/// One record's fields and its line, read field by field.
struct Record<'a> {
    fields: &'a Fields,
    line: usize,
}

impl<'a> Record<'a> {
    fn err(&self, message: String) -> InputError {
        InputError::at(self.line, message)
    }

    /// A field that may be empty.
    fn optional(&self, name: &'static str) -> Option<&'a str> {
        self.fields.get(name).and_then(|v| v.as_deref())
    }

    /// A field that must be given.
    fn text(&self, name: &'static str) -> Result<&'a str, InputError> {
        self.optional(name)
            .ok_or_else(|| self.err(format!("{name} is missing")))
    }

    fn whole(&self, name: &'static str, value: &str) -> Result<u32, InputError> {
        value
            .parse::<u32>()
            .map_err(|_| self.err(format!("{name} '{}' is not a whole number", echo(value))))
    }

    /// `rows` and `cols`: a board, canonical (`rows <= cols`).
    fn board(&self) -> Result<Board, InputError> {
        let rows = self.whole("rows", self.text("rows")?)?;
        let cols = self.whole("cols", self.text("cols")?)?;
        let board = Board::new(rows, cols).map_err(|e| self.err(e.to_string()))?;
        if rows > cols {
            return Err(self.err(format!(
                "the board {board} is not canonical: boards are stored with rows <= cols ({})",
                board.canonical()
            )));
        }
        Ok(board)
    }

    /// `kind` and the squares: a canonical question of `board`.
    fn question(&self, board: Board) -> Result<Question, InputError> {
        let kind_text = self.text("kind")?;
        let answer_kind: AnswerKind = kind_text.parse().map_err(|_| {
            let known: Vec<&str> = AnswerKind::ALL.iter().map(|k| k.name()).collect();
            self.err(format!(
                "unknown kind '{}' (known: {})",
                echo(kind_text),
                known.join(", ")
            ))
        })?;
        let kind = answer_kind.tour_kind();
        let between = answer_kind == AnswerKind::Between;
        let end = match (self.optional("to_row"), self.optional("to_col")) {
            (None, None) if between => {
                return Err(self.err("a 'between' answer needs its end: to_row and to_col".into()));
            }
            (None, None) => None,
            (Some(_), Some(_)) if !between => {
                return Err(self.err(format!(
                    "to_row and to_col are only for 'between' answers, not {kind}: leave them empty"
                )));
            }
            (Some(row), Some(col)) => Some(Square::new(
                self.whole("to_row", row)?,
                self.whole("to_col", col)?,
            )),
            _ => {
                return Err(self
                    .err("to_row and to_col must both be given (an end) or both be empty".into()));
            }
        };
        let start = match (self.optional("row"), self.optional("col")) {
            (None, None) if between => {
                return Err(self.err("a 'between' answer needs its start: row and col".into()));
            }
            (None, None) => None,
            (Some(row), Some(col)) => {
                let square = Square::new(self.whole("row", row)?, self.whole("col", col)?);
                self.check_start(board, square, end)?;
                Some(square)
            }
            _ => {
                return Err(self.err(
                    "row and col must both be given (a start) or both be empty (a board total)"
                        .into(),
                ));
            }
        };
        if kind == TourKind::Closed && start.is_some() {
            return Err(self.err(
                "closed answers have no start (the count is the same from every square): leave row and col empty".into(),
            ));
        }
        Ok(Question {
            board,
            kind,
            start,
            end,
        })
    }

    /// A start on `board`, the least of its class; with an `end`, a canonical pair.
    fn check_start(
        &self,
        board: Board,
        square: Square,
        end: Option<Square>,
    ) -> Result<(), InputError> {
        if !board.contains(square) {
            return Err(self.err(format!("the start {square} is outside the {board} board")));
        }
        let Some(end) = end else {
            let (canonical, _) = board.canonical_square(square);
            if canonical != square {
                return Err(self.err(format!(
                    "the start {square} is not canonical on {board}: its class is stored as {canonical}"
                )));
            }
            return Ok(());
        };
        // A pair is canonical as a pair, not square by square.
        let pair = Question::checked_between(board, square, end).map_err(|e| match e {
            BetweenError::Outside { .. } => {
                self.err(format!("the end {end} is outside the {board} board"))
            }
            BetweenError::Same(_) => self.err(format!(
                "the start and the end are both {square}: a pair needs two squares"
            )),
        })?;
        if let Shape::Between(first, second) = pair.shape()
            && (first, second) != (square, end)
        {
            return Err(self.err(format!(
                "the pair {square} to {end} is not canonical on {board}: it is stored as {first} to {second}"
            )));
        }
        Ok(())
    }

    /// `count`: decimal digits, no more than any count of tours on `board` can have (refused
    /// before the number is read: reading a million digits takes seconds). The count and its
    /// text.
    fn count(&self, board: Board) -> Result<(BigUint, &'a str), InputError> {
        let count_text = self.text("count")?;
        if !count_text.bytes().all(|b| b.is_ascii_digit())
            || (count_text.len() > 1 && count_text.starts_with('0'))
        {
            return Err(self.err(format!(
                "count '{}' is not a whole number in decimal digits",
                echo(count_text)
            )));
        }
        let most = max_count_digits(board);
        if count_text.len() as u64 > most {
            return Err(self.err(format!(
                "count '{}' has {} digits; no count of tours on the {board} board has more than {most}",
                echo(count_text),
                count_text.len()
            )));
        }
        let count = count_text.parse().map_err(|_| {
            self.err(format!(
                "count '{}' is not a whole number",
                echo(count_text)
            ))
        })?;
        Ok((count, count_text))
    }
}

/// The longest `source` accepted (a chain of imports makes it grow).
const MAX_SOURCE: usize = 4096;
