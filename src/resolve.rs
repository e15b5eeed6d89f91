//! Answering questions: from the store where it has them, by the engines otherwise.
//!
//! Every distinct canonical question is answered once. The ones the store lacks are computed in
//! parallel (rayon), one task per question, and every answer is saved as it arrives, in short
//! transactions: an interrupted run keeps everything it finished. An open board total comes from
//! the frontier engine, or is the weighted sum of the board's start counts when the memo engine
//! (or the reference) counts them: then it is recorded with the engine `sum`, never as the
//! memo engine's, and its source names the engines and sources of the starts (some of which
//! may have been imported).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use rayon::prelude::*;

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::count::frontier::{self, FrontierMode, FrontierStats};
use crate::count::memo::{MemoCounter, MemoStats, count_cycles};
use crate::count::{self, reference};
use crate::error::Error;
use crate::existence::{no_tour, no_tour_for};
use crate::graph::MAX_BITSET_SQUARES;
use crate::memory::MemoryBudget;
use crate::question::{Question, TourKind};
use crate::store::{Answer, SUM, Store, StoreError, THEOREM};
use crate::trust::{self, served};

/// Answers are saved at least this often while computing.
const SAVE_INTERVAL: Duration = Duration::from_millis(250);

/// ... or when this many are waiting.
const SAVE_BATCH: usize = 1024;

/// An engine that computes counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Engine {
    /// The memoized dynamic program over (square, unvisited squares).
    Memo,
    /// The transfer-matrix dynamic program over the frontier.
    Frontier,
    /// Plain backtracking, the reference.
    Reference,
}

impl Engine {
    /// Ok when this engine can count on `board`; otherwise the error that names its limit.
    /// The one place that says which engine takes which board (the engines check it again).
    pub fn check(self, board: Board) -> Result<(), Error> {
        match self {
            Engine::Memo => {
                if board.squares() > MAX_BITSET_SQUARES {
                    return Err(Error::BoardTooLarge {
                        board,
                        max_squares: MAX_BITSET_SQUARES,
                        engine: "memo",
                    });
                }
                Ok(())
            }
            Engine::Frontier => frontier::check_board(board),
            Engine::Reference => Ok(()),
        }
    }

    /// The name recorded in the store.
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Memo => "memo",
            Engine::Frontier => "frontier",
            Engine::Reference => "reference",
        }
    }
}

/// The engine asked for: one of them, or `Auto` to pick the faster for each question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The faster engine for each question: the memo engine for small boards (at most
    /// [`AUTO_MEMO_SQUARES`] squares; [`AUTO_MEMO_TOTAL_SQUARES`] for board totals), the
    /// frontier engine for larger boards, board totals and closed tours beyond them.
    #[default]
    Auto,
    /// Always the memo engine.
    Memo,
    /// Always the frontier engine.
    Frontier,
    /// Always plain backtracking.
    Reference,
}

/// `Auto` counts from a start and closed tours with the memo engine up to this many squares.
pub const AUTO_MEMO_SQUARES: u64 = 40;

/// `Auto` counts open board totals with the memo engine (the sum of the starts) up to this
/// many squares: on these boards its per-square table is faster than the frontier's total.
pub const AUTO_MEMO_TOTAL_SQUARES: u64 = 36;

impl EngineChoice {
    /// The engine that computes `question`, once it is known to take the board: under `Auto`
    /// the other engine when the faster one cannot, and an error naming the limits of the
    /// engines the user could have chosen when none can.
    pub fn check(self, question: &Question) -> Result<Engine, Error> {
        let engine = self.engine_for(question);
        let board = question.board;
        // Pairs are the way around the limit: each is one bounded search.
        let from_start = question.start.is_some() && question.end.is_none();
        if self == EngineChoice::Auto && from_start && beyond_one_machine(board) {
            return Err(Error::BeyondOneMachine { board });
        }
        match (self, engine.check(board)) {
            (_, Ok(())) => Ok(engine),
            (EngineChoice::Auto, Err(_)) => {
                let other = match engine {
                    Engine::Memo => Engine::Frontier,
                    _ => Engine::Memo,
                };
                other
                    .check(board)
                    .map(|()| other)
                    .map_err(|_| Error::BeyondEngines {
                        board,
                        max_squares: MAX_BITSET_SQUARES,
                        max_width: frontier::MAX_WIDTH,
                    })
            }
            (_, Err(e)) => Err(e),
        }
    }

