//! Completing a puzzle: one completion, their number, or each of them, by the memo engine with
//! the given steps as constraints ([`crate::count::memo::givens`]).
//!
//! The work is split by where the tour starts and ends: a given `1` fixes the start, a given
//! last step the end; a closed tour's last square is a knight's move from its first. Each
//! (start, end) is one search of the engine, and searches with the same end share its table.

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::count::Limits;
use crate::count::memo::givens::FixedSteps;
use crate::count::memo::{FixedPathFinder, MemoCounter};
use crate::error::Error;
use crate::graph::KnightGraph;
use crate::memory::MemoryBudget;
use crate::tour::Tour;

use super::{NoCompletion, Puzzle};

/// The searches a puzzle needs: for each end (`None`: any), the starts to try.
type Plan = Vec<(Option<Square>, Vec<Square>)>;

/// The puzzle's graph and constraints, or why it has no completion without a search.
fn prepare(puzzle: &Puzzle) -> Result<Result<(FixedSteps, Plan), NoCompletion>, Error> {
    if let Some(reason) = puzzle.contradiction() {
        return Ok(Err(reason));
    }
    let board = puzzle.board();
    let graph = KnightGraph::new(board)?;
    let fixed = puzzle.fixed_steps(&graph).ok_or_else(|| {
        Error::Internal("a puzzle without contradictions made no constraints".into())
    })?;
    let plan = plan(board, &graph, &fixed, puzzle.is_closed());
    Ok(Ok((fixed, plan)))
}

fn plan(board: Board, graph: &KnightGraph, fixed: &FixedSteps, closed: bool) -> Plan {
    let squares = board.squares() as u32;
    let starts_allowed: Vec<usize> = match fixed.square_at(1) {
        Some(start) => vec![start],
        None => (0..graph.len()).filter(|&i| fixed.allows(1, i)).collect(),
    };
    let ends_allowed: Vec<usize> = match fixed.square_at(squares) {
        Some(end) => vec![end],
        None => (0..graph.len())
            .filter(|&i| fixed.allows(squares, i))
            .collect(),
    };
    if squares == 1 {
        // The one square is the start and the end.
        return vec![(None, vec![board.square(0)])];
    }
    if closed {
        return ends_allowed
            .iter()
            .map(|&end| {
                let starts = starts_allowed
                    .iter()
                    .filter(|&&s| graph.neighbours(end) & crate::graph::bit(s) != 0)
                    .map(|&s| board.square(s))
                    .collect();
                (Some(board.square(end)), starts)
            })
            .filter(|(_, starts): &(_, Vec<Square>)| !starts.is_empty())
            .collect();
    }
    let starts = |except: Option<usize>| {
        starts_allowed
            .iter()
            .filter(|&&s| Some(s) != except)
            .map(|&s| board.square(s))
            .collect::<Vec<_>>()
    };
    match fixed.square_at(squares) {
        Some(end) => vec![(Some(board.square(end)), starts(Some(end)))],
        None => vec![(None, starts(None))],
    }
}

/// The completion made of `path` (row-major indices), checked by the validator and against
/// every given number.
fn completion(puzzle: &Puzzle, path: Vec<usize>) -> Result<Tour, Error> {
    let board = puzzle.board();
    let squares = path.into_iter().map(|i| board.square(i)).collect();
    let tour = Tour::new(board, puzzle.is_closed(), squares).map_err(|e| {
        Error::Internal(format!("a completion found on {board} is not a tour ({e})"))
    })?;
    let steps = tour.step_numbers();
    for (step, square) in puzzle.givens() {
        if steps[board.index(square)] != step {
            return Err(Error::Internal(format!(
                "a completion found on {board} does not keep {step} at {}",
                super::Cell(square)
            )));
        }
    }
    Ok(tour)
}

/// One completion of `puzzle` (a tour, validated, that keeps every given number), or why there
/// is none.
pub fn solve(puzzle: &Puzzle, cancel: &CancelFlag) -> Result<Result<Tour, NoCompletion>, Error> {
    solve_within(puzzle, MemoryBudget::DEFAULT, cancel)
}

