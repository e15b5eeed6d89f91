//! Merging the workers' stores: every shard present, the same count wherever it is stored
//! twice, each count believable on its own; then the per-square table and the directed total
//! as the weighted sums of the shards. Nothing is decided here about storing: [`merge`] gives
//! the answers, and the caller stores them all or none.
//!
//! By pair, a start's count is the sum of its pairs' counts over every other square as the
//! end (every open tour from it ends somewhere else). The starts are taken on the canonical
//! board, whose pairs are the plan's questions up to the symmetries that map the canonical
//! board onto itself and reversal (a pair's count is its reverse's); the table of the board as
//! asked then reads each square's canonical start, as it does by start.

use std::collections::HashMap;

use num_bigint::BigUint;

use super::{Plan, ShardError, Split, abbreviate};
use crate::count::CountTable;
use crate::error::Error;
use crate::question::{Question, TourKind};
use crate::store::{Answer, Store};
use crate::trust::served;

/// What one store holds of a plan's shards.
#[derive(Clone, Debug)]
pub struct StoreAnswers {
    /// The store's path, for messages and sources.
    pub path: String,
    /// Its answers to the plan's questions.
    pub answers: HashMap<Question, Answer>,
}

impl StoreAnswers {
    /// Looks up the plan's questions in `store`.
    pub fn read(store: &Store, plan: &Plan) -> Result<StoreAnswers, Error> {
        let questions: Vec<Question> = plan.shards.iter().map(|s| s.question).collect();
        Ok(StoreAnswers {
            path: store.path().to_string(),
            answers: served::lookup(store, &questions)?,
        })
    }
}

/// The outcome of a merge.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The per-square table, on the plan's board as it was asked.
    pub table: CountTable,
    /// The answers to store: by pair the shards' answers first (so that the starts can be
    /// checked against them later), then one per canonical start, then the open total.
    pub answers: Vec<Answer>,
}

/// How far a plan has come, for `knights shards status`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardStatus {
    /// Shards with an answer in some store.
    pub done: usize,
    /// Shards in the plan.
    pub shards: usize,
    /// The ids of the shards no store has, in plan order.
    pub missing: Vec<String>,
    /// The ids of the shards two stores give different counts for.
    pub conflicting: Vec<String>,
    /// Seconds of computation of the answers found (the first store's, for a shard in two).
    pub seconds: f64,
    /// The done shards' share of the plan's estimates (1 when every estimate is 0).
    pub fraction: f64,
}

/// Each shard's answer, and the store it came from (the first that has it), in plan order;
/// `None` where no store has one. A shard whose count differs between two stores stops it.
fn gather<'a>(
    plan: &Plan,
    stores: &'a [StoreAnswers],
    strict: bool,
    conflicting: &mut Vec<String>,
) -> Result<Vec<Option<(&'a Answer, &'a str)>>, ShardError> {
    let mut found = Vec::with_capacity(plan.shards.len());
    for shard in &plan.shards {
        let mut first: Option<(&Answer, &str)> = None;
        for store in stores {
            let Some(answer) = store.answers.get(&shard.question) else {
                continue;
            };
            match first {
                None => first = Some((answer, &store.path)),
                Some((kept, path)) if kept.count != answer.count => {
                    if strict {
                        return Err(ShardError::conflict(
                            shard,
                            (path, &kept.count),
                            (&store.path, &answer.count),
                        ));
                    }
                    conflicting.push(shard.id.clone());
                    break;
                }
                Some(_) => {}
            }
        }
        found.push(first);
    }
    Ok(found)
}

