//! Answering lists of questions: each distinct question is computed once, on the canonical form
//! of its board, with one memo table per board shared by all of that board's starts.

use std::collections::BTreeMap;

use crate::board::{Board, CanonicalStart, Square};
use crate::cancel::CancelFlag;
use crate::count::memo::MemoCounter;
use crate::error::Error;
use crate::graph::MAX_BITSET_SQUARES;
use crate::input::{InputError, Query};
use crate::memory::MemoryBudget;

/// Checks that the memo engine accepts every query's board, naming the first line that it
/// does not.
pub fn check_queries(queries: &[Query]) -> Result<(), Error> {
    for query in queries {
        if query.board.squares() > MAX_BITSET_SQUARES {
            return Err(InputError::at(
                query.line,
                format!(
                    "the {} board has {} squares; counting handles boards of at most {} squares",
                    query.board,
                    query.board.squares(),
                    MAX_BITSET_SQUARES
                ),
            )
            .into());
        }
    }
    Ok(())
}

/// The number of open tours for every query, in the order given.
///
/// Symmetric questions (mirror images, transposed boards) are computed once. Fails as a whole
/// (nothing is returned) when any board is too large, a count overflows or `cancel` is set.
pub fn answer_queries(
    queries: &[Query],
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<Vec<u128>, Error> {
    check_queries(queries)?;
    let mut by_board: BTreeMap<Board, BTreeMap<Square, Vec<usize>>> = BTreeMap::new();
    for (position, query) in queries.iter().enumerate() {
        let canonical = CanonicalStart::of(query.board, query.start);
        by_board
            .entry(canonical.board)
            .or_default()
            .entry(canonical.square)
            .or_default()
            .push(position);
    }
    let mut answers = vec![0u128; queries.len()];
    for (board, starts) in by_board {
        let mut engine = MemoCounter::new(board, budget, cancel.clone())?;
        for (square, positions) in starts {
            let count = engine.count_from(square)?;
            for position in positions {
                answers[position] = count;
            }
        }
    }
    Ok(answers)
}
