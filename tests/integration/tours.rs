//! Finding tours: found exactly when one exists (against the engines' counts and the existence
//! theorems), valid on boards of every size, and the `tour` command end to end.

use knights::count::Limits;
use knights::count::frontier::{self, FrontierMode};
use knights::count::memo::MemoCounter;
use knights::existence::{no_closed_tour, no_open_tour};
use knights::tour::{find_tour, validate};
use knights::{Board, CancelFlag, MemoryBudget, Square};
use num_traits::Zero;
use predicates::str::contains;

use crate::util::knights;

/// Whether an open tour starts on each square, by counting: the memo engine's table for boards
/// of at most 30 squares, the frontier engine for 3xn and 4xn.
fn open_exists(board: Board) -> Vec<bool> {
    if board.squares() <= 30 {
        let table = MemoCounter::new(
            board,
            &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        )
        .unwrap()
        .table()
        .unwrap();
        return table.counts().iter().map(|c| !c.is_zero()).collect();
    }
    // One count per symmetry class of squares.
    let mut known = std::collections::HashMap::new();
    board
        .all_squares()
        .map(|square| {
            let canonical = board.canonical_square(square).0;
            *known.entry(canonical).or_insert_with(|| {
                let (count, _) = frontier::count(
                    board,
                    FrontierMode::Start(canonical),
                    &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
                )
                .unwrap();
                !count.is_zero()
            })
        })
        .collect()
}

/// Asks for a tour and checks the answer: found exactly when `exists`, and then valid and
/// starting at `start`. Returns whether one was found.
fn check_tour(
    board: Board,
    start: Square,
    closed: bool,
    exists: bool,
    cancel: &CancelFlag,
) -> bool {
    let found = find_tour(board, start, closed, 0, cancel).unwrap();
    assert_eq!(
        found.is_ok(),
        exists,
        "{board} from {start}, closed {closed}: {found:?}"
    );
    if let Ok((tour, _)) = &found {
        assert_eq!(validate(board, tour.squares(), closed), Ok(()), "{board}");
        assert_eq!(tour.squares()[0], start);
    }
    found.is_ok()
}

/// Every start of every board with both sides at most 12: a valid tour is found exactly when
/// one exists — by the engines' counts where they count it (boards of at most 30 squares, 3xn
/// and 4xn), and on boards with both sides at least 5 from every square (every square of the
/// corners' colour on odd boards). Closed tours likewise, against the counts and Schwenk's
/// theorem.
#[test]
fn tours_are_found_exactly_when_they_exist_on_boards_up_to_12x12() {
    let cancel = CancelFlag::new();
    for rows in 1..=12u32 {
        for cols in 1..=12u32 {
            let board = Board::new(rows, cols).unwrap();
            let short = rows.min(cols);
            let counted = board.squares() <= 30 || short <= 4;
            let open: Vec<bool> = if counted {
                open_exists(board)
            } else {
                // Both sides at least 5: from every square (of the corners' colour if odd).
                board
                    .all_squares()
                    .map(|sq| board.squares().is_multiple_of(2) || Board::is_corner_colour(sq))
                    .collect()
            };
            let closed = if counted {
                let (count, _) = frontier::count(
                    board,
                    FrontierMode::Closed,
                    &Limits::new(MemoryBudget::DEFAULT, &cancel),
                )
                .unwrap();
                !count.is_zero()
            } else {
                no_closed_tour(board).is_none()
            };
            assert_eq!(closed, no_closed_tour(board).is_none(), "{board} closed");
            for square in board.all_squares() {
                let found = check_tour(board, square, false, open[board.index(square)], &cancel);
                if !found && !counted {
                    assert!(no_open_tour(board, Some(square)).is_some());
                }
                check_tour(board, square, true, closed, &cancel);
            }
        }
    }
}

/// Large boards, open and closed, by the construction: every tour valid. (99x99 has an odd
/// number of squares: no closed tour, and open ones only from the corners' colour.)
#[test]
fn tours_of_large_boards_are_valid() {
    let cancel = CancelFlag::new();
    for (rows, cols) in [
        (50, 50),
        (99, 99),
        (100, 101),
        (500, 500),
        (13, 300),
        (5, 1001),
    ] {
        let board = Board::new(rows, cols).unwrap();
        for start in [
            Square::new(0, 0),
            Square::new(rows / 2, cols / 2),
            Square::new(rows - 1, cols / 3 * 2),
            Square::new(1, 2),
        ] {
            for closed in [false, true] {
                let exists = if closed {
                    no_closed_tour(board).is_none()
                } else {
                    no_open_tour(board, Some(start)).is_none()
                };
                check_tour(board, start, closed, exists, &cancel);
            }
        }
    }
}

