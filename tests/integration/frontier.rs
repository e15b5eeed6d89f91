//! The frontier engine against the memo engine and published counts.

use knights::count::Limits;
use knights::count::frontier::{self, FrontierMode};
use knights::count::memo::{MemoCounter, count_cycles};
use knights::{Board, CancelFlag, MemoryBudget};
use num_bigint::BigUint;

use crate::util::published_totals;

fn frontier(board: Board, mode: FrontierMode) -> BigUint {
    frontier::count(
        board,
        mode,
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap()
    .0
}

/// Every board of at most 30 squares, both orientations: every per-square open count, every
/// board total and every closed count agree between the two engines.
#[test]
fn engines_agree_on_every_board_up_to_30_squares() {
    let mut boards = 0;
    for rows in 1..=30u32 {
        for cols in 1..=30 / rows {
            let board = Board::new(rows, cols).unwrap();
            let table = MemoCounter::new(
                board,
                &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
            )
            .unwrap()
            .table()
            .unwrap();
            for square in board.all_squares() {
                assert_eq!(
                    &frontier(board, FrontierMode::Start(square)),
                    table.get(square),
                    "{board} from {square}"
                );
            }
            assert_eq!(
                frontier(board, FrontierMode::Total),
                table.total_undirected(),
                "{board} total"
            );
            let (cycles, _) = count_cycles(
                board,
                &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
            )
            .unwrap();
            assert_eq!(
                frontier(board, FrontierMode::Closed),
                BigUint::from(cycles),
                "{board} closed"
            );
            boards += 1;
        }
    }
    assert_eq!(boards, 111);
}

/// The published counts the frontier engine reaches in seconds: open totals up to 40 squares
/// and 6x6, closed tours of 3x18, 3x20, 5x12, 5x14, 6x7 (cut around the middle row), 6x8,
/// 6x9, 6x10 (and the smaller ones).
#[test]
fn published_counts() {
    let mut checked = Vec::new();
    for total in published_totals("open_directed") {
        if total.rows * total.cols > 42 {
            continue;
        }
        let board = Board::new(total.rows, total.cols).unwrap();
        let undirected = frontier(board, FrontierMode::Total);
        assert_eq!(
            undirected * 2u32,
            BigUint::from(total.count),
            "{board} ({})",
            total.source
        );
        checked.push(board.to_string());
    }
    for total in published_totals("closed_undirected") {
        let board = Board::new(total.rows, total.cols).unwrap();
        if board.rows() == 8 && board.cols() == 8 {
            continue; // minutes: see the benchmarks
        }
        let cycles = frontier(board, FrontierMode::Closed);
        assert_eq!(
            cycles,
            BigUint::from(total.count),
            "{board} ({})",
            total.source
        );
        checked.push(format!("{board} closed"));
    }
    assert_eq!(checked.len(), 18 + 12, "{checked:?}");
}

/// The published counts that take minutes: 7x7's open total (meeting around the centre square),
/// 7x8's open total and 8x8's closed tours (meeting between two rows); docs/measurements/ has times
/// and memory.
/// Not part of `cargo test`; run them with `cargo test --release -- --ignored`.
#[test]
#[ignore = "minutes and up to 16 GiB: cargo test --release -- --ignored"]
fn published_counts_that_take_minutes() {
    let big = MemoryBudget::from_bytes(16 << 30);
    let count = |rows: u32, cols: u32, mode: FrontierMode| {
        let board = Board::new(rows, cols).unwrap();
        frontier::count(board, mode, &Limits::new(big, &CancelFlag::new()))
            .unwrap()
            .0
    };
    let published = |rows: u32, cols: u32, kind: &str| {
        let total = published_totals(kind)
            .into_iter()
            .find(|t| t.rows == rows && t.cols == cols)
            .expect("a published count");
        BigUint::from(total.count)
    };
    assert_eq!(
        count(7, 7, FrontierMode::Total) * 2u32,
        published(7, 7, "open_directed")
    );
    assert_eq!(
        count(7, 8, FrontierMode::Total) * 2u32,
        published(7, 8, "open_directed")
    );
    assert_eq!(
        count(8, 8, FrontierMode::Closed),
        published(8, 8, "closed_undirected")
    );
}

/// Width 9 on the boards whose counts are published, swept with their rows along the 9 (keys
/// of 128 bits, a cut of 18 squares between two rows): 6x9's closed tours (A175881). In the
/// long tier: about a minute in a test build, 1.5 GiB (docs/measurements/2026-12-07-width-9-roads.md).
#[test]
fn width_nine_rows_meet_the_published_counts() {
    if !crate::util::long_tests() {
        return;
    }
    let published = crate::util::published_terms("closed_undirected")
        .into_iter()
        .find(|t| (t.rows, t.cols) == (6, 9))
        .expect("data/published/series-totals.csv has 6x9's closed tours");
    crate::util::knights()
        .args([
            "--no-cache",
            "--memory",
            "8G",
            "count",
            "6",
            "9",
            "--closed",
        ])
        .args(["--engine", "frontier", "--rows", "long", "--format", "json"])
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "\"cycles\":\"{}\"",
            published.count
        )));
}

