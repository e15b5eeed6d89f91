//! Counts the store serves must be true (issue 13): imports are checked record by record against
//! the store, the theorems, parity, the bound of the board, the engines' reach and a recount;
//! every answer keeps where it came from; `knights verify` finds what was changed in the file;
//! `count` refuses to serve a stored answer that contradicts what is known.

use std::process::Output;

use knights::store::{APPLICATION_ID, MIGRATIONS, Store};
use predicates::str::contains;

use crate::util::TestStore;

const HEADER: &str = "rows,cols,kind,row,col,count,engine,version,seconds,computed_at\n";

/// Imports `records` (after the old header, so the first record is line 2) into `test`.
fn import(test: &TestStore, records: &str) -> Output {
    let file = test.dir.path().join("in.csv");
    std::fs::write(&file, format!("{HEADER}{records}")).unwrap();
    test.knights().arg("import").arg(&file).output().unwrap()
}

/// The import is refused with exit 2 and one line that contains `message`, and the store keeps
/// exactly what it had.
fn refused(test: &TestStore, records: &str, message: &str) {
    let before = test.answers();
    let output = import(test, records);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{records}: {stderr}");
    assert!(stderr.contains(message), "{records}: {stderr}");
    assert!(stderr.contains("in.csv: line "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(test.answers(), before, "{records}: something was imported");
}

fn record(rest: &str) -> String {
    format!("{rest},memo,0.1.0,0.5,2026-11-29T14:28:00Z\n")
}

#[test]
fn import_refuses_counts_that_cannot_be_right_naming_the_record() {
    let test = TestStore::new();
    test.knights().args(["count", "3", "4"]).assert().success();
    let good = record("5,6,open,0,0,4542");
    // One wrong count among good ones: recounted (6x6's starts are published nowhere, and
    // 36 squares are cheap) and refused.
    refused(
        &test,
        &format!("{good}{}", record("6,6,open,0,0,524488")),
        "line 3: open tours of 6x6 from (0, 0): count 524488 cannot be right: expected 524486 (recounted by the memo engine)",
    );
    // More tours than the board's moves allow.
    refused(
        &test,
        &record("5,5,open,0,0,12345678901234567890"),
        "line 2: open tours of 5x5 from (0, 0): count 12345678901234567890 cannot be right: expected at most ",
    );
    // Odd directed totals.
    refused(
        &test,
        &record("5,5,open,,,1729"),
        "line 2: open tours of 5x5 (directed board total): count 1729 cannot be right: expected an even number",
    );
    refused(
        &test,
        &record("6,6,closed,,,19725"),
        "line 2: closed tours of 6x6 (directed board total): count 19725 cannot be right: expected an even number",
    );
    // A count that a theorem rules out.
    refused(
        &test,
        &record("3,5,open,0,0,4"),
        "line 2: open tours of 3x5 from (0, 0): count 4 cannot be right: expected 0 (no open tour on 3x5",
    );
    // Boards beyond every engine: nothing could have counted them.
    refused(
        &test,
        &record("10,10,open,,,1000"),
        "line 2: open tours of 10x10 (directed board total): count 1000 cannot be checked: no engine of this knights counts it",
    );
    // The right count, recounted, goes in.
    let output = import(&test, &record("6,6,open,0,0,524486"));
    assert!(output.status.success(), "{output:?}");
    // The store's own answer, on a board neither published nor recounted (3x13).
    test.run(&["count", "3", "13", "0", "0", "--engine", "memo"]);
    refused(
        &test,
        &record("3,13,open,0,0,30494"),
        "line 2: conflicting answers for open tours of 3x13 from (0, 0): the store has 30492 (memo, computed), the file has 30494",
    );
}

#[test]
fn import_refuses_a_total_that_contradicts_the_stored_starts() {
    // 3x13: neither published nor recounted, so only the sums can tell. Its starts but two
    // ((0, 0) and (0, 2), classes of 4 squares: 4·30492 + 4·2216 of its 257728), no total.
    let test = TestStore::new();
    test.run(&["count", "3", "13"]);
    test.sqlite()
        .execute(
            "DELETE FROM answers WHERE rows = 3 AND cols = 13 AND kind = 'open'
                 AND (row IS NULL OR (row = 0 AND col IN (0, 2)))",
            [],
        )
        .unwrap();
    refused(
        &test,
        &record("3,13,open,,,100000").replace(",memo,", ",sum,"),
        "line 2: the total of 3x13 is 100000 (in this file), but the starts of it in this file and the store already add up to more: 126896",
    );
    // With the other two starts in the file, the starts are complete: 257728, not 257730.
    refused(
        &test,
        &format!(
            "{}{}{}",
            record("3,13,open,0,0,30492"),
            record("3,13,open,0,2,2216"),
            record("3,13,open,,,257730").replace(",memo,", ",sum,")
        ),
        "line 4: the total of 3x13 is 257730 (in this file), but its starts in this file and the store add up to 257728",
    );
    // And the other way round: the starts in the file against a stored total.
    let other = TestStore::new();
    other.run(&["count", "3", "13", "--total", "--engine", "frontier"]);
    refused(
        &other,
        &record("3,13,open,0,0,70000"),
        "line 2: the total of 3x13 is 257728 (in the store), but the starts of it in this file and the store already add up to more: 280000",
    );
}

#[test]
fn import_refuses_times_and_seconds_out_of_range() {
    let test = TestStore::new();
    test.knights()
        .args(["count", "4", "5", "0", "0"])
        .assert()
        .success();
    for (fields, message) in [
        (
            "3,4,open,0,0,2,memo,0.1.0,0.5,9999-99-99T99:99:99Z",
            "line 2: computed_at '9999-99-99T99:99:99Z' is not a real time: the month is not 01 to 12",
        ),
        (
            "3,4,open,0,0,2,memo,0.1.0,0.5,2026-02-30T10:00:00Z",
            "line 2: computed_at '2026-02-30T10:00:00Z' is not a real time: the day is not in that month",
        ),
        (
            "3,4,open,0,0,2,memo,0.1.0,0.5,2026-11-29T14:60:00Z",
            "line 2: computed_at '2026-11-29T14:60:00Z' is not a real time: the minute",
        ),
        (
            "3,4,open,0,0,2,memo,0.1.0,0.5,3026-11-29T14:28:00Z",
            "line 2: computed_at '3026-11-29T14:28:00Z' is in the future",
        ),
        (
            "3,4,open,0,0,2,memo,0.1.0,1e308,2026-11-29T14:28:00Z",
            "line 2: seconds '1e308' is out of range",
        ),
        (
            "3,4,open,0,0,2,memo,0.1.0,-3,2026-11-29T14:28:00Z",
            "line 2: seconds '-3' is not a number of seconds",
        ),
        (
            "3,4,open,0,0,2,memo,0.1.0,NaN,2026-11-29T14:28:00Z",
            "line 2: seconds 'NaN' is not a number of seconds",
        ),
    ] {
        refused(&test, &format!("{fields}\n"), message);
    }
    // JSON numbers too.
    let file = test.dir.path().join("in.json");
    std::fs::write(
        &file,
        "[\n{\"rows\":3,\"cols\":4,\"kind\":\"open\",\"row\":0,\"col\":0,\"count\":\"2\",\"engine\":\"memo\",\"version\":\"0.1.0\",\"seconds\":1e308,\"computed_at\":\"2026-11-29T14:28:00Z\"}\n]\n",
    )
    .unwrap();
    test.knights()
        .arg("import")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains("line 2: seconds '1e+308' is out of range"));
}

/// The answers in `test` as JSON records.
fn stored(test: &TestStore, board: &str) -> Vec<serde_json::Value> {
    let output = test
        .knights()
        .args(["query", "--board", board, "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    serde_json::from_slice::<serde_json::Value>(&output.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn imports_keep_their_provenance_and_sums_never_claim_an_engine() {
    let computed = TestStore::new();
    computed
        .knights()
        .args(["count", "5", "5"])
        .assert()
        .success();
    // Computed here: the starts by the memo engine, the total as their sum.
    let records = stored(&computed, "5x5");
    let total = &records[0];
    assert_eq!(total["row"], serde_json::Value::Null);
    assert_eq!(total["engine"], "sum");
    assert_eq!(total["source"], "sum of starts (memo, computed)");
    assert!(
        records[1..]
            .iter()
            .all(|r| r["source"] == "computed" && r["engine"] != "sum")
    );

    // Only the starts, in an old export (no source column): imported, then the total added up.
    let export = computed
        .knights()
        .args(["export", "--board", "5x5", "--format", "csv"])
        .output()
        .unwrap();
    let text = String::from_utf8(export.stdout).unwrap();
    let old: String = text
        .lines()
        .skip(1)
        .filter(|line| !line.starts_with("5,5,open,,"))
        .map(|line| format!("{}\n", &line[..line.rfind(",computed").unwrap()]))
        .collect();
    let other = TestStore::new();
    let output = import(&other, &old);
    assert!(output.status.success(), "{output:?}");
    let file = other.dir.path().join("in.csv");
    let imported = format!("imported from {}", file.display());
    other
        .knights()
        .args(["query", "--board", "5x5"])
        .assert()
        .success()
        .stdout(contains("source"))
        .stdout(contains(&imported));
    other
        .knights()
        .args(["count", "5", "5", "--total"])
        .assert()
        .success()
        .stdout(contains("total (directed):   1728"));
    let records = stored(&other, "5x5");
    assert_eq!(records[0]["engine"], "sum", "{:?}", records[0]);
    assert_eq!(
        records[0]["source"],
        format!("sum of starts (memo, {imported})")
    );
    assert!(
        records[1..]
            .iter()
            .all(|r| r["source"] == imported.as_str())
    );

    // The new format carries the source along.
    let file = computed.dir.path().join("out.json");
    computed
        .knights()
        .args(["export", "--output"])
        .arg(&file)
        .assert()
        .success();
    let third = TestStore::new();
    third.knights().arg("import").arg(&file).assert().success();
    let records = stored(&third, "5x5");
    assert_eq!(
        records[0]["source"],
        format!(
            "imported from {} (sum of starts (memo, computed))",
            file.display()
        )
    );
}

/// Changes a count in the file behind knights' back.
fn tamper(test: &TestStore, condition: &str, count: &str) {
    let changed = test
        .sqlite()
        .execute(
            &format!("UPDATE answers SET count = ?1 WHERE {condition}"),
            [count],
        )
        .unwrap();
    assert_eq!(changed, 1, "{condition}");
}

#[test]
fn a_tampered_store_is_reported_by_verify_and_never_served() {
    let test = TestStore::new();
    for args in [
        &["count", "3", "4"][..],
        &["count", "5", "5"],
        &["count", "3", "5", "0", "0"],
        &["count", "6", "6", "--closed"],
    ] {
        test.knights().args(args).assert().success();
    }
    test.knights()
        .args(["verify", "--recount"])
        .assert()
        .success()
        .stdout(contains("0 problems"));

    tamper(
        &test,
        "rows = 3 AND cols = 4 AND kind = 'open' AND row IS NULL",
        "999",
    );
    tamper(
        &test,
        "rows = 5 AND cols = 5 AND row = 0 AND col = 0",
        "305",
    );
    tamper(&test, "rows = 3 AND cols = 5 AND row = 0 AND col = 0", "4");
    tamper(&test, "rows = 6 AND cols = 6 AND kind = 'closed'", "19726");

    let output = test.knights().arg("verify").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    for line in [
        "open tours of 3x4 (directed board total): stored 999, expected an even number",
        "open tours of 3x4 (directed board total): stored 999, expected 16 (the sum of its starts' counts: ",
        "open tours of 5x5 (directed board total): stored 1728, expected 1732 (the sum of its starts' counts: ",
        "open tours of 3x5 from (0, 0): stored 4, expected 0 (no open tour on 3x5",
        // Published values catch what no other cheap check can.
        "open tours of 5x5 from (0, 0): stored 305, expected 304 (known from the per-square table",
        "closed tours of 6x6 (directed board total): stored 19726, expected 19724 (known from OEIS A175881)",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
    assert!(stdout.contains(": 6 problems"), "{stdout}");
    // The filters narrow it down.
    test.knights()
        .args(["verify", "--board", "4x3"])
        .assert()
        .code(1)
        .stdout(contains("2 problems"));
    test.knights()
        .args(["verify", "--max-squares", "11"])
        .assert()
        .success();

    // Recounting finds them again, by the engines.
    let output = test
        .knights()
        .args(["verify", "--recount", "--seconds", "60"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    for line in [
        "open tours of 5x5 from (0, 0): stored 305, expected 304 (recounted by the memo engine)\n",
        "open tours of 3x4 (directed board total): stored 999, expected 16 (recounted by the memo engine, as the sum of its starts)\n",
        "closed tours of 6x6 (directed board total): stored 19726, expected 19724 (recounted by the memo engine)\n",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
    assert!(stdout.contains("9 problems; "), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("9 problems in"));

    // count refuses what contradicts a theorem, parity or its starts: one line, exit 1.
    for (args, message) in [
        (
            &["count", "3", "4", "--total"][..],
            "holds 999 for open tours of 3x4 (directed board total), but expected an even number",
        ),
        (&["count", "4", "3"], "holds 999 for open tours of 3x4"),
        (
            &["count", "5", "5"],
            "holds 305 for open tours of 5x5 from (0, 0), but expected 304 (known from the per-square table",
        ),
        (
            &["count", "5", "3", "4", "2"],
            "holds 4 for open tours of 3x5 from (0, 0), but expected 0 (no open tour on 3x5",
        ),
    ] {
        let output = test.knights().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(stderr.contains("run `knights verify`"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// A start edited behind knights' back makes its total disagree with the sum of the starts:
/// verify cannot tell which side is wrong, so it names both, the total and each start with
/// its count (the edited corner among them); the same for a start and its pairs.
#[test]
fn verify_names_both_sides_of_a_sum_that_disagrees() {
    // 3x13: neither published nor recounted, so only the sum tells that something is wrong.
    let test = TestStore::new();
    test.run(&["count", "3", "13"]);
    tamper(
        &test,
        "rows = 3 AND cols = 13 AND row = 0 AND col = 0 AND kind = 'open'",
        "30494",
    );
    let output = test.knights().arg("verify").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let line = stdout
        .lines()
        .find(|line| line.starts_with("open tours of 3x13 (directed board total): stored 257728"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.contains("expected 257736 (the sum of its starts' counts: (0, 0) 30494 x4, (0, 1) 0 x4, (0, 2) 2216 x4, "), "{line}");
    assert!(
        line.ends_with("; either this count or one of its starts is wrong"),
        "{line}"
    );
    assert!(stdout.contains(": 1 problem\n"), "{stdout}");

    // A start and a pair from it that holds more than the start.
    let test = TestStore::new();
    test.run(&["count", "5", "5", "0", "0"]);
    test.run(&["count", "5", "5", "0", "0", "--to", "4", "4"]);
    tamper(&test, "kind = 'between'", "400");
    let output = test.knights().arg("verify").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "open tours of 5x5 from (0, 0): stored 304, expected at least 400 (the pairs known from this start already add up to that: to (4, 4) 400); either this count or one of its pairs is wrong\n"
        ),
        "{stdout}"
    );
}

/// Rows planted past the schema's CHECKs (raw SQL under `PRAGMA ignore_check_constraints`):
/// `verify` names each one, in a line of its own, and still checks the other answers (the
/// edited total of 3x4 is found too); `export` names each one and writes nothing, exit 2; a
/// filter that leaves them out exports the rest.
#[test]
fn rows_past_the_schemas_checks_are_each_named_and_the_rest_checked() {
    let test = TestStore::new();
    test.run(&["precompute", "--max-squares", "12", "--quiet"]);
    tamper(
        &test,
        "rows = 3 AND cols = 4 AND kind = 'open' AND row IS NULL",
        "999",
    );
    let db = test.sqlite();
    db.execute_batch(
        "PRAGMA ignore_check_constraints = ON;
         INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds, computed_at, source)
         VALUES (5, 4, 'open', NULL, NULL, '10', 'memo', '0.1.0', 1.0, '2026-01-01T00:00:00Z', 'computed'),
                (3, 3, 'open', 0, 5, '8', 'memo', '0.1.0', 1.0, '2026-01-01T00:00:00Z', 'computed'),
                (4, 5, 'open', NULL, NULL, '-3', 'memo', '0.1.0', -1.0, '2026-01-01T00:00:00Z', 'computed');",
    )
    .unwrap();
    drop(db);
    let output = test.knights().arg("verify").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    for planted in [
        "(rows=5, cols=4, kind='open', row=NULL, col=NULL, to_row=NULL, to_col=NULL, count='10'): the board is stored as 5x4",
        "(rows=3, cols=3, kind='open', row=0, col=5, to_row=NULL, to_col=NULL, count='8'): the square (0, 5) is not on 3x3",
        "(rows=4, cols=5, kind='open', row=NULL, col=NULL, to_row=NULL, to_col=NULL, count='-3'): the count '-3' is not a whole number",
    ] {
        let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(planted)).collect();
        assert_eq!(lines.len(), 1, "{planted}\n{stdout}");
        assert!(lines[0].contains(": row "), "{}", lines[0]);
    }
    assert!(
        stdout.contains(
            "open tours of 3x4 (directed board total): stored 999, expected an even number"
        ),
        "{stdout}"
    );

    let export = test.dir.path().join("export.csv");
    let output = test
        .knights()
        .args(["export", "-o"])
        .arg(&export)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!export.exists(), "an export without its rows was written");
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.contains(" of the answers table ("))
            .count(),
        3,
        "{stderr}"
    );
    assert!(
        stderr.lines().last().unwrap().contains("3 rows of"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was exported"), "{stderr}");
    test.knights()
        .args(["export", "--max-squares", "8", "-o"])
        .arg(&export)
        .assert()
        .success();
    assert!(export.exists());
}

#[test]
fn a_clean_store_verifies() {
    let test = TestStore::new();
    test.knights()
        .args(["precompute", "--max-squares", "25", "--quiet"])
        .assert()
        .success();
    test.knights()
        .args(["precompute", "--closed", "--max-squares", "30", "--quiet"])
        .assert()
        .success();
    let output = test
        .knights()
        .args(["verify", "--recount", "--seconds", "600"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("0 problems; "), "{stdout}");
    assert!(!stdout.contains(" not ("), "{stdout}");
    // An empty store is clean too; a store that is not there is refused (issue 22: a typo
    // in --db must not pass as clean, nor create the store).
    let empty = TestStore::new();
    empty.run(&["query"]);
    empty
        .knights()
        .arg("verify")
        .assert()
        .success()
        .stdout(contains("0 answers checked"));
    crate::util::knights()
        .args(["--no-cache", "verify"])
        .assert()
        .code(2)
        .stderr(contains("--no-cache makes no sense here"));
}

/// A store of schema version 2: its open totals under the memo engine were sums of their
/// starts, and say so once migrated; other answers have an unrecorded source.
#[test]
fn the_migration_relabels_old_sums() {
    let test = TestStore::new();
    {
        let db = test.sqlite();
        for migration in &MIGRATIONS[..2] {
            db.execute_batch(migration.sql).unwrap();
        }
        db.execute_batch(
            "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds, computed_at) VALUES
                 (3, 4, 'open', NULL, NULL, '16', 'memo', '0.1.0', 0.01, '2026-11-29T14:28:00Z'),
                 (3, 4, 'open', 0, 0, '2', 'memo', '0.1.0', 0.01, '2026-11-29T14:28:00Z'),
                 (5, 8, 'open', NULL, NULL, '36122108', 'frontier', '0.1.0', 0.3, '2026-11-29T14:28:00Z');",
        )
        .unwrap();
        db.pragma_update(None, "user_version", 2).unwrap();
        db.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
    }
    let answers = Store::open(&test.path())
        .unwrap()
        .list(&Default::default())
        .unwrap();
    let summary: Vec<(String, String)> = answers
        .iter()
        .map(|a| (a.engine.to_string(), a.source.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "sum".to_string(),
                "sum of starts (memo, unrecorded)".to_string()
            ),
            ("memo".to_string(), "unrecorded".to_string()),
            ("frontier".to_string(), "unrecorded".to_string()),
        ]
    );
    test.knights().arg("verify").assert().success();
}

/// Every reader of the store refuses a stored total that contradicts its stored starts (issue
/// 20): after `count 5 6`, the total edited from 37568 to 37570 (even, within the bound: only
/// its starts give it away) is refused by `count` (the total and the table), `series`,
/// `batch` and `solve` (which read starts of the board), `precompute` and the shards' `run`
/// and `merge`, each with one line naming the store and exit 1; no count is printed (`series`
/// prints the header of the boards it knew before the error: none).
#[test]
fn every_reader_refuses_a_total_that_contradicts_its_starts() {
    // 3x13: neither published nor recounted, so only its starts contradict the total.
    let test = TestStore::new();
    test.knights().args(["count", "3", "13"]).assert().success();
    tamper(
        &test,
        "rows = 3 AND cols = 13 AND kind = 'open' AND row IS NULL",
        "257730",
    );
    let queries = test.dir.path().join("queries.txt");
    std::fs::write(&queries, "3 13 0 0\n").unwrap();
    let judge = test.dir.path().join("judge.txt");
    std::fs::write(&judge, "1\n13 3 0 0\n").unwrap();
    let plan = test.dir.path().join("plan.jsonl");
    test.knights()
        .args(["shards", "plan", "3", "13", "-o"])
        .arg(&plan)
        .assert()
        .success();
    let plan = plan.to_str().unwrap();
    let store = test.path().display().to_string();
    let message = format!(
        "{store} holds 257730 for open tours of 3x13 (directed board total), but expected 257728 (the sum of its starts' counts)"
    );
    for args in [
        &["count", "3", "13", "--total"][..],
        &["count", "13", "3"],
        &["series", "3", "--cols", "13..13", "--quiet"],
        &["batch", queries.to_str().unwrap(), "--quiet"],
        &["solve", judge.to_str().unwrap()],
        &["precompute", "--boards", "3x13", "--quiet"],
        &["shards", "run", plan, "--worker", "0", "--quiet"],
        &["shards", "merge", plan, "--from", &store],
    ] {
        let output = test.knights().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            !stdout.chars().any(|c| c.is_ascii_digit()),
            "{args:?}: {stdout}"
        );
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}
