//! Counting one board on many machines: a plan of independent shards, workers that each
//! compute their share into a store of their own, and a merge that checks and adds them up.
//!
//! A board's per-square table of open tours (and so its directed total) is a weighted sum of
//! independent questions: one per symmetry class of start squares ([`Split::Start`], weights
//! summing to the board's squares), or one per class of ordered (start, end) pairs
//! ([`Split::Pair`], weights summing to squares × (squares − 1)); [`Split::Both`] holds both
//! sets of the same board, so that the merge checks every start against the sum of its pairs:
//! two different computations of one count. A [`Plan`] lists the questions as shards with
//! stable ids; [`Plan::for_worker`] deals them out to workers (by the shard's place in the
//! plan modulo the workers), so any scheduler that hands out the numbers 0..N−1 can run them.
//! With [`Plan::replicas`] above 1, each shard goes to that many different workers, and the
//! merge takes a shard only where its copies agree: a count that no one else has published
//! is trusted because it was computed twice.
//!
//! `merge.rs` checks what the workers' stores hold, sums it and stores it through the gate
//! every answer entering a store passes ([`crate::resolve::admit`]); `file.rs` writes and
//! reads plans; `error.rs` holds [`ShardError`]. The plan is recomputed from its board, split
//! and replicas whenever one is read: a plan file is only trusted where it agrees with that,
//! so an edited or truncated file is refused, never merged.

mod error;
mod file;
mod merge;
pub mod worker;

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::count::frontier::{self, relative_cost};
use crate::error::Error;
use crate::existence::no_tour_for;
use crate::graph::MAX_BITSET_SQUARES;
use crate::question::{Question, Shape, TourKind};
use crate::resolve::{self, Engine, Progress, Settings, beyond_one_machine};
use crate::store::Store;

pub use error::{ShardConflict, ShardCopy, ShardError, ShardSums};
pub use file::{PlanFormat, read_plan, write_plan};
pub use merge::{Merged, ShardStatus, StoreAnswers, merge, merge_into, status};

/// The version of the plan format and of its shard ids. Ids of a board and split never change
/// within a version; a new version would be read as such and refused by older builds.
pub const PLAN_VERSION: u32 = 1;

/// How many ids an error or a status line names before it says how many more there are.
pub const IDS_SHOWN: usize = 5;

/// The most shards a plan may hold: some 9 MB of plan file. A plan is listed in memory
/// before it is written or checked, so a larger one is refused before it is listed.
pub const MAX_SHARDS: u64 = 100_000;

/// The most copies of each shard a plan may ask for.
pub const MAX_REPLICAS: u32 = 9;

/// How a board is split into shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// One shard per symmetry class of start squares.
    Start,
    /// One shard per class of ordered (start, end) pairs, under the symmetries and reversal.
    Pair,
    /// The shards by start, then the shards by pair, of the same board.
    Both,
}

impl Split {
    /// The name in plan files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Split::Start => "start",
            Split::Pair => "pair",
            Split::Both => "both",
        }
    }

    /// The split `knights shards plan` uses unless told: by start, except on boards whose
    /// counts from one square are beyond one machine ([`beyond_one_machine`], e.g. 8x8), where
    /// a plan by start could not be run; pairs are not subject to that limit (each is one
    /// bounded search), so those boards are split by pair.
    pub fn default_for(board: Board) -> Split {
        if beyond_one_machine(board) {
            Split::Pair
        } else {
            Split::Start
        }
    }

    /// The splits whose shards a plan of this split holds, in order.
    const fn parts(self) -> &'static [Split] {
        match self {
            Split::Start => &[Split::Start],
            Split::Pair => &[Split::Pair],
            Split::Both => &[Split::Start, Split::Pair],
        }
    }

    /// The letter of the shard ids: `s` or `p`.
    const fn letter(self) -> char {
        match self {
            Split::Pair => 'p',
            Split::Start | Split::Both => 's',
        }
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Split {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        [Split::Start, Split::Pair, Split::Both]
            .into_iter()
            .find(|split| split.name() == name)
            .ok_or_else(|| {
                format!(
                    "unknown split '{}' (known: start, pair, both)",
                    crate::echo::echo(name)
                )
            })
    }
}

/// One shard: a canonical question and the squares or pairs of the board it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// `BOARD-sN` or `BOARD-pN` (the canonical board, e.g. `6x7-s3`): N is the shard's place
    /// among the shards of its split, which orders the questions by their squares.
    pub id: String,
    /// The canonical question: open tours from a start, or between two squares.
    pub question: Question,
    /// How many squares (by start) or ordered pairs (by pair) of the board share the question.
    pub weight: u64,
    /// Relative cost ([`crate::count::frontier::relative_cost`]), 0
    /// for a zero that the colour rule or another existence theorem decides. Only the ratios
    /// mean anything.
    pub estimate: u64,
}

