//! Tours between two squares by meeting in the middle. Each side of the cut needs a half of one
//! of three kinds: one that no tour end enters, one with a single end fixed before the cut (the
//! other end lies beyond it), or one with both ends before it. The first is the same for every
//! pair of the board and the second for every pair with that end, so a pair is counted on the
//! image under the board's symmetries whose halves are the most widely shared, and the halves
//! may be kept in a directory for the pairs that come after.

use std::path::Path;

use num_bigint::BigUint;

use super::classes::{Bottoms, CutClasses, mirror_cut_squares};
use super::cut::{CutWord, Join, by_cut};
use super::lookup::JoinRules;
use super::saved::{self, SavedCount};
use crate::board::{Square, Symmetry};
use crate::cancel::CancelFlag;
use crate::count::frontier::counts::tally::Tally;
use crate::count::frontier::pass::layer::by_key;
use crate::count::frontier::plan::{FrontierMode, FrontierStats, Plan, Purpose};
use crate::count::frontier::sweep::Key;
use crate::count::frontier::window::state::Word;
use crate::error::Error;
use crate::memory::MemoryBudget;

/// A count and what the run did, or why it stopped.
type Stats = Result<(BigUint, FrontierStats), Error>;

/// A half that a pair's join reads, by the squares of the plan's oriented board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum HalfKind {
    /// No tour end in the half: its paths all end on the cut.
    NoEnds,
    /// One tour end, on this square before the cut; the other lies beyond the cut.
    OneEnd(usize),
    /// Both tour ends, on these squares before the cut, or one before it and one on it.
    BothEnds(usize, usize),
    /// Any tour ends: the open total's half.
    Any,
}

/// What the count of one pair joins: the top half, the bottom half (turned), and the cut
/// squares that must hold a tour end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BetweenJoin {
    tops: HalfKind,
    bottoms: HalfKind,
    required: u32,
}

impl BetweenJoin {
    /// How much of the join's work other pairs share, the most shared first: two halves that
    /// every pair shares, one end's half and that, two ends' halves, a half of this pair alone.
    /// Then the squares the fixed ends leave before the cut (a half's pass grows with them).
    fn cost(&self, lo: usize) -> (u8, usize) {
        let before = |kind: HalfKind| match kind {
            HalfKind::NoEnds | HalfKind::Any => 0,
            HalfKind::OneEnd(v) => lo - v,
            // (The second end may lie on the cut.)
            HalfKind::BothEnds(a, b) => lo - a + lo.saturating_sub(b),
        };
        let rank = match (self.tops, self.bottoms) {
            (HalfKind::NoEnds, HalfKind::NoEnds) => 0,
            (HalfKind::OneEnd(_), HalfKind::NoEnds) => 1,
            (HalfKind::OneEnd(_), HalfKind::OneEnd(_)) => 2,
            (HalfKind::BothEnds(..), HalfKind::NoEnds) => 3,
            _ => 4,
        };
        (rank, before(self.tops) + before(self.bottoms))
    }
}

impl Plan {
    /// The join that counts the tours between squares `a` and `b` (row-major indices of the
    /// oriented board) on this plan's cut. An end below the cut is seen by the bottom half as
    /// its half turn above; an end on the cut is required of the join.
    fn between_join(&self, a: usize, b: usize) -> BetweenJoin {
        let (lo, hi) = self.cut();
        let (mut a, mut b) = (a, b);
        // Below the cut: half turn the pair, so that at most one end is below it.
        if a.min(b) > hi || (a > hi && b >= lo) || (b > hi && a >= lo) {
            (a, b) = (self.n - 1 - a, self.n - 1 - b);
        }
        let (a, b) = (a.min(b), a.max(b));
        let on_cut = |v: usize| (lo..=hi).contains(&v);
        let required = [a, b]
            .into_iter()
            .filter(|&v| on_cut(v))
            .fold(0u32, |mask, v| mask | 1 << (v - lo));
        // A half's pass takes a square that can no longer get two moves for a tour end, and
        // refuses it unless the end is fixed there: a cut square with fewer than two moves the
        // other half owns (on a cut around the middle row) must be fixed as an end.
        let last = self.last_of_top_half();
        let fixed_in_a_half = [a, b].into_iter().filter(|&v| on_cut(v)).any(|v| {
            self.future_moves(v, last, self.h) < 2
                || self.future_moves(self.n - 1 - v, last, self.h) < 2
        });
        let (tops, bottoms) = match (a < lo, b < lo, b > hi) {
            (true, true, _) => (HalfKind::BothEnds(a, b), HalfKind::NoEnds),
            (true, false, true) => (HalfKind::OneEnd(a), HalfKind::OneEnd(self.n - 1 - b)),
            (true, false, false) if fixed_in_a_half => (HalfKind::BothEnds(a, b), HalfKind::Any),
            (true, false, false) => (HalfKind::OneEnd(a), HalfKind::NoEnds),
            _ if fixed_in_a_half => (HalfKind::Any, HalfKind::Any),
            _ => (HalfKind::NoEnds, HalfKind::NoEnds),
        };
        BetweenJoin {
            tops,
            bottoms,
            required,
        }
    }

