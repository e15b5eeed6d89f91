//! The answer store: every finished count, kept in an SQLite file.
//!
//! * One row per canonical [`Question`], with the exact count as decimal text (in a STRICT
//!   table) and how it was computed: engine, version, seconds, time.
//! * The schema is the SQL files of `migrations/`, applied in order inside one transaction and
//!   tracked with `PRAGMA user_version`; `PRAGMA application_id` marks the file as ours.
//! * WAL journal and a busy timeout, so that several `knights` processes can fill one file at
//!   once; every write is a short `BEGIN IMMEDIATE` transaction.
//! * A path that is not a regular file, a file that is not SQLite, an SQLite file of another
//!   program, a knights store whose schema is not the one its version gives, a damaged or
//!   truncated file and a file from a newer schema are reported and never written to: the file
//!   is identified and its schema checked, reading only, before anything is written.
//! * A store this process cannot write (a read-only file, directory or mount) is opened for
//!   reading: it answers what it has, and [`Store::save`] counts what it could not keep.
//!
//! This file holds [`Store`] and its queries; `answer.rs` the records that leave the store (no
//! SQLite in them), `schema.rs` the migrations and their runner, `file.rs` the checks made
//! before SQLite opens a file, and `error.rs` [`StoreError`]. The store returns only its own
//! errors: callers turn them into theirs.

mod answer;
mod counts;
mod error;
mod file;
mod integrity;
mod listing;
mod rows;
mod schema;

use std::collections::HashMap;
#[cfg(unix)]
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use num_bigint::BigUint;
use rusqlite::{Connection, MAIN_DB, OpenFlags, OptionalExtension, TransactionBehavior, params};

use crate::board::{Board, Square};
use crate::question::Question;

pub use answer::{
    ANSWER_COLUMNS, Answer, AnswerFilter, COMPUTED, EngineName, ImportReport, SUM, THEOREM,
    UNRECORDED,
};
pub use error::StoreError;
use error::classify;
pub use file::BUSY_TIMEOUT;
use file::{can_write, check_directory, check_kind, inspect_file};
pub use listing::{BadCursor, EmptyFilter, ListCursor, Listed, PageSpec};
pub use rows::{BadRow, Listing};
pub use schema::{APPLICATION_ID, MIGRATIONS, Migration, SCHEMA_VERSION};

/// An open answer store.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: String,
    /// Opened for reading only: this process cannot write the store.
    read_only: bool,
    /// Read only because the disk that holds it is full.
    disk_full: bool,
    /// Answers given to [`Store::save`] that a read-only store did not keep.
    unsaved: usize,
}

/// The answer store's location when neither `--db` nor `$KNIGHTS_DB` says: `knights/answers.db`
/// in the user's data directory (`$XDG_DATA_HOME`, else `~/.local/share` on Linux).
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|dir| dir.join("knights").join("answers.db"))
}