/// The shards of one board and split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The board as asked (the table is printed in this orientation).
    pub board: Board,
    /// How it is split.
    pub split: Split,
    /// How many different workers compute each shard (1: one each).
    pub replicas: u32,
    /// The shards, in id order (by start before by pair).
    pub shards: Vec<Shard>,
}

impl Plan {
    /// The plan of `board` split by `split`, one copy of each shard. The questions are sorted
    /// (by start square, then end square, on the canonical board), which fixes the ids.
    ///
    /// A board of one square cannot be split by pair: its one tour starts and ends on the same
    /// square, so no pair of two squares stands for it and the pairs would add up to 0.
    ///
    /// A board that no engine counts, or whose plan would hold more than [`MAX_SHARDS`]
    /// shards, is refused before anything is listed (a header may claim any board).
    pub fn new(board: Board, split: Split) -> Result<Plan, ShardError> {
        if split != Split::Start && board.squares() < 2 {
            return Err(ShardError::NoPairs(board));
        }
        check_size(board, split)?;
        let canonical = board.canonical();
        let mut shards = Vec::new();
        for &part in split.parts() {
            let mut questions = match part {
                Split::Pair => Question::pairs_of_board(board),
                _ => Question::starts_of_board(board, TourKind::Open),
            };
            questions.sort_by_key(|(q, _)| (q.start, q.end));
            shards.extend(
                questions
                    .into_iter()
                    .enumerate()
                    .map(|(index, (question, weight))| Shard {
                        id: format!("{canonical}-{}{index}", part.letter()),
                        question,
                        weight,
                        // The resolver answers these zeros by the same theorems, without a search.
                        estimate: match (no_tour_for(&question), question.shape()) {
                            (None, Shape::Start(start)) => relative_cost(canonical, start, None),
                            (None, Shape::Between(start, end)) => {
                                relative_cost(canonical, start, Some(end))
                            }
                            _ => 0,
                        },
                    }),
            );
        }
        Ok(Plan {
            board,
            split,
            replicas: 1,
            shards,
        })
    }

    /// The same plan with each shard given to `replicas` different workers (1 to
    /// [`MAX_REPLICAS`]).
    pub fn with_replicas(self, replicas: u32) -> Result<Plan, ShardError> {
        if !(1..=MAX_REPLICAS).contains(&replicas) {
            return Err(ShardError::Replicas(replicas));
        }
        Ok(Plan { replicas, ..self })
    }

    /// What the weights must add up to: the board's squares (by start), its ordered pairs of
    /// distinct squares (by pair), or both.
    pub fn expected_weight(&self) -> u64 {
        let squares = self.board.squares();
        self.split
            .parts()
            .iter()
            .map(|part| match part {
                Split::Pair => squares * (squares - 1),
                _ => squares,
            })
            .sum()
    }

    /// The shard with this id.
    pub fn shard(&self, id: &str) -> Option<&Shard> {
        self.shards.iter().find(|shard| shard.id == id)
    }

    /// The workers that compute the shard at `place` in the plan, out of `workers`: copy `c`
    /// (from 0 to the replicas) goes to worker `(place + c · ⌊workers / replicas⌋) mod
    /// workers`, so that the copies of a shard go to different workers, as far apart in
    /// their numbers as they can be (an array job's neighbours often share a machine).
    pub fn workers_of(&self, place: usize, workers: u64) -> impl Iterator<Item = u64> + use<> {
        let replicas = u64::from(self.replicas);
        let step = (workers / replicas.max(1)).max(1);
        (0..replicas).map(move |copy| (place as u64 + copy * step) % workers.max(1))
    }

    /// The shards of worker `worker` of `workers` ([`Plan::workers_of`]): every shard belongs
    /// to exactly [`Plan::replicas`] workers, whatever runs them.
    pub fn for_worker(&self, worker: u64, workers: u64) -> Result<Vec<&Shard>, ShardError> {
        if workers == 0 || worker >= workers || workers < u64::from(self.replicas) {
            return Err(ShardError::Workers {
                worker,
                workers,
                replicas: self.replicas,
            });
        }
        Ok(self
            .shards
            .iter()
            .enumerate()
            .filter(|(place, _)| self.workers_of(*place, workers).any(|w| w == worker))
            .map(|(_, shard)| shard)
            .collect())
    }
}

