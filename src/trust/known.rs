//! Counts known from elsewhere, which every count of the same question must equal, and the
//! floors below which a count cannot be (re-exported from [`super::floor`]).
//!
//! * **Published** (`data/published/`, each row with its source): board totals and long
//!   boards' terms from OEIS, and the per-square table of every board of at most 30 squares
//!   from two independent backtracking programs.
//! * **Shipped** (`data/`): the results knights computed and ships (7×7, 7×8 and 8×8 from
//!   each start, 8×8's pairs), taken as known only where they add up: a board's starts to
//!   its published total, a start's pairs to its shipped count.
//! * **Floors** (in [`super::floor`], re-exported here): a known count of a shorter board
//!   times the paths through a block beside it is a floor of a longer one's.
//!
//! The gate compares every count it sees with these; they are never served as answers.

use std::collections::HashMap;
use std::sync::OnceLock;

use num_bigint::BigUint;

use crate::board::{Board, Square};
use crate::question::{Question, Shape, TourKind};

/// A count known from elsewhere, and where it is from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// The directed count, as the store keeps it.
    pub count: BigUint,
    /// Where it is from, for a message: `OEIS A165134`, `shipped with knights (data/7x7-open.csv)`.
    pub source: String,
}

/// The count of `question` known from elsewhere, if any.
pub fn known(question: &Question) -> Option<&'static Known> {
    table().get(question)
}

/// Every count known from elsewhere, by canonical question.
pub fn all() -> &'static HashMap<Question, Known> {
    table()
}

/// A file of results that ships with knights (`data/`), compiled in.
#[derive(Clone, Copy, Debug)]
pub struct ShippedFile {
    /// Its path in the repository, for sources and messages.
    pub name: &'static str,
    /// Its text, as exported by `knights export`.
    pub text: &'static str,
}

/// A file of `data/`, named and compiled in.
macro_rules! shipped {
    ($file:literal) => {
        ShippedFile {
            name: concat!("data/", $file),
            text: include_str!(concat!("../../data/", $file)),
        }
    };
}

/// The results knights ships, in the order they are admitted to a store (a table before the
/// pairs it is the sum of).
pub const SHIPPED: &[ShippedFile] = &[
    shipped!("7x7-open.csv"),
    shipped!("7x8-open.csv"),
    shipped!("8x8-open.csv"),
    shipped!("8x8-pairs.csv"),
];

const BOARD_TOTALS: &str = include_str!("../../data/published/board-totals.csv");
const SERIES_TOTALS: &str = include_str!("../../data/published/series-totals.csv");
const PER_SQUARE: &str = include_str!("../../data/published/open-tours-per-square.csv");
const PER_SQUARE_SOURCE: &str =
    "the per-square table of two independent backtracking programs (data/published)";

fn table() -> &'static HashMap<Question, Known> {
    static TABLE: OnceLock<HashMap<Question, Known>> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> HashMap<Question, Known> {
    let mut table = HashMap::new();
    for text in [BOARD_TOTALS, SERIES_TOTALS] {
        for row in records(text) {
            let (Some(board), Ok(count)) = (board(&row[0], &row[1]), row[3].parse::<BigUint>())
            else {
                continue;
            };
            let (kind, count) = match row[2].as_str() {
                "open_directed" => (TourKind::Open, count),
                "open_undirected" => (TourKind::Open, count * 2u32),
                "closed_undirected" => (TourKind::Closed, count * 2u32),
                _ => continue,
            };
            table.insert(
                Question::total(board, kind),
                Known {
                    count,
                    source: row[4].clone(),
                },
            );
        }
    }
    for row in records(PER_SQUARE) {
        let (Some(board), Some(start), Ok(count)) = (
            board(&row[0], &row[1]),
            square(&row[2], &row[3]),
            row[4].parse::<BigUint>(),
        ) else {
            continue;
        };
        table.insert(
            Question::from_start(board, start, TourKind::Open),
            Known {
                count,
                source: PER_SQUARE_SOURCE.into(),
            },
        );
    }
    add_shipped(&mut table);
    table
}

