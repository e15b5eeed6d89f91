//! CSV: a header line, then one row per answer.

use serde::Serialize;

use super::records::{BetweenCount, BoardTotal, ClosedReport, Exporter, StartCount};
use crate::count::CountTable;
use crate::error::Error;
use crate::store::Answer;

/// Writes CSV: `rows,cols,row,col,kind,count,reason` for counts, the export columns for stored
/// answers.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvExporter;

fn to_csv<T: Serialize>(header: &[&str], records: impl IntoIterator<Item = T>) -> String {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.write_record(header).expect("writing to memory");
    for record in records {
        writer.serialize(record).expect("answers always serialize");
    }
    String::from_utf8(writer.into_inner().expect("writing to memory")).expect("CSV of UTF-8")
}

const START_COLUMNS: [&str; 7] = ["rows", "cols", "row", "col", "kind", "count", "reason"];

impl Exporter for CsvExporter {
    fn start_count(&self, answer: &StartCount) -> Result<String, Error> {
        Ok(to_csv(&START_COLUMNS, [answer]))
    }

    fn between_count(&self, answer: &BetweenCount) -> Result<String, Error> {
        Ok(to_csv(
            &[
                "rows", "cols", "row", "col", "to_row", "to_col", "kind", "count", "reason",
            ],
            [answer],
        ))
    }

    /// One row per square (the board totals are the sum of the `count` column).
    fn table(&self, table: &CountTable) -> Result<String, Error> {
        let board = table.board();
        let answers = board
            .all_squares()
            .map(|square| StartCount::open(board, square, table.get(square).clone()));
        Ok(to_csv(&START_COLUMNS, answers))
    }

    fn closed_board(&self, report: &ClosedReport) -> Result<String, Error> {
        Ok(to_csv(
            &[
                "rows",
                "cols",
                "kind",
                "cycles",
                "directed",
                "per_square",
                "reason",
            ],
            [report],
        ))
    }

    fn board_totals(&self, totals: &[BoardTotal]) -> Result<String, Error> {
        Ok(to_csv(
            &[
                "rows",
                "cols",
                "kind",
                "total_directed",
                "total_undirected",
                "reason",
            ],
            totals,
        ))
    }

    fn start_counts(&self, answers: &[StartCount]) -> Result<String, Error> {
        Ok(to_csv(&START_COLUMNS, answers))
    }

    fn answers(&self, answers: &[Answer]) -> Result<String, Error> {
        Ok(super::stream::answers_text(
            super::records::Format::Csv,
            answers,
        ))
    }
}
