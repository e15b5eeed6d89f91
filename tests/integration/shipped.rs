//! The results that ship with knights (`data/`'s tables and pairs) answer a new store at once,
//! enter it through the gate of an import with their provenance, and are never forced on a
//! store that holds a different count: that store is reported and keeps what it had.

use predicates::prelude::*;

use crate::util::TestStore;

/// The one number `sql` selects from the store's file.
fn number(store: &TestStore, sql: &str) -> i64 {
    store.sqlite().query_row(sql, [], |r| r.get(0)).unwrap()
}

/// `knights --db STORE` with the shipped results (the other tests leave them out).
fn with_shipped(store: &TestStore) -> assert_cmd::Command {
    let mut cmd = store.knights();
    cmd.env_remove("KNIGHTS_NO_SHIPPED");
    cmd
}

#[test]
fn a_new_store_answers_eight_by_eight_from_the_shipped_table() {
    let store = TestStore::new();
    with_shipped(&store)
        .args(["count", "8", "8", "0", "0"])
        .assert()
        .success()
        .stdout("1222177251161336\n");
    // A pair, and the board's total, likewise.
    with_shipped(&store)
        .args(["count", "8", "8", "0", "0", "--to", "0", "1"])
        .assert()
        .success()
        .stdout("54552256212699\n");
    with_shipped(&store)
        .args(["count", "8", "8", "--total"])
        .assert()
        .success()
        .stdout(predicate::str::contains("19591828170979904"));
    // Their provenance names the release and the file, and no machine's paths.
    let version = env!("CARGO_PKG_VERSION");
    let source = store.field(
        "source",
        "rows = 8 AND cols = 8 AND kind = 'open' AND row = 0 AND col = 0",
    );
    assert!(
        source.starts_with(&format!(
            "shipped with knights {version} (data/8x8-open.csv: "
        )),
        "{source}"
    );
    let paths = number(
        &store,
        "SELECT count(*) FROM answers WHERE source LIKE '%/work/%' OR source LIKE '%/tmp/%'",
    );
    assert_eq!(paths, 0);
    // They are answers like any other: verify checks them and finds nothing wrong.
    with_shipped(&store)
        .args(["verify"])
        .assert()
        .success()
        .stdout(predicate::str::contains(": 0 problems"));
}

/// The judge format on a new store: 8x8 lines are answered from the shipped table (the
/// whole input is still checked first: without the table they are refused).
#[test]
fn solve_answers_eight_by_eight_lines_from_the_shipped_table() {
    let store = TestStore::new();
    with_shipped(&store)
        .arg("solve")
        .write_stdin("3\n8 8 0 0\n8 8 3 3\n5 4 0 0\n")
        .assert()
        .success()
        .stdout("1222177251161336\n257116424337910\n32\n");
    let other = TestStore::new();
    other
        .knights()
        .arg("solve")
        .write_stdin("2\n5 4 0 0\n8 8 0 0\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("line 3").and(predicate::str::contains("beyond one machine")),
        );
}

#[test]
fn without_the_shipped_results_eight_by_eight_is_beyond_one_machine() {
    let store = TestStore::new();
    with_shipped(&store)
        .args(["--no-shipped", "count", "8", "8", "0", "0"])
        .assert()
        .failure()
        .stdout("");
    assert_eq!(store.answers(), 0);
}

#[test]
fn the_shipped_results_enter_a_store_once_per_release() {
    let store = TestStore::new();
    with_shipped(&store)
        .args(["count", "3", "4", "0", "0"])
        .assert()
        .success();
    let first = store.answers();
    assert!(first > 300, "{first}");
    let release: String = store
        .sqlite()
        .query_row("SELECT release FROM shipped", [], |r| r.get(0))
        .unwrap();
    assert_eq!(release, env!("CARGO_PKG_VERSION"));
    with_shipped(&store)
        .args(["count", "3", "4", "0", "0"])
        .assert()
        .success();
    assert_eq!(store.answers(), first);
}

/// A store whose own count of a shipped question differs is not changed: the file that holds
/// the other count is refused whole with one warning line (every time, as the store is not
/// marked), the other files enter, and the command still answers.
#[test]
fn a_store_that_disagrees_with_a_shipped_file_is_reported_and_keeps_its_count() {
    let store = TestStore::new();
    store.run(&["count", "3", "4", "0", "0"]);
    store
        .sqlite()
        .execute(
            "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds,
                                  computed_at, source)
             VALUES (7, 7, 'open', 0, 0, '19023006778', 'frontier', '0.1.0', 300.0,
                     '2026-11-30T16:02:50Z', 'computed')",
            [],
        )
        .unwrap();
    for _ in 0..2 {
        with_shipped(&store)
            .args(["count", "3", "4", "0", "0"])
            .assert()
            .success()
            .stdout("2\n")
            .stderr(
                predicate::str::contains("data/7x7-open.csv")
                    .and(predicate::str::contains("19023006778"))
                    .and(predicate::str::contains("19023006776")),
            );
    }
    assert_eq!(
        store.field(
            "count",
            "rows = 7 AND cols = 7 AND kind = 'open' AND row = 0 AND col = 0"
        ),
        "19023006778"
    );
    let seven_by_seven = number(
        &store,
        "SELECT count(*) FROM answers WHERE rows = 7 AND cols = 7",
    );
    assert_eq!(seven_by_seven, 1, "nothing of the refused file entered");
    assert_eq!(
        store.field(
            "count",
            "rows = 8 AND cols = 8 AND row = 0 AND col = 0 AND kind = 'open'"
        ),
        "1222177251161336",
        "the other files entered"
    );
    assert_eq!(number(&store, "SELECT count(*) FROM shipped"), 0);
}

/// `verify` reports on a store as it is: it does not add the shipped results first.
#[test]
fn verify_does_not_change_the_store() {
    let store = TestStore::new();
    store.run(&["count", "3", "4", "0", "0"]);
    let before = store.answers();
    with_shipped(&store).args(["verify"]).assert().success();
    assert_eq!(store.answers(), before);
}
