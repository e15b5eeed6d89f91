//! Checking what the store holds ([`verify`], the `knights verify` command): SQLite's own
//! checks of the file, how each answer is recorded (canonical key, engine, seconds, time:
//! [`crate::trust::provenance`]), the checks of [`crate::trust`] (theorem zeros, parity, the
//! bound of the board, totals against their starts, starts against their pairs), counts that
//! no engine of this build could have made ([`resolve::beyond_every_engine`]), and recounts by
//! the engines within a time budget. What enters a store is checked by the gate
//! ([`resolve::admit`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::board::Board;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::existence::no_tour_for;
use crate::input::plural;
use crate::question::{Question, Shape, TourKind, check_between};
use crate::resolve::{self, EngineChoice, Settings, beyond_every_engine};
use crate::store::{Answer, AnswerFilter, Store};
use crate::trust::provenance::{self, check_utc_timestamp};
use crate::trust::{self, Contradiction};

/// The time `knights verify --recount` gives the engines by default.
pub const DEFAULT_RECOUNT_BUDGET: Duration = Duration::from_secs(10);

/// What `knights verify` checks.
#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    /// Only these answers.
    pub filter: AnswerFilter,
    /// Recount answers with the engines, cheapest boards first, within `budget`.
    pub recount: bool,
    /// The time recounts may take (a recount running when it is over is stopped and left).
    pub budget: Duration,
}

/// One problem found by [`verify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The question whose answer is wrong, or `None` for the file itself.
    pub question: Option<Question>,
    /// What is wrong: the stored value and the expected one.
    pub detail: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.question {
            Some(question) => write!(f, "{question}: {}", self.detail),
            None => f.write_str(&self.detail),
        }
    }
}

/// What [`verify`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Answers checked.
    pub answers: usize,
    /// Answers that an engine recounted (with `recount`; without it, those of boards of at most
    /// [`resolve::RECOUNT_SQUARES`] squares that nothing published decides).
    pub recounted: usize,
    /// Answers that could have been recounted but were not: the time ran out, or the engine
    /// stopped (its memory budget).
    pub not_recounted: usize,
    /// Answers that a theorem decides (zeros): no recount needed.
    pub decided: usize,
    /// Every problem found, in the order of the answers.
    pub problems: Vec<Problem>,
}

impl VerifyReport {
    /// The report's one line: the answers checked in `store` and the problems found; with
    /// `recount`, how many were recounted and how many not within `seconds`, whose front end
    /// says how to allow more (`more_time`: `--seconds`, `seconds=`).
    pub fn summary(&self, store: &str, recount: bool, seconds: f64, more_time: &str) -> String {
        let problems = self.problems.len();
        let mut summary = format!(
            "{} {} checked in {store}: {problems} {}",
            self.answers,
            plural(self.answers, "answer", "answers"),
            plural(problems, "problem", "problems"),
        );
        if recount {
            summary.push_str(&format!(
                "; {} recounted by the engines ({} decided by a theorem need no recount)",
                self.recounted, self.decided
            ));
            if self.not_recounted > 0 {
                summary.push_str(&format!(
                    ", {} not (the {seconds} s allowed ran out, or an engine's limit; more with {more_time})",
                    self.not_recounted
                ));
            }
        } else if self.recounted > 0 {
            summary.push_str(&format!(
                "; {} on boards of at most {} squares recounted by the engines",
                self.recounted,
                resolve::RECOUNT_SQUARES
            ));
        }
        summary
    }
}

