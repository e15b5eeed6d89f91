//! Reading the answers table row by row, without trusting it: a row that the schema's CHECKs
//! would refuse (one planted with raw SQL under `PRAGMA ignore_check_constraints`, or written
//! by a program that ignores them) is set aside as a [`BadRow`], named by its rowid, and the
//! reading goes on with the rest.

use std::fmt;

use num_bigint::BigUint;
use rusqlite::types::Value;

use crate::board::{Board, Square};
use crate::echo::echo;
use crate::question::{AnswerKind, Question};

use super::answer::ANSWER_COLUMNS;
use super::{Answer, EngineName};

/// A row of the answers table that is not an answer this knights can read: it breaks one of
/// the schema's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRow {
    /// SQLite's rowid of the row.
    pub rowid: i64,
    /// Its key and count as stored (each value quoted short).
    pub fields: String,
    /// The rule it breaks.
    pub why: String,
}

impl fmt::Display for BadRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "row {} of the answers table ({}): {}",
            self.rowid, self.fields, self.why
        )
    }
}

/// The stored answers of a listing, and the rows set aside.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// The rows read as answers, in the listing's order.
    pub answers: Vec<Answer>,
    /// The rows that break a rule of the schema, in the same order.
    pub bad: Vec<BadRow>,
}

/// The columns a listing selects, after the rowid, in this order.
pub(super) const LISTED: &str = "rowid, rows, cols, kind, row, col, count, engine, version, \
     seconds, computed_at, source, to_row, to_col";

/// Reads one listed row (the values of [`LISTED`]) as an answer, or names the rule it breaks.
pub(super) fn read_row(values: &[Value]) -> Result<Answer, BadRow> {
    let rowid = match values[0] {
        Value::Integer(id) => id,
        _ => -1,
    };
    let shown = |value: &Value| match value {
        Value::Null => "NULL".to_string(),
        Value::Integer(n) => n.to_string(),
        Value::Real(x) => x.to_string(),
        Value::Text(text) => format!("'{}'", echo(text)),
        Value::Blob(bytes) => format!("a blob of {} bytes", bytes.len()),
    };
    let bad = |why: String| {
        let fields = [
            ("rows", 1),
            ("cols", 2),
            ("kind", 3),
            ("row", 4),
            ("col", 5),
            ("to_row", 12),
            ("to_col", 13),
            ("count", 6),
        ]
        .iter()
        .map(|&(name, i)| format!("{name}={}", shown(&values[i])))
        .collect::<Vec<_>>()
        .join(", ");
        BadRow { rowid, fields, why }
    };
    read_answer(values).map_err(bad)
}

/// The answer of a row, checked against every rule of the schema.
fn read_answer(values: &[Value]) -> Result<Answer, String> {
    // The row is read as `rowid` and then the answers table's columns, in order.
    let name = |i: usize| {
        if i == 0 {
            "rowid"
        } else {
            ANSWER_COLUMNS[i - 1]
        }
    };
    let number = |i: usize| -> Result<Option<u32>, String> {
        match &values[i] {
            Value::Null => Ok(None),
            Value::Integer(n) => u32::try_from(*n)
                .map(Some)
                .map_err(|_| format!("{} is {n}, out of range", name(i))),
            _ => Err(format!("{} is not a whole number", name(i))),
        }
    };
    let text = |i: usize| -> Result<&str, String> {
        match &values[i] {
            Value::Text(text) => Ok(text.as_str()),
            _ => Err(format!("{} is not text", name(i))),
        }
    };
    let (Some(rows), Some(cols)) = (number(1)?, number(2)?) else {
        return Err("the board has no size".into());
    };
    let board = Board::new(rows, cols).map_err(|e| e.to_string())?;
    if cols < rows {
        return Err(format!(
            "the board is stored as {board}; the schema keeps boards with rows <= cols"
        ));
    }
    let kind_text = text(3)?;
    let kind: AnswerKind = kind_text.parse().map_err(|_| {
        format!(
            "the kind '{}' is not one this knights knows",
            echo(kind_text)
        )
    })?;
    let square = |r: usize, c: usize| -> Result<Option<Square>, String> {
        match (number(r)?, number(c)?) {
            (None, None) => Ok(None),
            (Some(row), Some(col)) => {
                let square = Square::new(row, col);
                if board.contains(square) {
                    Ok(Some(square))
                } else {
                    Err(format!("the square {square} is not on {board}"))
                }
            }
            _ => Err(format!("{} and {} are not both given", name(r), name(c))),
        }
    };
    let (start, end) = (square(4, 5)?, square(12, 13)?);
    match (kind, start, end) {
        (AnswerKind::Between, Some(start), Some(end)) if start != end => {}
        (AnswerKind::Between, ..) => {
            return Err("a pair's row needs a start and another square as its end".into());
        }
        (_, _, Some(_)) => return Err(format!("a row of kind {kind} has an end square")),
        _ => {}
    }
    let count = text(6)?;
    let canonical = !count.is_empty()
        && count.bytes().all(|b| b.is_ascii_digit())
        && (count == "0" || !count.starts_with('0'));
    if !canonical {
        return Err(format!(
            "the count '{}' is not a whole number in decimal digits",
            echo(count)
        ));
    }
    let count: BigUint = count
        .parse()
        .map_err(|_| "the count is not a whole number".to_string())?;
    let seconds = match values[9] {
        Value::Real(x) => x,
        Value::Integer(n) => n as f64,
        _ => return Err("seconds is not a number".into()),
    };
    if seconds.is_nan() || seconds < 0.0 {
        return Err(format!("seconds is {seconds}, below 0"));
    }
    let source = text(11)?;
    if source.is_empty() {
        return Err("the source is empty".into());
    }
    Ok(Answer {
        question: Question {
            board,
            kind: kind.tour_kind(),
            start,
            end,
        },
        count,
        engine: EngineName::parse(text(7)?),
        version: text(8)?.to_string(),
        seconds,
        computed_at: Some(text(10)?.to_string()),
        source: source.to_string(),
    })
}
