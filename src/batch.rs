//! Answering lists of queries (the judge format and plain lists): each distinct canonical
//! question is answered once, from the store or by the engine, and the answers come back in
//! input order.

use std::collections::HashSet;

use num_bigint::BigUint;

use crate::error::Error;
use crate::existence::no_tour;
use crate::graph::MAX_BITSET_SQUARES;
use crate::input::{InputError, Query};
use crate::question::{Question, TourKind};
use crate::resolve::{self, Progress, Settings};
use crate::store::Store;

/// The answers to a list of queries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchAnswers {
    /// One count per query, in input order.
    pub counts: Vec<BigUint>,
    /// Queries answered from the store.
    pub from_store: usize,
    /// Queries answered by computing.
    pub computed: usize,
    /// Distinct canonical questions among the queries.
    pub distinct: usize,
    /// Distinct canonical questions that were computed.
    pub distinct_computed: usize,
}

/// Checks that the counting engine accepts every query's board where a count is needed (not
/// where an existence theorem answers 0), naming the first line that it does not.
pub fn check_queries(queries: &[Query], kind: TourKind) -> Result<(), Error> {
    for query in queries {
        if query.board.squares() > MAX_BITSET_SQUARES
            && no_tour(query.board, kind, Some(query.start)).is_none()
        {
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

/// Answers every query (`kind` tours from its start), consulting and filling `store`.
///
/// The whole list is checked first; nothing is computed when a board is too large.
pub fn answer_queries(
    queries: &[Query],
    kind: TourKind,
    store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<BatchAnswers, Error> {
    check_queries(queries, kind)?;
    let questions: Vec<Question> = queries
        .iter()
        .map(|q| Question::from_start(q.board, q.start, kind))
        .collect();
    let resolution = resolve::resolve(&questions, store, settings, progress)?;
    let distinct: HashSet<&Question> = questions.iter().collect();
    let counts: Vec<BigUint> = questions
        .iter()
        .map(|q| resolution.count(q).clone())
        .collect();
    let from_store = questions
        .iter()
        .filter(|q| resolution.from_store.contains(q))
        .count();
    Ok(BatchAnswers {
        from_store,
        computed: counts.len() - from_store,
        distinct: distinct.len(),
        distinct_computed: distinct.len() - resolution.from_store.len(),
        counts,
    })
}
