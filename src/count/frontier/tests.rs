//! The frontier engine's unit tests.

use crate::count::Limits;
use crate::memory::MemoryBudget;
use num_bigint::BigUint;
use num_traits::Zero;

use super::plan::{Plan, Purpose};
use super::witness::Witness;
use super::*;
use crate::testing::long;

fn run(rows: u32, cols: u32, mode: FrontierMode) -> u128 {
    let (count, _) = count(
        Board::new(rows, cols).unwrap(),
        mode,
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
    )
    .unwrap();
    count.try_into().unwrap()
}

/// The two ways of reading a tour back agree on whether one exists, and both give the
/// moves of a whole tour (n - 1 moves open, n closed, every square used once or twice).
#[test]
fn both_witness_searches_find_tours_exactly_when_they_exist() {
    let cancel = CancelFlag::new();
    for (rows, cols) in [(3, 12), (4, 9), (3, 15)] {
        let board = Board::new(rows, cols).unwrap();
        for closed in [false, true] {
            for square in board.all_squares() {
                let mode = if closed {
                    FrontierMode::Closed
                } else {
                    FrontierMode::Start(square)
                };
                let plan = Plan::new(board, mode, Purpose::Witness).unwrap();
                let exists = !count(board, mode, &Limits::new(MemoryBudget::DEFAULT, &cancel))
                    .unwrap()
                    .0
                    .is_zero();
                let periodic = match plan.witness_edges_periodic(&cancel).unwrap() {
                    Witness::Found(edges) => Some(edges),
                    Witness::NoTour => None,
                    Witness::TooManyLayers => panic!("{board}: the layers fit"),
                };
                let plain = plan.witness_edges(&cancel).unwrap();
                for edges in [periodic, plain] {
                    assert_eq!(edges.is_some(), exists, "{board} {square} {closed}");
                    if let Some(edges) = edges {
                        let n = board.squares() as usize;
                        assert_eq!(edges.len(), if closed { n } else { n - 1 });
                        let mut degree = vec![0; n];
                        for (a, b) in edges {
                            degree[a] += 1;
                            degree[b] += 1;
                        }
                        assert!(degree.iter().all(|&d| d == 1 || d == 2));
                    }
                }
                if closed {
                    break; // the same for every square
                }
            }
        }
    }
}

/// Open totals by meeting in the middle equal the direct computation's.
#[test]
fn open_totals_meet_in_the_middle() {
    let cancel = CancelFlag::new();
    // Each kind of cut in both orientations: between two rows, around the centre square, and
    // around the middle of the middle row (an odd number of rows, an even number of squares).
    let boards = if long() {
        vec![
            (3, 4),
            (4, 4),
            (4, 6),
            (6, 4),
            (5, 6),
            (6, 5),
            (5, 8),
            (6, 6),
            (3, 5),
            (5, 3),
            (5, 5),
            (5, 7),
            (7, 5),
            (3, 7),
            (7, 3),
            (5, 9),
            (5, 4),
            (4, 5),
            (7, 4),
            (4, 9),
            (4, 11),
        ]
    } else {
        vec![
            (3, 4),
            (4, 6),
            (6, 4),
            (3, 5),
            (5, 3),
            (5, 5),
            (5, 4),
            (4, 5),
            (7, 4),
        ]
    };
    for (rows, cols) in boards {
        let board = Board::new(rows, cols).unwrap();
        let plan = Plan::new(board, FrontierMode::Total, Purpose::Count).unwrap();
        assert!(plan.meets(), "{board}");
        let mut direct = BigUint::default();
        plan.run(
            plan.h..=plan.h,
            MemoryBudget::DEFAULT,
            &cancel,
            &mut |_, c| direct = c,
        )
        .unwrap();
        let (met, _) = count_meeting(
            board,
            FrontierMode::Total,
            &Limits::new(MemoryBudget::DEFAULT, &cancel),
        )
        .unwrap();
        assert_eq!(met, direct, "{board}");
    }
}

