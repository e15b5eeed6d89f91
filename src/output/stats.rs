//! How an answer was found, in words for a person: the `--stats` sentence and the page's
//! "how", from an answer's provenance and the engines' figures.

use crate::count::frontier::FrontierStats;
use crate::count::memo::MemoStats;
use crate::question::Shape;
use crate::store::{Answer, EngineName};

/// How `answer` was found, in a few words for a person, without brackets (the page shows it as
/// it is): `counted by the memo engine in 0.213 s`, `decided by an existence theorem, without a
/// search`, `added up from the counts of its starts (the memo engine's)`; from the store
/// (`from_store`), `from the answer store, where it was counted …`. `engine` is the engine that
/// counted it, or for a sum of starts the engine of its starts.
pub fn how(answer: &Answer, engine: &str, from_store: bool) -> String {
    let found = if answer.engine == EngineName::Theorem {
        "decided by an existence theorem, without a search".to_string()
    } else if answer.engine == EngineName::Sum {
        // A start's sum is of its pairs (a merged plan by pair): no engine counted the
        // start as such, and its pairs' engines are not among these answers.
        let (parts, by) = match answer.question.shape() {
            Shape::Start(_) => ("its pairs (the tours to each end square)", String::new()),
            _ => ("its starts", format!(", made by the {engine} engine")),
        };
        format!(
            "added up from the counts of {parts}{by}{}",
            if from_store {
                String::new()
            } else {
                format!(" in {}", seconds_in_words(answer.seconds))
            }
        )
    } else {
        format!(
            "counted by the {engine} engine in {}",
            seconds_in_words(answer.seconds)
        )
    };
    if from_store {
        format!("from the answer store, where it was {found}")
    } else {
        found
    }
}

/// Where `first` (the answer shown) came from, with the engines' figures: the `--stats`
/// sentence. `engine` is the engine that counted it (for a sum, its starts'); `all_stored` is
/// true when the store answered every question asked.
pub fn source(
    first: &Answer,
    engine: &str,
    all_stored: bool,
    memo: &MemoStats,
    frontier: &FrontierStats,
) -> String {
    let added_up = if first.engine == EngineName::Sum {
        "added up from its starts, "
    } else {
        ""
    };
    if all_stored {
        "answered from the store".to_string()
    } else if engine == crate::store::THEOREM {
        "answered by an existence theorem, without a search".to_string()
    } else if frontier.transitions == 0 && frontier.halves_read > 0 {
        format!(
            "computed by the frontier engine from saved halves ({} read)",
            frontier.halves_read
        )
    } else if frontier.transitions > 0 {
        format!("computed by the frontier engine ({})", frontier.figures())
    } else {
        let m = memo;
        format!(
            "{added_up}computed by the {engine} engine ({} states solved, {} table hits, {} states pruned, {} table entries, {:.1} MiB{})",
            m.states_solved,
            m.table_hits,
            m.states_pruned,
            m.entries,
            m.table_bytes as f64 / (1u64 << 20) as f64,
            if m.stores_refused > 0 {
                format!(
                    "; {} states not kept: memory budget reached",
                    m.stores_refused
                )
            } else {
                String::new()
            }
        )
    }
}

/// Seconds for a person: `less than a millisecond`, `0.213 s`, `12.5 s`, `3 min 20 s`.
pub fn seconds_in_words(seconds: f64) -> String {
    if seconds < 0.001 {
        "less than a millisecond".to_string()
    } else if seconds < 1.0 {
        format!("{seconds:.3} s")
    } else if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else {
        let whole = seconds.round() as u64;
        format!("{} min {} s", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_read_as_a_person_reads_them() {
        assert_eq!(seconds_in_words(0.0004), "less than a millisecond");
        assert_eq!(seconds_in_words(0.2134), "0.213 s");
        assert_eq!(seconds_in_words(12.54), "12.5 s");
        assert_eq!(seconds_in_words(313.0), "5 min 13 s");
    }
}
