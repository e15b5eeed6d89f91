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
//! question must agree, and a board total must equal the sum of its starts when the file holds
//! them all (and be at least the sum of those it holds). The first problem is reported with its
//! line. What needs the store or the engines (conflicts, totals against stored starts, recounts)
//! is checked by [`crate::verify::check_import`].
//!
//! The `source` column (where the answer came from) is optional: exports of older versions have
//! none. Their open totals under the memo engine or the reference were sums of their starts
//! (neither engine counts a total) and are read with the engine `sum`.

use std::collections::HashMap;

use num_bigint::BigUint;
use serde_json::Value;

use crate::board::{Board, Square};
use crate::error::Error;
use crate::existence::no_tour;
use crate::input::InputError;
use crate::question::{Question, TourKind};
use crate::store::{ANSWER_COLUMNS, Answer, ImportReport, SUM, Store, StoreError};
use crate::trust;

/// Engines whose answers are accepted (`theorem`: a zero decided by an existence theorem;
/// `sum`: an open board total added up from its starts).
pub const KNOWN_ENGINES: [&str; 5] = ["memo", "frontier", "reference", "theorem", SUM];

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

/// Reads and checks every record of an export; returns the answers with their line numbers.
pub fn read_answers(
    text: &str,
    format: ExchangeFormat,
) -> Result<Vec<(usize, Answer)>, InputError> {
    let answers = match format {
        ExchangeFormat::Csv => read_csv(text)?,
        ExchangeFormat::Json => read_json(text)?,
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

/// The columns of an export written before `source` existed.
const LEGACY_COLUMNS: usize = 10;

fn read_csv(text: &str) -> Result<Vec<(usize, Answer)>, InputError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| InputError::at(1, format!("cannot read the CSV header: {e}")))?
        .clone();
    let header: Vec<&str> = headers.iter().map(str::trim).collect();
    if header != ANSWER_COLUMNS && header != ANSWER_COLUMNS[..LEGACY_COLUMNS] {
        return Err(InputError::at(
            1,
            format!(
                "the header must be `{}` (or, from an older knights, without `,source`), found `{}`",
                ANSWER_COLUMNS.join(","),
                header.join(",")
            ),
        ));
    }
    let mut answers = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            InputError::at(line, format!("malformed CSV: {e}"))
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let mut fields: Fields = ANSWER_COLUMNS
            .iter()
            .zip(record.iter())
            .map(|(&name, value)| {
                let value = value.trim();
                (name, (!value.is_empty()).then(|| value.to_string()))
            })
            .collect();
        fields.entry("source").or_insert(None);
        answers.push((line, answer_from_fields(&fields, line)?));
    }
    Ok(answers)
}

fn read_json(text: &str) -> Result<Vec<(usize, Answer)>, InputError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| InputError::at(e.line(), format!("malformed JSON: {e}")))?;
    let Value::Array(records) = value else {
        return Err(InputError::whole(
            "the JSON must be an array of answer objects",
        ));
    };
    let lines = object_lines(text);
    let mut answers = Vec::new();
    for (index, record) in records.iter().enumerate() {
        let line = lines.get(index).copied().unwrap_or(0);
        let Value::Object(object) = record else {
            return Err(InputError::at(line, "each answer must be a JSON object"));
        };
        if let Some(unknown) = object
            .keys()
            .find(|k| !ANSWER_COLUMNS.contains(&k.as_str()))
        {
            return Err(InputError::at(line, format!("unknown field '{unknown}'")));
        }
        let mut fields = Fields::new();
        for name in ANSWER_COLUMNS {
            let text = match object.get(name) {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                Some(other) => {
                    return Err(InputError::at(
                        line,
                        format!("{name} must be a string or a number, found {other}"),
                    ));
                }
            };
            fields.insert(name, text);
        }
        if let Some(Value::Number(_)) = object.get("count") {
            return Err(InputError::at(
                line,
                "count must be a string of digits (JSON numbers lose digits above 2^53)",
            ));
        }
        answers.push((line, answer_from_fields(&fields, line)?));
    }
    Ok(answers)
}

