//! The memo engine against published and independently computed counts (`data/published/`).

use std::collections::BTreeMap;

use knights::Square;
use num_bigint::BigUint;
use serde::Deserialize;

use crate::util::{data_file, long_tests, memo, published_totals};

#[derive(Debug, Deserialize)]
struct PerSquare {
    rows: u32,
    cols: u32,
    row: u32,
    col: u32,
    open_tours: u128,
}

fn per_square_rows() -> BTreeMap<(u32, u32), Vec<PerSquare>> {
    let mut boards: BTreeMap<(u32, u32), Vec<PerSquare>> = BTreeMap::new();
    let mut reader = csv::Reader::from_path(data_file("open-tours-per-square.csv")).unwrap();
    for row in reader.deserialize() {
        let row: PerSquare = row.unwrap();
        boards.entry((row.rows, row.cols)).or_default().push(row);
    }
    boards
}

/// Every row of the known per-square counts (every board of at most 30 squares).
#[test]
fn every_known_per_square_count() {
    let boards = per_square_rows();
    assert_eq!(boards.len(), 37, "the anchor file is complete");
    let mut checked = 0;
    for ((rows, cols), expected) in boards {
        assert_eq!(expected.len() as u32, rows * cols, "{rows}x{cols} rows");
        let table = memo(rows, cols).table().unwrap();
        for row in expected {
            assert_eq!(
                *table.get(Square::new(row.row, row.col)),
                BigUint::from(row.open_tours),
                "{rows}x{cols} from ({}, {})",
                row.row,
                row.col
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 531);
}

fn check_open_totals(min_squares: u32, max_squares: u32) -> usize {
    let mut checked = 0;
    for total in published_totals("open_directed") {
        let squares = total.rows * total.cols;
        if squares < min_squares || squares > max_squares {
            continue;
        }
        let table = memo(total.rows, total.cols).table().unwrap();
        assert_eq!(
            table.total_directed(),
            BigUint::from(total.count),
            "{}x{} ({})",
            total.rows,
            total.cols,
            total.source
        );
        checked += 1;
    }
    checked
}

/// The published board totals of open tours up to 36 squares, and in the long tier the
/// 40-square ones too (4x10, 5x8: the per-square tables of the memo engine take seconds).
#[test]
fn published_open_totals_up_to_36_or_40_squares() {
    if long_tests() {
        assert_eq!(check_open_totals(0, 40), 18);
    } else {
        assert_eq!(check_open_totals(0, 36), 16);
    }
}
