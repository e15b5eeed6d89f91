//! Merging the workers' stores: every shard present (in as many stores as the plan has
//! replicas), the same count wherever it is stored twice, each count read through the read
//! gate; then the per-square table and the directed total as the weighted sums of the shards,
//! stored by [`merge_into`] through the gate every answer entering a store passes.
//!
//! By pair, a start's count is the sum of its pairs' counts over every other square as the
//! end (every open tour from it ends somewhere else). The starts are taken on the canonical
//! board, whose pairs are the plan's questions up to the symmetries that map the canonical
//! board onto itself and reversal (a pair's count is its reverse's); the table of the board as
//! asked then reads each square's canonical start, as it does by start.

use std::collections::HashMap;
use std::path::Path;

use num_bigint::BigUint;

use super::{Plan, Shard, ShardCopy, ShardError, ShardSums, Split, abbreviate};
use crate::count::CountTable;
use crate::error::Error;
use crate::question::{Question, Shape, TourKind};
use crate::resolve::{self, Incoming, Origin, Settings};
use crate::store::{Answer, ImportReport, Store};
use crate::trust;

/// What one store holds of a plan's shards.
#[derive(Clone, Debug)]
pub struct StoreAnswers {
    /// The store's path, for messages and sources.
    pub path: String,
    /// Its answers to the plan's questions.
    pub answers: HashMap<Question, Answer>,
}

impl StoreAnswers {
    /// Looks up the plan's questions in `store`, as they are: a worker's store comes from
    /// elsewhere, so what it holds is an import, and every count passes the import gate
    /// ([`resolve::admit`], in [`merge_into`]) before it is printed or stored, refused as bad
    /// input naming the record and the file.
    pub fn read(store: &Store, plan: &Plan) -> Result<StoreAnswers, Error> {
        let questions: Vec<Question> = plan.shards.iter().map(|s| s.question).collect();
        Ok(StoreAnswers {
            path: store.path().to_string(),
            answers: store.lookup(&questions)?,
        })
    }
}

/// The outcome of a merge.
#[derive(Clone, Debug)]
pub struct Merged<'a> {
    /// The per-square table, on the plan's board as it was asked.
    pub table: CountTable,
    /// The answers to store, each with the store it came from or [`Origin::Sum`]: the pairs
    /// first, in plan order (so that the starts can be checked against them later), then one
    /// per canonical start, then the open total.
    pub answers: Vec<(Origin<'a>, Answer)>,
}

/// How far a plan has come, for `knights shards status`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardStatus {
    /// Shards done: in as many stores as the plan has replicas, with the same count in all.
    pub done: usize,
    /// Shards in the plan.
    pub shards: usize,
    /// The ids of the shards no store has, in plan order.
    pub missing: Vec<String>,
    /// The ids of the shards some store has, but fewer than the plan's replicas.
    pub short: Vec<String>,
    /// The ids of the shards two stores give different counts for.
    pub conflicting: Vec<String>,
    /// Seconds of computation of every copy found.
    pub seconds: f64,
    /// The done shards' share of the plan's estimates (1 when every estimate is 0).
    pub fraction: f64,
}

/// One copy of a shard's answer, with the path of the store that holds it.
type Copy<'a> = (&'a Answer, &'a str);

/// What the stores hold of one shard: one copy per store file that has it, in the order of
/// the stores.
struct Copies<'a>(Vec<Copy<'a>>);

impl<'a> Copies<'a> {
    /// The first two copies that differ, if any.
    fn conflict(&self) -> Option<(Copy<'a>, Copy<'a>)> {
        let first = *self.0.first()?;
        self.0
            .iter()
            .find(|(answer, _)| answer.count != first.0.count)
            .map(|&other| (first, other))
    }
}

/// Each shard's copies, in plan order. A store file given twice (under two names) counts once,
/// and so does a copy of a store ([`copy_of`]).
fn gather<'a>(plan: &Plan, stores: &'a [StoreAnswers]) -> Vec<Copies<'a>> {
    let mut files: Vec<&StoreAnswers> = Vec::new();
    for store in stores {
        if !files
            .iter()
            .any(|seen| same_file(&seen.path, &store.path) || copy_of(plan, seen, store).is_some())
        {
            files.push(store);
        }
    }
    plan.shards
        .iter()
        .map(|shard| {
            Copies(
                files
                    .iter()
                    .filter_map(|store| {
                        let answer = store.answers.get(&shard.question)?;
                        Some((answer, store.path.as_str()))
                    })
                    .collect(),
            )
        })
        .collect()
}

