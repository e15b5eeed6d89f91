//! What a count must satisfy, whoever computed it: the checks that an imported record, a stored
//! answer served from the store and `knights verify` all make before a count is believed.
//!
//! * **Theorems**: where an existence theorem rules tours out ([`crate::existence`]), the count
//!   is 0.
//! * **Parity**: a directed count counts every tour once in each direction, so the directed
//!   total of open tours is even (except on 1×1, whose single tour of one square is its own
//!   reverse), and so is the directed count of closed tours. A count from one start, or between
//!   two squares, has no such rule.
//! * **The bound** ([`tour_bound`]): a tour is a sequence of knight's moves, so a board has no
//!   more tours than its squares' moves allow.
//! * **Totals and starts**: an open board total is the sum of its starts' counts, each weighted
//!   by the squares of its symmetry class; when only some starts are known, they add up to at
//!   most the total.
//! * **Starts and pairs**: every open tour from a start ends on one of the other squares, so
//!   the count from a start is the sum of the counts between it and every other square; when
//!   only some of those pairs are known, they add up to at most the start's count.
//!
//! * **Known counts** ([`known`]): a count published elsewhere, or shipped with knights and
//!   adding up to a published one, is what any count of the same question must be; and a
//!   closed tour of a shorter board lengthened by paths through a block gives a floor.
//!
//! None of these makes a count right; each can prove one wrong, cheaply. Only a recount by an
//! engine confirms a count (`crate::verify`).
//!
//! This file holds the checks of a count; `served.rs` the gate every answer read from a store
//! passes ([`served::lookup`]), and `provenance.rs` the rules of how an answer is recorded:
//! which engine name may stand behind which question, its seconds and its time.

pub mod known;
pub mod provenance;
pub mod served;

use std::fmt;

use num_bigint::BigUint;

use crate::board::{Board, KNIGHT_MOVES, Square};
use crate::existence::{NoTour, no_tour_for};
use crate::question::{Question, Shape, TourKind};

/// Why a count cannot be right, with what it should have been.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// A theorem rules tours out: the count is 0.
    Theorem(NoTour),
    /// A directed count that must be even is odd.
    Odd(TourKind),
    /// More tours than the board's moves allow ([`tour_bound`]).
    AboveBound(BigUint),
    /// An open board total that differs from the sum of all its starts.
    StartsSum(BigUint),
    /// An open board total smaller than the sum of the starts known so far.
    StartsExceed(BigUint),
    /// A count from a start that differs from the sum of all its pairs (to every other square).
    PairsSum(BigUint),
    /// A count from a start smaller than the sum of its pairs known so far.
    PairsExceed(BigUint),
    /// A count known from elsewhere ([`known::known`]) differs.
    Known {
        /// The known count.
        count: BigUint,
        /// Where it is from.
        source: String,
    },
    /// Fewer tours than a shorter board's known count gives ([`known::floor`]).
    BelowFloor {
        /// The floor.
        floor: known::Floor,
        /// The shorter board whose count gives it.
        from: Board,
    },
    /// An engine counted something else.
    Recount {
        /// Who recounted it, e.g. `the memo engine`.
        by: String,
        /// Its count.
        count: BigUint,
    },
}

impl Contradiction {
    /// What the count should be, in words: `0`, `an even number`, `at most N`, `N`.
    pub fn expected(&self) -> String {
        match self {
            Contradiction::Theorem(_) => "0".into(),
            Contradiction::Odd(_) => "an even number".into(),
            // Brégman's bound is a power of two: hundreds of digits say less than its exponent.
            Contradiction::AboveBound(bound) if bound.bits() > 64 && bound.count_ones() == 1 => {
                format!("at most 2^{}", bound.bits() - 1)
            }
            Contradiction::AboveBound(bound) => format!("at most {bound}"),
            Contradiction::StartsSum(sum) => sum.to_string(),
            Contradiction::StartsExceed(sum) | Contradiction::PairsExceed(sum) => {
                format!("at least {sum}")
            }
            Contradiction::PairsSum(sum) => sum.to_string(),
            Contradiction::Known { count, .. } | Contradiction::Recount { count, .. } => {
                count.to_string()
            }
            Contradiction::BelowFloor { floor, .. } => format!("at least {floor}"),
        }
    }

