//! The bound of a count from the board's knight moves alone ([`tour_bound`]): the product of
//! each square's choices, or Brégman's bound of the permanent where it is closer. It costs
//! nothing even on large boards: the squares are counted by kind of row and column.

use num_bigint::BigUint;

use crate::board::{Board, KNIGHT_MOVES, Square};
use crate::question::{Question, Shape, TourKind};

/// The most tours `question` can have, from the board's knight moves alone.
///
/// A tour from a start `s` is a sequence of squares, each a knight's move from the one before.
/// Number each square's moves; a tour then picks, at `s`, one of `deg(s)` moves, and at every
/// later square but the last, one of its `deg(v) - 1` moves that do not go back to the square it
/// came from. Writing down those choices, square by square (the last square writes 1), gives a
/// tuple from which the tour can be walked again, so different tours give different tuples:
///
/// `tours from s <= max(1, deg(s)) · ∏_{v ≠ s} max(1, deg(v) - 1)`.
///
/// A directed open total is at most the sum of that over every start; a directed closed count
/// (closed tours through any one square, both directions) is at most the bound from any square,
/// the least being from a square of the largest degree.
///
/// A second bound, Brégman's, is usually far closer on large boards (5×50's open total: about
/// 414 bits instead of 519), and the bound is the less of the two. A directed closed tour is a
/// permutation `σ` (each square to the next) with every `v → σ(v)` a knight's move, different
/// tours different permutations, so closed tours are at most the permanent of the board's
/// adjacency matrix, which Brégman's theorem (1973, Minc's conjecture) bounds by
/// `∏_v (deg(v)!)^(1/deg(v))`. An open tour is a closed one through an extra vertex joined to
/// every square (the tour's ends are its two moves), so the same product over that graph, with
/// every square's degree one more and the extra vertex's `N` (its factor `(N!)^(1/N)`), bounds
/// the open total, and without the extra vertex's factor the tours from one start (the extra
/// vertex then has one move, to the start). It is taken as the power of two just above it
/// (`bregman_bits`).
///
/// The board's degrees are counted by kind of row and column (near an edge or not), so the
/// bound costs nothing even on large boards.
pub fn tour_bound(question: &Question) -> BigUint {
    let board = question.board;
    let degrees = degree_counts(board);
    // P = ∏_v f(deg v), f(d) = max(1, d - 1), as powers of 1..=7.
    let mut powers = [0u64; 8];
    for (degree, &squares) in degrees.iter().enumerate() {
        powers[later(degree)] += squares;
    }
    let product = (2..8u32).fold(BigUint::from(1u32), |p, base| {
        p * power(base, powers[base as usize])
    });
    // Tours from a square of this degree: P / f(deg) · max(1, deg).
    let from = |degree: usize| &product / later(degree) * first(degree);
    let moves = match (question.kind, question.shape()) {
        // A pair's tours are some of its start's: the start's bound holds for them.
        (TourKind::Open, Shape::Start(start) | Shape::Between(start, _)) => {
            from(degree_of(board, start))
        }
        (TourKind::Open, Shape::Total) => degrees
            .iter()
            .enumerate()
            .filter(|(_, squares)| **squares > 0)
            .map(|(degree, &squares)| from(degree) * squares)
            .sum(),
        (TourKind::Closed, _) => {
            let largest = (0..9).rev().find(|&d| degrees[d] > 0).unwrap_or(0);
            from(largest)
        }
    };
    match bregman_bits(question) {
        Some(bits) if bits < moves.bits() => moves.min(BigUint::from(1u32) << bits),
        _ => moves,
    }
}

/// `k` with Brégman's bound (see [`tour_bound`]) at most `2^k`, or `None` where it does not
/// apply (a closed tour needs three squares to be a permutation's cycle).
///
/// The product's logarithm is summed in `f64`, kind of square by kind of square: nine terms,
/// each within a few units in the last place, so a margin of a part in `10^10` and one bit
/// more than covers the rounding on any board.
fn bregman_bits(question: &Question) -> Option<u64> {
    let degrees = degree_counts(question.board);
    let squares: u64 = degrees.iter().sum();
    let ln_factorial = |n: u64| -> f64 { (2..=n).map(|k| (k as f64).ln()).sum() };
    // ln((d!)^(1/d)) for a square of d moves (the extra vertex's move counted for open tours).
    let factor = |d: u64| -> f64 {
        if d == 0 {
            0.0
        } else {
            ln_factorial(d) / d as f64
        }
    };
    let extra = u64::from(question.kind == TourKind::Open);
    if question.kind == TourKind::Closed && squares < 3 {
        return None;
    }
    let mut ln_bound: f64 = degrees
        .iter()
        .enumerate()
        .map(|(degree, &count)| count as f64 * factor(degree as u64 + extra))
        .sum();
    if question.kind == TourKind::Open && question.shape() == Shape::Total {
        // ln((N!)^(1/N)), from the log-gamma series where N! is too large to sum term by term.
        ln_bound += if squares <= 1 << 12 {
            ln_factorial(squares) / squares as f64
        } else {
            let n = squares as f64;
            // Stirling with its first correction term is an upper bound of ln(N!).
            (n * n.ln() - n + 0.5 * (2.0 * std::f64::consts::PI * n).ln() + 1.0 / (12.0 * n)) / n
        };
    }
    let bits = ln_bound / std::f64::consts::LN_2;
    Some((bits * (1.0 + 1e-10)).ceil() as u64 + 1)
}

