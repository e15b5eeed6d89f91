//! The one gate for answers read from a store: every reader of a store — the commands
//! (`count`, `batch`, `solve`, `series`, `precompute`, `shards run` and `merge`) and the
//! server — reads through [`lookup`], so that no answer is served that contradicts what is
//! known of it.
//!
//! Each answer read is checked on its own ([`super::check_count`]: the theorems, parity, the
//! bound), and an open board total against the starts the store holds for its board
//! ([`super::check_total`]: their sum when they are all there, at most the total when some
//! are). A contradiction is [`Error::Untrusted`]: the store was changed outside knights or is
//! damaged, and `knights verify` says more.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use num_bigint::BigUint;

use super::Contradiction;
use crate::error::Error;
use crate::question::Question;
use crate::store::{Answer, Store};

/// The answers `store` holds for `questions` (those it has), each checked before it is
/// served; an open total is checked against every start of its board that the store holds.
pub fn lookup<'q>(
    store: &Store,
    questions: impl IntoIterator<Item = &'q Question>,
) -> Result<HashMap<Question, Answer>, Error> {
    let found = store.lookup(questions)?;
    check(store, found.values())?;
    Ok(found)
}

/// Checks answers read from `store` (by [`Store::lookup`] or [`Store::list`]) as [`lookup`]
/// does.
pub fn check<'a>(store: &Store, answers: impl Iterator<Item = &'a Answer>) -> Result<(), Error> {
    let path = Some(store.path());
    let mut starts: HashMap<crate::board::Board, HashMap<Question, BigUint>> = HashMap::new();
    for answer in answers {
        let q = answer.question;
        super::check_count(&q, &answer.count).map_err(|why| untrusted(path, answer, why))?;
        if !q.is_open_total() {
            continue;
        }
        let of_board = match starts.entry(q.board) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(place) => {
                let stored = store.open_starts(q.board)?;
                // The starts are the evidence: each must be believable on its own.
                for (start, count) in &stored {
                    super::check_count(start, count).map_err(|why| Error::Untrusted {
                        store: store.path().to_string(),
                        question: start.to_string(),
                        stored: count.to_string(),
                        why: why.to_string(),
                    })?;
                }
                place.insert(stored)
            }
        };
        let (sum, complete) = super::starts_sum(q.board, |s| of_board.get(s));
        super::check_total(&answer.count, &sum, complete)
            .map_err(|why| untrusted(path, answer, why))?;
    }
    Ok(())
}

/// The error for `answer`, found in the store at `path` (`None`: the answer store), which
/// contradicts what is known of it.
pub fn untrusted(path: Option<&str>, answer: &Answer, why: Contradiction) -> Error {
    Error::Untrusted {
        store: path.unwrap_or("the answer store").to_string(),
        question: answer.question.to_string(),
        stored: answer.count.to_string(),
        why: why.to_string(),
    }
}
