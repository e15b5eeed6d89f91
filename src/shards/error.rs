//! Why the shards' work is refused: the module's own error, outside the library's
//! [`crate::Error`] (as the server's [`crate::serve::ServeError`] is), which it wraps for the
//! failures of the layers below (the store, the engines, the plan file).

use crate::error::Error;

/// Why a merge, a run or a plan of shards is refused.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// Shards that no store has.
    #[error(
        "{missing} of the plan's {shards} shards are in none of the stores: {ids}; nothing was stored"
    )]
    Missing {
        /// How many.
        missing: usize,
        /// The plan's shards.
        shards: usize,
        /// The first few ids and how many more.
        ids: String,
    },
    /// A shard that two stores give different counts for.
    #[error("{0}; nothing was stored")]
    Conflict(Box<ShardConflict>),
    /// A failure of the library below the shards (the store, the engines, the plan file).
    #[error(transparent)]
    Library(#[from] Error),
}

impl ShardError {
    /// Shards that no store has: `ids` are the first few, as [`super::abbreviate`] gives them.
    pub(crate) fn missing(missing: usize, shards: usize, ids: String) -> Self {
        ShardError::Missing {
            missing,
            shards,
            ids,
        }
    }

    /// A shard whose count in `second` differs from its count in `first`.
    pub(crate) fn conflict(
        shard: &super::Shard,
        first: (&str, &num_bigint::BigUint),
        second: (&str, &num_bigint::BigUint),
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
