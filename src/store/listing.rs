//! Listings as streams: the rows of a listing handed over one at a time, and in pages that
//! resume after a cursor, so that neither `knights query`/`export` nor `/api/answers` holds a
//! store of millions of answers in memory.

use std::fmt;
use std::str::FromStr;

use rusqlite::params;
use rusqlite::types::Value;

use super::rows::{LISTED, read_row};
use super::{Answer, AnswerFilter, BadRow, Store, StoreError};

/// Where a page of a listing resumes: just after the row with this key, in the listing's order
/// (board size, board, kind, start, end, rowid). Written as text for a client to send back
/// (`6x6.open.0.1._._.42`, `_` for a square the row has not); a row added or removed between
/// two pages moves no other row's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListCursor {
    rows: i64,
    cols: i64,
    kind: String,
    start: (i64, i64),
    end: (i64, i64),
    rowid: i64,
}

/// One page of a listing: at most `limit` rows, after `after` (from the first row without).
#[derive(Clone, Debug, Default)]
pub struct PageSpec {
    /// Resume after this row.
    pub after: Option<ListCursor>,
    /// At most this many rows.
    pub limit: Option<u64>,
}

/// One row of a listing, as [`Store::each_row`] hands it over.
#[derive(Debug)]
pub struct Listed {
    /// The answer, or the rule the row breaks.
    pub row: Result<Answer, BadRow>,
    /// Where the next page resumes if this row ends a page; `None` for a row whose key is not
    /// of the schema's types (only a planted row).
    pub cursor: Option<ListCursor>,
}

impl fmt::Display for ListCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |n: i64| {
            if n < 0 {
                "_".to_string()
            } else {
                n.to_string()
            }
        };
        write!(
            f,
            "{}x{}.{}.{}.{}.{}.{}.{}",
            self.rows,
            self.cols,
            self.kind,
            part(self.start.0),
            part(self.start.1),
            part(self.end.0),
            part(self.end.1),
            self.rowid
        )
    }
}

/// A cursor that is not one a listing gave.
#[derive(Debug, thiserror::Error)]
#[error("not a cursor of a listing (as in `6x6.open.0.1._._.42`)")]
pub struct BadCursor;

impl FromStr for ListCursor {
    type Err = BadCursor;

    fn from_str(text: &str) -> Result<Self, BadCursor> {
        let parts: Vec<&str> = text.split('.').collect();
        let [board, kind, row, col, to_row, to_col, rowid] = parts[..] else {
            return Err(BadCursor);
        };
        let whole = |part: &str| -> Result<i64, BadCursor> {
            if part.is_empty() || part.len() > 18 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(BadCursor);
            }
            part.parse().map_err(|_| BadCursor)
        };
        let square_part = |part: &str| if part == "_" { Ok(-1) } else { whole(part) };
        let (rows, cols) = board.split_once('x').ok_or(BadCursor)?;
        if kind.is_empty() || kind.len() > 16 || !kind.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(BadCursor);
        }
        Ok(ListCursor {
            rows: whole(rows)?,
            cols: whole(cols)?,
            kind: kind.to_string(),
            start: (square_part(row)?, square_part(col)?),
            end: (square_part(to_row)?, square_part(to_col)?),
            rowid: whole(rowid)?,
        })
    }
}

/// The key of a listed row (the values of [`LISTED`]), if it has the schema's types.
fn cursor_of(values: &[Value]) -> Option<ListCursor> {
    let int = |i: usize| match values[i] {
        Value::Integer(n) => Some(n),
        _ => None,
    };
    let square = |i: usize| match values[i] {
        Value::Null => Some(-1),
        Value::Integer(n) if n >= 0 => Some(n),
        _ => None,
    };
    let Value::Text(kind) = &values[3] else {
        return None;
    };
    Some(ListCursor {
        rowid: int(0)?,
        rows: int(1)?,
        cols: int(2)?,
        kind: kind.clone(),
        start: (square(4)?, square(5)?),
        end: (square(12)?, square(13)?),
    })
}