/// The line on which each element of a top-level JSON array starts.
fn object_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let (mut line, mut depth) = (1, 0usize);
    let (mut in_string, mut escaped, mut expect_element) = (false, false, false);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if c.is_whitespace() {
            continue;
        }
        if depth == 1 && expect_element && c != ']' {
            lines.push(line);
            expect_element = false;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                expect_element = depth == 1;
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            ',' => expect_element = depth == 1,
            _ => {}
        }
    }
    lines
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
        value
            .parse::<u32>()
            .map_err(|_| InputError::at(line, format!("{name} '{value}' is not a whole number")))
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
    let kind: TourKind = text("kind")?.parse().map_err(err)?;
    let start = match (fields["row"].as_deref(), fields["col"].as_deref()) {
        (None, None) => None,
        (Some(row), Some(col)) => {
            let square = Square::new(whole("row", row)?, whole("col", col)?);
            if !board.contains(square) {
                return Err(err(format!(
                    "the start {square} is outside the {board} board"
                )));
            }
            let (canonical, _) = board.canonical_square(square);
            if canonical != square {
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
            "count '{count_text}' is not a whole number in decimal digits"
        )));
    }
    let count: BigUint = count_text
        .parse()
        .map_err(|_| err(format!("count '{count_text}' is not a whole number")))?;
    let engine = text("engine")?;
    if !KNOWN_ENGINES.contains(&engine) {
        return Err(err(format!(
            "unknown engine '{engine}' (known: {})",
            KNOWN_ENGINES.join(", ")
        )));
    }
    let open_total = kind == TourKind::Open && start.is_none();
    // Neither the memo engine nor the reference counts an open board total: under them, a
    // total was the sum of its starts (older exports say so), and is recorded as such.
    let engine = match engine {
        "memo" | "reference" if open_total => SUM,
        SUM if !open_total => {
            return Err(err(format!(
                "engine '{SUM}' (the sum of a board's starts) only answers open board totals, not {kind} tours from a square or closed tours"
            )));
        }
        engine => engine,
    };
    let question = Question { board, kind, start };
    if let Err(why) = trust::check_count(&question, &count) {
        return Err(err(format!(
            "{question}: count {count} cannot be right: {why}"
        )));
    }
    if engine == "theorem" && no_tour(board, kind, start).is_none() {
        return Err(err(format!(
            "engine 'theorem' only answers zeros that a theorem decides, and none applies to {kind} tours on {board}"
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

/// The most seconds an answer may have taken: ten years of computing.
pub const MAX_SECONDS: f64 = 10.0 * 365.25 * 86_400.0;

/// Reads a number of seconds: a finite number from 0 to [`MAX_SECONDS`] (`-0` is 0).
pub fn seconds_in_range(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if (0.0..=MAX_SECONDS).contains(&seconds) => Ok(seconds.abs()),
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 => Err(format!(
            "seconds '{text}' is out of range: at most {MAX_SECONDS} (ten years) is believable"
        )),
        _ => Err(format!(
            "seconds '{text}' is not a number of seconds (0 or more)"
        )),
    }
}

/// Checks a time `YYYY-MM-DDTHH:MM:SSZ` (UTC): its shape, and that it names a real moment (a
/// month 1 to 12, a day of that month, hours 0 to 23, minutes and seconds 0 to 59) from the
/// year 1970 to a day past this machine's clock.
pub fn check_utc_timestamp(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let shaped = b.len() == 20
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            19 => c == b'Z',
            _ => c.is_ascii_digit(),
        });
    if !shaped {
        return Err(format!(
            "computed_at '{text}' is not a UTC time like 2026-11-29T14:28:00Z"
        ));
    }
    let number = |from: usize, to: usize| -> u32 { text[from..to].parse().unwrap_or(0) };
    let (year, month, day) = (number(0, 4), number(5, 7), number(8, 10));
    let (hour, minute, second) = (number(11, 13), number(14, 16), number(17, 19));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    let why = if year < 1970 {
        "the year is before 1970"
    } else if days == 0 {
        "the month is not 01 to 12"
    } else if day == 0 || day > days {
        "the day is not in that month"
    } else if hour > 23 {
        "the hour is not 00 to 23"
    } else if minute > 59 {
        "the minute is not 00 to 59"
    } else if second > 59 {
        "the second is not 00 to 59"
    } else {
        let at = days_from_civil(year, month, day) * 86_400
            + i64::from(hour * 3600 + minute * 60 + second);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        if at > now + 86_400 {
            return Err(format!(
                "computed_at '{text}' is in the future (more than a day past this machine's clock)"
            ));
        }
        return Ok(());
    };
    Err(format!("computed_at '{text}' is not a real time: {why}"))
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: u32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let m = i64::from(month);
    let day_of_year = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Records of one question agree, and complete boards add up to their totals.
fn check_consistency(answers: &[(usize, Answer)]) -> Result<(), InputError> {
    let mut seen: HashMap<Question, (usize, &BigUint)> = HashMap::new();
    for (line, answer) in answers {
        if let Some(&(first, count)) = seen.get(&answer.question) {
            if *count != answer.count {
                return Err(InputError::at(
                    *line,
                    format!(
                        "{} is {} here but {count} on line {first}",
                        answer.question, answer.count
                    ),
                ));
            }
        } else {
            seen.insert(answer.question, (*line, &answer.count));
        }
    }
    for (line, answer) in answers
        .iter()
        .filter(|(_, a)| a.question.kind == TourKind::Open && a.question.start.is_none())
    {
        let q = answer.question;
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
                    "the total of {} is {}, but {starts} {sum}",
                    q.board, answer.count
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
                "5,5,open,0,0,123456789012345678901234567890123456789,memo,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: open tours of 5x5 from (0, 0): count 123456789012345678901234567890123456789 cannot be right: expected at most ",
            ),
            (
                "3,4,open,1,0,4,sum,0.1.0,0,2026-11-29T14:28:00Z",
                "line 3: engine 'sum' (the sum of a board's starts) only answers open board totals",
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
                .contains("the header must be")
        );
    }

    #[test]
    fn dates_and_seconds_in_range_are_read() {
        assert_eq!(seconds_in_range("-0"), Ok(0.0));
        assert_eq!(seconds_in_range("12.5"), Ok(12.5));
        assert!(check_utc_timestamp("2024-02-29T23:59:59Z").is_ok());
        assert!(check_utc_timestamp("1970-01-01T00:00:00Z").is_ok());
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
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

    #[test]
    fn json_element_lines() {
        assert_eq!(
            object_lines("[\n{\"a\": [1, 2]},\n 3, \"x,y\",\n{}\n]"),
            vec![2, 3, 3, 4]
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
