//! Reading questions: the judge format (`T`, then `T` lines `ROWS COLS ROW COL`) and plain
//! lists of `ROWS COLS ROW COL` lines with blank lines and `#` comments.
//!
//! Every error names the line (1-based) and the field that is wrong (and, in the judge format,
//! the query), and the whole input is checked before any answer is computed, so a judge never
//! receives a partial answer list. Input is read as a stream, within bounds: a line of at most
//! [`MAX_LINE_BYTES`], a number of at most [`MAX_FIELD_CHARS`], at most [`MAX_QUERIES`]
//! queries; only the queries themselves are kept. Messages quote the input through [`echo`]:
//! short, and with invisible characters shown.

use std::collections::VecDeque;
use std::fmt;
use std::io::Read;

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

/// A whole number, worded for an option or parameter; `hint` says what the value is.
fn whole(text: &str, hint: &str) -> Result<u64, String> {
    parse_whole(text).map_err(|e| match e {
        NotWhole::Negative => format!("{text} is negative; {hint}"),
        NotWhole::TooLarge => format!("{text} is far too large; {hint}"),
        NotWhole::NotANumber => format!("'{text}' is not a whole number; {hint}"),
    })
}

/// Reads a board side given as an option or parameter (the command line and the server show
/// the same message): a whole number from 1 to the largest side.
pub fn parse_side(text: &str) -> Result<u32, String> {
    let value = whole(text, "a board side is at least 1")?;
    Board::check_side(value).map_err(|e| e.to_string())
}

/// Reads a row or column of a square given as an option or parameter, counted from 0.
pub fn parse_coordinate(text: &str) -> Result<u32, String> {
    let value = whole(text, "squares are numbered from 0")?;
    u32::try_from(value).map_err(|_| format!("{text} is far too large"))
}

/// The most characters a number of a query may have: a side or a square has at most 6 digits
/// and `T` at most 20, so this leaves room for leading zeros. A longer word is refused as soon
/// as it is this long, without reading the rest of it (an endless stream of zeros ends at once).
pub const MAX_FIELD_CHARS: usize = 64;

/// The most queries one input may hold: 10 million, some 100 MB of judge input. The queries
/// and their answers are kept until the end, so this bounds the memory they take (a few GiB
/// at most with their answers); a larger input is refused, to be split.
pub const MAX_QUERIES: u64 = 10_000_000;

/// An upper bound on the number of decimal digits of any count of tours on `board` (open or
/// closed, from a start or the directed total), to refuse an absurd count before reading it.
///
/// A directed open tour of `n` squares is a start (`n` ways), a first move (at most 8) and
/// `n - 2` more moves, each to one of at most 7 squares (a knight has at most 8 moves and one
/// of them goes back): at most `n · 8 · 7^(n-2)` tours in all, and a count from one start, or
/// of closed tours, is no larger. The bound is one digit above that, for rounding: 23 digits
/// for 5x5 (whose total is 1728), 845,105 for 1000x1000.
pub fn max_count_digits(board: Board) -> u64 {
    let squares = board.squares();
    if squares < 3 {
        return 1;
    }
    let log10 = (squares as f64).log10() + 8f64.log10() + (squares - 2) as f64 * 7f64.log10();
    log10.floor() as u64 + 2
}

/// A whitespace-separated word of the input with its line.
#[derive(Clone, Debug, Default)]
struct Word {
    /// The word, cut at [`MAX_FIELD_CHARS`] characters.
    text: String,
    /// The line it starts on (1-based).
    line: usize,
    /// The word was longer than [`MAX_FIELD_CHARS`]; the rest of it was not read.
    cut: bool,
}

/// The words of a text, read one at a time, with `#` comments skipped when `comments`.
struct Words<R> {
    text: TextReader<R>,
    comments: bool,
    /// Words read ahead (to tell the format of a batch file), given out again first.
    unread: VecDeque<Word>,
    /// The word given out last (its text is reused for the next one).
    word: Word,
}

