//! The lookup join against the joins that walk every pair, on the same halves: totals, every
//! start (above the cut, on it), every pair of ends on the cut or above it, and closed tours,
//! on every board with a short side of 3 to 6 that can be cut.

use num_bigint::BigUint;

use super::oracle::closed::closed_join;
use super::oracle::open::{open_classes, open_join};
use super::*;
use crate::board::Board;
use crate::count::frontier::plan::Rows;
use crate::count::frontier::sweep::Key;
use crate::testing::long;

/// The largest boards each check runs on: (every board, a start above the cut, two ends on the
/// cut, a pair of ends). The fast tier keeps boards of every cut on each width.
fn sizes() -> (u32, u64, u64, u64) {
    if long() {
        (40, 32, 30, 25)
    } else {
        (30, 24, 24, 20)
    }
}

fn half<Wd: Word, K: Key>(plan: &Plan) -> Layer<u64, K> {
    plan.top_half::<Wd, K, u64>(
        MemoryBudget::DEFAULT,
        &CancelFlag::new(),
        &mut FrontierStats::default(),
    )
    .unwrap()
    .0
}

/// A half's classes, its window read in the words its plan takes.
fn classes_in<L: CutWord>(plan: &Plan, open: bool) -> CutClasses<L, u64> {
    let Join {
        cut, offset, codec, ..
    } = plan.join();
    by_key!(plan, Wd, K => plan.classes::<Wd, K, L, u64>(half::<Wd, K>(plan), &codec, cut, offset, open)).unwrap()
}

/// The lookup join of a plan's closed half, the cut's fields in a `u128`.
fn closed_by_lookup(plan: &Plan) -> BigUint {
    closed_lookup_of(plan, &classes_in::<u128>(plan, false))
}

/// The lookup join of these classes of a plan's closed half with themselves.
fn closed_lookup_of(plan: &Plan, classes: &CutClasses<u128, u64>) -> BigUint {
    let Join { cut, fixed, .. } = plan.join();
    let rules = JoinRules {
        cut,
        fixed: &fixed,
        open: false,
        required: 0,
    };
    plan.lookup(classes, classes, rules, &CancelFlag::new())
        .unwrap()
}

/// The pairwise closed join of a plan's half, computed without merging mirror images.
fn closed_pairwise(plan: &Plan) -> BigUint {
    let Join {
        cut,
        offset,
        codec,
        fixed,
    } = plan.join();
    let cancel = CancelFlag::new();
    by_key!(plan, Wd, K => closed_join::<Wd, K, u64>(half::<Wd, K>(&unfolded(plan)), &codec, cut, offset, &fixed, &cancel)).unwrap()
}

/// The same plan without merging mirror images (the pairwise joins take the states as they are).
fn unfolded(plan: &Plan) -> Plan {
    let mut plan = plan.clone();
    plan.mirror_fold = false;
    plan
}

/// Both joins of the halves of `tops` and `bottoms` (plans cut as `all`), with `required` ends
/// on the cut: the lookup join of the halves as the engine computes them, the pairwise join of
/// the halves computed without merging mirror images. The lookup join is run with the cut's
/// fields in a `u64` (where they fit) and in a `u128`, and both must agree.
fn both(all: &Plan, tops: &Plan, bottoms: &Plan, required: u32) -> (BigUint, BigUint) {
    let (lookup, pairwise) = both_in::<u128>(all, tops, bottoms, required);
    if all.join().cut <= <u64 as CutWord>::FIELDS {
        let (narrow, _) = both_in::<u64>(all, tops, bottoms, required);
        assert_eq!(
            narrow, lookup,
            "{} with the cut in a u64 and a u128",
            all.board
        );
    }
    (lookup, pairwise)
}

fn both_in<L: CutWord>(
    all: &Plan,
    tops: &Plan,
    bottoms: &Plan,
    required: u32,
) -> (BigUint, BigUint) {
    let Join {
        cut,
        offset,
        codec,
        fixed,
    } = all.join();
    let cancel = CancelFlag::new();
    let pair_classes = |plan: &Plan| by_key!(plan, Wd, K => open_classes::<Wd, K, u64>(half::<Wd, K>(&unfolded(plan)), &codec, cut, offset));
    let (pair_tops, pair_bottoms) = (pair_classes(tops), pair_classes(bottoms));
    let pairwise = open_join(&pair_tops, &pair_bottoms, cut, &fixed, required, &cancel).unwrap();
    let look_tops = classes_in::<L>(tops, true);
    let look_bottoms = classes_in::<L>(bottoms, true);
    let rules = JoinRules::open(cut, &fixed, required);
    let lookup = all
        .lookup(&look_tops, &look_bottoms, rules, &cancel)
        .unwrap();
    (lookup, pairwise)
}

