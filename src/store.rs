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

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use num_bigint::BigUint;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};

use crate::board::{Board, Square};
use crate::question::{Question, TourKind};

/// `PRAGMA application_id` of a knights answer store ("KnTr").
pub const APPLICATION_ID: i32 = 0x4B6E_5472;

/// How long a write waits for another process's transaction before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(120);

/// One schema migration: a file of `migrations/`.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    /// The `user_version` the database has once this migration is applied.
    pub version: i64,
    /// The file name under `migrations/`.
    pub name: &'static str,
    /// The SQL.
    pub sql: &'static str,
}

/// Every migration, in order. Each file of `migrations/` must be listed here (a test checks).
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "0001_answers.sql",
        sql: include_str!("../migrations/0001_answers.sql"),
    },
    Migration {
        version: 2,
        name: "0002_closed_tours.sql",
        sql: include_str!("../migrations/0002_closed_tours.sql"),
    },
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// What can go wrong with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database's directory does not exist.
    #[error("cannot use {path}: the directory {dir} does not exist")]
    MissingDirectory {
        /// The database path.
        path: String,
        /// Its directory.
        dir: String,
    },
    /// The file cannot be opened or created.
    #[error("cannot open or create the database {path}: {reason}")]
    CannotOpen {
        /// The database path.
        path: String,
        /// Why.
        reason: String,
    },
    /// The file is not an SQLite database.
    #[error("{path} is not an SQLite database; it was left untouched")]
    NotADatabase {
        /// The database path.
        path: String,
    },
    /// The file is an SQLite database of some other program.
    #[error(
        "{path} is an SQLite database but not a knights answer store ({detail}); it was left untouched"
    )]
    Foreign {
        /// The database path.
        path: String,
        /// What gave it away.
        detail: String,
    },
    /// The file was written by a newer schema than this build knows.
    #[error(
        "{path} was written by a newer knights (schema version {found}; this one knows up to {known}); it was left untouched"
    )]
    NewerSchema {
        /// The database path.
        path: String,
        /// Its schema version.
        found: i64,
        /// The newest version this build knows.
        known: i64,
    },
    /// The file is damaged (truncated, corrupt).
    #[error("{path} is damaged ({detail}); it was left untouched")]
    Damaged {
        /// The database path.
        path: String,
        /// What is wrong.
        detail: String,
    },
    /// Any other SQLite failure.
    #[error("{path}: {context}: {source}")]
    Sqlite {
        /// The database path.
        path: String,
        /// What was being done.
        context: &'static str,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// A stored count differs from a new answer to the same question.
    #[error("conflicting answers for {question}: the store has {stored}, the new answer is {new}")]
    Conflict {
        /// The question.
        question: String,
        /// The stored count.
        stored: String,
        /// The new count.
        new: String,
    },
}

/// An answer with its provenance, as kept in the store.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The canonical question.
    pub question: Question,
    /// The exact count.
    pub count: BigUint,
    /// The engine that computed it (`memo`, `reference`, or `theorem` for a zero that an
    /// existence theorem decides).
    pub engine: String,
    /// The knights version that computed it.
    pub version: String,
    /// Seconds of computation.
    pub seconds: f64,
    /// When it was computed (UTC, ISO 8601); `None` for "now" when saving.
    pub computed_at: Option<String>,
}

impl Answer {
    /// A freshly computed answer, stamped with this build's version (seconds are kept to the
    /// microsecond).
    pub fn computed(
        question: Question,
        count: impl Into<BigUint>,
        engine: &str,
        seconds: f64,
    ) -> Self {
        Answer {
            question,
            count: count.into(),
            engine: engine.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            seconds: (seconds * 1e6).round() / 1e6,
            computed_at: None,
        }
    }
}

