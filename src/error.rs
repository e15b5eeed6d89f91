//! The library's error type. It wraps the errors of the modules below it (board, question,
//! input, store, memory) and adds the failures of the work itself.

use crate::board::{Board, BoardError};
use crate::input::InputError;
use crate::memory::{SizeError, human_bytes};
use crate::question::PairError;
use crate::store::StoreError;

/// Everything that can go wrong in the library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A board or square that is not allowed.
    #[error(transparent)]
    Board(#[from] BoardError),

    /// Two squares that make no question between two squares.
    #[error(transparent)]
    Pair(#[from] PairError),

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

    /// A board whose short side is wider than an engine takes.
    #[error("the {board} board has a short side of {}; the {engine} engine takes a short side of at most {max_width}", board.rows().min(board.cols()))]
    BoardTooWide {
        /// The board.
        board: Board,
        /// The engine's limit.
        max_width: u32,
        /// The engine's name.
        engine: &'static str,
    },

    /// A board that no engine can count: too many squares for the memo engine, too wide for
    /// the frontier engine.
    #[error("the {board} board is beyond every engine: it has {} squares (the memo engine takes at most {max_squares}) and a short side of {} (the frontier engine takes at most {max_width})", board.squares(), board.rows().min(board.cols()))]
    BeyondEngines {
        /// The board.
        board: Board,
        /// The memo engine's limit.
        max_squares: u64,
        /// The frontier engine's limit.
        max_width: u32,
    },

    /// Counts from one square of a board that no engine gives on one machine.
    #[error(
        "counts from one square of the {board} board are beyond one machine (no engine here would finish them); what it can count on this board: its closed tours (--closed), and tours between two squares (--to ROW2 COL2), which `knights shards plan {} {}` lists as shards for many machines", board.rows(), board.cols()
    )]
    BeyondOneMachine {
        /// The board.
        board: Board,
    },

    /// A count that does not fit in 128 bits. Never wrapped or rounded: the count is refused.
    #[error("the count on the {board} board does not fit in 128 bits")]
    Overflow {
        /// The board being counted.
        board: Board,
    },

    /// A layer of the frontier engine outgrew the memory budget.
    #[error("the frontier engine's layer reached {states} states ({}) at square {square} of the {board} board, over its memory budget of {}{}; allow more with --memory", human_bytes(*bytes), human_bytes(*budget), if *shared_by > 1 { format!(" (the {} budget shared by {shared_by} tasks)", human_bytes(budget * shared_by)) } else { String::new() })]
    MemoryBudget {
        /// The board (turned so that rows are the short side).
        board: Board,
        /// The square being processed, in row-major order.
        square: usize,
        /// States in the layer when it stopped.
        states: u64,
        /// Bytes its maps held.
        bytes: u64,
        /// The engine's budget in bytes.
        budget: u64,
        /// How many tasks shared the whole budget equally (1: the engine had all of it).
        shared_by: u64,
    },

    /// A tour of the board would need more memory than the budget allows.
    #[error("a tour of the {board} board ({} squares) needs about {} of memory, over the budget of {}; allow more with --memory", board.squares(), human_bytes(*needed), human_bytes(*budget))]
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
    #[error(transparent)]
    InvalidMemorySize(#[from] SizeError),

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
                | Error::Pair(_)
                | Error::BoardTooLarge { .. }
                | Error::BoardTooWide { .. }
                | Error::BeyondEngines { .. }
                | Error::BeyondOneMachine { .. }
                | Error::TourTooLarge { .. }
                | Error::Input(_)
                | Error::InvalidMemorySize(_)
                | Error::Unsupported(_)
                | Error::Store(
                    StoreError::NotADatabase { .. }
                        | StoreError::NotAFile { .. }
                        | StoreError::Foreign { .. }
                        | StoreError::NewerSchema { .. }
                        | StoreError::MissingDirectory { .. }
                )
        )
    }
}
