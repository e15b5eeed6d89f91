//! Answers read from a store, as every reader above the engines reads them ([`read`]): through
//! the read gate ([`served::lookup`]), and on boards of at most [`RECOUNT_SQUARES`] squares
//! recounted by the engines before they are served, where no theorem decides them and nothing
//! published does (a recount there takes milliseconds). A recount is made once per process.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use num_bigint::BigUint;

use super::engine::EngineChoice;
use super::{Settings, resolve};
use crate::error::Error;
use crate::existence::no_tour_for;
use crate::question::Question;
use crate::store::{Answer, Store};
use crate::trust::{Contradiction, known, served};

/// Answers of boards of at most this many squares entering a store from elsewhere, or read
/// from one, are recounted by the engines first: the memo engine counts any question of such
/// a board in milliseconds (6x6's corner in 0.07 s, its whole table in 0.13 s).
pub const RECOUNT_SQUARES: u64 = 36;

/// The most recounts kept: every question of every board of at most 36 squares is fewer.
const KEPT: usize = 200_000;

/// The answers `store` holds for `questions`, each checked by the read gate and, on a board
/// cheap to count, by a recount ([`recheck`]).
pub fn read<'q>(
    store: &Store,
    questions: impl IntoIterator<Item = &'q Question>,
) -> Result<HashMap<Question, Answer>, Error> {
    let found = served::lookup(store, questions)?;
    recheck(store, found.values())?;
    Ok(found)
}

/// Recounts the answers of boards of at most [`RECOUNT_SQUARES`] squares that neither a
/// theorem nor a published count decides; the first that differs is [`Error::Untrusted`].
pub fn recheck<'a>(store: &Store, answers: impl Iterator<Item = &'a Answer>) -> Result<(), Error> {
    let cheap: Vec<&Answer> = answers
        .filter(|a| {
            let q = &a.question;
            q.board.squares() <= RECOUNT_SQUARES
                && no_tour_for(q).is_none()
                && known::known(q).is_none()
        })
        .collect();
    if cheap.is_empty() {
        return Ok(());
    }
    let recounts = recounts();
    let missing: Vec<Question> = {
        let kept = recounts.lock().unwrap_or_else(|e| e.into_inner());
        let mut missing: Vec<Question> = cheap
            .iter()
            .map(|a| a.question)
            .filter(|q| !kept.contains_key(q))
            .collect();
        missing.sort();
        missing.dedup();
        missing
    };
    let mut by = "the engines".to_string();
    if !missing.is_empty() {
        let engines = Settings {
            engine: EngineChoice::Auto,
            ..Settings::default()
        };
        let resolution = resolve(&missing, None, &engines, &mut |_| {})?;
        let mut kept = recounts.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() + missing.len() > KEPT {
            kept.clear();
        }
        for q in &missing {
            let answer = &resolution.answers[q];
            by = resolution.recounted_by(answer);
            kept.insert(*q, answer.count.clone());
        }
    }
    let kept = recounts.lock().unwrap_or_else(|e| e.into_inner());
    for answer in cheap {
        let Some(count) = kept.get(&answer.question) else {
            continue;
        };
        if *count != answer.count {
            let why = Contradiction::Recount {
                by: by.clone(),
                count: count.clone(),
            };
            return Err(served::untrusted(Some(store.path()), answer, why));
        }
    }
    Ok(())
}

fn recounts() -> &'static Mutex<HashMap<Question, BigUint>> {
    static RECOUNTS: OnceLock<Mutex<HashMap<Question, BigUint>>> = OnceLock::new();
    RECOUNTS.get_or_init(|| Mutex::new(HashMap::new()))
}
