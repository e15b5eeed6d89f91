//! Speed of the counting engines, cold (a new engine for every run, no answer store):
//! single starts, per-square tables, board totals and closed tours (memo engine), and the
//! frontier engine's totals, closed tours and long boards, and tours between two squares.
//!
//! Run with `cargo bench --bench engine`; `scripts/bench.sh` compares the whole command against
//! the plain backtracking reference side by side.

use knights::count::Limits;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use knights::count::memo::{MemoCounter, count_cycles};
use knights::count::reference::count_open_tours;
use knights::{Board, CancelFlag, MemoryBudget, Square};

fn board(rows: u32, cols: u32) -> Board {
    Board::new(rows, cols).unwrap()
}

fn engine(board: Board) -> MemoCounter {
    MemoCounter::new(
        board,
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap()
}

fn cold_counts(c: &mut Criterion) {
    let mut group = c.benchmark_group("cold count from a corner");
    group.sample_size(10);
    for (rows, cols) in [(5, 6), (6, 6)] {
        group.bench_function(format!("memo {rows}x{cols}"), |b| {
            b.iter(|| {
                engine(board(rows, cols))
                    .count_from(Square::new(0, 0))
                    .unwrap()
            })
        });
    }
    group.bench_function("reference 5x6", |b| {
        b.iter(|| {
            count_open_tours(
                board(5, 6),
                Square::new(0, 0),
                &Limits::stopped_by(&CancelFlag::new()),
            )
            .unwrap()
        })
    });
    group.finish();
}

fn tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("per-square table");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (rows, cols) in [(6, 6), (4, 10), (5, 8)] {
        group.bench_function(format!("{rows}x{cols}"), |b| {
            b.iter(|| black_box(engine(board(rows, cols)).table().unwrap()))
        });
    }
    group.finish();
}

fn totals(c: &mut Criterion) {
    let mut group = c.benchmark_group("board totals");
    group.sample_size(10);
    group.bench_function("every kxn, 3 <= k, n <= 8, k*n <= 30", |b| {
        b.iter(|| {
            let mut sum = num_bigint::BigUint::default();
            for rows in 3..=8u32 {
                for cols in rows..=8 {
                    if rows * cols <= 30 {
                        sum += engine(board(rows, cols)).table().unwrap().total_directed();
                    }
                }
            }
            sum
        })
    });
    group.finish();
}

fn closed(c: &mut Criterion) {
    let mut group = c.benchmark_group("closed tours");
    group.sample_size(10);
    for (rows, cols) in [(6, 6), (5, 8), (3, 14)] {
        group.bench_function(format!("{rows}x{cols}"), |b| {
            b.iter(|| {
                count_cycles(
                    board(rows, cols),
                    &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
                )
                .unwrap()
                .0
            })
        });
    }
    group.finish();
}

fn frontier_engine(c: &mut Criterion) {
    use knights::count::frontier::{self, FrontierMode};
    let mut group = c.benchmark_group("frontier engine");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (rows, cols, mode, name) in [
        (5, 8, FrontierMode::Total, "open total 5x8"),
        (6, 8, FrontierMode::Closed, "closed 6x8"),
        (3, 300, FrontierMode::Closed, "closed 3x300"),
        (
            6,
            6,
            FrontierMode::Start(Square::new(0, 0)),
            "open 6x6 from a corner",
        ),
        (
            6,
            6,
            FrontierMode::Between(Square::new(0, 0), Square::new(5, 4)),
            "open 6x6 between (0, 0) and (5, 4)",
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                frontier::count(
                    board(rows, cols),
                    mode,
                    &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
                )
                .unwrap()
                .0
            })
        });
    }
    group.finish();
}

/// Tours between two squares: one pair of 6x6 with the memo engine (target 0.1 s), and the
/// per-square table of 6x6 by meeting in the middle (the frontier engine's starts together).
fn pairs_and_starts(c: &mut Criterion) {
    use knights::count::frontier;
    let mut group = c.benchmark_group("pairs and starts");
    group.sample_size(10);
    group.bench_function("memo 6x6 from (0, 0) to (5, 4)", |b| {
        b.iter(|| {
            engine(board(6, 6))
                .count_between(Square::new(0, 0), Square::new(5, 4))
                .unwrap()
        })
    });
    group.bench_function("frontier 6x6 every start, meeting in the middle", |b| {
        let board = board(6, 6);
        let starts: Vec<Square> = board.canonical_squares();
        b.iter(|| {
            let mut total = 0u32;
            frontier::count_from_each(
                board,
                &starts,
                &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
                &mut |_, _| total += 1,
            )
            .unwrap();
            black_box(total)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    pairs_and_starts,
    cold_counts,
    tables,
    totals,
    closed,
    frontier_engine
);
criterion_main!(benches);