/// `base^exponent` for any exponent a board can give.
fn power(base: u32, exponent: u64) -> BigUint {
    let base = BigUint::from(base);
    let mut result = base.pow((exponent % (1 << 32)) as u32);
    for _ in 0..exponent >> 32 {
        result *= base.pow(u32::MAX) * &base;
    }
    result
}

/// Choices at the start: `max(1, deg)`.
fn first(degree: usize) -> u64 {
    degree.max(1) as u64
}

/// Choices at a later square: `max(1, deg - 1)`.
fn later(degree: usize) -> usize {
    degree.saturating_sub(1).max(1)
}

/// A lower estimate of the bits of [`tour_bound`] (each square but one gives the product at
/// least `floor(log2 f)` bits; Brégman's power of two has one bit more than its exponent):
/// counts shorter than this need no exact bound.
pub(super) fn lower_bits(question: &Question) -> u64 {
    let degrees = degree_counts(question.board);
    let bits: u64 = degrees
        .iter()
        .enumerate()
        .map(|(degree, &squares)| squares * u64::from(later(degree).ilog2()))
        .sum();
    let product = bits.saturating_sub(3);
    bregman_bits(question).map_or(product, |bits| product.min(bits))
}

fn degree_of(board: Board, square: Square) -> usize {
    board.knight_moves(square).count()
}

/// How many squares of `board` have each number of knight moves, 0 to 8.
fn degree_counts(board: Board) -> [u64; 9] {
    let rows = line_kinds(board.rows());
    let cols = line_kinds(board.cols());
    let mut counts = [0u64; 9];
    for &(row_moves, row_count) in &rows {
        for &(col_moves, col_count) in &cols {
            let degree = KNIGHT_MOVES
                .iter()
                .filter(|(dr, dc)| row_moves & step_bit(*dr) != 0 && col_moves & step_bit(*dc) != 0)
                .count();
            counts[degree] += row_count * col_count;
        }
    }
    counts
}

/// The bit of a step of -2, -1, 1 or 2 along a line.
fn step_bit(step: i32) -> u8 {
    match step {
        -2 => 1,
        -1 => 2,
        1 => 4,
        _ => 8,
    }
}

