//! The one gate for answers entering a store, whichever road they come by: computed by this
//! process ([`Incoming::Computed`]), imported from an export file ([`Incoming::File`]),
//! shipped with knights ([`Incoming::Shipped`]) or merged from workers' stores
//! ([`Incoming::Merge`]). [`admit`] is the only caller of the
//! store's writes; every answer passes it.
//!
//! The checks, in order; the first that fails refuses, naming the record (its line, or its
//! store) and what is wrong:
//!
//! 1. Each answer on its own: a canonical question, recorded as the rules of
//!    [`crate::trust::provenance`] allow (engine, seconds, time), a count that no theorem,
//!    parity or bound refutes ([`trust::check_count`]), within reach of an engine. The sums a
//!    merge adds up ([`Origin::Sum`]) are checked so after step 3: a sum is wrong when one of
//!    its parts is, and the part names its store.
//! 2. Together, and with the store: the same count for the same question, here and in the
//!    store; every open total the sum of its starts (at least the sum of those known) and, on
//!    boards with pairs among the answers, every start the sum of its pairs.
//! 3. A recount by the engines of every answer on a board of at most [`RECOUNT_SQUARES`]
//!    squares that no theorem decides.
//! 4. The store: all or nothing, a stored count that differs refusing everything.
//!
//! Answers computed by this process are the engines' counts: a recount would be the same
//! computation again, and the checks that need the store's other answers are those of the
//! read gate ([`crate::trust::served`], whenever they are read) and of the resolver (a table
//! against its total). They pass step 1 (a failure there is a bug) and are saved as they come:
//! a conflict with a stored count keeps the others of the batch and is reported after.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use num_bigint::BigUint;

use super::engine::{EngineChoice, beyond_every_engine};
use super::read::RECOUNT_SQUARES;
use super::{Settings, resolve};
use crate::board::Board;
use crate::error::Error;
use crate::exchange::imported_source;
use crate::existence::no_tour_for;
use crate::input::InputError;
use crate::memory::human_bytes;
use crate::question::{AnswerKind, Question, Shape, TourKind};
use crate::store::{Answer, ImportReport, Store, StoreError};
use crate::trust::{self, Contradiction, Parts, provenance, served};

/// Where one answer entering a store comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin<'a> {
    /// Computed by this process's engines (or decided by a theorem, or added up from those).
    Computed,
    /// Line `line` of the file being imported.
    Line(usize),
    /// A store other than the one the answers go to (a worker's), at this path.
    Store(&'a str),
    /// Added up from the other answers of a merge (its starts and its total).
    Sum,
}

impl Origin<'_> {
    /// Who holds the incoming count, in a message: `the file`, the store's path.
    fn holder(&self) -> String {
        match self {
            Origin::Computed => "this run".into(),
            Origin::Line(_) => "the file".into(),
            Origin::Store(path) => path.to_string(),
            Origin::Sum => "the merge".into(),
        }
    }

    /// Where the incoming count is, in a message: `in this file`, `in w0.db`.
    fn place(&self) -> String {
        match self {
            Origin::Computed => "in this run".into(),
            Origin::Line(_) => "in this file".into(),
            Origin::Store(path) => format!("in {path}"),
            Origin::Sum => "added up by the merge".into(),
        }
    }

    /// The refusal of an answer from here: bad input naming the line or the store (exit 2 on
    /// the command line, as for any file given that is wrong); for a computed answer, a bug.
    fn refuse(&self, message: String) -> Error {
        match self {
            Origin::Computed => Error::Internal(message),
            Origin::Line(line) => InputError::at(*line, message).into(),
            Origin::Store(path) => InputError::whole(format!("{path}: {message}")).into(),
            Origin::Sum => InputError::whole(format!("added up by the merge: {message}")).into(),
        }
    }
}