/// [`solve`], the search's memory within `budget` (a server's share: past it the search
/// remembers no more, and is slower, never larger).
pub fn solve_within(
    puzzle: &Puzzle,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<Result<Tour, NoCompletion>, Error> {
    let (fixed, plan) = match prepare(puzzle)? {
        Ok(prepared) => prepared,
        Err(reason) => return Ok(Err(reason)),
    };
    let mut finder = FixedPathFinder::within(fixed, &Limits::new(budget, cancel))?;
    for (end, starts) in plan {
        for start in starts {
            if let Some(path) = finder.find(start, end)? {
                return completion(puzzle, path).map(Ok);
            }
        }
    }
    Ok(Err(NoCompletion::Search {
        board: puzzle.board(),
        closed: puzzle.is_closed(),
    }))
}

/// The exact number of completions of `puzzle` (0 with the reason when a quick check rules
/// them out), within `budget`; `progress(done, searches)` after each search of the engine.
pub fn count(
    puzzle: &Puzzle,
    budget: MemoryBudget,
    cancel: &CancelFlag,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Result<u128, NoCompletion>, Error> {
    count_up_to(puzzle, u128::MAX, budget, cancel, progress)
}

/// The number of completions of `puzzle`, or `cap` when there are at least `cap`: the check
/// that a puzzle has exactly one (`cap` 2) stops as soon as it finds a second.
pub fn count_capped(
    puzzle: &Puzzle,
    cap: u128,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<Result<u128, NoCompletion>, Error> {
    count_up_to(puzzle, cap, budget, cancel, &mut |_, _| {})
}

fn count_up_to(
    puzzle: &Puzzle,
    cap: u128,
    budget: MemoryBudget,
    cancel: &CancelFlag,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Result<u128, NoCompletion>, Error> {
    let (fixed, plan) = match prepare(puzzle)? {
        Ok(prepared) => prepared,
        Err(reason) => return Ok(Err(reason)),
    };
    let board = puzzle.board();
    let searches = plan.iter().map(|(_, starts)| starts.len()).sum();
    let mut engine = MemoCounter::new(board, &Limits::new(budget, cancel))?
        .with_fixed_steps(fixed)?
        .with_cap(cap);
    let mut total: u128 = 0;
    let mut done = 0;
    progress(done, searches);
    for (end, starts) in plan {
        for start in starts {
            let count = match end {
                Some(end) => engine.count_between(start, end)?,
                None => engine.count_from(start)?,
            };
            total = total.checked_add(count).ok_or(Error::Overflow { board })?;
            done += 1;
            progress(done, searches);
            if total >= cap {
                return Ok(Ok(cap));
            }
        }
    }
    Ok(Ok(total))
}

/// Calls `visit` with every completion of `puzzle` (validated, keeping every given number)
/// until it returns false; or says why there is none without a search.
pub fn each_completion(
    puzzle: &Puzzle,
    budget: MemoryBudget,
    cancel: &CancelFlag,
    visit: &mut dyn FnMut(Tour) -> bool,
) -> Result<Result<(), NoCompletion>, Error> {
    let (fixed, plan) = match prepare(puzzle)? {
        Ok(prepared) => prepared,
        Err(reason) => return Ok(Err(reason)),
    };
    let mut engine = MemoCounter::new(puzzle.board(), &Limits::new(budget, cancel))?
        .with_fixed_steps(fixed)?
        // Only whether a state has a completion matters here.
        .with_cap(1);
    let mut failure = None;
    for (end, starts) in plan {
        for start in starts {
            let go_on = engine.each_path(start, end, &mut |path| match completion(
                puzzle,
                path.to_vec(),
            ) {
                Ok(tour) => visit(tour),
                Err(e) => {
                    failure = Some(e);
                    false
                }
            })?;
            if let Some(e) = failure.take() {
                return Err(e);
            }
            if !go_on {
                return Ok(Ok(()));
            }
        }
    }
    Ok(Ok(()))
}
