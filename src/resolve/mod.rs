//! Answering questions: from the store where it has them, by the engines otherwise.
//!
//! The entry points, as cargo's `ops/resolve.rs` lists its own:
//!
//! * [`resolve`]: answers canonical questions from the store and computes the rest (each saved
//!   as it arrives); the first failure stops it, after saving what was finished.
//! * [`resolve_each`]: the same, but a question that cannot be answered (no engine takes it,
//!   or its engine stops on the memory budget) is listed in [`Resolution::failed`] with why,
//!   and the others are answered.
//! * [`check_engines`] and [`check_table`]: refuse, before any store is touched, questions
//!   that the engine asked for cannot count.
//! * [`engine`]: which engine answers which question, and its fallback: the only place that
//!   says it ([`EngineChoice::choose`]).
//! * [`admit()`]: the one gate of answers entering a store — computed here, imported from a
//!   file, merged from workers' stores — and the only writer of a store (`admit.rs`).
//! * [`shipped`]: the results of `data/` compiled into the binary, admitted through that gate
//!   to every store once per release.
//! * [`read()`]: every answer read from a store, through the read gate and, on boards cheap to
//!   count, a recount (`read.rs`).
//!
//! Every distinct canonical question is answered once. Answers read from the store pass the
//! read gate ([`crate::trust::served`]). The ones the store lacks are computed in parallel, one
//! task per question (`schedule.rs`; one question by one engine: `run.rs`). An open board
//! total comes from the frontier engine, or is the weighted sum of the board's start counts
//! when the memo engine (or the reference) counts them: then it is recorded with the engine
//! `sum`, never as the memo engine's, and its source names the engines and sources of the
//! starts (some of which may have been imported).

mod admit;
pub mod engine;
mod read;
mod run;
mod schedule;
pub mod shipped;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use num_bigint::BigUint;

use crate::cancel::CancelFlag;
use crate::count::frontier::{FrontierStats, Rows};
use crate::count::memo::MemoStats;
use crate::error::{Error, Failure};
use crate::memory::MemoryBudget;
use crate::output::stats;
use crate::question::{Question, Shape, TourKind};
use crate::store::{Answer, EngineName, Store, THEOREM};
use crate::trust::{self, served};

pub use admit::{Incoming, Origin, admit};
pub use engine::{
    AUTO_MEMO_SQUARES, AUTO_MEMO_TOTAL_SQUARES, Choice, Engine, EngineChoice, SeriesPlan,
    beyond_every_engine, beyond_one_machine, check_engines, check_table, series_plan,
};
pub use read::{RECOUNT_SQUARES, read, recheck};

/// Whether `store` serves all of `questions`, which `refused` put beyond one machine: a merged
/// plan's answers or the results shipped with knights are served where no engine here would
/// finish them. Any other refusal stands.
pub fn served_past_one_machine(
    refused: &Error,
    store: Option<&Store>,
    questions: &[Question],
) -> Result<bool, Error> {
    match (refused, store) {
        (Error::BeyondOneMachine { .. }, Some(store)) => {
            let served = read(store, questions)?;
            Ok(questions.iter().all(|q| served.contains_key(q)))
        }
        _ => Ok(false),
    }
}

/// How to compute.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The engine for what the store lacks.
    pub engine: EngineChoice,
    /// Memory for all engines together (split between parallel tasks).
    pub memory: MemoryBudget,
    /// Where tours between two squares keep the halves they share with other pairs (see
    /// [`frontier::count_between_meeting`](crate::count::frontier::count_between_meeting)).
    pub halves: Option<std::path::PathBuf>,
    /// The side of the board the frontier engine's rows run along.
    pub rows: Rows,
    /// Computes one question at a time with the whole budget (each question's engine still
    /// uses every core), for questions that each need most of the memory.
    pub one_at_a_time: bool,
    /// Stops the work cleanly when set.
    pub cancel: CancelFlag,
    /// The threads to compute on: `None`, rayon's global pool (every core); a server gives
    /// each of its computations its own, so that none waits behind another's tasks.
    pub threads: Option<std::sync::Arc<rayon::ThreadPool>>,
}

/// Progress of a run, reported on the calling thread.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// This many questions will be computed (the store lacked them).
    Planned {
        /// Questions to compute.
        questions: usize,
        /// Their work, by [`estimated_work`].
        work: u64,
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
    pub failed: BTreeMap<Question, Failure>,
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
        self.frontier.add(&other.frontier);
    }
}

