//! Listings of stored answers written as they are read: `knights query` and `knights export`
//! over a store of millions of answers hold one answer at a time, never the listing or its
//! text. The exporters' `answers` write through the same code, so both give the same bytes.
//!
//! A table's columns are as wide as their widest cell: [`AnswerStream::measure`] takes every
//! answer once first (a pass over the store that keeps only the widths).

use std::io::{self, Write};

use super::columns::pad;
use super::records::{AnswerRecord, Format};
use crate::store::{ANSWER_COLUMNS, Answer};

/// The columns of a table of stored answers, and which are aligned on the left.
const TABLE_HEADER: [&str; 8] = [
    "board",
    "kind",
    "start",
    "count",
    "engine",
    "seconds",
    "computed_at",
    "source",
];
const TABLE_LEFT: [bool; 8] = [true, true, true, false, true, false, true, true];

/// Writes a listing of stored answers in one format, answer by answer.
#[derive(Debug)]
pub struct AnswerStream {
    format: Format,
    /// A table's column widths (the header's, widened by [`AnswerStream::measure`]).
    widths: Vec<usize>,
    written: u64,
}

impl AnswerStream {
    /// A listing in `format`.
    pub fn new(format: Format) -> Self {
        AnswerStream {
            format,
            widths: TABLE_HEADER.iter().map(|h| h.len()).collect(),
            written: 0,
        }
    }

    /// Whether the listing needs every answer through [`AnswerStream::measure`] before the
    /// first is written (a table).
    pub fn needs_measuring(&self) -> bool {
        self.format == Format::Table
    }

    /// Widens a table's columns to `answer`'s cells.
    pub fn measure(&mut self, answer: &Answer) {
        if self.format == Format::Table {
            for (width, cell) in self.widths.iter_mut().zip(table_cells(answer)) {
                *width = (*width).max(cell.len());
            }
        }
    }

    /// Answers written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Writes what comes before the first answer (a header).
    pub fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            Format::Table => {
                let header = TABLE_HEADER.map(str::to_string);
                out.write_all(self.table_line(&header).as_bytes())
            }
            Format::Csv => out.write_all(&csv_line(ANSWER_COLUMNS.iter().copied())),
            Format::Json => Ok(()),
        }
    }

    /// Writes one answer.
    pub fn answer(&mut self, out: &mut dyn Write, answer: &Answer) -> io::Result<()> {
        match self.format {
            Format::Table => out.write_all(self.table_line(&table_cells(answer)).as_bytes())?,
            Format::Csv => {
                let fields = csv_fields(answer);
                out.write_all(&csv_line(fields.iter().map(String::as_str)))?;
            }
            Format::Json => {
                // An array with one element per line, so that line numbers name records.
                out.write_all(if self.written == 0 { b"[\n" } else { b",\n" })?;
                serde_json::to_writer(&mut *out, &AnswerRecord::from(answer))
                    .map_err(io::Error::other)?;
            }
        }
        self.written += 1;
        Ok(())
    }

    /// Writes what comes after the last answer.
    pub fn end(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            Format::Json if self.written == 0 => out.write_all(b"[]\n"),
            Format::Json => out.write_all(b"\n]\n"),
            _ => Ok(()),
        }
    }

    /// One line of the table, its cells padded to the widths.
    fn table_line(&self, cells: &[String]) -> String {
        let mut line = String::new();
        for (i, ((cell, &width), &left)) in
            cells.iter().zip(&self.widths).zip(&TABLE_LEFT).enumerate()
        {
            if i > 0 {
                line.push_str("  ");
            }
            pad(&mut line, cell, width, left);
        }
        let mut line = line.trim_end().to_string();
        line.push('\n');
        line
    }
}

/// The whole listing of `answers` as text (what the exporters' `answers` return).
pub fn answers_text(format: Format, answers: &[Answer]) -> String {
    let mut stream = AnswerStream::new(format);
    for answer in answers {
        stream.measure(answer);
    }
    let mut out = Vec::new();
    stream.begin(&mut out).expect("writing to memory");
    for answer in answers {
        stream.answer(&mut out, answer).expect("writing to memory");
    }
    stream.end(&mut out).expect("writing to memory");
    String::from_utf8(out).expect("UTF-8")
}

/// A stored answer's cells in a table.
fn table_cells(answer: &Answer) -> Vec<String> {
    let r = AnswerRecord::from(answer);
    vec![
        format!("{}x{}", r.rows, r.cols),
        r.kind.to_string(),
        match (r.row, r.col, r.to_row, r.to_col) {
            (Some(row), Some(col), Some(to_row), Some(to_col)) => {
                format!("({row}, {col}) to ({to_row}, {to_col})")
            }
            (Some(row), Some(col), _, _) => format!("({row}, {col})"),
            _ => "total".to_string(),
        },
        r.count.to_string(),
        r.engine,
        format!("{:.3}", r.seconds),
        r.computed_at,
        r.source,
    ]
}

/// A stored answer's fields in CSV, in the order of [`ANSWER_COLUMNS`].
fn csv_fields(answer: &Answer) -> [String; 13] {
    let r = AnswerRecord::from(answer);
    let field = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_default();
    [
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
    ]
}

/// One CSV record with its line end, quoted as the `csv` crate quotes.
fn csv_line<'a>(fields: impl IntoIterator<Item = &'a str>) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.write_record(fields).expect("writing to memory");
    writer.into_inner().expect("writing to memory")
}