/// Which stored answers to list.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnswerFilter {
    /// Only this board (either orientation).
    pub board: Option<Board>,
    /// Only this kind.
    pub kind: Option<TourKind>,
    /// Only boards of at least this many squares.
    pub min_squares: Option<u64>,
    /// Only boards of at most this many squares.
    pub max_squares: Option<u64>,
}

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Answers that were new.
    pub added: usize,
    /// Answers the store already had, with the same count.
    pub already_stored: usize,
}

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

    /// Identifies the file, then sets the journal mode and brings the schema up to date.
    fn prepare(&mut self) -> Result<(), StoreError> {
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| self.error("setting the busy timeout", e))?;
        let version = self.identify()?;
        if version < SCHEMA_VERSION {
            // Changing the journal mode needs the file to itself, and SQLite reports a busy file
            // at once instead of waiting: wait here, as the busy timeout would.
            let mode: String = retry_while_busy(|| {
                self.conn
                    .pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))
            })
            .map_err(|e| self.error("switching to the WAL journal", e))?;
            if mode != "wal" && mode != "memory" {
                return Err(StoreError::CannotOpen {
                    path: self.path.clone(),
                    reason: format!("the WAL journal is not available here (journal mode {mode})"),
                });
            }
            self.migrate()?;
        }
        self.conn
            .pragma_update(None, "foreign_keys", true)
            .map_err(|e| self.error("enabling foreign keys", e))?;
        Ok(())
    }

    /// Reads the file's identity without writing: returns its schema version (0 for a new,
    /// empty database) or the reason it must not be touched.
    fn identify(&self) -> Result<i64, StoreError> {
        // One read transaction, so that the three readings come from the same moment even
        // while another process creates the schema.
        let snapshot = self
            .conn
            .unchecked_transaction()
            .map_err(|e| self.error("reading the file", e))?;
        let application_id: i32 = snapshot
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .map_err(|e| self.error("reading the file", e))?;
        let version: i64 = snapshot
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.error("reading the schema version", e))?;
        let objects: Vec<String> = snapshot
            .prepare("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
            .and_then(|mut stmt| {
                stmt.query_map([], |row| row.get(0))?
                    .collect::<Result<Vec<String>, _>>()
            })
            .map_err(|e| self.error("reading the schema", e))?;
        if application_id == APPLICATION_ID {
            if version > SCHEMA_VERSION {
                return Err(StoreError::NewerSchema {
                    path: self.path.clone(),
                    found: version,
                    known: SCHEMA_VERSION,
                });
            }
            return Ok(version);
        }
        if application_id == 0 && version == 0 && objects.is_empty() {
            return Ok(0);
        }
        let detail = if application_id != 0 {
            format!("its application id is {application_id:#x}")
        } else if objects.is_empty() {
            format!("its schema version is {version}")
        } else {
            format!("it holds {}", objects.join(", "))
        };
        Err(StoreError::Foreign {
            path: self.path.clone(),
            detail,
        })
    }

    /// Applies the pending migrations in one transaction.
    fn migrate(&mut self) -> Result<(), StoreError> {
        let path = self.path.clone();
        let fail = |context, e| classify(&path, context, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| fail("starting the schema update", e))?;
        // Another process may have created the schema while this one waited for the lock.
        let version: i64 = tx
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| fail("reading the schema version", e))?;
        for migration in MIGRATIONS.iter().filter(|m| m.version > version) {
            tx.execute_batch(migration.sql)
                .map_err(|e| fail("applying a schema migration", e))?;
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)
            .and_then(|()| tx.pragma_update(None, "application_id", APPLICATION_ID))
            .map_err(|e| fail("recording the schema version", e))?;
        tx.commit().map_err(|e| fail("committing the schema", e))
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
                    "SELECT count, engine, version, seconds, computed_at FROM answers WHERE ",
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
                        ))
                    })
                    .optional()
                    .map_err(|e| self.error("looking up an answer", e))?;
                if let Some((count, engine, version, seconds, computed_at)) = hit {
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
                        (rows, cols, kind, row, col, count, engine, version, seconds, computed_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                             coalesce(?10, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))
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
                "SELECT rows, cols, kind, row, col, count, engine, version, seconds, computed_at
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
                    ))
                },
            )
            .map_err(|e| self.error("listing answers", e))?;
        let mut answers = Vec::new();
        for row in rows {
            let (rows, cols, kind, row, col, count, engine, version, seconds, computed_at) =
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

/// Runs `operation` again while another connection keeps the database busy, for up to
/// [`BUSY_TIMEOUT`].
fn retry_while_busy<T>(mut operation: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        match operation() {
            Err(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
                ) && started.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            other => return other,
        }
    }
}