#[test]
fn count_total_and_closed_through_the_frontier_engine() {
    use predicates::str::contains;
    let test = crate::util::TestStore::new();
    test.knights()
        .args(["count", "5", "8", "--total"])
        .assert()
        .success()
        .stdout("Open tours of the 5x8 board:\ntotal (directed):   36122108\ntotal (undirected): 18061054\n");
    test.knights()
        .args(["count", "6", "8", "--closed", "--stats"])
        .assert()
        .success()
        .stdout(contains(
            "cycles (each closed tour once):        55488142\n",
        ))
        .stderr(contains("computed by the frontier engine"));
    // The store records which engine computed each answer.
    test.knights()
        .args(["query", "--board", "8x6", "--format", "csv"])
        .assert()
        .success()
        .stdout(contains("6,8,closed,,,110976284,frontier,"));
    // The frontier's rows along either side give the same count.
    for rows in ["short", "long"] {
        crate::util::knights()
            .args([
                "--no-cache",
                "count",
                "5",
                "6",
                "1",
                "2",
                "--engine",
                "frontier",
                "--rows",
                rows,
            ])
            .assert()
            .success()
            .stdout("84\n");
    }
    // Both engines, asked by name, agree.
    for engine in ["memo", "frontier"] {
        crate::util::knights()
            .args([
                "--no-cache",
                "count",
                "5",
                "6",
                "1",
                "2",
                "--engine",
                engine,
            ])
            .assert()
            .success()
            .stdout("84\n");
    }
    let output = test
        .knights()
        .args(["count", "4", "10", "--total", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["total_directed"], "2426224");
    assert_eq!(value["total_undirected"], "1213112");
}

#[test]
fn series_prints_one_line_per_board_and_saves_them() {
    use predicates::str::contains;
    let test = crate::util::TestStore::new();
    test.knights()
        .args(["series", "3", "--cols", "16..20", "--closed"])
        .assert()
        .success()
        .stdout(concat!(
            "rows  cols  kind    directed  undirected\n",
            "   3    16  closed     30848       15424\n",
            "   3    17  closed         0           0\n",
            "   3    18  closed    295456      147728\n",
            "   3    19  closed         0           0\n",
            "   3    20  closed   2896832     1448416\n",
        ));
    // Again: every board from the store, and the same lines.
    test.knights()
        .args([
            "series", "3", "--cols", "18..18", "--closed", "--format", "csv", "--stats",
        ])
        .assert()
        .success()
        .stdout(
            "rows,cols,kind,total_directed,total_undirected,reason\n3,18,closed,295456,147728,\n",
        )
        .stderr(contains("no frontier search (every board known"));
    test.knights()
        .args(["query", "--board", "3x18", "--kind", "closed"])
        .assert()
        .success()
        .stdout(contains("frontier"));
    // Long boards: counts far beyond 128 bits, exactly.
    let output = test
        .knights()
        .args([
            "series", "3", "--cols", "4..300", "--closed", "--format", "json", "--stats",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    // The pass's figures: its work, and the rows its period counted as products.
    let figures = String::from_utf8(output.stderr).unwrap();
    assert!(
        figures.contains("states over all layers") && figures.contains("a period of"),
        "{figures}"
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = value.as_array().unwrap();
    assert_eq!(rows.len(), 297);
    let last = rows[296]["total_undirected"].as_str().unwrap();
    assert!(last.len() > 70, "{last}");
    assert_eq!(rows[6]["total_undirected"], "16"); // 3x10
    // Bad ranges are refused.
    crate::util::knights()
        .args(["series", "3", "--cols", "9..4"])
        .assert()
        .code(2)
        .stderr(contains("is empty"));
}

/// `knights series 6` against Knuth's open tours of 6xn (OEIS A306281, the terms its data
/// lists): 6x1 to 6x14 in one pass whose period runs on to the last row, the counts in 64 bits
/// until 6x13's overflow them and modulo primes from there.
#[test]
fn open_series_match_the_published_sequence() {
    let published = crate::util::published_terms("open_undirected");
    // The long tier goes on past 6x13, where the counts leave 64 bits.
    // (6x1..7 takes seconds in the test build, 6x1..10 over a minute.)
    let last = if crate::util::long_tests() { 14 } else { 7 };
    let counted = crate::util::series_counts(6, last, &[]);
    let mut checked = 0;
    for term in published.iter().filter(|t| t.rows == 6 && t.cols <= last) {
        assert_eq!(
            counted[&term.cols], term.count,
            "6x{} ({})",
            term.cols, term.source
        );
        checked += 1;
    }
    assert_eq!(checked, last);
    assert!(published.len() >= 18, "A306281 to 6x18");
}

/// A series whose tallest boards are near square counts them on their own by meeting in the
/// middle (5x6..5x9 here), not in one pass; a longer series reaches the same boards in its
/// pass (5x10 is too long to meet), and both agree with each other and the published totals.
#[test]
fn series_meets_in_the_middle_on_near_square_boards() {
    let totals = |range: &str| -> Vec<(u32, String)> {
        let output = crate::util::knights()
            .args([
                "series", "5", "--cols", range, "--engine", "frontier", "--format", "json",
            ])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let cols = row["cols"].as_u64().unwrap() as u32;
                (cols, row["total_directed"].as_str().unwrap().to_string())
            })
            .collect()
    };
    let met = totals("6..9");
    let passed = totals("6..10");
    assert_eq!(met.iter().map(|r| r.0).collect::<Vec<_>>(), [6, 7, 8, 9]);
    assert_eq!(met[..], passed[..4]);
    for total in published_totals("open_directed") {
        if let Some((_, count)) = met.iter().find(|r| total.rows == 5 && r.0 == total.cols) {
            assert_eq!(*count, total.count.to_string(), "5x{}", total.cols);
        }
    }
    assert_eq!(met[1].1, "1245736"); // 5x7, odd: cut around the centre square
}

#[test]
fn the_memory_budget_stops_the_frontier_engine_with_a_clear_message() {
    use predicates::str::contains;
    crate::util::knights()
        .args([
            "--no-cache",
            "--memory",
            "2M",
            "count",
            "7",
            "8",
            "--closed",
        ])
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("over its memory budget"))
        .stderr(contains("allow more with --memory"));
}
