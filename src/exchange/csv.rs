//! The CSV of an export: a header row (the columns of [`ANSWER_COLUMNS`], or the first ten or
//! eleven of an older knights), then one record per row, each read as it comes.

use std::io::Read;

use super::record::{Kept, answer_from_fields, bounded, empty_fields};
use crate::echo::echo;
use crate::input::{InputError, TextReader};
use crate::memory::MemoryBudget;
use crate::store::{ANSWER_COLUMNS, Answer};

/// The columns of an export written before `source` existed, and before pairs (`to_row`,
/// `to_col`): such files are read as they are.
const LEGACY_COLUMNS: [usize; 2] = [10, 11];

pub(super) fn read_csv<R: Read>(
    text: &mut TextReader<R>,
    budget: MemoryBudget,
) -> Result<Vec<(usize, Answer)>, InputError> {
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
    let mut kept = Kept::new(budget);
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
        let mut fields = empty_fields();
        for (&name, value) in ANSWER_COLUMNS.iter().zip(record.iter()) {
            let value = value.trim();
            if !value.is_empty() {
                fields.insert(name, Some(bounded(name, value, line)?));
            }
        }
        kept.push(line, answer_from_fields(&fields, line)?)?;
    }
    Ok(kept.answers)
}