impl Store {
    /// Opens (or creates) the store at `path`, checking that the file is a knights store of a
    /// schema this build knows before anything is written to it.
    ///
    /// A store this process cannot write (the file, or the directory where SQLite keeps its
    /// `-wal` and `-shm` files) is opened for reading only, if its schema is up to date: see
    /// [`Store::is_read_only`].
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let shown = path.display().to_string();
        check_directory(path, &shown)?;
        let exists = check_kind(path, &shown)?;
        inspect_file(path, &shown)?;
        let cannot_open = |e: rusqlite::Error| StoreError::CannotOpen {
            path: shown.clone(),
            reason: e.to_string(),
        };
        let conn = if can_write(path, exists) {
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            Connection::open_with_flags(path, flags).map_err(cannot_open)?
        } else if exists {
            open_read_only(path).map_err(cannot_open)?
        } else {
            return Err(StoreError::CannotOpen {
                path: shown,
                reason: "its directory is not writable".into(),
            });
        };
        let read_only = conn.is_readonly(MAIN_DB).map_err(cannot_open)?;
        let mut store = Store {
            conn,
            path: shown,
            read_only,
            disk_full: false,
            unsaved: 0,
        };
        match store.prepare() {
            Ok(()) => Ok(store),
            // With no room for the files SQLite keeps beside a store (its shared memory), even
            // a read fails: on a full disk, the store is read as it is, and says why.
            Err(_) if exists && file::disk_is_full(path) => {
                let shown = std::mem::take(&mut store.path);
                drop(store);
                let conn = open_read_only(path).map_err(|e| StoreError::CannotOpen {
                    path: shown.clone(),
                    reason: e.to_string(),
                })?;
                let mut store = Store {
                    conn,
                    path: shown,
                    read_only: true,
                    disk_full: true,
                    unsaved: 0,
                };
                store.prepare()?;
                Ok(store)
            }
            Err(e) => Err(e),
        }
    }

    /// Opens an existing store for reading only, whether or not this process could write it
    /// (to merge other processes' stores, say): [`Store::save`] keeps nothing and
    /// [`Store::import`] is refused. The same checks as [`Store::open`] are made first; a
    /// path where no file is is refused, never created.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let shown = path.display().to_string();
        check_directory(path, &shown)?;
        if !check_kind(path, &shown)? {
            return Err(StoreError::CannotOpen {
                path: shown,
                reason: "there is no such file".into(),
            });
        }
        inspect_file(path, &shown)?;
        // Opened to be read (a worker's store), not because it cannot be written: an empty
        // file is no store, whatever this process may write.
        if std::fs::metadata(path).is_ok_and(|meta| meta.len() == 0) {
            return Err(StoreError::Empty { path: shown });
        }
        let conn = open_read_only(path).map_err(|e| StoreError::CannotOpen {
            path: shown.clone(),
            reason: e.to_string(),
        })?;
        let mut store = Store {
            conn,
            path: shown,
            read_only: true,
            disk_full: false,
            unsaved: 0,
        };
        store.prepare()?;
        Ok(store)
    }

    /// A store held in memory only (for tests and `--no-cache`-like uses).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::in_memory_as(":memory:")
    }

    /// A new, empty store held in memory that names itself `path` in its messages: what a
    /// store not yet created at `path` would be, to try a change before the file exists (a
    /// refused change then leaves no file behind).
    pub fn in_memory_as(path: &str) -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory().map_err(|e| StoreError::CannotOpen {
            path: path.into(),
            reason: e.to_string(),
        })?;
        let mut store = Store {
            conn,
            path: path.into(),
            read_only: false,
            disk_full: false,
            unsaved: 0,
        };
        store.prepare()?;
        Ok(store)
    }

    /// The path the store was opened from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// True when the store was opened for reading only, because this process cannot write it
    /// (a read-only file, directory or mount): it answers [`Store::lookup`] and
    /// [`Store::list`], [`Store::save`] keeps nothing (see [`Store::unsaved`]) and
    /// [`Store::import`] is refused.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Something that stops this store's running query at once from another thread (its
    /// statement fails as [`StoreError::Stopped`]): for reads only, so that no save is lost.
    pub fn interrupter(&self) -> impl Fn() + Send + Sync + 'static {
        let handle = self.conn.get_interrupt_handle();
        move || handle.interrupt()
    }

    /// True when the store is read only because the disk that holds it is full.
    pub fn is_on_a_full_disk(&self) -> bool {
        self.disk_full
    }

    /// How many answers [`Store::save`] was given that a read-only store could not keep.
    pub fn unsaved(&self) -> usize {
        self.unsaved
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        self.conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.error("reading the schema version", e))
    }

    /// How many answers the store holds.
    pub fn len(&self) -> Result<u64, StoreError> {
        self.conn
            .query_row("SELECT count(*) FROM answers", [], |row| {
                row.get::<_, i64>(0)
            })
            .map(|n| n.max(0) as u64)
            .map_err(|e| self.error("counting the answers", e))
    }

    /// True when the store holds no answer.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        self.len().map(|n| n == 0)
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
                            engine: EngineName::parse(&engine),
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

    /// The stored counts of open tours from the starts of `board` (canonical), keyed by their
    /// questions: what a stored total of the board is checked against.
    pub fn open_starts(&self, board: Board) -> Result<HashMap<Question, BigUint>, StoreError> {
        let board = board.canonical();
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT row, col, count FROM answers
                 WHERE rows = ?1 AND cols = ?2 AND kind = 'open' AND row IS NOT NULL",
            )
            .map_err(|e| self.error("preparing a look-up", e))?;
        let rows = stmt
            .query_map(params![board.rows(), board.cols()], |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    r.get::<_, u32>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(|e| self.error("looking up starts", e))?;
        let mut starts = HashMap::new();
        for row in rows {
            let (row, col, count) = row.map_err(|e| self.error("looking up starts", e))?;
            let question = Question {
                board,
                kind: crate::question::TourKind::Open,
                start: Some(Square::new(row, col)),
                end: None,
            };
            starts.insert(question, self.parse_count(&count)?);
        }
        Ok(starts)
    }

    fn parse_count(&self, text: &str) -> Result<BigUint, StoreError> {
        text.parse().map_err(|_| StoreError::Damaged {
            path: self.path.clone(),
            detail: format!(
                "a stored count '{}' is not a whole number",
                crate::echo::echo(text)
            ),
        })
    }

    /// Saves computed answers in one transaction. An answer the store already has is left as it
    /// is if the counts agree. One whose count differs is not saved, and neither does it keep
    /// the others from being saved: they are, and then the first such answer is reported
    /// ([`StoreError::Conflict`], with how many more there were). Returns how many answers
    /// were new.
    ///
    /// A read-only store keeps nothing: it counts the answers in [`Store::unsaved`] and
    /// returns 0.
    pub fn save(&mut self, answers: &[Answer]) -> Result<usize, StoreError> {
        if self.read_only {
            self.unsaved += answers.len();
            return Ok(0);
        }
        let numbered: Vec<(usize, &Answer)> = answers.iter().map(|a| (0, a)).collect();
        match self.insert_all(&numbered, &|_| None, false, &|| false) {
            Ok(report) => Ok(report.added),
            // The answers were computed: they are given all the same, and the store is read
            // only from now on, saying why.
            Err(StoreError::DiskFull { .. }) => {
                self.read_only = true;
                self.disk_full = true;
                self.unsaved += answers.len();
                Ok(0)
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the results shipped with knights `release` have entered this store
    /// ([`Store::mark_shipped`]).
    pub fn has_shipped(&self, release: &str) -> Result<bool, StoreError> {
        self.conn
            .query_row(
                "SELECT 1 FROM shipped WHERE release = ?1",
                params![release],
                |_| Ok(()),
            )
            .optional()
            .map(|found| found.is_some())
            .map_err(|e| classify(&self.path, "reading the shipped releases", e))
    }

    /// Records that the results shipped with knights `release` have entered this store, so
    /// that later runs of that release need not pass them through the gate again.
    pub fn mark_shipped(&mut self, release: &str) -> Result<(), StoreError> {
        if self.read_only {
            return Ok(());
        }
        self.conn
            .execute(
                "INSERT INTO shipped (release, admitted_at)
                 VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                 ON CONFLICT DO NOTHING",
                params![release],
            )
            .map(|_| ())
            .map_err(|e| classify(&self.path, "recording the shipped results", e))
    }

    /// Adds imported answers in one transaction, all or nothing: a conflict with a stored count
    /// ([`StoreError::Conflict`]) names the answer's line and nothing is written. A read-only
    /// store refuses ([`StoreError::ReadOnly`]).
    pub fn import(&mut self, answers: &[(usize, Answer)]) -> Result<ImportReport, StoreError> {
        let numbered: Vec<(usize, &Answer)> = answers.iter().map(|(line, a)| (*line, a)).collect();
        self.import_unless(&numbered, &|_| None, &|| false)
    }

    /// [`Store::import`] of borrowed answers, each stored with the source `source` gives it
    /// (`None`: its own), and given up with nothing written ([`StoreError::Stopped`]) as soon as
    /// `stopped` says so (it is asked every few hundred answers). Borrowing keeps a large file's
    /// answers in memory once, not twice.
    pub fn import_unless(
        &mut self,
        answers: &[(usize, &Answer)],
        source: &dyn Fn(&Answer) -> Option<String>,
        stopped: &dyn Fn() -> bool,
    ) -> Result<ImportReport, StoreError> {
        if self.read_only {
            return Err(StoreError::ReadOnly {
                path: self.path.clone(),
                detail: "nothing can be imported into it".into(),
            });
        }
        self.insert_all(answers, source, true, stopped)
    }

    /// Inserts `answers` (with their lines in a file, 0 for none) in one transaction. A count
    /// that differs from the stored one stops everything when `all_or_nothing`; otherwise the
    /// others are committed before the first conflict is returned.
    fn insert_all(
        &mut self,
        answers: &[(usize, &Answer)],
        source: &dyn Fn(&Answer) -> Option<String>,
        all_or_nothing: bool,
        stopped: &dyn Fn() -> bool,
    ) -> Result<ImportReport, StoreError> {
        let path = self.path.clone();
        let fail = |context, e| classify(&path, context, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| fail("starting a write", e))?;
        let mut report = ImportReport::default();
        let mut conflict: Option<StoreError> = None;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO answers
                        (rows, cols, kind, row, col, count, engine, version, seconds, computed_at,
                         source, to_row, to_col)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                             coalesce(?10, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?11, ?12, ?13)
                     ON CONFLICT DO NOTHING",
                )
                .map_err(|e| fail("preparing a write", e))?;
            let mut existing = tx
                .prepare_cached(concat!(
                    "SELECT count FROM answers WHERE ",
                    question_key_sql!()
                ))
                .map_err(|e| fail("preparing a write", e))?;
            for (i, &(line, answer)) in answers.iter().enumerate() {
                // Dropping the transaction unwritten is what a stop asks for.
                if i % 256 == 0 && stopped() {
                    return Err(StoreError::Stopped);
                }
                let q = answer.question;
                let (row, col) = start_columns(q.start);
                let (to_row, to_col) = start_columns(q.end);
                let count = answer.count.to_string();
                let given = source(answer);
                let changed = insert
                    .execute(params![
                        q.board.rows(),
                        q.board.cols(),
                        q.answer_kind().name(),
                        row,
                        col,
                        count,
                        answer.engine.as_str(),
                        answer.version,
                        answer.seconds,
                        answer.computed_at,
                        given.as_deref().unwrap_or(&answer.source),
                        to_row,
                        to_col,
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
                    let found = StoreError::Conflict {
                        question: place,
                        stored,
                        new: count,
                        others: 0,
                    };
                    if all_or_nothing {
                        return Err(found);
                    }
                    match &mut conflict {
                        Some(StoreError::Conflict { others, .. }) => *others += 1,
                        _ => conflict = Some(found),
                    }
                    continue;
                }
                report.already_stored += 1;
            }
        }
        tx.commit().map_err(|e| fail("committing answers", e))?;
        match conflict {
            Some(conflict) => Err(conflict),
            None => Ok(report),
        }
    }

    /// The stored answers that pass `filter`, ordered by board size, board, kind, then board
    /// totals before starts in row-major order (pairs by start, then end). A row that breaks a
    /// rule of the schema is an error ([`StoreError::Damaged`], naming the first such row and
    /// how many more there are): [`Store::list_rows`] lists them and goes on.
    pub fn list(&self, filter: &AnswerFilter) -> Result<Vec<Answer>, StoreError> {
        let listing = self.list_rows(filter)?;
        match listing.bad.first() {
            None => Ok(listing.answers),
            Some(first) => {
                let more = match listing.bad.len() - 1 {
                    0 => String::new(),
                    1 => ", and 1 more such row".to_string(),
                    n => format!(", and {n} more such rows"),
                };
                Err(StoreError::Damaged {
                    path: self.path.clone(),
                    detail: format!("{first}{more}; run `knights verify`"),
                })
            }
        }
    }

    /// The rows that pass `filter`, in the order of [`Store::list`]: each one read as an
    /// answer, or set aside as a [`BadRow`] when it breaks a rule of the schema (a row planted
    /// past its CHECKs). Only an error of SQLite itself stops the listing.
    pub fn list_rows(&self, filter: &AnswerFilter) -> Result<Listing, StoreError> {
        let mut listing = Listing::default();
        self.each_row(filter, &PageSpec::default(), |listed| {
            match listed.row {
                Ok(answer) => listing.answers.push(answer),
                Err(bad) => listing.bad.push(bad),
            }
            Ok::<(), StoreError>(())
        })?;
        Ok(listing)
    }
}

/// Opens an existing store that this process cannot write, for reading only.
///
/// When nothing but the file holds the store (no write-ahead log with committed transactions,
/// no rollback journal), it is opened immutable: SQLite then needs no `-shm` file, which it
/// could not create in a read-only directory, and leaves nothing beside a store it may not
/// write (a `-wal` or `-shm` owned by this user would stand in the owner's way). Immutable
/// means unlocked: should the owner write to the store while this process reads it, a read
/// may fail or miss answers (it is short: the look-ups come first, then the computing).
/// Otherwise SQLite reads the file with its journal, read-only.
fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    #[cfg(unix)]
    if !file::has_pending_journal(path) {
        return Connection::open_with_flags(
            immutable_uri(path),
            flags | OpenFlags::SQLITE_OPEN_URI,
        );
    }
    Connection::open_with_flags(path, flags)
}