impl Resolution {
    /// The count for `question`, which must have been asked.
    pub fn count(&self, question: &Question) -> &BigUint {
        &self.answers[question].count
    }

    /// The engine that counted `answer`: its own, or for a sum of starts ([`EngineName::Sum`]) the engine
    /// of the starts it adds up (other than a theorem's zeros, when there is one).
    pub fn counted_by<'a>(&'a self, answer: &'a Answer) -> &'a str {
        if answer.engine != EngineName::Sum {
            return answer.engine.as_str();
        }
        self.answers
            .values()
            .filter(|a| {
                a.question.board == answer.question.board
                    && a.question.kind == TourKind::Open
                    && matches!(a.question.shape(), Shape::Start(_))
            })
            .map(|a| a.engine.as_str())
            .find(|e| *e != THEOREM)
            .unwrap_or(THEOREM)
    }

    /// Who counted `answer`, for a message: `the memo engine`, or for a sum of starts `the memo
    /// engine, as the sum of its starts`.
    pub fn recounted_by(&self, answer: &Answer) -> String {
        let engine = self.counted_by(answer);
        if answer.engine == EngineName::Sum {
            format!("the {engine} engine, as the sum of its starts")
        } else {
            format!("the {engine} engine")
        }
    }

    /// How the answer to `question` was found, in a few words for a person, without brackets
    /// (the page shows it as it is): [`stats::how`].
    pub fn how(&self, question: &Question) -> String {
        let answer = &self.answers[question];
        stats::how(
            answer,
            self.counted_by(answer),
            self.from_store.contains(question),
        )
    }

    /// Where the answer to `questions` (the first is the one shown) came from, with the
    /// engine's figures: the `--stats` sentence ([`stats::source`]).
    pub fn source(&self, questions: &[Question]) -> String {
        let first = &self.answers[&questions[0]];
        stats::source(
            first,
            self.counted_by(first),
            questions.iter().all(|q| self.from_store.contains(q)),
            &self.engine_stats.memo,
            &self.engine_stats.frontier,
        )
    }
}

/// The work `question` takes, in the units of [`crate::count::frontier::relative_cost`]
/// (the squares of its frontier passes), for progress that counts work rather than answers:
/// 0 for a zero a theorem decides.
pub fn estimated_work(question: &Question) -> u64 {
    if crate::existence::no_tour_for(question).is_some() {
        return 0;
    }
    match question.shape() {
        Shape::Start(start) => crate::count::frontier::relative_cost(question.board, start, None),
        Shape::Between(start, end) => {
            crate::count::frontier::relative_cost(question.board, start, Some(end))
        }
        Shape::Total => question.board.squares(),
    }
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
    let asked: BTreeSet<Question> = questions.iter().copied().collect();
    let mut known: HashMap<Question, Answer> = match store.as_deref() {
        Some(store) => read(store, &asked)?,
        None => HashMap::new(),
    };
    let from_store: HashSet<Question> = asked
        .iter()
        .filter(|q| known.contains_key(q))
        .copied()
        .collect();
    let mut failed: BTreeMap<Question, Failure> = BTreeMap::new();
    let (mut to_compute, extra) = plan(&asked, &known, settings, keep_going, &mut failed)?;
    // The starts that totals are the sums of: what the store has of them, and the rest to
    // compute.
    if let Some(store) = store.as_deref() {
        let missing: Vec<&Question> = extra.keys().filter(|q| !known.contains_key(q)).collect();
        known.extend(read(store, missing)?);
    }
    for (question, choice) in extra {
        if !known.contains_key(&question) {
            to_compute.entry(question).or_insert(choice);
        }
    }

    let stored: HashSet<Question> = known.keys().copied().collect();
    progress(Progress::Planned {
        questions: to_compute.len(),
        work: to_compute.keys().map(estimated_work).sum(),
    });
    let mut notes = Vec::new();
    let computing = schedule::compute(
        to_compute,
        &mut known,
        store.as_deref_mut(),
        settings,
        progress,
        keep_going.then_some(&mut failed),
        &mut notes,
    );
    // Also after an interruption: no finished work is lost.
    add_up_totals(&asked, &mut known, store.as_deref_mut())?;
    let engine_stats = computing?;
    check_tables(&asked, &stored, &known, store.as_deref())?;
    Ok(Resolution {
        answers: known,
        from_store,
        engine_stats,
        failed,
        notes,
    })
}