#[test]
fn known_counts() {
    assert_eq!(run(3, 4, FrontierMode::Total), 8);
    assert_eq!(run(5, 5, FrontierMode::Total), 864);
    assert_eq!(run(6, 5, FrontierMode::Closed), 8);
    assert_eq!(run(3, 10, FrontierMode::Closed), 16);
    assert_eq!(run(5, 4, FrontierMode::Start(Square::new(0, 0))), 32);
    assert_eq!(run(5, 5, FrontierMode::Start(Square::new(2, 2))), 64);
    assert_eq!(run(1, 1, FrontierMode::Total), 1);
    assert_eq!(run(1, 1, FrontierMode::Closed), 0);
    assert_eq!(run(2, 7, FrontierMode::Total), 0);
}

/// The boards of at most 40 squares whose sides are both from 3 to 8, one orientation each.
fn boards_with_both_sides_at_most(long: u32) -> Vec<Board> {
    let mut boards = Vec::new();
    for rows in 3..=long {
        for cols in rows..=long {
            if rows * cols <= 40 {
                boards.push(Board::new(rows, cols).unwrap());
            }
        }
    }
    boards
}

/// Rows along the long side count what rows along the short side count: closed tours (on even
/// boards), open totals and the tours from a start or two, on every board of at most 40
/// squares whose sides are both from 3 to 8 but 5x8, whose pass along its long side (no cut:
/// 18 squares) holds over 50 million states. Boards of more than 24 squares are counted in one
/// orientation, from one start, to keep the test to seconds.
#[test]
fn rows_along_the_long_side_count_the_same() {
    let limits = Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new());
    for board in boards_with_both_sides_at_most(8) {
        if board == Board::new(5, 8).unwrap() {
            continue;
        }
        // The larger boards (a pass each) with one start, and in one orientation.
        let small = board.squares() <= 24;
        let mut modes = vec![FrontierMode::Total, FrontierMode::Start(Square::new(1, 2))];
        if small {
            modes.push(FrontierMode::Start(Square::new(0, 0)));
        }
        if board.squares() % 2 == 0 {
            modes.push(FrontierMode::Closed);
        }
        let turned = small.then(|| board.transposed());
        for board in std::iter::once(board).chain(turned) {
            for &mode in &modes {
                let mode = match mode {
                    FrontierMode::Start(square) if !board.contains(square) => continue,
                    mode => mode,
                };
                let short = count_with_rows(board, mode, Rows::Short, &limits)
                    .unwrap()
                    .0;
                let long = count_with_rows(board, mode, Rows::Long, &limits).unwrap().0;
                assert_eq!(long, short, "{board} {mode:?}");
            }
        }
    }
    // Along the long side, the long side is the width.
    let too_wide = Board::new(3, 10).unwrap();
    let refused = count_with_rows(too_wide, FrontierMode::Total, Rows::Long, &limits);
    assert!(matches!(refused, Err(Error::Unsupported(_))), "{refused:?}");
}

#[test]
fn open_series_matches_single_counts() {
    let last = if long() { 9 } else { 7 };
    for width in [3u32, 4, 5] {
        let mut seen = Vec::new();
        series(
            width,
            width..=last,
            false,
            &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
            &mut |h, c| seen.push((h, c)),
        )
        .unwrap();
        for (height, count) in seen {
            let single = super::count(
                Board::new(height, width).unwrap(),
                FrontierMode::Total,
                &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
            )
            .unwrap()
            .0;
            assert_eq!(count, single, "{width}x{height}");
        }
    }
}

#[test]
fn series_matches_single_counts() {
    let mut seen = Vec::new();
    series(
        3,
        3..=12,
        true,
        &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        &mut |h, c| seen.push((h, c)),
    )
    .unwrap();
    let expected: Vec<(u32, BigUint)> = [0u32, 0, 0, 0, 0, 0, 0, 16, 0, 176]
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 3, BigUint::from(c)))
        .collect();
    assert_eq!(seen, expected);
}

