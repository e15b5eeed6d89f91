//! Runaway work: huge selections and boards are refused or filtered before any work is done.

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::TestStore;

#[test]
fn a_huge_board_range_is_filtered_while_it_is_listed() {
    // 10^10 sizes: listing them all first would exhaust memory.
    let test = TestStore::new();
    test.knights()
        .args([
            "precompute",
            "--boards",
            "1x1..100000x100000",
            "--max-squares",
            "10",
            "--quiet",
        ])
        .assert()
        .success();
    assert!(test.answers() > 10);
    test.knights()
        .args([
            "precompute",
            "--boards",
            "1x1..30000x30000",
            "--min-squares",
            "10",
        ])
        .assert()
        .code(2)
        .stderr(contains("the 10x10 board is beyond every engine"));
}

#[test]
fn a_per_square_table_beyond_every_engine_is_refused_before_listing_its_starts() {
    crate::util::knights()
        .args(["--no-cache", "count", "1000", "1000"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("1000x1000 board is beyond every engine"));
}

/// Under `auto`, the memo engine takes over a small board when the frontier engine stops on
/// the memory budget, and says so; asked for by name, the frontier engine's stop is an error
/// that shows sizes in the unit that fits.
#[test]
fn auto_falls_back_to_the_memo_engine_on_the_memory_budget() {
    let output = crate::util::knights()
        .args([
            "--no-cache",
            "--memory",
            "64K",
            "count",
            "4",
            "10",
            "--total",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("total (directed):   2426224"));
    assert!(
        stderr.contains("note: the frontier engine stopped on the memory budget"),
        "{stderr}"
    );
    assert!(stderr.contains("the memo engine counted"), "{stderr}");
    crate::util::knights()
        .args([
            "--no-cache",
            "--memory",
            "64K",
            "count",
            "4",
            "10",
            "--total",
            "--engine",
            "frontier",
        ])
        .assert()
        .code(1)
        .stderr(contains("over its memory budget of 64.0 KiB"));
}

/// Parallel tasks share the budget, and the message says so.
#[test]
fn a_shared_budget_is_named_as_shared() {
    // The starts of two boards: two tasks at once, each with half the budget.
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("two-boards.txt");
    std::fs::write(&queries, "2\n6 7 0 0\n6 8 0 0\n").unwrap();
    crate::util::knights()
        .args(["--no-cache", "--memory", "128K", "solve"])
        .arg(&queries)
        .args(["--engine", "frontier"])
        .assert()
        .failure()
        .stderr(contains("(the 128.0 KiB budget shared by 2 tasks)"));
    // The starts of a board that meets in the middle are one task, with the whole budget.
    crate::util::knights()
        .args([
            "--no-cache",
            "--memory",
            "128K",
            "count",
            "6",
            "6",
            "--engine",
            "frontier",
        ])
        .assert()
        .code(1)
        .stderr(contains("budget of 128.0 KiB;").and(contains("shared by").not()));
}

/// One record is checked in time and memory that grow with its board, not with the board's
/// pairs: a pair of 3x100000 (10^5 squares, some 4.5 x 10^10 ordered pairs) is imported
/// under an address-space limit of 1 GiB. Before, every pair of the board was looked up.
#[test]
fn importing_one_pair_of_a_long_board_does_not_list_the_boards_pairs() {
    let test = TestStore::new();
    let file = test.dir.path().join("pair.csv");
    std::fs::write(
        &file,
        "rows,cols,kind,row,col,count,engine,version,seconds,computed_at,source,to_row,to_col\n\
         3,100000,between,0,0,2,frontier,0.1.0,0.1,2026-12-01T11:58:38Z,computed,2,99999\n",
    )
    .unwrap();
    assert_cmd::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576; exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_knights"))
        .env("KNIGHTS_NO_SHIPPED", "1")
        .arg("--db")
        .arg(test.path())
        .arg("import")
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .stderr(contains("imported 1 new answer"));
    assert_eq!(test.answers(), 1);
}

/// The budget's refusal names the board as it was asked (the engine sweeps 3x40 as 40 rows of
/// 3), in either orientation and in a series, and speaks of 1 state and 1 byte in the singular.
#[test]
fn the_budget_refusal_names_the_board_as_asked() {
    for (args, board, states) in [
        (&["count", "3", "40"][..], "3x40", "1 state "),
        (&["count", "40", "3", "--closed"][..], "40x3", "1 state "),
        (
            &["series", "3", "--cols", "40..40"][..],
            "3x40",
            "3 states ",
        ),
    ] {
        let output = crate::util::knights()
            .args(["--no-cache", "--memory", "1"])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        for part in [
            format!("reached {states}("),
            format!("at square 1 of 120 of the {board} board"),
            "over its memory budget of 1 byte;".to_string(),
        ] {
            assert!(stderr.contains(&part), "{args:?}: {part}\n{stderr}");
        }
    }
}

/// An import holds its whole file (its records are checked together): a file whose answers
/// need more than `--memory` is refused at the line where they pass it, and nothing is written.
#[test]
fn an_import_beyond_the_memory_budget_is_refused() {
    use std::fmt::Write;
    let store = TestStore::new();
    store.run(&["count", "3", "4", "0", "0"]);
    let before = store.answers();
    let mut csv = knights::store::ANSWER_COLUMNS.join(",");
    csv.push('\n');
    for cols in 40..100u32 {
        let count = format!("2{}", "0".repeat(2 * cols as usize));
        for col in 0..cols.div_ceil(2) {
            writeln!(
                csv,
                "6,{cols},open,0,{col},{count},frontier,0.1.0,1.5,2026-12-01T00:00:00Z,computed,,"
            )
            .unwrap();
        }
    }
    let file = store.dir.path().join("many.csv");
    std::fs::write(&file, csv).unwrap();
    let output = store
        .process()
        .args(["--memory", "100K", "import"])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("records need more than the memory budget of 100.0 KiB")
            && stderr.contains("line "),
        "{stderr}"
    );
    assert_eq!(store.answers(), before);
    // The same file within a budget that holds it is imported.
    let output = store
        .process()
        .args(["import", "--memory", "1G"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
}

/// A file checked against more stored answers of its board than the budget holds is refused
/// before they are read, naming them; the store is left as it was.
#[test]
fn an_import_checked_against_more_stored_answers_than_the_budget_is_refused() {
    use std::fmt::Write;
    let store = TestStore::new();
    let mut csv = knights::store::ANSWER_COLUMNS.join(",");
    csv.push('\n');
    let count = format!("2{}", "0".repeat(4000));
    for col in 0..1000u32 {
        writeln!(
            csv,
            "6,2000,open,0,{col},{count},frontier,0.1.0,1.5,2026-12-01T00:00:00Z,computed,,"
        )
        .unwrap();
    }
    let file = store.dir.path().join("many.csv");
    std::fs::write(&file, &csv).unwrap();
    store.run(&["import", file.to_str().unwrap()]);
    let before = store.answers();
    assert_eq!(before, 1000);
    // One of those answers again: the file is small, the stored answers of its board are not.
    let one = store.dir.path().join("one.csv");
    let lines: Vec<&str> = csv.lines().take(2).collect();
    std::fs::write(&one, lines.join("\n") + "\n").unwrap();
    let output = store
        .process()
        .args(["import", "--memory", "100K"])
        .arg(&one)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("checking this file against the store's 1000 answers of 6x2000 needs more than the memory budget of 100.0 KiB"),
        "{stderr}"
    );
    assert_eq!(store.answers(), before);
    // Within a budget that holds them, it is checked and found stored.
    let output = store.process().arg("import").arg(&one).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("(1 already stored)"), "{stderr}");
}