/// The construction, on every board from 10 to 30 squares a side (odd and even, both
/// orientations), from squares all over the board: every block size, every kind of join.
#[test]
fn the_construction_joins_every_kind_of_block() {
    let cancel = CancelFlag::new();
    for rows in 10..=30u32 {
        for cols in 10..=30u32 {
            let board = Board::new(rows, cols).unwrap();
            let odd = board.squares() % 2 == 1;
            for (r, c) in [(0, 0), (rows / 2, cols / 2), (rows - 1, 1), (3, cols - 2)] {
                let start = Square::new(r, c);
                if odd && !Board::is_corner_colour(start) {
                    continue;
                }
                let tour = knights::tour::construct::construct(board, start, !odd, &cancel)
                    .unwrap_or_else(|e| panic!("{board} from {start}: {e}"));
                assert_eq!(validate(board, &tour, !odd), Ok(()), "{board} from {start}");
            }
        }
    }
}

/// Narrow long boards: the frontier engine's exact search, against its own counts from every
/// square of 3xn for n from 13 to 20 and 4xn for n from 13 to 16 (beyond the memo engine's
/// search).
#[test]
fn tours_of_long_narrow_boards() {
    let cancel = CancelFlag::new();
    for (rows, longest) in [(3u32, 20u32), (4, 16)] {
        for cols in 13..=longest {
            let board = Board::new(rows, cols).unwrap();
            let open = open_exists(board);
            for square in board.all_squares() {
                check_tour(board, square, false, open[board.index(square)], &cancel);
            }
        }
    }
    // Very long boards: a tour in well under a second (the layers repeat along the board).
    for (rows, cols, start) in [
        (4, 100_000, Square::new(0, 31)),
        (3, 99_999, Square::new(2, 778)),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let (tour, _) = find_tour(board, start, false, 0, &cancel).unwrap().unwrap();
        assert_eq!(validate(board, tour.squares(), false), Ok(()));
    }
    for (rows, cols, start, closed, exists) in [
        (3, 200, Square::new(1, 100), true, true),
        (3, 201, Square::new(1, 100), false, false), // minority colour
        (3, 201, Square::new(0, 100), false, true),
        (4, 120, Square::new(0, 60), false, true),
        (4, 120, Square::new(2, 60), false, false), // inner line
        (120, 4, Square::new(60, 3), false, true),
        (4, 120, Square::new(0, 0), true, false),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let found = find_tour(board, start, closed, 0, &cancel).unwrap();
        assert_eq!(found.is_ok(), exists, "{board} {start}");
        if let Ok((tour, _)) = found {
            assert_eq!(validate(board, tour.squares(), closed), Ok(()));
        }
    }
}