/// Refuses, before anything is listed, a plan of a board that no engine counts (its shards
/// could never be run) or of more than [`MAX_SHARDS`] shards.
fn check_size(board: Board, split: Split) -> Result<(), ShardError> {
    if Engine::Memo.check(board).is_err() && Engine::Frontier.check(board).is_err() {
        return Err(Error::BeyondEngines {
            board,
            max_squares: MAX_BITSET_SQUARES,
            max_width: frontier::MAX_WIDTH,
        }
        .into());
    }
    // A class of squares holds at most one square per symmetry of the board, and a class of
    // pairs at most two ordered pairs (a pair and its reverse) per symmetry.
    let squares = u128::from(board.squares());
    let symmetries = if board.is_square() { 8 } else { 4 };
    let least = split
        .parts()
        .iter()
        .map(|part| match part {
            Split::Pair => (squares * (squares - 1)).div_ceil(2 * symmetries),
            _ => squares.div_ceil(symmetries),
        })
        .sum::<u128>();
    if least > u128::from(MAX_SHARDS) {
        return Err(ShardError::TooManyShards {
            board,
            split,
            least: u64::try_from(least).unwrap_or(u64::MAX),
        });
    }
    Ok(())
}

/// What a worker's run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Shards computed now.
    pub computed: usize,
    /// Shards the store already had.
    pub skipped: usize,
}