    /// The image of the pair `from`, `to` (squares of the board as asked) under the board's
    /// symmetries whose join shares the most, with that join.
    fn cheapest_image(&self, from: Square, to: Square) -> BetweenJoin {
        let asked = self.asked();
        let (lo, _) = self.cut();
        Symmetry::ALL
            .into_iter()
            .filter(|symmetry| symmetry.target(asked) == asked)
            .map(|symmetry| {
                let (a, b) = (symmetry.apply(asked, from), symmetry.apply(asked, to));
                self.between_join(self.index(a), self.index(b))
            })
            .min_by_key(|join| (join.cost(lo), join.tops, join.bottoms, join.required))
            .expect("the identity keeps the board")
    }

    /// Whether a half with fixed ends may be had as the mirror image (left to right) of the
    /// half with the mirror images of its ends: the cut is two whole rows, whose moves the
    /// halves own by a rule symmetric left to right.
    fn mirrors_halves(&self) -> bool {
        !self.cut_around_centre() && self.mirror_fold
    }

    /// The half whose fixed ends are the mirror images of those of `kind`, where the halves are
    /// had so (see [`Plan::mirrors_halves`]); else `kind` itself.
    fn mirror_kind(&self, kind: HalfKind) -> HalfKind {
        match kind {
            HalfKind::OneEnd(v) if self.mirrors_halves() => HalfKind::OneEnd(self.mirror_index(v)),
            _ => kind,
        }
    }

    /// The mirror image (left to right) of square `v`.
    fn mirror_index(&self, v: usize) -> usize {
        (v / self.w) * self.w + (self.w - 1 - v % self.w)
    }

    /// The plan whose top half is the half `kind`.
    fn half_plan(&self, kind: HalfKind) -> Result<Plan, Error> {
        let asked = self.asked();
        let square = |v: usize| self.square(v);
        let mode = match kind {
            // The closed tours' half: every square takes two moves, and no path may close.
            HalfKind::NoEnds if !self.odd => FrontierMode::Closed,
            // (On a board of an odd number of squares, the open total's half, of which the
            // join takes the states with no tour end.)
            HalfKind::NoEnds | HalfKind::Any => return Ok(self.clone()),
            // The other end is beyond the cut for the whole pass: any square there will do.
            HalfKind::OneEnd(v) => FrontierMode::Between(square(v), square(self.n - 1 - v)),
            HalfKind::BothEnds(a, b) => FrontierMode::Between(square(a), square(b)),
        };
        let mut plan = Plan::new(asked, mode, Purpose::Meet)?;
        plan.mirror_fold = self.mirror_fold;
        Ok(plan)
    }

    /// The name of the half `kind` among saved halves: the board, the half, the count type.
    fn half_name(&self, kind: HalfKind, bits: u32) -> String {
        let board = format!("{}x{}", self.h, self.w);
        let kind = match kind {
            HalfKind::NoEnds => "no-ends".to_string(),
            HalfKind::OneEnd(v) => format!("end-{v}"),
            HalfKind::BothEnds(a, b) => format!("ends-{a}-{b}"),
            HalfKind::Any => "any-ends".to_string(),
        };
        format!("{board}-open-{kind}-u{bits}")
    }
}

/// Where the halves of one pair's count come from: computed, or read from and saved into a
/// directory shared with the other pairs of the board.
struct Halves<'a> {
    all: &'a Plan,
    dir: Option<&'a Path>,
    budget: MemoryBudget,
    cancel: &'a CancelFlag,
}

