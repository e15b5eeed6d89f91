//! Helpers shared by the integration tests.

use knights::count::Limits;
use std::path::PathBuf;

use num_bigint::BigUint;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use knights::count::memo::MemoCounter;
use knights::{Board, CancelFlag, MemoryBudget};

/// A memo engine for `rows × cols` with the default budget.
pub fn memo(rows: u32, cols: u32) -> MemoCounter {
    MemoCounter::new(
        Board::new(rows, cols).unwrap(),
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap()
}

/// A file of `data/published/`.
pub fn data_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join("published")
        .join(name)
}

/// A published board total (`data/published/board-totals.csv`).
#[derive(Debug, serde::Deserialize)]
pub struct PublishedTotal {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// `open_directed` or `closed_undirected`.
    pub kind: String,
    /// The count.
    pub count: u128,
    /// Where it was published.
    pub source: String,
}

/// The published totals of one kind.
pub fn published_totals(kind: &str) -> Vec<PublishedTotal> {
    csv::Reader::from_path(data_file("board-totals.csv"))
        .unwrap()
        .deserialize()
        .map(|row| row.unwrap())
        .filter(|row: &PublishedTotal| row.kind == kind)
        .collect()
}

/// A published term of a sequence over long boards (`data/published/series-totals.csv`), of any
/// size.
#[derive(Debug, serde::Deserialize)]
pub struct PublishedTerm {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// `closed_undirected` or `open_undirected`.
    pub kind: String,
    /// The count, as decimal text.
    pub count: String,
    /// Where it was published.
    pub source: String,
}

/// The published terms of one kind.
pub fn published_terms(kind: &str) -> Vec<PublishedTerm> {
    csv::Reader::from_path(data_file("series-totals.csv"))
        .unwrap()
        .deserialize()
        .map(|row| row.unwrap())
        .filter(|row: &PublishedTerm| row.kind == kind)
        .collect()
}

/// `knights series <rows> --cols 1..<last>` (with `extra` arguments) as CSV: each board's
/// columns and its undirected count.
pub fn series_counts(
    rows: u32,
    last: u32,
    extra: &[&str],
) -> std::collections::BTreeMap<u32, String> {
    let output = knights()
        .args(["--no-cache", "series", &rows.to_string(), "--format", "csv"])
        .args(["--cols", &format!("1..{last}")])
        .args(extra)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let counted: std::collections::BTreeMap<u32, String> =
        csv::Reader::from_reader(&output.stdout[..])
            .records()
            .map(|record| {
                let record = record.unwrap();
                (record[1].parse().unwrap(), record[4].to_string())
            })
            .collect();
    assert_eq!(counted.len(), last as usize);
    counted
}

/// The `knights` binary built for these tests, with an answer store of its own (never the
/// user's): a fresh database in a temporary directory that lives as long as the test process.
pub fn knights() -> assert_cmd::Command {
    static SCRATCH: OnceLock<tempfile::TempDir> = OnceLock::new();
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = SCRATCH.get_or_init(|| tempfile::tempdir().unwrap());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_knights"));
    cmd.env("KNIGHTS_DB", dir.path().join(format!("scratch-{n}.db")))
        .env("XDG_DATA_HOME", dir.path().join("xdg"))
        // A store of only what the test computes or imports: the results that ship with
        // knights are tested on their own (`data::shipped_…`), and no test takes them as
        // evidence.
        .env("KNIGHTS_NO_SHIPPED", "1");
    cmd
}

/// A temporary directory holding one answer store, for tests that run several commands on it.
pub struct TestStore {
    /// The directory (removed at the end of the test).
    pub dir: tempfile::TempDir,
}

impl TestStore {
    /// A new, empty place for a store.
    pub fn new() -> Self {
        TestStore {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The database file.
    pub fn path(&self) -> PathBuf {
        self.dir.path().join("answers.db")
    }

    /// `knights --db <this store>`.
    pub fn knights(&self) -> assert_cmd::Command {
        let mut cmd = knights();
        cmd.arg("--db").arg(self.path());
        cmd
    }

    /// `knights --db <this store>` as a process to start and signal (`std`'s command, which
    /// `spawn`s).
    pub fn process(&self) -> std::process::Command {
        let mut cmd = process();
        cmd.arg("--db").arg(self.path());
        cmd
    }

    /// `knights --db <this store> ARGS`, which must succeed.
    pub fn run(&self, args: &[&str]) {
        self.knights().args(args).assert().success();
    }

    /// Opens the database directly, to look at what the commands left there.
    pub fn sqlite(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.path()).unwrap()
    }

    /// The `column` of the one answer of `condition`, as text.
    pub fn field(&self, column: &str, condition: &str) -> String {
        self.sqlite()
            .query_row(
                &format!("SELECT {column} FROM answers WHERE {condition}"),
                [],
                |r| r.get(0),
            )
            .unwrap()
    }

    /// Number of stored answers.
    pub fn answers(&self) -> i64 {
        self.sqlite()
            .query_row("SELECT count(*) FROM answers", [], |r| r.get(0))
            .unwrap()
    }
}

/// Sets the count of the one answer of `condition` in the store file `db`, behind knights'
/// back (as a damaged or edited file would hold it); returns the count it had.
pub fn set_count(db: &std::path::Path, condition: &str, count: &str) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    let had: String = conn
        .query_row(
            &format!("SELECT count FROM answers WHERE {condition}"),
            [],
            |r| r.get(0),
        )
        .unwrap();
    let changed = conn
        .execute(
            &format!("UPDATE answers SET count = ?1 WHERE {condition}"),
            [count],
        )
        .unwrap();
    assert_eq!(changed, 1, "{condition}");
    had
}