    /// Why, in words.
    pub fn reason(&self) -> String {
        match self {
            Contradiction::Theorem(reason) => reason.to_string(),
            Contradiction::Odd(TourKind::Open) => "a directed board total counts every open tour once in each direction; only 1x1's single tour is its own reverse".into(),
            Contradiction::Odd(TourKind::Closed) => "a directed count of closed tours counts every cycle once in each direction".into(),
            Contradiction::AboveBound(_) => "the most the board's knight moves allow: the less of the product of each square's choices of move and Brégman's bound of the permanent of its moves".into(),
            Contradiction::StartsSum(_) => "the sum of its starts' counts".into(),
            Contradiction::StartsExceed(_) => "the starts known for this board already add up to that".into(),
            Contradiction::PairsSum(_) => "the sum of its pairs' counts, one per end square".into(),
            Contradiction::PairsExceed(_) => "the pairs known from this start already add up to that".into(),
            Contradiction::Known { source, .. } => format!("known from {source}"),
            Contradiction::BelowFloor { from, .. } => format!("each closed tour of {from}, whose count is published, opened at its corner and lengthened by each path through blocks beside it, is a different one of these"),
            Contradiction::Recount { by, .. } => format!("recounted by {by}"),
        }
    }
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {} ({})", self.expected(), self.reason())
    }
}

/// Checks one count on its own: the theorems, parity and the bound.
pub fn check_count(question: &Question, count: &BigUint) -> Result<(), Contradiction> {
    let board = question.board;
    if let Some(reason) = no_tour_for(question) {
        return if *count == BigUint::ZERO {
            Ok(())
        } else {
            Err(Contradiction::Theorem(reason))
        };
    }
    let directed_total = question.shape() == Shape::Total;
    if directed_total && board.squares() > 1 && count.bit(0) {
        return Err(Contradiction::Odd(question.kind));
    }
    // The bound costs a multiplication per kind of square: compare sizes first.
    if count.bits() + 1 >= lower_bits(question) {
        let bound = tour_bound(question);
        if *count > bound {
            return Err(Contradiction::AboveBound(bound));
        }
    }
    if let Some(known) = known::known(question)
        && known.count != *count
    {
        return Err(Contradiction::Known {
            count: known.count.clone(),
            source: known.source.clone(),
        });
    }
    if let Some((floor, from)) = known::floor_above(question, count) {
        return Err(Contradiction::BelowFloor { floor, from });
    }
    Ok(())
}

/// Checks an open board total against its starts' counts (`sum` of the weighted counts of the
/// starts known, `complete` when every start is): the total is the sum of all of them, and at
/// least the sum of some.
pub fn check_total(total: &BigUint, sum: &BigUint, complete: bool) -> Result<(), Contradiction> {
    check_sum(
        total,
        sum,
        complete,
        Contradiction::StartsSum,
        Contradiction::StartsExceed,
    )
}

/// The weighted sum of the counts of an open board's starts that `known` has, and whether it
/// has them all.
pub fn starts_sum<'a>(
    board: Board,
    known: impl Fn(&Question) -> Option<&'a BigUint>,
) -> (BigUint, bool) {
    sum_known(Question::starts_of_board(board, TourKind::Open), known)
}

/// Checks the open tours from a start against its pairs' counts (`sum` of the counts of the
/// pairs known, `complete` when every end square's is): the count is the sum of all of them,
/// and at least the sum of some.
pub fn check_start(count: &BigUint, sum: &BigUint, complete: bool) -> Result<(), Contradiction> {
    check_sum(
        count,
        sum,
        complete,
        Contradiction::PairsSum,
        Contradiction::PairsExceed,
    )
}

/// The sum of the counts of the pairs from `start` (an open start question: a canonical board
/// and start) to every other square that `known` has (each looked up as its canonical pair
/// question), and whether it has them all.
pub fn pairs_sum<'a>(
    start: &Question,
    known: impl Fn(&Question) -> Option<&'a BigUint>,
) -> (BigUint, bool) {
    sum_known(start.pairs_from().map(|pair| (pair, 1)), known)
}

/// What an open count is the sum of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parts {
    /// An open board total: the weighted sum of its starts ([`check_total`]).
    Starts,
    /// The open tours from a start: the sum of its pairs, one per end square ([`check_start`]).
    Pairs,
}

impl Parts {
    /// The parts `question` is the sum of, if any: an open total's starts, an open start's
    /// pairs.
    pub fn of(question: &Question) -> Option<Parts> {
        match (question.kind, question.shape()) {
            (TourKind::Open, Shape::Total) => Some(Parts::Starts),
            (TourKind::Open, Shape::Start(_)) => Some(Parts::Pairs),
            _ => None,
        }
    }
}

/// A count that the counts of its parts contradict: their sum, and whether every part was
/// known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartsFault {
    /// Which parts.
    pub parts: Parts,
    /// The sum of the parts known.
    pub sum: BigUint,
    /// Every part was known (the count must equal the sum; else be at least it).
    pub complete: bool,
}

impl PartsFault {
    /// The count's subject in a message: `the total of 5x5`, or the start's question.
    pub fn subject(&self, question: &Question) -> String {
        match self.parts {
            Parts::Starts => format!("the total of {}", question.board),
            Parts::Pairs => question.to_string(),
        }
    }

