//! The answer store: every finished count, kept in an SQLite file.
//!
//! * One row per canonical [`Question`], with the exact count as decimal text (in a STRICT
//!   table) and how it was computed: engine, version, seconds, time.
//! * The schema is the SQL files of `migrations/`, applied in order inside one transaction and
//!   tracked with `PRAGMA user_version`; `PRAGMA application_id` marks the file as ours.
//! * WAL journal and a busy timeout, so that several `knights` processes can fill one file at
//!   once; every write is a short `BEGIN IMMEDIATE` transaction.
//! * A file that is not SQLite, an SQLite file of another program, a damaged or truncated file
//!   and a file from a newer schema are reported and never written to.
//!
//! This file holds [`Store`] and its queries; `answer.rs` the records that leave the store (no
//! SQLite in them), `schema.rs` the migrations and their runner, `file.rs` the checks made
//! before SQLite opens a file, and `error.rs` [`StoreError`]. The store returns only its own
//! errors: callers turn them into theirs.

mod answer;
mod error;
mod file;
mod integrity;
mod schema;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use num_bigint::BigUint;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

use crate::board::{Board, Square};
use crate::question::{Question, TourKind};

pub use answer::{ANSWER_COLUMNS, Answer, AnswerFilter, COMPUTED, ImportReport, SUM, UNRECORDED};
pub use error::StoreError;
use error::classify;
pub use file::BUSY_TIMEOUT;
use file::{check_directory, inspect_file};
pub use schema::{APPLICATION_ID, MIGRATIONS, Migration, SCHEMA_VERSION};

/// An open answer store.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: String,
}

/// The answer store's location when neither `--db` nor `$KNIGHTS_DB` says: `knights/answers.db`
/// in the user's data directory (`$XDG_DATA_HOME`, else `~/.local/share` on Linux).
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|dir| dir.join("knights").join("answers.db"))
}

