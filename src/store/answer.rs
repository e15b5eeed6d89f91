//! What leaves the store: answers with their provenance, the filter of a listing, the report
//! of an import and the columns an answer is exported with. Nothing here touches SQLite, so
//! the writers (output, exchange) take their records from here.

use num_bigint::BigUint;

use crate::board::Board;
use crate::question::{Question, TourKind};

/// The columns of an answer, in order: the answers table's, and the header of an export.
pub const ANSWER_COLUMNS: [&str; 10] = [
    "rows",
    "cols",
    "kind",
    "row",
    "col",
    "count",
    "engine",
    "version",
    "seconds",
    "computed_at",
];

/// An answer with its provenance, as kept in the store.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The canonical question.
    pub question: Question,
    /// The exact count.
    pub count: BigUint,
    /// The engine that computed it (`memo`, `reference`, or `theorem` for a zero that an
    /// existence theorem decides).
    pub engine: String,
    /// The knights version that computed it.
    pub version: String,
    /// Seconds of computation.
    pub seconds: f64,
    /// When it was computed (UTC, ISO 8601); `None` for "now" when saving.
    pub computed_at: Option<String>,
}

impl Answer {
    /// A freshly computed answer, stamped with this build's version (seconds are kept to the
    /// microsecond).
    pub fn computed(
        question: Question,
        count: impl Into<BigUint>,
        engine: &str,
        seconds: f64,
    ) -> Self {
        Answer {
            question,
            count: count.into(),
            engine: engine.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            seconds: (seconds * 1e6).round() / 1e6,
            computed_at: None,
        }
    }
}

/// Which stored answers to list.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnswerFilter {
    /// Only this board (either orientation).
    pub board: Option<Board>,
    /// Only this kind.
    pub kind: Option<TourKind>,
    /// Only boards of at least this many squares.
    pub min_squares: Option<u64>,
    /// Only boards of at most this many squares.
    pub max_squares: Option<u64>,
}

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Answers that were new.
    pub added: usize,
    /// Answers the store already had, with the same count.
    pub already_stored: usize,
}
