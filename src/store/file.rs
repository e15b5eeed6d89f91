//! Before SQLite opens the file: its directory exists, it is a regular file (or absent), its
//! first bytes are those of an SQLite database whose pages are all there (in the file or in its
//! write-ahead log), and whether this process may write it; and waiting while another process
//! keeps the file busy.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::ErrorCode;

use super::StoreError;

/// How long a write waits for another process's transaction before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `operation` again while another connection keeps the database busy, for up to
/// [`BUSY_TIMEOUT`].
pub(super) fn retry_while_busy<T>(
    mut operation: impl FnMut() -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
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

/// Whether the file system that holds `path` has no room left for the files SQLite keeps
/// beside a store (its shared memory takes 32 KiB).
pub(super) fn disk_is_full(path: &Path) -> bool {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    #[cfg(unix)]
    if let Ok(stat) = rustix::fs::statvfs(dir) {
        return stat.f_bavail.saturating_mul(stat.f_frsize) < 64 * 1024;
    }
    false
}

pub(super) fn check_directory(path: &Path, shown: &str) -> Result<(), StoreError> {
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

/// Refuses a path that holds something other than a regular file (a symbolic link to one is
/// fine) before SQLite opens it: SQLite would create its journal beside a device, and would
/// wait forever on a FIFO. Returns whether the file exists.
pub(super) fn check_kind(path: &Path, shown: &str) -> Result<bool, StoreError> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => {
            return Err(StoreError::CannotOpen {
                path: shown.into(),
                reason: e.to_string(),
            });
        }
    };
    if meta.is_file() {
        return Ok(true);
    }
    Err(StoreError::NotAFile {
        path: shown.into(),
        what: describe(&meta.file_type()),
    })
}