/// Answers on their way into a store.
#[derive(Clone, Copy, Debug)]
pub enum Incoming<'a> {
    /// Answers this process computed.
    Computed(&'a [Answer]),
    /// The records of an export file read by [`crate::exchange`], each with its line: stored
    /// with the source `imported from NAME (...)`.
    File {
        /// The file's name, for the sources.
        name: &'a str,
        /// The records.
        records: &'a [(usize, Answer)],
    },
    /// The records of a file of results that ship with knights (`data/`), read by
    /// [`crate::exchange`] as an import's are: stored with the source `shipped with knights
    /// VERSION (NAME: ...)`.
    Shipped {
        /// The file's name under `data/`, for the sources.
        name: &'a str,
        /// The records.
        records: &'a [(usize, Answer)],
    },
    /// A merge: the answers read from workers' stores ([`Origin::Store`], their sources
    /// already saying so) and those added up from them ([`Origin::Sum`]).
    Merge(&'a [(Origin<'a>, Answer)]),
}

impl<'a> Incoming<'a> {
    /// Every answer with where it came from.
    fn each(&self) -> Box<dyn Iterator<Item = (Origin<'a>, &'a Answer)> + 'a> {
        match *self {
            Incoming::Computed(answers) => Box::new(answers.iter().map(|a| (Origin::Computed, a))),
            Incoming::File { records, .. } | Incoming::Shipped { records, .. } => {
                Box::new(records.iter().map(|(line, a)| (Origin::Line(*line), a)))
            }
            Incoming::Merge(answers) => Box::new(answers.iter().map(|(origin, a)| (*origin, a))),
        }
    }

    /// What holds the answers, in a message: `this file`, `the stores merged`.
    fn what(&self) -> &'static str {
        match self {
            Incoming::File { .. } | Incoming::Shipped { .. } => "this file",
            Incoming::Computed(_) => "this run",
            Incoming::Merge(_) => "the stores merged",
        }
    }

    /// Where the answers are, all together, in a message.
    fn whereabouts(&self) -> &'static str {
        match self {
            Incoming::File { .. } | Incoming::Shipped { .. } => "this file and the store",
            _ => "the stores merged and the store",
        }
    }
}

/// Admits `incoming` to `store` through the checks of this module's doc, then stores it: all
/// or nothing, except computed answers (saved as they come). Returns what was added.
pub fn admit(
    store: &mut Store,
    incoming: Incoming<'_>,
    settings: &Settings,
) -> Result<ImportReport, Error> {
    // A signal stops the gate at its next record, and the import before anything is written.
    let cancel = &settings.cancel;
    for (origin, answer) in incoming.each().filter(|(o, _)| *o != Origin::Sum) {
        cancel.check()?;
        check_alone(origin, answer)?;
    }
    if let Incoming::Computed(answers) = incoming {
        let added = store.save(answers)?;
        return Ok(ImportReport {
            added,
            already_stored: answers.len() - added,
        });
    }
    check_together(store, &incoming, settings)?;
    recount(&incoming, settings)?;
    for (origin, answer) in incoming.each().filter(|(o, _)| *o == Origin::Sum) {
        cancel.check()?;
        check_alone(origin, answer)?;
    }
    // The answers are passed on borrowed, their new sources made one at a time as they are
    // written: a large file is held once.
    let records: Vec<(usize, &Answer)> = match incoming {
        Incoming::File { records, .. } | Incoming::Shipped { records, .. } => records
            .iter()
            .map(|(line, answer)| (*line, answer))
            .collect(),
        _ => incoming.each().map(|(_, a)| (0, a)).collect(),
    };
    let source = |answer: &Answer| match incoming {
        Incoming::File { name, .. } => Some(imported_source(name, &answer.source)),
        Incoming::Shipped { name, .. } => Some(provenance::shipped_source(name, &answer.source)),
        _ => None,
    };
    cancel.check()?;
    store
        .import_unless(&records, &source, &|| cancel.is_cancelled())
        .map_err(|e| match e {
            // The incoming count is the one at fault: bad input.
            StoreError::Conflict { .. } => Error::Input(InputError::whole(e.to_string())),
            StoreError::Stopped => Error::Interrupted,
            other => Error::Store(other),
        })
}

