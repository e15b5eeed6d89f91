//! The memo engine's unit tests.

use crate::count::Limits;
use num_bigint::BigUint;

use super::*;
use crate::board::Square;
use crate::cancel::CancelFlag;
use crate::count::reference::count_open_tours;
use crate::memory::MemoryBudget;

fn memo(rows: u32, cols: u32) -> MemoCounter {
    MemoCounter::new(
        Board::new(rows, cols).unwrap(),
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap()
}

#[test]
fn judge_examples() {
    assert_eq!(memo(5, 4).count_from(Square::new(0, 0)).unwrap(), 32);
    assert_eq!(memo(3, 4).count_from(Square::new(0, 0)).unwrap(), 2);
    assert_eq!(memo(5, 5).count_from(Square::new(2, 2)).unwrap(), 64);
    assert_eq!(memo(1, 1).count_from(Square::new(0, 0)).unwrap(), 1);
}

#[test]
fn agrees_with_reference_on_small_boards() {
    for (rows, cols) in [(3, 4), (4, 5), (3, 7), (2, 5)] {
        let board = Board::new(rows, cols).unwrap();
        let table = memo(rows, cols).table().unwrap();
        for square in board.all_squares() {
            let expected =
                count_open_tours(board, square, &Limits::stopped_by(&CancelFlag::new())).unwrap();
            assert_eq!(
                *table.get(square),
                BigUint::from(expected),
                "{board} {square}"
            );
        }
    }
}

#[test]
fn tiny_budget_still_counts_exactly() {
    let board = Board::new(5, 5).unwrap();
    let mut engine = MemoCounter::new(
        board,
        &Limits::new(MemoryBudget::from_bytes(1), &CancelFlag::new()),
    )
    .unwrap();
    assert_eq!(
        engine.table().unwrap().total_directed(),
        BigUint::from(1728u32)
    );
    assert_eq!(engine.stats().entries, 0);
    assert!(engine.stats().stores_refused > 0);
}

#[test]
fn cycles_of_known_boards() {
    let cycles = |r, c| {
        count_cycles(
            Board::new(r, c).unwrap(),
            &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        )
        .unwrap()
        .0
    };
    assert_eq!(cycles(5, 6), 8);
    assert_eq!(cycles(3, 10), 16);
    assert_eq!(cycles(4, 5), 0);
    assert_eq!(cycles(1, 1), 0);
}

#[test]
fn finds_tours_exactly_when_they_exist() {
    let cancel = CancelFlag::new;
    let board = Board::new(5, 5).unwrap();
    let path = find_open_tour(board, Square::new(2, 2), cancel())
        .unwrap()
        .unwrap();
    assert_eq!(path.len(), 25);
    assert!(
        find_open_tour(board, Square::new(0, 1), cancel())
            .unwrap()
            .is_none()
    );
    let board = Board::new(3, 7).unwrap();
    assert!(
        find_open_tour(board, Square::new(1, 0), cancel())
            .unwrap()
            .is_none()
    );
    let cycle = find_closed_tour(Board::new(6, 6).unwrap(), Square::new(2, 3), cancel())
        .unwrap()
        .unwrap();
    assert_eq!(cycle[0], 2 * 6 + 3);
    assert_eq!(cycle.len(), 36);
    assert!(
        find_closed_tour(Board::new(4, 6).unwrap(), Square::new(0, 0), cancel())
            .unwrap()
            .is_none()
    );
}

#[test]
fn finds_tours_between_two_squares_exactly_when_they_exist() {
    let board = Board::new(5, 5).unwrap();
    let (start, end) = (Square::new(0, 0), Square::new(4, 4));
    let path = find_open_tour_between(board, start, end, CancelFlag::new())
        .unwrap()
        .unwrap();
    assert_eq!(path.first(), Some(&board.index(start)));
    assert_eq!(path.last(), Some(&board.index(end)));
    assert_eq!(path.len(), 25);
    // Every pair the counter counts as none, the search finds none; every other, one.
    let mut counter = memo(5, 5);
    for end in board.all_squares().filter(|&e| e != start) {
        let count = counter.count_between(start, end).unwrap();
        let found = find_open_tour_between(board, start, end, CancelFlag::new()).unwrap();
        assert_eq!(count > 0, found.is_some(), "{end}");
    }
}

#[test]
fn cancelled_count_stops() {
    let cancel = CancelFlag::new();
    cancel.cancel();
    let mut engine = MemoCounter::new(
        Board::new(6, 6).unwrap(),
        &Limits::new(MemoryBudget::DEFAULT, &cancel),
    )
    .unwrap();
    assert!(matches!(
        engine.count_from(Square::new(0, 0)),
        Err(Error::Interrupted)
    ));
}