/// Checks the answers of `store` that pass the filter: SQLite's integrity checks, each answer
/// on its own (canonical key, known engine used where it can be, [`trust::check_count`], within
/// an engine's reach, seconds and time in range), every open total against its starts, every
/// start against its pairs (on boards with pairs in the store), and with
/// `recount` a recount of every answer that no theorem decides, cheapest boards first, until the
/// budget is spent. Ctrl-C (the settings' flag) stops it with [`Error::Interrupted`].
pub fn verify(
    store: &Store,
    options: &VerifyOptions,
    settings: &Settings,
) -> Result<VerifyReport, Error> {
    let mut report = VerifyReport::default();
    for fault in store.integrity_check()? {
        report.problems.push(Problem {
            question: None,
            detail: format!("{}: {fault}", store.path()),
        });
    }
    // A row planted past the schema's rules is named, and the others are still checked.
    let listing = store.list_rows(&options.filter)?;
    for bad in &listing.bad {
        report.problems.push(Problem {
            question: None,
            detail: format!("{}: {bad}", store.path()),
        });
    }
    let answers = listing.answers;
    report.answers = answers.len() + listing.bad.len();
    let mut counts: HashMap<Question, &BigUint> = HashMap::new();
    for answer in &answers {
        for detail in answer_problems(answer) {
            report.problems.push(Problem {
                question: Some(answer.question),
                detail,
            });
        }
        if answer.question.is_canonical() {
            counts.insert(answer.question, &answer.count);
        }
    }
    // Starts are checked against their pairs on the boards that have some.
    let with_pairs: HashSet<Board> = counts
        .keys()
        .filter(|q| matches!(q.shape(), Shape::Between(..)))
        .map(|q| q.board)
        .collect();
    for answer in &answers {
        let q = answer.question;
        if q.kind != TourKind::Open || !q.is_canonical() {
            continue;
        }
        let checked = match q.shape() {
            Shape::Total => {
                let (sum, complete) = trust::starts_sum(q.board, |s| counts.get(s).copied());
                trust::check_total(&answer.count, &sum, complete)
            }
            Shape::Start(_) if with_pairs.contains(&q.board) => {
                let (sum, complete) = trust::pairs_sum(&q, |p| counts.get(p).copied());
                trust::check_start(&answer.count, &sum, complete)
            }
            _ => Ok(()),
        };
        if let Err(why) = checked {
            // Either side may be the wrong one: the parts are named with their counts.
            let (parts, side) = match q.shape() {
                Shape::Total => (known_starts(q.board, &counts), "its starts"),
                _ => (known_pairs(&q, &counts), "its pairs"),
            };
            report.problems.push(Problem {
                question: Some(q),
                detail: format!(
                    "stored {}, expected {} ({}: {parts}); either this count or one of {side} is wrong",
                    answer.count,
                    why.expected(),
                    why.reason()
                ),
            });
        }
    }
    // Boards whose total is not stored but published: their stored starts against it.
    let open_boards: std::collections::BTreeSet<Board> = counts
        .keys()
        .filter(|q| q.kind == TourKind::Open && matches!(q.shape(), Shape::Start(_)))
        .map(|q| q.board)
        .collect();
    for board in open_boards {
        let total = Question::total(board, TourKind::Open);
        if counts.contains_key(&total) {
            continue;
        }
        let Some(known) = trust::known::known(&total) else {
            continue;
        };
        let (sum, complete) = trust::starts_sum(board, |s| counts.get(s).copied());
        if trust::check_total(&known.count, &sum, complete).is_err() {
            report.problems.push(Problem {
                question: Some(total),
                detail: format!(
                    "not stored, but its starts here add up to {sum}{}, and it is {} (known from {}): one of them is wrong ({})",
                    if complete { "" } else { " already" },
                    known.count,
                    known.source,
                    known_starts(board, &counts)
                ),
            });
        }
    }
    if options.recount {
        recount(&answers, options.budget, settings, &mut report)?;
    } else {
        // Boards that take milliseconds are recounted anyway, as every read of them is.
        let cheap: Vec<Answer> = answers
            .iter()
            .filter(|a| {
                let q = &a.question;
                q.is_canonical()
                    && q.board.squares() <= resolve::RECOUNT_SQUARES
                    && no_tour_for(q).is_none()
                    && trust::known::known(q).is_none()
            })
            .cloned()
            .collect();
        recount(&cheap, DEFAULT_RECOUNT_BUDGET, settings, &mut report)?;
    }
    Ok(report)
}

/// The most parts a problem names with their counts; the rest are counted.
const MAX_PARTS_NAMED: usize = 12;

/// The starts of an open board's total that `counts` holds, with their counts and the squares
/// each stands for: `(0, 0) 304 x4, (0, 1) 56 x8`.
fn known_starts(board: Board, counts: &HashMap<Question, &BigUint>) -> String {
    let parts = Question::starts_of_board(board, TourKind::Open)
        .into_iter()
        .filter_map(|(start, weight)| {
            let square = start.start?;
            let count = counts.get(&start)?;
            Some(if weight == 1 {
                format!("{square} {count}")
            } else {
                format!("{square} {count} x{weight}")
            })
        });
    named_parts(parts)
}

/// The pairs from an open start that `counts` holds, by end square: `to (1, 2) 5`.
fn known_pairs(start: &Question, counts: &HashMap<Question, &BigUint>) -> String {
    let (board, from) = (start.board, start.start);
    let parts = board.all_squares().filter_map(|end| {
        let from = from?;
        if end == from {
            return None;
        }
        let count = counts.get(&Question::between(board, from, end))?;
        Some(format!("to {end} {count}"))
    });
    named_parts(parts)
}

