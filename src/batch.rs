//! Answering lists of queries (the judge format and plain lists): each distinct canonical
//! question is answered once, from the store or by the engine, and the answers come back in
//! input order.

use std::collections::HashSet;

use num_bigint::BigUint;

use crate::error::{Error, Failure};
use crate::input::Query;
use crate::question::{Question, TourKind};
use crate::resolve::{self, Progress, Settings};
use crate::store::Store;

/// The answers to a list of queries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchAnswers {
    /// One count per query, in input order, or why that query has none.
    pub counts: Vec<Result<BigUint, Failure>>,
    /// Queries answered from the store.
    pub from_store: usize,
    /// Queries answered by computing.
    pub computed: usize,
    /// Queries that could not be answered.
    pub failed: usize,
    /// Distinct canonical questions among the queries.
    pub distinct: usize,
    /// Distinct canonical questions that were computed.
    pub distinct_computed: usize,
    /// What the user should know about how answers were found ([`Resolution::notes`]).
    ///
    /// [`Resolution::notes`]: crate::resolve::Resolution::notes
    pub notes: Vec<String>,
}

/// Checks that an engine takes every query's board where a count is needed (not where an
/// existence theorem answers 0: [`crate::resolve::EngineChoice::choose`]), naming the first
/// line where none does.
///
/// A query beyond one machine that `store` answers (a merged plan's, or the results shipped
/// with knights) passes: it is served, as `knights count` serves it.
pub fn check_queries(
    queries: &[Query],
    kind: TourKind,
    settings: &Settings,
    store: Option<&Store>,
) -> Result<(), Error> {
    for query in queries {
        let question = Question::from_start(query.board, query.start, kind);
        let Err(error) = settings.engine.choose(&question) else {
            continue;
        };
        if !resolve::served_past_one_machine(&error, store, &[question])? {
            return Err(Error::AtLine {
                line: query.line,
                error: Box::new(error),
            });
        }
    }
    Ok(())
}

/// Answers every query (`kind` tours from its start), consulting and filling `store`. A query
/// that cannot be answered (no engine takes its board, or the memory budget stops its engine)
/// gets its reason instead of a count; the others are answered all the same.
pub fn answer_queries(
    queries: &[Query],
    kind: TourKind,
    store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<BatchAnswers, Error> {
    let questions: Vec<Question> = queries
        .iter()
        .map(|q| Question::from_start(q.board, q.start, kind))
        .collect();
    let resolution = resolve::resolve_each(&questions, store, settings, progress)?;
    let distinct: HashSet<&Question> = questions.iter().collect();
    let counts: Vec<Result<BigUint, Failure>> = questions
        .iter()
        .map(|q| match resolution.failed.get(q) {
            Some(why) => Err(why.clone()),
            None => Ok(resolution.count(q).clone()),
        })
        .collect();
    let from_store = questions
        .iter()
        .filter(|q| resolution.from_store.contains(q))
        .count();
    let failed = counts.iter().filter(|c| c.is_err()).count();
    Ok(BatchAnswers {
        from_store,
        computed: counts.len() - from_store - failed,
        failed,
        distinct: distinct.len(),
        distinct_computed: distinct.len() - resolution.from_store.len() - resolution.failed.len(),
        counts,
        notes: resolution.notes,
    })
}
