//! Floors below which a count cannot be: a closed tour of `r×n` opened at its corner and
//! walked on through an `r×k` block beside it is a closed tour of `r×(n+k)`, a different one
//! for each tour and each path through the block, so a known count of a shorter board
//! ([`super::known`]) times the block's paths is a floor of a longer one's ([`BLOCKS`]). Every
//! closed tour is also an open one from each of its squares, and an open board total holds `N`
//! open tours per closed one.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use num_bigint::BigUint;

use super::known::all;
use crate::board::{Board, Square};
use crate::question::{Question, Shape, TourKind};

/// Paths through an `rows×cols` block that carry a closed tour on from the corner of the
/// board beside it: Hamiltonian paths of the block from (2, 0) or (1, 1) to (1, 0) or
/// (3, 0), counted by knights' engines (each checked by the tests, the small ones against the
/// backtracking reference).
///
/// A closed tour of an `r×n` board uses both moves of its corner (0, n−1), one of them to
/// (2, n−2). Without that move, the tour is a path from (0, n−1) to (2, n−2); a move from
/// (0, n−1) to (2, n) or (1, n+1), a path through the block, and a move from (1, n) or (3, n)
/// to (2, n−2) close it again on `r×(n+k)`. The tour and the path can be read back from the
/// result (its only two moves across the cut), so the longer board has at least the product.
pub const BLOCKS: &[Block] = &[
    Block {
        rows: 3,
        cols: 4,
        paths: 1,
    },
    Block {
        rows: 3,
        cols: 8,
        paths: 22,
    },
    Block {
        rows: 3,
        cols: 10,
        paths: 132,
    },
    Block {
        rows: 3,
        cols: 12,
        paths: 1_564,
    },
    Block {
        rows: 5,
        cols: 6,
        paths: 98,
    },
    Block {
        rows: 5,
        cols: 8,
        paths: 90_947,
    },
    Block {
        rows: 5,
        cols: 10,
        paths: 27_019_959,
    },
    Block {
        rows: 6,
        cols: 4,
        paths: 6,
    },
    Block {
        rows: 6,
        cols: 5,
        paths: 248,
    },
    Block {
        rows: 6,
        cols: 6,
        paths: 38_010,
    },
    Block {
        rows: 6,
        cols: 7,
        paths: 3_639_617,
    },
    Block {
        rows: 8,
        cols: 3,
        paths: 4,
    },
    Block {
        rows: 8,
        cols: 4,
        paths: 388,
    },
    Block {
        rows: 8,
        cols: 5,
        paths: 152_522,
    },
    Block {
        rows: 8,
        cols: 6,
        paths: 172_336_557,
    },
    Block {
        rows: 8,
        cols: 7,
        paths: 115_161_146_634,
    },
];

/// An `rows×cols` block and its [`BLOCKS`] paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Its rows: the rows of the boards it lengthens.
    pub rows: u32,
    /// Its columns: how much longer it makes them.
    pub cols: u32,
    /// Its paths from (2, 0) or (1, 1) to (1, 0) or (3, 0).
    pub paths: u64,
}

impl Block {
    /// The questions whose counts add up to [`Block::paths`]: the open tours between each
    /// start and each end of the block.
    pub fn pairs(&self) -> Vec<(Board, Square, Square)> {
        let board = Board::new(self.rows, self.cols).expect("a block is a board");
        let mut pairs = Vec::new();
        for start in [Square::new(2, 0), Square::new(1, 1)] {
            for end in [Square::new(1, 0), Square::new(3, 0)] {
                if board.contains(start) && board.contains(end) {
                    pairs.push((board, start, end));
                }
            }
        }
        pairs
    }
}

/// A floor of a count: it is at least this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Floor {
    /// At least this number.
    Exact(BigUint),
    /// At least `2^k`: a floor too long to write out.
    PowerOfTwo(u64),
}

impl Floor {
    /// Whether `count` is below the floor.
    pub fn above(&self, count: &BigUint) -> bool {
        match self {
            Floor::Exact(floor) => count < floor,
            Floor::PowerOfTwo(bits) => count.bits() <= *bits,
        }
    }

