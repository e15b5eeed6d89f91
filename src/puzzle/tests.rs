//! Puzzles against independent evidence: the plain backtracking counter with the same givens,
//! the engines' counts without givens (a whole board, one start, a pair), the validator.

use crate::count::Limits;
use proptest::prelude::*;

use super::*;
use crate::cancel::CancelFlag;
use crate::count::memo::{MemoCounter, count_cycles};
use crate::count::reference::count_with_steps;
use crate::memory::MemoryBudget;
use crate::tour::{Tour, find_tour, validate};

fn board(rows: u32, cols: u32) -> Board {
    Board::new(rows, cols).unwrap()
}

fn exact(puzzle: &Puzzle) -> u128 {
    count(
        puzzle,
        MemoryBudget::DEFAULT,
        &CancelFlag::new(),
        &mut |_, _| {},
    )
    .unwrap()
    // No completion, with a reason: 0.
    .unwrap_or_default()
}

fn reference(puzzle: &Puzzle) -> u128 {
    count_with_steps(
        puzzle.board(),
        puzzle.cells(),
        puzzle.is_closed(),
        &Limits::stopped_by(&CancelFlag::new()),
    )
    .unwrap()
}

/// The puzzle of `board` with `givens` (step, row, col).
fn puzzle_with(board: Board, closed: bool, givens: &[(u64, u32, u32)]) -> Puzzle {
    let mut cells = vec![None; board.squares() as usize];
    for &(step, row, col) in givens {
        cells[board.index(Square::new(row, col))] = Some(step);
    }
    Puzzle {
        board,
        closed,
        cells,
    }
}

/// Checks that `tour` is a tour and keeps every given number of `puzzle`.
fn assert_completes(puzzle: &Puzzle, tour: &Tour) {
    assert_eq!(
        validate(puzzle.board(), tour.squares(), puzzle.is_closed()),
        Ok(())
    );
    let steps = tour.step_numbers();
    for (step, square) in puzzle.givens() {
        assert_eq!(steps[puzzle.board().index(square)], step, "{square}");
    }
}

/// Every board of at most `max` squares, both orientations.
fn boards(max: u64) -> Vec<Board> {
    let mut all = Vec::new();
    for rows in 1..=max as u32 {
        for cols in 1..=max as u32 {
            if u64::from(rows) * u64::from(cols) <= max {
                all.push(board(rows, cols));
            }
        }
    }
    all
}

fn any_board(max: u64) -> impl Strategy<Value = Board> {
    let all = boards(max);
    (0..all.len()).prop_map(move |i| all[i])
}

