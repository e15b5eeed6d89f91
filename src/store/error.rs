//! What can go wrong with the store, and how SQLite's failures are sorted into it.

use rusqlite::ErrorCode;

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
    /// The path is not a regular file (a device, a FIFO, a directory, a socket): SQLite would
    /// create its journal beside it, or block on it.
    #[error("{path} is {what}, not an answer store file; it was left untouched")]
    NotAFile {
        /// The database path.
        path: String,
        /// What it is ("a character device").
        what: &'static str,
    },
    /// The store can be read but not written, and what was asked needs to write.
    #[error("the answer store {path} is read-only: {detail}")]
    ReadOnly {
        /// The database path.
        path: String,
        /// Why that matters here.
        detail: String,
    },
    /// A write given up, nothing of it written, because the caller asked for a stop.
    #[error("stopped before anything was written")]
    Stopped,
    /// The disk that holds the store has no room left for what was to be written.
    #[error(
        "the disk that holds the answer store {path} is full: {context} failed, and nothing of it was written"
    )]
    DiskFull {
        /// The database path.
        path: String,
        /// What was being done.
        context: &'static str,
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
    /// An empty file opened only to be read (a worker's store, say): there is no store in it.
    #[error("{path} is an empty file, not an answer store: there is nothing in it to read")]
    Empty {
        /// The file's path.
        path: String,
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
    #[error(
        "conflicting answers for {question}: the store has {stored}, the new answer is {new}{}",
        match others {
            0 => String::new(),
            1 => " (and 1 more conflict)".to_string(),
            n => format!(" (and {n} more conflicts)"),
        }
    )]
    Conflict {
        /// The question (the first one, when there are several).
        question: String,
        /// The stored count.
        stored: String,
        /// The new count.
        new: String,
        /// How many more answers of the same save conflicted.
        others: usize,
    },
}

impl StoreError {
    /// True when the error says the file given as the store is not one knights can use (the
    /// user's input, as a front end sees it) rather than the work failing. Every front end
    /// that meets it, whatever wrapped it, exits the same way.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            StoreError::NotADatabase { .. }
                | StoreError::NotAFile { .. }
                | StoreError::Foreign { .. }
                | StoreError::NewerSchema { .. }
                | StoreError::MissingDirectory { .. }
                | StoreError::Empty { .. }
                | StoreError::Damaged { .. }
        )
    }
}

/// Turns an SQLite failure into a store error, recognising files that are not databases and
/// damaged ones.
pub(super) fn classify(path: &str, context: &'static str, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::NotADatabase { path: path.into() },
        Some(ErrorCode::OperationInterrupted) => StoreError::Stopped,
        Some(ErrorCode::DiskFull) => StoreError::DiskFull {
            path: path.into(),
            context,
        },
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