/// Step 1: the answer on its own.
fn check_alone(origin: Origin<'_>, answer: &Answer) -> Result<(), Error> {
    let q = &answer.question;
    if !q.is_canonical() {
        return Err(origin.refuse(format!("{q} is not a canonical question")));
    }
    provenance::check_record(answer).map_err(|why| origin.refuse(why))?;
    if let Err(why) = trust::check_count(q, &answer.count) {
        return Err(origin.refuse(format!(
            "{q}: count {} cannot be right: {why}",
            answer.count
        )));
    }
    if origin != Origin::Computed
        && let Some(why) = beyond_every_engine(q)
    {
        return Err(origin.refuse(format!(
            "{q}: count {} cannot be checked: no engine of this knights counts it ({why})",
            answer.count
        )));
    }
    Ok(())
}

/// Step 2: the answers together and with the store's.
///
/// The store's side is read board by board, its counts without the rest of their rows, and
/// let go before the next board: a file of many boards holds one board's stored counts beside
/// its own answers, and that within the memory budget.
fn check_together(
    store: &Store,
    incoming: &Incoming<'_>,
    settings: &Settings,
) -> Result<(), Error> {
    let cancel = &settings.cancel;
    // The first answer to each question, with its place in the order the answers came.
    let mut first: HashMap<Question, (Origin<'_>, &BigUint, usize)> = HashMap::new();
    let mut held = 0u64;
    for (i, (origin, answer)) in incoming.each().enumerate() {
        cancel.check()?;
        held += crate::exchange::held_bytes(answer);
        match first.get(&answer.question) {
            Some(&(earlier, count, _)) if *count != answer.count => {
                return Err(origin.refuse(format!(
                    "{} is {} {} but {count} {}",
                    answer.question,
                    answer.count,
                    origin.place(),
                    earlier.place()
                )));
            }
            Some(_) => {}
            None => {
                first.insert(answer.question, (origin, &answer.count, i));
            }
        }
    }
    let mut questions: BTreeMap<Board, Vec<Question>> = BTreeMap::new();
    for q in first.keys() {
        questions.entry(q.board).or_default().push(*q);
    }
    let open: BTreeSet<Board> = first
        .keys()
        .filter(|q| q.kind == TourKind::Open)
        .map(|q| q.board)
        .collect();
    let with_pairs: BTreeSet<Board> = first
        .keys()
        .filter(|q| matches!(q.shape(), Shape::Between(..)))
        .map(|q| q.board)
        .collect();
    // What each kind of check found first: a stored count that differs (the first in the
    // order the answers came), a total that is not the sum of its starts (by board), a start
    // that is not the sum of its pairs (by start). They are reported in that order.
    let mut conflict: Option<(usize, Error)> = None;
    let mut total_fault: Option<Error> = None;
    let mut pairs_fault: Option<Error> = None;
    for (&board, asked) in &questions {
        cancel.check()?;
        // The store's answers to the questions of the board, through the read gate.
        let looked = super::read(store, asked.iter())?;
        for (q, known) in &looked {
            let (origin, count, at) = first[q];
            if known.count != *count && conflict.as_ref().is_none_or(|(i, _)| at < *i) {
                let error = origin.refuse(format!(
                    "conflicting answers for {q}: the store has {} ({}, {}), {} has {count}",
                    known.count,
                    known.engine,
                    known.source,
                    origin.holder(),
                ));
                conflict = Some((at, error));
            }
        }
        if !open.contains(&board) || conflict.is_some() {
            continue;
        }
        // Every stored start and total of the board (and its pairs, when the answers have
        // pairs of it): the sums need them all.
        let mut kinds = vec![AnswerKind::Open];
        if with_pairs.contains(&board) {
            kinds.push(AnswerKind::Between);
        }
        let mut stored: HashMap<Question, BigUint> = HashMap::new();
        for kind in kinds {
            let (answers, digits) = store.counts_size(board, kind)?;
            let entry = std::mem::size_of::<(Question, BigUint)>() as u64 + 16;
            let needs = (answers * entry + digits / 2) * 2;
            let budget = settings.memory.bytes();
            if held + stored_bytes(&stored) + needs > budget {
                return Err(Error::Input(InputError::whole(format!(
                    "checking {} against the store's {answers} {} of {board} needs more than the memory budget of {}; give a larger --memory",
                    incoming.what(),
                    if answers == 1 { "answer" } else { "answers" },
                    human_bytes(budget)
                ))));
            }
            let counts = store.counts(board, kind)?;
            served::check_counts(store, &counts)?;
            stored.extend(counts);
        }
        let known = |q: &Question| -> Option<&BigUint> {
            first
                .get(q)
                .map(|&(_, count, _)| count)
                .or_else(|| stored.get(q))
        };
        // The board's open total, then (on a board with pairs) each start with a count.
        let mut checks = vec![(Question::total(board, TourKind::Open), Parts::Starts)];
        if with_pairs.contains(&board) {
            let starts: BTreeSet<Question> = first
                .keys()
                .chain(stored.keys())
                .filter(|q| q.board == board && matches!(q.shape(), Shape::Start(_)))
                .copied()
                .collect();
            checks.extend(starts.into_iter().map(|start| (start, Parts::Pairs)));
        }
        for (question, parts) in checks {
            cancel.check()?;
            let fault_slot = match parts {
                Parts::Starts => &mut total_fault,
                Parts::Pairs => &mut pairs_fault,
            };
            if fault_slot.is_some() {
                continue;
            }
            let Some(count) = known(&question) else {
                continue;
            };
            let Err(fault) = trust::check_parts(&question, count, parts, known) else {
                continue;
            };
            // The count's own record, or the first incoming part of it, says where.
            let (origin, place) = match first.get(&question) {
                Some(&(origin, _, _)) => (origin, origin.place()),
                None => (
                    first_part(&question, parts, incoming, &first).unwrap_or(Origin::Line(0)),
                    "in the store".to_string(),
                ),
            };
            *fault_slot = Some(origin.refuse(format!(
                "{} is {count} ({place}), but {} {}",
                fault.subject(&question),
                fault.words(incoming.whereabouts()),
                fault.sum
            )));
        }
    }
    match (conflict, total_fault, pairs_fault) {
        (Some((_, error)), _, _) | (None, Some(error), _) | (None, None, Some(error)) => Err(error),
        (None, None, None) => Ok(()),
    }
}

/// About the bytes `stored` holds.
fn stored_bytes(stored: &HashMap<Question, BigUint>) -> u64 {
    let entry = std::mem::size_of::<(Question, BigUint)>() as u64 + 16;
    stored.capacity() as u64 * entry
        + stored
            .values()
            .map(|c| c.bits().div_ceil(64) * 8)
            .sum::<u64>()
}

/// Where the first incoming part of `whole` came from: the first open answer of a total's
/// board, in the order they came; the first pair from a start, in the order of its ends.
fn first_part<'a>(
    whole: &Question,
    parts: Parts,
    incoming: &Incoming<'a>,
    first: &HashMap<Question, (Origin<'a>, &BigUint, usize)>,
) -> Option<Origin<'a>> {
    match parts {
        Parts::Starts => incoming
            .each()
            .find(|(_, a)| a.question.board == whole.board && a.question.kind == TourKind::Open)
            .map(|(origin, _)| origin),
        Parts::Pairs => whole
            .pairs_from()
            .find_map(|pair| first.get(&pair).map(|&(origin, _, _)| origin)),
    }
}

/// Step 3: a recount of what is cheap, without the store.
fn recount(incoming: &Incoming<'_>, settings: &Settings) -> Result<(), Error> {
    let cheap: Vec<(Origin<'_>, &Answer)> = incoming
        .each()
        .filter(|(_, a)| {
            a.question.board.squares() <= RECOUNT_SQUARES && no_tour_for(&a.question).is_none()
        })
        .collect();
    let questions: Vec<Question> = cheap
        .iter()
        .map(|(_, a)| a.question)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if questions.is_empty() {
        return Ok(());
    }
    let engines = Settings {
        engine: EngineChoice::Auto,
        ..settings.clone()
    };
    let resolution = resolve(&questions, None, &engines, &mut |_| {})?;
    for (origin, answer) in cheap {
        let recounted = &resolution.answers[&answer.question];
        if recounted.count != answer.count {
            let why = Contradiction::Recount {
                by: resolution.recounted_by(recounted),
                count: recounted.count.clone(),
            };
            return Err(origin.refuse(format!(
                "{}: count {} cannot be right: {why}",
                answer.question, answer.count
            )));
        }
    }
    Ok(())
}