/// A puzzle on a board of at most 25 squares: random cells given random steps, or (half the
/// time) steps taken from a tour, so that many puzzles have completions.
fn any_puzzle() -> impl Strategy<Value = Puzzle> {
    (
        any_board(25),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec((any::<u32>(), any::<u32>()), 0..6),
    )
        .prop_map(|(board, closed, from_tour, picks)| {
            let n = board.squares() as u32;
            let mut puzzle = puzzle_with(board, closed, &[]);
            let tour = from_tour
                .then(|| {
                    let start = board.square((picks.len() as u32 % n) as usize);
                    find_tour(board, start, closed, 7, &CancelFlag::new())
                        .unwrap()
                        .ok()
                })
                .flatten();
            for (a, b) in picks {
                let index = (a % n) as usize;
                let step = match &tour {
                    Some((tour, _)) => tour.step_numbers()[index],
                    None => u64::from(b % n + 1),
                };
                puzzle.cells[index] = Some(step);
            }
            puzzle
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The memo engine with constraints against plain backtracking with the same givens.
    #[test]
    fn counts_agree_with_plain_backtracking(puzzle in any_puzzle()) {
        prop_assert_eq!(exact(&puzzle), reference(&puzzle), "{}", puzzle.to_text());
    }

    /// A completion is found exactly when one exists, and it is a tour keeping every given
    /// number; the listing gives as many completions as the count, all different.
    #[test]
    fn solve_and_list_agree_with_the_count(puzzle in any_puzzle()) {
        let n = reference(&puzzle);
        let solved = solve(&puzzle, &CancelFlag::new()).unwrap();
        prop_assert_eq!(solved.is_ok(), n > 0, "{}", puzzle.to_text());
        if let Ok(tour) = &solved {
            assert_completes(&puzzle, tour);
        }
        let mut seen = std::collections::HashSet::new();
        each_completion(&puzzle, MemoryBudget::DEFAULT, &CancelFlag::new(), &mut |tour| {
            assert_completes(&puzzle, &tour);
            assert!(seen.insert(tour.squares().to_vec()), "listed twice");
            true
        })
        .unwrap()
        .ok();
        prop_assert_eq!(seen.len() as u128, n);
    }

    /// The capped count is the count up to the cap.
    #[test]
    fn capped_counts_are_counts_up_to_the_cap(puzzle in any_puzzle(), cap in 1u128..4) {
        let capped = count_capped(&puzzle, cap, MemoryBudget::DEFAULT, &CancelFlag::new())
            .unwrap()
            .unwrap_or(0);
        prop_assert_eq!(capped, reference(&puzzle).min(cap));
    }
}

/// With no given number a puzzle counts every tour: the per-square table's total (open), and
/// each cycle once per start and direction (closed).
#[test]
fn empty_puzzle_counts_every_tour() {
    for board in [
        board(3, 4),
        board(5, 5),
        board(4, 5),
        board(3, 7),
        board(5, 6),
        board(1, 1),
    ] {
        let table = MemoCounter::new(
            board,
            &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        )
        .unwrap()
        .table()
        .unwrap();
        let open = puzzle_with(board, false, &[]);
        assert_eq!(
            num_bigint::BigUint::from(exact(&open)),
            table.total_directed(),
            "{board}"
        );
    }
    for board in [board(5, 6), board(3, 10), board(6, 6)] {
        let (cycles, _) = count_cycles(
            board,
            &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        )
        .unwrap();
        let closed = puzzle_with(board, true, &[]);
        assert_eq!(
            exact(&closed),
            cycles * 2 * u128::from(board.squares() as u32)
        );
    }
}

/// A given 1 counts the tours from its square; 1 and the last step count the tours between.
#[test]
fn given_ends_count_tours_from_a_square_and_between_two() {
    for board in [board(5, 5), board(4, 5), board(3, 7), board(5, 6)] {
        let n = board.squares();
        let mut engine = MemoCounter::new(
            board,
            &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
        )
        .unwrap();
        let table = engine.table().unwrap();
        for start in board.all_squares() {
            let one = puzzle_with(board, false, &[(1, start.row, start.col)]);
            assert_eq!(
                num_bigint::BigUint::from(exact(&one)),
                *table.get(start),
                "{board} {start}"
            );
            for end in board.all_squares().filter(|&e| e != start) {
                let pair = puzzle_with(
                    board,
                    false,
                    &[(1, start.row, start.col), (n, end.row, end.col)],
                );
                let mut between = MemoCounter::new(
                    board,
                    &Limits::new(MemoryBudget::DEFAULT, &CancelFlag::new()),
                )
                .unwrap();
                assert_eq!(
                    exact(&pair),
                    between.count_between(start, end).unwrap(),
                    "{board} {start} {end}"
                );
            }
        }
    }
}

/// Made puzzles have exactly one completion by plain backtracking, and `solve` finds it.
#[test]
fn made_puzzles_have_one_completion() {
    let mut made_any = 0;
    let (largest, most_seeds) = if crate::testing::long() {
        (36, 12)
    } else {
        (30, 3)
    };
    for board in boards(largest)
        .into_iter()
        .filter(|b| b.squares() <= 30 || b.is_square())
    {
        for closed in [false, true] {
            // The plain check of a 6x6 puzzle takes seconds, of the smaller ones milliseconds.
            let seeds = if board.squares() > 30 { 3 } else { most_seeds };
            for seed in 0..seeds {
                let made = match make(
                    board,
                    closed,
                    None,
                    seed,
                    MemoryBudget::DEFAULT,
                    &CancelFlag::new(),
                )
                .unwrap()
                {
                    Ok(made) => made,
                    Err(_) => {
                        // No such tour on the board: the theorems say so, or the search.
                        assert!(exact(&puzzle_with(board, closed, &[])) == 0, "{board}");
                        break;
                    }
                };
                made_any += 1;
                assert_eq!(reference(&made.puzzle), 1, "{board} seed {seed}");
                assert!(made.minimal);
                let solved = solve(&made.puzzle, &CancelFlag::new()).unwrap().unwrap();
                assert_eq!(solved.squares(), made.solution.squares());
                assert_completes(&made.puzzle, &solved);
            }
        }
    }
    assert!(made_any > 50, "{made_any}");
}

#[test]
fn text_reads_back() {
    let text = "# a 3x4 puzzle\n 1 . . .\n\n . . 0 _  # comment\n . . . 12\n";
    let puzzle = Puzzle::parse(text, false).unwrap();
    assert_eq!(puzzle.board(), board(3, 4));
    assert_eq!(puzzle.givens().count(), 2);
    assert_eq!(Puzzle::parse(&puzzle.to_text(), false).unwrap(), puzzle);
}

#[test]
fn bad_text_names_the_row_and_column() {
    let error = |text: &str| Puzzle::parse(text, false).unwrap_err().to_string();
    assert_eq!(
        error("1 . .\n. x .\n"),
        "line 2: row 2, column 2: \"x\" is not a step number or an empty mark (., 0 or _)"
    );
    assert_eq!(
        error("# c\n1 . .\n. .\n"),
        "line 3: row 2, column 3: the row ends after 2 cells; row 1 has 3"
    );
    assert_eq!(
        error("1 . .\n. . . .\n"),
        "line 2: row 2, column 4: the row has 4 cells; row 1 has 3"
    );
    assert_eq!(
        error(&". . . . . . . . .\n".repeat(8)),
        "line 8: row 8, column 2: the puzzle has more than 64 squares, the most the exact engine takes"
    );
    assert_eq!(
        error("-1 .\n"),
        "line 1: row 1, column 1: \"-1\" is not a step number or an empty mark (., 0 or _)"
    );
    assert!(error("# nothing\n\n").contains("no rows"));
}

#[test]
fn quick_checks_say_why() {
    let b = board(5, 6);
    let reason = |givens: &[(u64, u32, u32)], closed: bool| {
        puzzle_with(b, closed, givens)
            .contradiction()
            .map(|r| r.to_string())
    };
    assert_eq!(
        reason(&[(31, 0, 0)], false).unwrap(),
        "no completion: 31 at row 1, column 1 is outside 1..30 (the board has 30 squares)"
    );
    assert_eq!(
        reason(&[(4, 0, 0), (4, 2, 2)], false).unwrap(),
        "no completion: 4 is given twice, at row 1, column 1 and at row 3, column 3"
    );
    // Opposite corners of 5x6 are 3 knight's moves apart.
    assert!(
        reason(&[(1, 0, 0), (2, 4, 5)], false)
            .unwrap()
            .contains("step 2 at row 5, column 6 comes 1 move after step 1 at row 1, column 1, but the two squares are 3 knight's moves apart")
    );
    assert!(
        // One knight's move apart, so within reach: the colours say no.
        reason(&[(1, 0, 0), (3, 1, 2)], false)
            .unwrap()
            .contains("comes 2 moves after step 1 at row 1, column 1, an even number")
    );
    // Around a closed tour: step 30 and step 1 are one move apart.
    assert!(
        reason(&[(1, 0, 0), (30, 0, 3)], true)
            .unwrap()
            .contains("step 1 at row 1, column 1 comes 1 move after step 30 at row 1, column 4")
    );
    assert_eq!(reason(&[(1, 0, 0), (30, 1, 2)], true), None);
    let odd = puzzle_with(board(5, 5), false, &[(2, 0, 0)]);
    assert!(
        odd.contradiction()
            .unwrap()
            .to_string()
            .contains("step 2 at row 1, column 1 is on it")
    );
    let four = puzzle_with(board(4, 5), false, &[(1, 1, 0)]);
    assert!(
        four.contradiction()
            .unwrap()
            .to_string()
            .contains("inner lines")
    );
    assert!(
        puzzle_with(board(4, 4), false, &[])
            .contradiction()
            .unwrap()
            .to_string()
            .contains("Conrad")
    );
}