/// A filter that no board can pass.
#[derive(Debug, thiserror::Error)]
#[error("no board has at least {min} and at most {max} squares")]
pub struct EmptyFilter {
    /// The least number of squares asked for.
    pub min: u64,
    /// The most.
    pub max: u64,
}

impl AnswerFilter {
    /// Refuses a filter whose sizes leave no board (`min_squares` past `max_squares`): an
    /// empty listing would look like an empty store.
    pub fn check(&self) -> Result<(), EmptyFilter> {
        match (self.min_squares, self.max_squares) {
            (Some(min), Some(max)) if min > max => Err(EmptyFilter { min, max }),
            _ => Ok(()),
        }
    }
}

impl Store {
    /// The rows that pass `filter`, in the order of [`Store::list`], one at a time: `each`
    /// gets every row (an answer, or a [`BadRow`] set aside) as SQLite reads it, and nothing
    /// of the listing is kept here, so memory stays that of one row whatever the store holds.
    /// `page` resumes after a cursor and stops after a number of rows. The first error,
    /// SQLite's or `each`'s, stops the listing.
    pub fn each_row<E: From<StoreError>>(
        &self,
        filter: &AnswerFilter,
        page: &PageSpec,
        mut each: impl FnMut(Listed) -> Result<(), E>,
    ) -> Result<(), E> {
        let board = filter.board.map(|b| b.canonical());
        // The order's key as a row value, compared with the cursor's (SQLite 3.15's row values).
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {LISTED}
                 FROM answers
                 WHERE (?1 IS NULL OR (rows = ?1 AND cols = ?2))
                   AND (?3 IS NULL OR kind = ?3)
                   AND (?4 IS NULL OR rows * cols >= ?4)
                   AND (?5 IS NULL OR rows * cols <= ?5)
                   AND (?6 IS NULL OR
                        (rows * cols, rows, cols, kind, coalesce(row, -1), coalesce(col, -1),
                         coalesce(to_row, -1), coalesce(to_col, -1), rowid)
                        > (?6 * ?7, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13))
                 ORDER BY rows * cols, rows, cols, kind, coalesce(row, -1), coalesce(col, -1),
                          coalesce(to_row, -1), coalesce(to_col, -1), rowid
                 LIMIT ?14"
            ))
            .map_err(|e| self.error("preparing a listing", e))?;
        let after = page.after.as_ref();
        let columns = stmt.column_count();
        let mut rows = stmt
            .query(params![
                board.map(|b| b.rows()),
                board.map(|b| b.cols()),
                filter.kind.map(|k| k.name()),
                filter.min_squares.map(|n| n.min(i64::MAX as u64) as i64),
                filter.max_squares.map(|n| n.min(i64::MAX as u64) as i64),
                after.map(|c| c.rows),
                after.map(|c| c.cols),
                after.map(|c| c.kind.as_str()),
                after.map(|c| c.start.0),
                after.map(|c| c.start.1),
                after.map(|c| c.end.0),
                after.map(|c| c.end.1),
                after.map(|c| c.rowid),
                // A negative LIMIT is none.
                page.limit.map_or(-1, |n| n.min(i64::MAX as u64) as i64),
            ])
            .map_err(|e| self.error("listing answers", e))?;
        loop {
            let Some(row) = rows.next().map_err(|e| self.error("listing answers", e))? else {
                return Ok(());
            };
            let values = (0..columns)
                .map(|i| row.get::<_, Value>(i))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.error("listing answers", e))?;
            each(Listed {
                cursor: cursor_of(&values),
                row: read_row(&values),
            })?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_written_and_nothing_else_reads() {
        for text in ["6x6.open.0.1._._.42", "5x8.between.0.0.4.7.9"] {
            let cursor: ListCursor = text.parse().unwrap();
            assert_eq!(cursor.to_string(), text);
        }
        for text in [
            "",
            "6x6",
            "6x6.open.0.1._._",
            "6x6.open.0.1._._.42.1",
            "6x6.OPEN.0.1._._.42",
            "6x6.open.-1.1._._.42",
            "6x6.open.0.1._._.99999999999999999999",
            "6y6.open.0.1._._.42",
        ] {
            assert!(text.parse::<ListCursor>().is_err(), "{text}");
        }
    }
}
