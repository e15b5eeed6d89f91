//! The library's error type. It wraps the errors of the modules below it (board, question,
//! input, store, memory) and adds the failures of the work itself.

use std::fmt;

use crate::board::{Board, BoardError};
use crate::input::InputError;
use crate::memory::{SizeError, human_bytes};
use crate::question::BetweenError;
use crate::store::StoreError;

/// Everything that can go wrong in the library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A board or square that is not allowed.
    #[error(transparent)]
    Board(#[from] BoardError),

    /// Two squares that make no question between two squares.
    #[error(transparent)]
    Between(#[from] BetweenError),

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

    /// Counts from one square of a board, or its open total, that no engine gives on one
    /// machine. What can be counted instead is its [`Remedy`].
    #[error(
        "{} of the {board} board {} beyond one machine (no engine here would finish {})",
        if *total { "the open total" } else { "counts from one square" },
        if *total { "is" } else { "are" },
        if *total { "it" } else { "them" }
    )]
    BeyondOneMachine {
        /// The board.
        board: Board,
        /// The open total (else counts from one square).
        total: bool,
    },

    /// A count that does not fit in 128 bits. Never wrapped or rounded: the count is refused.
    #[error("the count on the {board} board does not fit in 128 bits")]
    Overflow {
        /// The board being counted.
        board: Board,
    },

    /// A layer of the frontier engine outgrew the memory budget (its [`Remedy`]: more).
    #[error("the frontier engine's layer reached {states} {} ({}) at square {} of {} of the {board} board, over its memory budget of {}{}", if *states == 1 { "state" } else { "states" }, human_bytes(*bytes), square + 1, board.squares(), human_bytes(*budget), if *shared_by > 1 { format!(" (the {} budget shared by {shared_by} tasks)", human_bytes(budget * shared_by)) } else { String::new() })]
    MemoryBudget {
        /// The board: as the engine turned it (rows the short side), until
        /// [`Error::on_board`] names it as it was asked.
        board: Board,
        /// The square being processed, in the engine's order from 0 (said from 1, as the
        /// progress bar and `--layers` count squares).
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

    /// A tour of the board would need more memory than the budget allows (its [`Remedy`]:
    /// more).
    #[error("a tour of the {board} board ({} squares) needs about {} of memory, over the budget of {}", board.squares(), human_bytes(*needed), human_bytes(*budget))]
    TourTooLarge {
        /// The board.
        board: Board,
        /// The estimated bytes.
        needed: u64,
        /// The budget in bytes.
        budget: u64,
    },

    /// A search for a tour between two squares ran out of its time without deciding (its
    /// [`Remedy`]: more time). It does not mean that there is no such tour.
    #[error(
        "no tour from {start} to {end} on {board} was found in {seconds:.1} s: the search gave up (which does not mean there is none)"
    )]
    TourSearchGaveUp {
        /// The board.
        board: Board,
        /// The first square.
        start: crate::board::Square,
        /// The last square.
        end: crate::board::Square,
        /// Seconds searched.
        seconds: f64,
    },

    /// The work was interrupted (Ctrl-C) before it finished.
    #[error("interrupted")]
    Interrupted,

    /// Malformed input, with the place where it is wrong.
    #[error(transparent)]
    Input(#[from] InputError),

    /// The answer store failed or refused a file.
    #[error(transparent)]
    Store(StoreError),

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

    /// An error of one line of an input (a query that no engine can count, say).
    #[error("line {line}: {error}")]
    AtLine {
        /// The line (1-based).
        line: usize,
        /// What is wrong with it.
        error: Box<Error>,
    },

    /// A half kept on disk for the pairs that share it that cannot be read, or is not what its
    /// name says: never used, never changed.
    #[error("the saved half {path} {why}; delete it to have it computed again")]
    SavedHalf {
        /// The file.
        path: String,
        /// What is wrong with it.
        why: String,
    },

    /// A broken invariant of the library (a bug, not the user's input).
    #[error("internal error: {0}")]
    Internal(String),
}

/// What to change to get past an error, in the library's words; a front end names it in its
/// own terms (an option of the command line, a parameter of the server).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remedy {
    /// Allow the engines more memory.
    MoreMemory,
    /// Allow a search more time.
    MoreTime,
    /// Ask what can be counted on this board instead: its closed tours, and tours between two
    /// squares (which a plan of shards lists for many machines).
    OtherQuestions(Board),
}

impl fmt::Display for Remedy {
    /// The remedy in the library's words, for a message that no front end words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Remedy::MoreMemory => f.write_str("allow more memory"),
            Remedy::MoreTime => f.write_str("allow the search more time"),
            Remedy::OtherQuestions(_) => f.write_str(
                "what it can count on this board: its closed tours, and tours between two squares, which a plan of shards lists for many machines (their merge gives the board's open total and its per-square table)",
            ),
        }
    }
}