/// Recounts stored answers with the memo engine: one per-square table per board.
#[derive(Default)]
pub struct Recounter {
    tables: std::collections::HashMap<Board, knights::count::CountTable>,
}

impl Recounter {
    /// The engine's count for an answer's question (searched for, even where a theorem
    /// decides it).
    pub fn count(&mut self, question: &knights::question::Question) -> BigUint {
        if question.kind == knights::question::TourKind::Closed {
            let (cycles, _) = knights::count::memo::count_cycles(
                question.board,
                &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
            )
            .unwrap();
            return BigUint::from(2 * cycles);
        }
        let table = self.tables.entry(question.board).or_insert_with(|| {
            MemoCounter::new(
                question.board,
                &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
            )
            .unwrap()
            .table()
            .unwrap()
        });
        match question.start {
            Some(square) => table.get(square).clone(),
            None => table.total_directed(),
        }
    }
}

/// How to run `knights` as a user who cannot write what the tests make: nobody (through
/// `setpriv`) when the tests run as root, since root writes anywhere; else this very user,
/// once the write permissions are taken away. `None` where neither can be done.
#[cfg(unix)]
pub struct Reader {
    /// Runs as nobody (the tests run as root).
    pub as_nobody: bool,
}

#[cfg(unix)]
impl Reader {
    const NOBODY: [&'static str; 3] = ["--reuid=65534", "--regid=65534", "--clear-groups"];

    /// The reader for the tests' directory `dir`, if there is one.
    pub fn new(dir: &std::path::Path) -> Option<Reader> {
        let root = std::process::Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        if !root {
            return Some(Reader { as_nobody: false });
        }
        // Nobody must reach the binary and the test's directory.
        use std::os::unix::fs::PermissionsExt;
        let reachable = dir
            .ancestors()
            .skip(1)
            .all(|a| std::fs::metadata(a).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
        let runs = std::process::Command::new("setpriv")
            .args(Self::NOBODY)
            .arg(env!("CARGO_BIN_EXE_knights"))
            .env("KNIGHTS_NO_SHIPPED", "1")
            .arg("--version")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        (reachable && runs).then_some(Reader { as_nobody: true })
    }

    /// The `knights` binary, run as this reader.
    pub fn command(&self) -> std::process::Command {
        if self.as_nobody {
            let mut cmd = std::process::Command::new("setpriv");
            cmd.args(Self::NOBODY)
                .arg(env!("CARGO_BIN_EXE_knights"))
                .env("KNIGHTS_NO_SHIPPED", "1");
            cmd
        } else {
            process()
        }
    }

    /// `knights --db DB`, run as this reader.
    pub fn knights(&self, db: &std::path::Path) -> std::process::Command {
        let mut cmd = self.command();
        cmd.arg("--db").arg(db);
        cmd
    }

    /// The modes of a store file and its directory that keep this reader from writing the
    /// store (the file's: nobody does not own it; this user's: no write bit anywhere).
    pub fn read_only_modes(&self) -> (u32, u32) {
        if self.as_nobody {
            (0o644, 0o777)
        } else {
            (0o444, 0o700)
        }
    }
}

/// The long tier (`KNIGHTS_LONG_TESTS=1 cargo test`): sweeps at their full sizes. Without it
/// each sweep runs on the smallest boards that still reach every path it checks.
pub fn long_tests() -> bool {
    std::env::var_os("KNIGHTS_LONG_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The `knights` binary built for these tests as a process to start, wait for or signal
/// (`std`'s command), without the results that ship with knights (as [`knights`]).
pub fn process() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_knights"));
    cmd.env("KNIGHTS_NO_SHIPPED", "1");
    cmd
}

/// A tmpfs of our own, unmounted when dropped: under a temporary directory, or over a test's
/// own directory (a [`TestStore`]'s), which is then left empty for its owner to remove.
pub struct SmallDisk {
    dir: PathBuf,
    _owned: Option<tempfile::TempDir>,
}

impl SmallDisk {
    /// A mounted tmpfs of `size` (as root only); `None` where mounting is not allowed.
    pub fn mount(size: &str) -> Option<SmallDisk> {
        let owned = tempfile::tempdir().unwrap();
        let mut disk = SmallDisk::mount_over(owned.path(), size)?;
        disk._owned = Some(owned);
        Some(disk)
    }

    /// A tmpfs of `size` mounted over `dir`, one of the test's own temporary directories.
    pub fn mount_over(dir: &std::path::Path, size: &str) -> Option<SmallDisk> {
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| SmallDisk {
            dir: dir.to_path_buf(),
            _owned: None,
        })
    }

    /// Where it is mounted.
    pub fn path(&self) -> &std::path::Path {
        &self.dir
    }

    /// Fills the disk to its last byte with a file of its own.
    pub fn fill(&self) {
        use std::io::Write;
        let mut file = std::fs::File::create(self.dir.join("filler")).unwrap();
        while file.write_all(&[0x55; 4096]).is_ok() {}
        while file.write_all(&[0x55]).is_ok() {}
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.dir).status();
    }
}

/// `child`'s output once it has ended; if it runs on past `limit`, it is killed and the test
/// fails with `why`.
#[cfg(unix)]
pub fn output_within(
    mut child: std::process::Child,
    limit: std::time::Duration,
    why: &str,
) -> std::process::Output {
    let clock = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if clock.elapsed() > limit {
            let _ = child.kill();
            panic!("{why} within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}
