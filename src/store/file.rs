//! Before SQLite opens the file: its directory exists, it is a regular file (or absent), and its
//! first bytes are those of an SQLite database whose length matches its header; and waiting
//! while another process keeps the file busy.

use std::fs;
use std::io::Read;
use std::path::Path;
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

/// Looks at the file's first bytes before SQLite does: not SQLite at all, or shorter than its
/// header says (truncated), is reported without opening it.
pub(super) fn inspect_file(path: &Path, shown: &str) -> Result<(), StoreError> {
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
