//! The memo engine against the plain backtracking reference counter.

use knights::count::Limits;
use knights::count::reference::count_open_tours;
use knights::{Board, CancelFlag, MemoryBudget};
use num_bigint::BigUint;

use crate::util::memo;

/// Every start of every board of at most 20 squares, in both orientations (both `r × c` and
/// `c × r` are enumerated): the per-square table, and each start counted on its own, equal the
/// reference count.
#[test]
fn memo_matches_reference_on_every_board_up_to_20_squares() {
    let mut boards = 0;
    for rows in 1..=20u32 {
        for cols in 1..=20 / rows {
            let board = Board::new(rows, cols).unwrap();
            let table = memo(rows, cols).table().unwrap();
            let mut single = memo(rows, cols);
            for square in board.all_squares() {
                let expected =
                    count_open_tours(board, square, &Limits::stopped_by(&CancelFlag::new()))
                        .unwrap();
                assert_eq!(
                    *table.get(square),
                    BigUint::from(expected),
                    "table of {board} at {square}"
                );
                assert_eq!(
                    single.count_from(square).unwrap(),
                    expected,
                    "{board} from {square}"
                );
            }
            boards += 1;
        }
    }
    assert_eq!(boards, 66);
}

/// A memory budget too small to keep anything changes nothing but the speed.
#[test]
fn counts_are_exact_when_the_memory_budget_is_reached() {
    for (rows, cols) in [(5, 5), (4, 6), (3, 8)] {
        let board = Board::new(rows, cols).unwrap();
        let roomy = memo(rows, cols).table().unwrap();
        for budget in [1, 16 << 10] {
            let mut tight = knights::count::memo::MemoCounter::new(
                board,
                &Limits::new(MemoryBudget::from_bytes(budget), &CancelFlag::new()),
            )
            .unwrap();
            assert_eq!(tight.table().unwrap(), roomy, "{board} with {budget} bytes");
            assert!(tight.stats().stores_refused > 0);
            assert!(tight.stats().table_bytes <= budget.max(1));
        }
    }
}

/// Boards over 64 squares are refused by the memo engine with a clear error.
#[test]
fn memo_refuses_boards_over_64_squares() {
    let err = knights::count::memo::MemoCounter::new(
        Board::new(5, 13).unwrap(),
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the 5x13 board has 65 squares; the memo engine handles at most 64"
    );
    assert!(err.is_bad_input());
}