/// When `b` is a copy of `a` (or `a` of `b`): every shard both hold is one computation in
/// both, the same count computed at the same moment in the same seconds, which copying a
/// store gives and two workers do not (one shard's timing could coincide, not all). Returns
/// the first such shard.
fn copy_of<'p>(plan: &'p Plan, a: &StoreAnswers, b: &StoreAnswers) -> Option<&'p Shard> {
    let mut shared = plan.shards.iter().filter_map(|shard| {
        Some((
            shard,
            a.answers.get(&shard.question)?,
            b.answers.get(&shard.question)?,
        ))
    });
    let (first, x, y) = shared.next()?;
    let one = |x: &Answer, y: &Answer| {
        x.computed_at.is_some()
            && x.computed_at == y.computed_at
            && x.seconds == y.seconds
            && x.count == y.count
    };
    (one(x, y) && shared.all(|(_, x, y)| one(x, y))).then_some(first)
}

/// Refuses stores that cannot be the plan's replicas: one file under two names, or a copy of
/// another store. With one replica, neither matters (each counts once).
fn check_replicas(plan: &Plan, stores: &[StoreAnswers]) -> Result<(), ShardError> {
    if plan.replicas < 2 {
        return Ok(());
    }
    for (i, a) in stores.iter().enumerate() {
        for b in &stores[i + 1..] {
            if same_file(&a.path, &b.path) {
                return Err(ShardError::SameStore {
                    first: a.path.clone(),
                    second: b.path.clone(),
                    replicas: plan.replicas,
                });
            }
            if let Some(shard) = copy_of(plan, a, b) {
                let answer = &a.answers[&shard.question];
                return Err(ShardError::CopiedStore(Box::new(ShardCopy {
                    id: shard.id.clone(),
                    question: shard.question.to_string(),
                    first: a.path.clone(),
                    second: b.path.clone(),
                    computed_at: answer.computed_at.clone().unwrap_or_default(),
                    seconds: answer.seconds,
                })));
            }
        }
    }
    Ok(())
}

/// True when the two paths name one file: the same device and inode, through symlinks, so a
/// hard link is the file it links (or the same text, where either cannot be looked up).
fn same_file(a: &str, b: &str) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => Path::new(a) == Path::new(b),
    }
}