/// How far the plan has come in `stores`.
pub fn status(plan: &Plan, stores: &[StoreAnswers]) -> ShardStatus {
    let mut conflicting = Vec::new();
    let found = gather(plan, stores, false, &mut conflicting).expect("not strict");
    let (mut done_estimate, mut all_estimate, mut seconds) = (0u64, 0u64, 0.0);
    let mut missing = Vec::new();
    for (shard, found) in plan.shards.iter().zip(&found) {
        all_estimate += shard.estimate;
        match found {
            Some((answer, _)) => {
                done_estimate += shard.estimate;
                seconds += answer.seconds;
            }
            None => missing.push(shard.id.clone()),
        }
    }
    ShardStatus {
        done: plan.shards.len() - missing.len(),
        shards: plan.shards.len(),
        missing,
        conflicting,
        seconds,
        fraction: if all_estimate == 0 {
            1.0
        } else {
            done_estimate as f64 / all_estimate as f64
        },
    }
}

/// Merges the shards' answers found in `stores` into the per-square table and the answers to
/// store in `into` (the path of the store they go to: an answer read from elsewhere gets the
/// source `merged from FILE (its source)`).
///
/// Refused, before anything is added up: a missing shard (naming the first few), a shard with
/// two different counts (naming it and both stores), and a count that contradicts what is
/// known of it (the checks every reader of a store makes).
pub fn merge(plan: &Plan, stores: &[StoreAnswers], into: &str) -> Result<Merged, ShardError> {
    let found = gather(plan, stores, true, &mut Vec::new())?;
    let missing: Vec<&str> = plan
        .shards
        .iter()
        .zip(&found)
        .filter(|(_, found)| found.is_none())
        .map(|(shard, _)| shard.id.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(ShardError::missing(
            missing.len(),
            plan.shards.len(),
            abbreviate(&missing),
        ));
    }
    let shard_answers: HashMap<Question, Answer> = found
        .iter()
        .flatten()
        .map(|(answer, path)| {
            let mut answer = (*answer).clone();
            if *path != into {
                answer.source = format!("merged from {path} ({})", answer.source);
            }
            (answer.question, answer)
        })
        .collect();

    let board = plan.board;
    let canonical = board.canonical();
    let starts = Question::starts_of_board(canonical, TourKind::Open);
    // By pair, the shards' answers are stored too, in plan order.
    let (pair_answers, start_answers): (Vec<Answer>, HashMap<Question, Answer>) = match plan.split {
        Split::Start => (Vec::new(), shard_answers),
        Split::Pair => (
            plan.shards
                .iter()
                .map(|shard| shard_answers[&shard.question].clone())
                .collect(),
            starts
                .iter()
                .map(|(start, _)| (*start, start_of_pairs(*start, &shard_answers)))
                .collect(),
        ),
    };
    let counts: Vec<BigUint> = board
        .all_squares()
        .map(|square| {
            start_answers[&Question::from_start(board, square, TourKind::Open)]
                .count
                .clone()
        })
        .collect();
    let total_question = Question::total(board, TourKind::Open);
    let inputs: Vec<(&Answer, u64)> = starts
        .iter()
        .map(|(start, weight)| (&start_answers[start], *weight))
        .collect();
    let total = Answer::sum_of_starts(total_question, &inputs);
    if plan.split == Split::Pair {
        // Added up the other way, pair by pair with its weight, the pairs must give the same
        // total: every ordered pair of the board counted once, in whichever orientation.
        let by_pairs: BigUint = plan
            .shards
            .iter()
            .zip(&pair_answers)
            .map(|(shard, answer)| &answer.count * shard.weight)
            .sum();
        debug_assert_eq!(by_pairs, total.count, "{board}: pairs and starts disagree");
    }
    let mut answers = pair_answers;
    answers.extend(starts.iter().map(|(start, _)| start_answers[start].clone()));
    answers.push(total);
    Ok(Merged {
        table: CountTable::new(board, counts),
        answers,
    })
}

/// The answer for `start` (a canonical start question) from the pairs' answers of the plan:
/// the sum over every other square of the canonical board as the end ([`Answer::sum_of_pairs`],
/// which records a zero that a theorem decides as such).
fn start_of_pairs(start: Question, pairs: &HashMap<Question, Answer>) -> Answer {
    let from_pairs: Vec<&Answer> = start.pairs_from().map(|pair| &pairs[&pair]).collect();
    Answer::sum_of_pairs(start, &from_pairs)
}