/// Tours between two squares: the frontier engine agrees with plain backtracking on every pair
/// of small boards (both orientations), and the pairs from a start add up to the start's count.
#[test]
fn pairs_agree_with_backtracking() {
    use crate::count::reference;
    let cancel = CancelFlag::new();
    for (rows, cols) in [(3, 4), (4, 3), (3, 7), (4, 5), (5, 4), (2, 5), (1, 3)] {
        let board = Board::new(rows, cols).unwrap();
        for start in board.all_squares() {
            let mut memo = crate::count::memo::MemoCounter::new(
                board,
                &Limits::new(MemoryBudget::DEFAULT, &cancel),
            )
            .unwrap();
            let mut sum = 0u128;
            for end in board.all_squares().filter(|&end| end != start) {
                let expected = reference::count_open_tours_between(
                    board,
                    start,
                    end,
                    &Limits::stopped_by(&cancel),
                )
                .unwrap();
                let got = run(rows, cols, FrontierMode::Between(start, end));
                assert_eq!(got, expected, "{board} {start} -> {end}");
                let memo_count = memo.count_between(start, end).unwrap();
                assert_eq!(memo_count, expected, "memo {board} {start} -> {end}");
                sum += got;
            }
            let from =
                reference::count_open_tours(board, start, &Limits::stopped_by(&cancel)).unwrap();
            assert_eq!(sum, from, "{board} {start}");
        }
    }
}

/// Open tours from each start by meeting in the middle (starts above, on and below the cut)
/// equal the memo engine's counts, in both orientations.
#[test]
fn starts_meet_in_the_middle() {
    let cancel = CancelFlag::new();
    let boards = if long() {
        vec![
            (4, 4),
            (3, 5),
            (5, 3),
            (3, 7),
            (4, 6),
            (6, 4),
            (5, 5),
            (5, 6),
            (6, 5),
            (4, 5),
            (7, 4),
        ]
    } else {
        vec![(4, 4), (3, 5), (5, 3), (4, 6), (5, 5), (4, 5), (7, 4)]
    };
    for (rows, cols) in boards {
        let board = Board::new(rows, cols).unwrap();
        assert!(
            Plan::new(board, FrontierMode::Total, Purpose::Count)
                .unwrap()
                .meets(),
            "{board} meets"
        );
        let starts: Vec<Square> = board.all_squares().collect();
        let mut got = Vec::new();
        count_from_each(
            board,
            &starts,
            &Limits::new(MemoryBudget::DEFAULT, &cancel),
            &mut |s, c| got.push((s, c)),
        )
        .unwrap();
        assert_eq!(got.len(), starts.len());
        let mut memo = crate::count::memo::MemoCounter::new(
            board,
            &Limits::new(MemoryBudget::DEFAULT, &cancel),
        )
        .unwrap();
        for (start, count) in got {
            assert_eq!(
                count,
                BigUint::from(memo.count_from(start).unwrap()),
                "{board} from {start}"
            );
        }
    }
}

/// Tours between two squares by meeting in the middle (ends above, on and below the cut, in
/// every combination) equal the direct pass's counts.
#[test]
fn pairs_meet_in_the_middle() {
    let cancel = CancelFlag::new();
    let boards = if long() {
        vec![
            (4, 4),
            (3, 5),
            (5, 3),
            (3, 6),
            (6, 3),
            (5, 5),
            (5, 4),
            (4, 7),
        ]
    } else {
        vec![(4, 4), (3, 5), (5, 3), (3, 6), (5, 4)]
    };
    for (rows, cols) in boards {
        let board = Board::new(rows, cols).unwrap();
        for from in board.all_squares() {
            for to in board.all_squares().filter(|&to| to != from) {
                let (met, _) = count_between_meeting(
                    board,
                    from,
                    to,
                    None,
                    &Limits::new(MemoryBudget::DEFAULT, &cancel),
                )
                .unwrap()
                .expect("the board can be cut");
                let direct = run(rows, cols, FrontierMode::Between(from, to));
                assert_eq!(met, BigUint::from(direct), "{board} {from} -> {to}");
            }
        }
    }
}

