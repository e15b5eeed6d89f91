//! Reading questions: the judge format (`T`, then `T` lines `ROWS COLS ROW COL`) and plain
//! lists of `ROWS COLS ROW COL` lines with blank lines and `#` comments.
//!
//! Every error names the line (1-based) and the field that is wrong, and the whole input is
//! checked before any answer is computed, so a judge never receives a partial answer list.

use std::fmt;

use crate::board::{Board, MAX_SIDE, Square};

mod text;

pub use text::{BUFFER_BYTES, MAX_ECHO_CHARS, MAX_LINE_BYTES, TextReader, echo};

/// The four numbers of a query, in order.
pub const QUERY_FIELDS: [&str; 4] = ["ROWS", "COLS", "ROW", "COL"];

/// One question: open tours on `board` starting on `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Query {
    /// The board.
    pub board: Board,
    /// The start square, on the board.
    pub start: Square,
    /// The line of the input the query was read from (1-based).
    pub line: usize,
}

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

/// A whitespace-separated word of the input with its place.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
    /// Position among the words of its line, from 0.
    position: usize,
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    text.lines()
        .enumerate()
        .flat_map(|(i, line)| {
            line.split_whitespace()
                .enumerate()
                .map(move |(position, text)| Token {
                    text,
                    line: i + 1,
                    position,
                })
        })
        .collect()
}

/// Why a word is not a whole number that fits in 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotWhole {
    /// A number below 0.
    Negative,
    /// Digits that make a number above `u64::MAX`.
    TooLarge,
    /// Not a number at all (letters, a fraction, an exponent, nothing).
    NotANumber,
}

/// Reads a whole number of at most 64 bits (spaces around it are ignored; a leading `+` is
/// accepted). Callers word the error, naming the field they were reading.
pub fn parse_whole(text: &str) -> Result<u64, NotWhole> {
    let text = text.trim();
    match text.parse::<i128>() {
        Ok(value) if value < 0 => Err(NotWhole::Negative),
        Ok(value) => u64::try_from(value).map_err(|_| NotWhole::TooLarge),
        Err(_)
            if !text.is_empty()
                && text
                    .trim_start_matches(['+', '-'])
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            Err(NotWhole::TooLarge)
        }
        Err(_) => Err(NotWhole::NotANumber),
    }
}

/// Parses a whole number, naming `field` and the line when it is not one.
fn number(token: &Token<'_>, field: &str) -> Result<u64, InputError> {
    let text = token.text;
    parse_whole(text).map_err(|e| {
        let message = match e {
            NotWhole::Negative => format!("{field} is {text}, a negative number"),
            NotWhole::TooLarge => format!("{field} is {text}, far too large"),
            NotWhole::NotANumber => format!("{field} '{text}' is not a whole number"),
        };
        InputError::at(token.line, message)
    })
}

