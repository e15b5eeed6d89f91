//! Helpers shared by the integration tests.

use std::path::PathBuf;

use knights::count::memo::MemoCounter;
use knights::{Board, CancelFlag, MemoryBudget};

/// A memo engine for `rows × cols` with the default budget.
pub fn memo(rows: u32, cols: u32) -> MemoCounter {
    MemoCounter::new(
        Board::new(rows, cols).unwrap(),
        MemoryBudget::DEFAULT,
        CancelFlag::new(),
    )
    .unwrap()
}

/// A file of `tests/data/`.
pub fn data_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// The `knights` binary built for these tests.
pub fn knights() -> assert_cmd::Command {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_knights"))
}
