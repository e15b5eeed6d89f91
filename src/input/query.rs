//! Queries: the judge format (`T`, then `T` lines `ROWS COLS ROW COL`) and plain lists of
//! `ROWS COLS ROW COL` lines with blank lines and `#` comments, read a word at a time.

use std::collections::VecDeque;
use std::io::Read;

use super::number::{NotWhole, parse_whole, plural};
use super::{InputError, MAX_FIELD_CHARS, MAX_QUERIES, QUERY_FIELDS, TextReader};
use crate::board::{Board, MAX_SIDE, Square};
use crate::echo::echo;

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
/// [`MAX_FIELD_CHARS`]), a line longer than [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES), text that is not UTF-8, a line
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
    let mut shape = LineShape::new(t.line);
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
struct LineShape {
    /// The line of `T` (its other words are queries written on the same line).
    t_line: usize,
    /// The line being read and its words so far.
    current: Option<(usize, usize)>,
    /// The first line (and its number of words) that does not hold four.
    first_odd: Option<(usize, usize)>,
}

impl LineShape {
    fn new(t_line: usize) -> Self {
        LineShape {
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