/// The shipped results that add up: a board's starts (all of them) to its published total, a
/// start's pairs (all of them) to the start's count known.
fn add_shipped(table: &mut HashMap<Question, Known>) {
    let mut shipped: HashMap<Question, (BigUint, &'static str)> = HashMap::new();
    for file in SHIPPED {
        for (question, count) in shipped_records(file.text) {
            shipped.insert(question, (count, file.name));
        }
    }
    let count_of = |q: &Question, table: &HashMap<Question, Known>| -> Option<BigUint> {
        shipped
            .get(q)
            .map(|(c, _)| c.clone())
            .or_else(|| table.get(q).map(|k| k.count.clone()))
    };
    let boards: Vec<Board> = {
        let mut b: Vec<Board> = shipped.keys().map(|q| q.board).collect();
        b.sort();
        b.dedup();
        b
    };
    for board in boards {
        let total = Question::total(board, TourKind::Open);
        let Some(published) = table
            .get(&total)
            .filter(|k| !k.source.contains("knights ships"))
        else {
            continue;
        };
        let (sum, complete) = super::starts_sum(board, |s| shipped.get(s).map(|(count, _)| count));
        if !complete || sum != published.count {
            continue;
        }
        let published_source = published.source.clone();
        for (start, _) in Question::starts_of_board(board, TourKind::Open) {
            let (count, name) = shipped[&start].clone();
            table.entry(start).or_insert(Known {
                count,
                source: format!(
                    "the table knights ships ({name}), whose starts add up to {published_source}'s total"
                ),
            });
        }
    }
    // Pairs, where every pair from a start is shipped and they add up to the start's count.
    let mut starts: Vec<Question> = shipped
        .keys()
        .filter(|q| matches!(q.shape(), Shape::Between(..)))
        .map(|q| Question::from_start(q.board, q.start.expect("a pair has a start"), q.kind))
        .collect();
    starts.sort();
    starts.dedup();
    for start in starts {
        let Some(count) = table.get(&start).map(|k| k.count.clone()) else {
            continue;
        };
        let (sum, complete) = super::pairs_sum(&start, |p| shipped.get(p).map(|(c, _)| c));
        if !complete || sum != count {
            continue;
        }
        for pair in start.pairs_from() {
            if let Some(count) = count_of(&pair, table) {
                let name = shipped[&pair].1;
                table.entry(pair).or_insert(Known {
                    count,
                    source: format!(
                        "the pairs knights ships ({name}), which add up to the count from {}",
                        start.start.expect("a start")
                    ),
                });
            }
        }
    }
}

/// The records of a CSV text after its header, as fields.
fn records(text: &str) -> impl Iterator<Item = Vec<String>> + '_ {
    csv::ReaderBuilder::new()
        .from_reader(text.as_bytes())
        .into_records()
        .filter_map(Result::ok)
        .map(|record| record.iter().map(str::to_string).collect())
}

/// The questions and counts of a file as `knights export` writes it (only what the table
/// needs: the board, the kind, the squares, the count).
fn shipped_records(text: &str) -> Vec<(Question, BigUint)> {
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers = reader.headers().cloned().unwrap_or_default();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let (Some(rows), Some(cols), Some(kind), Some(row), Some(col), Some(count)) = (
        column("rows"),
        column("cols"),
        column("kind"),
        column("row"),
        column("col"),
        column("count"),
    ) else {
        return Vec::new();
    };
    let (to_row, to_col) = (column("to_row"), column("to_col"));
    let field = |record: &csv::StringRecord, i: Option<usize>| {
        i.and_then(|i| record.get(i)).unwrap_or("").to_string()
    };
    reader
        .records()
        .filter_map(Result::ok)
        .filter_map(|r| {
            let board = board(&r[rows], &r[cols])?;
            let count: BigUint = r[count].parse().ok()?;
            let question = match (&r[kind], square(&r[row], &r[col])) {
                ("closed", _) => Question::total(board, TourKind::Closed),
                ("open", None) => Question::total(board, TourKind::Open),
                ("open", Some(start)) => Question::from_start(board, start, TourKind::Open),
                ("between", Some(start)) => {
                    let end = square(&field(&r, to_row), &field(&r, to_col))?;
                    Question::between(board, start, end)
                }
                _ => return None,
            };
            Some((question, count))
        })
        .collect()
}

fn board(rows: &str, cols: &str) -> Option<Board> {
    Board::new(rows.parse().ok()?, cols.parse().ok()?).ok()
}

fn square(row: &str, col: &str) -> Option<Square> {
    Some(Square::new(row.parse().ok()?, col.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(r: u32, c: u32) -> Board {
        Board::new(r, c).unwrap()
    }

    #[test]
    fn every_published_row_is_known() {
        let lines = [BOARD_TOTALS, SERIES_TOTALS, PER_SQUARE]
            .iter()
            .map(|t| t.lines().count() - 1)
            .sum::<usize>();
        assert!(lines > 600);
        let corner = known(&Question::from_start(
            board(5, 5),
            Square::new(4, 4),
            TourKind::Open,
        ))
        .unwrap();
        assert_eq!(corner.count, BigUint::from(304u32));
        let total = known(&Question::total(board(8, 8), TourKind::Open)).unwrap();
        assert_eq!(total.count, "19591828170979904".parse::<BigUint>().unwrap());
        assert!(total.source.contains("A165134"), "{}", total.source);
        // Closed counts are kept directed: twice OEIS's.
        let closed = known(&Question::total(board(6, 6), TourKind::Closed)).unwrap();
        assert_eq!(closed.count, BigUint::from(2 * 9862u32));
    }

    /// Every shipped start and pair adds up, so every one is known.
    #[test]
    fn every_shipped_result_adds_up() {
        for file in SHIPPED {
            let records = shipped_records(file.text);
            assert!(!records.is_empty(), "{}", file.name);
            for (question, count) in records {
                let known = known(&question).unwrap_or_else(|| panic!("{question}"));
                assert_eq!(known.count, count, "{question}");
            }
        }
        let corner = known(&Question::from_start(
            board(7, 7),
            Square::new(0, 0),
            TourKind::Open,
        ))
        .unwrap();
        assert!(
            corner.source.contains("data/7x7-open.csv"),
            "{}",
            corner.source
        );
    }
}