/// Computes `shards` into `store`, through [`resolve::resolve`]: what the store has is skipped,
/// every answer is saved as it arrives, and an interruption keeps what was finished, so a run
/// can be repeated until it computes nothing.
pub fn run(
    shards: &[&Shard],
    store: &mut Store,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<RunReport, Error> {
    let questions: Vec<Question> = shards.iter().map(|shard| shard.question).collect();
    resolve::check_engines(&questions, settings)?;
    let resolution = resolve::resolve(&questions, Some(store), settings, progress)?;
    let skipped = questions
        .iter()
        .filter(|q| resolution.from_store.contains(q))
        .count();
    Ok(RunReport {
        computed: questions.len() - skipped,
        skipped,
    })
}

/// `ids` for a message: the first [`IDS_SHOWN`], then how many more.
pub fn abbreviate(ids: &[&str]) -> String {
    let shown = ids[..ids.len().min(IDS_SHOWN)].join(", ");
    match ids.len().saturating_sub(IDS_SHOWN) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn plans_cover_the_board_once() {
        for (rows, cols) in [(5, 5), (6, 6), (6, 7), (3, 4), (4, 4), (1, 1)] {
            let board = Board::new(rows, cols).unwrap();
            for split in [Split::Start, Split::Pair, Split::Both] {
                let Ok(plan) = Plan::new(board, split) else {
                    // Its one tour is no pair of squares.
                    assert_eq!(board.squares(), 1);
                    assert_ne!(split, Split::Start);
                    continue;
                };
                let weights: u64 = plan.shards.iter().map(|s| s.weight).sum();
                assert_eq!(weights, plan.expected_weight(), "{board} by {split}");
                let mut ids: Vec<&str> = plan.shards.iter().map(|s| s.id.as_str()).collect();
                ids.dedup();
                assert_eq!(ids.len(), plan.shards.len());
            }
        }
    }

    /// Boards no engine counts, and plans past [`MAX_SHARDS`], are refused before anything
    /// is listed (a 100000x100000 board by start would list 10^10 squares).
    #[test]
    fn plans_past_the_engines_or_the_size_are_refused_at_once() {
        for (rows, cols, split) in [
            (100_000, 100_000, Split::Start),
            (10, 10, Split::Start),
            (1000, 1000, Split::Start),
            (300, 300, Split::Pair),
            (100, 100, Split::Pair),
        ] {
            let board = Board::new(rows, cols).unwrap();
            assert!(
                matches!(
                    Plan::new(board, split),
                    Err(ShardError::Library(Error::BeyondEngines { .. }))
                ),
                "{board}"
            );
        }
        let long = Board::new(8, 100_000).unwrap();
        assert!(matches!(
            Plan::new(long, Split::Pair),
            Err(ShardError::TooManyShards { .. })
        ));
        let err = Plan::new(long, Split::Start).unwrap_err().to_string();
        assert_eq!(
            err,
            "the 8x100000 board by start would have at least 200000 shards; a plan holds at most 100000"
        );
        // Within both: a long board of the frontier engine, the memo engine's 3x23.
        assert!(Plan::new(Board::new(3, 200).unwrap(), Split::Pair).is_ok());
        assert!(Plan::new(Board::new(3, 23).unwrap(), Split::Both).is_ok());
    }

    /// Ids are part of the plan format: these must never change within a version.
    #[test]
    fn ids_are_stable() {
        let plan = Plan::new(Board::new(7, 6).unwrap(), Split::Start).unwrap();
        assert_eq!(plan.shards.len(), 12);
        assert_eq!(plan.shards[0].id, "6x7-s0");
        assert_eq!(plan.shards[0].question.start, Some(Square::new(0, 0)));
        assert_eq!(plan.shards[3].id, "6x7-s3");
        assert_eq!(plan.shards[3].question.start, Some(Square::new(0, 3)));
        let pairs = Plan::new(Board::new(5, 5).unwrap(), Split::Pair).unwrap();
        assert_eq!(pairs.shards[1].id, "5x5-p1");
        assert_eq!(pairs.shards[1].question.start, Some(Square::new(0, 0)));
        assert_eq!(pairs.shards[1].question.end, Some(Square::new(0, 2)));
    }

    /// The 8x8 plans docs/many-machines.md describes; pairs are the default where starts are beyond one
    /// machine.
    #[test]
    fn eight_by_eight_plans() {
        let board = Board::new(8, 8).unwrap();
        let pairs = Plan::new(board, Split::Pair).unwrap();
        assert_eq!(pairs.shards.len(), 278);
        assert_eq!(pairs.shards.iter().filter(|s| s.estimate > 0).count(), 136);
        let starts = Plan::new(board, Split::Start).unwrap();
        assert_eq!(starts.shards.len(), 10);
        // A worker's share of pairs is not refused where its starts would be.
        let questions = |plan: &Plan| plan.shards.iter().map(|s| s.question).collect::<Vec<_>>();
        let settings = Settings::default();
        assert!(resolve::check_engines(&questions(&pairs), &settings).is_ok());
        assert!(resolve::check_engines(&questions(&starts), &settings).is_err());
        assert_eq!(Split::default_for(board), Split::Pair);
        // 7x8's starts meet in the middle on one machine; 7x9's are not measured.
        assert_eq!(Split::default_for(Board::new(8, 7).unwrap()), Split::Start);
        assert_eq!(Split::default_for(Board::new(7, 9).unwrap()), Split::Pair);
        assert_eq!(Split::default_for(Board::new(6, 7).unwrap()), Split::Start);
    }

    /// A zero that the colour rule decides costs nothing; every worker gets its own shards.
    #[test]
    fn colour_zeros_and_workers() {
        let plan = Plan::new(Board::new(5, 5).unwrap(), Split::Pair).unwrap();
        let first = &plan.shards[0];
        assert_eq!(
            (first.question.start, first.question.end),
            (Some(Square::new(0, 0)), Some(Square::new(0, 1)))
        );
        assert_eq!(first.estimate, 0);
        assert!(plan.shards[1].estimate > 0);
        let mut dealt: Vec<&str> = (0..3)
            .flat_map(|w| plan.for_worker(w, 3).unwrap())
            .map(|s| s.id.as_str())
            .collect();
        dealt.sort();
        assert_eq!(dealt.len(), plan.shards.len());
        dealt.dedup();
        assert_eq!(dealt.len(), plan.shards.len());
        assert!(plan.for_worker(3, 3).is_err());
        assert!(plan.for_worker(0, 0).is_err());
    }

    /// By both: the shards by start (ids `s`), then by pair (ids `p`), each as in its own
    /// plan; their weights add up to squares + ordered pairs.
    #[test]
    fn both_holds_the_two_plans() {
        let board = Board::new(5, 6).unwrap();
        let both = Plan::new(board, Split::Both).unwrap();
        let starts = Plan::new(board, Split::Start).unwrap();
        let pairs = Plan::new(board, Split::Pair).unwrap();
        assert_eq!(both.shards.len(), starts.shards.len() + pairs.shards.len());
        assert_eq!(both.shards[..starts.shards.len()], starts.shards[..]);
        assert_eq!(both.shards[starts.shards.len()..], pairs.shards[..]);
        assert_eq!(both.expected_weight(), 30 * 30);
    }

    /// With replicas, every shard goes to that many different workers; fewer workers than
    /// replicas are refused.
    #[test]
    fn replicas_go_to_different_workers() {
        let plan = Plan::new(Board::new(6, 6).unwrap(), Split::Pair)
            .unwrap()
            .with_replicas(2)
            .unwrap();
        for workers in [2u64, 3, 4, 7] {
            let mut holders: Vec<Vec<u64>> = vec![Vec::new(); plan.shards.len()];
            for worker in 0..workers {
                for shard in plan.for_worker(worker, workers).unwrap() {
                    let place = plan.shards.iter().position(|s| s == shard).unwrap();
                    holders[place].push(worker);
                }
            }
            for workers_of_shard in holders {
                assert_eq!(workers_of_shard.len(), 2, "{workers} workers");
                assert_ne!(workers_of_shard[0], workers_of_shard[1]);
            }
        }
        assert!(matches!(
            plan.for_worker(0, 1),
            Err(ShardError::Workers { replicas: 2, .. })
        ));
        assert!(plan.clone().with_replicas(0).is_err());
        assert!(plan.with_replicas(MAX_REPLICAS + 1).is_err());
    }
}