    /// The floor times `n`.
    fn times(self, n: u64) -> Floor {
        match self {
            Floor::Exact(floor) => Floor::Exact(floor * n),
            Floor::PowerOfTwo(bits) => Floor::PowerOfTwo(bits + u64::from(n.max(1).ilog2())),
        }
    }

    /// Its size in bits, about.
    fn bits(&self) -> u64 {
        match self {
            Floor::Exact(floor) => floor.bits(),
            Floor::PowerOfTwo(bits) => bits + 1,
        }
    }
}

impl fmt::Display for Floor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Floor::Exact(floor) => write!(f, "{floor}"),
            Floor::PowerOfTwo(bits) => write!(f, "2^{bits}"),
        }
    }
}

/// Floors past this many bits are kept as powers of two.
const EXACT_BITS: u64 = 1 << 12;

/// The most columns of blocks added up exactly, one combination at a time; past that, the
/// block with the most paths a column is repeated.
const EXACT_COLS: u32 = 64;

/// A floor of `question`'s count from the known closed counts of shorter boards of the same
/// rows ([`BLOCKS`]), with the board it comes from; `None` where none is known. A closed
/// count (directed) is at least that; open tours from a start at least the directed closed
/// count; an open board total at least its squares times it.
pub fn floor(question: &Question) -> Option<(Floor, Board)> {
    let (closed, from) = closed_floor(question.board)?;
    let floor = match (question.kind, question.shape()) {
        (TourKind::Closed, _) => closed,
        (TourKind::Open, Shape::Start(_)) => closed,
        (TourKind::Open, Shape::Total) => closed.times(question.board.squares()),
        (TourKind::Open, Shape::Between(..)) => return None,
    };
    Some((floor, from))
}

/// The floor of `question` ([`floor`]) when `count` is below it, `None` when it is not.
///
/// Sizes are compared first: a floor of a long board is a product of hundreds of factors, and
/// an import checks every answer of the board against it, while a count is only ever below it
/// when it is about as small. The floor is computed only for a count no longer than it can be.
pub fn floor_above(question: &Question, count: &BigUint) -> Option<(Floor, Board)> {
    let longest = most_floor_bits(question)?;
    if count.bits() > longest {
        return None;
    }
    let (floor, from) = floor(question)?;
    floor.above(count).then_some((floor, from))
}

/// At least the number of bits of every floor [`floor`] could give for `question`: the same
/// walk over the shorter boards, adding bits instead of multiplying.
fn most_floor_bits(question: &Question) -> Option<u64> {
    let board = question.board;
    let extra = match (question.kind, question.shape()) {
        (TourKind::Open, Shape::Between(..)) => return None,
        (TourKind::Open, Shape::Total) => board.squares().max(1).ilog2() as u64 + 1,
        _ => 0,
    };
    let mut most: Option<u64> = None;
    for (rows, length) in [(board.rows(), board.cols()), (board.cols(), board.rows())] {
        let Some((blocks, added, bases)) = lengthening().get(&rows) else {
            continue;
        };
        for (shorter, count) in bases {
            let n = if shorter.rows() == rows {
                shorter.cols()
            } else {
                shorter.rows()
            };
            if n >= length {
                continue;
            }
            if let Some(bits) = lengthened_bits(count, length - n, blocks, added) {
                most = Some(most.map_or(bits, |m| m.max(bits)));
            }
        }
    }
    most.map(|m| m + extra)
}

