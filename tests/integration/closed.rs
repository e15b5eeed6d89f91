//! Closed tours: the engine against plain backtracking and published counts, and the existence
//! theorems against the engines.

use knights::count::Limits;
use knights::count::memo::{MemoCounter, count_cycles};
use knights::count::reference::{count_closed_tours, count_open_tours};
use knights::existence::{no_closed_tour, no_open_tour};
use knights::{Board, CancelFlag, MemoryBudget, Square};
use predicates::str::contains;

use crate::util::{TestStore, published_totals};

fn cycles(board: Board) -> u128 {
    count_cycles(
        board,
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap()
    .0
}

/// Directed closed tours from `square` by plain backtracking: twice the cycles, from every
/// square.
fn reference_closed(board: Board, square: Square) -> u128 {
    count_closed_tours(board, square, &Limits::stopped_by(&CancelFlag::new())).unwrap()
}

/// Every board of at most 20 squares, every square, both orientations. (None of these boards
/// has a closed tour; 3x10, the smallest that has, is checked next.)
#[test]
fn closed_engine_matches_reference_on_every_board_up_to_20_squares() {
    for rows in 1..=20u32 {
        for cols in 1..=20 / rows {
            let board = Board::new(rows, cols).unwrap();
            let engine = cycles(board);
            for square in board.all_squares() {
                assert_eq!(
                    reference_closed(board, square),
                    2 * engine,
                    "{board} {square}"
                );
            }
        }
    }
}

/// The smallest boards with closed tours, against backtracking: 3x10 and 10x3 from every
/// square, 5x6 from a corner.
#[test]
fn closed_engine_matches_reference_where_closed_tours_exist() {
    for board in [Board::new(3, 10).unwrap(), Board::new(10, 3).unwrap()] {
        let engine = cycles(board);
        assert_eq!(engine, 16);
        for square in board.all_squares() {
            assert_eq!(
                reference_closed(board, square),
                2 * engine,
                "{board} {square}"
            );
        }
    }
    // 5x6 backtracks for seconds: the long tier.
    if crate::util::long_tests() {
        let board = Board::new(5, 6).unwrap();
        assert_eq!(
            reference_closed(board, Square::new(0, 0)),
            2 * cycles(board)
        );
    }
}

/// The published numbers of closed tours that the memo engine reaches in seconds.
#[test]
fn published_closed_counts() {
    let mut checked = Vec::new();
    for row in published_totals("closed_undirected") {
        if row.rows * row.cols > 54 {
            continue;
        }
        if [(6, 8), (6, 9)].contains(&(row.rows, row.cols)) {
            continue; // too many states for this engine in a test (6x8: a minute)
        }
        let board = Board::new(row.rows, row.cols).unwrap();
        assert_eq!(cycles(board), row.count, "{board} ({})", row.source);
        checked.push(board.to_string());
    }
    assert_eq!(checked, ["3x10", "3x12", "5x6", "6x6", "6x7", "3x18"]);
}

fn open_total(board: Board) -> u128 {
    MemoCounter::new(
        board,
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap()
    .table()
    .unwrap()
    .total_directed()
    .try_into()
    .unwrap()
}

/// The existence theorems agree with the engines: every board with both sides at most 6, 3xn up
/// to n = 12 and 4xn up to n = 8, in both orientations, open and closed.
#[test]
fn existence_theorems_agree_with_the_engines() {
    let mut boards = Vec::new();
    for rows in 1..=6 {
        for cols in 1..=6 {
            boards.push((rows, cols));
        }
    }
    for n in 7..=12 {
        boards.extend([(3, n), (n, 3)]);
    }
    for n in 7..=8 {
        boards.extend([(4, n), (n, 4)]);
    }
    for (rows, cols) in boards {
        let board = Board::new(rows, cols).unwrap();
        assert_eq!(
            no_closed_tour(board).is_none(),
            cycles(board) > 0,
            "closed tours on {board}"
        );
        assert_eq!(
            no_open_tour(board, None).is_none(),
            open_total(board) > 0,
            "open tours on {board}"
        );
    }
}

/// On odd boards, open tours start only on the corners' colour: checked by plain backtracking,
/// which knows nothing of colours.
#[test]
fn minority_colour_has_no_open_tour_on_odd_boards() {
    for (rows, cols) in [(3, 7), (5, 5), (3, 9)] {
        let board = Board::new(rows, cols).unwrap();
        for square in board.all_squares() {
            let count =
                count_open_tours(board, square, &Limits::stopped_by(&CancelFlag::new())).unwrap();
            if no_open_tour(board, Some(square)).is_some() {
                assert_eq!(count, 0, "{board} {square}");
            }
        }
    }
}

#[test]
fn count_closed_from_a_square_and_for_a_board() {
    let test = TestStore::new();
    test.knights()
        .args(["count", "6", "6", "0", "0", "--closed"])
        .assert()
        .success()
        .stdout("19724\n");
    test.knights()
        .args(["count", "6", "6", "--closed"])
        .assert()
        .success()
        .stdout(contains("cycles (each closed tour once):        9862\n"))
        .stdout(contains("directed (each in both directions):    19724\n"))
        .stdout(contains("the same for every square"));
    // Open and closed answers are kept apart.
    test.knights()
        .args(["count", "6", "6", "0", "0"])
        .assert()
        .success()
        .stdout("524486\n");
    test.knights()
        .args(["count", "6", "6", "2", "3", "--closed", "--stats"])
        .assert()
        .success()
        .stdout("19724\n")
        .stderr(contains("answered from the store"));
    test.knights()
        .args(["query", "--kind", "closed"])
        .assert()
        .success()
        .stdout(contains("6x6    closed  total  19724  memo"));
    let output = test
        .knights()
        .args(["query", "--kind", "open", "--format", "csv"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("6,6,open,0,0,524486,memo"), "{text}");
    assert!(!text.contains("closed"));
}

#[test]
fn boards_without_closed_tours_answer_at_once_with_the_reason() {
    let test = TestStore::new();
    test.knights()
        .args(["count", "5", "5", "--closed", "--explain", "--stats"])
        .assert()
        .success()
        .stdout(contains("cycles (each closed tour once):        0\n"))
        .stdout(contains(
            "why: no closed tour on 5x5: it has 25 squares, an odd number",
        ))
        .stderr(contains(
            "answered by an existence theorem, without a search",
        ));
    // 9x9 is beyond the memo engine (and its starts beyond one machine), but the theorem
    // needs no search.
    let output = test
        .knights()
        .args(["count", "9", "9", "--closed", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["directed"], "0");
    assert!(value["reason"].as_str().unwrap().contains("Schwenk 1991"));
    test.knights()
        .args(["count", "4", "7", "1", "1", "--closed", "--explain"])
        .assert()
        .success()
        .stdout("0\nwhy: no closed tour on 4x7: no board with a side of 1, 2 or 4 has one (Schwenk 1991)\n");
    test.knights()
        .args(["count", "3", "6", "0", "0", "--explain"])
        .assert()
        .success()
        .stdout(contains("no open tour on 3x6"));
    let output = test
        .knights()
        .args(["count", "5", "5", "0", "1", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        value["reason"]
            .as_str()
            .unwrap()
            .contains("corners' colour")
    );
    test.knights()
        .args(["query", "--kind", "closed", "--board", "5x5"])
        .assert()
        .success()
        .stdout(contains("5x5    closed  total      0  theorem"));
}

#[test]
fn solve_batch_and_precompute_handle_closed_tours() {
    let test = TestStore::new();
    test.knights()
        .args(["solve", "--closed"])
        .write_stdin("3\n6 6 0 0\n5 6 2 2\n5 5 0 0\n")
        .assert()
        .success()
        .stdout("19724\n16\n0\n");
    test.knights()
        .args(["batch", "-", "--closed", "--format", "csv"])
        .write_stdin("3 10 1 1\n10 3 0 0\n")
        .assert()
        .success()
        .stdout("rows,cols,row,col,kind,count,reason\n3,10,1,1,closed,32,\n10,3,0,0,closed,32,\n")
        .stderr(contains(
            "2 answers: 0 from the store, 2 computed (1 distinct question computed)",
        ));
    test.knights()
        .args(["precompute", "--closed", "--max-squares", "36"])
        .assert()
        .success();
    let output = test
        .knights()
        .args(["query", "--kind", "closed", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let records = value.as_array().unwrap();
    let count = |r: u32, c: u32| {
        records
            .iter()
            .find(|x| x["rows"] == r && x["cols"] == c)
            .map(|x| x["count"].as_str().unwrap().to_string())
    };
    assert_eq!(count(3, 12).as_deref(), Some("352"));
    assert_eq!(count(5, 6).as_deref(), Some("16"));
    assert_eq!(count(6, 6).as_deref(), Some("19724"));
    assert_eq!(count(4, 9).as_deref(), Some("0"));
    assert!(
        records
            .iter()
            .all(|x| x["row"].is_null() && x["kind"] == "closed")
    );
    // Export and import carry the closed kind.
    let file = test.dir.path().join("closed.csv");
    test.knights()
        .args(["export", "--kind", "closed", "--output"])
        .arg(&file)
        .assert()
        .success();
    let other = TestStore::new();
    other.knights().arg("import").arg(&file).assert().success();
    assert_eq!(other.answers(), records.len() as i64);
}

/// On 4xn boards open tours start only in the outer lines: every start of 4x5 .. 4x12 (one
/// square of each symmetry class), counted by the frontier engine, agrees with the theorem, in
/// both orientations.
#[test]
fn four_row_boards_have_tours_only_from_outer_lines() {
    use knights::count::frontier::{self, FrontierMode};
    for n in 5..=12u32 {
        let board = Board::new(4, n).unwrap();
        for square in board.canonical_squares() {
            let transposed = knights::Symmetry::Transpose;
            assert_eq!(
                no_open_tour(board, Some(square)).is_some(),
                no_open_tour(
                    transposed.target(board),
                    Some(transposed.apply(board, square))
                )
                .is_some()
            );
            {
                let (count, _) = frontier::count(
                    board,
                    FrontierMode::Start(square),
                    &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
                )
                .unwrap();
                let ruled_out = no_open_tour(board, Some(square)).is_some();
                assert_eq!(
                    ruled_out,
                    count == num_bigint::BigUint::default(),
                    "{board} {square}: {count}"
                );
            }
        }
    }
}

/// `knights series` against the published closed-tour sequences of 3xn (OEIS A070030, to
/// 3x46, past 2^63) and 6xn (A175881, to 6x40, past 2^200), through the periodic transfer and
/// counts modulo primes, and of 8xn (A193055) as far as 8x7 (8x8 and on are a pass of width 8,
/// minutes each: `scripts/bench.sh` has them): every board of the range, the odd ones (none)
/// included.
#[test]
fn closed_series_match_the_published_sequences() {
    let published = crate::util::published_terms("closed_undirected");
    // Where two sources give one board (either way round), they agree: 8x6 and 8x8 of A193055
    // are 6x8 of A175881 and 8x8 of A001230, 6x3 of A175881 is 3x6 of A070030.
    let totals = crate::util::published_totals("closed_undirected");
    let mut agreeing = 0;
    for row in &published {
        let same_board = |t: &&crate::util::PublishedTotal| {
            (t.rows, t.cols) == (row.rows, row.cols) || (t.rows, t.cols) == (row.cols, row.rows)
        };
        let others = published
            .iter()
            .filter(|o| (o.rows, o.cols) == (row.cols, row.rows) && o.source != row.source)
            .map(|o| o.count.clone());
        for other in totals
            .iter()
            .filter(same_board)
            .map(|t| t.count.to_string())
            .chain(others)
        {
            assert_eq!(
                other, row.count,
                "{}x{} ({})",
                row.rows, row.cols, row.source
            );
            agreeing += 1;
        }
    }
    assert!(agreeing >= 5, "{agreeing} boards in two sources");
    // (rows, the last board counted, the published terms up to it)
    let six = if crate::util::long_tests() { 40 } else { 12 };
    for (rows, last, terms) in [(3, 46, 23), (6, six, six), (8, 7, 3)] {
        let counted = crate::util::series_counts(rows, last, &["--closed"]);
        let mut checked = 0;
        for row in published
            .iter()
            .filter(|row| row.rows == rows && row.cols <= last)
        {
            assert_eq!(
                counted[&row.cols], row.count,
                "{rows}x{} ({})",
                row.cols, row.source
            );
            checked += 1;
        }
        assert_eq!(checked, terms, "{rows}xn");
        for n in (1..=last).filter(|n| rows * n % 2 == 1) {
            assert_eq!(counted[&n], "0", "{rows}x{n}");
        }
    }
}
