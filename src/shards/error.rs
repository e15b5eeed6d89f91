//! Why the shards' work is refused: the module's own error, outside the library's
//! [`crate::Error`] (as the server's [`crate::serve::ServeError`] is), which it wraps for the
//! failures of the layers below (the store, the engines, the plan file, the gate). The
//! messages say what is wrong and what to change in the plan's or the workers' terms; a front
//! end adds the names of its own options.

use num_bigint::BigUint;

use super::Shard;
use crate::board::Board;
use crate::error::Error;

/// Why a plan, a worker's share or a merge of shards is refused.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// A split by pair of a board of one square.
    #[error(
        "{0} cannot be split by pair: its one tour starts and ends on its one square, which is no pair of squares"
    )]
    NoPairs(Board),
    /// A plan that would list more shards than a plan may hold.
    #[error(
        "the {board} board by {split} would have at least {least} shards; a plan holds at most {most}",
        most = super::MAX_SHARDS
    )]
    TooManyShards {
        /// The board.
        board: Board,
        /// The split asked for.
        split: super::Split,
        /// The fewest shards its plan could have.
        least: u64,
    },
    /// A number of copies of each shard out of range.
    #[error("a plan gives each shard to 1 to {most} workers, not {given}", most = super::MAX_REPLICAS, given = .0)]
    Replicas(u32),
    /// Worker numbers that do not fit the plan.
    #[error("{}", workers_message(*worker, *workers, *replicas))]
    Workers {
        /// The worker's number.
        worker: u64,
        /// How many workers there are.
        workers: u64,
        /// How many workers compute each shard.
        replicas: u32,
    },
    /// Shards that the stores do not have (in as many copies as the plan asks).
    #[error(
        "{missing} of the plan's {shards} shards are {}: {ids}; nothing was stored",
        if *replicas == 1 { "in none of the stores".to_string() } else { format!("not in {replicas} of the stores (each is computed by {replicas} workers)") }
    )]
    Missing {
        /// How many.
        missing: usize,
        /// The plan's shards.
        shards: usize,
        /// The first few ids and how many more.
        ids: String,
        /// The copies of each shard the plan asks for.
        replicas: u32,
    },
    /// A shard that two stores give different counts for.
    #[error("{0}; nothing was stored")]
    Conflict(Box<ShardConflict>),
    /// Two of the stores given are one file (a link, or one name twice), where each shard
    /// must come from as many different workers as the plan's replicas.
    #[error(
        "{first} and {second} are one file: the plan gives each shard to {replicas} different workers, so each store must be another worker's; nothing was stored"
    )]
    SameStore {
        /// The first name.
        first: String,
        /// The other name of the same file.
        second: String,
        /// The copies of each shard the plan asks for.
        replicas: u32,
    },
    /// Two stores whose every shared shard is one computation (the same time and seconds): a
    /// copied store, which is no second worker's.
    #[error("{0}; nothing was stored")]
    CopiedStore(Box<ShardCopy>),
    /// A start that the sum of its pairs contradicts (a plan by both).
    #[error("{0}; nothing was stored")]
    Sums(Box<ShardSums>),
    /// A failure of the library below the shards (the store, the engines, the plan file, the
    /// gate of answers entering a store).
    #[error(transparent)]
    Library(#[from] Error),
}

/// The message of [`ShardError::Workers`].
fn workers_message(worker: u64, workers: u64, replicas: u32) -> String {
    if workers == 0 {
        "there must be at least one worker".to_string()
    } else if workers < u64::from(replicas) {
        format!(
            "the plan gives each shard to {replicas} different workers, and there are {workers}: there must be at least {replicas}"
        )
    } else {
        format!(
            "worker {worker} is not one of the {workers} workers: they are numbered 0 to {}",
            workers - 1
        )
    }
}

impl ShardError {
    /// Shards that the stores do not have: `ids` are the first few, as [`super::abbreviate`]
    /// gives them.
    pub(crate) fn missing(missing: usize, shards: usize, ids: String, replicas: u32) -> Self {
        ShardError::Missing {
            missing,
            shards,
            ids,
            replicas,
        }
    }

    /// A shard whose count in `second` differs from its count in `first`.
    pub(crate) fn conflict(
        shard: &Shard,
        first: (&str, &BigUint),
        second: (&str, &BigUint),
    ) -> Self {
        ShardError::Conflict(Box::new(ShardConflict {
            id: shard.id.clone(),
            question: shard.question.to_string(),
            first: first.0.to_string(),
            first_count: first.1.to_string(),
            second: second.0.to_string(),
            second_count: second.1.to_string(),
        }))
    }

    /// The library's error inside, if that is what this is.
    pub fn library(&self) -> Option<&Error> {
        match self {
            ShardError::Library(e) => Some(e),
            _ => None,
        }
    }

    /// True when the error is the user's input being wrong (exit code 2 on the command line):
    /// a plan or workers that do not fit, stores that contradict each other or themselves (as
    /// an import of them would be refused). Shards not computed yet are work not done (1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            ShardError::Missing { .. } => false,
            ShardError::NoPairs(_)
            | ShardError::TooManyShards { .. }
            | ShardError::Replicas(_)
            | ShardError::Workers { .. }
            | ShardError::Conflict(_)
            | ShardError::SameStore { .. }
            | ShardError::CopiedStore(_)
            | ShardError::Sums(_) => true,
            ShardError::Library(e) => e.is_bad_input(),
        }
    }
}

/// A shard that two stores give different counts for.
#[derive(Debug, thiserror::Error)]
#[error("shard {id} ({question}) is {first_count} in {first} but {second_count} in {second}")]
pub struct ShardConflict {
    /// The shard's id.
    pub id: String,
    /// Its question.
    pub question: String,
    /// The first store that has it.
    pub first: String,
    /// Its count there.
    pub first_count: String,
    /// The store that disagrees.
    pub second: String,
    /// Its count there.
    pub second_count: String,
}

/// Two stores of which one is a copy of the other.
#[derive(Debug, thiserror::Error)]
#[error(
    "{first} and {second} hold the same computations (shard {id}, {question}, computed at {computed_at} in {seconds} s, and every other shard both hold): a copy of a store is not another worker's"
)]
pub struct ShardCopy {
    /// The first store.
    pub first: String,
    /// The store that holds the same computations.
    pub second: String,
    /// The first shard both hold.
    pub id: String,
    /// Its question.
    pub question: String,
    /// When it was computed.
    pub computed_at: String,
    /// Its seconds of computation.
    pub seconds: f64,
}

/// A start shard whose count differs from the sum of its pairs' shards (a plan by both).
#[derive(Debug, thiserror::Error)]
#[error(
    "shard {id} ({question}) is {count} in {store}, but its pairs (the shards by pair) add up to {sum}"
)]
pub struct ShardSums {
    /// The start shard's id.
    pub id: String,
    /// Its question.
    pub question: String,
    /// Its count.
    pub count: String,
    /// The store it came from.
    pub store: String,
    /// The sum of its pairs.
    pub sum: String,
}