/// A floor of the directed closed count of `board` from a shorter board's known count and
/// the [`BLOCKS`] of its rows (either side of `board` as its rows), with the shorter board.
pub fn closed_floor(board: Board) -> Option<(Floor, Board)> {
    let mut best: Option<(Floor, Board)> = None;
    for (rows, length) in [(board.rows(), board.cols()), (board.cols(), board.rows())] {
        let Some((blocks, added, bases)) = lengthening().get(&rows) else {
            continue;
        };
        for (shorter, count) in bases {
            let n = if shorter.rows() == rows {
                shorter.cols()
            } else {
                shorter.rows()
            };
            if n >= length {
                continue;
            }
            let Some(floor) = lengthened(count, length - n, blocks, added) else {
                continue;
            };
            if best.as_ref().is_none_or(|(b, _)| floor.bits() > b.bits()) {
                best = Some((floor, *shorter));
            }
        }
    }
    best
}

/// For each number of rows with [`BLOCKS`]: its blocks, their products ([`products`]) and the
/// boards of those rows (either side, at least 3 columns) whose closed count is known and not
/// 0, with it. Made once: a floor is then a few multiplications.
#[allow(clippy::type_complexity)]
fn lengthening() -> &'static HashMap<
    u32,
    (
        Vec<&'static Block>,
        Vec<Option<BigUint>>,
        Vec<(Board, &'static BigUint)>,
    ),
> {
    static LENGTHENING: OnceLock<
        HashMap<
            u32,
            (
                Vec<&'static Block>,
                Vec<Option<BigUint>>,
                Vec<(Board, &'static BigUint)>,
            ),
        >,
    > = OnceLock::new();
    LENGTHENING.get_or_init(|| {
        let mut by_rows = HashMap::new();
        for rows in BLOCKS.iter().map(|b| b.rows) {
            if by_rows.contains_key(&rows) {
                continue;
            }
            let blocks: Vec<&'static Block> = BLOCKS.iter().filter(|b| b.rows == rows).collect();
            let added = products(&blocks);
            let bases = all()
                .iter()
                .filter_map(|(q, known)| {
                    let b = q.board;
                    let sides =
                        (b.rows() == rows && b.cols() >= 3) || (b.cols() == rows && b.rows() >= 3);
                    (q.kind == TourKind::Closed && sides && known.count != BigUint::ZERO)
                        .then_some((b, &known.count))
                })
                .collect();
            by_rows.insert(rows, (blocks, added, bases));
        }
        by_rows
    })
}

/// `added[d]`: the most paths blocks of `d` columns in all give, for `d` up to
/// [`EXACT_COLS`] (`None` where no blocks add up to `d`).
fn products(blocks: &[&Block]) -> Vec<Option<BigUint>> {
    let mut added: Vec<Option<BigUint>> = vec![None; EXACT_COLS as usize + 1];
    added[0] = Some(BigUint::from(1u32));
    for d in 1..=EXACT_COLS as usize {
        for block in blocks {
            let k = block.cols as usize;
            if k > d {
                continue;
            }
            if let Some(before) = &added[d - k] {
                let product = before * block.paths;
                if added[d].as_ref().is_none_or(|best| product > *best) {
                    added[d] = Some(product);
                }
            }
        }
    }
    added
}

/// `count` (closed, directed) lengthened by `d` columns of blocks.
fn lengthened(
    count: &BigUint,
    d: u32,
    blocks: &[&Block],
    added: &[Option<BigUint>],
) -> Option<Floor> {
    if d <= EXACT_COLS {
        let paths = added[d as usize].as_ref()?;
        return Some(Floor::Exact(count * paths));
    }
    // The block with the most paths a column, repeated; the rest exactly.
    let best = best_block(blocks)?;
    let k = best.cols;
    let repeats = (d - EXACT_COLS).div_ceil(k);
    let rest = d - repeats * k;
    let rest_paths = added[rest as usize].as_ref()?;
    let low_bits = |x: &BigUint| x.bits().saturating_sub(1);
    let bits = u64::from(repeats) * u64::from(best.paths.ilog2());
    if bits + count.bits() + rest_paths.bits() > EXACT_BITS {
        return Some(Floor::PowerOfTwo(
            low_bits(count) + bits + low_bits(rest_paths),
        ));
    }
    let floor = count * rest_paths * BigUint::from(best.paths).pow(repeats);
    Some(Floor::Exact(floor))
}

/// At least the number of bits of [`lengthened`]'s floor (each factor's bits added up; a
/// power of two's exponent is below them).
fn lengthened_bits(
    count: &BigUint,
    d: u32,
    blocks: &[&Block],
    added: &[Option<BigUint>],
) -> Option<u64> {
    if d <= EXACT_COLS {
        return Some(count.bits() + added[d as usize].as_ref()?.bits());
    }
    let best = best_block(blocks)?;
    let repeats = (d - EXACT_COLS).div_ceil(best.cols);
    let rest_paths = added[(d - repeats * best.cols) as usize].as_ref()?;
    let paths_bits = u64::from(best.paths.ilog2()) + 1;
    Some(count.bits() + rest_paths.bits() + u64::from(repeats) * paths_bits)
}

/// The block with the most paths a column: the one repeated past [`EXACT_COLS`].
fn best_block<'b>(blocks: &[&'b Block]) -> Option<&'b Block> {
    let rate = |x: &Block| (x.paths as f64).log2() / f64::from(x.cols);
    blocks
        .iter()
        .max_by(|a, b| rate(a).total_cmp(&rate(b)))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trust::known::known;

    fn board(r: u32, c: u32) -> Board {
        Board::new(r, c).unwrap()
    }

    /// The check by sizes first refuses exactly what the floor itself does, at the floor's
    /// edge, on boards with exact floors and with powers of two.
    #[test]
    fn a_floor_checked_by_size_first_is_the_floor() {
        let boards = [
            board(8, 16),
            board(8, 100),
            board(6, 730),
            board(8, 100_000),
        ];
        for b in boards {
            let questions = [
                Question::total(b, TourKind::Closed),
                Question::total(b, TourKind::Open),
                Question::from_start(b, Square::new(0, 0), TourKind::Open),
            ];
            for q in questions {
                let (exact, _) = floor(&q).unwrap();
                let edge = match &exact {
                    Floor::Exact(f) => f.clone(),
                    Floor::PowerOfTwo(bits) => BigUint::from(1u32) << *bits,
                };
                let one = BigUint::from(1u32);
                for count in [
                    BigUint::ZERO,
                    &edge - &one,
                    edge.clone(),
                    &edge + &one,
                    &edge << 1,
                    &edge << 100,
                ] {
                    assert_eq!(
                        floor_above(&q, &count).map(|(f, _)| f),
                        exact.above(&count).then(|| exact.clone()),
                        "{q}: {} bits",
                        count.bits()
                    );
                }
            }
        }
        let pair = Question::between(board(8, 16), Square::new(0, 0), Square::new(0, 1));
        assert!(floor_above(&pair, &BigUint::ZERO).is_none());
    }

    #[test]
    fn floors_of_long_boards() {
        // 8x100000's closed tours: far past 12.
        let (floor, from) = closed_floor(board(8, 100_000)).unwrap();
        assert!(floor.above(&BigUint::from(12u32)));
        assert!(
            matches!(floor, Floor::PowerOfTwo(bits) if bits > 400_000),
            "{floor}"
        );
        assert_eq!(from.rows(), 8);
        // 8x16 from a published shorter board: 8x13's count times 8x3's 4 paths at least.
        let (floor, _) = closed_floor(board(8, 16)).unwrap();
        let k13 = &known(&Question::total(board(8, 13), TourKind::Closed))
            .unwrap()
            .count;
        assert!(
            matches!(&floor, Floor::Exact(f) if *f >= k13 * 4u32),
            "{floor}"
        );
        // Every known closed count is at least the floor from the shorter ones.
        for (question, known) in all() {
            if question.kind != TourKind::Closed {
                continue;
            }
            if let Some((floor, from)) = closed_floor(question.board) {
                assert!(
                    !floor.above(&known.count),
                    "{question} from {from}: {floor}"
                );
            }
        }
        // No rows without blocks, no board without a shorter known one.
        assert!(closed_floor(board(7, 40)).is_none());
        assert!(closed_floor(board(8, 5)).is_none());
    }
}
