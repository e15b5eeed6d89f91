//! The order of the squares and what each step does whatever the state: the boundary before
//! and after it, the new square's later neighbours, the moves each boundary square has left,
//! and the mirror image of the boundary where the processed squares are symmetric.

use crate::board::KNIGHT_MOVES;

/// The most boundary squares a key holds: four bits each in a `u64`.
pub(crate) const MAX_SLOTS: usize = 16;

/// The squares of a strip `w` wide and `rows` long in the order they are taken: row by row,
/// and within a row either left to right or outside in (0, w-1, 1, w-2, …), after which the
/// processed part of the row is its own mirror image after every second square.
#[derive(Clone, Debug)]
pub(crate) struct Order {
    pub(crate) w: usize,
    pub(crate) rows: usize,
    /// `columns[k]`: the column taken `k`-th in each row.
    columns: Vec<usize>,
    /// `rank[c]`: when column `c` is taken in its row.
    rank: Vec<usize>,
    pub(crate) outside_in: bool,
}

impl Order {
    pub(crate) fn new(w: usize, rows: usize, outside_in: bool) -> Order {
        let columns: Vec<usize> = if outside_in {
            (0..w)
                .map(|k| if k % 2 == 0 { k / 2 } else { w - 1 - k / 2 })
                .collect()
        } else {
            (0..w).collect()
        };
        let mut rank = vec![0; w];
        for (k, &c) in columns.iter().enumerate() {
            rank[c] = k;
        }
        Order {
            w,
            rows,
            columns,
            rank,
            outside_in,
        }
    }

    /// The square (row, column) taken at step `t`.
    pub(crate) fn square(&self, t: usize) -> (usize, usize) {
        (t / self.w, self.columns[t % self.w])
    }

    /// The step at which square (`r`, `c`) is taken.
    pub(crate) fn position(&self, r: usize, c: usize) -> usize {
        r * self.w + self.rank[c]
    }

    /// The positions of the squares a knight's move from the one at position `t`.
    fn neighbours(&self, t: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = self.square(t);
        KNIGHT_MOVES.iter().filter_map(move |&(dr, dc)| {
            let (rr, cc) = (r as i64 + dr as i64, c as i64 + dc as i64);
            (rr >= 0 && (rr as usize) < self.rows && cc >= 0 && (cc as usize) < self.w)
                .then(|| self.position(rr as usize, cc as usize))
        })
    }

    /// The boundary before step `t`: the squares not yet taken (positions `t` on) with a
    /// neighbour already taken, by position.
    fn boundary(&self, t: usize) -> Vec<usize> {
        let end = (t + 2 * self.w + 2).min(self.rows * self.w);
        (t..end)
            .filter(|&u| self.neighbours(u).any(|x| x < t))
            .collect()
    }

    /// The most squares any boundary holds, over the whole strip (from row 4 on, the rows'
    /// boundaries repeat).
    pub(crate) fn widest_boundary(&self) -> usize {
        (0..=self.rows.min(6) * self.w)
            .map(|t| self.boundary(t).len())
            .max()
            .unwrap_or(0)
    }
}

/// What one step does, whatever the state, apart from where it is: two squares a period of
/// rows apart in the middle of a strip have equal shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepShape {
    /// Boundary squares before the step (the key's slots, in order).
    pub(crate) before: usize,
    /// The squares the step handles: the boundary before it, then the squares that join the
    /// boundary at this step, then the new square where it was not on the boundary.
    pub(crate) work: usize,
    /// The new square among `work`.
    pub(crate) own: usize,
    /// Its neighbours not yet taken, among `work`.
    pub(crate) later: Vec<usize>,
    /// The boundary after the step: each slot's square among `work`.
    pub(crate) after: Vec<usize>,
    /// Each slot's moves left after the step: to squares not yet taken.
    pub(crate) future: Vec<u8>,
    /// The slots whose square is among `later`: only these can gain a move at this step.
    pub(crate) changing: Vec<usize>,
    /// What the other slots need, whatever the new square chooses.
    pub(crate) fixed: FixedNeeds,
    /// Each slot's row, counted from the new square's.
    pub(crate) slot_row: Vec<u8>,
    /// Each slot may be held to its moves left while still empty: every board still to be
    /// finished holds its square. (A series also finishes shorter boards, whose squares below
    /// stay empty.)
    pub(crate) prune_empty: Vec<bool>,
    /// The row, counted from the new square's, of the first square not yet taken that is not
    /// on the boundary after the step (the rows of the strip left where there is none).
    pub(crate) outside_row: u8,
    /// The step ends a row.
    pub(crate) row_end: bool,
    /// Where the processed squares are their own mirror image after the step: each slot's
    /// mirror image, among `work`.
    pub(crate) mirror: Option<Vec<usize>>,
}

