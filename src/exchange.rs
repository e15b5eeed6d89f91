//! The export file format read back (`knights import`): CSV or JSON, as written by
//! `knights export`, checked record by record before anything reaches the store.
//!
//! This module sits above the store, not in it: a file's faults are the reader's input errors
//! ([`InputError`], with their lines), and [`import`] turns the store's refusal of a conflicting
//! count into one, so that the store itself knows nothing of input or of the crate's error.
//!
//! Every record must be a canonical question (board with `rows <= cols`, start the least square
//! of its orbit, or no start for a board total), of a known kind and engine, with an exact count
//! in decimal digits that passes the checks of [`crate::trust`] (theorems, parity, the bound of
//! the board), a time that exists and a believable number of seconds. Records for the same
//! question must agree, a board total must equal the sum of its starts when the file holds
//! them all (and be at least the sum of those it holds), and a start the sum of its pairs in
//! the same way (where the file holds pairs of its board). The first problem is reported with its
//! line. What needs the store or the engines (conflicts, totals against stored starts, recounts)
//! is checked by [`crate::verify::check_import`].
//!
//! The `source` column (where the answer came from) is optional: exports of older versions have
//! none. Their open totals under the memo engine or the reference were sums of their starts
//! (neither engine counts a total) and are read with the engine `sum`.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::Read;

use num_bigint::BigUint;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::board::{Board, Square};
use crate::error::Error;
use crate::input::{InputError, MAX_FIELD_CHARS, MAX_QUERIES, TextReader, echo, max_count_digits};
use crate::question::{AnswerKind, PairError, Question, Shape, TourKind};
use crate::store::{ANSWER_COLUMNS, Answer, ImportReport, SUM, Store, StoreError};
use crate::trust::provenance::{check_utc_timestamp, seconds_in_range};
use crate::trust::{self, provenance};

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
/// may have at most [`MAX_FIELD_CHARS`] characters, a count at most the digits its board allows
/// ([`max_count_digits`], checked before the number is read), a file at most [`MAX_QUERIES`]
/// records. Messages quote the file through [`echo`].
pub fn read_answers_from<R: Read>(
    reader: R,
    format: ExchangeFormat,
) -> Result<Vec<(usize, Answer)>, InputError> {
    let mut text = TextReader::new(reader);
    let answers = match format {
        ExchangeFormat::Csv => read_csv(&mut text)?,
        ExchangeFormat::Json => read_json(&mut text)?,
    };
    check_consistency(&answers)?;
    Ok(answers)
}

