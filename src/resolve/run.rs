//! Counting one question with one engine: the dispatch to the engines' functions, and the
//! fallback [`super::engine::EngineChoice::choose`] gave for a stop on the memory budget.

use crate::count::Limits;
use std::path::Path;
use std::time::Instant;

use num_bigint::BigUint;

use super::EngineStats;
use super::engine::{Choice, Engine};
use crate::board::Square;
use crate::cancel::CancelFlag;
use crate::count::frontier::{self, FrontierMode, Rows};
use crate::count::memo::{MemoCounter, count_cycles};
use crate::count::{self, reference};
use crate::error::Error;
use crate::existence::no_tour_for;
use crate::memory::MemoryBudget;
use crate::question::{Question, Shape, TourKind};
use crate::store::Answer;

/// Computes one question with the engine chosen for it; when that engine stops on the memory
/// budget and the choice names an engine to take over, that engine counts it instead, with a
/// note that says so.
pub(super) fn compute_one(
    question: &Question,
    choice: Choice,
    budget: MemoryBudget,
    halves: Option<&Path>,
    rows: Rows,
    cancel: &CancelFlag,
) -> Result<(Answer, EngineStats, Option<String>), Error> {
    match (
        compute_with(question, choice.engine, budget, halves, rows, cancel),
        choice.on_memory_budget,
    ) {
        (Err(Error::MemoryBudget { square, .. }), Some(fallback)) => {
            let note = format!(
                "the {} engine stopped on the memory budget at square {square}; the {} engine counted {question} instead",
                choice.engine.name(),
                fallback.name()
            );
            let (answer, stats) = compute_with(question, fallback, budget, halves, rows, cancel)?;
            Ok((answer, stats, Some(note)))
        }
        (other, _) => other
            .map(|(answer, stats)| (answer, stats, None))
            .map_err(|e| e.on_board(question.board)),
    }
}

/// Computes one question; a zero that an existence theorem decides is answered without a
/// search.
fn compute_with(
    question: &Question,
    engine: Engine,
    budget: MemoryBudget,
    halves: Option<&Path>,
    rows: Rows,
    cancel: &CancelFlag,
) -> Result<(Answer, EngineStats), Error> {
    let board = question.board;
    let clock = Instant::now();
    let mut stats = EngineStats::default();
    if no_tour_for(question).is_some() {
        return Ok((Answer::theorem(*question), stats));
    }
    let limits = Limits::new(budget, cancel);
    let mut frontier_count = |mode| -> Result<BigUint, Error> {
        let (count, figures) = frontier::count_along(board, mode, rows, halves, &limits)?;
        stats.frontier = figures;
        Ok(count)
    };
    let count: BigUint = match (question.kind, question.shape(), engine) {
        // Directed from the start to the end (the reversed pair has the same count).
        (TourKind::Open, Shape::Between(start, end), Engine::Memo) => {
            let mut memo = MemoCounter::new(board, &limits)?;
            let count = memo.count_between(start, end)?;
            stats.memo = memo.stats();
            count.into()
        }
        (TourKind::Open, Shape::Between(start, end), Engine::Frontier) => {
            frontier_count(FrontierMode::Between(start, end))?
        }
        (TourKind::Open, Shape::Between(start, end), Engine::Reference) => {
            reference::count_open_tours_between(board, start, end, &limits)?.into()
        }
        (TourKind::Open, Shape::Start(start), Engine::Memo) => {
            let mut memo = MemoCounter::new(board, &limits)?;
            let count = memo.count_from(start)?;
            stats.memo = memo.stats();
            count.into()
        }
        (TourKind::Open, Shape::Start(start), Engine::Frontier) => {
            frontier_count(FrontierMode::Start(start))?
        }
        (TourKind::Open, Shape::Start(start), Engine::Reference) => {
            reference::count_open_tours(board, start, &limits)?.into()
        }
        (TourKind::Open, Shape::Total, Engine::Frontier) => {
            count::directed(board, frontier_count(FrontierMode::Total)?)
        }
        // The memo engine taking over a total from the frontier engine: it counts the
        // starts, and the total is their sum, recorded as such.
        (TourKind::Open, Shape::Total, Engine::Memo) => {
            let mut memo = MemoCounter::new(board, &limits)?;
            let table = memo.table()?;
            stats.memo = memo.stats();
            let starts = Question::starts_of_board(board, TourKind::Open);
            let seconds = clock.elapsed().as_secs_f64() / starts.len() as f64;
            let answers: Vec<(Answer, u64)> = starts
                .into_iter()
                .filter_map(|(start, weight)| match start.shape() {
                    Shape::Start(square) => Some((
                        Answer::computed(
                            start,
                            table.get(square).clone(),
                            engine.recorded(),
                            seconds,
                        ),
                        weight,
                    )),
                    _ => None,
                })
                .collect();
            let inputs: Vec<(&Answer, u64)> = answers.iter().map(|(a, w)| (a, *w)).collect();
            return Ok((Answer::sum_of_starts(*question, &inputs), stats));
        }
        (TourKind::Open, Shape::Total, Engine::Reference) => {
            return Err(Error::Internal(format!(
                "the reference counts {question} as the sum of its starts, which it was not asked for"
            )));
        }
        (TourKind::Closed, _, Engine::Memo) => {
            let (cycles, figures) = count_cycles(board, &limits)?;
            stats.memo = figures;
            BigUint::from(cycles) * 2u32
        }
        (TourKind::Closed, _, Engine::Frontier) => frontier_count(FrontierMode::Closed)? * 2u32,
        (TourKind::Closed, _, Engine::Reference) => {
            reference::count_closed_tours(board, Square::new(0, 0), &limits)?.into()
        }
    };
    let seconds = clock.elapsed().as_secs_f64();
    Ok((
        Answer::computed(*question, count, engine.recorded(), seconds),
        stats,
    ))
}