#[test]
fn tour_command_prints_the_board_and_says_when_there_is_none() {
    let output = knights()
        .args(["tour", "8", "8", "0", "0"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let numbers: Vec<u32> = text
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(text.lines().count(), 8);
    assert_eq!(numbers[0], 1);
    let mut sorted = numbers.clone();
    sorted.sort();
    assert_eq!(sorted, (1..=64).collect::<Vec<_>>());
    assert!(
        text.lines().all(|l| l.len() == 8 * 3 - 1),
        "aligned: {text}"
    );

    // The same question gives the same tour; the seed may choose another.
    let again = knights()
        .args(["tour", "8", "8", "0", "0"])
        .output()
        .unwrap();
    assert_eq!(again.stdout, text.as_bytes());

    // No tour: the reason, exit code 3, nothing on standard output.
    knights()
        .args(["tour", "5", "5", "0", "1"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(contains("corners' colour"));
    knights()
        .args(["tour", "4", "9", "1", "3"])
        .assert()
        .code(3)
        .stderr(contains("outer lines"));
    knights()
        .args(["tour", "5", "5", "2", "2", "--closed"])
        .assert()
        .code(3)
        .stderr(contains("Schwenk"));
    knights()
        .args(["tour", "3", "7", "0", "1"])
        .assert()
        .code(3);
    // A board whose tour would not fit in the memory budget: refused before any work.
    knights()
        .args(["tour", "100000", "100000", "0", "0"])
        .assert()
        .code(2)
        .stderr(contains("needs about 447.0 GiB of memory"));
    knights()
        .args(["--memory", "10M", "tour", "1000", "1000", "0", "0"])
        .assert()
        .code(2)
        .stderr(contains("allow more with --memory"));
    // Bad input is still exit code 2.
    knights()
        .args(["tour", "8", "8", "8", "0"])
        .assert()
        .code(2)
        .stderr(contains("outside the 8x8 board"));
}

#[test]
fn tour_command_writes_json_and_svg() {
    let output = knights()
        .args(["tour", "6", "6", "2", "3", "--closed", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["rows"], 6);
    assert_eq!(value["closed"], true);
    assert_eq!(value["start"], serde_json::json!([2, 3]));
    let squares: Vec<Square> = value["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| Square::new(p[0].as_u64().unwrap() as u32, p[1].as_u64().unwrap() as u32))
        .collect();
    assert_eq!(validate(Board::new(6, 6).unwrap(), &squares, true), Ok(()));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tour.svg");
    knights()
        .args(["tour", "30", "40", "0", "0", "--format", "svg", "--output"])
        .arg(&file)
        .assert()
        .success()
        .stdout("");
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("<title>start</title>") && svg.contains("<title>end</title>"));
    assert!(svg.contains("<polyline"));

    let output = knights()
        .args(["--no-cache", "count", "5", "5", "--format", "svg"])
        .output()
        .unwrap();
    let heatmap = String::from_utf8(output.stdout).unwrap();
    assert!(heatmap.starts_with("<svg"));
    assert!(heatmap.contains(">304</text>") && heatmap.contains("logarithmic scale"));
    knights()
        .args(["--no-cache", "count", "5", "4", "0", "0", "--format", "svg"])
        .assert()
        .code(2)
        .stderr(contains("has no picture"));
}

/// SVG sizes are written without float noise (`447.84000000000003`).
#[test]
fn svg_lengths_have_no_float_noise() {
    let noisy = |svg: &str| {
        svg.split('.')
            .skip(1)
            .any(|after| after.chars().take_while(char::is_ascii_digit).count() >= 5)
    };
    for args in [
        &["tour", "7", "7", "0", "0", "-f", "svg"][..],
        &["tour", "9", "13", "0", "0", "-f", "svg"],
        &["tour", "5", "17", "0", "0", "-f", "svg"],
        &["count", "3", "7", "-f", "svg"],
    ] {
        let output = crate::util::knights().args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}");
        let svg = String::from_utf8(output.stdout).unwrap();
        assert!(!noisy(&svg), "{args:?}: {svg}");
    }
}

/// `tour --to`: a tour between two squares is found exactly when the memo engine counts one,
/// on every pair of a small board; none is said with exit 3 and the theorem or the search; a
/// search past its time limit says that it gave up (exit 1), not that there is none.
#[test]
fn tours_between_two_squares_exist_exactly_when_counted() {
    use knights::tour::{find_tour_between, validate_between};
    use std::time::Duration;
    let board = Board::new(5, 6).unwrap();
    let start = Square::new(0, 0);
    for end in board.all_squares().filter(|&end| end != start) {
        let mut counter = MemoCounter::new(
            board,
            &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        )
        .unwrap();
        let count = counter.count_between(start, end).unwrap();
        let found = find_tour_between(
            board,
            start,
            end,
            0,
            None,
            Duration::ZERO,
            &CancelFlag::new(),
        )
        .unwrap();
        match found {
            Ok((tour, _)) => {
                assert!(count > 0, "{end}: a tour where the count is 0");
                assert_eq!(validate_between(board, tour.squares(), end), Ok(()));
            }
            Err(reason) => assert_eq!(count, 0, "{end}: none found ({reason}), {count} counted"),
        }
    }

    let json = knights()
        .args([
            "tour", "6", "6", "0", "0", "--to", "5", "4", "--format", "json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let tour: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(tour["start"], serde_json::json!([0, 0]));
    assert_eq!(tour["end"], serde_json::json!([5, 4]));
    assert_eq!(tour["squares"].as_array().unwrap().len(), 36);
    knights()
        .args(["tour", "6", "6", "0", "0", "--to", "1", "1"])
        .assert()
        .code(3)
        .stderr(contains("no open tour from (0, 0) to (1, 1) on 6x6"));
    knights()
        .args(["tour", "3", "40", "0", "0", "--to", "1", "2", "--time-limit", "0.3"])
        .assert()
        .code(1)
        .stderr(contains("the search gave up (which does not mean there is none); allow it longer with --time-limit SECONDS"));
    knights()
        .args(["tour", "6", "6", "0", "0", "--to", "6", "0"])
        .assert()
        .code(2)
        .stderr(contains("outside the 6x6 board"));
    knights()
        .args([
            "tour",
            "6",
            "6",
            "0",
            "0",
            "--to",
            "5",
            "4",
            "--time-limit",
            "0",
        ])
        .assert()
        .code(2)
        .stderr(contains("--time-limit must be a number of seconds above 0"));
}
