//! JSON: one compact object per answer, counts as strings of decimal digits.

use super::records::{BetweenCount, BoardTotal, ClosedReport, Exporter, StartCount, TableReport};
use crate::count::CountTable;
use crate::error::Error;
use crate::store::Answer;

/// Writes compact JSON; lists are arrays with one element per line.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonExporter;

/// One value as compact JSON on one line (the JSON of every command and of the server).
pub fn to_json<T: serde::Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string(value).expect("answers and tours always serialize");
    text.push('\n');
    text
}

/// An array with one element per line, so that line numbers name records.
fn to_json_lines<T: serde::Serialize>(values: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = values
        .into_iter()
        .map(|v| serde_json::to_string(&v).expect("answers always serialize"))
        .collect();
    if items.is_empty() {
        "[]\n".to_string()
    } else {
        format!("[\n{}\n]\n", items.join(",\n"))
    }
}

impl Exporter for JsonExporter {
    fn start_count(&self, answer: &StartCount) -> Result<String, Error> {
        Ok(to_json(answer))
    }

    fn between_count(&self, answer: &BetweenCount) -> Result<String, Error> {
        Ok(to_json(answer))
    }

    fn table(&self, table: &CountTable) -> Result<String, Error> {
        Ok(to_json(&TableReport::open(table)?))
    }

    fn closed_board(&self, report: &ClosedReport) -> Result<String, Error> {
        Ok(to_json(report))
    }

    fn board_totals(&self, totals: &[BoardTotal]) -> Result<String, Error> {
        Ok(match totals {
            [total] => to_json(total),
            many => to_json_lines(many),
        })
    }

    fn start_counts(&self, answers: &[StartCount]) -> Result<String, Error> {
        Ok(to_json_lines(answers))
    }

    fn answers(&self, answers: &[Answer]) -> Result<String, Error> {
        Ok(super::stream::answers_text(
            super::records::Format::Json,
            answers,
        ))
    }
}
