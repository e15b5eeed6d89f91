//! Plain text: a bare number for one count, an aligned grid for a table.

use std::fmt::Write;

use super::{Exporter, StartCount};
use crate::count::CountTable;
use crate::error::Error;

/// Writes counts for people: the number alone, or the board as a grid of counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextExporter;

impl Exporter for TextExporter {
    fn start_count(&self, answer: &StartCount) -> Result<String, Error> {
        Ok(format!("{}\n", answer.count))
    }

    fn table(&self, table: &CountTable) -> Result<String, Error> {
        let board = table.board();
        let width = table
            .counts()
            .iter()
            .map(|c| c.to_string().len())
            .max()
            .unwrap_or(1);
        let mut out = format!("Open tours from each square of the {board} board (directed):\n");
        for row in table.rows() {
            let cells: Vec<String> = row.iter().map(|c| format!("{c:>width$}")).collect();
            writeln!(out, "{}", cells.join(" ")).expect("writing to a String");
        }
        writeln!(out, "total (directed):   {}", table.total_directed()?).expect("String");
        writeln!(out, "total (undirected): {}", table.total_undirected()?).expect("String");
        Ok(out)
    }
}
