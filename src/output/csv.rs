//! CSV: a header line, then one row per start square.

use super::{Exporter, StartCount};
use crate::count::CountTable;
use crate::error::Error;

/// Writes CSV with the columns `rows,cols,row,col,kind,count`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvExporter;

fn to_csv<'a>(answers: impl IntoIterator<Item = &'a StartCount>) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for answer in answers {
        writer.serialize(answer).expect("answers always serialize");
    }
    String::from_utf8(writer.into_inner().expect("writing to memory")).expect("CSV of ASCII")
}

impl Exporter for CsvExporter {
    fn start_count(&self, answer: &StartCount) -> Result<String, Error> {
        Ok(to_csv([answer]))
    }

    /// One row per square (the board totals are the sum of the `count` column).
    fn table(&self, table: &CountTable) -> Result<String, Error> {
        let board = table.board();
        let answers: Vec<StartCount> = board
            .all_squares()
            .map(|square| StartCount::open(board, square, table.get(square)))
            .collect();
        Ok(to_csv(&answers))
    }
}