impl Store {
    /// Opens (or creates) the store at `path`, checking that the file is a knights store of a
    /// schema this build knows before anything is written to it.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let shown = path.display().to_string();
        check_directory(path, &shown)?;
        inspect_file(path, &shown)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn =
            Connection::open_with_flags(path, flags).map_err(|e| StoreError::CannotOpen {
                path: shown.clone(),
                reason: e.to_string(),
            })?;
        let mut store = Store { conn, path: shown };
        store.prepare()?;
        Ok(store)
    }

    /// A store held in memory only (for tests and `--no-cache`-like uses).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory().map_err(|e| StoreError::CannotOpen {
            path: ":memory:".into(),
            reason: e.to_string(),
        })?;
        let mut store = Store {
            conn,
            path: ":memory:".into(),
        };
        store.prepare()?;
        Ok(store)
    }

    /// The path the store was opened from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        self.conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.error("reading the schema version", e))
    }

    fn error(&self, context: &'static str, e: rusqlite::Error) -> StoreError {
        classify(&self.path, context, e)
    }

    /// The stored answers to `questions` (those that have one).
    pub fn lookup<'q>(
        &self,
        questions: impl IntoIterator<Item = &'q Question>,
    ) -> Result<HashMap<Question, Answer>, StoreError> {
        let tx = self
            .conn
            .unchecked_transaction()
            .map_err(|e| self.error("starting a read", e))?;
        let mut found = HashMap::new();
        {
            let mut stmt = tx
                .prepare_cached(concat!(
                    "SELECT count, engine, version, seconds, computed_at, source FROM answers WHERE ",
                    question_key_sql!()
                ))
                .map_err(|e| self.error("preparing a look-up", e))?;
            for question in questions {
                let hit = stmt
                    .query_row(question_key(question), |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, f64>(3)?,
                            r.get::<_, String>(4)?,
                            r.get::<_, String>(5)?,
                        ))
                    })
                    .optional()
                    .map_err(|e| self.error("looking up an answer", e))?;
                if let Some((count, engine, version, seconds, computed_at, source)) = hit {
                    let count = self.parse_count(&count)?;
                    found.insert(
                        *question,
                        Answer {
                            question: *question,
                            count,
                            engine,
                            version,
                            seconds,
                            computed_at: Some(computed_at),
                            source,
                        },
                    );
                }
            }
        }
        tx.finish().map_err(|e| self.error("ending a read", e))?;
        Ok(found)
    }

    fn parse_count(&self, text: &str) -> Result<BigUint, StoreError> {
        text.parse().map_err(|_| StoreError::Damaged {
            path: self.path.clone(),
            detail: format!("a stored count '{text}' is not a whole number"),
        })
    }

    /// Saves computed answers in one transaction. An answer the store already has is left as it
    /// is if the counts agree, and is an error (nothing saved) if they differ. Returns how many
    /// answers were new.
    pub fn save(&mut self, answers: &[Answer]) -> Result<usize, StoreError> {
        let numbered: Vec<(usize, &Answer)> = answers.iter().enumerate().collect();
        self.insert_all(&numbered).map(|report| report.added)
    }

    /// Adds imported answers in one transaction, all or nothing: a conflict with a stored count
    /// ([`StoreError::Conflict`]) names the answer's line and nothing is written.
    pub fn import(&mut self, answers: &[(usize, Answer)]) -> Result<ImportReport, StoreError> {
        let numbered: Vec<(usize, &Answer)> = answers.iter().map(|(line, a)| (*line, a)).collect();
        self.insert_all(&numbered)
    }

    fn insert_all(&mut self, answers: &[(usize, &Answer)]) -> Result<ImportReport, StoreError> {
        let path = self.path.clone();
        let fail = |context, e| classify(&path, context, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| fail("starting a write", e))?;
        let mut report = ImportReport::default();
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO answers
                        (rows, cols, kind, row, col, count, engine, version, seconds, computed_at,
                         source)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                             coalesce(?10, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?11)
                     ON CONFLICT DO NOTHING",
                )
                .map_err(|e| fail("preparing a write", e))?;
            let mut existing = tx
                .prepare_cached(concat!(
                    "SELECT count FROM answers WHERE ",
                    question_key_sql!()
                ))
                .map_err(|e| fail("preparing a write", e))?;
            for &(line, answer) in answers {
                let q = answer.question;
                let (row, col) = start_columns(q.start);
                let count = answer.count.to_string();
                let changed = insert
                    .execute(params![
                        q.board.rows(),
                        q.board.cols(),
                        q.kind.name(),
                        row,
                        col,
                        count,
                        answer.engine,
                        answer.version,
                        answer.seconds,
                        answer.computed_at,
                        answer.source,
                    ])
                    .map_err(|e| fail("saving an answer", e))?;
                if changed == 1 {
                    report.added += 1;
                    continue;
                }
                let stored: String = existing
                    .query_row(question_key(&q), |r| r.get(0))
                    .map_err(|e| fail("checking a stored answer", e))?;
                if stored != count {
                    let place = if answers.len() > 1 && line > 0 {
                        format!("line {line}: {q}")
                    } else {
                        q.to_string()
                    };
                    return Err(StoreError::Conflict {
                        question: place,
                        stored,
                        new: count,
                    });
                }
                report.already_stored += 1;
            }
        }
        tx.commit().map_err(|e| fail("committing answers", e))?;
        Ok(report)
    }

    /// The stored answers that pass `filter`, ordered by board size, board, kind, then board
    /// totals before starts in row-major order.
    pub fn list(&self, filter: &AnswerFilter) -> Result<Vec<Answer>, StoreError> {
        let board = filter.board.map(|b| b.canonical());
        let mut stmt = self
            .conn
            .prepare(
                "SELECT rows, cols, kind, row, col, count, engine, version, seconds, computed_at,
                        source
                 FROM answers
                 WHERE (?1 IS NULL OR (rows = ?1 AND cols = ?2))
                   AND (?3 IS NULL OR kind = ?3)
                   AND (?4 IS NULL OR rows * cols >= ?4)
                   AND (?5 IS NULL OR rows * cols <= ?5)
                 ORDER BY rows * cols, rows, cols, kind, coalesce(row, -1), coalesce(col, -1)",
            )
            .map_err(|e| self.error("preparing a listing", e))?;
        let rows = stmt
            .query_map(
                params![
                    board.map(|b| b.rows()),
                    board.map(|b| b.cols()),
                    filter.kind.map(|k| k.name()),
                    filter.min_squares.map(|n| n.min(i64::MAX as u64) as i64),
                    filter.max_squares.map(|n| n.min(i64::MAX as u64) as i64),
                ],
                |r| {
                    Ok((
                        r.get::<_, u32>(0)?,
                        r.get::<_, u32>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, Option<u32>>(3)?,
                        r.get::<_, Option<u32>>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, String>(7)?,
                        r.get::<_, f64>(8)?,
                        r.get::<_, String>(9)?,
                        r.get::<_, String>(10)?,
                    ))
                },
            )
            .map_err(|e| self.error("listing answers", e))?;
        let mut answers = Vec::new();
        for row in rows {
            let (rows, cols, kind, row, col, count, engine, version, seconds, computed_at, source) =
                row.map_err(|e| self.error("listing answers", e))?;
            let damaged = |detail: String| StoreError::Damaged {
                path: self.path.clone(),
                detail,
            };
            let board = Board::new(rows, cols).map_err(|e| damaged(e.to_string()))?;
            let kind: TourKind = kind.parse().map_err(damaged)?;
            let start = match (row, col) {
                (Some(row), Some(col)) => Some(Square::new(row, col)),
                _ => None,
            };
            answers.push(Answer {
                question: Question { board, kind, start },
                count: self.parse_count(&count)?,
                engine,
                version,
                seconds,
                computed_at: Some(computed_at),
                source,
            });
        }
        Ok(answers)
    }
}