/// What the slots that gain no move at a step need, as masks over the key before it (one bit,
/// the lowest of each slot's nibble): such a slot was on the boundary before the step, so its
/// code is read off the key, for all of them at once.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct FixedNeeds {
    /// Empty slots held to their moves, with none left: no tour.
    pub(crate) empty_stuck: u64,
    /// Empty slots held to their moves, with one left: the other must be the joined vertex's.
    pub(crate) empty_short: u64,
    /// Path ends with no move left: the joined vertex's move is their last.
    pub(crate) end_short: u64,
}

impl FixedNeeds {
    fn new(
        fixed: &[usize],
        after: &[usize],
        future: &[u8],
        prune_empty: &[bool],
        index: &impl Fn(usize) -> usize,
    ) -> FixedNeeds {
        let mut needs = FixedNeeds::default();
        for &slot in fixed {
            // A square joins the boundary only as a neighbour of the new one, so it changes:
            // a fixed slot was on the boundary before, a nibble of the key.
            let bit = 1u64 << (4 * index(after[slot]));
            match (future[slot], prune_empty[slot]) {
                (0, true) => needs.empty_stuck |= bit,
                (1, true) => needs.empty_short |= bit,
                _ => {}
            }
            if future[slot] == 0 {
                needs.end_short |= bit;
            }
        }
        needs
    }
}

/// One step: its shape, and where it is.
#[derive(Clone, Debug)]
pub(crate) struct BoundaryStep {
    /// The height of the board finished after this step, if any.
    pub(crate) finishes: Option<usize>,
    pub(crate) shape: StepShape,
}

impl Order {
    /// Step `t`, finishing the boards whose heights are in `heights`, with mirror images
    /// merged where `fold` allows it.
    pub(crate) fn step(
        &self,
        t: usize,
        heights: &std::ops::RangeInclusive<usize>,
        fold: bool,
    ) -> BoundaryStep {
        let (r, _) = self.square(t);
        let before = self.boundary(t);
        let after = self.boundary(t + 1);
        let mut work = before.clone();
        for &u in after.iter().chain(std::iter::once(&t)) {
            if !work.contains(&u) {
                work.push(u);
            }
        }
        let index = |u: usize| work.iter().position(|&x| x == u).expect("on the boundary");
        let later: Vec<usize> = self.neighbours(t).filter(|&u| u > t).map(&index).collect();
        let (changing, fixed): (Vec<usize>, Vec<usize>) =
            (0..after.len()).partition(|&slot| later.contains(&index(after[slot])));
        let row_of = |u: usize| u / self.w;
        let future: Vec<u8> = after
            .iter()
            .map(|&u| self.neighbours(u).filter(|&x| x > t).count() as u8)
            .collect();
        let slot_row = after.iter().map(|&u| (row_of(u) - r) as u8).collect();
        let prune_empty: Vec<bool> = after
            .iter()
            .map(|&u| !(r + 1..=row_of(u)).any(|h| heights.contains(&h)))
            .collect();
        let fixed = FixedNeeds::new(&fixed, &after, &future, &prune_empty, &index);
        let outside_row = (t + 1..self.rows * self.w)
            .find(|u| !after.contains(u))
            .map_or(self.rows.saturating_sub(r), |u| row_of(u) - r) as u8;
        let processed_in_row = (t + 1) % self.w;
        let mirror = (fold && self.outside_in && processed_in_row.is_multiple_of(2)
            || fold && processed_in_row == 0)
            .then(|| {
                after
                    .iter()
                    .map(|&u| {
                        let (ur, uc) = self.square(u);
                        let image = self.position(ur, self.w - 1 - uc);
                        assert!(after.contains(&image), "a symmetric boundary");
                        index(image)
                    })
                    .collect()
            });
        let row_end = processed_in_row == 0;
        BoundaryStep {
            finishes: (row_end && heights.contains(&(r + 1))).then_some(r + 1),
            shape: StepShape {
                before: before.len(),
                work: work.len(),
                own: index(t),
                later,
                after: after.iter().map(|&u| index(u)).collect(),
                future,
                changing,
                fixed,
                slot_row,
                prune_empty,
                outside_row,
                row_end,
                mirror,
            },
        }
    }
}