/// Builds a query from its four numbers, checking the board and that the start is on it.
pub fn query_from_numbers(numbers: [u64; 4], line: usize) -> Result<Query, InputError> {
    let [rows, cols, row, col] = numbers;
    let side = |field: &str, value: u64| {
        Board::check_side(value).map_err(|_| {
            let message = if value == 0 {
                format!("{field} is 0; a board has at least 1 row and 1 column")
            } else {
                format!("{field} is {value}; board sides are at most {MAX_SIDE}")
            };
            InputError::at(line, message)
        })
    };
    // A side of 0 is named before a side that is too large.
    let (board_rows, board_cols) = match (side("ROWS", rows), side("COLS", cols)) {
        (Ok(board_rows), Ok(board_cols)) => (board_rows, board_cols),
        (Err(e), _) if rows == 0 => return Err(e),
        (_, Err(e)) if cols == 0 => return Err(e),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let board =
        Board::new(board_rows, board_cols).map_err(|e| InputError::at(line, e.to_string()))?;
    if row >= rows {
        return Err(InputError::at(
            line,
            format!(
                "ROW is {row}, outside the {board} board (rows are 0 to {})",
                rows - 1
            ),
        ));
    }
    if col >= cols {
        return Err(InputError::at(
            line,
            format!(
                "COL is {col}, outside the {board} board (columns are 0 to {})",
                cols - 1
            ),
        ));
    }
    Ok(Query {
        board,
        start: Square::new(row as u32, col as u32),
        line,
    })
}

/// Parses the judge format: a count `T`, then `T` queries `ROWS COLS ROW COL`.
///
/// Any whitespace separates the numbers (one query per line is usual; all on one line is
/// accepted too). Errors: an empty input, a `T` or a field that is not a whole number, a line
/// with the wrong number of fields, a `T` that does not match the number of queries, a board
/// side of 0 and a start outside its board.
pub fn parse_judge(text: &str) -> Result<Vec<Query>, InputError> {
    let tokens = tokens(text);
    let Some((first, rest)) = tokens.split_first() else {
        return Err(InputError::whole(
            "the input is empty; expected T (the number of queries) on the first line",
        ));
    };
    let announced = number(first, "T")?;
    let mut values = Vec::with_capacity(rest.len());
    for token in rest {
        let position = if token.line == first.line {
            token.position - 1
        } else {
            token.position
        };
        let field = QUERY_FIELDS
            .get(position)
            .copied()
            .unwrap_or("an extra field");
        values.push(number(token, field)?);
    }
    if (rest.len() as u64) != announced.saturating_mul(4) {
        return Err(structure_error(first, rest, announced));
    }
    rest.chunks(4)
        .zip(values.chunks(4))
        .map(|(tokens, numbers)| {
            query_from_numbers(numbers.try_into().expect("chunks of four"), tokens[0].line)
        })
        .collect()
}

/// Explains why the words after `T` do not make `T` queries of four numbers.
fn structure_error(first: &Token<'_>, rest: &[Token<'_>], announced: u64) -> InputError {
    // Group the words by line and find the first line that is not a query of four numbers.
    let mut lines: Vec<(usize, usize)> = Vec::new();
    for token in rest {
        match lines.last_mut() {
            Some((line, count)) if *line == token.line => *count += 1,
            _ => lines.push((token.line, 1)),
        }
    }
    if let Some(&(line, found)) = lines.iter().find(|&&(_, count)| count != 4) {
        let what = if line == first.line {
            format!(
                "T is followed by {found} more numbers on its line; put each query on its own line as ROWS COLS ROW COL"
            )
        } else if found < 4 {
            format!(
                "expected 4 numbers (ROWS COLS ROW COL), found {found}: {} is missing",
                QUERY_FIELDS[found..].join(" ")
            )
        } else {
            format!("expected 4 numbers (ROWS COLS ROW COL), found {found}")
        };
        return InputError::at(line, what);
    }
    let queries = lines.len() as u64;
    if queries < announced {
        InputError::at(
            first.line,
            format!(
                "T is {announced} but only {queries} {} follow{}",
                plural(queries as usize, "query", "queries"),
                if queries == 1 { "s" } else { "" }
            ),
        )
    } else {
        InputError::at(
            lines[announced as usize].0,
            format!(
                "unexpected query: T on line {} is {announced}, and {queries} queries follow",
                first.line
            ),
        )
    }
}

/// `one` for 1, `many` for any other number: `plural(n, "query", "queries")`.
pub fn plural<'a, N: PartialEq + From<u8>>(n: N, one: &'a str, many: &'a str) -> &'a str {
    if n == N::from(1) { one } else { many }
}

/// The two shapes of a batch file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchFormat {
    /// `T`, then `T` queries: answered with bare counts.
    Judge,
    /// One `ROWS COLS ROW COL` query per line.
    List,
}

/// A parsed batch file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Which shape the file had.
    pub format: BatchFormat,
    /// The queries, in order.
    pub queries: Vec<Query>,
}