    /// The engine that computes `question`.
    pub fn engine_for(self, question: &Question) -> Engine {
        match self {
            EngineChoice::Memo => Engine::Memo,
            EngineChoice::Frontier => Engine::Frontier,
            EngineChoice::Reference => Engine::Reference,
            EngineChoice::Auto => {
                let board = question.board;
                let narrow = board.rows().min(board.cols()) <= crate::count::frontier::MAX_WIDTH;
                let limit = match (question.kind, question.start) {
                    (TourKind::Open, None) => AUTO_MEMO_TOTAL_SQUARES,
                    _ => AUTO_MEMO_SQUARES,
                };
                if board.squares() <= limit || !narrow {
                    Engine::Memo
                } else {
                    Engine::Frontier
                }
            }
        }
    }
}

/// True for boards whose counts from one square no engine gives on one machine: the frontier
/// engine's layers from a start outgrow any one machine's memory from a short side of 7 and a
/// long side of 8 on (the README's speed section has the measurements), and the memo engine's
/// table is far slower still. Their totals and closed tours are within reach.
pub fn beyond_one_machine(board: Board) -> bool {
    let short = board.rows().min(board.cols());
    (7..=frontier::MAX_WIDTH).contains(&short) && board.rows().max(board.cols()) >= 8
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
    /// What the engines did, summed over their tasks.
    pub engine_stats: EngineStats,
    /// Questions that could not be answered, with why ([`resolve_each`] only: [`resolve`]
    /// stops at the first).
    pub failed: BTreeMap<Question, String>,
    /// What the user should know about how answers were found (e.g. an engine that stopped on
    /// the memory budget and the one that took over), one sentence each.
    pub notes: Vec<String>,
}

/// What the engines did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// The memo engine's figures, summed over its tasks.
    pub memo: MemoStats,
    /// The frontier engine's figures (peaks are the largest of its tasks).
    pub frontier: FrontierStats,
}

impl EngineStats {
    fn add(&mut self, other: &EngineStats) {
        self.memo.add(&other.memo);
        let (a, b) = (&mut self.frontier, &other.frontier);
        if b.peak_states > a.peak_states {
            a.peak_states = b.peak_states;
            a.peak_bytes = b.peak_bytes;
        }
        a.transitions += b.transitions;
        a.count_bits = a.count_bits.max(b.count_bits);
    }
}

impl Resolution {
    /// The count for `question`, which must have been asked.
    pub fn count(&self, question: &Question) -> &BigUint {
        &self.answers[question].count
    }

    /// Where the answer to `questions` (the first is the one shown) came from, with the
    /// engine's figures: the `--stats` sentence.
    pub fn source(&self, questions: &[Question]) -> String {
        let stored = questions
            .iter()
            .filter(|q| self.from_store.contains(q))
            .count();
        let first = &self.answers[&questions[0]];
        let mut engine = first.engine.as_str();
        let mut added_up = "";
        if engine == SUM {
            // The engine that counted the starts this total is the sum of.
            added_up = "added up from its starts, ";
            engine = self
                .answers
                .values()
                .filter(|a| {
                    a.question.board == first.question.board
                        && a.question.start.is_some()
                        && a.question.end.is_none()
                })
                .map(|a| a.engine.as_str())
                .find(|e| *e != THEOREM)
                .unwrap_or(THEOREM);
        }
        let figures = self.engine_stats;
        if stored == questions.len() {
            "answered from the store".to_string()
        } else if engine == THEOREM {
            "answered by an existence theorem, without a search".to_string()
        } else if figures.frontier.transitions > 0 {
            let f = figures.frontier;
            format!(
                "computed by the frontier engine ({} transitions, largest layer {} states, {:.1} MiB; counts in {})",
                f.transitions,
                f.peak_states,
                f.peak_bytes as f64 / (1u64 << 20) as f64,
                match f.count_bits {
                    0 => "arbitrary precision".to_string(),
                    bits => format!("{bits} bits"),
                }
            )
        } else {
            let m = figures.memo;
            format!(
                "{added_up}computed by the {engine} engine ({} states solved, {} table hits, {} states pruned, {} table entries, {:.1} MiB{})",
                m.states_solved,
                m.table_hits,
                m.states_pruned,
                m.entries,
                m.table_bytes as f64 / (1u64 << 20) as f64,
                if m.stores_refused > 0 {
                    format!(
                        "; {} states not kept: memory budget reached",
                        m.stores_refused
                    )
                } else {
                    String::new()
                }
            )
        }
    }
}