/// At most [`MAX_PARTS_NAMED`] parts, then how many more.
fn named_parts(parts: impl Iterator<Item = String>) -> String {
    let parts: Vec<String> = parts.collect();
    let mut text = parts
        .iter()
        .take(MAX_PARTS_NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if parts.len() > MAX_PARTS_NAMED {
        text.push_str(&format!(" and {} more", parts.len() - MAX_PARTS_NAMED));
    }
    text
}

/// The problems of one stored answer on its own.
fn answer_problems(answer: &Answer) -> Vec<String> {
    let q = answer.question;
    let count = &answer.count;
    let engine = answer.engine.as_str();
    let mut problems = Vec::new();
    if !q.is_canonical() {
        // The key as its fields hold it: it makes no canonical question.
        let canonical = match (q.start, q.end) {
            (Some(start), Some(end))
                if q.board.contains(start) && check_between(q.board, start, end).is_ok() =>
            {
                Question::between(q.board, start, end).to_string()
            }
            (Some(start), _) if q.board.contains(start) => {
                Question::from_start(q.board, start, q.kind).to_string()
            }
            _ => Question::total(q.board, q.kind).to_string(),
        };
        problems.push(format!(
            "stored {count} under a key that is not canonical (the store keeps this question as {canonical}), so no look-up finds it"
        ));
        return problems;
    }
    if let Err(fault) = provenance::check_engine(&q, engine) {
        problems.push(format!("stored {count}: {fault}"));
    }
    if let Err(why) = trust::check_count(&q, count) {
        problems.push(format!("stored {count}, {why}"));
    } else if let Some(why) = beyond_every_engine(&q) {
        problems.push(format!(
            "stored {count}, but no engine of this knights counts it ({why}): nothing stands behind it"
        ));
    }
    if let Err(why) = provenance::check_seconds(answer.seconds) {
        problems.push(format!("stored with {why}"));
    }
    if let Err(why) = check_utc_timestamp(answer.computed_at.as_deref().unwrap_or("")) {
        problems.push(format!("stored with {why}"));
    }
    problems
}

/// Recounts the answers no theorem decides, board by board, cheapest first, until `budget` is
/// spent; adds a problem for every count the engines disagree with.
fn recount(
    answers: &[Answer],
    budget: Duration,
    settings: &Settings,
    report: &mut VerifyReport,
) -> Result<(), Error> {
    let mut boards: BTreeMap<(u64, Board, TourKind), Vec<&Answer>> = BTreeMap::new();
    for answer in answers {
        let q = answer.question;
        if !q.is_canonical() {
            continue;
        }
        if no_tour_for(&q).is_some() {
            report.decided += 1;
        } else if beyond_every_engine(&q).is_none() {
            boards
                .entry((q.board.squares(), q.board, q.kind))
                .or_default()
                .push(answer);
        }
    }
    let candidates: usize = boards.values().map(Vec::len).sum();
    let deadline = Instant::now() + budget;
    let stop = CancelFlag::new();
    let finished = AtomicBool::new(false);
    let engines = Settings {
        engine: EngineChoice::Auto,
        memory: settings.memory,
        halves: settings.halves.clone(),
        rows: settings.rows,
        one_at_a_time: settings.one_at_a_time,
        cancel: stop.clone(),
        threads: settings.threads.clone(),
    };
    std::thread::scope(|scope| {
        // Stops the engines at the deadline, or at Ctrl-C.
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if settings.cancel.is_cancelled() || Instant::now() >= deadline {
                    stop.cancel();
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        for group in boards.values() {
            if stop.is_cancelled() {
                break;
            }
            let questions: Vec<Question> = group.iter().map(|a| a.question).collect();
            let Ok(resolution) = resolve::resolve(&questions, None, &engines, &mut |_| {}) else {
                // Stopped at the deadline, or an engine's limit (its memory budget): left.
                continue;
            };
            for answer in group {
                report.recounted += 1;
                let recounted = &resolution.answers[&answer.question];
                if recounted.count != answer.count {
                    let why = Contradiction::Recount {
                        by: resolution.recounted_by(recounted),
                        count: recounted.count.clone(),
                    };
                    report.problems.push(Problem {
                        question: Some(answer.question),
                        detail: format!("stored {}, {why}", answer.count),
                    });
                }
            }
        }
        finished.store(true, Ordering::Relaxed);
    });
    report.not_recounted = candidates - report.recounted;
    settings.cancel.check()
}