/// Parses a batch file: the judge format, or a plain list of `ROWS COLS ROW COL` lines.
///
/// Blank lines and `#` comments (to the end of the line) are allowed in both. The format is
/// told by the first line with numbers: one number is the judge's `T`, otherwise it is a list.
pub fn parse_batch(text: &str) -> Result<Batch, InputError> {
    let stripped: String = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let tokens = tokens(&stripped);
    let Some(first) = tokens.first() else {
        return Err(InputError::whole(
            "the input has no queries (only blank lines or comments)",
        ));
    };
    let first_line_words = tokens.iter().filter(|t| t.line == first.line).count();
    if first_line_words == 1 {
        return Ok(Batch {
            format: BatchFormat::Judge,
            queries: parse_judge(&stripped)?,
        });
    }
    let mut queries = Vec::new();
    for line in tokens.chunk_by(|a, b| a.line == b.line) {
        let number_of = |position: usize| number(&line[position], QUERY_FIELDS[position]);
        if line.len() != 4 {
            // Report a word that is not a number first: it is the likelier mistake.
            for (position, token) in line.iter().enumerate().take(4) {
                number(token, QUERY_FIELDS[position])?;
            }
            let found = line.len();
            let missing = if found < 4 {
                format!(": {} is missing", QUERY_FIELDS[found..].join(" "))
            } else {
                String::new()
            };
            return Err(InputError::at(
                line[0].line,
                format!("expected 4 numbers (ROWS COLS ROW COL), found {found}{missing}"),
            ));
        }
        let numbers = [number_of(0)?, number_of(1)?, number_of(2)?, number_of(3)?];
        queries.push(query_from_numbers(numbers, line[0].line)?);
    }
    Ok(Batch {
        format: BatchFormat::List,
        queries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_judge(text).unwrap_err().to_string()
    }

    #[test]
    fn parses_the_sample() {
        let queries = parse_judge("2\n5 4 0 0\n3 4 0 0\n").unwrap();
        assert_eq!(queries.len(), 2);
        assert_eq!(queries[0].board, Board::new(5, 4).unwrap());
        assert_eq!(queries[1].line, 3);
    }

    #[test]
    fn any_whitespace_is_fine() {
        let queries = parse_judge("  2 \r\n5\t4 0 0\n\n 3 4  0 0").unwrap();
        assert_eq!(queries.len(), 2);
        assert_eq!(parse_judge("2 5 4 0 0 3 4 0 0").unwrap().len(), 2);
        assert_eq!(parse_judge("0\n").unwrap().len(), 0);
    }

    #[test]
    fn batch_lists_and_judge_files() {
        let batch = parse_batch("# a comment\n\n5 4 0 0  # corner\n3 4 1 0\n").unwrap();
        assert_eq!(batch.format, BatchFormat::List);
        assert_eq!(batch.queries.len(), 2);
        assert_eq!(batch.queries[0].line, 3);
        let batch = parse_batch("# judge\n2\n5 4 0 0\n3 4 0 0\n").unwrap();
        assert_eq!(batch.format, BatchFormat::Judge);
        assert_eq!(batch.queries[1].line, 4);
        let err = |t: &str| parse_batch(t).unwrap_err().to_string();
        assert_eq!(
            err("5 4 0 0\n5 4 0\n"),
            "line 2: expected 4 numbers (ROWS COLS ROW COL), found 3: COL is missing"
        );
        assert_eq!(
            err("5 4 0 0\n5 y 0\n"),
            "line 2: COLS 'y' is not a whole number"
        );
        assert_eq!(
            err("5 4 0 0\n5 4 0 9\n"),
            "line 2: COL is 9, outside the 5x4 board (columns are 0 to 3)"
        );
        assert_eq!(
            err("# nothing\n"),
            "the input has no queries (only blank lines or comments)"
        );
    }

    #[test]
    fn errors_name_line_and_field() {
        assert_eq!(
            err(""),
            "the input is empty; expected T (the number of queries) on the first line"
        );
        assert_eq!(err("x\n"), "line 1: T 'x' is not a whole number");
        assert_eq!(
            err("1\n5 x 0 0\n"),
            "line 2: COLS 'x' is not a whole number"
        );
        assert_eq!(err("1\n5 4 -1 0\n"), "line 2: ROW is -1, a negative number");
        assert_eq!(
            err("2\n5 4 0\n3 4 0 0\n"),
            "line 2: expected 4 numbers (ROWS COLS ROW COL), found 3: COL is missing"
        );
        assert_eq!(
            err("1\n5 4 0 0 7\n"),
            "line 2: expected 4 numbers (ROWS COLS ROW COL), found 5"
        );
        assert_eq!(
            err("3\n5 4 0 0\n3 4 0 0\n"),
            "line 1: T is 3 but only 2 queries follow"
        );
        assert_eq!(
            err("1\n5 4 0 0\n3 4 0 0\n"),
            "line 3: unexpected query: T on line 1 is 1, and 2 queries follow"
        );
        assert_eq!(
            err("1\n0 4 0 0\n"),
            "line 2: ROWS is 0; a board has at least 1 row and 1 column"
        );
        assert_eq!(
            err("1\n5 4 5 0\n"),
            "line 2: ROW is 5, outside the 5x4 board (rows are 0 to 4)"
        );
        assert_eq!(
            err("1\n5 4 0 99999999999999999999999999999999999999999\n"),
            "line 2: COL is 99999999999999999999999999999999999999999, far too large"
        );
    }
}