/// Questions, each with the engine chosen to count it.
type Chosen = BTreeMap<Question, Choice>;

/// The questions of `asked` that `known` lacks, each with the engine that counts it; except
/// open totals that are the sums of their starts, for which every start is needed instead
/// (the second map: some may be stored). A question no engine can count is an error, or
/// with `keep_going` listed in `failed` with why.
fn plan(
    asked: &BTreeSet<Question>,
    known: &HashMap<Question, Answer>,
    settings: &Settings,
    keep_going: bool,
    failed: &mut BTreeMap<Question, Failure>,
) -> Result<(Chosen, Chosen), Error> {
    let mut to_compute: BTreeMap<Question, Choice> = BTreeMap::new();
    let mut extra: BTreeMap<Question, Choice> = BTreeMap::new();
    for question in asked.iter().filter(|q| !known.contains_key(q)) {
        let choice = match settings.engine.choose(question) {
            Ok(choice) => choice,
            Err(e) if keep_going => {
                failed.insert(*question, Failure::from(&e));
                continue;
            }
            Err(e) => return Err(e),
        };
        let starts = || Question::starts_of_board(question.board, question.kind);
        // A total whose starts are all asked as well (a per-square table) is their sum.
        let by_starts = question.is_open_total()
            && (!choice.engine.counts_open_totals()
                || asked.len() > 1 && starts().iter().all(|(start, _)| asked.contains(start)));
        if !by_starts {
            to_compute.insert(*question, choice);
            continue;
        }
        for (start, _) in starts() {
            match settings.engine.choose(&start) {
                Ok(choice) => {
                    extra.insert(start, choice);
                }
                Err(e) if keep_going => {
                    failed.insert(*question, Failure::from(&e));
                }
                Err(e) => return Err(e),
            }
        }
    }
    Ok((to_compute, extra))
}

/// The open totals asked that `known` lacks, added up from their starts where every start is
/// known (saved to `store`).
fn add_up_totals(
    asked: &BTreeSet<Question>,
    known: &mut HashMap<Question, Answer>,
    store: Option<&mut Store>,
) -> Result<(), Error> {
    let mut totals = Vec::new();
    for question in asked
        .iter()
        .filter(|q| q.is_open_total() && !known.contains_key(q))
    {
        let starts = Question::starts_of_board(question.board, question.kind);
        if starts.iter().any(|(start, _)| !known.contains_key(start)) {
            continue;
        }
        let inputs: Vec<(&Answer, u64)> = starts
            .iter()
            .map(|(start, weight)| (&known[start], *weight))
            .collect();
        totals.push(Answer::sum_of_starts(*question, &inputs));
    }
    if let Some(store) = store {
        admit(store, Incoming::Computed(&totals), &Settings::default())?;
    }
    known.extend(totals.into_iter().map(|total| (total.question, total)));
    Ok(())
}

/// A table asked with its total: the total and its starts must agree, whichever of them the
/// store gave (`stored`; the engines' counts agree with each other).
fn check_tables(
    asked: &BTreeSet<Question>,
    stored: &HashSet<Question>,
    known: &HashMap<Question, Answer>,
    store: Option<&Store>,
) -> Result<(), Error> {
    for total in asked.iter().filter(|q| q.is_open_total()) {
        let starts = Question::starts_of_board(total.board, total.kind);
        if std::iter::once(total)
            .chain(starts.iter().map(|(start, _)| start))
            .any(|q| stored.contains(q))
        {
            let (sum, complete) =
                trust::starts_sum(total.board, |q| known.get(q).map(|a| &a.count));
            let answer = &known[total];
            if let Err(why) = trust::check_total(&answer.count, &sum, complete) {
                return Err(served::untrusted(store.map(Store::path), answer, why));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};

    #[test]
    fn a_theorems_zero_is_no_work_and_a_count_is_some() {
        let board = Board::new(7, 7).unwrap();
        // (0, 1) is the minority colour of an odd board: a theorem's zero.
        let zero = Question::from_start(board, Square::new(0, 1), TourKind::Open);
        let corner = Question::from_start(board, Square::new(0, 0), TourKind::Open);
        assert_eq!(estimated_work(&zero), 0);
        assert!(estimated_work(&corner) > 0);
    }
}