/// Adds answers read by [`read_answers`] from the file `origin` to `store`, all or nothing,
/// each with the source `imported from ORIGIN`, followed by the source the file gave in
/// brackets. A stored count that differs from the file's is the file's fault: it is reported
/// as bad input ([`Error::Input`]), other failures as the store's.
///
/// The file is read first and the store opened after (by the caller), so that a bad file is
/// reported as such whatever the store's state.
pub fn import(
    store: &mut Store,
    answers: &[(usize, Answer)],
    origin: &str,
) -> Result<ImportReport, Error> {
    let answers: Vec<(usize, Answer)> = answers
        .iter()
        .map(|(line, answer)| {
            let mut answer = answer.clone();
            answer.source = imported_source(origin, &answer.source);
            (*line, answer)
        })
        .collect();
    store.import(&answers).map_err(|e| match e {
        StoreError::Conflict { .. } => Error::Input(InputError::whole(e.to_string())),
        other => Error::Store(other),
    })
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

/// The fields of one record as text (`None` for an empty or null field).
type Fields = HashMap<&'static str, Option<String>>;

/// The columns of an export written before `source` existed, and before pairs (`to_row`,
/// `to_col`): such files are read as they are.
const LEGACY_COLUMNS: [usize; 2] = [10, 11];

/// A field's text, refused when it is longer than a field can be (the count excepted: its
/// bound depends on the board, [`max_count_digits`]; a source may have up to [`MAX_SOURCE`]).
fn bounded(name: &'static str, value: &str, line: usize) -> Result<String, InputError> {
    let most = if name == "source" {
        MAX_SOURCE
    } else {
        MAX_FIELD_CHARS
    };
    if name != "count" && value.chars().count() > most {
        return Err(InputError::at(
            line,
            format!("{name} is longer than {most} characters: '{}'", echo(value)),
        ));
    }
    Ok(value.to_string())
}

/// Fields with every column present (`None` until given).
fn empty_fields() -> Fields {
    ANSWER_COLUMNS.iter().map(|&name| (name, None)).collect()
}

/// Refuses a file with more records than [`MAX_QUERIES`].
fn check_records(read: usize, line: usize) -> Result<(), InputError> {
    if read as u64 >= MAX_QUERIES {
        return Err(InputError::at(
            line,
            format!("more than {MAX_QUERIES} records; split the file"),
        ));
    }
    Ok(())
}

fn read_csv<R: Read>(text: &mut TextReader<R>) -> Result<Vec<(usize, Answer)>, InputError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(&mut *text);
    // A fault of the text itself (not UTF-8, a line too long) comes before the CSV's.
    let fault = |reader: &mut csv::Reader<&mut TextReader<R>>, otherwise: InputError| {
        reader.get_mut().take_error().unwrap_or(otherwise)
    };
    reader.get_ref().start_record();
    let headers = match reader.headers() {
        Ok(headers) => headers.clone(),
        Err(e) => {
            let otherwise = InputError::at(1, format!("cannot read the CSV header: {e}"));
            return Err(fault(&mut reader, otherwise));
        }
    };
    let header: Vec<&str> = headers.iter().map(str::trim).collect();
    // The first column that differs is quoted (a whole header could be too long to show).
    // An export of an older knights has the first columns only (no `source`, no end).
    let differs = (0..header.len().max(ANSWER_COLUMNS.len()))
        .find(|&i| header.get(i) != ANSWER_COLUMNS.get(i))
        .filter(|_| {
            !LEGACY_COLUMNS
                .iter()
                .any(|&n| header[..] == ANSWER_COLUMNS[..n])
        });
    if let Some(i) = differs {
        let what = match (header.get(i), ANSWER_COLUMNS.get(i)) {
            (Some(found), Some(expected)) => {
                format!("column {} is `{}`, not `{expected}`", i + 1, echo(found))
            }
            (None, Some(expected)) => format!("column {} (`{expected}`) is missing", i + 1),
            (found, None) => format!(
                "column {} (`{}`) is one too many",
                i + 1,
                echo(found.map_or("", |found| found))
            ),
        };
        return Err(InputError::at(
            1,
            format!(
                "the header must be `{}` (or, from an older knights, without `,to_row,to_col` or `,source,to_row,to_col`); {what}",
                ANSWER_COLUMNS.join(",")
            ),
        ));
    }
    let mut answers = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        reader.get_ref().start_record();
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                let otherwise = InputError::at(line, format!("malformed CSV: {e}"));
                return Err(fault(&mut reader, otherwise));
            }
        }
        let line = record.position().map_or(0, |p| p.line() as usize);
        check_records(answers.len(), line)?;
        let mut fields = empty_fields();
        for (&name, value) in ANSWER_COLUMNS.iter().zip(record.iter()) {
            let value = value.trim();
            if !value.is_empty() {
                fields.insert(name, Some(bounded(name, value, line)?));
            }
        }
        answers.push((line, answer_from_fields(&fields, line)?));
    }
    Ok(answers)
}