/// Every layer the engine builds (hash maps while filled, arrays once full, on all threads) holds
/// the states and counts of one plain map filled square by square on one thread, for the whole
/// board and for meeting halves, every mode.
#[test]
fn compact_layers_hold_what_one_hash_map_holds() {
    use hashbrown::HashMap;

    use crate::count::frontier::pass::layer::first_layer;
    use crate::count::frontier::sweep::Outcome;
    use crate::count::frontier::window::state::Codec;

    let cancel = CancelFlag::new();
    let boards = if long() {
        vec![(3, 8), (4, 6), (5, 5), (5, 6), (6, 6)]
    } else {
        vec![(3, 8), (4, 6), (5, 5)]
    };
    for (rows, cols) in boards {
        let board = Board::new(rows, cols).unwrap();
        let modes = [
            FrontierMode::Closed,
            FrontierMode::Total,
            FrontierMode::Start(Square::new(0, 1)),
            FrontierMode::Between(Square::new(0, 0), Square::new(rows - 1, cols - 1)),
        ];
        for mode in modes {
            for purpose in [Purpose::Count, Purpose::Meet] {
                let plan = Plan::new(board, mode, purpose).unwrap();
                let codec = Codec::new(plan.k);
                let heights = plan.h..=plan.h;
                let last = if purpose == Purpose::Meet && plan.can_cut_open() {
                    plan.last_of_top_half()
                } else {
                    plan.n - 1
                };
                let sweep = super::window::WindowSweep::<u64>::new(&plan, &codec, heights.clone());
                let mut layer = first_layer::<u64>(codec.initial::<u64, u64>(), plan.w);
                let mut plain: HashMap<u64, u64> = HashMap::new();
                plain.insert(codec.initial::<u64, u64>(), 1);
                let mut stats = FrontierStats::default();
                for v in 0..=last {
                    let step = plan.step::<u64>(v, &heights);
                    let (next, finished) = plan
                        .advance(
                            &sweep,
                            layer,
                            &step,
                            v,
                            &Limits::new(MemoryBudget::DEFAULT, &cancel),
                            &mut stats,
                        )
                        .unwrap();
                    layer = next;
                    let mut plain_next: HashMap<u64, u64> = HashMap::new();
                    let mut plain_finished = 0;
                    for (&key, &count) in &plain {
                        plan.transitions(&codec, &step, key, |outcome| match outcome {
                            Outcome::Next(next_key, _) => {
                                *plain_next.entry(next_key).or_default() += count
                            }
                            Outcome::Finished(_) => plain_finished += count,
                        });
                    }
                    plain = plain_next;
                    let compact: HashMap<u64, u64> = layer
                        .shards()
                        .iter()
                        .flat_map(|shard| shard.iter().map(|(key, &count)| (key, count)))
                        .collect();
                    let held = layer.states() as usize;
                    assert_eq!(
                        held,
                        compact.len(),
                        "{board} {mode:?} square {v}: one key once"
                    );
                    assert_eq!(compact, plain, "{board} {mode:?} {purpose:?} square {v}");
                    assert_eq!(finished, plain_finished, "{board} {mode:?} square {v}");
                }
                assert!(stats.peak_states > 0 && stats.peak_bytes >= 16 * stats.peak_states);
            }
        }
    }
}

