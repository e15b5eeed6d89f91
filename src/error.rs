//! The library's error type. It wraps the errors of the modules below it (board, input, store)
//! and adds the failures of the work itself.

use crate::board::{Board, BoardError};
use crate::input::InputError;
use crate::store::StoreError;

/// Everything that can go wrong in the library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A board or square that is not allowed.
    #[error(transparent)]
    Board(#[from] BoardError),

    /// A board with more squares than an engine can handle.
    #[error("the {board} board has {} squares; the {engine} engine handles at most {max_squares}", board.squares())]
    BoardTooLarge {
        /// The board.
        board: Board,
        /// The engine's limit.
        max_squares: u64,
        /// The engine's name.
        engine: &'static str,
    },

    /// A count that does not fit in 128 bits. Never wrapped or rounded: the count is refused.
    #[error("the count on the {board} board does not fit in 128 bits")]
    Overflow {
        /// The board being counted.
        board: Board,
    },

    /// A layer of the frontier engine outgrew the memory budget.
    #[error("the frontier engine's layer reached {states} states ({:.1} GiB) at square {square} of the {board} board, over the memory budget of {:.1} GiB; allow more with --memory", *bytes as f64 / (1u64 << 30) as f64, *budget as f64 / (1u64 << 30) as f64)]
    MemoryBudget {
        /// The board (turned so that rows are the short side).
        board: Board,
        /// The square being processed, in row-major order.
        square: usize,
        /// States in the layer when it stopped.
        states: u64,
        /// Bytes its maps held.
        bytes: u64,
        /// The budget in bytes.
        budget: u64,
    },

    /// A tour of the board would need more memory than the budget allows.
    #[error("a tour of the {board} board ({} squares) needs about {:.1} GiB of memory, over the budget of {:.1} GiB; allow more with --memory", board.squares(), *needed as f64 / (1u64 << 30) as f64, *budget as f64 / (1u64 << 30) as f64)]
    TourTooLarge {
        /// The board.
        board: Board,
        /// The estimated bytes.
        needed: u64,
        /// The budget in bytes.
        budget: u64,
    },

    /// The work was interrupted (Ctrl-C) before it finished.
    #[error("interrupted")]
    Interrupted,

    /// Malformed input, with the place where it is wrong.
    #[error(transparent)]
    Input(#[from] InputError),

    /// The answer store failed or refused a file.
    #[error(transparent)]
    Store(#[from] StoreError),

    /// An answer in the store contradicts what is known of it (a theorem, parity, the bound of
    /// the board, its starts): it was changed outside knights, or the file is damaged. Never
    /// served.
    #[error(
        "{store} holds {stored} for {question}, but {why}: the store was changed outside knights or is damaged; run `knights verify`"
    )]
    Untrusted {
        /// The store's path.
        store: String,
        /// The question.
        question: String,
        /// The stored count.
        stored: String,
        /// What was expected, and why.
        why: String,
    },

    /// An output or option that does not apply to the question.
    #[error("{0}")]
    Unsupported(String),

    /// A memory size that could not be understood.
    #[error(
        "invalid memory size '{0}': use a number of bytes with an optional unit, e.g. 512M, 2G, 1.5GiB"
    )]
    InvalidMemorySize(String),

    /// A broken invariant of the library (a bug, not the user's input).
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// True when the error is the user's input being wrong (as opposed to the work failing):
    /// the command-line tool exits with code 2 for these.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Error::Board(_)
                | Error::BoardTooLarge { .. }
                | Error::TourTooLarge { .. }
                | Error::Input(_)
                | Error::InvalidMemorySize(_)
                | Error::Unsupported(_)
                | Error::Store(
                    StoreError::NotADatabase { .. }
                        | StoreError::Foreign { .. }
                        | StoreError::NewerSchema { .. }
                        | StoreError::MissingDirectory { .. }
                )
        )
    }
}
