//! Computing what the store lacks: one task per question on all cores (rayon's global pool,
//! or the pool of [`Settings::threads`]), small boards first, and every answer saved as it arrives, in short transactions, so that an interrupted
//! or failed run keeps everything it finished. How one question is counted is `run.rs`'s.

use crate::count::Limits;
use std::collections::{BTreeMap, HashMap};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::engine::{Choice, Engine, counts_starts_together};
use super::run::compute_one;
use super::{EngineStats, Incoming, Progress, Settings, admit};
use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::count::frontier::{self, Rows};
use crate::error::{Error, Failure};
use crate::memory::MemoryBudget;
use crate::question::{Question, Shape, TourKind};
use crate::store::{Answer, Store, StoreError};

/// Answers are saved at least this often while computing.
const SAVE_INTERVAL: Duration = Duration::from_millis(250);

/// ... or when this many are waiting.
const SAVE_BATCH: usize = 1024;

/// Computes `questions` in parallel, one task per question, saving answers as they arrive.
pub(super) fn compute(
    questions: BTreeMap<Question, Choice>,
    known: &mut HashMap<Question, Answer>,
    mut store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
    mut failed: Option<&mut BTreeMap<Question, Failure>>,
    notes: &mut Vec<String>,
) -> Result<EngineStats, Error> {
    let mut stats = EngineStats::default();
    if questions.is_empty() {
        return Ok(stats);
    }
    // One task per question, small boards first: their answers are saved early, and the
    // cores share the big boards start by start. (Separate tables per start cost little: on
    // 5x8, the starts together solve 1.4 times the states of one shared table, in about the
    // same time, since smaller tables are faster to use.)
    let mut tasks: Vec<Task> = Vec::new();
    let mut grouped: BTreeMap<Board, Vec<Question>> = BTreeMap::new();
    for (question, choice) in questions {
        if counts_starts_together(&question, choice.engine) {
            grouped.entry(question.board).or_default().push(question);
        } else {
            tasks.push(Task::One(question, choice));
        }
    }
    tasks.extend(grouped.into_values().map(Task::Starts));
    tasks.sort_by_key(|task| task.order());

    // Tasks running side by side share the budget; a task alone has all of it.
    let pool = settings.threads.clone();
    let threads = pool
        .as_ref()
        .map_or_else(rayon::current_num_threads, |pool| {
            pool.current_num_threads()
        })
        .max(1) as u64;
    let sharing = if tasks.len() == 1 || settings.one_at_a_time {
        1
    } else {
        threads
    };
    let task_budget = MemoryBudget::from_bytes(settings.memory.bytes() / sharing);
    let (sender, receiver) = mpsc::channel::<Message>();
    let mut first_error: Option<Error> = None;
    std::thread::scope(|scope| {
        let cancel = settings.cancel.clone();
        let halves = settings.halves.as_deref();
        let rows = settings.rows;
        let one_at_a_time = settings.one_at_a_time;
        scope.spawn(move || {
            let each = |sender: &mut mpsc::Sender<Message>, task: &Task| {
                if cancel.is_cancelled() {
                    return;
                }
                let (question, choice) = match task {
                    Task::One(question, choice) => (question, choice),
                    Task::Starts(starts) => {
                        compute_starts(starts, task_budget, sharing, rows, &cancel, sender);
                        return;
                    }
                };
                // The receiver outlives the tasks, so sending cannot fail.
                let _ = sender.send(
                    match compute_one(question, *choice, task_budget, halves, rows, &cancel) {
                        Ok((answer, stats, note)) => Message::Answer(answer, stats, note),
                        Err(e) => Message::Failed(*question, shared(e, sharing)),
                    },
                );
            };
            // One task at a time, each with the whole budget and every core inside it; else
            // the tasks side by side.
            let run = move || {
                if one_at_a_time {
                    let mut sender = sender;
                    tasks.iter().for_each(|task| each(&mut sender, task));
                } else {
                    tasks.par_iter().for_each_with(sender, each);
                }
            };
            // On the pool given, the engines' own parallel loops included (they run on the
            // pool of the thread that calls them).
            match pool {
                Some(pool) => pool.install(run),
                None => run(),
            }
        });

        let mut pending: Vec<Answer> = Vec::new();
        let mut last_save = Instant::now();
        for message in receiver {
            match message {
                Message::Answer(answer, task, note) => {
                    stats.add(&task);
                    notes.extend(note);
                    progress(Progress::Computed(&answer));
                    known.insert(answer.question, answer.clone());
                    pending.push(answer);
                }
                Message::Figures(task) => stats.add(&task),
                Message::Failed(question, e)
                    if failed.is_some() && !matches!(e, Error::Interrupted) =>
                {
                    if let Some(failed) = failed.as_deref_mut() {
                        failed.insert(question, Failure::from(&e));
                    }
                }
                Message::Failed(_, e) => {
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

/// One computing task.
enum Task {
    /// One question with the engine chosen for it.
    One(Question, Choice),
    /// Open tours from these starts of one board (canonical questions), counted together by
    /// the frontier engine.
    Starts(Vec<Question>),
}

impl Task {
    /// Small boards first: their answers are saved early.
    fn order(&self) -> (u64, Question) {
        match self {
            Task::One(question, _) => (question.board.squares(), *question),
            Task::Starts(starts) => (starts[0].board.squares(), starts[0]),
        }
    }
}

/// Counts the starts of one board together with the frontier engine (see
/// [`frontier::count_from_each`]), sending each answer as soon as it is known.
fn compute_starts(
    starts: &[Question],
    budget: MemoryBudget,
    sharing: u64,
    rows: Rows,
    cancel: &CancelFlag,
    sender: &mpsc::Sender<Message>,
) {
    let board = starts[0].board;
    let squares: Vec<Square> = starts
        .iter()
        .filter_map(|q| match q.shape() {
            Shape::Start(start) => Some(start),
            _ => None,
        })
        .collect();
    let mut clock = Instant::now();
    let outcome = frontier::count_from_each_along(
        board,
        &squares,
        rows,
        &Limits::new(budget, cancel),
        &mut |start, count| {
            let question = Question::from_start(board, start, TourKind::Open);
            let seconds = clock.elapsed().as_secs_f64();
            clock = Instant::now();
            let answer = Answer::computed(question, count, Engine::Frontier.recorded(), seconds);
            // The receiver outlives the tasks, so sending cannot fail.
            let _ = sender.send(Message::Answer(answer, EngineStats::default(), None));
        },
    );
    let _ = sender.send(match outcome {
        Ok(figures) => Message::Figures(EngineStats {
            frontier: figures,
            ..EngineStats::default()
        }),
        Err(e) => Message::Failed(starts[0], shared(e, sharing)),
    });
}

/// A task's error, saying that its memory budget was a share of the whole (`sharing` tasks).
fn shared(error: Error, sharing: u64) -> Error {
    match error {
        Error::MemoryBudget {
            board,
            square,
            states,
            bytes,
            budget,
            ..
        } => Error::MemoryBudget {
            board,
            square,
            states,
            bytes,
            budget,
            shared_by: sharing,
        },
        other => other,
    }
}

/// What a computing task tells the thread that saves.
enum Message {
    /// The figures of a task whose answers were sent on their own.
    Figures(EngineStats),
    /// One answer, with the engine's figures and what the user should know about it.
    Answer(Answer, EngineStats, Option<String>),
    /// The task failed.
    Failed(Question, Error),
}

/// Saves the answers waiting, through the gate ([`admit()`]). They stay waiting when the save
/// fails, to be tried again, except after a conflict with a stored count: the others are
/// saved then.
fn save(store: &mut Option<&mut Store>, pending: &mut Vec<Answer>) -> Result<(), Error> {
    if let Some(store) = store.as_deref_mut().filter(|_| !pending.is_empty()) {
        match admit(store, Incoming::Computed(pending), &Settings::default()) {
            Ok(_) => {}
            Err(e @ Error::Store(StoreError::Conflict { .. })) => {
                pending.clear();
                return Err(e);
            }
            Err(e) => return Err(e),
        }
    }
    pending.clear();
    Ok(())
}