/// Every count of a pass over `board` in `mode` for `heights`, with counts of type `T`.
fn pass_in<T: crate::count::frontier::counts::tally::Tally>(
    board: Board,
    mode: FrontierMode,
    heights: std::ops::RangeInclusive<usize>,
) -> Vec<(usize, BigUint)> {
    let purpose = if heights.start() == heights.end() {
        Purpose::Count
    } else {
        Purpose::Heights
    };
    let plan = Plan::new(board, mode, purpose).unwrap();
    let mut seen = Vec::new();
    crate::count::frontier::pass::layer::by_word!(plan, Wd => plan.run_with::<Wd, T>(
        &heights,
        false,
        MemoryBudget::DEFAULT,
        &CancelFlag::new(),
        &mut |h, c| seen.push((h, c)),
    ))
    .unwrap();
    seen
}

/// Counts kept modulo primes, or modulo 2^64, equal the counts in arbitrary precision, on
/// every kind of pass the engine makes: totals, closed tours, from a start, between two
/// squares, and series (whose counts pass 2^64 on 3 rows); with the fewest primes and with
/// many (of which the pass runs only those the board's bound asks for).
#[test]
fn counts_modulo_primes_equal_exact_counts() {
    use crate::count::frontier::counts::tally::{Residues, Wrapping64};
    let (a, b) = (Square::new(0, 0), Square::new(2, 2));
    let mut passed_2_64 = false;
    let mut passes: Vec<(Board, FrontierMode, std::ops::RangeInclusive<usize>)> = vec![
        (Board::new(5, 6).unwrap(), FrontierMode::Total, 6..=6),
        (Board::new(4, 7).unwrap(), FrontierMode::Start(a), 7..=7),
        (
            Board::new(5, 5).unwrap(),
            FrontierMode::Between(a, b),
            5..=5,
        ),
        (Board::new(3, 60).unwrap(), FrontierMode::Total, 3..=60),
    ];
    if long() {
        passes.extend([
            (Board::new(6, 6).unwrap(), FrontierMode::Closed, 6..=6),
            (Board::new(5, 11).unwrap(), FrontierMode::Total, 5..=11),
            (Board::new(6, 7).unwrap(), FrontierMode::Closed, 6..=7),
        ]);
    } else {
        passes.extend([
            (Board::new(5, 6).unwrap(), FrontierMode::Closed, 6..=6),
            (Board::new(4, 9).unwrap(), FrontierMode::Total, 4..=9),
        ]);
    }
    for (board, mode, heights) in passes {
        let exact = pass_in::<BigUint>(board, mode, heights.clone());
        assert!(exact.iter().any(|(_, c)| !c.is_zero()), "{board}");
        let fits = exact.iter().all(|(_, c)| c.bits() < 63);
        let huge = exact.iter().any(|(_, c)| c.bits() > 64);
        passed_2_64 |= huge;
        assert_eq!(
            pass_in::<u128>(board, mode, heights.clone()),
            exact,
            "{board}"
        );
        if fits {
            let wrapped = pass_in::<Wrapping64>(board, mode, heights.clone());
            assert_eq!(wrapped, exact, "{board}");
        }
        assert_eq!(
            pass_in::<Residues<2>>(board, mode, heights.clone()),
            exact,
            "{board}"
        );
        assert_eq!(
            pass_in::<Residues<16>>(board, mode, heights),
            exact,
            "{board}"
        );
        // The engine's own choice, from the bound.
        let plan = Plan::new(board, mode, Purpose::Count).unwrap();
        match plan.lanes() {
            super::pass::Lanes::Wrapping => assert!(fits && !huge, "{board}"),
            super::pass::Lanes::Primes(primes) => assert!(primes >= 2, "{board}"),
            super::pass::Lanes::Big => panic!("{board}: the primes suffice"),
        }
    }
    assert!(passed_2_64, "some count needs more than 64 bits");
    // The bound decides: 5x50's needs 7 primes (9 before Brégman's bound), 3x4000's more than any pass keeps.
    let lanes = |rows, cols| {
        Plan::new(
            Board::new(rows, cols).unwrap(),
            FrontierMode::Total,
            Purpose::Count,
        )
        .unwrap()
        .lanes()
    };
    assert_eq!(lanes(5, 50), super::pass::Lanes::Primes(7));
    assert_eq!(lanes(5, 6), super::pass::Lanes::Wrapping);
    assert_eq!(lanes(6, 6), super::pass::Lanes::Wrapping);
    assert_eq!(lanes(6, 8), super::pass::Lanes::Primes(2));
    assert_eq!(lanes(3, 4000), super::pass::Lanes::Big);
}