fn read_json<R: Read>(text: &mut TextReader<R>) -> Result<Vec<(usize, Answer)>, InputError> {
    let line = text.line_counter();
    let failure = RefCell::new(None);
    let mut answers = Vec::new();
    let result = {
        let mut parser = serde_json::Deserializer::from_reader(&mut *text);
        let records = Records {
            line: &line,
            failure: &failure,
            answers: &mut answers,
        };
        parser.deserialize_any(records).and_then(|()| parser.end())
    };
    if let Err(e) = result {
        let fault = text.take_error().or_else(|| failure.take());
        return Err(
            fault.unwrap_or_else(|| InputError::at(e.line(), format!("malformed JSON: {e}")))
        );
    }
    Ok(answers)
}

/// Keeps `e` for [`read_json`] and stops the JSON parser.
fn refuse<E: de::Error>(failure: &RefCell<Option<InputError>>, e: InputError) -> E {
    *failure.borrow_mut() = Some(e);
    E::custom("refused")
}

/// The top-level JSON array, read one record at a time (each checked as it comes).
struct Records<'a> {
    /// The line the JSON reader is on.
    line: &'a Cell<usize>,
    /// Why the records were refused.
    failure: &'a RefCell<Option<InputError>>,
    answers: &'a mut Vec<(usize, Answer)>,
}

impl Records<'_> {
    fn not_an_array<E: de::Error>(&self) -> E {
        refuse(
            self.failure,
            InputError::whole("the JSON must be an array of answer objects"),
        )
    }
}

impl<'de> Visitor<'de> for Records<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of answer objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let record = || Record {
            line: self.line,
            failure: self.failure,
        };
        while let Some((line, fields)) = seq.next_element_seed(record())? {
            check_records(self.answers.len(), line).map_err(|e| refuse(self.failure, e))?;
            let answer = answer_from_fields(&fields, line).map_err(|e| refuse(self.failure, e))?;
            self.answers.push((line, answer));
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(self.not_an_array())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(self.not_an_array())
    }
}

/// One element of the array: an answer object, read field by field, with the line it starts
/// on. An unknown field or a value that is not a string, a number or null stops the reading.
struct Record<'a> {
    line: &'a Cell<usize>,
    failure: &'a RefCell<Option<InputError>>,
}

impl Record<'_> {
    fn not_an_object<E: de::Error>(&self) -> E {
        refuse(
            self.failure,
            InputError::at(self.line.get(), "each answer must be a JSON object"),
        )
    }
}

impl<'de> DeserializeSeed<'de> for Record<'_> {
    type Value = (usize, Fields);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Record<'_> {
    type Value = (usize, Fields);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an answer object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // The parser has just read the object's `{`.
        let line = self.line.get();
        let refused = |e: InputError| refuse::<A::Error>(self.failure, e);
        let mut fields = empty_fields();
        let mut count_is_a_number = false;
        while let Some(key) = map.next_key::<String>()? {
            let Some(&name) = ANSWER_COLUMNS.iter().find(|&&name| name == key) else {
                return Err(refused(InputError::at(
                    line,
                    format!("unknown field '{}'", echo(&key)),
                )));
            };
            let (value, is_a_number) = map.next_value_seed(FieldValue {
                name,
                line,
                failure: self.failure,
            })?;
            if name == "count" {
                count_is_a_number = is_a_number;
            }
            let value = match value {
                Some(value) => Some(bounded(name, &value, line).map_err(refused)?),
                None => None,
            };
            fields.insert(name, value);
        }
        if count_is_a_number {
            return Err(refused(InputError::at(
                line,
                "count must be a string of digits (JSON numbers lose digits above 2^53)",
            )));
        }
        Ok((line, fields))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.not_an_object())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }
}

/// The value of a field: a string, a number (as JSON writes it) or null (`None`), and whether it
/// was a number.
struct FieldValue<'a> {
    name: &'static str,
    line: usize,
    failure: &'a RefCell<Option<InputError>>,
}

impl FieldValue<'_> {
    fn refuse<E: de::Error>(&self, found: &str) -> E {
        refuse(
            self.failure,
            InputError::at(
                self.line,
                format!("{} must be a string or a number, found {found}", self.name),
            ),
        )
    }
}

