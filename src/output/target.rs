//! Where an output file may go: never over an answer store.
//!
//! Every command's `--output` (and `puzzle --make`'s) passes here before anything is written,
//! so that `knights --db s.db export -o s.db` cannot turn the store into CSV: the path is
//! refused when it is the store itself (by name, through a link or a hard link), one of the
//! files SQLite keeps beside it (`-wal`, `-shm`, `-journal`), or any SQLite database (a knights
//! store by its application id, or another program's).

use std::fs;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::store::APPLICATION_ID;

/// Why an output path is refused.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The path is the answer store in use, or a file SQLite keeps beside it.
    #[error("will not write {path}: it is {what} the answer store {store}; give another file")]
    IsTheStore {
        /// The output as given.
        path: String,
        /// What of the store it is.
        what: &'static str,
        /// The store.
        store: String,
    },
    /// The path holds an SQLite database (a knights store or another program's).
    #[error(
        "will not write {path}: it is {what}, which the output would replace; give another file"
    )]
    IsADatabase {
        /// The output as given.
        path: String,
        /// Whose database it is.
        what: &'static str,
    },
}

/// The first bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Refuses `path` as an output when it is `store` (the answer store of this run, if any) or a
/// file beside it, or when it already holds an SQLite database. `shown` is the path as the
/// user gave it, for the message. A path that does not exist yet is fine.
pub fn check_output(path: &Path, shown: &str, store: Option<&Path>) -> Result<(), TargetError> {
    // Metadata through links: a link to the store, or a hard link, is the same file.
    let Ok(meta) = fs::metadata(path) else {
        return Ok(());
    };
    if let Some(store) = store {
        for (suffix, what) in [
            ("", "the same file as"),
            ("-wal", "the write-ahead log of"),
            ("-shm", "the shared memory file of"),
            ("-journal", "the journal of"),
        ] {
            let mut companion = store.as_os_str().to_owned();
            companion.push(suffix);
            if let Ok(other) = fs::metadata(PathBuf::from(companion))
                && other.dev() == meta.dev()
                && other.ino() == meta.ino()
            {
                return Err(TargetError::IsTheStore {
                    path: shown.to_string(),
                    what,
                    store: store.display().to_string(),
                });
            }
        }
    }
    if !meta.is_file() {
        return Ok(());
    }
    // Only the header is read: 100 bytes hold the magic and the application id (offset 68).
    let mut header = Vec::with_capacity(100);
    if let Ok(file) = fs::File::open(path) {
        let _ = file.take(100).read_to_end(&mut header);
    }
    if header.len() < SQLITE_MAGIC.len() || &header[..16] != SQLITE_MAGIC {
        return Ok(());
    }
    let ours = header.len() >= 72 && header[68..72] == APPLICATION_ID.to_be_bytes();
    Err(TargetError::IsADatabase {
        path: shown.to_string(),
        what: if ours {
            "a knights answer store"
        } else {
            "an SQLite database"
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_and_a_text_file_are_fine_a_database_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new.csv");
        assert!(check_output(&new, "new.csv", None).is_ok());
        let text = dir.path().join("old.csv");
        fs::write(&text, "a,b\n").unwrap();
        assert!(check_output(&text, "old.csv", None).is_ok());
        let mut db = SQLITE_MAGIC.to_vec();
        db.resize(100, 0);
        let other = dir.path().join("other.db");
        fs::write(&other, &db).unwrap();
        let e = check_output(&other, "other.db", None).unwrap_err();
        assert!(e.to_string().contains("an SQLite database"), "{e}");
        db[68..72].copy_from_slice(&APPLICATION_ID.to_be_bytes());
        let ours = dir.path().join("ours.db");
        fs::write(&ours, &db).unwrap();
        let e = check_output(&ours, "ours.db", None).unwrap_err();
        assert!(e.to_string().contains("a knights answer store"), "{e}");
    }

    #[test]
    fn the_store_by_hard_link_and_its_log_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("s.db");
        fs::write(&store, "").unwrap();
        let wal = dir.path().join("s.db-wal");
        fs::write(&wal, "").unwrap();
        let link = dir.path().join("hard");
        fs::hard_link(&store, &link).unwrap();
        let e = check_output(&link, "hard", Some(&store)).unwrap_err();
        assert!(e.to_string().contains("the same file as"), "{e}");
        let e = check_output(&wal, "s.db-wal", Some(&store)).unwrap_err();
        assert!(e.to_string().contains("write-ahead log"), "{e}");
    }
}
