//! The boundary frontier against plain backtracking and against the window of processed
//! squares, folded and unfolded, in both orders of a row.

use crate::count::Limits;
use num_bigint::BigUint;

use super::steps::{MAX_SLOTS, Order};
use crate::board::Board;
use crate::cancel::CancelFlag;
use crate::count::frontier::plan::{FrontierMode, FrontierStats, Plan, Purpose};
use crate::count::reference;
use crate::memory::MemoryBudget;
use crate::testing::long;

/// Every count of a pass over the boundary of `width × heights.end()`, with the pass's stats.
fn boundary_pass(
    width: u32,
    heights: std::ops::RangeInclusive<usize>,
    mode: FrontierMode,
    outside_in: bool,
    fold: bool,
    periodic: bool,
) -> (Vec<(usize, BigUint)>, FrontierStats) {
    let board = Board::new(*heights.end() as u32, width).unwrap();
    let purpose = if heights.start() == heights.end() {
        Purpose::Count
    } else {
        Purpose::Heights
    };
    let mut plan = Plan::new(board, mode, purpose).unwrap();
    plan.mirror_fold = fold;
    plan.periodic = periodic;
    let mut seen = Vec::new();
    let stats = plan
        .run_boundary(
            heights,
            outside_in,
            MemoryBudget::DEFAULT,
            &CancelFlag::new(),
            &mut |h, c| seen.push((h, c)),
        )
        .unwrap()
        .expect("the boundary frontier counts totals");
    (seen, stats)
}

/// The window engine's counts of the same pass.
fn window_pass(
    width: u32,
    heights: std::ops::RangeInclusive<usize>,
    mode: FrontierMode,
) -> Vec<(usize, BigUint)> {
    let mut seen = Vec::new();
    let closed = mode == FrontierMode::Closed;
    crate::count::frontier::series_over(
        crate::count::frontier::SeriesFrontier::Window,
        width,
        *heights.start() as u32..=*heights.end() as u32,
        closed,
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        &mut |h, c| seen.push((h as usize, c)),
    )
    .unwrap();
    seen
}

/// Undirected open tours and closed tours of small boards by plain backtracking: the directed
/// counts from every square, halved; the cycles through one square.
#[test]
fn boundary_counts_equal_backtracking() {
    let cancel = CancelFlag::new();
    for (width, height) in [(3, 4), (3, 7), (4, 4), (4, 5), (3, 10), (5, 5), (4, 6)] {
        let board = Board::new(height, width).unwrap();
        let directed: u128 = board
            .all_squares()
            .map(|s| reference::count_open_tours(board, s, &Limits::stopped_by(&cancel)).unwrap())
            .sum();
        let corner = crate::board::Square::new(0, 0);
        let cycles =
            reference::count_closed_tours(board, corner, &Limits::stopped_by(&cancel)).unwrap() / 2;
        for (mode, expected) in [
            (FrontierMode::Total, directed / 2),
            (FrontierMode::Closed, cycles),
        ] {
            for outside_in in [false, true] {
                for fold in [false, true] {
                    let h = height as usize;
                    let (seen, _) = boundary_pass(width, h..=h, mode, outside_in, fold, true);
                    assert_eq!(
                        seen,
                        vec![(h, BigUint::from(expected))],
                        "{board} {mode:?} outside in {outside_in}, folded {fold}"
                    );
                }
            }
        }
    }
}

/// Series: every height of a pass equals the window engine's, open and closed, folded and
/// unfolded, past the rows where a period is recorded (3 rows: from about row 8; 4 and 5 rows
/// later), where the rows in the middle run as products.
#[test]
fn boundary_series_equal_the_window_series() {
    let boards = if long() {
        vec![(3, 40), (4, 24), (5, 14), (6, 9)]
    } else {
        // Long enough for a period at widths 3 and 4; width 5 without one.
        vec![(3, 24), (4, 14), (5, 8)]
    };
    for (width, last) in boards {
        for mode in [FrontierMode::Total, FrontierMode::Closed] {
            let expected = window_pass(width, width as usize..=last, mode);
            for (outside_in, fold) in [(true, true), (true, false), (false, true)] {
                let (seen, _) =
                    boundary_pass(width, width as usize..=last, mode, outside_in, fold, true);
                assert_eq!(
                    seen, expected,
                    "{width} wide {mode:?}, outside in {outside_in}, folded {fold}"
                );
            }
        }
    }
}

/// A series' period runs in the strip that goes on past its board, so its products reach the
/// board's last row: every height equals the pass square by square (no period), widths 3 to
/// 6, open and closed, and only the first two rows are taken square by square.
#[test]
fn periods_run_on_to_the_last_row_and_equal_the_plain_pass() {
    let passes = if long() {
        vec![
            (3, 40, FrontierMode::Total),
            (3, 40, FrontierMode::Closed),
            (4, 30, FrontierMode::Total),
            (5, 20, FrontierMode::Total),
            (5, 20, FrontierMode::Closed),
            (6, 16, FrontierMode::Closed),
        ]
    } else {
        vec![
            (3, 24, FrontierMode::Total),
            (3, 24, FrontierMode::Closed),
            (4, 16, FrontierMode::Total),
        ]
    };
    for (width, last, mode) in passes {
        let heights = width as usize..=last;
        let (seen, stats) = boundary_pass(width, heights.clone(), mode, true, true, true);
        let (plain, plain_stats) = boundary_pass(width, heights, mode, true, true, false);
        assert_eq!(seen, plain, "{width} wide {mode:?}");
        assert!(seen.iter().any(|(_, c)| *c > BigUint::from(0u8)));
        assert_eq!(plain_stats.periodic_squares, 0);
        let squares = (last * width as usize) as u64;
        assert!(
            stats.periodic_squares + 2 * u64::from(width) >= squares,
            "{width} wide {mode:?}: {} of {squares} squares as products",
            stats.periodic_squares
        );
    }
}

/// Folding merges states: folded layers hold fewer states than unfolded ones over a pass, and
/// give the same counts (above).
#[test]
fn folding_outside_in_holds_fewer_states() {
    let (widths, height) = if long() {
        (vec![5, 6], 10)
    } else {
        (vec![5], 8)
    };
    for width in widths {
        let heights = height..=height;
        let (_, folded) = boundary_pass(
            width,
            heights.clone(),
            FrontierMode::Total,
            true,
            true,
            true,
        );
        let (_, unfolded) = boundary_pass(width, heights, FrontierMode::Total, true, false, true);
        assert!(
            folded.layer_states * 10 < unfolded.layer_states * 7,
            "{width}: {} folded, {} unfolded",
            folded.layer_states,
            unfolded.layer_states
        );
    }
}

/// The boundary fits a key up to width 7 outside in (16 squares), not at width 8.
#[test]
fn boundaries_fit_a_key_up_to_width_7() {
    assert_eq!(Order::new(7, 12, true).widest_boundary(), MAX_SLOTS);
    assert!(Order::new(8, 12, true).widest_boundary() > MAX_SLOTS);
    assert!(Order::new(6, 12, false).widest_boundary() <= MAX_SLOTS);
}
