//! What leaves the store: answers with their provenance (engine and source), the filter of a listing, the report
//! of an import and the columns an answer is exported with. Nothing here touches SQLite, so
//! the writers (output, exchange) take their records from here.

use num_bigint::BigUint;

use crate::board::Board;
use crate::existence::no_tour_for;
use crate::question::{AnswerKind, Question};

/// The columns of an answer, in order: the answers table's, and the header of an export.
/// Exports written before `source` existed have the first ten, and before pairs the first
/// eleven (both are still read).
pub const ANSWER_COLUMNS: [&str; 13] = [
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
    "source",
    "to_row",
    "to_col",
];

/// The source of an answer that this store's knights computed.
pub const COMPUTED: &str = "computed";

/// The source of an answer stored before sources were kept (schema version 2 and older).
pub const UNRECORDED: &str = "unrecorded";

/// The engine recorded for a count added up from other counts, which no engine counted as
/// such: an open board total from its starts' counts (source `sum of starts (...)`), or the
/// open tours from one start from its pairs' counts (source `sum of pairs (...)`, from a merge
/// of shards by pair). The source names where the parts came from.
pub const SUM: &str = "sum";

/// The engine recorded for a zero that an existence theorem decides, without a search.
pub const THEOREM: &str = "theorem";

/// The engine recorded with an answer: one of this build's engines, a theorem's zero, a sum of
/// other counts, or a name this build does not know (a store or file from elsewhere), kept as
/// it was so that `verify` and the import gate can name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineName {
    /// The memoized engine.
    Memo,
    /// The frontier engine.
    Frontier,
    /// The backtracking reference.
    Reference,
    /// A zero an existence theorem decides ([`THEOREM`]).
    Theorem,
    /// A count added up from others ([`SUM`]).
    Sum,
    /// A name this build does not know.
    Unknown(String),
}

impl EngineName {
    /// The name, as the store and the export files hold it.
    pub fn as_str(&self) -> &str {
        match self {
            EngineName::Memo => "memo",
            EngineName::Frontier => "frontier",
            EngineName::Reference => "reference",
            EngineName::Theorem => THEOREM,
            EngineName::Sum => SUM,
            EngineName::Unknown(name) => name,
        }
    }

    /// The engine a stored or exported name stands for.
    pub fn parse(name: &str) -> Self {
        match name {
            "memo" => EngineName::Memo,
            "frontier" => EngineName::Frontier,
            "reference" => EngineName::Reference,
            THEOREM => EngineName::Theorem,
            SUM => EngineName::Sum,
            other => EngineName::Unknown(other.to_string()),
        }
    }
}

impl std::fmt::Display for EngineName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An answer with its provenance, as kept in the store.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The canonical question.
    pub question: Question,
    /// The exact count.
    pub count: BigUint,
    /// The engine that computed it, a theorem's zero or a sum ([`EngineName`]).
    pub engine: EngineName,
    /// The knights version that computed it.
    pub version: String,
    /// Seconds of computation.
    pub seconds: f64,
    /// When it was computed (UTC, ISO 8601); `None` for "now" when saving.
    pub computed_at: Option<String>,
    /// Where it came from: [`COMPUTED`] here, `imported from FILE (...)`, `sum of starts
    /// (...)` for an open total added up from its starts, `sum of pairs (...)` for a start's
    /// count added up from its pairs (both engine `sum`), or [`UNRECORDED`].
    pub source: String,
}

impl Answer {
    /// A freshly computed answer (source [`COMPUTED`]), stamped with this build's version
    /// (seconds are kept to the microsecond).
    pub fn computed(
        question: Question,
        count: impl Into<BigUint>,
        engine: EngineName,
        seconds: f64,
    ) -> Self {
        Answer {
            question,
            count: count.into(),
            engine,
            version: env!("CARGO_PKG_VERSION").to_string(),
            seconds: (seconds * 1e6).round() / 1e6,
            computed_at: None,
            source: COMPUTED.to_string(),
        }
    }
}

impl Answer {
    /// The zero of a question that an existence theorem decides, without a search: the engine
    /// [`THEOREM`], no time spent. The caller has asked the theorems.
    pub fn theorem(question: Question) -> Self {
        Answer::computed(question, 0u32, EngineName::Theorem, 0.0)
    }

    /// An open board total added up from its starts' answers, each with the number of the
    /// board's squares it stands for: the engine [`SUM`] (no engine counted the total) and the
    /// source `sum of starts (ENGINE, SOURCE; ...)`, naming each distinct engine and source of
    /// the starts (zeros that a theorem decides left out when there is anything else). Where
    /// every start is a theorem's zero and a theorem decides the total too, the total is that
    /// theorem's zero ([`THEOREM`]), as if it had been asked alone.
    pub fn sum_of_starts(question: Question, starts: &[(&Answer, u64)]) -> Self {
        Answer::added_up(question, starts, "starts")
    }

    /// The open tours from one start added up from its pairs' answers, one per end square
    /// (`knights shards merge` of a plan by pair): the engine [`SUM`] (no engine counted from
    /// the start) and the source `sum of pairs (ENGINE, SOURCE; ...)`, as for a total. Every
    /// open tour from a start ends on one other square, so the pairs from it add up to its
    /// count; `knights verify` checks the two against each other where the store has both.
    /// Where every pair is a theorem's zero and a theorem decides the start too, the start is
    /// that theorem's zero.
    pub fn sum_of_pairs(question: Question, pairs: &[&Answer]) -> Self {
        let pairs: Vec<(&Answer, u64)> = pairs.iter().map(|&answer| (answer, 1)).collect();
        Answer::added_up(question, &pairs, "pairs")
    }

    /// The weighted sum of `inputs`, recorded as `sum of WHAT (...)`, or the theorem's zero.
    fn added_up(question: Question, inputs: &[(&Answer, u64)], what: &str) -> Self {
        let mut count = BigUint::default();
        let mut seconds = 0.0;
        let mut named: Vec<String> = Vec::new();
        let mut theorem_only = true;
        for (answer, weight) in inputs {
            count += &answer.count * *weight;
            seconds += answer.seconds;
            theorem_only &= answer.engine == EngineName::Theorem;
        }
        if theorem_only && no_tour_for(&question).is_some() {
            return Answer::theorem(question);
        }
        for (answer, _) in inputs {
            if theorem_only || answer.engine != EngineName::Theorem {
                let input = format!("{}, {}", answer.engine, answer.source);
                if !named.contains(&input) {
                    named.push(input);
                }
            }
        }
        named.sort();
        let mut sum = Answer::computed(question, count, EngineName::Sum, seconds);
        sum.source = format!("sum of {what} ({})", named.join("; "));
        sum
    }
}

/// Which stored answers to list.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnswerFilter {
    /// Only this board (either orientation).
    pub board: Option<Board>,
    /// Only this kind (`between`: the pairs).
    pub kind: Option<AnswerKind>,
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