impl<'de> DeserializeSeed<'de> for FieldValue<'_> {
    type Value = (Option<String>, bool);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FieldValue<'_> {
    type Value = (Option<String>, bool);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, a number or null")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok((Some(value.to_string()), false))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        Ok((Some(value.to_string()), true))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        Ok((Some(value.to_string()), true))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        // As JSON writes it (3.0 stays "3.0", not a whole number of rows).
        let text = serde_json::Number::from_f64(value).map_or(value.to_string(), |n| n.to_string());
        Ok((Some(text), true))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok((None, false))
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Self::Value, E> {
        Err(self.refuse(&value.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.refuse("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.refuse("an object"))
    }
}

fn answer_from_fields(fields: &Fields, line: usize) -> Result<Answer, InputError> {
    let err = |message: String| InputError::at(line, message);
    let text = |name: &'static str| -> Result<&str, InputError> {
        fields
            .get(name)
            .and_then(|v| v.as_deref())
            .ok_or_else(|| InputError::at(line, format!("{name} is missing")))
    };
    let whole = |name: &'static str, value: &str| -> Result<u32, InputError> {
        value.parse::<u32>().map_err(|_| {
            InputError::at(
                line,
                format!("{name} '{}' is not a whole number", echo(value)),
            )
        })
    };
    let rows = whole("rows", text("rows")?)?;
    let cols = whole("cols", text("cols")?)?;
    let board = Board::new(rows, cols).map_err(|e| err(e.to_string()))?;
    if rows > cols {
        return Err(err(format!(
            "the board {board} is not canonical: boards are stored with rows <= cols ({})",
            board.canonical()
        )));
    }
    let kind_text = text("kind")?;
    let answer_kind: AnswerKind = kind_text.parse().map_err(|_| {
        let known: Vec<&str> = AnswerKind::ALL.iter().map(|k| k.name()).collect();
        err(format!(
            "unknown kind '{}' (known: {})",
            echo(kind_text),
            known.join(", ")
        ))
    })?;
    let kind = answer_kind.tour_kind();
    let between = answer_kind == AnswerKind::Between;
    let end = match (
        fields.get("to_row").and_then(|v| v.as_deref()),
        fields.get("to_col").and_then(|v| v.as_deref()),
    ) {
        (None, None) if between => {
            return Err(err(
                "a 'between' answer needs its end: to_row and to_col".into()
            ));
        }
        (None, None) => None,
        (Some(_), Some(_)) if !between => {
            return Err(err(format!(
                "to_row and to_col are only for 'between' answers, not {kind}: leave them empty"
            )));
        }
        (Some(row), Some(col)) => Some(Square::new(whole("to_row", row)?, whole("to_col", col)?)),
        _ => {
            return Err(err(
                "to_row and to_col must both be given (an end) or both be empty".into(),
            ));
        }
    };
    let start = match (fields["row"].as_deref(), fields["col"].as_deref()) {
        (None, None) if between => {
            return Err(err("a 'between' answer needs its start: row and col".into()));
        }
        (None, None) => None,
        (Some(row), Some(col)) => {
            let square = Square::new(whole("row", row)?, whole("col", col)?);
            if !board.contains(square) {
                return Err(err(format!(
                    "the start {square} is outside the {board} board"
                )));
            }
            let (canonical, _) = board.canonical_square(square);
            if let Some(end) = end {
                // A pair is canonical as a pair, not square by square.
                let pair = Question::pair(board, square, end).map_err(|e| match e {
                    PairError::Outside { .. } => {
                        err(format!("the end {end} is outside the {board} board"))
                    }
                    PairError::Same(_) => err(format!(
                        "the start and the end are both {square}: a pair needs two squares"
                    )),
                })?;
                if (pair.start, pair.end) != (Some(square), Some(end)) {
                    return Err(err(format!(
                        "the pair {square} to {end} is not canonical on {board}: it is stored as {} to {}",
                        pair.start.expect("a pair"),
                        pair.end.expect("a pair")
                    )));
                }
            } else if canonical != square {
                return Err(err(format!(
                    "the start {square} is not canonical on {board}: its class is stored as {canonical}"
                )));
            }
            Some(square)
        }
        _ => {
            return Err(err(
                "row and col must both be given (a start) or both be empty (a board total)".into(),
            ));
        }
    };
    if kind == TourKind::Closed && start.is_some() {
        return Err(err(
            "closed answers have no start (the count is the same from every square): leave row and col empty".into(),
        ));
    }
    let count_text = text("count")?;
    if !count_text.bytes().all(|b| b.is_ascii_digit())
        || (count_text.len() > 1 && count_text.starts_with('0'))
    {
        return Err(err(format!(
            "count '{}' is not a whole number in decimal digits",
            echo(count_text)
        )));
    }
    // Refused before the number is read: reading a million digits takes seconds.
    let most = max_count_digits(board);
    if count_text.len() as u64 > most {
        return Err(err(format!(
            "count '{}' has {} digits; no count of tours on the {board} board has more than {most}",
            echo(count_text),
            count_text.len()
        )));
    }
    let count: BigUint = count_text.parse().map_err(|_| {
        err(format!(
            "count '{}' is not a whole number",
            echo(count_text)
        ))
    })?;
    let engine = text("engine")?;
    let question = Question {
        board,
        kind,
        start,
        end,
    };
    // Neither the memo engine nor the reference counts an open board total: under them, a
    // total was the sum of its starts (older exports say so), and is recorded as such.
    let engine = if question.is_open_total() && provenance::counts_starts_only(engine) {
        SUM
    } else {
        engine
    };
    provenance::check_engine(&question, engine).map_err(|fault| err(fault.to_string()))?;
    if let Err(why) = trust::check_count(&question, &count) {
        return Err(err(format!(
            "{question}: count {} cannot be right: {why}",
            echo(count_text)
        )));
    }
    let version = text("version")?;
    let seconds = seconds_in_range(text("seconds")?).map_err(err)?;
    let computed_at = text("computed_at")?;
    check_utc_timestamp(computed_at).map_err(err)?;
    let source = match fields.get("source").and_then(|v| v.as_deref()) {
        None => String::new(),
        Some(source) if source.len() > MAX_SOURCE || source.chars().any(char::is_control) => {
            return Err(err(format!(
                "source must be one line of at most {MAX_SOURCE} bytes"
            )));
        }
        Some(source) => source.to_string(),
    };
    Ok(Answer {
        question,
        count,
        engine: engine.to_string(),
        version: version.to_string(),
        seconds,
        computed_at: Some(computed_at.to_string()),
        source,
    })
}

