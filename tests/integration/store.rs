//! The answer store: schema, refusal of files that are not ours, and nothing lost when several
//! processes write at once or one is killed.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use knights::question::{Question, TourKind};
use knights::store::{APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Store};
use knights::{Board, Square};
use num_bigint::BigUint;
use predicates::str::contains;

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
    assert_eq!(kinds, ["closed", "open"]);

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
    assert_ne!(output.status.code(), Some(0), "{stderr}");
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
        Command::new(env!("CARGO_BIN_EXE_knights"))
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
                Command::new(env!("CARGO_BIN_EXE_knights"))
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_knights"))
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