/// Turns an SQLite failure into a store error, recognising files that are not databases and
/// damaged ones.
fn classify(path: &str, context: &'static str, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::NotADatabase { path: path.into() },
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Damaged {
            path: path.into(),
            detail: e.to_string(),
        },
        Some(ErrorCode::ReadOnly)
        | Some(ErrorCode::CannotOpen)
        | Some(ErrorCode::PermissionDenied) => StoreError::CannotOpen {
            path: path.into(),
            reason: format!("{context}: {e} (is the file or its directory read-only?)"),
        },
        _ => StoreError::Sqlite {
            path: path.into(),
            context,
            source: e,
        },
    }
}

fn check_directory(path: &Path, shown: &str) -> Result<(), StoreError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(StoreError::CannotOpen {
            path: shown.into(),
            reason: format!("{} is not a directory", dir.display()),
        }),
        Err(_) => Err(StoreError::MissingDirectory {
            path: shown.into(),
            dir: dir.display().to_string(),
        }),
    }
}

/// Looks at the file's first bytes before SQLite does: not SQLite at all, or shorter than its
/// header says (truncated), is reported without opening it.
fn inspect_file(path: &Path, shown: &str) -> Result<(), StoreError> {
    // Another process may be creating the file or checkpointing into it: a doubtful reading is
    // taken again a few times before it is believed.
    let mut verdict = Ok(());
    for attempt in 0..5 {
        if attempt > 0 {
            std::thread::sleep(Duration::from_millis(100));
        }
        verdict = read_header(path, shown);
        if verdict.is_ok() {
            return Ok(());
        }
    }
    verdict
}

fn read_header(path: &Path, shown: &str) -> Result<(), StoreError> {
    let mut file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(StoreError::CannotOpen {
                path: shown.into(),
                reason: e.to_string(),
            });
        }
    };
    let meta = file.metadata().map_err(|e| StoreError::CannotOpen {
        path: shown.into(),
        reason: e.to_string(),
    })?;
    if meta.is_dir() {
        return Err(StoreError::CannotOpen {
            path: shown.into(),
            reason: "it is a directory".into(),
        });
    }
    let len = meta.len();
    if len == 0 {
        return Ok(());
    }
    let mut header = [0u8; 100];
    let read = file.read(&mut header).unwrap_or(0);
    if read < 16 || &header[..16] != b"SQLite format 3\0" {
        return Err(StoreError::NotADatabase { path: shown.into() });
    }
    if read < 100 || len < 100 {
        return Err(StoreError::Damaged {
            path: shown.into(),
            detail: format!("the file is only {len} bytes long"),
        });
    }
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65536u64,
        n => n as u64,
    };
    let change_counter = &header[24..28];
    let valid_for = &header[92..96];
    let pages = u32::from_be_bytes([header[28], header[29], header[30], header[31]]) as u64;
    if page_size < 512 || !page_size.is_power_of_two() {
        return Err(StoreError::Damaged {
            path: shown.into(),
            detail: format!("its header gives an impossible page size of {page_size}"),
        });
    }
    if len % page_size != 0 || (change_counter == valid_for && pages * page_size > len) {
        return Err(StoreError::Damaged {
            path: shown.into(),
            detail: format!(
                "the file is {len} bytes, but its header says {pages} pages of {page_size} bytes: truncated?"
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_migration_file_is_listed() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut files: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".sql"))
            .collect();
        files.sort();
        let listed: Vec<&str> = MIGRATIONS.iter().map(|m| m.name).collect();
        assert_eq!(files, listed);
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1);
            assert!(m.name.starts_with(&format!("{:04}_", m.version)));
        }
    }

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
}