    /// What the parts found in `place` say, before their sum: `its starts in this file add up
    /// to`, `the pairs from it in this file and the store already add up to more:`.
    pub fn words(&self, place: &str) -> String {
        match (self.parts, self.complete) {
            (Parts::Starts, true) => format!("its starts in {place} add up to"),
            (Parts::Starts, false) => {
                format!("the starts of it in {place} already add up to more:")
            }
            (Parts::Pairs, true) => format!("its pairs in {place} add up to"),
            (Parts::Pairs, false) => {
                format!("the pairs from it in {place} already add up to more:")
            }
        }
    }
}

/// Checks the `count` of `question` against the counts `known` has of its parts, when it is
/// the sum of `parts` ([`Parts::of`]; Ok for any other question): [`check_total`] or
/// [`check_start`].
pub fn check_parts<'a>(
    question: &Question,
    count: &BigUint,
    parts: Parts,
    known: impl Fn(&Question) -> Option<&'a BigUint>,
) -> Result<(), PartsFault> {
    if Parts::of(question) != Some(parts) {
        return Ok(());
    }
    let (sum, complete) = match parts {
        Parts::Starts => starts_sum(question.board, known),
        Parts::Pairs => pairs_sum(question, known),
    };
    let checked = match parts {
        Parts::Starts => check_total(count, &sum, complete),
        Parts::Pairs => check_start(count, &sum, complete),
    };
    checked.map_err(|_| PartsFault {
        parts,
        sum,
        complete,
    })
}

/// A count that is the sum of its parts: equal to the sum of all of them (`complete`), at
/// least the sum of some; otherwise the contradiction `equal` or `exceed` makes of the sum.
fn check_sum(
    count: &BigUint,
    sum: &BigUint,
    complete: bool,
    equal: fn(BigUint) -> Contradiction,
    exceed: fn(BigUint) -> Contradiction,
) -> Result<(), Contradiction> {
    if complete && count != sum {
        Err(equal(sum.clone()))
    } else if !complete && count < sum {
        Err(exceed(sum.clone()))
    } else {
        Ok(())
    }
}

/// The weighted sum of the counts of `parts` that `known` has, and whether it has them all.
fn sum_known<'a>(
    parts: impl IntoIterator<Item = (Question, u64)>,
    known: impl Fn(&Question) -> Option<&'a BigUint>,
) -> (BigUint, bool) {
    let mut sum = BigUint::ZERO;
    let mut complete = true;
    for (part, weight) in parts {
        match known(&part) {
            Some(count) => sum += count * weight,
            None => complete = false,
        }
    }
    (sum, complete)
}

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
fn lower_bits(question: &Question) -> u64 {
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

    #[test]
    fn theorems_and_parity() {
        let total = Question::total(board(5, 5), TourKind::Open);
        assert_eq!(
            check_count(&total, &BigUint::from(1729u32)),
            Err(Contradiction::Odd(TourKind::Open))
        );
        assert_eq!(check_count(&total, &BigUint::from(1728u32)), Ok(()));
        let none = Question::total(board(3, 5), TourKind::Open);
        assert!(matches!(
            check_count(&none, &BigUint::from(4u32)),
            Err(Contradiction::Theorem(_))
        ));
        let closed = Question::total(board(6, 6), TourKind::Closed);
        assert_eq!(
            check_count(&closed, &BigUint::from(19725u32)),
            Err(Contradiction::Odd(TourKind::Closed))
        );
        assert_eq!(check_count(&closed, &BigUint::from(19724u32)), Ok(()));
    }

    #[test]
    fn totals_against_starts() {
        let (two, four) = (BigUint::from(2u32), BigUint::from(4u32));
        type Check = fn(&BigUint, &BigUint, bool) -> Result<(), Contradiction>;
        type Make = fn(BigUint) -> Contradiction;
        let cases: [(Check, Make, Make); 2] = [
            (
                check_total,
                Contradiction::StartsSum,
                Contradiction::StartsExceed,
            ),
            (
                check_start,
                Contradiction::PairsSum,
                Contradiction::PairsExceed,
            ),
        ];
        for (check, equal, exceed) in cases {
            assert_eq!(check(&four, &four, true), Ok(()));
            assert_eq!(check(&four, &two, true), Err(equal(two.clone())));
            assert_eq!(check(&four, &two, false), Ok(()));
            assert_eq!(check(&two, &four, false), Err(exceed(four.clone())));
        }
    }

    /// The pairs from a start, each looked up in its canonical form, on a board turned both
    /// ways: 5x6's corner is the sum of its 29 ends.
    #[test]
    fn pairs_from_a_start() {
        let b = board(5, 6);
        let corner = Question::from_start(b, Square::new(0, 0), TourKind::Open);
        let one = BigUint::from(1u32);
        let (sum, complete) = pairs_sum(&corner, |q| {
            assert!(q.is_canonical() && q.end.is_some(), "{q}");
            Some(&one)
        });
        assert_eq!((sum, complete), (BigUint::from(29u32), true));
    }
}
