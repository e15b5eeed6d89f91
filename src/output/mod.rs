//! Writing answers: one exporter per format (plain text, JSON, CSV), SVG pictures, OEIS
//! b-files of a series, and how an answer was found in words ([`stats`]: `--stats`, the page).
//!
//! Counts are exact integers of up to 128 bits. JSON numbers above 2^53 lose digits in most
//! readers (JavaScript, many others), so every count is written in JSON as a string of decimal
//! digits, whatever its size: `"count": "32"`. CSV and text have no such limit and hold the
//! digits as they are.

mod bfile;
mod columns;
mod csv;
mod json;
mod records;
pub mod stats;
pub mod stream;
mod svg;
pub mod target;
mod text;

use std::fmt::Write as _;

use num_bigint::BigUint;

use crate::board::Square;

pub use self::bfile::bfile;
pub use self::csv::CsvExporter;
pub use self::json::JsonExporter;
pub use self::json::to_json;
pub use self::records::{
    AnswerRecord, BetweenCount, BoardTotal, ClosedReport, Count, Exporter, Format, StartCount,
    TableReport, TourFormat, TourRecord,
};
pub use self::svg::{
    HeatScale, NUMBERS_UP_TO, TOUR_COLOURS, TourColours, heatmap, legend_colours, no_picture,
    puzzle_svg, puzzle_tour_svg, tour_svg, tour_svg_animated,
};
pub use self::text::TextExporter;

// Here, not beside `Format`: the face knows the exporters, the records know none of them.
impl Format {
    /// The exporter that writes this format.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            Format::Table => Box::new(TextExporter),
            Format::Json => Box::new(JsonExporter),
            Format::Csv => Box::new(CsvExporter),
        }
    }
}

/// Writes a tour in `format`.
pub fn write_tour(
    tour: &crate::tour::Tour,
    method: crate::tour::Method,
    format: TourFormat,
) -> String {
    match format {
        TourFormat::Board => {
            let board = tour.board();
            let steps = tour.step_numbers();
            let width = board.squares().to_string().len();
            let mut out = String::with_capacity(steps.len() * (width + 1));
            for row in steps.chunks(board.cols() as usize) {
                for (i, step) in row.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    write!(out, "{step:>width$}").expect("writing to a String");
                }
                out.push('\n');
            }
            out
        }
        TourFormat::Json => {
            let squares = tour.squares();
            let pair = |sq: &Square| [sq.row, sq.col];
            let record = TourRecord {
                rows: tour.board().rows(),
                cols: tour.board().cols(),
                closed: tour.is_closed(),
                method,
                start: pair(&squares[0]),
                end: pair(&squares[squares.len() - 1]),
                squares: squares.iter().map(pair).collect(),
            };
            json::to_json(&record)
        }
        TourFormat::Svg => tour_svg(tour),
        TourFormat::AnimatedSvg => tour_svg_animated(tour),
    }
}

/// The judge's output: one bare count per line.
pub fn bare_counts<'a>(counts: impl IntoIterator<Item = Option<&'a BigUint>>) -> String {
    let mut out = String::new();
    for count in counts {
        match count {
            Some(count) => out.push_str(&count.to_string()),
            None => out.push('?'),
        }
        out.push('\n');
    }
    out
}