/// Refuses, before any store is touched, a question that the engine asked for cannot take
/// (unless a theorem answers it without one).
pub fn check_engines(questions: &[Question], settings: &Settings) -> Result<(), Error> {
    for question in questions {
        if no_tour_for(question).is_none() {
            settings.engine.check(question)?;
        }
    }
    Ok(())
}

/// Answers `questions` (canonical), from `store` when given and computing the rest, which is
/// saved to `store`. On an error (including an interruption) everything computed before it is
/// saved, then the error is returned.
pub fn resolve(
    questions: &[Question],
    store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Resolution, Error> {
    resolve_questions(questions, store, settings, progress, false)
}

/// [`resolve`], but a question that cannot be answered (no engine takes its board, or its
/// engine stops on the memory budget) does not stop the others: it is listed in
/// [`Resolution::failed`] with why. An interruption or a store failure still stops everything.
pub fn resolve_each(
    questions: &[Question],
    store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Resolution, Error> {
    resolve_questions(questions, store, settings, progress, true)
}

fn resolve_questions(
    questions: &[Question],
    mut store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
    keep_going: bool,
) -> Result<Resolution, Error> {
    let mut failed: BTreeMap<Question, String> = BTreeMap::new();
    let asked: BTreeSet<Question> = questions.iter().copied().collect();
    let mut known: HashMap<Question, Answer> = match store.as_deref() {
        Some(store) => served::lookup(store, &asked)?,
        None => HashMap::new(),
    };
    let from_store: HashSet<Question> = asked
        .iter()
        .filter(|q| known.contains_key(q))
        .copied()
        .collect();
    let path = store.as_deref().map(|s| s.path().to_string());

    // What to compute: the missing questions, except open totals that are sums of starts,
    // for which every start is needed instead (some may be stored).
    let mut to_compute: BTreeMap<Question, Engine> = BTreeMap::new();
    let mut extra: BTreeMap<Question, Engine> = BTreeMap::new();
    for question in asked.iter().filter(|q| !known.contains_key(q)) {
        let engine = match settings.engine.check(question) {
            Ok(engine) => engine,
            Err(e) if keep_going && no_tour_for(question).is_none() => {
                failed.insert(*question, e.to_string());
                continue;
            }
            Err(_) => settings.engine.engine_for(question),
        };
        let open_total = question.kind == TourKind::Open && question.start.is_none();
        // A total whose starts are all asked as well (a per-square table) is their sum.
        let starts_asked = open_total
            && asked.len() > 1
            && Question::starts_of_board(question.board, question.kind)
                .iter()
                .all(|(start, _)| asked.contains(start));
        if open_total && (engine != Engine::Frontier || starts_asked) {
            extra.extend(
                Question::starts_of_board(question.board, question.kind)
                    .into_iter()
                    .map(|(start, _)| (start, engine)),
            );
        } else {
            to_compute.insert(*question, engine);
        }
    }
    if let Some(store) = store.as_deref() {
        let missing: Vec<Question> = extra
            .keys()
            .filter(|q| !known.contains_key(q))
            .copied()
            .collect();
        known.extend(served::lookup(store, &missing)?);
    }
    for (question, engine) in extra {
        if !known.contains_key(&question) {
            to_compute.entry(question).or_insert(engine);
        }
    }

    let stored: HashSet<Question> = known.keys().copied().collect();
    progress(Progress::Planned {
        questions: to_compute.len(),
    });
    let mut notes = Vec::new();
    let computing = compute(
        to_compute,
        &mut known,
        store.as_deref_mut(),
        settings,
        progress,
        keep_going.then_some(&mut failed),
        &mut notes,
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
        let inputs: Vec<(&Answer, u64)> = starts
            .iter()
            .map(|(start, weight)| (&known[start], *weight))
            .collect();
        let total = Answer::sum_of_starts(*question, &inputs);
        totals.push(total);
    }
    if let Some(store) = store {
        store.save(&totals)?;
    }
    for total in totals {
        known.insert(total.question, total);
    }
    let engine_stats = computing?;
    // A table asked with its total: the total and its starts must agree, whichever of them the
    // store gave (the engines' counts agree with each other).
    for total in asked
        .iter()
        .filter(|q| q.kind == TourKind::Open && q.start.is_none())
    {
        let starts = Question::starts_of_board(total.board, total.kind);
        if std::iter::once(total)
            .chain(starts.iter().map(|(start, _)| start))
            .any(|q| stored.contains(q))
        {
            let (sum, complete) =
                trust::starts_sum(total.board, |q| known.get(q).map(|a| &a.count));
            let answer = &known[total];
            if let Err(why) = trust::check_total(&answer.count, &sum, complete) {
                return Err(served::untrusted(path.as_deref(), answer, why));
            }
        }
    }
    Ok(Resolution {
        answers: known,
        from_store,
        engine_stats,
        failed,
        notes,
    })
}

/// Computes `questions` in parallel, one task per question, saving answers as they arrive.
fn compute(
    questions: BTreeMap<Question, Engine>,
    known: &mut HashMap<Question, Answer>,
    mut store: Option<&mut Store>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
    mut failed: Option<&mut BTreeMap<Question, String>>,
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
    for (question, engine) in questions {
        // The frontier engine counts the starts of a board whose total meets in the middle
        // together: they share the computation of the total's top half.
        if engine == Engine::Frontier
            && question.kind == TourKind::Open
            && question.start.is_some()
            && question.end.is_none()
            && no_tour(question.board, question.kind, question.start).is_none()
            && frontier::meets_in_the_middle(question.board, FrontierMode::OpenAll)
        {
            grouped.entry(question.board).or_default().push(question);
        } else {
            tasks.push(Task::One(question, engine));
        }
    }
    tasks.extend(grouped.into_values().map(Task::Starts));
    tasks.sort_by_key(|task| task.order());

    // Tasks running side by side share the budget; a task alone has all of it.
    let threads = rayon::current_num_threads().max(1) as u64;
    let sharing = if tasks.len() == 1 { 1 } else { threads };
    let task_budget = MemoryBudget::from_bytes(settings.memory.bytes() / sharing);
    let (sender, receiver) = mpsc::channel::<Message>();
    let mut first_error: Option<Error> = None;
    std::thread::scope(|scope| {
        let cancel = settings.cancel.clone();
        scope.spawn(move || {
            tasks.par_iter().for_each_with(sender, |sender, task| {
                if cancel.is_cancelled() {
                    return;
                }
                let (question, engine) = match task {
                    Task::One(question, engine) => (question, engine),
                    Task::Starts(starts) => {
                        compute_starts(starts, task_budget, &cancel, sender);
                        return;
                    }
                };
                // The receiver outlives the tasks, so sending cannot fail.
                let _ = sender.send(
                    match compute_one(question, *engine, settings.engine, task_budget, &cancel) {
                        Ok((answer, stats, note)) => Message::Answer(answer, stats, note),
                        Err(Error::MemoryBudget {
                            board,
                            square,
                            states,
                            bytes,
                            budget,
                            ..
                        }) => Message::Failed(
                            *question,
                            Error::MemoryBudget {
                                board,
                                square,
                                states,
                                bytes,
                                budget,
                                shared_by: sharing,
                            },
                        ),
                        Err(e) => Message::Failed(*question, e),
                    },
                );
            });
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
                        failed.insert(question, e.to_string());
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
    /// One question with one engine.
    One(Question, Engine),
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
    cancel: &CancelFlag,
    sender: &mpsc::Sender<Message>,
) {
    let board = starts[0].board;
    let squares: Vec<Square> = starts.iter().filter_map(|q| q.start).collect();
    let mut clock = Instant::now();
    let outcome =
        frontier::count_from_each(board, &squares, budget, cancel, &mut |start, count| {
            let question = Question::from_start(board, start, TourKind::Open);
            let seconds = clock.elapsed().as_secs_f64();
            clock = Instant::now();
            let answer = Answer::computed(question, count, Engine::Frontier.name(), seconds);
            // The receiver outlives the tasks, so sending cannot fail.
            let _ = sender.send(Message::Answer(answer, EngineStats::default(), None));
        });
    let _ = sender.send(match outcome {
        Ok(figures) => Message::Figures(EngineStats {
            frontier: figures,
            ..EngineStats::default()
        }),
        Err(e) => Message::Failed(starts[0], e),
    });
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

/// Saves the answers waiting. They stay waiting when the save fails, to be tried again, except
/// after a conflict with a stored count: the others are saved then.
fn save(store: &mut Option<&mut Store>, pending: &mut Vec<Answer>) -> Result<(), Error> {
    if let Some(store) = store.as_deref_mut().filter(|_| !pending.is_empty()) {
        match store.save(pending) {
            Ok(_) => {}
            Err(e @ StoreError::Conflict { .. }) => {
                pending.clear();
                return Err(e.into());
            }
            Err(e) => return Err(e.into()),
        }
    }
    pending.clear();
    Ok(())
}

/// Computes one question with `engine`; when the frontier engine stops on the memory budget
/// and `choice` was `Auto`, the memo engine (which goes on, slower, when its table is full)
/// takes over if it takes the board, with a note that says so.
fn compute_one(
    question: &Question,
    engine: Engine,
    choice: EngineChoice,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<(Answer, EngineStats, Option<String>), Error> {
    match compute_with(question, engine, budget, cancel) {
        Err(Error::MemoryBudget { square, .. })
            if engine == Engine::Frontier
                && choice == EngineChoice::Auto
                && question.board.squares() <= AUTO_MEMO_SQUARES =>
        {
            let note = format!(
                "the frontier engine stopped on the memory budget at square {square}; the memo engine counted {question} instead"
            );
            let (answer, stats) = compute_with(question, Engine::Memo, budget, cancel)?;
            Ok((answer, stats, Some(note)))
        }
        other => other.map(|(answer, stats)| (answer, stats, None)),
    }
}

/// Computes one question; a zero that an existence theorem decides is answered without a
/// search.
fn compute_with(
    question: &Question,
    engine: Engine,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<(Answer, EngineStats), Error> {
    let board = question.board;
    let clock = Instant::now();
    let mut stats = EngineStats::default();
    if no_tour_for(question).is_some() {
        return Ok((Answer::theorem(*question), stats));
    }
    let mut frontier_count = |mode| -> Result<BigUint, Error> {
        let (count, figures) = frontier::count(board, mode, budget, cancel)?;
        stats.frontier = figures;
        Ok(count)
    };
    let count: BigUint = match (question.kind, question.start, engine) {
        // Directed from the start to the end (the reversed pair has the same count).
        (TourKind::Open, Some(start), engine) if question.end.is_some() => {
            let end = question.end.expect("a pair has an end");
            match engine {
                Engine::Memo => {
                    let mut memo = MemoCounter::new(board, budget, cancel.clone())?;
                    let count = memo.count_between(start, end)?;
                    stats.memo = memo.stats();
                    count.into()
                }
                Engine::Frontier => frontier_count(FrontierMode::Between(start, end))?,
                Engine::Reference => {
                    reference::count_open_tours_between(board, start, end, cancel)?.into()
                }
            }
        }
        (TourKind::Open, Some(start), Engine::Memo) => {
            let mut memo = MemoCounter::new(board, budget, cancel.clone())?;
            let count = memo.count_from(start)?;
            stats.memo = memo.stats();
            count.into()
        }
        (TourKind::Open, Some(start), Engine::Frontier) => {
            frontier_count(FrontierMode::OpenFrom(start))?
        }
        (TourKind::Open, Some(start), Engine::Reference) => {
            reference::count_open_tours(board, start, cancel)?.into()
        }
        (TourKind::Open, None, Engine::Frontier) => {
            count::directed(board, frontier_count(FrontierMode::OpenAll)?)
        }
        (TourKind::Closed, _, Engine::Memo) => {
            let (cycles, figures) = count_cycles(board, budget, cancel.clone())?;
            stats.memo = figures;
            BigUint::from(cycles) * 2u32
        }
        (TourKind::Closed, _, Engine::Frontier) => frontier_count(FrontierMode::Closed)? * 2u32,
        (TourKind::Closed, _, Engine::Reference) => {
            reference::count_closed_tours(board, Square::new(0, 0), cancel)?.into()
        }
        // Planned totals of these engines are sums of their stored starts; this is the memo
        // engine taking over a total from the frontier engine.
        (TourKind::Open, None, Engine::Memo | Engine::Reference) => {
            let mut memo = MemoCounter::new(board, budget, cancel.clone())?;
            let total = memo.table()?.total_directed();
            stats.memo = memo.stats();
            total
        }
    };
    let seconds = clock.elapsed().as_secs_f64();
    Ok((
        Answer::computed(*question, count, engine.name(), seconds),
        stats,
    ))
}
