//! The one gate for answers read from a store: every reader of a store — the commands
//! (`count`, `batch`, `solve`, `series`, `precompute`, `shards run` and `merge`) and the
//! server — reads through [`lookup`], so that no answer is served that contradicts what is
//! known of it.
//!
//! Each answer read is checked on its own ([`super::check_count`]: the theorems, parity, the
//! bound), and with the open answers of its board: when an open total or start of a board is
//! read, the board's stored total is checked against the starts the store holds for it
//! ([`super::check_total`]: their sum when they are all there, at most the total when some
//! are), so that a start is not served beside a total it contradicts either. A contradiction
//! is [`Error::Untrusted`]: the store was changed outside knights or is damaged, and
//! `knights verify` says more.

use std::collections::{HashMap, HashSet};

use num_bigint::BigUint;

use super::Contradiction;
use crate::board::Board;
use crate::error::Error;
use crate::question::{Question, Shape, TourKind};
use crate::store::{Answer, Store};

/// The answers `store` holds for `questions` (those it has), each checked before it is
/// served, with the open answers of its board: see the module's doc.
pub fn lookup<'q>(
    store: &Store,
    questions: impl IntoIterator<Item = &'q Question>,
) -> Result<HashMap<Question, Answer>, Error> {
    let found = store.lookup(questions)?;
    check(store, found.values())?;
    Ok(found)
}

/// Checks answers read from `store` as [`lookup`] does: each on its own, and for every board
/// with an open total or start among them, the board's stored total against its stored starts.
pub fn check<'a>(store: &Store, answers: impl Iterator<Item = &'a Answer>) -> Result<(), Error> {
    let path = Some(store.path());
    let mut boards = HashSet::new();
    for answer in answers {
        let q = answer.question;
        super::check_count(&q, &answer.count).map_err(|why| untrusted(path, answer, why))?;
        if q.kind == TourKind::Open
            && !matches!(q.shape(), Shape::Between(..))
            && boards.insert(q.board)
        {
            check_board(store, q.board)?;
        }
    }
    Ok(())
}

/// Checks the counts of one board's answers, read without the rest of their rows
/// ([`Store::counts`]), as [`check`] checks answers: each on its own, and when they are open
/// answers of the board from a start or its total, the board's stored total against its
/// stored starts.
pub fn check_counts(store: &Store, counts: &HashMap<Question, BigUint>) -> Result<(), Error> {
    let mut boards = HashSet::new();
    for (q, count) in counts {
        super::check_count(q, count).map_err(|why| Error::Untrusted {
            store: store.path().to_string(),
            question: q.to_string(),
            stored: count.to_string(),
            why: why.to_string(),
        })?;
        if q.kind == TourKind::Open
            && !matches!(q.shape(), Shape::Between(..))
            && boards.insert(q.board)
        {
            check_board(store, q.board)?;
        }
    }
    Ok(())
}

/// The stored open total of `board` against its stored starts, each believable on its own.
fn check_board(store: &Store, board: Board) -> Result<(), Error> {
    let path = Some(store.path());
    let starts = store.open_starts(board)?;
    for (start, count) in &starts {
        super::check_count(start, count).map_err(|why| Error::Untrusted {
            store: store.path().to_string(),
            question: start.to_string(),
            stored: count.to_string(),
            why: why.to_string(),
        })?;
    }
    let question = Question::total(board, TourKind::Open);
    let (sum, complete) = super::starts_sum(board, |s| starts.get(s));
    let Some(total) = store.lookup([&question])?.remove(&question) else {
        // No stored total: the starts against the published one, if there is one.
        return match super::known::known(&question) {
            Some(known) => {
                super::check_total(&known.count, &sum, complete).map_err(|_| Error::Untrusted {
                    store: store.path().to_string(),
                    question: format!("the {} stored starts of {board}", starts.len()),
                    stored: format!("counts that add up to {sum}"),
                    why: format!(
                        "{board}'s total is {}{} (known from {})",
                        if complete { "" } else { "only " },
                        known.count,
                        known.source
                    ),
                })
            }
            None => Ok(()),
        };
    };
    super::check_count(&question, &total.count).map_err(|why| untrusted(path, &total, why))?;
    super::check_total(&total.count, &sum, complete).map_err(|why| untrusted(path, &total, why))
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
