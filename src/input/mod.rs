//! Reading input: the judge format (`T`, then `T` lines `ROWS COLS ROW COL`) and plain
//! lists of `ROWS COLS ROW COL` lines with blank lines and `#` comments.
//!
//! Every error names the line (1-based) and the field that is wrong (and, in the judge format,
//! the query), and the whole input is checked before any answer is computed, so a judge never
//! receives a partial answer list. Input is read as a stream, within bounds: a line of at most
//! [`MAX_LINE_BYTES`], a number of at most [`MAX_FIELD_CHARS`], at most [`MAX_QUERIES`]
//! queries; only the queries themselves are kept. Messages quote the input through
//! [`echo`](crate::echo::echo): short, and with invisible characters shown.
//!
//! This file holds [`InputError`] and the bounds; `query.rs` reads queries, `number.rs` the
//! whole numbers (and `plural`), `text.rs` the text itself ([`TextReader`]).

use std::fmt;

mod number;
mod query;
#[cfg(test)]
mod tests;
mod text;

pub use number::{NotWhole, max_count_digits, parse_coordinate, parse_side, parse_whole, plural};
pub use query::{
    Batch, BatchFormat, Query, parse_batch, parse_judge, query_from_numbers, read_batch, read_judge,
};
pub use text::{BUFFER_BYTES, MAX_LINE_BYTES, TextReader};

/// The four numbers of a query, in order.
pub const QUERY_FIELDS: [&str; 4] = ["ROWS", "COLS", "ROW", "COL"];

/// What is wrong with an input, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The line (1-based), when the error belongs to one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error on line `line`.
    pub fn at(line: usize, message: impl Into<String>) -> Self {
        InputError {
            line: Some(line),
            message: message.into(),
        }
    }

    /// An error about the input as a whole.
    pub fn whole(message: impl Into<String>) -> Self {
        InputError {
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The most characters a number of a query may have: a side or a square has at most 6 digits
/// and `T` at most 20, so this leaves room for leading zeros. A longer word is refused as soon
/// as it is this long, without reading the rest of it (an endless stream of zeros ends at once).
pub const MAX_FIELD_CHARS: usize = 64;

/// The most queries one input may hold: 10 million, some 100 MB of judge input. The queries
/// and their answers are kept until the end, so this bounds the memory they take (a few GiB
/// at most with their answers); a larger input is refused, to be split.
pub const MAX_QUERIES: u64 = 10_000_000;
