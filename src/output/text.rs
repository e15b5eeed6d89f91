//! Plain text: a bare number for one count, aligned columns for everything else.

use std::fmt::Write;

use super::{AnswerRecord, BoardTotal, ClosedReport, Exporter, StartCount};
use crate::count::CountTable;
use crate::error::Error;
use crate::store::Answer;

/// Writes counts for people: the number alone, the board as a grid of counts, or a table with
/// a header line.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextExporter;

/// Lines of right-aligned columns (left-aligned where `left[i]`), separated by two spaces.
fn columns(header: &[&str], left: &[bool], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.len());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .zip(left)
            .map(|((cell, &width), &left)| {
                if left {
                    format!("{cell:<width$}")
                } else {
                    format!("{cell:>width$}")
                }
            })
            .collect();
        writeln!(out, "{}", cells.join("  ").trim_end()).expect("writing to a String");
    }
    out
}

impl TextExporter {
    /// One board of a series as a line of text (after a header line when `first`), for
    /// printing as each board is known: sides and kind aligned, counts right-aligned under
    /// their headings (wider counts push on: the widths of later boards are not known yet).
    pub fn series_line(total: &BoardTotal, first: bool) -> String {
        let header = if first {
            "rows  cols  kind    directed  undirected\n"
        } else {
            ""
        };
        format!(
            "{header}{:>4}  {:>4}  {:<6}  {:>8}  {:>10}\n",
            total.rows, total.cols, total.kind, total.total_directed, total.total_undirected
        )
    }
}

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
        writeln!(out, "total (directed):   {}", table.total_directed()).expect("String");
        writeln!(out, "total (undirected): {}", table.total_undirected()).expect("String");
        Ok(out)
    }

    fn closed_board(&self, report: &ClosedReport) -> Result<String, Error> {
        Ok(format!(
            "Closed tours of the {}x{} board:\n\
             cycles (each closed tour once):        {}\n\
             directed (each in both directions):    {}\n\
             from any one square (directed):        {}  (the same for every square: a closed tour passes through them all)\n",
            report.rows, report.cols, report.cycles, report.directed, report.per_square
        ))
    }

    /// One board: its totals on two lines; several: a table, one line per board.
    fn board_totals(&self, totals: &[BoardTotal]) -> Result<String, Error> {
        if let [total] = totals {
            let once = if total.kind == "closed" {
                "cycles"
            } else {
                "undirected"
            };
            return Ok(format!(
                "{} tours of the {}x{} board:\ntotal (directed):   {}\ntotal ({once}): {}{}\n",
                if total.kind == "closed" {
                    "Closed"
                } else {
                    "Open"
                },
                total.rows,
                total.cols,
                total.total_directed,
                if total.kind == "closed" { "    " } else { "" },
                total.total_undirected
            ));
        }
        let rows: Vec<Vec<String>> = totals
            .iter()
            .map(|t| {
                vec![
                    t.rows.to_string(),
                    t.cols.to_string(),
                    t.kind.to_string(),
                    t.total_directed.to_string(),
                    t.total_undirected.to_string(),
                ]
            })
            .collect();
        Ok(columns(
            &["rows", "cols", "kind", "directed", "undirected"],
            &[false, false, true, false, false],
            &rows,
        ))
    }

    fn start_counts(&self, answers: &[StartCount]) -> Result<String, Error> {
        let rows: Vec<Vec<String>> = answers
            .iter()
            .map(|a| {
                vec![
                    a.rows.to_string(),
                    a.cols.to_string(),
                    a.row.to_string(),
                    a.col.to_string(),
                    a.kind.to_string(),
                    a.count.to_string(),
                ]
            })
            .collect();
        Ok(columns(
            &["rows", "cols", "row", "col", "kind", "count"],
            &[false, false, false, false, true, false],
            &rows,
        ))
    }

    fn answers(&self, answers: &[Answer]) -> Result<String, Error> {
        let rows: Vec<Vec<String>> = answers
            .iter()
            .map(|a| {
                let r = AnswerRecord::from(a);
                vec![
                    format!("{}x{}", r.rows, r.cols),
                    r.kind.to_string(),
                    match (r.row, r.col) {
                        (Some(row), Some(col)) => format!("({row}, {col})"),
                        _ => "total".to_string(),
                    },
                    r.count.to_string(),
                    r.engine,
                    format!("{:.3}", r.seconds),
                    r.computed_at,
                ]
            })
            .collect();
        Ok(columns(
            &[
                "board",
                "kind",
                "start",
                "count",
                "engine",
                "seconds",
                "computed_at",
            ],
            &[true, true, true, false, true, false, true],
            &rows,
        ))
    }
}
