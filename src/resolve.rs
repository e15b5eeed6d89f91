//! Answering questions: from the store where it has them, by the engines otherwise.
//!
//! Every distinct canonical question is answered once. The ones the store lacks are computed in
//! parallel (rayon), one task per board so that a board's starts share one memo table, and every
//! answer is saved as it arrives, in short transactions: an interrupted run keeps everything it
//! finished. Board totals are the weighted sums of their boards' start counts.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use num_traits::Zero;
use rayon::prelude::*;

use crate::board::Square;
use crate::cancel::CancelFlag;
use crate::count::memo::{MemoCounter, MemoStats, count_cycles};
use crate::count::reference;
use crate::error::Error;
use crate::existence::{no_closed_tour, no_open_tour};
use crate::memory::MemoryBudget;
use crate::question::{Question, TourKind};
use crate::store::{Answer, Store};

/// Answers are saved at least this often while computing.
const SAVE_INTERVAL: Duration = Duration::from_millis(250);

/// ... or when this many are waiting.
const SAVE_BATCH: usize = 1024;

/// The engine name recorded for a zero decided by an existence theorem, without a search.
pub const THEOREM: &str = "theorem";

/// Which engine computes what the store lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The memoized dynamic program.
    #[default]
    Memo,
    /// Plain backtracking, the reference.
    Reference,
}

impl EngineChoice {
    /// The name recorded in the store.
    pub const fn name(self) -> &'static str {
        match self {
            EngineChoice::Memo => "memo",
            EngineChoice::Reference => "reference",
        }
    }
}

/// How to compute.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The engine for what the store lacks.
    pub engine: EngineChoice,
    /// Memory for all engines together (split between parallel tasks).
    pub memory: MemoryBudget,
    /// Stops the work cleanly when set.
    pub cancel: CancelFlag,
}

/// Progress of a run, reported on the calling thread.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// This many questions will be computed (the store lacked them).
    Planned {
        /// Questions to compute.
        questions: usize,
    },
    /// One answer was computed (it is saved before long).
    Computed(&'a Answer),
}

/// The outcome of [`resolve`].
#[derive(Clone, Debug, Default)]
pub struct Resolution {
    /// An answer for every question asked (and for the starts computed along the way).
    pub answers: HashMap<Question, Answer>,
    /// The questions asked that the store answered (the others were computed).
    pub from_store: HashSet<Question>,
    /// What the memo engine did, summed over its tasks.
    pub engine_stats: MemoStats,
}

impl Resolution {
    /// The count for `question`, which must have been asked.
    pub fn count(&self, question: &Question) -> &BigUint {
        &self.answers[question].count
    }
}