/// The boards (rows, cols) with a short side of 3 to 6 whose open tours can be cut.
fn boards() -> Vec<(u32, u32)> {
    let mut boards = Vec::new();
    for w in 3..=6u32 {
        for h in w..=w + 4 {
            if w * h > sizes().0 {
                continue; // the halves grow: enough for a unit test
            }
            let board = Board::new(h, w).unwrap();
            let all = Plan::new(board, FrontierMode::Total, Purpose::Meet).unwrap();
            if all.can_cut_open() {
                boards.push((h, w));
            }
        }
    }
    boards
}

#[test]
fn open_lookup_join_equals_the_pairwise_join() {
    let boards = boards();
    assert!(boards.len() >= if long() { 10 } else { 6 }, "{boards:?}");
    let (_, starts, two_on_cut, pairs) = sizes();
    for (rows, cols) in boards {
        // One orientation: the plan turns the board so that its rows are the short side.
        {
            let board = Board::new(rows, cols).unwrap();
            let all = Plan::new(board, FrontierMode::Total, Purpose::Meet).unwrap();
            let (lo, hi) = all.cut();
            // The total, and every start and pair of starts on the cut.
            let (a, b) = both(&all, &all, &all, 0);
            assert_eq!(a, b, "{board} total");
            for v in lo..=hi {
                let (a, b) = both(&all, &all, &all, 1 << (v - lo));
                assert_eq!(a, b, "{board} start {v} on the cut");
                for u in (v + 1..=hi).filter(|_| board.squares() <= two_on_cut) {
                    let required = 1 << (v - lo) | 1 << (u - lo);
                    let (a, b) = both(&all, &all, &all, required);
                    assert_eq!(a, b, "{board} ends {v}, {u} on the cut");
                }
            }
            // Every start above the cut, and with a second end above it or on it (each a pass of
            // its own: on the smaller boards).
            for v in (0..lo).filter(|_| board.squares() <= starts) {
                let start = all.square(v);
                let from = Plan::new(board, FrontierMode::Start(start), Purpose::Meet).unwrap();
                let (a, b) = both(&all, &from, &all, 0);
                assert_eq!(a, b, "{board} from {start}");
                // Pairs on the smaller boards (each a pass of its own).
                for u in (v + 1..=hi).filter(|_| board.squares() <= pairs) {
                    let between = FrontierMode::Between(start, all.square(u));
                    let tops = Plan::new(board, between, Purpose::Meet).unwrap();
                    let required = if u >= lo { 1 << (u - lo) } else { 0 };
                    let (a, b) = both(&all, &tops, &all, required);
                    assert_eq!(a, b, "{board} {start} -> {}", all.square(u));
                }
            }
        }
    }
}

#[test]
fn closed_lookup_join_equals_the_pairwise_join() {
    let cancel = CancelFlag::new();
    let mut joined = 0;
    // The fast tier: boards of at most 36 squares (still both cuts on every width).
    let (odd_most, most) = if long() { (42, u32::MAX) } else { (30, 36) };
    for w in 3..=6u32 {
        // Even heights, and odd ones on an even width (cut around the middle row).
        let heights = (w..=w + 6).filter(|h| {
            *h >= 4 && (h % 2 == 0 || w % 2 == 0 && w * h <= odd_most) && w * h <= most
        });
        for h in heights {
            for board in [Board::new(h, w).unwrap(), Board::new(w, h).unwrap()] {
                let plan = Plan::new(board, FrontierMode::Closed, Purpose::Meet).unwrap();
                let Join { cut, fixed, .. } = plan.join();
                let pairwise = closed_pairwise(&plan);
                let rules = JoinRules {
                    cut,
                    fixed: &fixed,
                    open: false,
                    required: 0,
                };
                let narrow = classes_in::<u64>(&plan, false);
                let lookup = plan.lookup(&narrow, &narrow, rules, &cancel).unwrap();
                assert_eq!(lookup, pairwise, "{board} closed");
                let wide = classes_in::<u128>(&plan, false);
                let lookup = plan.lookup(&wide, &wide, rules, &cancel).unwrap();
                assert_eq!(lookup, pairwise, "{board} closed, the cut in a u128");
                joined += 1;
            }
        }
    }
    assert!(joined >= if long() { 10 } else { 8 }, "{joined}");
}