/// `path` as an SQLite URI with `immutable=1` (every byte but the plainest escaped).
#[cfg(unix)]
fn immutable_uri(path: &Path) -> PathBuf {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let mut uri = b"file:".to_vec();
    for &byte in path.as_os_str().as_bytes() {
        if byte.is_ascii_alphanumeric() || b"/._-~".contains(&byte) {
            uri.push(byte);
        } else {
            uri.extend(format!("%{byte:02X}").bytes());
        }
    }
    uri.extend(b"?immutable=1");
    PathBuf::from(OsString::from_vec(uri))
}

/// The `WHERE` clause that finds one question's row (it matches the unique index), with the
/// parameters of [`question_key`].
macro_rules! question_key_sql {
    () => {
        "rows = ?1 AND cols = ?2 AND kind = ?3 AND coalesce(row, -1) = ?4 AND coalesce(col, -1) = ?5 \
         AND coalesce(to_row, -1) = ?6 AND coalesce(to_col, -1) = ?7"
    };
}
use question_key_sql;

/// The parameters of [`question_key_sql`]: a board total has row and column -1, and all but
/// pairs have an end of -1.
fn question_key(q: &Question) -> (u32, u32, &'static str, i64, i64, i64, i64) {
    let (row, col) = start_columns(q.start);
    let (to_row, to_col) = start_columns(q.end);
    (
        q.board.rows(),
        q.board.cols(),
        q.answer_kind().name(),
        row.unwrap_or(-1),
        col.unwrap_or(-1),
        to_row.unwrap_or(-1),
        to_col.unwrap_or(-1),
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
    use crate::question::TourKind;

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
                    Answer::computed(q, 32u32, EngineName::Memo, 0.01),
                    Answer::computed(total, big.clone(), EngineName::Memo, 0.5)
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
                .save(&[Answer::computed(q, 32u32, EngineName::Memo, 0.0)])
                .unwrap(),
            0
        );
        assert!(matches!(
            store.save(&[Answer::computed(q, 33u32, EngineName::Memo, 0.0)]),
            Err(StoreError::Conflict { .. })
        ));
        assert_eq!(store.list(&AnswerFilter::default()).unwrap().len(), 2);
    }

    /// A conflicting answer in a save keeps none of the others from being saved; it is
    /// reported after them, with how many more conflicted. An import stays all or nothing.
    #[test]
    fn a_conflict_in_a_save_costs_no_other_answer() {
        let mut store = Store::open_in_memory().unwrap();
        let board = Board::new(5, 4).unwrap();
        let corner = Question::from_start(board, Square::new(0, 0), TourKind::Open);
        let edge = Question::from_start(board, Square::new(0, 1), TourKind::Open);
        let total = Question::total(board, TourKind::Open);
        let closed = Question::total(board, TourKind::Closed);
        store
            .save(&[
                Answer::computed(corner, 32u32, EngineName::Memo, 0.0),
                Answer::computed(closed, 0u32, EngineName::Memo, 0.0),
            ])
            .unwrap();
        let result = store.save(&[
            Answer::computed(edge, 0u32, EngineName::Memo, 0.0),
            Answer::computed(corner, 33u32, EngineName::Memo, 0.0),
            Answer::computed(total, 164u32, EngineName::Memo, 0.0),
            Answer::computed(closed, 2u32, EngineName::Memo, 0.0),
        ]);
        let error = result.unwrap_err();
        assert!(matches!(error, StoreError::Conflict { others: 1, .. }));
        assert_eq!(
            error.to_string(),
            format!(
                "conflicting answers for {corner}: the store has 32, the new answer is 33 (and 1 more conflict)"
            )
        );
        let found = store.lookup([&corner, &edge, &total, &closed]).unwrap();
        assert_eq!(found.len(), 4);
        assert_eq!(found[&corner].count, BigUint::from(32u32));
        assert_eq!(found[&total].count, BigUint::from(164u32));
        assert_eq!(found[&closed].count, BigUint::from(0u32));

        let other = Question::from_start(board, Square::new(1, 1), TourKind::Open);
        let error = store
            .import(&[
                (2, Answer::computed(other, 0u32, EngineName::Memo, 0.0)),
                (3, Answer::computed(corner, 31u32, EngineName::Memo, 0.0)),
            ])
            .unwrap_err();
        assert!(error.to_string().contains(&format!("line 3: {corner}")));
        assert!(store.lookup([&other]).unwrap().is_empty());
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