/// What sort of failure an error is, for a front end that words errors itself (the page):
/// one name per thing a user can do something about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is wrong (a parameter, a board, a square, a file).
    BadInput,
    /// No engine of this build counts the board.
    BeyondEngines,
    /// Counts from one square, or the open total, of a board no engine finishes on one
    /// machine: its closed tours and its pairs can be counted ([`Remedy::OtherQuestions`]).
    BeyondOneMachine,
    /// Over the memory budget.
    Memory,
    /// A search that ran out of its time without deciding.
    GaveUp,
    /// Stopped before it finished (what it finished is kept).
    Interrupted,
    /// The answer store failed or holds what cannot be trusted.
    Store,
    /// A bug.
    Internal,
}

impl ErrorKind {
    /// The kind's name, as the server sends it.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::BadInput => "bad_input",
            ErrorKind::BeyondEngines => "beyond_engines",
            ErrorKind::BeyondOneMachine => "beyond_one_machine",
            ErrorKind::Memory => "memory",
            ErrorKind::GaveUp => "gave_up",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::Store => "store",
            ErrorKind::Internal => "internal",
        }
    }
}

/// Why a question got no count, and what to change: an error made into a value that can be
/// kept beside the answers of the other questions (`knights batch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong, without the remedy.
    pub why: String,
    /// What to change.
    pub remedy: Option<Remedy>,
}

impl From<&Error> for Failure {
    fn from(error: &Error) -> Self {
        Failure {
            why: error.to_string(),
            remedy: error.remedy(),
        }
    }
}

impl fmt::Display for Failure {
    /// Why, then the remedy in the library's words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)?;
        if let Some(remedy) = self.remedy {
            write!(f, "; {remedy}")?;
        }
        Ok(())
    }
}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Error {
        match e {
            // A stop asked for is the same stop, whichever layer it reached.
            StoreError::Stopped => Error::Interrupted,
            e => Error::Store(e),
        }
    }
}

impl Error {
    /// The error with `board` (the board asked, the one the engine counted or its transpose)
    /// named as it was asked, not as the engine turned it.
    pub fn on_board(self, asked: Board) -> Error {
        match self {
            Error::MemoryBudget {
                board,
                square,
                states,
                bytes,
                budget,
                shared_by,
            } if board == asked || board.transposed() == asked => Error::MemoryBudget {
                board: asked,
                square,
                states,
                bytes,
                budget,
                shared_by,
            },
            other => other,
        }
    }

    /// What to change to get past this error, if the user can ([`Remedy`]).
    pub fn remedy(&self) -> Option<Remedy> {
        match self {
            Error::MemoryBudget { .. } | Error::TourTooLarge { .. } => Some(Remedy::MoreMemory),
            Error::TourSearchGaveUp { .. } => Some(Remedy::MoreTime),
            Error::BeyondOneMachine { board, .. } => Some(Remedy::OtherQuestions(*board)),
            Error::AtLine { error, .. } => error.remedy(),
            _ => None,
        }
    }

    /// What sort of failure this is ([`ErrorKind`]).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::AtLine { error, .. } => error.kind(),
            Error::BoardTooLarge { .. }
            | Error::BoardTooWide { .. }
            | Error::BeyondEngines { .. } => ErrorKind::BeyondEngines,
            Error::BeyondOneMachine { .. } => ErrorKind::BeyondOneMachine,
            Error::MemoryBudget { .. } | Error::TourTooLarge { .. } => ErrorKind::Memory,
            Error::TourSearchGaveUp { .. } => ErrorKind::GaveUp,
            Error::Interrupted => ErrorKind::Interrupted,
            Error::Store(_) | Error::Untrusted { .. } if !self.is_bad_input() => ErrorKind::Store,
            Error::Internal(_) | Error::Overflow { .. } => ErrorKind::Internal,
            e if e.is_bad_input() => ErrorKind::BadInput,
            _ => ErrorKind::Internal,
        }
    }

    /// The error with its remedy in the library's words (where no front end words it).
    pub fn with_remedy(&self) -> String {
        Failure::from(self).to_string()
    }

    /// True when the error is the user's input being wrong (as opposed to the work failing):
    /// the command-line tool exits with code 2 for these.
    pub fn is_bad_input(&self) -> bool {
        if let Error::AtLine { error, .. } = self {
            return error.is_bad_input();
        }
        matches!(
            self,
            Error::Board(_)
                | Error::Between(_)
                | Error::BoardTooLarge { .. }
                | Error::BoardTooWide { .. }
                | Error::BeyondEngines { .. }
                | Error::BeyondOneMachine { .. }
                | Error::TourTooLarge { .. }
                | Error::Input(_)
                | Error::InvalidMemorySize(_)
                | Error::Unsupported(_)
                | Error::SavedHalf { .. }
        ) || matches!(self, Error::Store(e) if e.is_bad_input())
    }
}