/// The lines (rows or columns) `0..n` grouped by the steps they allow (a set of `step_bit`s),
/// with how many lines allow each set: only the two lines at each end differ from the middle.
fn line_kinds(n: u32) -> Vec<(u8, u64)> {
    let steps = |i: u32| -> u8 {
        [(-2i64, 1u8), (-1, 2), (1, 4), (2, 8)]
            .iter()
            .filter(|(d, _)| (0..i64::from(n)).contains(&(i64::from(i) + d)))
            .fold(0, |set, (_, bit)| set | bit)
    };
    let mut ends: Vec<u32> = [0, 1, n.saturating_sub(2), n.saturating_sub(1)]
        .into_iter()
        .filter(|&i| i < n)
        .collect();
    ends.sort_unstable();
    ends.dedup();
    let mut kinds: Vec<(u8, u64)> = Vec::new();
    let mut add = |set: u8, count: u64| match kinds.iter_mut().find(|(s, _)| *s == set) {
        Some((_, c)) => *c += count,
        None => kinds.push((set, count)),
    };
    for &i in &ends {
        add(steps(i), 1);
    }
    let middle = u64::from(n) - ends.len() as u64;
    if middle > 0 {
        add(15, middle);
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trust::{Contradiction, check_count};

    /// The board of `r` rows and `c` columns (every one the tests name is one).
    fn board(r: u32, c: u32) -> Board {
        Board::new(r, c).expect("a board the tests name")
    }

    #[test]
    fn degree_counts_match_the_moves() {
        for (r, c) in [
            (1, 1),
            (1, 5),
            (2, 7),
            (3, 4),
            (5, 5),
            (4, 9),
            (8, 8),
            (6, 13),
        ] {
            let b = board(r, c);
            let mut direct = [0u64; 9];
            for square in b.all_squares() {
                direct[degree_of(b, square)] += 1;
            }
            assert_eq!(degree_counts(b), direct, "{b}");
        }
        let big = degree_counts(board(100_000, 100_000));
        assert_eq!(big.iter().sum::<u64>(), 100_000 * 100_000);
    }

    #[test]
    fn the_bound_holds_and_refuses_absurd_counts() {
        let b = board(5, 5);
        let corner = Question::from_start(b, Square::new(0, 0), TourKind::Open);
        let bound = tour_bound(&corner);
        assert!(bound >= BigUint::from(304u32), "{bound}");
        let absurd: BigUint = "123456789012345678901234567890123456789".parse().unwrap();
        assert_eq!(
            check_count(&corner, &absurd),
            Err(Contradiction::AboveBound(bound))
        );
        // A bound of hundreds of digits that is a power of two is written as one.
        let long = Question::total(board(5, 50), TourKind::Open);
        let claimed = BigUint::from(1u32) << 450u32;
        let refused = check_count(&long, &claimed).unwrap_err();
        assert_eq!(refused.expected(), "at most 2^416");
        // 1x1: one tour of one square.
        let one = Question::total(board(1, 1), TourKind::Open);
        assert_eq!(tour_bound(&one), BigUint::from(1u32));
        assert_eq!(check_count(&one, &BigUint::from(1u32)), Ok(()));
    }

    /// Every published count the tests hold (`data/published`: board totals, long boards' closed and
    /// open tours, every start of the boards of at most 30 squares), directed, with the question
    /// it answers.
    fn published_counts() -> Vec<(Question, BigUint)> {
        let mut counts = Vec::new();
        for text in [
            include_str!("../../data/published/board-totals.csv"),
            include_str!("../../data/published/series-totals.csv"),
        ] {
            for line in text.lines().skip(1) {
                let fields: Vec<&str> = line.split(',').collect();
                let b = board(fields[0].parse().unwrap(), fields[1].parse().unwrap());
                let count: BigUint = fields[3].parse().unwrap();
                let (kind, directed) = match fields[2] {
                    "open_directed" => (TourKind::Open, count),
                    "open_undirected" => (TourKind::Open, count * 2u32),
                    "closed_undirected" => (TourKind::Closed, count * 2u32),
                    other => panic!("a kind the tests do not know: {other}"),
                };
                counts.push((Question::total(b, kind), directed));
            }
        }
        let starts = include_str!("../../data/published/open-tours-per-square.csv");
        for line in starts.lines().skip(1) {
            let f: Vec<u32> = line.split(',').map(|x| x.parse().unwrap()).collect();
            let start = Square::new(f[2], f[3]);
            let question = Question::from_start(board(f[0], f[1]), start, TourKind::Open);
            counts.push((question, BigUint::from(f[4])));
        }
        counts
    }

    #[test]
    fn every_published_count_is_within_both_bounds() {
        let counts = published_counts();
        assert!(counts.len() > 600, "{}", counts.len());
        for (question, count) in counts {
            assert_eq!(check_count(&question, &count), Ok(()), "{question:?}");
            if let Some(bits) = bregman_bits(&question) {
                assert!(
                    count <= BigUint::from(1u32) << bits,
                    "{question:?}: {count}"
                );
            }
        }
    }

    #[test]
    fn bregmans_bound_is_the_closer_on_long_boards() {
        // 5x50's open total has 207 bits; the product of its moves 519 or more.
        let open = Question::total(board(5, 50), TourKind::Open);
        let bound = tour_bound(&open);
        assert!((400..=420).contains(&bound.bits()), "{}", bound.bits());
        let closed = Question::total(board(6, 40), TourKind::Closed);
        assert!((350..=370).contains(&tour_bound(&closed).bits()));
        // Where Brégman's is the weaker (a 3x4's squares have few moves) the product stays.
        let small = Question::total(board(3, 4), TourKind::Open);
        assert!(tour_bound(&small) < BigUint::from(1u32) << bregman_bits(&small).unwrap());
        // The lower estimate the gate compares sizes with stays below the bound's size.
        for (r, c) in [
            (5, 50),
            (6, 40),
            (8, 8),
            (3, 2000),
            (1000, 1000),
            (1, 1),
            (2, 9),
        ] {
            for kind in [TourKind::Open, TourKind::Closed] {
                let question = Question::total(board(r, c), kind);
                let bits = tour_bound(&question).bits();
                assert!(lower_bits(&question) <= bits, "{r}x{c} {kind:?}");
            }
        }
    }
}
