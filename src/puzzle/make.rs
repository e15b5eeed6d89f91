//! Making puzzles with exactly one completion: a random tour with every step given, then given
//! numbers taken away, in a random order, as long as the counter still finds one completion.
//!
//! Taking a number away never removes a completion, so a number that had to stay once has to
//! stay at the end too: one pass over the squares leaves a puzzle where every given number is
//! needed (unless it stopped at the number of clues asked for).

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;
use crate::tour::search::SplitMix;
use crate::tour::{NoTourReason, Tour, find_tour};

use super::{NoCompletion, Puzzle, count_capped};

/// A puzzle made by [`make`].
#[derive(Clone, Debug)]
pub struct Made {
    /// The puzzle: exactly one completion.
    pub puzzle: Puzzle,
    /// Its completion (the tour the puzzle was made from).
    pub solution: Tour,
    /// The given numbers left.
    pub clues: usize,
    /// True when no given number can be taken away without a second completion.
    pub minimal: bool,
}

/// Mixed into the seed, so that seed 0 is not a degenerate start.
const SEED_MIX: u64 = 0x9A22_1E5F_0C0D_E26A;

/// The puzzles' uses of the tour search's pseudo-random sequence.
trait Draw {
    /// A number below `n` (at least 1).
    fn below(&mut self, n: usize) -> usize;
    fn shuffle<T>(&mut self, items: &mut [T]);
}

impl Draw for SplitMix {
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A puzzle on `board` (at most 64 squares) with exactly one completion, an open tour or a
/// closed one, with `clues` given numbers when that many are enough (else the fewest this seed
/// reaches); the same seed always makes the same puzzle. `Err` with the reason when the board
/// has no such tour.
pub fn make(
    board: Board,
    closed: bool,
    clues: Option<usize>,
    seed: u64,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<Result<Made, NoCompletion>, Error> {
    crate::graph::check_board(board)?;
    let mut rng = SplitMix(seed ^ SEED_MIX);
    let solution = match random_tour(board, closed, seed, &mut rng, cancel)? {
        Ok(tour) => tour,
        Err(reason) => return Ok(Err(reason)),
    };
    let steps = solution.step_numbers();
    let cells = steps.iter().map(|&s| Some(s)).collect();
    let mut puzzle = Puzzle {
        board,
        closed,
        cells,
    };
    let mut order: Vec<usize> = (0..steps.len()).collect();
    rng.shuffle(&mut order);
    let target = clues.unwrap_or(0);
    let mut left = steps.len();
    let mut minimal = true;
    for index in order {
        if left <= target {
            minimal = false;
            break;
        }
        let candidate = puzzle.with_cell(index, None);
        if count_capped(&candidate, 2, budget, cancel)? == Ok(1) {
            puzzle = candidate;
            left -= 1;
        }
    }
    Ok(Ok(Made {
        puzzle,
        solution,
        clues: left,
        minimal,
    }))
}

/// A tour of `board` picked by the seed: from a random start, then turned by a random symmetry
/// of the board and (open tours) walked either way.
fn random_tour(
    board: Board,
    closed: bool,
    seed: u64,
    rng: &mut SplitMix,
    cancel: &CancelFlag,
) -> Result<Result<Tour, NoCompletion>, Error> {
    let mut starts: Vec<Square> = board.all_squares().collect();
    rng.shuffle(&mut starts);
    let mut last_reason = None;
    let mut found = None;
    for start in starts {
        match find_tour(board, start, closed, seed, cancel)? {
            Ok((tour, _)) => {
                found = Some(tour);
                break;
            }
            // No tour on the board at all: no other start will do better.
            Err(NoTourReason::Theorem(reason)) if closed || board_has_no_open_tour(board) => {
                return Ok(Err(NoCompletion::Theorem(reason.to_string())));
            }
            Err(reason) => last_reason = Some(reason),
        }
    }
    let Some(tour) = found else {
        return Ok(Err(match last_reason {
            Some(NoTourReason::Theorem(reason)) => NoCompletion::Theorem(reason.to_string()),
            _ => NoCompletion::Search { board, closed },
        }));
    };
    let symmetries = board.automorphisms();
    let symmetry = symmetries[rng.below(symmetries.len())];
    let mut squares: Vec<Square> = tour
        .squares()
        .iter()
        .map(|&square| symmetry.apply(board, square))
        .collect();
    if rng.below(2) == 1 {
        squares.reverse();
    }
    if closed {
        let shift = rng.below(squares.len());
        squares.rotate_left(shift);
    }
    let tour = Tour::new(board, closed, squares).map_err(|e| {
        Error::Internal(format!(
            "a tour of {board} turned by a symmetry is not a tour ({e})"
        ))
    })?;
    Ok(Ok(tour))
}

fn board_has_no_open_tour(board: Board) -> bool {
    crate::existence::no_open_tour(board, None).is_some()
}

/// Seeds [`fresh_seed`] picks from: short enough to type again.
pub const FRESH_SEEDS: u64 = 1_000_000;

/// A seed for a new puzzle, different from run to run (below `FRESH_SEEDS`): the standard
/// library's per-process random hash keys, mixed with the time.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    hasher.write_u32(std::process::id());
    hasher.finish() % FRESH_SEEDS
}
