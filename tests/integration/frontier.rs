//! The frontier engine against the memo engine and published counts.

use knights::count::frontier::{self, FrontierMode};
use knights::count::memo::{MemoCounter, count_cycles};
use knights::{Board, CancelFlag, MemoryBudget};
use num_bigint::BigUint;

use crate::util::published_totals;

fn frontier(board: Board, mode: FrontierMode) -> BigUint {
    frontier::count(board, mode, MemoryBudget::DEFAULT, &CancelFlag::new())
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
            let table = MemoCounter::new(board, MemoryBudget::DEFAULT, CancelFlag::new())
                .unwrap()
                .table()
                .unwrap();
            for square in board.all_squares() {
                assert_eq!(
                    &frontier(board, FrontierMode::OpenFrom(square)),
                    table.get(square),
                    "{board} from {square}"
                );
            }
            assert_eq!(
                frontier(board, FrontierMode::OpenAll),
                table.total_undirected(),
                "{board} total"
            );
            let (cycles, _) =
                count_cycles(board, MemoryBudget::DEFAULT, CancelFlag::new()).unwrap();
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
/// and 6x6, closed tours of 3x18, 3x20, 5x12, 5x14, 6x9, 6x10 (and the smaller ones).
#[test]
fn published_counts() {
    let mut checked = Vec::new();
    for total in published_totals("open_directed") {
        if total.rows * total.cols > 42 {
            continue;
        }
        let board = Board::new(total.rows, total.cols).unwrap();
        let undirected = frontier(board, FrontierMode::OpenAll);
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
    assert_eq!(checked.len(), 18 + 10, "{checked:?}");
}
