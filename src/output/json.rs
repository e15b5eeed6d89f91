//! JSON: one compact object per answer, counts as strings of decimal digits.

use super::{Exporter, StartCount, TableReport};
use crate::count::CountTable;
use crate::error::Error;

/// Writes compact JSON, one document ending in a newline.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonExporter;

fn to_json<T: serde::Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string(value).expect("answers always serialize");
    text.push('\n');
    text
}

impl Exporter for JsonExporter {
    fn start_count(&self, answer: &StartCount) -> Result<String, Error> {
        Ok(to_json(answer))
    }

    fn table(&self, table: &CountTable) -> Result<String, Error> {
        Ok(to_json(&TableReport::open(table)?))
    }
}