/// What a file that is not a regular file is, for a message.
fn describe(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// The file SQLite works on: symbolic links resolved (SQLite keeps its `-wal` and `-shm`
/// beside the target).
fn resolved(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The path of a file SQLite keeps beside the store: `-wal`, `-shm` or `-journal`.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name: OsString = resolved(path).into_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether this process can write the store: the file (when it exists) and its directory,
/// where SQLite creates the `-wal` and `-shm` files that every access to a WAL database needs.
/// Asked of the system (`access`), so that a read-only mount or an immutable file counts,
/// and root's licence to write anywhere else too.
pub(super) fn can_write(path: &Path, exists: bool) -> bool {
    let file = resolved(path);
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    allowed(&dir, true) && (!exists || allowed(&file, false))
}

#[cfg(unix)]
fn allowed(path: &Path, directory: bool) -> bool {
    use rustix::fs::Access;
    let access = if directory {
        Access::WRITE_OK | Access::EXEC_OK
    } else {
        Access::WRITE_OK
    };
    rustix::fs::access(path, access).is_ok()
}

#[cfg(not(unix))]
fn allowed(path: &Path, directory: bool) -> bool {
    directory
        || fs::metadata(path)
            .map(|meta| !meta.permissions().readonly())
            .unwrap_or(false)
}

/// Whether SQLite would read anything but the file itself: a write-ahead log holding
/// committed transactions, or a rollback journal left by an interrupted one. Without either,
/// the file alone is the whole store, and a reader that cannot write may open it immutable.
pub(super) fn has_pending_journal(path: &Path) -> bool {
    let journal = fs::metadata(beside(path, "-journal")).is_ok_and(|meta| meta.len() > 0);
    journal || committed_wal(&beside(path, "-wal")).is_some()
}

/// The committed part of a write-ahead log, as SQLite's recovery reads it.
struct WalCommits {
    /// The page size the log was written with.
    page_size: u64,
    /// The database's size in pages after the last committed transaction.
    pages: u64,
    /// The pages that committed frames hold.
    held: HashSet<u64>,
}

/// Reads the write-ahead log at `path` as SQLite's recovery does: frames are valid while their
/// salts match the header's and their checksums run on; only frames up to the last commit
/// count. `None` when there is no log or it holds no committed transaction.
fn committed_wal(path: &Path) -> Option<WalCommits> {
    let bytes = fs::read(path).ok()?;
    let word = |b: &[u8], at: usize| u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    if bytes.len() < 32 {
        return None;
    }
    let big_endian = match word(&bytes, 0) {
        0x377f_0682 => false,
        0x377f_0683 => true,
        _ => return None,
    };
    let page_size = u64::from(word(&bytes, 8));
    if !(512..=65536).contains(&page_size) || !page_size.is_power_of_two() {
        return None;
    }
    let salts = (word(&bytes, 16), word(&bytes, 20));
    let mut sum = wal_checksum(big_endian, (0, 0), &bytes[..24]);
    if sum != (word(&bytes, 24), word(&bytes, 28)) {
        return None;
    }
    let mut commits: Option<WalCommits> = None;
    let mut uncommitted = Vec::new();
    for frame in bytes[32..].chunks_exact(24 + page_size as usize) {
        let page = u64::from(word(frame, 0));
        if page == 0 || (word(frame, 8), word(frame, 12)) != salts {
            break;
        }
        sum = wal_checksum(big_endian, sum, &frame[..8]);
        sum = wal_checksum(big_endian, sum, &frame[24..]);
        if sum != (word(frame, 16), word(frame, 20)) {
            break;
        }
        uncommitted.push(page);
        let size = u64::from(word(frame, 4));
        if size > 0 {
            let commits = commits.get_or_insert_with(|| WalCommits {
                page_size,
                pages: 0,
                held: HashSet::new(),
            });
            commits.pages = size;
            commits.held.extend(uncommitted.drain(..));
        }
    }
    commits
}

/// SQLite's WAL checksum of `data` (a multiple of 8 bytes), carried on from `sum`.
fn wal_checksum(big_endian: bool, sum: (u32, u32), data: &[u8]) -> (u32, u32) {
    let (mut s0, mut s1) = sum;
    for pair in data.chunks_exact(8) {
        let read = |b: &[u8]| {
            let b = [b[0], b[1], b[2], b[3]];
            if big_endian {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            }
        };
        s0 = s0.wrapping_add(read(&pair[..4])).wrapping_add(s1);
        s1 = s1.wrapping_add(read(&pair[4..])).wrapping_add(s0);
    }
    (s0, s1)
}

/// Looks at the file's first bytes before SQLite does: not SQLite at all, or shorter than its
/// header says (truncated) while its write-ahead log does not hold the missing pages, is
/// reported without opening it.
pub(super) fn inspect_file(path: &Path, shown: &str) -> Result<(), StoreError> {
    // Another process may be creating the file or checkpointing into it: a doubtful reading is
    // taken again a few times before it is believed, but only when such a process could be at
    // work (a journal beside the file, or a header that a write still under way could leave),
    // so that a file that is plainly not a store is refused at once.
    let mut verdict = read_header(path, shown);
    for _ in 0..4 {
        match &verdict {
            Ok(()) => return Ok(()),
            Err(_) if !may_be_in_motion(path) => break,
            Err(_) => {
                std::thread::sleep(Duration::from_millis(100));
                verdict = read_header(path, shown);
            }
        }
    }
    verdict
}

/// Whether another process may be writing the file now: SQLite keeps a journal or a log beside
/// a store it writes, and the first page of a store being created is written in one piece whose
/// start a reader could see before its end (nothing yet, or a part of the magic string).
fn may_be_in_motion(path: &Path) -> bool {
    if beside(path, "-wal").exists() || beside(path, "-journal").exists() {
        return true;
    }
    let mut start = [0u8; 16];
    let read = fs::File::open(path)
        .and_then(|mut file| file.read(&mut start))
        .unwrap_or(0);
    let magic = b"SQLite format 3\0";
    (read < 16 && start[..read] == magic[..read]) || start.iter().all(|&b| b == 0)
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
    let short = len % page_size != 0 || (change_counter == valid_for && pages * page_size > len);
    if short && !wal_completes(path, page_size, len) {
        return Err(StoreError::Damaged {
            path: shown.into(),
            detail: format!(
                "the file is {len} bytes, but its header says {pages} pages of {page_size} bytes: truncated?"
            ),
        });
    }
    Ok(())
}

/// Whether the write-ahead log beside a file `len` bytes long holds every page past the file's
/// last whole one, up to the database's size after the log's last commit. That is what a
/// checkpoint interrupted by a full disk leaves: it writes page 1 (whose header gives the new
/// size) before the pages that make the file grow. SQLite reads those pages from the log, and
/// its next checkpoint writes them.
fn wal_completes(path: &Path, page_size: u64, len: u64) -> bool {
    let Some(wal) = committed_wal(&beside(path, "-wal")) else {
        return false;
    };
    wal.page_size == page_size && (len / page_size + 1..=wal.pages).all(|p| wal.held.contains(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    // A file that is plainly not a store is refused at its first reading; only a file another
    // process may be writing is read again (each reading again waits 100 ms).
    #[test]
    fn only_a_file_in_motion_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let junk = dir.path().join("junk.db");
        fs::write(
            &junk,
            b"these are not the bytes of an SQLite database at all",
        )
        .unwrap();
        assert!(!may_be_in_motion(&junk));
        assert!(matches!(
            inspect_file(&junk, "junk.db"),
            Err(StoreError::NotADatabase { .. })
        ));

        let torn = dir.path().join("torn.db");
        fs::write(&torn, b"SQLite for").unwrap();
        assert!(may_be_in_motion(&torn));
        fs::write(&torn, [0u8; 4096]).unwrap();
        assert!(may_be_in_motion(&torn));

        let live = dir.path().join("live.db");
        fs::write(&live, b"SQLite format 3\0 but cut short").unwrap();
        assert!(!may_be_in_motion(&live));
        fs::write(beside(&live, "-wal"), b"").unwrap();
        assert!(may_be_in_motion(&live));
    }
}