impl Halves<'_> {
    /// The classes of the half `kind`: saved, the mirror image of one saved, or computed (and
    /// then saved). A half of both ends is one pair's alone (and among the largest: 6.9 GB on
    /// disk for two ends by one corner of 8x8), so it is neither looked for nor saved.
    fn get<Wd: Word, K: Key, L: CutWord, T: SavedCount>(
        &self,
        kind: HalfKind,
        join: &Join,
        stats: &mut FrontierStats,
    ) -> Result<Half<L, T>, Error> {
        let all = self.all;
        let name = all.half_name(kind, T::BITS);
        let dir = self.dir.filter(|_| !matches!(kind, HalfKind::BothEnds(..)));
        if let Some(dir) = dir {
            if let Some(classes) = saved::load::<L, T>(dir, &name)? {
                stats.halves_read += 1;
                return Ok(Half {
                    classes,
                    mirrored: false,
                });
            }
            if let HalfKind::OneEnd(v) = kind
                && all.mirror_index(v) != v
                && all.mirrors_halves()
            {
                let image = HalfKind::OneEnd(all.mirror_index(v));
                if let Some(classes) = saved::load::<L, T>(dir, &all.half_name(image, T::BITS))? {
                    stats.halves_read += 1;
                    return Ok(Half {
                        classes,
                        mirrored: true,
                    });
                }
            }
        }
        let plan = all.half_plan(kind)?;
        let (layer, kept) = plan.top_half::<Wd, K, T>(self.budget, self.cancel, stats)?;
        let classes =
            plan.classes::<Wd, K, L, T>(layer, &join.codec, join.cut, join.offset, true)?;
        if let Some(dir) = dir {
            saved::save(dir, &name, &classes)?;
            stats.halves_saved += 1;
        }
        // A pair's join is brief beside its half: the checkpoint goes once the classes are
        // built (and saved, with `--halves`).
        kept.done();
        Ok(Half {
            classes,
            mirrored: false,
        })
    }

    /// The count of one pair's join: its halves had (see [`Halves::get`]) and joined, holding
    /// one half where the other is the same or its mirror image.
    fn join<Wd: Word, K: Key, L: CutWord, T: SavedCount + Into<u128>>(
        &self,
        pair: BetweenJoin,
        join: &Join,
        stats: &mut FrontierStats,
    ) -> Result<BigUint, Error> {
        let (all, cancel) = (self.all, self.cancel);
        let rules = JoinRules::open(join.cut, &join.fixed, pair.required);
        let tops = self.get::<Wd, K, L, T>(pair.tops, join, stats)?;
        let top = (&tops.classes, tops.mirrored);
        if pair.bottoms == pair.tops {
            join_halves(all, top, top, rules, cancel)
        } else if pair.bottoms == all.mirror_kind(pair.tops) {
            // One end's half and its mirror image (a corner's pair along its row).
            join_halves(all, top, (&tops.classes, !tops.mirrored), rules, cancel)
        } else {
            let bottoms = self.get::<Wd, K, L, T>(pair.bottoms, join, stats)?;
            let bottom = (&bottoms.classes, bottoms.mirrored);
            join_halves(all, top, bottom, rules, cancel)
        }
    }
}

/// A half's classes as had: the half itself, or the half whose mirror image (left to right)
/// it is, which the join reads mirrored rather than copy.
struct Half<L, T> {
    classes: CutClasses<L, T>,
    mirrored: bool,
}

/// The join of `tops` with `bottoms` (each as had) for `required`. A join of mirror images is
/// the mirror image of a join, so mirrored tops are joined as kept, with the bottoms and the
/// required ends mirrored instead: only bottoms are ever read mirrored.
fn join_halves<L: CutWord, T: Tally + Copy + Into<u128>>(
    all: &Plan,
    tops: (&CutClasses<L, T>, bool),
    bottoms: (&CutClasses<L, T>, bool),
    rules: JoinRules,
    cancel: &CancelFlag,
) -> Result<BigUint, Error> {
    let (tops, tops_mirrored) = tops;
    let (bottoms, bottoms_mirrored) = bottoms;
    let mut rules = rules;
    if tops_mirrored {
        rules.required = mirror_cut_squares(rules.required, rules.cut, all.w);
    }
    if tops_mirrored != bottoms_mirrored {
        all.lookup(tops, Bottoms::mirrored(bottoms, all.w), rules, cancel)
    } else {
        all.lookup(tops, bottoms, rules, cancel)
    }
}

