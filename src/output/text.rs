//! Plain text: a bare number for one count, aligned columns for everything else.

use std::fmt::Write;

use super::columns::{columns, columns_at_least, pad};
use super::records::{BetweenCount, BoardTotal, ClosedReport, Exporter, StartCount};
use crate::count::CountTable;
use crate::error::Error;
use crate::store::Answer;

/// Writes counts for people: the number alone, the board as a grid of counts, or a table with
/// a header line.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextExporter;

/// The columns of a series: sides, kind, the two counts; and their least widths.
const SERIES_HEADER: [&str; 5] = ["rows", "cols", "kind", "directed", "undirected"];
const SERIES_WIDTHS: [usize; 5] = [4, 4, 6, 8, 10];
const SERIES_LEFT: [bool; 5] = [false, false, true, false, false];

fn series_cells(total: &BoardTotal) -> Vec<String> {
    vec![
        total.rows.to_string(),
        total.cols.to_string(),
        total.kind.to_string(),
        total.total_directed.to_string(),
        total.total_undirected.to_string(),
    ]
}

impl TextExporter {
    /// A series as an aligned table, one line per board.
    pub fn series_table(totals: &[BoardTotal]) -> String {
        let rows: Vec<Vec<String>> = totals.iter().map(series_cells).collect();
        columns_at_least(&SERIES_HEADER, &SERIES_WIDTHS, &SERIES_LEFT, &rows)
    }

    /// One board of a series as a line of text, for printing as each board is known, in
    /// columns of `widths` (at first the least widths): when a count is wider than its column,
    /// the columns widen and the line comes under a new header, so that every line stands
    /// aligned under the header above it. A column widens by half as much again as the count
    /// needs: a series' counts grow by a digit every board or two, and columns that widened
    /// only to the count would need a new header at almost every line.
    pub fn series_line(total: &BoardTotal, widths: &mut Option<Vec<usize>>) -> String {
        let cells = series_cells(total);
        let mut grown = widths.clone().unwrap_or_else(|| SERIES_WIDTHS.to_vec());
        for (width, cell) in grown.iter_mut().zip(&cells) {
            if cell.len() > *width {
                *width = cell.len() + cell.len() / 2;
            }
        }
        let text = columns_at_least(&SERIES_HEADER, &grown, &SERIES_LEFT, &[cells]);
        if widths.as_ref() == Some(&grown) {
            text.split_once('\n')
                .map_or(text.clone(), |(_, line)| line.to_string())
        } else {
            *widths = Some(grown);
            text
        }
    }
}

impl Exporter for TextExporter {
    fn start_count(&self, answer: &StartCount) -> Result<String, Error> {
        Ok(format!(
            "{}\n",
            answer
                .count
                .as_ref()
                .map_or("-".to_string(), ToString::to_string)
        ))
    }

    fn between_count(&self, answer: &BetweenCount) -> Result<String, Error> {
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
            for (i, count) in row.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                pad(&mut out, &count.to_string(), width, false);
            }
            out.push('\n');
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

    /// One line per query; queries without a count show `-` and, in a last column, why.
    fn start_counts(&self, answers: &[StartCount]) -> Result<String, Error> {
        let any_failed = answers.iter().any(|a| a.count.is_none());
        let rows: Vec<Vec<String>> = answers
            .iter()
            .map(|a| {
                let mut row = vec![
                    a.rows.to_string(),
                    a.cols.to_string(),
                    a.row.to_string(),
                    a.col.to_string(),
                    a.kind.to_string(),
                    a.count
                        .as_ref()
                        .map_or("-".to_string(), ToString::to_string),
                ];
                if any_failed {
                    let why = a.count.is_none().then(|| a.reason.clone()).flatten();
                    row.push(why.unwrap_or_default());
                }
                row
            })
            .collect();
        let (header, left): (&[&str], &[bool]) = if any_failed {
            (
                &["rows", "cols", "row", "col", "kind", "count", "reason"],
                &[false, false, false, false, true, false, true],
            )
        } else {
            (
                &["rows", "cols", "row", "col", "kind", "count"],
                &[false, false, false, false, true, false],
            )
        };
        Ok(columns(header, left, &rows))
    }

    fn answers(&self, answers: &[Answer]) -> Result<String, Error> {
        Ok(super::stream::answers_text(
            super::records::Format::Table,
            answers,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::question::TourKind;
    use num_bigint::BigUint;

    fn total(cols: u32, directed: BigUint) -> BoardTotal {
        BoardTotal::new(Board::new(3, cols).unwrap(), TourKind::Open, &directed)
    }

    #[test]
    fn a_growing_series_keeps_its_lines_under_few_headers() {
        let mut widths = None;
        let mut text = String::new();
        // Counts that grow by half a digit a board, as 3xn's do, to 36 digits.
        for cols in 4..=70 {
            text.push_str(&TextExporter::series_line(
                &total(cols, BigUint::from(10u32).pow(cols / 2)),
                &mut widths,
            ));
        }
        let headers = text.lines().filter(|l| l.starts_with("rows")).count();
        assert!(headers <= 8, "{headers} headers:\n{text}");
        // Every line as long as the header above it.
        let mut header = 0;
        for line in text.lines() {
            if line.starts_with("rows") {
                header = line.len();
            } else {
                assert_eq!(line.len(), header, "{text}");
            }
        }
    }

    #[test]
    fn cells_wider_than_format_widths_allow_are_padded_without_panic() {
        let huge: BigUint = "9".repeat(70_000).parse().unwrap();
        let text = TextExporter::series_table(&[total(4, BigUint::from(8u32)), total(5, huge)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines
                .iter()
                .all(|line| line.len() == 4 + 2 + 4 + 2 + 6 + 2 + 70_000 + 2 + 70_000)
        );
        let table = CountTable::new(
            Board::new(1, 2).unwrap(),
            vec!["1".repeat(66_000).parse().unwrap(), BigUint::from(0u32)],
        );
        let grid = TextExporter.table(&table).unwrap();
        assert!(grid.lines().nth(1).unwrap().len() == 2 * 66_000 + 1);
    }

    #[test]
    fn series_lines_stay_under_a_header_of_their_width() {
        let mut widths = None;
        let first = TextExporter::series_line(&total(7, BigUint::from(104u32)), &mut widths);
        assert_eq!(
            first,
            "rows  cols  kind    directed  undirected\n   3     7  open         104          52\n"
        );
        let same = TextExporter::series_line(&total(8, BigUint::from(792u32)), &mut widths);
        assert_eq!(same, "   3     8  open         792         396\n");
        let wide = TextExporter::series_line(&total(9, BigUint::from(10u64.pow(12))), &mut widths);
        let lines: Vec<&str> = wide.lines().collect();
        assert_eq!(lines.len(), 2, "a new header: {wide}");
        assert_eq!(lines[0].len(), lines[1].len());
        assert!(lines[0].ends_with("undirected") && lines[1].ends_with("500000000000"));
    }
}
