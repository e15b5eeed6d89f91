//! The export file format read back (`knights import`): CSV or JSON, as written by
//! `knights export`, checked record by record before anything reaches the store.
//!
//! This module sits above the store, not in it: a file's faults are the reader's input errors
//! ([`InputError`], with their lines). The answers read enter a store through the gate every
//! answer passes ([`crate::resolve::admit`]), which adds what needs the store or the engines.
//!
//! Every record must be a canonical question (board with `rows <= cols`, start the least square
//! of its orbit, or no start for a board total), of a known kind and engine, with an exact count
//! in decimal digits that passes the checks of [`crate::trust`] (theorems, parity, the bound of
//! the board), a time that exists and a believable number of seconds. Records for the same
//! question must agree, a board total must equal the sum of its starts when the file holds
//! them all (and be at least the sum of those it holds), and a start the sum of its pairs in
//! the same way (where the file holds pairs of its board). The first problem is reported with its
//! line. What needs the store or the engines (conflicts, totals against stored starts, recounts)
//! is checked by the gate, [`crate::resolve::admit`].
//!
//! This file holds the entry points; `csv.rs` and `json.rs` the two formats, `record.rs` one
//! record's fields made into an answer and checked, `consistency.rs` the records of one file
//! together.
//!
//! The `source` column (where the answer came from) is optional: exports of older versions have
//! none. Their open totals under the memo engine or the reference were sums of their starts
//! (neither engine counts a total) and are read with the engine `sum`.

mod consistency;
mod csv;
mod json;
mod record;
#[cfg(test)]
mod tests;

pub use record::held_bytes;

use std::io::Read;

use crate::input::{InputError, TextReader};
use crate::memory::MemoryBudget;
use crate::store::Answer;

/// The file formats of export and import.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangeFormat {
    /// CSV with a header line.
    Csv,
    /// A JSON array of objects, one per line.
    Json,
}

impl ExchangeFormat {
    /// The format a file name suggests (`.json` is JSON, anything else CSV).
    pub fn from_file_name(name: &str) -> Self {
        if name.to_ascii_lowercase().ends_with(".json") {
            ExchangeFormat::Json
        } else {
            ExchangeFormat::Csv
        }
    }
}

/// Reads and checks every record of an export held in a string: [`read_answers_from`].
pub fn read_answers(
    text: &str,
    format: ExchangeFormat,
) -> Result<Vec<(usize, Answer)>, InputError> {
    read_answers_from(text.as_bytes(), format)
}

/// Reads and checks every record of an export; returns the answers with their line numbers.
///
/// The file is read as a stream ([`TextReader`]: UTF-8, a line of at most
/// [`crate::input::MAX_LINE_BYTES`]) and only the answers are kept. A field other than the count
/// may have at most [`MAX_FIELD_CHARS`](crate::input::MAX_FIELD_CHARS) characters, a count at
/// most the digits its board allows ([`max_count_digits`](crate::input::max_count_digits),
/// checked before the number is read), a file at most
/// [`MAX_QUERIES`](crate::input::MAX_QUERIES) records. Messages quote the file through
/// [`echo`](crate::echo::echo).
pub fn read_answers_from<R: Read>(
    reader: R,
    format: ExchangeFormat,
) -> Result<Vec<(usize, Answer)>, InputError> {
    read_answers_within(reader, format, MemoryBudget::from_bytes(u64::MAX))
}

/// [`read_answers_from`], refused at the line where the answers read would hold more than
/// `budget` (with what the gate and the write hold beside them).
pub fn read_answers_within<R: Read>(
    reader: R,
    format: ExchangeFormat,
    budget: MemoryBudget,
) -> Result<Vec<(usize, Answer)>, InputError> {
    let mut text = TextReader::new(reader);
    let answers = match format {
        ExchangeFormat::Csv => csv::read_csv(&mut text, budget)?,
        ExchangeFormat::Json => json::read_json(&mut text, budget)?,
    };
    consistency::check_consistency(&answers)?;
    Ok(answers)
}

/// The source recorded for an answer imported from `origin` whose record said `given` (empty
/// for an export without sources).
pub fn imported_source(origin: &str, given: &str) -> String {
    if given.is_empty() {
        format!("imported from {origin}")
    } else {
        format!("imported from {origin} ({given})")
    }
}