/// Every height's count of one series pass, with or without the periodic transfer, and the
/// pass's figures.
fn series_pass(
    width: u32,
    heights: std::ops::RangeInclusive<u32>,
    closed: bool,
    periodic: bool,
) -> (Vec<(usize, BigUint)>, FrontierStats) {
    let board = Board::new(*heights.end(), width).unwrap();
    let mode = if closed {
        FrontierMode::Closed
    } else {
        FrontierMode::Total
    };
    let mut plan = Plan::new(board, mode, Purpose::Heights).unwrap();
    plan.periodic = periodic;
    let mut seen = Vec::new();
    let heights = *heights.start() as usize..=*heights.end() as usize;
    let stats = plan
        .run(
            heights,
            MemoryBudget::DEFAULT,
            &CancelFlag::new(),
            &mut |h, c| seen.push((h, c)),
        )
        .unwrap();
    (seen, stats)
}

/// The periodic transfer of the window gives every height the count the square-by-square pass
/// gives, well past the period, on widths 3 to 6, open and closed (4xn has no closed tours);
/// and it is used (the squares it counts are most of a long pass). Its counts stay in 64 bits
/// while they fit.
#[test]
fn the_periodic_transfer_equals_the_pass_square_by_square() {
    let passes = if long() {
        vec![
            (3, 3..=60, false),
            (3, 3..=60, true),
            (4, 4..=40, false),
            (5, 5..=24, false),
            (5, 6..=24, true),
            // Six rows' closed tours repeat late: at 12 rows no row is periodic yet.
            (6, 6..=16, true),
        ]
    } else {
        // Past 2^64 on three rows (residues), a period at widths 3 and 4, open and closed.
        vec![(3, 3..=60, false), (3, 3..=30, true), (4, 4..=16, false)]
    };
    for (width, heights, closed) in passes {
        let (periodic, stats) = series_pass(width, heights.clone(), closed, true);
        // Counts stay in 64 bits while they fit, and go on modulo primes where they do not.
        let fits = periodic.iter().all(|(_, c)| c.bits() <= 64);
        if fits {
            assert_eq!(
                (stats.count_bits, stats.count_primes),
                (64, 0),
                "{width} rows"
            );
        } else {
            assert!(stats.count_primes >= 2, "{width} rows: {stats:?}");
        }
        let (plain, plain_stats) = series_pass(width, heights.clone(), closed, false);
        assert_eq!(periodic, plain, "{width} rows, closed {closed}");
        assert_eq!(periodic.len(), heights.clone().count());
        assert!(periodic.iter().any(|(_, c)| !c.is_zero()));
        assert!(stats.period_rows >= 1, "{width} rows: no period");
        assert!(
            stats.periodic_squares > 0,
            "{width} rows: the period is not used"
        );
        assert_eq!(plain_stats.periodic_squares, 0);
        if *heights.end() >= 40 {
            let squares = u64::from(*heights.end() * width);
            assert!(
                stats.periodic_squares * 2 > squares,
                "{width} rows: {stats:?}"
            );
        }
    }
}

/// One pass over `board` (no meeting in the middle) along `rows`, its layers keyed by `u128`
/// where `wide`.
fn one_pass(board: Board, mode: FrontierMode, rows: Rows, wide: bool) -> BigUint {
    let mut plan = Plan::with_rows(board, mode, Purpose::Count, rows).unwrap();
    plan.wide_keys = wide;
    let mut result = BigUint::default();
    plan.run(
        plan.h..=plan.h,
        MemoryBudget::DEFAULT,
        &CancelFlag::new(),
        &mut |_, count| result = count,
    )
    .unwrap();
    result
}

