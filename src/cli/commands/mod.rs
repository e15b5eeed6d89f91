//! One file per command: its arguments, its help text and its `run`.

pub mod batch;
pub mod completions;
pub mod count;
pub mod export;
pub mod import;
pub mod man;
pub mod precompute;
pub mod puzzle;
pub mod query;
pub mod series;
pub mod serve;
pub mod shards;
pub mod solve;
pub mod tour;
pub mod verify;
