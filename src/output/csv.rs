//! CSV: a header line, then one row per answer.

use serde::Serialize;

use super::{AnswerRecord, BoardTotal, ClosedReport, Exporter, PairCount, StartCount};
use crate::count::CountTable;
use crate::error::Error;
use crate::store::{ANSWER_COLUMNS, Answer};

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

    fn pair_count(&self, answer: &PairCount) -> Result<String, Error> {
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
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer
            .write_record(ANSWER_COLUMNS)
            .expect("writing to memory");
        for answer in answers {
            let r = AnswerRecord::from(answer);
            let field = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_default();
            writer
                .write_record([
                    r.rows.to_string(),
                    r.cols.to_string(),
                    r.kind.to_string(),
                    field(r.row),
                    field(r.col),
                    r.count.to_string(),
                    r.engine,
                    r.version,
                    format!("{:.6}", r.seconds),
                    r.computed_at,
                    r.source,
                    field(r.to_row),
                    field(r.to_col),
                ])
                .expect("writing to memory");
        }
        Ok(String::from_utf8(writer.into_inner().expect("writing to memory")).expect("UTF-8"))
    }
}
