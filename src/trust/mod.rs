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
//! This file holds the checks of a count; `bound.rs` the bound of the board's moves; `known.rs`
//! the known counts and `floor.rs` the floors they give; `served.rs` the gate every answer read
//! from a store passes ([`served::lookup`]), and `provenance.rs` the rules of how an answer is
//! recorded: which engine name may stand behind which question, its seconds and its time.

mod bound;
pub mod floor;
pub mod known;
pub mod provenance;
pub mod served;

use std::fmt;

use num_bigint::BigUint;

use crate::board::Board;
use crate::existence::{NoTour, no_tour_for};
use crate::question::{Question, Shape, TourKind};

use self::bound::lower_bits;
pub use self::bound::tour_bound;

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
    /// Fewer tours than a shorter board's known count gives ([`floor::floor`]).
    BelowFloor {
        /// The floor.
        floor: floor::Floor,
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
    if let Some((floor, from)) = floor::floor_above(question, count) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    /// The board of `r` rows and `c` columns (every one the tests name is one).
    fn board(r: u32, c: u32) -> Board {
        Board::new(r, c).expect("a board the tests name")
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