/// Answers `questions` (canonical), from `store` when given and computing the rest, which is
/// saved to `store`. On an error (including an interruption) everything computed before it is
/// saved, then the error is returned.
pub fn resolve(
    questions: &[Question],
    mut store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Resolution, Error> {
    let asked: BTreeSet<Question> = questions.iter().copied().collect();
    let mut known: HashMap<Question, Answer> = match store.as_deref() {
        Some(store) => store.lookup(&asked)?,
        None => HashMap::new(),
    };
    let from_store: HashSet<Question> = asked
        .iter()
        .filter(|q| known.contains_key(q))
        .copied()
        .collect();

    // What to compute: the missing start questions and closed questions, and every start of a
    // board whose open total is missing (some may be stored).
    let mut to_compute: BTreeSet<Question> = BTreeSet::new();
    let mut extra: BTreeSet<Question> = BTreeSet::new();
    for question in asked.iter().filter(|q| !known.contains_key(q)) {
        match (question.kind, question.start) {
            (TourKind::Closed, _) | (TourKind::Open, Some(_)) => {
                to_compute.insert(*question);
            }
            (TourKind::Open, None) => extra.extend(
                Question::starts_of_board(question.board, question.kind)
                    .into_iter()
                    .map(|(start, _)| start),
            ),
        }
    }
    if let Some(store) = store.as_deref() {
        let missing: Vec<Question> = extra
            .iter()
            .filter(|q| !known.contains_key(q))
            .copied()
            .collect();
        known.extend(store.lookup(&missing)?);
    }
    to_compute.extend(extra.into_iter().filter(|q| !known.contains_key(q)));

    progress(Progress::Planned {
        questions: to_compute.len(),
    });
    let computing = compute(
        to_compute,
        &mut known,
        store.as_deref_mut(),
        settings,
        progress,
    );

    // Open board totals from their starts: also after an interruption, for every board whose
    // starts all finished, so that no finished work is lost.
    let mut totals = Vec::new();
    for question in asked
        .iter()
        .filter(|q| q.kind == TourKind::Open && q.start.is_none() && !known.contains_key(q))
    {
        let starts = Question::starts_of_board(question.board, question.kind);
        if starts.iter().any(|(start, _)| !known.contains_key(start)) {
            continue;
        }
        let mut sum = BigUint::zero();
        let mut seconds = 0.0;
        let mut engine = THEOREM;
        for (start, weight) in starts {
            let answer = &known[&start];
            sum += &answer.count * weight;
            seconds += answer.seconds;
            if answer.engine != THEOREM {
                engine = &answer.engine;
            }
        }
        totals.push(Answer::computed(*question, sum, engine, seconds));
    }
    if let Some(store) = store {
        store.save(&totals)?;
    }
    for total in totals {
        known.insert(total.question, total);
    }
    let engine_stats = computing?;
    Ok(Resolution {
        answers: known,
        from_store,
        engine_stats,
    })
}

/// Computes `questions` in parallel, one task per board and kind, saving answers as they
/// arrive.
fn compute(
    questions: BTreeSet<Question>,
    known: &mut HashMap<Question, Answer>,
    mut store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<MemoStats, Error> {
    let mut stats = MemoStats::default();
    if questions.is_empty() {
        return Ok(stats);
    }
    // One task per question, small boards first: their answers are saved early, and the
    // cores share the big boards start by start. (Separate tables per start cost little: on
    // 5x8, the starts together solve 1.4 times the states of one shared table, in about the
    // same time, since smaller tables are faster to use.)
    let mut tasks: Vec<Question> = questions.into_iter().collect();
    tasks.sort_by_key(|q| (q.board.squares(), *q));

    let threads = rayon::current_num_threads().max(1) as u64;
    let task_budget = MemoryBudget::from_bytes(settings.memory.bytes() / threads);
    let (sender, receiver) = mpsc::channel::<Message>();
    let mut first_error: Option<Error> = None;
    std::thread::scope(|scope| {
        let cancel = settings.cancel.clone();
        let engine = settings.engine;
        scope.spawn(move || {
            tasks.par_iter().for_each_with(sender, |sender, question| {
                if cancel.is_cancelled() {
                    return;
                }
                // The receiver outlives the tasks, so sending cannot fail.
                let _ = sender.send(match compute_one(question, engine, task_budget, &cancel) {
                    Ok((answer, stats)) => Message::Answer(answer, stats),
                    Err(e) => Message::Failed(e),
                });
            });
        });

        let mut pending: Vec<Answer> = Vec::new();
        let mut last_save = Instant::now();
        for message in receiver {
            match message {
                Message::Answer(answer, task) => {
                    stats.add(&task);
                    progress(Progress::Computed(&answer));
                    known.insert(answer.question, answer.clone());
                    pending.push(answer);
                }
                Message::Failed(e) => {
                    // Stop the other tasks; keep the first real cause.
                    settings.cancel.cancel();
                    if first_error.is_none() || matches!(first_error, Some(Error::Interrupted)) {
                        first_error = Some(e);
                    }
                }
            }
            if pending.len() >= SAVE_BATCH || last_save.elapsed() >= SAVE_INTERVAL {
                if let Err(e) = save(&mut store, &mut pending) {
                    settings.cancel.cancel();
                    first_error.get_or_insert(e);
                }
                last_save = Instant::now();
            }
        }
        if let Err(e) = save(&mut store, &mut pending) {
            first_error.get_or_insert(e);
        }
    });
    match first_error {
        Some(e) => Err(e),
        None => {
            // Tasks skip their work once the flag is set, so a clean finish must be checked.
            settings.cancel.check()?;
            Ok(stats)
        }
    }
}

/// What a computing task tells the thread that saves.
enum Message {
    /// One answer, with the engine's figures.
    Answer(Answer, MemoStats),
    /// The task failed.
    Failed(Error),
}

fn save(store: &mut Option<&mut Store>, pending: &mut Vec<Answer>) -> Result<(), Error> {
    if let Some(store) = store.as_deref_mut().filter(|_| !pending.is_empty()) {
        store.save(pending)?;
    }
    pending.clear();
    Ok(())
}

/// Computes one question; a zero that an existence theorem decides is answered without a
/// search.
fn compute_one(
    question: &Question,
    engine: EngineChoice,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<(Answer, MemoStats), Error> {
    let board = question.board;
    let clock = Instant::now();
    let theorem = match question.kind {
        TourKind::Open => no_open_tour(board, question.start),
        TourKind::Closed => no_closed_tour(board),
    };
    if theorem.is_some() {
        let answer = Answer::computed(*question, 0u32, THEOREM, 0.0);
        return Ok((answer, MemoStats::default()));
    }
    let (count, stats) = match (question.kind, question.start, engine) {
        (TourKind::Open, Some(start), EngineChoice::Memo) => {
            let mut memo = MemoCounter::new(board, budget, cancel.clone())?;
            let count = memo.count_from(start)?;
            (count, memo.stats())
        }
        (TourKind::Open, Some(start), EngineChoice::Reference) => (
            reference::count_open_tours(board, start, cancel)?,
            MemoStats::default(),
        ),
        (TourKind::Closed, _, EngineChoice::Memo) => {
            let (cycles, stats) = count_cycles(board, budget, cancel.clone())?;
            (
                cycles.checked_mul(2).ok_or(Error::Overflow { board })?,
                stats,
            )
        }
        (TourKind::Closed, _, EngineChoice::Reference) => (
            reference::count_closed_tours(board, Square::new(0, 0), cancel)?,
            MemoStats::default(),
        ),
        (TourKind::Open, None, _) => unreachable!("open totals are sums of their starts"),
    };
    let seconds = clock.elapsed().as_secs_f64();
    Ok((
        Answer::computed(*question, count, engine.name(), seconds),
        stats,
    ))
}