/// Cuts past 16 squares: 5x8 with its rows along the 8 is cut around the middle of its middle
/// row, 18 squares, whose fields only a `u128` holds. The lookup join of its closed tours
/// equals the pairwise join and the count with the rows along the short side, whose cut holds
/// 10 squares, and so does its half saved and read back. (Its open half, with tour ends
/// anywhere in a window of 17 squares, takes minutes to compute: too long for a unit test.)
#[test]
fn cuts_past_sixteen_squares_join_as_the_pairwise_join() {
    let board = Board::new(5, 8).unwrap();
    let cancel = CancelFlag::new();
    let limits = Limits::new(MemoryBudget::DEFAULT, &cancel);
    let along_short = |mode| super::super::count(board, mode, &limits).unwrap().0;

    let plan = Plan::with_rows(board, FrontierMode::Closed, Purpose::Meet, Rows::Long).unwrap();
    let Join { cut, fixed, .. } = plan.join();
    assert_eq!((plan.w, cut), (8, 18), "{board} along its long side");
    // The half computed once: joined, then saved and read back.
    let classes = classes_in::<u128>(&plan, false);
    let lookup = closed_lookup_of(&plan, &classes);
    assert_eq!(lookup, closed_pairwise(&plan), "{board} closed");
    assert_eq!(lookup, along_short(FrontierMode::Closed), "{board} closed");
    assert!(lookup > BigUint::default());
    assert_eq!(fixed.len(), 2, "self-turned moves");

    // Saved and read back (`--halves`), the half keeps its 16-byte links and joins the same.
    let dir = tempfile::tempdir().unwrap();
    super::saved::save(dir.path(), "top", &classes).unwrap();
    let loaded = super::saved::load::<u128, u64>(dir.path(), "top")
        .unwrap()
        .expect("the half just saved");
    assert_eq!(closed_lookup_of(&plan, &loaded), lookup);
    // A reader expecting 8-byte links (a cut of at most 16) refuses it rather than misread it.
    assert!(super::saved::load::<u64, u64>(dir.path(), "top").is_err());
}

/// Width 9 cut crosswise: 4x9 with its rows along the 9 is cut between its two middle rows, 18
/// squares, its window of 19 slots in `u128` keys. Its closed tours (the pairwise join too) and
/// its open total, and the tours from each square of the cut, equal the counts along the
/// short side. A 4xn board has no closed tour, so the fast tier's check is only that the join
/// of width 9 finds none; the open half (tour ends anywhere in a window of 19 squares, its
/// total far from zero) takes minutes: in the long tier.
#[test]
fn width_nine_cut_crosswise_joins_as_the_short_side_counts() {
    let board = Board::new(4, 9).unwrap();
    let cancel = CancelFlag::new();
    let limits = Limits::new(MemoryBudget::DEFAULT, &cancel);
    let along_short = |mode| super::super::count(board, mode, &limits).unwrap().0;

    let plan = Plan::with_rows(board, FrontierMode::Closed, Purpose::Meet, Rows::Long).unwrap();
    let Join { cut, fixed, .. } = plan.join();
    assert_eq!(
        (plan.w, plan.k, cut),
        (9, 19, 18),
        "{board} along its long side"
    );
    let lookup = closed_by_lookup(&plan);
    assert_eq!(lookup, closed_pairwise(&plan), "{board} closed");
    assert_eq!(lookup, along_short(FrontierMode::Closed), "{board} closed");
    if !long() {
        return;
    }

    let all = Plan::with_rows(board, FrontierMode::Total, Purpose::Meet, Rows::Long).unwrap();
    let classes = classes_in::<u128>(&all, true);
    let joined = |required| {
        let rules = JoinRules::open(cut, &fixed, required);
        all.lookup(&classes, &classes, rules, &cancel).unwrap()
    };
    let total = joined(0);
    assert_eq!(total, along_short(FrontierMode::Total), "{board} total");
    assert!(total > BigUint::default());
    // A tour end required on a cut square: the tours from that square.
    let (lo, hi) = all.cut();
    for v in lo..=hi {
        let start = FrontierMode::Start(all.square(v));
        assert_eq!(
            joined(1 << (v - lo)),
            along_short(start),
            "{board} from {v}"
        );
    }
}