impl<R: Read> Words<R> {
    fn new(reader: R, comments: bool) -> Self {
        Words {
            text: TextReader::new(reader),
            comments,
            unread: VecDeque::new(),
            word: Word::default(),
        }
    }

    /// The next word: one read ahead, or the next of the text.
    fn next(&mut self) -> Result<Option<&Word>, InputError> {
        if let Some(word) = self.unread.pop_front() {
            self.word = word;
        } else if !self.read_word()? {
            return Ok(None);
        }
        Ok(Some(&self.word))
    }

    /// Reads the next word of the text into `self.word`; false at the end.
    fn read_word(&mut self) -> Result<bool, InputError> {
        let first = loop {
            match self.text.next_char()? {
                None => return Ok(false),
                Some(c) if c.is_whitespace() => {}
                Some('#') if self.comments => self.skip_comment()?,
                Some(c) => break c,
            }
        };
        self.word.line = self.text.line();
        self.word.cut = false;
        self.word.text.clear();
        self.word.text.push(first);
        let mut chars = 1;
        loop {
            match self.text.next_char()? {
                None => break,
                Some(c) if c.is_whitespace() => break,
                Some('#') if self.comments => {
                    self.skip_comment()?;
                    break;
                }
                Some(_) if chars == MAX_FIELD_CHARS => {
                    self.word.cut = true;
                    break;
                }
                Some(c) => {
                    self.word.text.push(c);
                    chars += 1;
                }
            }
        }
        Ok(true)
    }

    fn skip_comment(&mut self) -> Result<(), InputError> {
        while let Some(c) = self.text.next_char()? {
            if c == '\n' {
                break;
            }
        }
        Ok(())
    }
}

/// Where a number sits, for messages.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// `T`, or a line of a list: its line says it all.
    Line,
    /// In query `number` of the judge format, which starts on line `start`.
    Query { number: u64, start: usize },
}

/// An error on `line`, naming the query where there is one, with a `detail` in parentheses.
fn located(line: usize, place: Place, message: String, detail: Option<String>) -> InputError {
    let note = match place {
        Place::Line => detail,
        Place::Query { number, start } => {
            let query = if start == line {
                format!("query {number}")
            } else {
                format!("query {number}, which starts on line {start}")
            };
            Some(match detail {
                Some(detail) => format!("{query}; {detail}"),
                None => query,
            })
        }
    };
    InputError::at(
        line,
        match note {
            Some(note) => format!("{message} ({note})"),
            None => message,
        },
    )
}

/// Parses a whole number, naming `field`, its line and its place when it is not one.
fn number(word: &Word, field: &str, place: Place) -> Result<u64, InputError> {
    let result = if word.cut {
        Err(None)
    } else {
        parse_whole(&word.text).map_err(Some)
    };
    let shown = match result {
        Ok(value) => return Ok(value),
        Err(_) => echo(&word.text),
    };
    let message = match result {
        Err(None) => format!("{field} is longer than {MAX_FIELD_CHARS} characters: '{shown}'"),
        Err(Some(NotWhole::Negative)) => format!("{field} is {shown}, a negative number"),
        Err(Some(NotWhole::TooLarge)) => format!("{field} is {shown}, far too large"),
        Err(Some(NotWhole::NotANumber)) | Ok(_) => {
            format!("{field} '{shown}' is not a whole number")
        }
    };
    Err(located(word.line, place, message, None))
}

/// Builds a query from its four numbers, checking the board and that the start is on it.
pub fn query_from_numbers(numbers: [u64; 4], line: usize) -> Result<Query, InputError> {
    check_query(numbers, [line; 4], Place::Line)
}

