//! Checkpoints: a pass stopped at every square in turn, each run going on from the last,
//! counts what one run counts; a checkpoint damaged, cut short or of another pass is refused
//! and left as it was.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use num_bigint::BigUint;

use crate::board::{Board, Square};
use crate::cancel::{CancelFlag, Checkpointing, Stop};
use crate::count::Limits;
use crate::count::frontier::{FrontierMode, Rows, SeriesFrontier, count_with_rows, series_over};
use crate::error::Error;
use crate::memory::MemoryBudget;

/// What one run of a pass reports: each height's count (one height for a board).
type Counts = BTreeMap<u32, BigUint>;

/// A pass, run within limits.
type Counting = Box<dyn Fn(&Limits) -> Result<Counts, Error>>;

/// A flag whose passes save into `dir` at every square and, asked to stop before they start,
/// save at the end of their first square and stop.
fn stopping_after_one_square(dir: &Path) -> CancelFlag {
    let cancel = CancelFlag::new();
    cancel.save_passes(Checkpointing::new(dir, Duration::ZERO).unwrap());
    let running = cancel.saving_pass();
    assert_eq!(cancel.stop(), Stop::AfterSaving);
    drop(running);
    cancel
}

/// Runs `count` again and again, each run stopped after one square and going on from the
/// last: its counts once a run finishes, and the runs it took.
fn run_square_by_square(
    dir: &Path,
    count: impl Fn(&Limits) -> Result<Counts, Error>,
) -> (Counts, usize) {
    for runs in 1.. {
        let limits = Limits::new(MemoryBudget::DEFAULT, &stopping_after_one_square(dir));
        match count(&limits) {
            Ok(counts) => return (counts, runs),
            Err(Error::Interrupted) => assert!(limits.cancel.last_saved().is_some()),
            Err(e) => panic!("run {runs}: {e}"),
        }
    }
    unreachable!()
}

fn board_count(
    board: Board,
    mode: FrontierMode,
    rows: Rows,
) -> impl Fn(&Limits) -> Result<Counts, Error> {
    move |limits| {
        let (count, _) = count_with_rows(board, mode, rows, limits)?;
        Ok(Counts::from([(board.rows(), count)]))
    }
}

fn series_count(
    frontier: SeriesFrontier,
    width: u32,
    heights: std::ops::RangeInclusive<u32>,
    closed: bool,
) -> impl Fn(&Limits) -> Result<Counts, Error> {
    move |limits| {
        let mut counts = Counts::new();
        series_over(
            frontier,
            width,
            heights.clone(),
            closed,
            limits,
            &mut |h, count| {
                assert!(
                    counts.insert(h, count).is_none(),
                    "height {h} reported twice"
                );
            },
        )?;
        Ok(counts)
    }
}

/// Each pass below, stopped after every square and resumed, counts what it counts in one
/// run, and leaves no checkpoint once it finishes: a board's pass (window, rows either way),
/// a meeting in the middle's top half, a start and a pair, and series whose rows run as a
/// recorded period (the window's and the boundary's), where a run resumed reports the heights
/// finished before it again.
#[test]
fn a_pass_resumed_at_every_square_counts_as_one_run() {
    let board = |r, c| Board::new(r, c).unwrap();
    let cases: Vec<(&str, Counting)> = vec![
        (
            "5x6 open",
            Box::new(board_count(board(5, 6), FrontierMode::Total, Rows::Short)),
        ),
        (
            "6x6 closed, meeting",
            Box::new(board_count(board(6, 6), FrontierMode::Closed, Rows::Short)),
        ),
        (
            "4x7 closed along the 7",
            Box::new(board_count(board(4, 7), FrontierMode::Closed, Rows::Long)),
        ),
        (
            "5x5 from (0, 0)",
            Box::new(board_count(
                board(5, 5),
                FrontierMode::Start(Square::new(0, 0)),
                Rows::Short,
            )),
        ),
        (
            "5x6 from (0, 0) to (4, 5)",
            Box::new(board_count(
                board(5, 6),
                FrontierMode::Between(Square::new(0, 0), Square::new(4, 5)),
                Rows::Short,
            )),
        ),
        (
            "series 4 closed to 30",
            Box::new(series_count(SeriesFrontier::Window, 4, 4..=30, true)),
        ),
        (
            "series 3 open to 40",
            Box::new(series_count(SeriesFrontier::Window, 3, 3..=40, false)),
        ),
        (
            "series 4 open, boundary",
            Box::new(series_count(SeriesFrontier::Boundary, 4, 4..=24, false)),
        ),
    ];
    for (name, count) in cases {
        let once = count(&Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new())).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (resumed, runs) = run_square_by_square(dir.path(), &count);
        assert_eq!(resumed, once, "{name}");
        // A recorded period runs to the board's end as one step, saved after it as a whole.
        assert!(runs >= 4, "{name}: {runs} runs");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{name}: {left:?} left behind");
    }
}

/// A checkpoint whose bytes were changed or cut, or that is another pass's under this pass's
/// name, is refused in one line that names it, and left as it was.
#[test]
fn a_damaged_or_foreign_checkpoint_is_refused_and_kept() {
    let board = |r, c| Board::new(r, c).unwrap();
    let five = board_count(board(5, 6), FrontierMode::Total, Rows::Short);
    let four = board_count(board(4, 8), FrontierMode::Total, Rows::Short);
    // Each left stopped a few squares in, with its checkpoint.
    let saved = |count: &dyn Fn(&Limits) -> Result<Counts, Error>, dir: &Path| {
        for _ in 0..4 {
            let limits = Limits::new(MemoryBudget::DEFAULT, &stopping_after_one_square(dir));
            assert!(matches!(count(&limits), Err(Error::Interrupted)));
        }
        let files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        files[0].clone()
    };
    let refusal = |count: &dyn Fn(&Limits) -> Result<Counts, Error>, dir: &Path| {
        let cancel = CancelFlag::new();
        cancel.save_passes(Checkpointing::new(dir, Duration::ZERO).unwrap());
        match count(&Limits::new(MemoryBudget::DEFAULT, &cancel)) {
            Err(e @ Error::Unsupported(_)) => e.to_string(),
            other => panic!("not refused: {other:?}"),
        }
    };
    let (dir_five, dir_four) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let path = saved(&five, dir_five.path());
    let good = std::fs::read(&path).unwrap();
    let damages: Vec<(&str, Vec<u8>)> = vec![
        ("a byte changed", {
            let mut bytes = good.clone();
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x10;
            bytes
        }),
        ("cut short", good[..good.len() - 5].to_vec()),
        ("a byte added", [good.as_slice(), &[0]].concat()),
        ("its header cut", good[..20].to_vec()),
        ("not a checkpoint", b"phase,square\n".to_vec()),
    ];
    for (damage, bytes) in damages {
        std::fs::write(&path, &bytes).unwrap();
        let message = refusal(&five, dir_five.path());
        assert!(
            message.contains(&path.display().to_string()),
            "{damage}: {message}"
        );
        assert!(!message.contains('\n'), "{damage}: {message}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{damage}: the file was changed"
        );
    }
    // 4x8's checkpoint under 5x6's name.
    let other = saved(&four, dir_four.path());
    std::fs::copy(&other, &path).unwrap();
    let message = refusal(&five, dir_five.path());
    assert!(message.contains("another pass"), "{message}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&other).unwrap()
    );
    // Put back, it is taken up again.
    std::fs::write(&path, &good).unwrap();
    let once = five(&Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new())).unwrap();
    let (resumed, _) = run_square_by_square(dir_five.path(), &five);
    assert_eq!(resumed, once);
}