/// The `WHERE` clause that finds one question's row (it matches the unique index), with the
/// parameters of [`question_key`].
macro_rules! question_key_sql {
    () => {
        "rows = ?1 AND cols = ?2 AND kind = ?3 AND coalesce(row, -1) = ?4 AND coalesce(col, -1) = ?5"
    };
}
use question_key_sql;

/// The parameters of [`question_key_sql`]: a board total has row and column -1.
fn question_key(q: &Question) -> (u32, u32, &'static str, i64, i64) {
    let (row, col) = start_columns(q.start);
    (
        q.board.rows(),
        q.board.cols(),
        q.kind.name(),
        row.unwrap_or(-1),
        col.unwrap_or(-1),
    )
}

fn start_columns(start: Option<Square>) -> (Option<i64>, Option<i64>) {
    match start {
        Some(square) => (Some(square.row as i64), Some(square.col as i64)),
        None => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_finds_answers() {
        let mut store = Store::open_in_memory().unwrap();
        let board = Board::new(5, 4).unwrap();
        let q = Question::from_start(board, Square::new(0, 0), TourKind::Open);
        let total = Question::total(board, TourKind::Open);
        let big: BigUint = "123456789012345678901234567890123456789012345678901234567890"
            .parse()
            .unwrap();
        assert_eq!(
            store
                .save(&[
                    Answer::computed(q, 32u32, "memo", 0.01),
                    Answer::computed(total, big.clone(), "memo", 0.5)
                ])
                .unwrap(),
            2
        );
        let found = store.lookup([&q, &total]).unwrap();
        assert_eq!(found[&q].count, BigUint::from(32u32));
        assert_eq!(found[&total].count, big);
        assert!(found[&q].computed_at.as_deref().unwrap().ends_with('Z'));
        // The same answer again is no change; a different count is refused.
        assert_eq!(
            store
                .save(&[Answer::computed(q, 32u32, "memo", 0.0)])
                .unwrap(),
            0
        );
        assert!(matches!(
            store.save(&[Answer::computed(q, 33u32, "memo", 0.0)]),
            Err(StoreError::Conflict { .. })
        ));
        assert_eq!(store.list(&AnswerFilter::default()).unwrap().len(), 2);
    }

    #[test]
    fn answer_columns_are_the_table_columns() {
        let store = Store::open_in_memory().unwrap();
        let columns: Vec<String> = store
            .conn
            .prepare("SELECT name FROM pragma_table_info('answers') ORDER BY cid")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(columns, ANSWER_COLUMNS);
    }
}