/// The longest `source` accepted (a chain of imports makes it grow).
const MAX_SOURCE: usize = 4096;

/// Records of one question agree, and complete boards add up to their totals.
fn check_consistency(answers: &[(usize, Answer)]) -> Result<(), InputError> {
    let mut seen: HashMap<Question, (usize, &BigUint)> = HashMap::new();
    for (line, answer) in answers {
        if let Some(&(first, count)) = seen.get(&answer.question) {
            if *count != answer.count {
                return Err(InputError::at(
                    *line,
                    format!(
                        "{} is {} here but {} on line {first}",
                        answer.question,
                        echo(&answer.count.to_string()),
                        echo(&count.to_string())
                    ),
                ));
            }
        } else {
            seen.insert(answer.question, (*line, &answer.count));
        }
    }
    // Starts against their pairs, on the boards with pairs in the file.
    let with_pairs: HashSet<Board> = seen
        .keys()
        .filter(|q| matches!(q.shape(), Shape::Between(..)))
        .map(|q| q.board)
        .collect();
    for (line, answer) in answers.iter().filter(|(_, a)| {
        a.question.kind == TourKind::Open
            && matches!(a.question.shape(), Shape::From(_))
            && with_pairs.contains(&a.question.board)
    }) {
        let (sum, complete) =
            trust::pairs_sum(&answer.question, |pair| seen.get(pair).map(|&(_, c)| c));
        if trust::check_start(&answer.count, &sum, complete).is_err() {
            let pairs = if complete {
                "its pairs in this file add up to"
            } else {
                "the pairs from it in this file already add up to more:"
            };
            return Err(InputError::at(
                *line,
                format!(
                    "{} is {}, but {pairs} {}",
                    answer.question,
                    echo(&answer.count.to_string()),
                    echo(&sum.to_string())
                ),
            ));
        }
    }
    for (line, answer) in answers.iter().filter(|(_, a)| a.question.is_open_total()) {
        let q = answer.question;
        // A board has at least one class of starts per 8 squares: with more squares than 8
        // times the records, the file cannot hold them all, and listing a huge board's starts
        // would take long.
        if q.board.squares() > 8 * answers.len() as u64 {
            continue;
        }
        let (sum, complete) =
            trust::starts_sum(q.board, |start| seen.get(start).map(|&(_, count)| count));
        if trust::check_total(&answer.count, &sum, complete).is_err() {
            let starts = if complete {
                "its starts in this file add up to"
            } else {
                "the starts of it in this file already add up to more:"
            };
            return Err(InputError::at(
                *line,
                format!(
                    "the total of {} is {}, but {starts} {}",
                    q.board,
                    echo(&answer.count.to_string()),
                    echo(&sum.to_string())
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "rows,cols,kind,row,col,count,engine,version,seconds,computed_at\n";

    fn csv(rows: &str) -> Result<Vec<(usize, Answer)>, String> {
        read_answers(&format!("{HEADER}{rows}"), ExchangeFormat::Csv).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_good_records() {
        let answers = csv("3,4,open,0,0,2,memo,0.1.0,0.001,2026-11-29T14:28:00Z\n\
             3,4,open,,,16,memo,0.1.0,0.002,2026-11-29T14:28:00Z\n")
        .unwrap();
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0].0, 2);
        assert_eq!(answers[1].1.question.start, None);
    }

    #[test]
    fn rejects_bad_records_with_their_lines() {
        let good = "3,4,open,0,0,2,memo,0.1.0,0.001,2026-11-29T14:28:00Z\n";
        let cases = [
            (
                "4,3,open,0,0,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: the board 4x3 is not canonical",
            ),
            (
                "3,4,open,2,3,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: the start (2, 3) is not canonical",
            ),
            (
                "3,4,open,0,0,02,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: count '02'",
            ),
            (
                "3,4,open,0,0,-2,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: count '-2'",
            ),
            (
                "3,4,open,0,0,3,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: open tours of 3x4 from (0, 0) is 3 here but 2 on line 2",
            ),
            (
                "3,4,closedish,0,0,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: unknown kind 'closedish'",
            ),
            (
                "3,4,open,0,,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: row and col must both be given",
            ),
            (
                "3,4,open,1,0,4,guess,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: unknown engine 'guess'",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,-1,2026-11-29T14:28:00Z",
                "line 3: seconds '-1'",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,0,yesterday",
                "line 3: computed_at 'yesterday'",
            ),
            ("3,4,open,1,0,4,memo", "line 3: malformed CSV"),
            (
                "3,5,open,0,0,4,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: open tours of 3x5 from (0, 0): count 4 cannot be right: expected 0 (no open tour on 3x5",
            ),
            (
                "3,4,open,1,0,4,theorem,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: engine 'theorem' only answers zeros",
            ),
            (
                "6,6,closed,0,0,19724,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: closed answers have no start",
            ),
            (
                "6,6,closed,,,9863,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: closed tours of 6x6 (directed board total): count 9863 cannot be right: expected an even number",
            ),
            (
                "3,4,open,,,18,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,1,0,4,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,0,1,0,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,1,1,0,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: the total of 3x4 is 18, but its starts in this file add up to 16",
            ),
            (
                "3,4,open,,,4,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,1,0,4,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: the total of 3x4 is 4, but the starts of it in this file already add up to more: 16",
            ),
            (
                "5,5,open,,,1729,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: open tours of 5x5 (directed board total): count 1729 cannot be right: expected an even number (a directed board total counts every open tour once in each direction",
            ),
            (
                "5,5,open,0,0,12345678901234567890,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: open tours of 5x5 from (0, 0): count 12345678901234567890 cannot be right: expected at most ",
            ),
            (
                "5,5,open,0,0,123456789012345678901234567890123456789,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: count '123456789012345678901234567890123456789' has 39 digits; no count of tours on the 5x5 board has more than 23",
            ),
            (
                "6,6,closed,,,19724,sum,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: engine 'sum' (a sum of other counts) only answers open board totals (from their starts) and open tours from a square (from its pairs), not closed tours",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,1e308,2026-11-29T14:28:00Z",
                "line 3: seconds '1e308' is out of range",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,NaN,2026-11-29T14:28:00Z",
                "line 3: seconds 'NaN' is not a number of seconds",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,-0.5,2026-11-29T14:28:00Z",
                "line 3: seconds '-0.5' is not a number of seconds",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,inf,2026-11-29T14:28:00Z",
                "line 3: seconds 'inf' is not a number of seconds",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,0,9999-99-99T99:99:99Z",
                "line 3: computed_at '9999-99-99T99:99:99Z' is not a real time: the month is not 01 to 12",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,0,2026-02-29T00:00:00Z",
                "line 3: computed_at '2026-02-29T00:00:00Z' is not a real time: the day is not in that month",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,0,2026-11-29T24:00:00Z",
                "line 3: computed_at '2026-11-29T24:00:00Z' is not a real time: the hour",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,0,1969-12-31T23:59:59Z",
                "line 3: computed_at '1969-12-31T23:59:59Z' is not a real time: the year is before 1970",
            ),
            (
                "3,4,open,1,0,4,memo,0.1.0,0,9999-12-31T23:59:59Z",
                "line 3: computed_at '9999-12-31T23:59:59Z' is in the future",
            ),
        ];
        for (row, expected) in cases {
            let err = csv(&format!("{good}{row}\n")).unwrap_err();
            assert!(err.starts_with(expected), "{row}: {err}");
        }
        assert!(
            read_answers("rows,cols\n", ExchangeFormat::Csv)
                .unwrap_err()
                .to_string()
                .ends_with("; column 3 (`kind`) is missing")
        );
    }

    #[test]
    fn sources_are_read_and_old_exports_have_none() {
        let new = "rows,cols,kind,row,col,count,engine,version,seconds,computed_at,source\n\
                   3,4,open,,,16,sum,0.1.0,0,2026-11-29T14:28:00Z,\"sum of starts (memo, computed)\"\n\
                   3,4,open,0,0,2,memo,0.1.0,0,2026-11-29T14:28:00Z,computed\n";
        let answers = read_answers(new, ExchangeFormat::Csv).unwrap();
        assert_eq!(answers[0].1.source, "sum of starts (memo, computed)");
        assert_eq!(answers[1].1.source, "computed");
        // An old export: no source, and a total under the memo engine is a sum of starts.
        let old = csv("3,4,open,,,16,memo,0.1.0,0,2026-11-29T14:28:00Z\n").unwrap();
        assert_eq!(old[0].1.source, "");
        assert_eq!(old[0].1.engine, SUM);
        assert_eq!(imported_source("a.csv", ""), "imported from a.csv");
        assert_eq!(
            imported_source("a.csv", "computed"),
            "imported from a.csv (computed)"
        );
    }

    /// Pairs: the end in `to_row`, `to_col`, only for `between`, the pair canonical as a pair.
    #[test]
    fn pairs_are_read_with_their_end() {
        let header = ANSWER_COLUMNS.join(",");
        let read = |rows: &str| {
            read_answers(&format!("{header}\n{rows}"), ExchangeFormat::Csv)
                .map_err(|e| e.to_string())
        };
        let pair =
            read("5,5,between,0,0,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,4,4\n").unwrap();
        assert_eq!(
            pair[0].1.question,
            Question::between(
                Board::new(5, 5).unwrap(),
                Square::new(0, 0),
                Square::new(4, 4)
            )
        );
        for (row, expected) in [
            (
                "5,5,between,4,4,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,0,0",
                "line 2: the pair (4, 4) to (0, 0) is not canonical",
            ),
            (
                "5,5,between,0,0,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,,",
                "line 2: a 'between' answer needs its end",
            ),
            (
                "5,5,open,0,0,304,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,4,4",
                "line 2: to_row and to_col are only for 'between' answers",
            ),
            (
                "5,5,between,0,0,1,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,0,1",
                "line 2: open tours of 5x5 from (0, 0) to (0, 1): count 1 cannot be right",
            ),
            (
                "5,5,between,0,0,1,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,0,0",
                "line 2: the start and the end are both (0, 0)",
            ),
            (
                "5,5,between,0,0,56,sum,0.1.0,0,2026-11-29T14:28:00Z,computed,4,4",
                "line 2: engine 'sum' (a sum of other counts) only answers open board totals (from their starts) and open tours from a square (from its pairs), not tours between two squares",
            ),
        ] {
            let err = read(&format!("{row}\n")).unwrap_err();
            assert!(err.starts_with(expected), "{row}: {err}");
        }
        // A start added up from its pairs is read; with pairs of it in the file, it must be
        // at least their sum.
        let start =
            "5,5,open,0,0,304,sum,0.1.0,0,2026-11-29T14:28:00Z,\"sum of pairs (memo, computed)\",,";
        assert_eq!(read(&format!("{start}\n")).unwrap()[0].1.engine, SUM);
        let low = start.replace(",304,", ",50,");
        let pair = "5,5,between,0,0,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,4,4";
        assert_eq!(
            read(&format!("{pair}\n{low}\n")).unwrap_err(),
            "line 3: open tours of 5x5 from (0, 0) is 50, but the pairs from it in this file already add up to more: 56"
        );
    }

    #[test]
    fn long_headers_are_cut() {
        let header = HEADER.replace("version", &format!("ver\0{}", "x".repeat(100)));
        assert_eq!(
            read_answers(&header, ExchangeFormat::Csv)
                .unwrap_err()
                .to_string(),
            format!(
                "line 1: the header must be `{}` (or, from an older knights, without `,to_row,to_col` or `,source,to_row,to_col`); column 8 is `ver\\0{}…`, not `version`",
                ANSWER_COLUMNS.join(","),
                "x".repeat(36)
            )
        );
    }

    #[test]
    fn json_records_have_lines() {
        let text = "[\n{\"rows\":3,\"cols\":4,\"kind\":\"open\",\"row\":0,\"col\":0,\"count\":\"2\",\"engine\":\"memo\",\"version\":\"0.1.0\",\"seconds\":0.1,\"computed_at\":\"2026-11-29T14:28:00Z\"},\n{\"rows\":3,\"cols\":4,\"kind\":\"open\",\"row\":null,\"col\":null,\"count\":16,\"engine\":\"memo\",\"version\":\"0.1.0\",\"seconds\":0.1,\"computed_at\":\"2026-11-29T14:28:00Z\"}\n]\n";
        let err = read_answers(text, ExchangeFormat::Json)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("line 3: count must be a string"), "{err}");
        let err = read_answers("[\n{\"rows\": 3,\n", ExchangeFormat::Json)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("line 3: malformed JSON") || err.starts_with("line 2: malformed JSON"),
            "{err}"
        );
    }
}