/// Layers keyed by `u128` count what layers keyed by `u64` count: every board of the tests
/// above (at most 40 squares, sides from 3 to 8, but 5x8) along its short side and, up to 24
/// squares, along its long side too (width 8's base-12 keys against the `u128`'s nibbles):
/// closed tours, open totals and the tours from a start, each in one pass.
#[test]
fn both_key_words_count_alike() {
    for board in boards_with_both_sides_at_most(8) {
        if board == Board::new(5, 8).unwrap() {
            continue;
        }
        let mut modes = vec![FrontierMode::Total, FrontierMode::Start(Square::new(1, 2))];
        if board.squares() % 2 == 0 {
            modes.push(FrontierMode::Closed);
        }
        let mut sides = vec![Rows::Short];
        if board.squares() <= 24 {
            sides.push(Rows::Long);
        }
        for rows in sides {
            for &mode in &modes {
                let narrow = one_pass(board, mode, rows, false);
                let wide = one_pass(board, mode, rows, true);
                assert_eq!(wide, narrow, "{board} {mode:?} {rows:?}");
            }
        }
    }
}

/// Width 9 (rows along the long side of 9x3 and 9x4, in `u128` keys) against plain
/// backtracking: the open tours from every start of 9x3 and its open total, and in the long
/// tier from 9x4's corner (minutes; its open total along the long side passes 35 million
/// states: beyond a test).
#[test]
fn width_nine_agrees_with_backtracking() {
    use crate::count::reference;
    let limits = Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new());
    let boards = if long() {
        vec![(3, 9), (4, 9)]
    } else {
        vec![(3, 9)]
    };
    for (rows, cols) in boards {
        let board = Board::new(rows, cols).unwrap();
        let plan = Plan::with_rows(board, FrontierMode::Total, Purpose::Count, Rows::Long).unwrap();
        assert_eq!((plan.w, plan.k), (9, 19));
        let starts: Vec<Square> = if rows == 3 {
            board.all_squares().collect()
        } else {
            vec![Square::new(0, 0)]
        };
        let mut directed = 0u128;
        for &start in &starts {
            let mode = FrontierMode::Start(start);
            let counted = count_with_rows(board, mode, Rows::Long, &limits).unwrap().0;
            let expected = reference::count_open_tours(board, start, &limits).unwrap();
            assert_eq!(counted, BigUint::from(expected), "{board} {start}");
            directed += expected;
        }
        if rows == 3 {
            let total = count_with_rows(board, FrontierMode::Total, Rows::Long, &limits).unwrap();
            assert_eq!(total.0 * 2u32, BigUint::from(directed), "{board}");
        }
    }
}

/// Width 9 (rows along the long side) counts what widths 3 and 4 count on the boards 9 squares
/// long of at most 40 squares: on 9x3 closed tours, the open total, the tours from two starts
/// and between two corners; on 9x4 those between two corners (its closed tours and open total
/// along the long side pass 35 million states: beyond a test).
#[test]
fn width_nine_counts_as_the_narrow_rows_do() {
    let limits = Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new());
    let corners = |rows: u32| FrontierMode::Between(Square::new(0, 0), Square::new(rows - 1, 8));
    let three = [
        FrontierMode::Closed,
        FrontierMode::Total,
        FrontierMode::Start(Square::new(0, 0)),
        FrontierMode::Start(Square::new(1, 4)),
        corners(3),
    ];
    for (rows, modes) in [(3, &three[..]), (4, &[corners(4)][..])] {
        let board = Board::new(rows, 9).unwrap();
        for &mode in modes {
            let short = count_with_rows(board, mode, Rows::Short, &limits)
                .unwrap()
                .0;
            let long = count_with_rows(board, mode, Rows::Long, &limits).unwrap().0;
            assert_eq!(long, short, "{board} {mode:?}");
        }
    }
}
