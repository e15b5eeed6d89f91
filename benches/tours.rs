//! Speed of finding tours: every start of 8x8 (Warnsdorff's rule with its fallbacks), and large
//! boards by the block construction, open and closed, each checked by the validator as the
//! command does.
//!
//! Run with `cargo bench --bench tours`. Targets (issue 6): 8x8 from any square under 1 ms,
//! 1000x1000 open and closed under 1 s.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use knights::tour::find_tour;
use knights::{Board, CancelFlag, Square};

fn board(rows: u32, cols: u32) -> Board {
    Board::new(rows, cols).unwrap()
}

fn small_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("tour 8x8");
    let cancel = CancelFlag::new();
    let b8 = board(8, 8);
    for closed in [false, true] {
        let kind = if closed { "closed" } else { "open" };
        group.bench_function(format!("{kind}, all 64 starts"), |b| {
            b.iter(|| {
                for square in b8.all_squares() {
                    black_box(find_tour(b8, square, closed, 0, &cancel).unwrap().unwrap());
                }
            })
        });
        for (r, col) in [(0, 0), (3, 4)] {
            group.bench_function(format!("{kind} from ({r}, {col})"), |b| {
                b.iter(|| find_tour(b8, Square::new(r, col), closed, 0, &cancel).unwrap())
            });
        }
    }
    group.finish();
}

fn large_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("tour large");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    let cancel = CancelFlag::new();
    for (rows, cols) in [(99, 99), (100, 101), (500, 500), (1000, 1000)] {
        let big = board(rows, cols);
        for closed in [false, true] {
            if closed && big.squares() % 2 == 1 {
                continue;
            }
            let kind = if closed { "closed" } else { "open" };
            group.bench_function(format!("{kind} {rows}x{cols}"), |b| {
                b.iter(|| {
                    find_tour(big, Square::new(0, 0), closed, 0, &cancel)
                        .unwrap()
                        .unwrap()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, small_boards, large_boards);
criterion_main!(benches);