/// How far the plan has come in `stores`.
pub fn status(plan: &Plan, stores: &[StoreAnswers]) -> ShardStatus {
    let found = gather(plan, stores);
    // In u128: a plan's estimates are its file's, and an edited one may be near 2^64.
    let (mut done_estimate, mut all_estimate, mut seconds) = (0u128, 0u128, 0.0);
    let (mut missing, mut short, mut conflicting) = (Vec::new(), Vec::new(), Vec::new());
    for (shard, copies) in plan.shards.iter().zip(&found) {
        all_estimate += u128::from(shard.estimate);
        seconds += copies
            .0
            .iter()
            .map(|(answer, _)| answer.seconds)
            .sum::<f64>();
        if copies.0.is_empty() {
            missing.push(shard.id.clone());
        } else if copies.conflict().is_some() {
            conflicting.push(shard.id.clone());
        } else if copies.0.len() < plan.replicas as usize {
            short.push(shard.id.clone());
        } else {
            done_estimate += u128::from(shard.estimate);
        }
    }
    ShardStatus {
        done: plan.shards.len() - missing.len() - short.len() - conflicting.len(),
        shards: plan.shards.len(),
        missing,
        short,
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
/// source `merged from FILE (its source)`, naming the other copies that agree with it).
///
/// Refused, before anything is added up: a shard with two different counts (naming it and
/// both stores), a shard missing or in fewer stores than the plan's replicas (naming the
/// first few), and by both, a start that the sum of its pairs contradicts (naming it, its
/// store and the sum). The counts are checked by the import gate afterwards ([`merge_into`]).
pub fn merge<'a>(
    plan: &Plan,
    stores: &'a [StoreAnswers],
    into: &str,
) -> Result<Merged<'a>, ShardError> {
    check_replicas(plan, stores)?;
    let found = gather(plan, stores);
    for (shard, copies) in plan.shards.iter().zip(&found) {
        if let Some(((a, a_path), (b, b_path))) = copies.conflict() {
            return Err(ShardError::conflict(
                shard,
                (a_path, &a.count),
                (b_path, &b.count),
            ));
        }
    }
    let short: Vec<&str> = plan
        .shards
        .iter()
        .zip(&found)
        .filter(|(_, copies)| copies.0.len() < plan.replicas as usize)
        .map(|(shard, _)| shard.id.as_str())
        .collect();
    if !short.is_empty() {
        return Err(ShardError::missing(
            short.len(),
            plan.shards.len(),
            abbreviate(&short),
            plan.replicas,
        ));
    }
    // Each shard's answer: its first copy, its source naming where it came from.
    let shard_answers: HashMap<Question, (Origin<'a>, Answer)> = found
        .iter()
        .map(|copies| {
            let (first, path) = copies.0[0];
            let mut answer = first.clone();
            if !same_file(path, into) {
                let others: Vec<&str> = copies.0[1..].iter().map(|(_, path)| *path).collect();
                let agreed = match others.is_empty() {
                    true => String::new(),
                    false => format!("; the same in {}", others.join(", ")),
                };
                answer.source = format!("merged from {path} ({}{agreed})", answer.source);
            }
            (answer.question, (Origin::Store(path), answer))
        })
        .collect();

    let board = plan.board;
    let canonical = board.canonical();
    let starts = Question::starts_of_board(canonical, TourKind::Open);
    let answer = |q: &Question| &shard_answers[q].1;
    // The pairs' answers, in plan order; the starts' answers: the shards' by start, or added
    // up from the pairs.
    let pair_answers: Vec<(Origin<'a>, Answer)> = plan
        .shards
        .iter()
        .filter(|shard| matches!(shard.question.shape(), Shape::Between(..)))
        .map(|shard| shard_answers[&shard.question].clone())
        .collect();
    let start_answers: HashMap<Question, (Origin<'a>, Answer)> = match plan.split {
        Split::Pair => starts
            .iter()
            .map(|(start, _)| (*start, (Origin::Sum, start_of_pairs(*start, &answer))))
            .collect(),
        Split::Start | Split::Both => starts
            .iter()
            .map(|(start, _)| (*start, shard_answers[start].clone()))
            .collect(),
    };
    if plan.split == Split::Both {
        check_starts_against_pairs(plan, &start_answers, &answer)?;
    }
    let counts: Vec<BigUint> = board
        .all_squares()
        .map(|square| {
            start_answers[&Question::from_start(board, square, TourKind::Open)]
                .1
                .count
                .clone()
        })
        .collect();
    let inputs: Vec<(&Answer, u64)> = starts
        .iter()
        .map(|(start, weight)| (&start_answers[start].1, *weight))
        .collect();
    let total = Answer::sum_of_starts(Question::total(board, TourKind::Open), &inputs);
    if plan.split != Split::Start {
        // Added up the other way, pair by pair with its weight, the pairs must give the same
        // total: every ordered pair of the board counted once, in whichever orientation.
        let by_pairs: BigUint = plan
            .shards
            .iter()
            .filter(|shard| matches!(shard.question.shape(), Shape::Between(..)))
            .map(|shard| &answer(&shard.question).count * shard.weight)
            .sum();
        debug_assert_eq!(by_pairs, total.count, "{board}: pairs and starts disagree");
    }
    let mut answers = pair_answers;
    answers.extend(starts.iter().map(|(start, _)| start_answers[start].clone()));
    answers.push((Origin::Sum, total));
    Ok(Merged {
        table: CountTable::new(board, counts),
        answers,
    })
}

/// By both: every start shard's count is the sum of its pairs' (two different computations).
fn check_starts_against_pairs<'a>(
    plan: &Plan,
    starts: &HashMap<Question, (Origin<'_>, Answer)>,
    pair: &impl Fn(&Question) -> &'a Answer,
) -> Result<(), ShardError> {
    for shard in plan
        .shards
        .iter()
        .filter(|shard| matches!(shard.question.shape(), Shape::Start(_)))
    {
        let (origin, answer) = &starts[&shard.question];
        let (sum, complete) = trust::pairs_sum(&shard.question, |p| Some(&pair(p).count));
        if trust::check_start(&answer.count, &sum, complete).is_err() {
            let store = match origin {
                Origin::Store(path) => path.to_string(),
                _ => "the merge".to_string(),
            };
            return Err(ShardError::Sums(Box::new(ShardSums {
                id: shard.id.clone(),
                question: shard.question.to_string(),
                count: answer.count.to_string(),
                store,
                sum: sum.to_string(),
            })));
        }
    }
    Ok(())
}

/// [`merge`], then the answers stored in `store` through the gate every answer entering a
/// store passes ([`resolve::admit`]): all or nothing, refused with the record and its store
/// named when a count cannot be right (a recount of boards of at most
/// [`resolve::RECOUNT_SQUARES`] squares among the checks), or when it differs from the
/// store's. Returns the merge and what the store gained.
pub fn merge_into<'a>(
    store: &mut Store,
    plan: &Plan,
    stores: &'a [StoreAnswers],
    settings: &Settings,
) -> Result<(Merged<'a>, ImportReport), ShardError> {
    let merged = merge(plan, stores, store.path())?;
    let report = resolve::admit(store, Incoming::Merge(&merged.answers), settings)?;
    Ok((merged, report))
}

/// The answer for `start` (a canonical start question) from the pairs' answers of the plan:
/// the sum over every other square of the canonical board as the end ([`Answer::sum_of_pairs`],
/// which records a zero that a theorem decides as such).
fn start_of_pairs<'a>(start: Question, pair: &impl Fn(&Question) -> &'a Answer) -> Answer {
    let from_pairs: Vec<&Answer> = start.pairs_from().map(|p| pair(&p)).collect();
    Answer::sum_of_pairs(start, &from_pairs)
}
