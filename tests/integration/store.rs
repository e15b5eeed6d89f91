//! The answer store: schema, refusal of files that are not ours, and nothing lost when several
//! processes write at once or one is killed.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use knights::question::{Question, TourKind};
use knights::store::{APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Store};
use knights::{Board, Square};
use num_bigint::BigUint;
use predicates::str::contains;

#[cfg(unix)]
use crate::util::{Reader, SmallDisk};
use crate::util::{Recounter, TestStore};

/// The migrations applied to an empty database give the documented schema.
#[test]
fn migrations_build_the_schema_on_an_empty_database() {
    let test = TestStore::new();
    std::fs::write(test.path(), b"").unwrap();
    let store = Store::open(&test.path()).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(SCHEMA_VERSION as usize, MIGRATIONS.len());
    drop(store);

    let db = test.sqlite();
    let pragma = |name: &str| -> i64 { db.pragma_query_value(None, name, |r| r.get(0)).unwrap() };
    assert_eq!(pragma("user_version"), SCHEMA_VERSION);
    assert_eq!(pragma("application_id"), APPLICATION_ID as i64);
    let mode: String = db
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let columns: Vec<(String, String, bool)> = db
        .prepare("SELECT name, type, \"notnull\" FROM pragma_table_info('answers')")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let expected = [
        ("rows", "INTEGER", true),
        ("cols", "INTEGER", true),
        ("kind", "TEXT", true),
        ("row", "INTEGER", false),
        ("col", "INTEGER", false),
        ("count", "TEXT", true),
        ("engine", "TEXT", true),
        ("version", "TEXT", true),
        ("seconds", "REAL", true),
        ("computed_at", "TEXT", true),
        ("source", "TEXT", true),
        ("to_row", "INTEGER", false),
        ("to_col", "INTEGER", false),
    ];
    let expected: Vec<(String, String, bool)> = expected
        .iter()
        .map(|(n, t, nn)| (n.to_string(), t.to_string(), *nn))
        .collect();
    assert_eq!(columns, expected);
    let strict: i64 = db
        .query_row(
            "SELECT strict FROM pragma_table_list WHERE name = 'answers'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(strict, 1);
    let kinds: Vec<String> = db
        .prepare("SELECT name FROM kinds ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(kinds, ["between", "closed", "open"]);

    // The table refuses what the store must never hold.
    db.pragma_update(None, "foreign_keys", true).unwrap();
    let insert = |values: &str| {
        db.execute(
            &format!(
                "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds, computed_at)
                 VALUES ({values}, 'memo', '0', 0, '2026-01-01T00:00:00Z')"
            ),
            [],
        )
    };
    insert("3, 4, 'open', 0, 0, '2'").unwrap();
    for bad in [
        "3, 4, 'open', 0, 0, '2'",      // the same question twice
        "4, 3, 'open', 0, 0, '2'",      // not canonical: rows > cols
        "3, 4, 'open', 0, 1, '02'",     // leading zero
        "3, 4, 'open', 0, 1, '1e3'",    // not digits
        "3, 4, 'open', 0, 1, x'35'",    // a blob, not text (STRICT)
        "3, 4, 'closedish', 0, 1, '5'", // unknown kind
        "3, 4, 'open', 3, 0, '5'",      // off the board
        "3, 4, 'open', 1, NULL, '5'",   // half a start
    ] {
        assert!(insert(bad).is_err(), "{bad} was accepted");
    }
    insert("3, 4, 'open', NULL, NULL, '16'").unwrap();
    assert!(insert("3, 4, 'open', NULL, NULL, '16'").is_err());
}

/// A store written by the first schema is brought up to date on open, its answers kept.
#[test]
fn an_older_schema_is_migrated_in_place() {
    let test = TestStore::new();
    {
        let db = test.sqlite();
        db.execute_batch(MIGRATIONS[0].sql).unwrap();
        db.execute(
            "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds, computed_at)
             VALUES (4, 5, 'open', 0, 0, '32', 'memo', '0.1.0', 0.01, '2026-11-29T14:28:00Z')",
            [],
        )
        .unwrap();
        db.pragma_update(None, "user_version", 1).unwrap();
        db.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
    }
    test.knights()
        .args(["count", "5", "4", "0", "0", "--stats"])
        .assert()
        .success()
        .stdout("32\n")
        .stderr(contains("answered from the store"));
    test.knights()
        .args(["count", "6", "6", "--closed"])
        .assert()
        .success();
    let store = Store::open(&test.path()).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(test.answers(), 2);
}

fn digest(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// Opens a bad file through the command line: a clear error, the file byte for byte as it was,
/// and no journal files beside it.
fn refused(test: &TestStore, message: &str) {
    let before = digest(&test.path());
    let output = test
        .knights()
        .args(["count", "5", "4", "0", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // One code for every file that is not a store knights can vouch for: damaged or foreign.
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(stderr.contains(message), "{stderr}");
    assert!(stderr.contains("left untouched"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(digest(&test.path()), before, "the file was changed");
    for suffix in ["-wal", "-shm", "-journal"] {
        let mut side = test.path().into_os_string();
        side.push(suffix);
        assert!(
            !std::path::Path::new(&side).exists(),
            "{suffix} was created"
        );
    }
}

#[test]
fn a_file_that_is_not_a_database_is_refused_untouched() {
    let test = TestStore::new();
    std::fs::write(test.path(), "rows,cols\n3,4\n".repeat(500)).unwrap();
    refused(&test, "is not an SQLite database");
}

#[test]
fn another_programs_database_is_refused_untouched() {
    let test = TestStore::new();
    {
        let db = test.sqlite();
        db.execute_batch("CREATE TABLE inventory (item TEXT); INSERT INTO inventory VALUES ('x');")
            .unwrap();
    }
    refused(&test, "not a knights answer store (it holds inventory)");
}

#[test]
fn a_database_from_a_newer_schema_is_refused_untouched() {
    let test = TestStore::new();
    test.knights().args(["count", "3", "4"]).assert().success();
    test.sqlite()
        .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    refused(&test, "was written by a newer knights");
}

#[test]
fn a_truncated_database_is_refused_untouched() {
    let test = TestStore::new();
    test.knights()
        .args(["precompute", "--max-squares", "30", "--quiet"])
        .assert()
        .success();
    let full = digest(&test.path());
    assert!(full.len() >= 3 * 4096, "the store has several pages");
    for keep in [full.len() / 2, full.len() - 100, 4096 + 17] {
        std::fs::write(test.path(), &full[..keep]).unwrap();
        refused(&test, "is damaged");
    }
}

#[test]
fn a_database_in_a_missing_directory_is_a_clear_error() {
    let test = TestStore::new();
    let path = test.dir.path().join("no").join("such").join("answers.db");
    crate::util::knights()
        .arg("--db")
        .arg(&path)
        .args(["count", "5", "4", "0", "0"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("does not exist"));
    assert!(!path.parent().unwrap().exists(), "nothing was created");
}

#[test]
fn a_database_where_nothing_can_be_written_is_a_clear_error() {
    let test = TestStore::new();
    // A directory path that runs through a file: nobody, not even root, can create it.
    let file = test.dir.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    crate::util::knights()
        .arg("--db")
        .arg(file.join("answers.db"))
        .args(["count", "5", "4", "0", "0"])
        .assert()
        .failure()
        .stdout("")
        .stderr(contains("is not a directory"));

    // A read-only directory (root may write anyway: then the count simply succeeds).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = test.dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        let probe = locked.join("probe");
        let writable = std::fs::write(&probe, "x").is_ok();
        let _ = std::fs::remove_file(&probe);
        let output = crate::util::knights()
            .arg("--db")
            .arg(locked.join("answers.db"))
            .args(["count", "5", "4", "0", "0"])
            .output()
            .unwrap();
        if writable {
            assert!(output.status.success());
        } else {
            assert_eq!(output.status.code(), Some(1));
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                stderr.contains("cannot open or create the database"),
                "{stderr}"
            );
            assert!(output.stdout.is_empty());
        }
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// Every stored answer agrees with a fresh count by the engine.
fn check_stored_answers(test: &TestStore) -> usize {
    let store = Store::open(&test.path()).unwrap();
    let answers = store.list(&Default::default()).unwrap();
    let mut recounter = Recounter::default();
    for answer in &answers {
        assert_eq!(
            answer.count,
            recounter.count(&answer.question),
            "{}",
            answer.question
        );
    }
    answers.len()
}

/// Two processes filling the same new database at once both finish, and every answer is there
/// once and right.
#[test]
fn two_processes_fill_one_database_at_once() {
    let test = TestStore::new();
    let spawn = |args: &[&str]| {
        crate::util::process()
            .arg("--db")
            .arg(test.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = spawn(&["precompute", "--max-squares", "30", "--quiet"]);
    let second = spawn(&["precompute", "--boards", "1x1..6x5", "--quiet"]);
    let third = spawn(&["count", "5", "6"]);
    for child in [first, second, third] {
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let stored = check_stored_answers(&test);
    // Every board of at most 30 squares: its canonical starts and its total.
    let boards = knights::precompute::BoardSelection {
        max_squares: Some(30),
        ..Default::default()
    }
    .boards()
    .unwrap();
    let expected = knights::precompute::questions(&boards, TourKind::Open).len();
    assert_eq!(stored, expected);
}

/// Many processes creating the same new store at the same moment all succeed (the schema is
/// made once; nobody mistakes a half-made store for a foreign one).
#[test]
fn many_processes_create_one_new_database_at_once() {
    for _ in 0..8 {
        let test = TestStore::new();
        let children: Vec<_> = (0..8)
            .map(|i| {
                crate::util::process()
                    .arg("--db")
                    .arg(test.path())
                    .args(["count", "4", "5"])
                    .args(if i % 2 == 0 {
                        &["--closed"][..]
                    } else {
                        &[][..]
                    })
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        assert_eq!(check_stored_answers(&test), 8);
    }
}

/// A precompute killed in the middle keeps what it finished, holds nothing half-written, and
/// the same command then finishes the job.
#[cfg(unix)]
#[test]
fn a_killed_precompute_loses_nothing_it_finished() {
    let test = TestStore::new();
    let mut child = crate::util::process()
        .arg("--db")
        .arg(test.path())
        .args(["precompute", "--boards", "3x3..5x8", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until some answers are saved, then kill the process outright (SIGKILL).
    let clock = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(20));
        let saved = test.path().exists()
            && Store::open(&test.path())
                .ok()
                .and_then(|s| s.list(&Default::default()).ok())
                .is_some_and(|a| !a.is_empty());
        if saved || clock.elapsed() > Duration::from_secs(30) {
            break;
        }
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "the precompute finished before it was killed"
    );

    let integrity: String = test
        .sqlite()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");

    // The same precompute, uninterrupted, into another store: what the killed run kept must be
    // exactly those answers (the engine's counts themselves are checked by the other tests).
    let complete = TestStore::new();
    complete
        .knights()
        .args(["precompute", "--boards", "3x3..5x8", "--quiet"])
        .assert()
        .success();
    let answers = |t: &TestStore| -> std::collections::HashMap<Question, BigUint> {
        Store::open(&t.path())
            .unwrap()
            .list(&Default::default())
            .unwrap()
            .into_iter()
            .map(|a| (a.question, a.count))
            .collect()
    };
    let everything = answers(&complete);
    let kept = answers(&test);
    assert!(!kept.is_empty(), "finished answers were kept");
    assert!(
        kept.len() < everything.len(),
        "the kill came before the end"
    );
    for (question, count) in &kept {
        assert_eq!(everything.get(question), Some(count), "{question}");
    }

    test.knights()
        .args(["precompute", "--boards", "3x3..5x8"])
        .assert()
        .success()
        .stderr(contains(format!("{} already stored", kept.len())));
    assert_eq!(answers(&test), everything);
}

/// Saved answers are found again under every symmetric form of the question.
#[test]
fn symmetric_questions_share_one_stored_answer() {
    let test = TestStore::new();
    test.knights()
        .args(["count", "5", "6", "0", "0"])
        .assert()
        .success()
        .stdout("4542\n");
    assert_eq!(test.answers(), 1);
    for (args, expected) in [
        (["count", "5", "6", "4", "5"], "4542\n"),
        (["count", "6", "5", "5", "0"], "4542\n"),
        (["count", "6", "5", "0", "4"], "4542\n"),
    ] {
        test.knights()
            .args(args)
            .arg("--stats")
            .assert()
            .success()
            .stdout(expected)
            .stderr(contains("answered from the store"));
    }
    assert_eq!(test.answers(), 1);
    let q = Question::from_start(Board::new(6, 5).unwrap(), Square::new(5, 4), TourKind::Open);
    assert_eq!(q.start, Some(Square::new(0, 0)));
}

/// The names in a directory, sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `--db` naming something that is not a regular file (a directory, a FIFO, a socket, a
/// device) is refused before SQLite opens it: one line, exit 2, nothing created beside it, and
/// no wait on a FIFO. A symbolic link to a store is a store.
#[cfg(unix)]
#[test]
fn a_path_that_is_not_a_regular_file_is_refused_and_nothing_is_made_beside_it() {
    let test = TestStore::new();
    let dir = test.dir.path();
    let mut paths = vec![("a directory", dir.join("dir"))];
    std::fs::create_dir(dir.join("dir")).unwrap();
    let fifo = dir.join("fifo");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        paths.push(("a named pipe (FIFO)", fifo));
    } else {
        println!("note: mkfifo failed here; the FIFO case is skipped");
    }
    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    paths.push(("a socket", socket));
    // A device of our own (the null device's numbers), never one under /dev.
    let device = dir.join("zero");
    let made = Command::new("mknod")
        .args(["-m", "666"])
        .arg(&device)
        .args(["c", "1", "5"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if made {
        paths.push(("a character device", device.clone()));
        let link = dir.join("link-to-device");
        std::os::unix::fs::symlink(&device, &link).unwrap();
        paths.push(("a character device", link));
    } else {
        println!("note: mknod is not allowed here (not root?); the device case is skipped");
    }
    let before = listing(dir);
    for (what, path) in &paths {
        let output = crate::util::knights()
            .arg("--db")
            .arg(path)
            .args(["count", "5", "4", "0", "0"])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert!(output.stdout.is_empty());
        assert_eq!(
            stderr,
            format!(
                "error: {} is {what}, not an answer store file; it was left untouched\n",
                path.display()
            )
        );
        assert_eq!(listing(dir), before, "{what}: something was made beside it");
    }

    // A symbolic link to a regular file is used as the file.
    test.knights().args(["count", "3", "4"]).assert().success();
    let link = dir.join("link.db");
    std::os::unix::fs::symlink(test.path(), &link).unwrap();
    crate::util::knights()
        .arg("--db")
        .arg(&link)
        .args(["count", "3", "4", "0", "0", "--stats"])
        .assert()
        .success()
        .stdout("2\n")
        .stderr(contains("answered from the store"));
}

/// A file with the knights application id whose schema is not the one its version gives is
/// refused before anything is written to it: not switched to WAL, not half-migrated.
#[test]
fn a_knights_file_with_a_broken_schema_is_refused_untouched() {
    // Schema version 1, but no tables at all.
    let test = TestStore::new();
    {
        let db = test.sqlite();
        db.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        db.pragma_update(None, "user_version", 1).unwrap();
    }
    refused(
        &test,
        "is damaged (its schema version is 1, but the table answers is missing)",
    );

    // Schema version 0 (nothing made yet), with an `answers` table of someone else's.
    let test = TestStore::new();
    {
        let db = test.sqlite();
        db.execute_batch("CREATE TABLE answers (question TEXT, answer TEXT)")
            .unwrap();
        db.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
    }
    refused(
        &test,
        "is damaged (its schema version is 0, but it holds the table answers, which that version has not)",
    );

    // Schema version 1 whose kinds already hold what the next migration adds.
    let test = TestStore::new();
    {
        let db = test.sqlite();
        db.execute_batch(MIGRATIONS[0].sql).unwrap();
        db.execute_batch(MIGRATIONS[1].sql).unwrap();
        db.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        db.pragma_update(None, "user_version", 1).unwrap();
    }
    refused(
        &test,
        "is damaged (its schema version is 1, but its table kinds does not hold that version's rows)",
    );

    // The current version with a changed answers table.
    let test = TestStore::new();
    test.knights().args(["count", "3", "4"]).assert().success();
    test.sqlite()
        .execute_batch("ALTER TABLE answers ADD COLUMN note TEXT")
        .unwrap();
    refused(&test, "but the table answers is not that version's");

    // An index of the owner's own, in no version of the schema, is tolerated.
    let test = TestStore::new();
    test.knights().args(["count", "3", "4"]).assert().success();
    test.sqlite()
        .execute_batch("CREATE INDEX my_counts ON answers (count)")
        .unwrap();
    test.knights()
        .args(["count", "3", "4", "0", "0"])
        .assert()
        .success()
        .stdout("2\n");
}

/// The path of the store's write-ahead log.
fn wal_of(test: &TestStore) -> std::path::PathBuf {
    let mut wal = test.path().into_os_string();
    wal.push("-wal");
    wal.into()
}

/// Every stored answer, question by question.
fn stored_answers(path: &std::path::Path) -> std::collections::BTreeMap<String, BigUint> {
    Store::open(path)
        .unwrap()
        .list(&Default::default())
        .unwrap()
        .into_iter()
        .map(|a| (a.question.to_string(), a.count))
        .collect()
}

/// The file shorter than its header says, but the missing pages are in its write-ahead log
/// (what a checkpoint cut short by a full disk leaves): SQLite reads them from there, so the
/// store opens with every answer. Without the log's pages the file is still refused.
#[test]
fn a_store_whose_last_pages_are_still_in_its_wal_opens_with_every_answer() {
    let test = TestStore::new();
    test.knights()
        .args(["precompute", "--max-squares", "12", "--quiet"])
        .assert()
        .success();
    let small = std::fs::metadata(test.path()).unwrap().len();
    let more = TestStore::new();
    more.knights()
        .args(["precompute", "--max-squares", "30", "--quiet"])
        .assert()
        .success();
    let expected = stored_answers(&more.path());

    // Add the answers of up to 30 squares without a checkpoint, and keep the log as it is then.
    let saved_wal = {
        let db = test.sqlite();
        db.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        db.execute(
            "ATTACH ?1 AS more",
            [more.path().to_str().expect("a UTF-8 temporary path")],
        )
        .unwrap();
        db.execute_batch(
            "INSERT INTO answers SELECT * FROM more.answers WHERE true ON CONFLICT DO NOTHING;
             DETACH more;",
        )
        .unwrap();
        std::fs::read(wal_of(&test)).unwrap()
    };
    // Closing checkpointed the log into the file. Put back the file as the checkpoint leaves
    // it when the disk fills: page 1 (the header, with the new size) written, the pages that
    // make the file grow not; and the log beside it.
    let full = std::fs::read(test.path()).unwrap();
    assert!(full.len() as u64 > small + 4096, "the store grew by pages");
    std::fs::write(test.path(), &full[..small as usize]).unwrap();
    let header_pages = u32::from_be_bytes(full[28..32].try_into().unwrap()) as u64;
    assert!(
        header_pages * 4096 > small,
        "the header counts more pages than the file holds"
    );

    // A log whose header does not check out holds nothing: the file is damaged.
    let mut bad_wal = saved_wal.clone();
    bad_wal[24] ^= 0xff;
    std::fs::write(wal_of(&test), &bad_wal).unwrap();
    let truncated = digest(&test.path());
    let output = test
        .knights()
        .args(["query", "--format", "csv"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is damaged") && stderr.contains("truncated?"),
        "{stderr}"
    );
    assert_eq!(digest(&test.path()), truncated);
    assert_eq!(std::fs::read(wal_of(&test)).unwrap(), bad_wal);

    // With the log as it was, everything is there.
    std::fs::write(wal_of(&test), &saved_wal).unwrap();
    let output = test
        .knights()
        .args(["query", "--format", "csv"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).lines().count(),
        expected.len() + 1
    );
    assert_eq!(stored_answers(&test.path()), expected);
    let integrity: String = test
        .sqlite()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
}

/// A store on a full disk: a command that has to save says SQLite's cause once, in one line
/// ("database or disk is full", not "…full: database or disk is full"), exit 1.
#[test]
fn a_full_disk_is_said_once() {
    let Some(disk) = SmallDisk::mount("1m") else {
        println!("note: cannot mount a tmpfs here (not root?); the full-disk test is skipped");
        return;
    };
    let db = disk.path().join("answers.db");
    let knights = || {
        let mut cmd = crate::util::knights();
        cmd.arg("--db").arg(&db);
        cmd
    };
    knights().args(["count", "3", "4"]).assert().success();
    let filler = disk.path().join("filler");
    {
        use std::io::Write;
        let mut file = std::fs::File::create(&filler).unwrap();
        while file.write_all(&[0x55; 4096]).is_ok() {}
        let _ = file.sync_all();
        // Room for SQLite's shared-memory index (32 KiB) when the store opens, not for
        // the answers' log (a page and its frame header do not fit in what is left).
        let full = file.metadata().unwrap().len();
        file.set_len(full.saturating_sub(40 << 10)).unwrap();
    }
    let output = knights()
        .args(["precompute", "--boards", "1x1..5x6", "--quiet"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    std::fs::remove_file(&filler).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(stderr.matches("full").count(), 1, "{stderr}");
    assert!(
        stderr.contains("the disk that holds the answer store")
            && stderr.contains("make room and run the same command again"),
        "{stderr}"
    );
}

/// A disk filled to the last byte: SQLite cannot make the shared memory a store's reader needs,
/// yet the store answers what it holds, read only, and says once that the disk is full; a
/// count it does not hold is computed and printed, not saved (exit 0); an import is refused in
/// one line; the file is unchanged.
#[test]
fn a_full_disk_is_read_only_and_says_so() {
    let Some(disk) = SmallDisk::mount("1m") else {
        println!("note: cannot mount a tmpfs here (not root?); the full-disk test is skipped");
        return;
    };
    let db = disk.path().join("answers.db");
    let knights = || {
        let mut cmd = crate::util::knights();
        cmd.arg("--db").arg(&db);
        cmd
    };
    knights()
        .args(["count", "5", "5", "0", "0"])
        .assert()
        .success();
    let before = std::fs::read(&db).unwrap();
    let filler = disk.path().join("filler");
    disk.fill();
    let warned = |stderr: &str, unsaved: &str| {
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "warning: the disk that holds the answer store {} is full: it was only read{unsaved}",
                db.display()
            )),
            "{stderr}"
        );
    };
    let stored = knights()
        .args(["count", "5", "5", "0", "0"])
        .output()
        .unwrap();
    assert!(stored.status.success());
    assert_eq!(String::from_utf8_lossy(&stored.stdout), "304\n");
    warned(&String::from_utf8_lossy(&stored.stderr), "\n");
    let new = knights()
        .args(["count", "5", "6", "0", "0"])
        .output()
        .unwrap();
    assert!(new.status.success());
    assert_eq!(String::from_utf8_lossy(&new.stdout), "4542\n");
    warned(
        &String::from_utf8_lossy(&new.stderr),
        "; 1 new answer was not saved",
    );
    let csv = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        csv.path(),
        format!(
            "{}\n5,6,open,0,0,4542,memo,0.1.0,0.001,2026-12-06T00:00:00Z,computed,,\n",
            knights::store::ANSWER_COLUMNS.join(",")
        ),
    )
    .unwrap();
    let refused = knights().arg("import").arg(csv.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("is full"), "{stderr}");
    std::fs::remove_file(&filler).unwrap();
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the store is unchanged"
    );
}

/// The way it happened: the disk fills while `precompute` saves; once there is room again,
/// the store opens, and holds every answer SQLite sees in it.
#[test]
fn a_store_left_by_a_full_disk_opens_with_every_answer() {
    let Some(disk) = SmallDisk::mount("2m") else {
        println!("note: cannot mount a tmpfs here (not root?); the full-disk test is skipped");
        return;
    };
    let db = disk.path().join("answers.db");
    let mut wal = db.clone().into_os_string();
    wal.push("-wal");
    let mut child = crate::util::process()
        .arg("--db")
        .arg(&db)
        .args(["precompute", "--boards", "1x1..6x7", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once some answers are committed (the log holds more than the schema, whose creation
    // writes about 8 pages since migration 4 rebuilds the answers table), fill the disk.
    let clock = Instant::now();
    while std::fs::metadata(&wal).map_or(0, |m| m.len()) < 32 + 16 * (24 + 4096)
        && clock.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    let filler = disk.path().join("filler");
    {
        use std::io::Write;
        let mut file = std::fs::File::create(&filler).unwrap();
        while file.write_all(&[0x55; 4096]).is_ok() {}
        let _ = file.sync_all();
    }
    let clock = Instant::now();
    while child.try_wait().unwrap().is_none() && clock.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    std::fs::remove_file(&filler).unwrap();
    if output.status.success() {
        println!("note: the precompute finished before the disk was full");
    } else {
        assert!(stderr.contains("full"), "{stderr}");
    }
    let file = std::fs::read(&db).unwrap();
    let header_pages = u32::from_be_bytes(file[28..32].try_into().unwrap()) as usize;
    if header_pages * 4096 <= file.len() {
        println!("note: the checkpoint was not cut short this time");
    }

    // knights opens it and lists every answer; SQLite itself then agrees.
    let output = crate::util::knights()
        .arg("--db")
        .arg(&db)
        .args(["query", "--format", "csv"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed = String::from_utf8_lossy(&output.stdout).lines().count() - 1;
    assert!(listed > 0, "answers were saved before the disk filled");
    let sqlite = rusqlite::Connection::open(&db).unwrap();
    let rows: i64 = sqlite
        .query_row("SELECT count(*) FROM answers", [], |r| r.get(0))
        .unwrap();
    let integrity: String = sqlite
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    drop(sqlite);
    assert_eq!(integrity, "ok");
    assert_eq!(listed as i64, rows);
    let mut recounter = Recounter::default();
    for answer in Store::open(&db).unwrap().list(&Default::default()).unwrap() {
        if answer.question.board.squares() <= 30 {
            assert_eq!(
                answer.count,
                recounter.count(&answer.question),
                "{}",
                answer.question
            );
        }
    }
}

/// A store the user can read but not write (a read-only file; a directory where SQLite cannot
/// make its `-wal` and `-shm`): cached answers are served, new ones are printed with one
/// warning that they were not saved, the commands that exist to write refuse in one line, and
/// nothing is changed or left beside the store.
#[cfg(unix)]
#[test]
fn a_store_the_user_cannot_write_still_answers() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    let probe = TestStore::new();
    let Some(reader) = Reader::new(probe.dir.path()) else {
        println!("note: no user here who cannot write (root without setpriv?); skipped");
        return;
    };
    // (what keeps the reader from writing, file mode, directory mode) as nobody or as this user.
    let cases = if reader.as_nobody {
        [("file", 0o644, 0o777), ("directory", 0o666, 0o755)]
    } else {
        [("file", 0o444, 0o700), ("directory", 0o666, 0o500)]
    };
    for (what, file_mode, dir_mode) in cases {
        let test = TestStore::new();
        let dir = test.dir.path();
        test.knights()
            .args(["precompute", "--max-squares", "20", "--quiet"])
            .assert()
            .success();
        let export = dir.join("export.csv");
        test.knights()
            .args(["export", "--output"])
            .arg(&export)
            .assert()
            .success();
        mode(&export, 0o644);
        mode(&test.path(), file_mode);
        mode(dir, dir_mode);
        let before = digest(&test.path());
        let files = listing(dir);
        let shown = test.path().display().to_string();
        let run = |args: &[&str]| reader.knights(&test.path()).args(args).output().unwrap();

        let cached = run(&["count", "5", "4", "0", "0"]);
        let stderr = String::from_utf8_lossy(&cached.stderr);
        assert!(cached.status.success(), "{what}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&cached.stdout), "32\n");
        assert_eq!(stderr, "");

        let new = run(&["count", "5", "5", "2", "2"]);
        let stderr = String::from_utf8_lossy(&new.stderr);
        assert!(new.status.success(), "{what}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&new.stdout), "64\n");
        assert_eq!(
            stderr,
            format!("warning: the answer store {shown} is read-only; 1 new answer was not saved\n")
        );

        let table = run(&["count", "5", "6", "--total"]);
        assert!(table.status.success(), "{what}");
        assert!(
            String::from_utf8_lossy(&table.stderr)
                .ends_with("read-only; 10 new answers were not saved\n"),
            "{}",
            String::from_utf8_lossy(&table.stderr)
        );

        let listed = run(&["query", "--board", "4x5"]);
        assert!(listed.status.success(), "{what}");
        assert!(String::from_utf8_lossy(&listed.stdout).contains("164"));

        for (args, command) in [
            (vec!["precompute", "--max-squares", "25"], "precompute"),
            (vec!["import", export.to_str().unwrap()], "import"),
        ] {
            let output = run(&args);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{what}: {stderr}");
            assert!(output.stdout.is_empty());
            assert_eq!(
                stderr,
                format!(
                    "error: the answer store {shown} is read-only: {command} needs to write to it\n"
                )
            );
        }

        assert_eq!(
            digest(&test.path()),
            before,
            "{what}: the store was changed"
        );
        assert_eq!(
            listing(dir),
            files,
            "{what}: files were left beside the store"
        );
        mode(dir, 0o755);
        mode(&test.path(), 0o644);
    }

    // A read-only store of an older schema cannot be brought up to date: a clear line.
    let test = TestStore::new();
    {
        let db = test.sqlite();
        db.execute_batch(MIGRATIONS[0].sql).unwrap();
        db.pragma_update(None, "user_version", 1).unwrap();
        db.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
    }
    let (file_mode, dir_mode) = if reader.as_nobody {
        (0o644, 0o755)
    } else {
        (0o444, 0o500)
    };
    mode(&test.path(), file_mode);
    mode(test.dir.path(), dir_mode);
    let before = digest(&test.path());
    let output = reader
        .knights(&test.path())
        .args(["count", "5", "4", "0", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "is read-only: its schema (version 1) cannot be brought up to version {SCHEMA_VERSION}"
        )),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    assert_eq!(digest(&test.path()), before);
    mode(test.dir.path(), 0o755);
}

/// A bad answer that lands in the store while a run computes (a race against a bad import):
/// the run's save of the same question conflicts, and is reported, but every other answer
/// the run computed is kept.
#[test]
fn a_conflict_while_computing_costs_no_other_answer() {
    use knights::resolve::{Progress, Settings, resolve};
    let test = TestStore::new();
    let mut store = Store::open(&test.path()).unwrap();
    let boards = knights::precompute::BoardSelection {
        max_squares: Some(24),
        ..Default::default()
    }
    .boards()
    .unwrap();
    let questions = knights::precompute::questions(&boards, TourKind::Open);
    let path = test.path();
    let mut computed = Vec::new();
    let mut planted: Option<knights::store::Answer> = None;
    let result = resolve(
        &questions,
        Some(&mut store),
        &Settings::default(),
        &mut |event| {
            if let Progress::Computed(answer) = event {
                computed.push(answer.clone());
                // Another process stores a wrong count for the first answer with tours.
                if planted.is_none() && answer.count > BigUint::from(0u32) {
                    let mut wrong = answer.clone();
                    wrong.count += 1u32;
                    Store::open(&path).unwrap().save(&[wrong.clone()]).unwrap();
                    planted = Some(wrong);
                }
            }
        },
    );
    let planted = planted.expect("some answer has tours");
    let message = result.unwrap_err().to_string();
    assert_eq!(
        message,
        format!(
            "conflicting answers for {}: the store has {}, the new answer is {}",
            planted.question,
            planted.count,
            planted.count.clone() - 1u32
        )
    );
    let stored = stored_answers(&test.path());
    assert!(computed.len() > 1);
    for answer in &computed {
        let expected = if answer.question == planted.question {
            &planted.count
        } else {
            &answer.count
        };
        assert_eq!(
            stored.get(&answer.question.to_string()),
            Some(expected),
            "{} was lost",
            answer.question
        );
    }
}

/// An interrupted precompute says how many answers it saved, and the store holds that many
/// (the theorems' zeros and the totals summed from their starts included).
#[test]
fn an_interrupted_precompute_counts_what_it_saved() {
    use std::process::{Command, Stdio};
    let test = TestStore::new();
    let child = crate::util::process()
        .arg("--db")
        .arg(test.path())
        .args(["precompute", "--max-squares", "42", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(130) {
        let said: i64 = stderr
            .split("the ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{stderr}"));
        assert_eq!(said, test.answers(), "{stderr}");
    } else {
        // Finished before the interruption on a fast machine: everything is there.
        assert!(output.status.success(), "{stderr}");
        assert!(test.answers() > 100);
    }
}

/// A store with a page overwritten (SQLite reads it as malformed) gives every command the same
/// one line and the same code, 2, whichever command reads the page: `query` used to exit 1
/// where `count` exited 2.
#[test]
fn a_malformed_page_is_the_same_refusal_in_every_command() {
    let test = TestStore::new();
    for board in [["5", "5"], ["5", "6"], ["6", "6"]] {
        test.knights().arg("count").args(board).assert().success();
    }
    let full = digest(&test.path());
    let pages = full.len() / 4096;
    assert!(pages >= 5, "the store has several pages");
    let mut damaged = 0;
    for page in 1..pages {
        let mut bytes = full.clone();
        bytes[page * 4096 + 50..page * 4096 + 2050].fill(0xff);
        for args in [&["query"][..], &["count", "6", "6"], &["export"]] {
            std::fs::write(test.path(), &bytes).unwrap();
            let output = test.knights().args(args).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            if stderr.contains("is damaged") {
                damaged += 1;
                assert_eq!(
                    output.status.code(),
                    Some(2),
                    "{args:?}, page {page}: {stderr}"
                );
                assert_eq!(stderr.lines().count(), 1, "{stderr}");
            }
        }
    }
    assert!(damaged > 0, "no page made a command find the store damaged");
}