/// [`query_from_numbers`] for numbers read on `lines`; errors name the line of the number
/// that is wrong, and the query.
fn check_query(numbers: [u64; 4], lines: [usize; 4], place: Place) -> Result<Query, InputError> {
    let [rows, cols, row, col] = numbers;
    let fail = |field: usize, message: String, detail: Option<String>| {
        located(lines[field], place, message, detail)
    };
    let side = |field: usize, value: u64| {
        Board::check_side(value).map_err(|_| {
            let name = QUERY_FIELDS[field];
            let message = if value == 0 {
                format!("{name} is 0; a board has at least 1 row and 1 column")
            } else {
                format!("{name} is {value}; board sides are at most {MAX_SIDE}")
            };
            fail(field, message, None)
        })
    };
    // A side of 0 is named before a side that is too large.
    let (board_rows, board_cols) = match (side(0, rows), side(1, cols)) {
        (Ok(board_rows), Ok(board_cols)) => (board_rows, board_cols),
        (Err(e), _) if rows == 0 => return Err(e),
        (_, Err(e)) if cols == 0 => return Err(e),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let board = Board::new(board_rows, board_cols).map_err(|e| fail(0, e.to_string(), None))?;
    if row >= rows {
        return Err(fail(
            2,
            format!("ROW is {row}, outside the {board} board"),
            Some(format!("rows are 0 to {}", rows - 1)),
        ));
    }
    if col >= cols {
        return Err(fail(
            3,
            format!("COL is {col}, outside the {board} board"),
            Some(format!("columns are 0 to {}", cols - 1)),
        ));
    }
    Ok(Query {
        board,
        start: Square::new(row as u32, col as u32),
        line: lines[0],
    })
}

/// Parses the judge format from a string: [`read_judge`].
pub fn parse_judge(text: &str) -> Result<Vec<Query>, InputError> {
    read_judge(text.as_bytes())
}

/// Reads the judge format: a count `T`, then `T` queries `ROWS COLS ROW COL`.
///
/// Any whitespace separates the numbers (one query per line is usual; all on one line is
/// accepted too), and any line break ends a line (`\n`, `\r\n`, or `\r` alone). The input is
/// read as a stream and every number is checked as it comes: the first error ends the reading.
/// The numbers of a query are named by their place among all the numbers after `T`, so a
/// query that spans lines is named with the line it starts on.
///
/// Errors: an empty input, a `T` or a field that is not a whole number (or longer than
/// [`MAX_FIELD_CHARS`]), a line longer than [`MAX_LINE_BYTES`], text that is not UTF-8, a line
/// with the wrong number of fields, a `T` that does not match the number of queries or is above
/// [`MAX_QUERIES`], a board side of 0 and a start outside its board.
pub fn read_judge<R: Read>(reader: R) -> Result<Vec<Query>, InputError> {
    let mut words = Words::new(reader, false);
    let Some(t) = words.next()?.cloned() else {
        return Err(InputError::whole(
            "the input is empty; expected T (the number of queries) on the first line",
        ));
    };
    judge(&mut words, t)
}

/// The judge format after its first word, `t`.
fn judge<R: Read>(words: &mut Words<R>, t: Word) -> Result<Vec<Query>, InputError> {
    let announced = number(&t, "T", Place::Line)?;
    if announced > MAX_QUERIES {
        return Err(InputError::at(
            t.line,
            format!(
                "T is {announced}; at most {MAX_QUERIES} queries are read at once (split the input)"
            ),
        ));
    }
    let expected = announced * 4;
    let mut queries = Vec::with_capacity(announced.min(1 << 16) as usize);
    let mut shape = Shape::new(t.line);
    let (mut numbers, mut lines) = ([0u64; 4], [0usize; 4]);
    let mut read = 0u64;
    while let Some(word) = words.next()? {
        shape.word(word.line);
        if read == expected {
            // One number too many: count the rest of its line, then explain.
            let line = word.line;
            while let Some(next) = words.next()? {
                if next.line != line {
                    break;
                }
                shape.word(next.line);
            }
            shape.end_line();
            return Err(shape.error().unwrap_or_else(|| {
                InputError::at(
                    line,
                    format!(
                        "unexpected query: T on line {} is {announced}, and more queries follow",
                        t.line
                    ),
                )
            }));
        }
        let field = (read % 4) as usize;
        lines[field] = word.line;
        let place = Place::Query {
            number: read / 4 + 1,
            start: lines[0],
        };
        numbers[field] = number(word, QUERY_FIELDS[field], place)?;
        read += 1;
        if field == 3 {
            queries.push(check_query(numbers, lines, place)?);
        }
    }
    shape.end_line();
    if read < expected {
        let found = read / 4;
        return Err(shape.error().unwrap_or_else(|| {
            InputError::at(
                t.line,
                format!(
                    "T is {announced} but only {found} {} follow{}",
                    plural(found, "query", "queries"),
                    if found == 1 { "s" } else { "" }
                ),
            )
        }));
    }
    Ok(queries)
}

/// The number of words on each line after `T`, kept only as far as needed to explain why the
/// words do not make `T` queries of four numbers: the first line that does not hold four.
struct Shape {
    /// The line of `T` (its other words are queries written on the same line).
    t_line: usize,
    /// The line being read and its words so far.
    current: Option<(usize, usize)>,
    /// The first line (and its number of words) that does not hold four.
    first_odd: Option<(usize, usize)>,
}

impl Shape {
    fn new(t_line: usize) -> Self {
        Shape {
            t_line,
            current: None,
            first_odd: None,
        }
    }

    fn word(&mut self, line: usize) {
        match &mut self.current {
            Some((current, found)) if *current == line => *found += 1,
            _ => {
                self.end_line();
                self.current = Some((line, 1));
            }
        }
    }

    fn end_line(&mut self) {
        if let Some((line, found)) = self.current.take()
            && found != 4
            && self.first_odd.is_none()
        {
            self.first_odd = Some((line, found));
        }
    }

    /// Explains the first line that does not hold four numbers.
    fn error(&self) -> Option<InputError> {
        let (line, found) = self.first_odd?;
        let what = if line == self.t_line {
            format!(
                "T is followed by {found} more numbers on its line; put each query on its own line as ROWS COLS ROW COL"
            )
        } else {
            wrong_count(found)
        };
        Some(InputError::at(line, what))
    }
}

/// "expected 4 numbers", for a line of `found`.
fn wrong_count(found: usize) -> String {
    if found < 4 {
        format!(
            "expected 4 numbers (ROWS COLS ROW COL), found {found}: {} is missing",
            QUERY_FIELDS[found..].join(" ")
        )
    } else {
        format!("expected 4 numbers (ROWS COLS ROW COL), found {found}")
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

/// Parses a batch file from a string: [`read_batch`].
pub fn parse_batch(text: &str) -> Result<Batch, InputError> {
    read_batch(text.as_bytes())
}

/// Reads a batch file: the judge format, or a plain list of `ROWS COLS ROW COL` lines.
///
/// Blank lines and `#` comments (to the end of the line) are allowed in both. The format is
/// told by the first line with numbers: two to four numbers are a line of a list; one number is
/// the judge's `T`, and five or more are `T` followed by queries on the same line. The judge
/// format is read as by [`read_judge`], and a list as a stream too, with the same bounds.
pub fn read_batch<R: Read>(reader: R) -> Result<Batch, InputError> {
    let mut words = Words::new(reader, true);
    let Some(first) = words.next()?.cloned() else {
        return Err(InputError::whole(
            "the input has no queries (only blank lines or comments)",
        ));
    };
    // Read up to five words to see how many the first line has, then give them out again.
    let line = first.line;
    let mut on_first_line = 1;
    words.unread.push_back(first.clone());
    while words.unread.len() < 5 && words.read_word()? {
        let same = words.word.line == line;
        words.unread.push_back(words.word.clone());
        if !same {
            break;
        }
        on_first_line += 1;
    }
    if on_first_line == 1 || on_first_line >= 5 {
        words.unread.pop_front();
        Ok(Batch {
            format: BatchFormat::Judge,
            queries: judge(&mut words, first)?,
        })
    } else {
        Ok(Batch {
            format: BatchFormat::List,
            queries: list(&mut words)?,
        })
    }
}

/// A list of queries, one `ROWS COLS ROW COL` per line.
fn list<R: Read>(words: &mut Words<R>) -> Result<Vec<Query>, InputError> {
    let mut queries = Vec::new();
    // The line being read: its number, its first four numbers and how many words it has.
    let mut current: Option<(usize, [u64; 4], usize)> = None;
    loop {
        let word = words.next()?;
        if let Some((line, numbers, found)) = current
            && word.is_none_or(|word| word.line != line)
        {
            if found != 4 {
                return Err(InputError::at(line, wrong_count(found)));
            }
            if queries.len() as u64 == MAX_QUERIES {
                return Err(InputError::at(
                    line,
                    format!("more than {MAX_QUERIES} queries; split the list into smaller files"),
                ));
            }
            queries.push(check_query(numbers, [line; 4], Place::Line)?);
            current = None;
        }
        let Some(word) = word else {
            return Ok(queries);
        };
        let (_, numbers, found) = current.get_or_insert((word.line, [0; 4], 0));
        // A word that is not a number is reported before a wrong count of words.
        if *found < 4 {
            numbers[*found] = number(word, QUERY_FIELDS[*found], Place::Line)?;
        }
        *found += 1;
    }
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
            "line 2: COLS 'x' is not a whole number (query 1)"
        );
        assert_eq!(
            err("1\n5 4 -1 0\n"),
            "line 2: ROW is -1, a negative number (query 1)"
        );
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
            "line 3: unexpected query: T on line 1 is 1, and more queries follow"
        );
        assert_eq!(
            err("1\n0 4 0 0\n"),
            "line 2: ROWS is 0; a board has at least 1 row and 1 column (query 1)"
        );
        assert_eq!(
            err("1\n5 4 5 0\n"),
            "line 2: ROW is 5, outside the 5x4 board (query 1; rows are 0 to 4)"
        );
        assert_eq!(
            err("1\n5 4 0 99999999999999999999999999999999999999999\n"),
            "line 2: COL is 9999999999999999999999999999999999999999…, far too large (query 1)"
        );
    }

    #[test]
    fn a_query_over_two_lines_is_named_by_its_place() {
        assert_eq!(
            err("2\n5 4 0\nx 3 4 0 0\n"),
            "line 3: COL 'x' is not a whole number (query 1, which starts on line 2)"
        );
        assert_eq!(
            err("2\n5 4 0\n9 3 4 0 0\n"),
            "line 3: COL is 9, outside the 5x4 board (query 1, which starts on line 2; columns are 0 to 3)"
        );
        assert_eq!(
            err("2\n5 4 0 0\n3 y 0 0\n"),
            "line 3: COLS 'y' is not a whole number (query 2)"
        );
        // Spread over lines but complete: accepted, each query keeps the line it starts on.
        let queries = parse_judge("2\n5 4\n0 0 3\n4 0 0\n").unwrap();
        assert_eq!(
            queries.iter().map(|q| q.line).collect::<Vec<_>>(),
            vec![2, 3]
        );
    }

    #[test]
    fn one_line_and_old_mac_line_breaks_read_alike_in_both_readers() {
        let expected = parse_judge("2\n5 4 0 0\n3 4 0 0\n").unwrap();
        for text in [
            "2\r5 4 0 0\r3 4 0 0\r",
            "2\r\n5 4 0 0\r\n3 4 0 0",
            "\u{feff}2\n5 4 0 0\n3 4 0 0\n",
        ] {
            assert_eq!(parse_judge(text).unwrap(), expected, "{text:?}");
            let batch = parse_batch(text).unwrap();
            assert_eq!(batch.format, BatchFormat::Judge);
            assert_eq!(batch.queries, expected, "{text:?}");
        }
        let one_line = parse_judge("1 5 4 0 0").unwrap();
        assert_eq!(one_line[0].line, 1);
        assert_eq!(parse_batch("1 5 4 0 0").unwrap().queries, one_line);
        assert_eq!(
            parse_batch("2 5 4 0 0 # two\n3 4 0 0")
                .unwrap()
                .queries
                .len(),
            2
        );
        // Old Mac line breaks count lines in errors too.
        assert_eq!(
            err("2\r5 4 0 0\r3 x 0 0\r"),
            "line 3: COLS 'x' is not a whole number (query 2)"
        );
        assert_eq!(
            parse_batch("5 4 0 0\r3 4 x 0\r").unwrap_err().to_string(),
            "line 2: ROW 'x' is not a whole number"
        );
    }

    #[test]
    fn invisible_characters_are_shown_and_a_leading_bom_skipped() {
        assert_eq!(
            err("1\n5 4 0 \0\n"),
            "line 2: COL '\\0' is not a whole number (query 1)"
        );
        assert_eq!(
            err("1\n\u{feff}5 4 0 0\n"),
            "line 2: ROWS '<U+FEFF>5' is not a whole number (query 1)"
        );
        assert_eq!(
            err("\u{1b}[31m\n"),
            "line 1: T '<U+001B>[31m' is not a whole number"
        );
        assert_eq!(parse_judge("\u{feff}1\n5 4 0 0\n").unwrap().len(), 1);
    }

    #[test]
    fn bounds_end_the_reading_with_short_messages() {
        let zeros = "0".repeat(1000);
        let message = err(&zeros);
        assert_eq!(
            message,
            format!(
                "line 1: T is longer than {MAX_FIELD_CHARS} characters: '{}…'",
                "0".repeat(MAX_ECHO_CHARS)
            )
        );
        let message = err(&format!("1\n5 4 0 {}", "\0".repeat(1000)));
        assert!(
            message.starts_with("line 2: COL is longer than 64 characters: '\\0\\0"),
            "{message}"
        );
        assert!(message.len() < 200, "{message}");
        let message = parse_batch(&format!("5 4 0 0\n{}x", " ".repeat(MAX_LINE_BYTES)))
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            format!("line 2: the line is longer than {MAX_LINE_BYTES} bytes (1 MiB)")
        );
        assert_eq!(
            err("20000000\n"),
            "line 1: T is 20000000; at most 10000000 queries are read at once (split the input)"
        );
        assert_eq!(
            err("1\n5 4 0 0 x y\n"),
            "line 2: expected 4 numbers (ROWS COLS ROW COL), found 6"
        );
        assert_eq!(
            err("1\n5 4 0 0\n\u{fffd}\u{0}"),
            "line 3: expected 4 numbers (ROWS COLS ROW COL), found 1: COLS ROW COL is missing"
        );
        assert!(err("ab\n\u{e9}x\n").contains("not a whole number"));
        assert_eq!(
            read_judge(&b"1\n5 4 \xff 0\n"[..]).unwrap_err().to_string(),
            "line 2: the input is not text: invalid UTF-8 at byte 6"
        );
    }

    #[test]
    fn count_digits_are_bounded_by_the_board() {
        let digits = |r, c| max_count_digits(Board::new(r, c).unwrap());
        assert_eq!(digits(1, 1), 1);
        assert_eq!(digits(1, 2), 1);
        assert_eq!(digits(5, 5), 23);
        assert_eq!(digits(1000, 1000), 845_105);
        assert!(digits(100_000, 100_000) < 9_000_000_000);
        // Above every published total: 8x8 has 19,591,828,170,979,904 directed open tours.
        assert!(digits(8, 8) > 17);
        assert!(digits(3, 4) >= 2);
    }

    #[test]
    fn batch_format_is_told_by_the_first_line() {
        let err = |t: &str| parse_batch(t).unwrap_err().to_string();
        assert_eq!(
            err("5 4 0\n5 4 0 0\n"),
            "line 1: expected 4 numbers (ROWS COLS ROW COL), found 3: COL is missing"
        );
        assert_eq!(
            err("# a list\n5 4 0 0\n5 4 0 0 9 9\n"),
            "line 3: expected 4 numbers (ROWS COLS ROW COL), found 6"
        );
        assert_eq!(parse_batch("0\n").unwrap().queries.len(), 0);
        assert_eq!(parse_batch("0\n").unwrap().format, BatchFormat::Judge);
        assert_eq!(
            err("1 5 4 0 0\n3 4 0 0\n"),
            "line 2: unexpected query: T on line 1 is 1, and more queries follow"
        );
    }
}