/// Counts the open tours between `from` and `to` by meeting in the middle (`all` is the plan
/// for the halves of the board's open total, which gives the cut), on the image of the pair
/// that shares the most (see [`Plan::cheapest_image`]); with `dir`, the halves are read from
/// it where they were saved, and saved into it where they were computed. Returns the directed
/// count from `from` to `to`.
pub(crate) fn meet_between<T: SavedCount + Into<u128>>(
    all: &Plan,
    from: Square,
    to: Square,
    dir: Option<&Path>,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Stats {
    let cut = all.join().cut;
    by_key!(all, Wd, K => by_cut!(cut, L => meet_between_word::<Wd, K, L, T>(all, from, to, dir, budget, cancel)))
}

fn meet_between_word<Wd: Word, K: Key, L: CutWord, T: SavedCount + Into<u128>>(
    all: &Plan,
    from: Square,
    to: Square,
    dir: Option<&Path>,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Stats {
    let mut stats = FrontierStats::counting_in::<T>();
    if let Some(dir) = dir {
        saved::prepare(dir)?;
    }
    let join = all.join();
    let pair = all.cheapest_image(from, to);
    let halves = Halves {
        all,
        dir,
        budget,
        cancel,
    };
    let count = halves.join::<Wd, K, L, T>(pair, &join, &mut stats)?;
    Ok((count, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::count::Limits;
    use crate::count::frontier::count_meeting;

    fn direct(board: Board, from: Square, to: Square) -> BigUint {
        let mode = FrontierMode::Between(from, to);
        let cancel = CancelFlag::new();
        count_meeting(board, mode, &Limits::new(MemoryBudget::DEFAULT, &cancel))
            .unwrap()
            .0
    }

    /// The join of one pair's halves, saved in `dir` for the next pairs.
    fn joined(all: &Plan, pair: BetweenJoin, dir: &Path) -> BigUint {
        let cancel = CancelFlag::new();
        let join = all.join();
        let halves = Halves {
            all,
            dir: Some(dir),
            budget: MemoryBudget::DEFAULT,
            cancel: &cancel,
        };
        let mut stats = FrontierStats::default();
        halves
            .join::<u64, u64, u64, u64>(pair, &join, &mut stats)
            .unwrap()
    }

    /// Every image of every pair under the board's symmetries, whatever halves it needs (two
    /// rows cut, a cut around the centre, a cut around the middle row), joins to the count of
    /// one direct pass, each half computed once and then read back as saved (or as the mirror
    /// image of one saved); and every kind of join is met.
    #[test]
    fn every_image_of_every_pair_joins_to_the_direct_count() {
        let mut kinds = std::collections::BTreeSet::new();
        let boards = if crate::testing::long() {
            vec![(4, 4), (3, 5), (5, 4), (5, 5), (4, 7), (3, 6), (4, 6)]
        } else {
            // A cut between rows, around the middle row, around the centre square.
            vec![(4, 4), (3, 5), (5, 4), (3, 6)]
        };
        for (rows, cols) in boards {
            let board = Board::new(rows, cols).unwrap();
            let all = Plan::new(board, FrontierMode::Total, Purpose::Meet).unwrap();
            let dir = tempfile::tempdir().unwrap();
            for from in board.all_squares() {
                for to in board.all_squares().filter(|&t| t > from) {
                    let expected = direct(board, from, to);
                    for symmetry in Symmetry::ALL
                        .into_iter()
                        .filter(|s| s.target(board) == board)
                    {
                        let (a, b) = (symmetry.apply(board, from), symmetry.apply(board, to));
                        let pair = all.between_join(all.index(a), all.index(b));
                        kinds.insert(pair.cost(all.cut().0).0);
                        assert_eq!(
                            joined(&all, pair, dir.path()),
                            expected,
                            "{board} {a} -> {b}: {pair:?}"
                        );
                    }
                }
            }
        }
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    }

    /// The halves 8x8's pairs need, up to mirror images: the one with no ends, one with one
    /// end for each of 12 squares before the cut, and halves of both ends for the few pairs
    /// near one corner that no symmetry parts by the cut.
    #[test]
    fn eight_by_eight_pairs_share_few_halves() {
        let board = Board::new(8, 8).unwrap();
        let all = Plan::new(board, FrontierMode::Total, Purpose::Meet).unwrap();
        let mut halves = std::collections::BTreeMap::new();
        let mut pairs = std::collections::BTreeSet::new();
        for from in board.all_squares() {
            for to in board.all_squares() {
                // The colour rule decides the others: an even board's ends differ in colour.
                if from >= to || (from.row + from.col + to.row + to.col) % 2 == 0 {
                    continue;
                }
                let pair = all.cheapest_image(from, to);
                if !pairs.insert((pair.tops, pair.bottoms, pair.required)) {
                    continue;
                }
                for kind in [pair.tops, pair.bottoms] {
                    let image = match kind {
                        HalfKind::OneEnd(v) => HalfKind::OneEnd(v.min(all.mirror_index(v))),
                        other => other,
                    };
                    *halves.entry(image).or_insert(0) += 1;
                }
            }
        }
        let one_end = halves
            .keys()
            .filter(|k| matches!(k, HalfKind::OneEnd(_)))
            .count();
        let both = halves
            .keys()
            .filter(|k| matches!(k, HalfKind::BothEnds(..)))
            .count();
        assert!(halves.contains_key(&HalfKind::NoEnds));
        assert!(!halves.contains_key(&HalfKind::Any));
        assert!(one_end <= 12, "{halves:?}");
        assert!(both <= 10, "{halves:?}");
    }

    /// Pairs counted through a directory of saved halves, the first time (computing and saving
    /// each half) and the second (reading them, or their mirror images), equal the direct
    /// counts; and 8x8's pairs need halves of one end on at most 12 squares up to mirror images.
    #[test]
    fn saved_halves_give_the_same_counts() {
        let dir = tempfile::tempdir().unwrap();
        let cancel = CancelFlag::new();
        let (board, step) = if crate::testing::long() {
            (Board::new(6, 6).unwrap(), 7)
        } else {
            (Board::new(4, 6).unwrap(), 5)
        };
        let all = Plan::new(board, FrontierMode::Total, Purpose::Meet).unwrap();
        let pairs: Vec<(Square, Square)> = board
            .all_squares()
            .flat_map(|from| board.all_squares().map(move |to| (from, to)))
            .filter(|(from, to)| from < to && (from.row + from.col + to.row + to.col) % 2 == 1)
            .step_by(step)
            .collect();
        for round in 0..2 {
            for &(from, to) in &pairs {
                let (count, _) = meet_between::<u64>(
                    &all,
                    from,
                    to,
                    Some(dir.path()),
                    MemoryBudget::DEFAULT,
                    &cancel,
                )
                .unwrap();
                assert_eq!(
                    count,
                    direct(board, from, to),
                    "round {round}: {from} -> {to}"
                );
            }
        }
        let saved = std::fs::read_dir(dir.path()).unwrap().count();
        assert!(saved >= 3, "{saved} halves saved");
    }

    /// A saved half cut short, or with one byte changed, is refused with its name, and left
    /// as it was.
    #[test]
    fn damaged_saved_halves_are_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let cancel = CancelFlag::new();
        let board = Board::new(6, 6).unwrap();
        let all = Plan::new(board, FrontierMode::Total, Purpose::Meet).unwrap();
        let (from, to) = (Square::new(0, 0), Square::new(5, 4));
        let count = |dir: &Path| {
            meet_between::<u64>(&all, from, to, Some(dir), MemoryBudget::DEFAULT, &cancel)
        };
        let expected = count(dir.path()).unwrap().0;
        let files: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(!files.is_empty());
        for (i, file) in files.iter().enumerate() {
            let good = std::fs::read(file).unwrap();
            let mut bad = good.clone();
            if i % 2 == 0 {
                bad.truncate(good.len() - 3);
            } else {
                let middle = good.len() / 2;
                bad[middle] ^= 0x10;
            }
            std::fs::write(file, &bad).unwrap();
            let error = count(dir.path()).unwrap_err();
            assert!(matches!(error, Error::SavedHalf { .. }), "{error}");
            assert!(
                error.to_string().contains(&file.display().to_string()),
                "{error}"
            );
            assert_eq!(std::fs::read(file).unwrap(), bad, "left as it was");
            std::fs::write(file, &good).unwrap();
        }
        assert_eq!(count(dir.path()).unwrap().0, expected);
    }
}
