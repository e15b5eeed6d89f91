//! The frontier engine: a transfer-matrix dynamic program over the squares in row-major order,
//! as in Knuth's and the OEIS contributors' programs for counting tours.
//!
//! The board is turned so that its rows are the short side, of width `W`. A knight's move joins
//! squares at most `2W + 1` apart in row-major order, so once square `v` has been processed
//! (its moves to earlier squares decided), only the `2W + 1` squares `v - 2W ..= v` can still
//! gain moves: that window is the frontier. A state records, for each square of the window, its
//! degree so far in the partial system of paths (0, 1 or 2) and, for a path end, which other end
//! it is joined to. Labels are renumbered by first appearance, so equal states compare equal,
//! and packed four bits a square into one `u64` (base 12 for width 8). A layer maps each state
//! to its number of ways; each square turns one layer into the next.
//!
//! A state is dropped as soon as a square leaves the window with the wrong degree, a cycle
//! closes before the end, more path ends appear than the question allows, a square can no
//! longer reach the degree it needs with the moves it has left, or (open tours) a path end
//! has a colour that no tour's end can have: on an even board the two ends differ in colour,
//! on an odd one both are the corners' colour.
//!
//! Closed tours on boards with an even number of rows (at least 4), and open board totals on
//! boards near square, meet in the middle instead ([`count_meeting`]): only the top half is
//! computed, and its states are joined with their own half turns.
//!
//! Counts are exact: the ways are added as `u64`; when a sum overflows, the whole count is
//! redone with `u128`, and then with arbitrary-precision integers.

use std::ops::AddAssign;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use hashbrown::HashMap;
use num_bigint::BigUint;
use rayon::prelude::*;

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;

/// The widest short side the frontier engine takes.
pub const MAX_WIDTH: u32 = 8;

/// Degree 0: not yet reached.
const EMPTY: u8 = 0;
/// Degree 2: done.
const FULL: u8 = 1;
/// Degree 1, and the other end of its path is a tour end that has already left the window.
const DANGLING: u8 = 2;
/// Degree 1, the end of a path whose other end carries the same label.
const FIRST_LABEL: u8 = 3;

/// Layers are split into this many maps, by key, so that both cores can fill one layer and
/// each map is freed as soon as it has been read.
const SHARDS: usize = 256;

/// Transitions are handed to a shard in batches of this many.
const BATCH: usize = 128;

/// Layers of fewer states are advanced on one thread.
const SEQUENTIAL_STATES: usize = 4096;

/// What the frontier engine counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontierMode {
    /// Closed tours: Hamiltonian cycles, each counted once.
    Closed,
    /// All open tours: Hamiltonian paths, each counted once (half the directed total).
    OpenAll,
    /// Open tours from one square: Hamiltonian paths with that square as an end (the directed
    /// count from it).
    OpenFrom(Square),
}

/// What a frontier run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrontierStats {
    /// The largest layer, in states.
    pub peak_states: u64,
    /// The memory that layer's maps held, in bytes.
    pub peak_bytes: u64,
    /// States created over the whole run.
    pub transitions: u64,
    /// The count type that held every sum: 64, 128, or 0 for arbitrary precision.
    pub count_bits: u32,
}

/// Counts `mode` tours on `board` (any orientation) with the frontier engine.
pub fn count(
    board: Board,
    mode: FrontierMode,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<(BigUint, FrontierStats), Error> {
    let plan = Plan::new(board, mode)?;
    if plan.n == 1 {
        let count = u32::from(mode != FrontierMode::Closed);
        return Ok((BigUint::from(count), FrontierStats::default()));
    }
    count_meeting(board, mode, budget, cancel)
}

/// True when [`count`] answers `mode` on `board` by meeting in the middle (see
/// [`count_meeting`]) rather than in one pass over the whole board.
pub fn meets_in_the_middle(board: Board, mode: FrontierMode) -> bool {
    Plan::new(board, mode).is_ok_and(|plan| plan.meets())
}

/// Counts the closed tours of `board` by meeting in the middle: the board is cut at its two
/// middle rows (rows are the short side; the number of rows is even, at least 4), the top
/// half's states are computed up to the cut — including the moves inside it that the top half
/// owns — and the bottom half's states are the same states turned 180 degrees. A top state and
/// a turned one join when every square on the cut gets two moves in all and the paths of both
/// halves close into a single cycle. The largest layer is that of a half board, a small part
/// of what the direct computation holds at its peak.
pub fn count_closed_meeting(
    board: Board,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<(BigUint, FrontierStats), Error> {
    count_meeting(board, FrontierMode::Closed, budget, cancel)
}

/// Counts closed tours or all open tours (each path once) by meeting in the middle, as
/// [`count_closed_meeting`] describes; open paths join where the moves add up to two on every
/// cut square (one where a tour end lies on the cut), the ends are two, and the pieces of both
/// halves form one path. A board with an odd number of squares (both sides odd) is cut at the
/// `2W + 1` squares around its centre square, which is its own half turn. Boards that cannot
/// be cut so, and counts past 128 bits, are counted directly.
pub fn count_meeting(
    board: Board,
    mode: FrontierMode,
    budget: MemoryBudget,
    cancel: &CancelFlag,
) -> Result<(BigUint, FrontierStats), Error> {
    let mut plan = Plan::new(board, mode)?;
    let direct = |plan: Plan| -> Result<(BigUint, FrontierStats), Error> {
        let heights = plan.h..=plan.h;
        let mut result = BigUint::default();
        let stats = plan.run(heights, budget, cancel, &mut |_, count| result = count)?;
        Ok((result, stats))
    };
    if !plan.meets() {
        return direct(plan);
    }
    plan.split = true;
    // The colour of the first tour end is only a pruning, and it does not survive the half
    // turn: the halves go without it.
    plan.colour_flag = false;
    match plan.meet::<u64>(budget, cancel) {
        Err(Error::Overflow { .. }) => match plan.meet::<u128>(budget, cancel) {
            Err(Error::Overflow { .. }) => direct(Plan::new(board, mode)?),
            other => other,
        },
        other => other,
    }
}

/// Finds one tour of `board` with the frontier engine, or proves there is none: a closed tour
/// (listed from `start`), or an open tour from `start`. Meant for narrow boards (a short side
/// of 3 or 4), where the layers are small. The sets of reachable states are computed square by
/// square, sharing the layers of stretches where they repeat two rows on (so long boards take
/// time and memory for their few distinct layers); the
/// tour is then read back from the end. Where the distinct layers would be too many, layers are
/// kept at checkpoints only and recomputed a stretch at a time, so memory grows with the square
/// root of the board's length. Returns the squares in order.
pub fn find_tour(
    board: Board,
    closed: bool,
    start: Square,
    cancel: &CancelFlag,
) -> Result<Option<Vec<Square>>, Error> {
    board.check_square(start)?;
    let mode = if closed {
        FrontierMode::Closed
    } else {
        FrontierMode::OpenFrom(start)
    };
    let mut plan = Plan::new(board, mode)?;
    if plan.k >= 16 {
        return Err(Error::BoardTooLarge {
            board,
            max_squares: 7 * u64::from(crate::board::MAX_SIDE),
            engine: "frontier tour search (short side at most 7)",
        });
    }
    plan.witness = true;
    if plan.n == 1 {
        return Ok((!closed).then(|| vec![start]));
    }
    let edges = match plan.witness_edges_periodic(cancel)? {
        Some(found) => found,
        None => plan.witness_edges(cancel)?,
    };
    let Some(edges) = edges else {
        return Ok(None);
    };
    // The moves found, as a graph on the oriented board; walk it from the start.
    let n = plan.n;
    let mut links: Vec<[usize; 2]> = vec![[usize::MAX; 2]; n];
    for (a, b) in edges {
        for (from, to) in [(a, b), (b, a)] {
            let slot = if links[from][0] == usize::MAX { 0 } else { 1 };
            links[from][slot] = to;
        }
    }
    let transposed = board.cols() > board.rows();
    let oriented_start = if transposed {
        plan.board.index(Square::new(start.col, start.row))
    } else {
        plan.board.index(start)
    };
    let mut order = Vec::with_capacity(n);
    let (mut previous, mut at) = (usize::MAX, oriented_start);
    for _ in 0..n {
        order.push(at);
        let [x, y] = links[at];
        let next = if x != previous { x } else { y };
        if next == usize::MAX {
            break;
        }
        previous = at;
        at = next;
    }
    Ok(Some(
        order
            .into_iter()
            .map(|i| {
                let square = plan.board.square(i);
                if transposed {
                    Square::new(square.col, square.row)
                } else {
                    square
                }
            })
            .collect(),
    ))
}

/// Counts closed tours (`closed`) or all open tours of every `width × h` board for `h` in
/// `heights`, in one pass over the tallest: `report` receives each height and its count
/// (cycles, or undirected open paths) as soon as it is known.
pub fn series(
    width: u32,
    heights: std::ops::RangeInclusive<u32>,
    closed: bool,
    budget: MemoryBudget,
    cancel: &CancelFlag,
    report: &mut dyn FnMut(u32, BigUint),
) -> Result<FrontierStats, Error> {
    let (low, high) = (*heights.start(), *heights.end());
    if width == 0 || low < width || high < low {
        return Err(crate::board::BoardError::Invalid(format!(
            "a series needs heights from at least the width {width}, got {low}..{high}"
        ))
        .into());
    }
    let board = Board::new(high, width)?;
    let mode = if closed {
        FrontierMode::Closed
    } else {
        FrontierMode::OpenAll
    };
    let mut plan = Plan::new(board, mode)?;
    if low != high {
        plan.colours = false;
        plan.colour_flag = false;
    }
    plan.run(
        low as usize..=high as usize,
        budget,
        cancel,
        &mut |h, count| report(h as u32, count),
    )
}

/// The oriented board and the rules of one count.
#[derive(Clone, Debug)]
struct Plan {
    board: Board,
    /// Width (the short side) and height.
    w: usize,
    h: usize,
    n: usize,
    /// The window: squares `v - 2W ..= v`.
    k: usize,
    mode: FrontierMode,
    /// The fixed start, as a row-major index of the oriented board.
    start: Option<usize>,
    /// The board has an odd number of squares.
    odd: bool,
    /// The state carries the colour of the first tour end (open tours on an even board).
    colour_flag: bool,
    /// The colour rules for tour ends apply: the board's height is fixed. (A series counts
    /// boards of every height in one pass, some even and some odd.)
    colours: bool,
    /// Meeting in the middle: only the top half is computed, up to the last square of the cut
    /// and with the moves it owns (see [`Plan::cut`] and [`Plan::owned`]).
    split: bool,
    /// A tour is read back from the states (see [`find_tour`]): no folding of mirror images.
    witness: bool,
}

/// One square's step, with everything about it that does not depend on the state. Slots are
/// those of the extended window: `0..k` before the step, slot `k` is the new square `v`;
/// masks mark a slot `i` by bit `4 i`.
#[derive(Clone, Debug, PartialEq)]
struct Step<Wd> {
    /// The square of this step (row-major, oriented board).
    v: usize,
    /// Slots that are a knight's move back from `v`.
    neighbours: [usize; 4],
    neighbour_count: usize,
    /// Completed boards can be read off after this step (the last square of a row in range).
    finishes: Option<usize>,
    /// No state goes on after this step.
    last: bool,
    /// The fewest moves the new square must make now, with the moves it will have later.
    min_moves: usize,
    /// Slots that lose a future move at this step and keep exactly one (closed tours: they may
    /// not still be empty).
    one_left: Wd,
    /// Slots whose squares have no move left after this step (slot 0 always): their degree is
    /// final.
    finals_mask: Wd,
    /// The colour of the square in each slot (`true`: the corners' colour).
    colour: [bool; 18],
    /// The fixed start's slot, while it is in the window.
    start_slot: Option<usize>,
    /// The fixed start is still to come.
    start_pending: bool,
    /// Slots 0..=k (the whole extended window).
    all: Wd,
    /// The step ends a row: states are merged with their mirror images.
    mirror: bool,
    /// Slots 1..=k (the window after the step).
    next: Wd,
    /// Slots of the next window whose squares have at most one move left.
    weak: Wd,
    /// Slots of the next window of the corners' colour.
    corner: Wd,
    /// The fixed start's slot in the next window.
    start_mask: Wd,
}

/// The most bytes of distinct layers that [`Plan::witness_edges_periodic`] keeps.
const WITNESS_LAYER_BYTES: usize = 256 << 20;

/// Two steps that act alike on states (everything but the square itself), neither of them
/// finishing a board.
fn same_step<Wd: Word>(a: &Step<Wd>, b: &Step<Wd>) -> bool {
    if a.finishes.is_some() || b.finishes.is_some() {
        return false;
    }
    let mut moved = b.clone();
    moved.v = a.v;
    *a == moved
}

impl Plan {
    fn new(board: Board, mode: FrontierMode) -> Result<Plan, Error> {
        let transpose = board.cols() > board.rows();
        let oriented = if transpose { board.transposed() } else { board };
        let (w, h) = (oriented.cols() as usize, oriented.rows() as usize);
        if w as u32 > MAX_WIDTH {
            return Err(Error::BoardTooLarge {
                board,
                max_squares: (MAX_WIDTH as u64) * (crate::board::MAX_SIDE as u64),
                engine: "frontier (short side at most 8)",
            });
        }
        let start = match mode {
            FrontierMode::OpenFrom(square) => {
                board.check_square(square)?;
                let square = if transpose {
                    Square::new(square.col, square.row)
                } else {
                    square
                };
                Some(oriented.index(square))
            }
            _ => None,
        };
        let n = w * h;
        let odd = !n.is_multiple_of(2);
        Ok(Plan {
            board: oriented,
            w,
            h,
            n,
            k: 2 * w + 1,
            mode,
            start,
            odd,
            colour_flag: mode == FrontierMode::OpenAll && !odd && w <= 7,
            colours: true,
            split: false,
            witness: false,
        })
    }

    /// Whether this count meets in the middle. The halves are each other's half turn, so the
    /// cut lies between two rows (an even number of rows), or, on a board with an odd number
    /// of squares, around the centre square (see [`Plan::cut`]).
    fn meets(&self) -> bool {
        // Open paths join pair by pair, which pays on boards near square (measured, 2 cores):
        // between two rows, 5x8 0.27 s against 0.42 s direct and 6x8 15.5 s against 24 s, but
        // 5x10 1.3 s against 0.9 s, and 7x8 had not finished its join after 20 minutes; around
        // the centre square, 5x9 0.32 s against 0.55 s and 7x7 55 s against 290 s, but 5x11
        // 1.15 s against 0.92 s.
        let shape = match self.mode {
            FrontierMode::Closed => true,
            FrontierMode::OpenAll if self.odd => self.h <= self.w + 4,
            FrontierMode::OpenAll => self.w <= 6 && self.h <= self.w + 3,
            FrontierMode::OpenFrom(_) => false,
        };
        let cut = self.h.is_multiple_of(2) || self.odd && self.mode == FrontierMode::OpenAll;
        shape && cut && self.h >= 4 && self.w >= 3
    }

    /// The squares of the cut when meeting in the middle, `lo..=hi` in row-major order: the
    /// `2W` squares of the two middle rows (an even number of rows), or the `2W + 1` squares
    /// around the centre square (an odd number of squares). The cut is its own half turn
    /// (square `v` turns to `n - 1 - v`); no move joins a square before it to one after it.
    fn cut(&self) -> (usize, usize) {
        if self.odd {
            let centre = (self.n - 1) / 2;
            (centre - self.w, centre + self.w)
        } else {
            (self.n / 2 - self.w, self.n / 2 + self.w - 1)
        }
    }

    fn corner_colour(&self, v: usize) -> bool {
        ((v / self.w) + (v % self.w)).is_multiple_of(2)
    }

    /// The moves of square `u` not yet decided once square `v` is processed: those to later
    /// squares, and, when meeting in the middle, those this half never decides.
    fn future_moves(&self, u: usize, v: usize, rows: usize) -> u8 {
        let (r, c) = ((u / self.w) as i64, (u % self.w) as i64);
        let mut count = 0;
        for (dr, dc) in crate::board::KNIGHT_MOVES {
            let (rr, cc) = (r + dr as i64, c + dc as i64);
            if rr >= 0 && rr < rows as i64 && cc >= 0 && cc < self.w as i64 {
                let x = (rr as usize) * self.w + cc as usize;
                let (earlier, later) = (u.min(x), u.max(x));
                if later > v || !self.owned(earlier, later) {
                    count += 1;
                }
            }
        }
        count
    }

    /// True when the move between `earlier` and `later` is decided by this computation (at
    /// square `later`). Meeting in the middle, the top half owns the moves from squares before
    /// the cut (into the cut or before it) and, of the moves inside the cut, those whose ends
    /// add up to less than `n - 1`: the other half owns their half turns. A move whose ends add
    /// up to `n - 1` is its own half turn: neither half owns it (the join tries it both ways).
    fn owned(&self, earlier: usize, later: usize) -> bool {
        if !self.split {
            return true;
        }
        let (lo, hi) = self.cut();
        later <= hi && (earlier < lo || earlier + later < self.n - 1)
    }

    /// The moves inside the cut that are their own half turn, as pairs of cut squares.
    fn self_turned_moves(&self) -> Vec<(usize, usize)> {
        let (lo, hi) = self.cut();
        let mut moves = Vec::new();
        for a in lo..=hi {
            let b = self.n - 1 - a;
            let (dr, dc) = (
                (b / self.w).abs_diff(a / self.w),
                (b % self.w).abs_diff(a % self.w),
            );
            if a < b && b <= hi && dr * dc == 2 {
                moves.push((a - lo, b - lo));
            }
        }
        moves
    }

    fn step<Wd: Word>(&self, v: usize, heights: &std::ops::RangeInclusive<usize>) -> Step<Wd> {
        let (w, k) = (self.w, self.k);
        let (r, c) = (v / w, v % w);
        let mut neighbours = Vec::with_capacity(4);
        // Slot j of the window before the step holds square v - k + j.
        if r >= 2 && c >= 1 {
            neighbours.push(0); // (r-2, c-1)
        }
        if r >= 2 && c + 1 < w {
            neighbours.push(2); // (r-2, c+1)
        }
        if r >= 1 && c >= 2 {
            neighbours.push(k - (w + 2)); // (r-1, c-2)
        }
        if r >= 1 && c + 2 < w {
            neighbours.push(k - (w - 2)); // (r-1, c+2)
        }
        // Meeting in the middle, the other half decides some moves.
        neighbours.retain(|&slot| self.owned(v + slot - k, v));
        let rows = *heights.end();
        let square = |slot: usize| (v + slot).checked_sub(k);
        let future: Vec<u8> = (0..=k)
            .map(|slot| square(slot).map_or(0, |u| self.future_moves(u, v, rows)))
            .collect();
        let colour: Vec<bool> = (0..=k)
            .map(|slot| square(slot).is_some_and(|u| self.corner_colour(u)))
            .collect();
        let touched: Vec<usize> = neighbours
            .iter()
            .copied()
            .filter(|&slot| slot != 0)
            .chain(std::iter::once(k))
            .collect();
        let mut one_left = Wd::ZERO;
        for &slot in &touched {
            if future[slot] == 1 {
                one_left = one_left | Wd::nibble(slot, 1);
            }
        }
        let mut finals_mask = Wd::ZERO;
        for slot in std::iter::once(0).chain(touched.iter().copied().filter(|&s| future[s] == 0)) {
            finals_mask = finals_mask | Wd::nibble(slot, 1);
        }
        let mut colours = [false; 18];
        colours[..=k].copy_from_slice(&colour);
        let start_slot = self
            .start
            .filter(|&s| s <= v && s + k >= v)
            .map(|s| s + k - v);
        let mut next = Wd::ZERO;
        let mut weak = Wd::ZERO;
        let mut corner = Wd::ZERO;
        for slot in 1..=k {
            let bit = Wd::nibble(slot, 1);
            next = next | bit;
            if square(slot).is_some() && future[slot] <= 1 {
                weak = weak | bit;
            }
            if colour[slot] {
                corner = corner | bit;
            }
        }
        let start_mask = match start_slot {
            Some(slot) if slot >= 1 => Wd::nibble(slot, 1),
            _ => Wd::ZERO,
        };
        let row_end = c == w - 1;
        let mut neighbour_slots = [0usize; 4];
        neighbour_slots[..neighbours.len()].copy_from_slice(&neighbours);
        Step {
            v,
            all: next | Wd::nibble(0, 1),
            // The fixed start breaks the symmetry. Meeting in the middle, the halves' states are
            // joined with each other, so neither may be folded; nor may a tour's states be,
            // since it is read back from them.
            mirror: row_end && self.start.is_none() && !self.split && !self.witness,
            neighbours: neighbour_slots,
            neighbour_count: neighbours.len(),
            finishes: (row_end && heights.contains(&(r + 1))).then_some(r + 1),
            last: v + 1 == rows * w,
            min_moves: match self.mode {
                FrontierMode::Closed => 2usize.saturating_sub(future[k] as usize),
                _ => usize::from(future[k] == 0),
            },
            one_left,
            finals_mask,
            colour: colours,
            start_slot,
            start_pending: self.start.is_some_and(|s| s > v),
            next,
            weak,
            corner,
            start_mask,
        }
    }

    /// Runs the dynamic program over the board of `heights.end()` rows, reporting the count of
    /// every height in `heights` after its last row.
    fn run(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        if self.k < 16 {
            self.run_word::<u64>(heights, budget, cancel, report)
        } else {
            self.run_word::<u128>(heights, budget, cancel, report)
        }
    }

    fn run_word<Wd: Word>(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        // Heights are reported as soon as they are known; a run redone with wider counts
        // (after an overflow) does not report them again.
        let mut reported = std::collections::BTreeSet::new();
        let mut once = |height: usize, count: BigUint| {
            if reported.insert(height) {
                report(height, count);
            }
        };
        match self.run_with::<Wd, u64>(&heights, budget, cancel, &mut once) {
            Err(Error::Overflow { .. }) => {
                match self.run_with::<Wd, u128>(&heights, budget, cancel, &mut once) {
                    Err(Error::Overflow { .. }) => {
                        self.run_with::<Wd, BigUint>(&heights, budget, cancel, &mut once)
                    }
                    other => other,
                }
            }
            other => other,
        }
    }

    fn run_with<Wd: Word, T: Tally>(
        &self,
        heights: &std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        let codec = Codec::new(self.k);
        let mut stats = FrontierStats {
            count_bits: T::BITS,
            ..FrontierStats::default()
        };
        // Before the first square, the window holds squares that do not exist: done.
        let initial = codec.encode::<Wd>(Wd::repeat(FULL, self.k), 0);
        let mut layer: Vec<HashMap<u64, T>> = (0..SHARDS).map(|_| HashMap::new()).collect();
        layer[shard_of(initial)].insert(initial, T::one());
        let rows = *heights.end();
        let mut last_reported = 0;
        for v in 0..rows * self.w {
            cancel.check()?;
            let step = self.step::<Wd>(v, heights);
            let (next, finished) = self.advance(&codec, layer, &step, budget, &mut stats)?;
            layer = next;
            let states: u64 = layer.iter().map(|m| m.len() as u64).sum();
            if let Some(height) = step.finishes {
                report(height, finished.into_big());
                last_reported = height;
            }
            if states == 0 {
                break; // nothing can finish any more: the heights left count 0
            }
        }
        for height in (last_reported + 1).max(*heights.start())..=*heights.end() {
            report(height, BigUint::default());
        }
        Ok(stats)
    }

    /// The states after square `v` reachable from `layer` (sorted), and whether a board
    /// finishes at `v`.
    fn next_states(&self, codec: &Codec, step: &Step<u64>, layer: &[u64]) -> (Vec<u64>, bool) {
        let mut next = hashbrown::HashSet::new();
        let mut finished = false;
        for &key in layer {
            self.transitions(codec, step, key, |outcome| match outcome {
                Outcome::Next(next_key, _) => {
                    next.insert(next_key);
                }
                Outcome::Finished(_) => finished = true,
            });
        }
        let mut next: Vec<u64> = next.into_iter().collect();
        next.sort_unstable();
        (next, finished)
    }

    /// The first state of `layer` (and its moves) that leads to `target` (`None`: finishing).
    fn predecessor(
        &self,
        codec: &Codec,
        step: &Step<u64>,
        layer: &[u64],
        target: Option<u64>,
    ) -> Option<(u64, u32)> {
        let mut found = None;
        for &key in layer {
            self.transitions(codec, step, key, |outcome| {
                let (to, moves) = outcome.parts();
                if found.is_none() && to == target {
                    found = Some((key, moves));
                }
            });
            if found.is_some() {
                break;
            }
        }
        found
    }

    /// Adds the moves of square `v` (a mask of window slots) to `edges`.
    fn push_moves(&self, v: usize, moves: u32, edges: &mut Vec<(usize, usize)>) {
        for slot in 0..self.k {
            if moves & (1 << slot) != 0 {
                edges.push((v + slot - self.k, v));
            }
        }
    }

    /// [`Plan::witness_edges`] for long boards, in time linear in the length with a small
    /// constant: away from the top, the bottom and the start, two rows of steps are the same as
    /// the two rows before them, so once a layer equals the one two rows earlier, the layers
    /// repeat and are shared, not computed. Reading the tour back uses, for each distinct
    /// layer, a table from each state to one state before it. Returns `None` (use
    /// [`Plan::witness_edges`]) when the distinct layers would take more than
    /// [`WITNESS_LAYER_BYTES`].
    #[allow(clippy::type_complexity)]
    fn witness_edges_periodic(
        &self,
        cancel: &CancelFlag,
    ) -> Result<Option<Option<Vec<(usize, usize)>>>, Error> {
        use std::sync::Arc;
        let codec = Codec::new(self.k);
        let heights = self.h..=self.h;
        let n = self.n;
        let period = 2 * self.w;
        let initial = codec.encode::<u64>(u64::repeat(FULL, self.k), 0);
        let steps: Vec<Step<u64>> = (0..n).map(|v| self.step::<u64>(v, &heights)).collect();
        // Steps in classes: v is in the class of v - period when the two act alike.
        let mut class = vec![0usize; n];
        for v in 0..n {
            class[v] = if v >= period && same_step(&steps[v], &steps[v - period]) {
                class[v - period]
            } else {
                v
            };
        }
        // layers[v]: the states before square v.
        let mut layers: Vec<Arc<Vec<u64>>> = Vec::with_capacity(n);
        layers.push(Arc::new(vec![initial]));
        let mut held = 0usize;
        let mut finished = false;
        for v in 0..n {
            if v % 1024 == 0 {
                cancel.check()?;
            }
            let layer = &layers[v];
            if v + 1 < n
                && class[v] != v
                && (Arc::ptr_eq(layer, &layers[v - period]) || **layer == *layers[v - period])
            {
                let repeated = layers[v + 1 - period].clone();
                layers.push(repeated);
                continue;
            }
            let (next, finishes) = self.next_states(&codec, &steps[v], layer);
            if v + 1 == n {
                finished = finishes;
                break;
            }
            if next.is_empty() {
                return Ok(Some(None));
            }
            held += next.len() * 8;
            if held > WITNESS_LAYER_BYTES {
                return Ok(None);
            }
            layers.push(Arc::new(next));
        }
        if !finished {
            return Ok(Some(None));
        }
        // Read the tour back from the end: at square v, a state of layers[v] that leads to the
        // state chosen after it. One table per distinct layer and step.
        let mut edges = Vec::with_capacity(n);
        let mut target: Option<u64> = None; // None: "finishes"
        // Tables of shared layers, by layer and step class (a repeated stretch uses a few).
        let mut tables: HashMap<(usize, usize), HashMap<Option<u64>, (u64, u32)>> = HashMap::new();
        let build = |layer: &[u64], v: usize| {
            let mut table = HashMap::new();
            for &key in layer {
                self.transitions(&codec, &steps[v], key, |outcome| {
                    let (to, moves) = outcome.parts();
                    table.entry(to).or_insert((key, moves));
                });
            }
            table
        };
        for v in (0..n).rev() {
            if v % 1024 == 0 {
                cancel.check()?;
            }
            let layer = &layers[v];
            let chosen = if Arc::strong_count(layer) > 1 {
                if tables.len() > 8 * period {
                    tables.clear();
                }
                let table = tables
                    .entry((Arc::as_ptr(layer) as usize, class[v]))
                    .or_insert_with(|| build(layer, v));
                table.get(&target).copied()
            } else {
                // Used once: the first state that leads to the target.
                self.predecessor(&codec, &steps[v], layer, target)
            };
            let (key, moves) = chosen.expect("a layer leads to the state chosen after it");
            self.push_moves(v, moves, &mut edges);
            target = Some(key);
        }
        Ok(Some(Some(edges)))
    }

    /// The moves of one tour, as pairs of row-major squares of the oriented board, or `None`
    /// when there is no tour.
    fn witness_edges(&self, cancel: &CancelFlag) -> Result<Option<Vec<(usize, usize)>>, Error> {
        let codec = Codec::new(self.k);
        let heights = self.h..=self.h;
        let n = self.n;
        let initial = codec.encode::<u64>(u64::repeat(FULL, self.k), 0);
        // Layer v is the set of states before square v; every `stride`-th is kept.
        let stride = (n as f64).sqrt().ceil() as usize;
        let advance = |layer: &[u64], v: usize| -> (Vec<u64>, bool) {
            self.next_states(&codec, &self.step::<u64>(v, &heights), layer)
        };
        let mut kept: Vec<Vec<u64>> = Vec::new();
        let mut layer = vec![initial];
        for v in 0..n {
            cancel.check()?;
            if v % stride == 0 {
                kept.push(layer.clone());
            }
            let (next, finished) = advance(&layer, v);
            if v + 1 == n {
                if !finished {
                    return Ok(None);
                }
            } else if next.is_empty() {
                return Ok(None);
            }
            layer = next;
        }
        // Read the tour back: at each square, a state of the layer before it that leads to the
        // state already chosen after it (at the last square: one that finishes).
        let mut edges = Vec::with_capacity(n);
        let mut target: Option<u64> = None; // None: "finishes"
        while let Some(checkpoint) = kept.pop() {
            cancel.check()?;
            let block = kept.len();
            let first = block * stride;
            let last = ((block + 1) * stride).min(n);
            let mut layers = vec![checkpoint];
            for v in first..last - 1 {
                let (next, _) = advance(&layers[layers.len() - 1], v);
                layers.push(next);
            }
            for v in (first..last).rev() {
                let step = self.step::<u64>(v, &heights);
                let (key, moves) = self
                    .predecessor(&codec, &step, &layers[v - first], target)
                    .expect("a kept layer leads to the chosen state");
                self.push_moves(v, moves, &mut edges);
                target = Some(key);
            }
        }
        Ok(Some(edges))
    }

    /// The meeting in the middle (see [`count_closed_meeting`]).
    fn meet<T: Tally + Into<u128> + Copy>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
    ) -> Result<(BigUint, FrontierStats), Error> {
        if self.k < 16 {
            self.meet_word::<u64, T>(budget, cancel)
        } else {
            self.meet_word::<u128, T>(budget, cancel)
        }
    }

    fn meet_word<Wd: Word, T: Tally + Into<u128> + Copy>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
    ) -> Result<(BigUint, FrontierStats), Error> {
        let (lo, hi) = self.cut();
        // The cut's squares in the window after its last square: slots 1..=2W (the square
        // before the cut stays in slot 0), or all slots 0..=2W.
        let cut = hi - lo + 1;
        let offset = self.k - cut;
        let codec = Codec::new(self.k);
        let mut stats = FrontierStats {
            count_bits: T::BITS,
            ..FrontierStats::default()
        };
        let initial = codec.encode::<Wd>(Wd::repeat(FULL, self.k), 0);
        let mut layer: Vec<HashMap<u64, T>> = (0..SHARDS).map(|_| HashMap::new()).collect();
        layer[shard_of(initial)].insert(initial, T::one());
        let heights = self.h..=self.h;
        for v in 0..=hi {
            cancel.check()?;
            let step = self.step::<Wd>(v, &heights);
            layer = self.advance(&codec, layer, &step, budget, &mut stats)?.0;
        }
        if self.mode == FrontierMode::OpenAll {
            let fixed = self.self_turned_moves();
            let total = open_join::<Wd, T>(layer, &codec, cut, offset, &fixed, cancel)?;
            return Ok((total, stats));
        }
        // Each state becomes the degrees and pairings of the cut's squares, grouped by degrees.
        let mut classes: HashMap<u32, Vec<(u64, T)>> = HashMap::new();
        for shard in layer {
            for (key, count) in shard {
                let (window, _) = codec.decode::<Wd>(key);
                if offset == 1 && window.code(0) != FULL {
                    continue; // a square above the cut left unfinished
                }
                let mut degrees = 0u32;
                let mut partners = u64::MAX;
                for i in 0..cut {
                    let code = window.code(i + offset);
                    degrees |= code_degree(code) << (2 * i);
                    if code >= FIRST_LABEL {
                        let other = label_partner(window, i, cut, offset);
                        partners &= !(15u64 << (4 * i));
                        partners |= (other as u64) << (4 * i);
                    }
                }
                classes.entry(degrees).or_default().push((partners, count));
            }
        }
        cancel.check()?;
        let last = cut - 1;
        // On an odd width, two moves across the cut are their own half turn: neither half owns
        // them, and every join tries them both ways.
        let fixed = self.self_turned_moves();
        let entries: Vec<(&u32, &Vec<(u64, T)>)> = classes.iter().collect();
        let total = entries
            .par_iter()
            .map(|&(&degrees, tops)| {
                let mut sum = BigUint::default();
                for chosen in 0..1usize << fixed.len() {
                    let (used, extra) = chosen_moves(&fixed, chosen);
                    // Degrees the bottom must bring, as a state of the top half turned.
                    let mut wanted = 0u32;
                    let mut possible = true;
                    for i in 0..cut {
                        let have = ((degrees >> (2 * (last - i))) & 3) + extra[last - i];
                        if have > 2 {
                            possible = false;
                            break;
                        }
                        wanted |= (2 - have) << (2 * i);
                    }
                    let Some(bottoms) = classes.get(&wanted).filter(|_| possible) else {
                        continue;
                    };
                    sum += join_class(degrees, wanted, &used, tops, bottoms, cut);
                }
                sum
            })
            .reduce(BigUint::default, |a, b| a + b);
        Ok((total, stats))
    }

    /// Turns one layer into the next with the moves of one square, in parallel: returns the
    /// next layer and the ways that finished a board at this step.
    fn advance<Wd: Word, T: Tally>(
        &self,
        codec: &Codec,
        layer: Vec<HashMap<u64, T>>,
        step: &Step<Wd>,
        budget: MemoryBudget,
        stats: &mut FrontierStats,
    ) -> Result<(Vec<HashMap<u64, T>>, T), Error> {
        let states_in: usize = layer.iter().map(HashMap::len).sum();
        // Sized for a layer like the last one, so that the maps rarely grow while filled.
        let expected = states_in / SHARDS;
        let next: Vec<Mutex<HashMap<u64, T>>> = (0..SHARDS)
            .map(|_| Mutex::new(HashMap::with_capacity(expected)))
            .collect();
        let finished: Mutex<T> = Mutex::new(T::zero());
        let overflow = AtomicBool::new(false);
        let over_budget = AtomicBool::new(false);
        // The layer being read is freed shard by shard; count it as if it were all there.
        let bytes = AtomicU64::new(
            layer
                .iter()
                .map(|m| m.allocation_size() as u64)
                .sum::<u64>()
                + next
                    .iter()
                    .map(|m| m.lock().map_or(0, |m| m.allocation_size() as u64))
                    .sum::<u64>(),
        );
        let made = AtomicU64::new(0);
        // Each worker keeps its batches between shards, so their memory is reused.
        let workers =
            || -> Vec<Vec<(u64, T)>> { (0..SHARDS).map(|_| Vec::with_capacity(BATCH)).collect() };
        let process = |buffers: &mut Vec<Vec<(u64, T)>>, shard: HashMap<u64, T>| {
            if overflow.load(Ordering::Relaxed) || over_budget.load(Ordering::Relaxed) {
                return;
            }
            let mut done = T::zero();
            let mut local_made = 0u64;
            let flush = |target: usize, buffer: &mut Vec<(u64, T)>| {
                let mut map = next[target]
                    .lock()
                    .expect("no thread panics holding a shard");
                let before = map.allocation_size();
                for (key, count) in buffer.drain(..) {
                    if !map.entry(key).or_insert_with(T::zero).add(&count) {
                        overflow.store(true, Ordering::Relaxed);
                    }
                }
                let grown = map.allocation_size() - before;
                if grown > 0
                    && bytes.fetch_add(grown as u64, Ordering::Relaxed) + grown as u64
                        > budget.bytes()
                {
                    over_budget.store(true, Ordering::Relaxed);
                }
            };
            for (key, count) in shard {
                self.transitions(codec, step, key, |outcome| match outcome {
                    Outcome::Next(next_key, _) => {
                        local_made += 1;
                        let target = shard_of(next_key);
                        buffers[target].push((next_key, count.clone()));
                        if buffers[target].len() >= BATCH {
                            flush(target, &mut buffers[target]);
                        }
                    }
                    Outcome::Finished(_) => {
                        if !done.add(&count) {
                            overflow.store(true, Ordering::Relaxed);
                        }
                    }
                });
                if overflow.load(Ordering::Relaxed) || over_budget.load(Ordering::Relaxed) {
                    return;
                }
            }
            for (target, buffer) in buffers.iter_mut().enumerate() {
                if !buffer.is_empty() {
                    flush(target, buffer);
                }
            }
            if !finished
                .lock()
                .expect("no thread panics holding the total")
                .add(&done)
            {
                overflow.store(true, Ordering::Relaxed);
            }
            made.fetch_add(local_made, Ordering::Relaxed);
        };
        if states_in < SEQUENTIAL_STATES {
            // A small layer: one thread, one set of buffers (threads would cost more).
            let mut buffers = workers();
            for shard in layer {
                process(&mut buffers, shard);
            }
        } else {
            layer.into_par_iter().for_each_init(workers, process);
        }
        if overflow.load(Ordering::Relaxed) {
            return Err(Error::Overflow { board: self.board });
        }
        let layer: Vec<HashMap<u64, T>> = next
            .into_iter()
            .map(|m| m.into_inner().expect("no thread panics holding a shard"))
            .collect();
        let states: u64 = layer.iter().map(|m| m.len() as u64).sum();
        let held: u64 = layer.iter().map(|m| m.allocation_size() as u64).sum();
        if over_budget.load(Ordering::Relaxed) {
            return Err(Error::MemoryBudget {
                board: self.board,
                square: step.v,
                states,
                bytes: bytes.load(Ordering::Relaxed),
                budget: budget.bytes(),
            });
        }
        stats.transitions += made.load(Ordering::Relaxed);
        if states > stats.peak_states {
            stats.peak_states = states;
            stats.peak_bytes = held;
        }
        let finished = finished
            .into_inner()
            .expect("no thread panics holding the total");
        Ok((layer, finished))
    }

    /// Every way to decide the moves from square `v` back into the window of `key`.
    fn transitions<Wd: Word>(
        &self,
        codec: &Codec,
        step: &Step<Wd>,
        key: u64,
        mut emit: impl FnMut(Outcome),
    ) {
        let k = self.k;
        let (window, flag) = codec.decode::<Wd>(key);
        // Slot k, the new square, starts empty (its nibble is 0).
        let fresh = FIRST_LABEL + (window.labels().count_ones() / 2) as u8;
        // Neighbours that can still take a move, and the one that must (the leaving square,
        // when it is not yet done and only this move can help it).
        let mut usable = [0usize; 4];
        let mut count = 0;
        for &slot in &step.neighbours[..step.neighbour_count] {
            if window.code(slot) != FULL {
                usable[count] = slot;
                count += 1;
            }
        }
        let mut forced = usize::MAX;
        if !step.last && step.finishes.is_none() {
            let needs_move = match (self.mode, window.code(0)) {
                (_, FULL) => false,
                (FrontierMode::Closed, EMPTY) => return, // two moves short, one square left
                (FrontierMode::Closed, _) => true,
                (_, EMPTY | DANGLING) => true,
                _ => false,
            };
            if needs_move {
                if !usable[..count].contains(&0) {
                    return;
                }
                forced = 0;
            }
        }
        let max_moves = if step.start_slot == Some(k) { 1 } else { 2 };
        let min_moves = step.min_moves;
        if forced == usize::MAX && min_moves == 0 {
            self.try_moves(codec, step, window, flag, fresh, &[], &mut emit);
        }
        for i in 0..count {
            if (forced == usize::MAX || usable[i] == forced) && min_moves <= 1 {
                self.try_moves(codec, step, window, flag, fresh, &[usable[i]], &mut emit);
            }
            if max_moves == 2 {
                for j in i + 1..count {
                    if forced == usize::MAX || usable[i] == forced || usable[j] == forced {
                        let moves = [usable[i], usable[j]];
                        self.try_moves(codec, step, window, flag, fresh, &moves, &mut emit);
                    }
                }
            }
        }
    }

    /// One choice of moves from the new square.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn try_moves<Wd: Word>(
        &self,
        codec: &Codec,
        step: &Step<Wd>,
        window: Wd,
        flag: u8,
        fresh: u8,
        moves: &[usize],
        emit: &mut impl FnMut(Outcome),
    ) {
        let k = self.k;
        let mut a = window;
        let mut completed = false;
        let chosen = moves.iter().fold(0u32, |mask, &slot| mask | 1 << slot);
        for &slot in moves {
            match self.connect(&mut a, slot, k, fresh, step.all) {
                Join::Ok => {}
                Join::Completes => completed = true,
                Join::Invalid => return,
            }
        }
        // The fixed start ends with one move (once done, its slot is marked full).
        if let Some(slot) = step.start_slot
            && window.code(slot) != FULL
            && a.code(slot) == FULL
        {
            return;
        }
        if completed {
            // A cycle closed or the two tour ends met: this must be the whole board.
            if step.finishes.is_some() && a.eq_mask(FULL, step.all) == step.all {
                emit(Outcome::Finished(chosen));
            }
            return;
        }
        if step.finishes.is_some() && self.finished(a, step.all) {
            emit(Outcome::Finished(chosen));
        }
        if step.last {
            return;
        }
        // A closed tour needs two moves at every square: one with a single move left cannot
        // still be empty.
        if self.mode == FrontierMode::Closed && a.eq_mask(EMPTY, step.one_left) != Wd::ZERO {
            return;
        }
        let mut flag = flag;
        if !self.finalize(&mut a, step, &mut flag) {
            return;
        }
        if self.mode != FrontierMode::Closed && !self.ends_possible(a, step, flag) {
            return;
        }
        let next = a.shift_out().canonical();
        if step.mirror && next.code(0) == FULL {
            // At the end of a row the window is two whole rows, and the rest of the board is
            // symmetric left to right: a state and its mirror image finish in as many ways,
            // so only the smaller of the two is kept.
            let mirrored = self.mirror(next).canonical();
            let mirrored_flag = if self.colour_flag && self.w.is_multiple_of(2) {
                flag ^ 1
            } else {
                flag
            };
            let key = codec.encode(next, flag);
            let other = codec.encode(mirrored, mirrored_flag);
            emit(Outcome::Next(key.min(other), chosen));
        } else {
            emit(Outcome::Next(codec.encode(next, flag), chosen));
        }
    }

    /// The window at the end of a row (slot 0 done, then two whole rows) turned left to right.
    fn mirror<Wd: Word>(&self, window: Wd) -> Wd {
        let w = self.w;
        let mut out = window;
        for row in 0..2 {
            for c in 0..w {
                out = out.with(1 + row * w + (w - 1 - c), window.code(1 + row * w + c));
            }
        }
        out
    }

    /// Adds the move between slots `i` and `j` (`fresh` labels a new path).
    fn connect<Wd: Word>(&self, a: &mut Wd, i: usize, j: usize, fresh: u8, all: Wd) -> Join {
        let (x, y) = (a.code(i), a.code(j));
        if x == FULL || y == FULL {
            return Join::Invalid;
        }
        match (x, y) {
            (EMPTY, EMPTY) => {
                *a = a.with(i, fresh).with(j, fresh);
            }
            (EMPTY, other) => *a = a.with(i, other).with(j, FULL),
            (other, EMPTY) => *a = a.with(j, other).with(i, FULL),
            (DANGLING, DANGLING) => {
                *a = a.with(i, FULL).with(j, FULL);
                return Join::Completes;
            }
            (DANGLING, label) | (label, DANGLING) => {
                // The far end of the labelled path now leads to a tour end.
                *a = a.with(i, FULL).with(j, FULL);
                *a = a.replace(label, DANGLING, all);
            }
            (p, q) if p == q => {
                // Both ends of one path: a cycle. Only the last move of a closed tour may do it.
                if self.mode != FrontierMode::Closed {
                    return Join::Invalid;
                }
                *a = a.with(i, FULL).with(j, FULL);
                return Join::Completes;
            }
            (p, q) => {
                *a = a.with(i, FULL).with(j, FULL);
                *a = a.replace(q, p, all);
            }
        }
        Join::Ok
    }

    /// True when the extended window, taken as the end of the board, completes one tour.
    fn finished<Wd: Word>(&self, a: Wd, all: Wd) -> bool {
        if self.mode == FrontierMode::Closed {
            return false; // a closed tour finishes only through its closing move
        }
        if a.eq_mask(EMPTY, all) != Wd::ZERO {
            return false;
        }
        let dangling = a.eq_mask(DANGLING, all).count_ones();
        let ends = a.labels().count_ones();
        matches!((dangling, ends), (1, 0) | (0, 2))
    }

    /// Squares with no move left: their degree is final. Returns false when one is wrong.
    fn finalize<Wd: Word>(&self, a: &mut Wd, step: &Step<Wd>, flag: &mut u8) -> bool {
        let (empty, full, dangling) = a.classes();
        if (empty | dangling) & step.finals_mask != Wd::ZERO {
            return false;
        }
        let mut ends_here = step.finals_mask & !full;
        if ends_here == Wd::ZERO {
            return true;
        }
        if self.mode == FrontierMode::Closed {
            return false;
        }
        let mut ends = (dangling & step.all).count_ones();
        while ends_here != Wd::ZERO {
            let shift = ends_here.trailing_zeros();
            ends_here = ends_here & !(Wd::from_u8(1) << shift);
            let slot = (shift / 4) as usize;
            let label = a.code(slot);
            if label == DANGLING {
                return false; // both ends of one path done: it closed too early
            }
            // A tour end: the far end of its path now leads to it.
            *a = a.with(slot, FULL).replace(label, DANGLING, step.all);
            ends += 1;
            let colour = step.colour[slot];
            match self.start {
                Some(start) => {
                    if step.start_slot != Some(slot) {
                        // The start is one end; while it is not done, one other at
                        // most.
                        let pending = step.start_pending
                            || step.start_slot.is_some_and(|s| a.code(s) != FULL);
                        if pending && ends > 1 {
                            return false;
                        }
                        let start_colour = self.corner_colour(start);
                        if self.colours
                            && (self.odd && !colour || !self.odd && colour == start_colour)
                        {
                            return false;
                        }
                    }
                    if ends > 2 {
                        return false;
                    }
                }
                None => {
                    if ends > 2 || self.colours && self.odd && !colour {
                        return false;
                    }
                    if self.colour_flag {
                        if ends == 1 {
                            *flag = u8::from(colour);
                        } else if *flag == u8::from(colour) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Open tours: the squares of the next window that can no longer get two moves must be
    /// tour ends; with the ends already made, there may be two at most, of possible colours.
    fn ends_possible<Wd: Word>(&self, a: Wd, step: &Step<Wd>, flag: u8) -> bool {
        let (empty, full, dangling) = a.classes();
        let forced = (empty & step.next & step.weak) | (step.start_mask & !full);
        let left = (dangling & step.next).count_ones();
        let ends = forced.count_ones() + left + u32::from(step.start_pending);
        if ends > 2 {
            return false;
        }
        if !self.colours {
            return true;
        }
        let others = forced & !step.start_mask;
        if self.odd {
            // Tour ends are on the corners' colour.
            return others & !step.corner == Wd::ZERO;
        }
        let corner = (others & step.corner).count_ones();
        let other = (others & !step.corner).count_ones();
        match self.start {
            // On an even board the two ends differ in colour.
            Some(start) => {
                if self.corner_colour(start) {
                    corner == 0
                } else {
                    other == 0
                }
            }
            None => {
                corner <= 1
                    && other <= 1
                    && !(self.colour_flag
                        && left >= 1
                        && if flag == 1 { corner > 0 } else { other > 0 })
            }
        }
    }
}

/// The ways the top states `tops` (degrees `degrees` on the cut) and the bottom states
/// `bottoms` (stored as top states: cut square `i` of a bottom state is square `last - i`;
/// degrees `wanted` in that form), with the moves `used` across the cut, close into a single
/// cycle, weighted by their counts.
fn join_class<T: Tally + Into<u128> + Copy>(
    degrees: u32,
    wanted: u32,
    used: &[(usize, usize)],
    tops: &[(u64, T)],
    bottoms: &[(u64, T)],
    cut: usize,
) -> BigUint {
    let last = cut - 1;
    let degree = |d: u32, i: usize| (d >> (2 * i)) & 3;
    // The squares where paths meet, and their links by kind: 0 top, 1 across, 2 bottom.
    let mut nodes: Vec<usize> = Vec::new();
    for i in 0..cut {
        let top = degree(degrees, i) == 1;
        let bottom = degree(wanted, last - i) == 1;
        let across = used.iter().any(|&(a, b)| a == i || b == i);
        if top || bottom || across {
            nodes.push(i);
        }
    }
    let mut sum = ProductSum::new();
    if nodes.is_empty() {
        return sum.total(); // the halves would not meet
    }
    if used.is_empty() {
        // Every node has a top link and a bottom link: alternate them.
        for &(top, top_count) in tops {
            for &(bottom, bottom_count) in bottoms {
                let mut at = nodes[0];
                let mut seen = 0;
                loop {
                    let across = ((top >> (4 * at)) & 15) as usize;
                    at = last - ((bottom >> (4 * (last - across))) & 15) as usize;
                    seen += 2;
                    if at == nodes[0] || seen > nodes.len() {
                        break;
                    }
                }
                if seen == nodes.len() && at == nodes[0] {
                    sum.add(top_count.into(), bottom_count.into());
                }
            }
        }
        return sum.total();
    }
    for &(top, top_count) in tops {
        for &(bottom, bottom_count) in bottoms {
            let link = |at: usize, kind: usize| -> Option<usize> {
                match kind {
                    0 if degree(degrees, at) == 1 => Some(((top >> (4 * at)) & 15) as usize),
                    1 => used.iter().find_map(|&(a, b)| {
                        if a == at {
                            Some(b)
                        } else if b == at {
                            Some(a)
                        } else {
                            None
                        }
                    }),
                    2 if degree(wanted, last - at) == 1 => {
                        Some(last - ((bottom >> (4 * (last - at))) & 15) as usize)
                    }
                    _ => None,
                }
            };
            // Walk the cycle through the first node: leave each node by the link it was not
            // entered by.
            let start = nodes[0];
            let Some(first) = (0..3).find(|&kind| link(start, kind).is_some()) else {
                continue;
            };
            let (mut at, mut came_by) = (link(start, first).expect("found"), first);
            let mut seen = 1;
            let mut closed = false;
            while seen <= nodes.len() {
                if at == start {
                    closed = true;
                    break;
                }
                seen += 1;
                let Some(out) = (0..3).find(|&kind| kind != came_by && link(at, kind).is_some())
                else {
                    break;
                };
                at = link(at, out).expect("found");
                came_by = out;
            }
            if closed && seen == nodes.len() {
                sum.add(top_count.into(), bottom_count.into());
            }
        }
    }
    sum.total()
}

/// One top state at the cut, for open paths: the partner of each label (4 bits a square) and
/// the squares whose path runs to a tour end inside the half (one bit a square).
#[derive(Clone, Copy)]
struct OpenCut<T> {
    /// For each cut square where a path of the half ends: the square at its other end, or
    /// [`LINK_END`] when it runs to a tour end inside the half; [`NO_LINK`] elsewhere.
    links: [u8; 16],
    count: T,
}

/// A path that runs to a tour end inside a half.
const LINK_END: u8 = 16;
/// No path ends on this cut square.
const NO_LINK: u8 = 255;

/// A sum of products of two counts: kept in a `u128` while it fits, carried into a big integer
/// when the sum (or a single product) would not.
struct ProductSum {
    big: BigUint,
    partial: u128,
}

impl ProductSum {
    fn new() -> Self {
        ProductSum {
            big: BigUint::default(),
            partial: 0,
        }
    }

    fn add(&mut self, a: u128, b: u128) {
        match a.checked_mul(b) {
            Some(product) => match self.partial.checked_add(product) {
                Some(sum) => self.partial = sum,
                None => {
                    self.big += self.partial;
                    self.partial = product;
                }
            },
            None => self.big += BigUint::from(a) * BigUint::from(b),
        }
    }

    fn total(self) -> BigUint {
        self.big + self.partial
    }
}

/// The self-turned moves picked by the bits of `chosen`, and how many each cut square gets.
fn chosen_moves(fixed: &[(usize, usize)], chosen: usize) -> (Vec<(usize, usize)>, [u32; 16]) {
    let used: Vec<(usize, usize)> = fixed
        .iter()
        .enumerate()
        .filter(|(bit, _)| chosen & (1 << bit) != 0)
        .map(|(_, &edge)| edge)
        .collect();
    let mut extra = [0u32; 16];
    for &(i, j) in &used {
        extra[i] += 1;
        extra[j] += 1;
    }
    (used, extra)
}

/// The number of moves a window code stands for.
fn code_degree(code: u8) -> u32 {
    match code {
        EMPTY => 0,
        FULL => 2,
        _ => 1,
    }
}

/// The cut square (of `cut`, window slots `offset..offset + cut`) at the other end of the path
/// ending at `i`.
fn label_partner<Wd: Word>(window: Wd, i: usize, cut: usize, offset: usize) -> usize {
    let code = window.code(i + offset);
    (0..cut)
        .find(|&j| j != i && window.code(j + offset) == code)
        .expect("a path has two ends")
}

/// Joins the top half's states with their half turns into open paths over the whole board
/// (each path once): on every cut square the moves of both halves (and the self-turned moves
/// chosen) add up to 2, or to 1 where a tour end lies on the cut; the ends — on the cut, or
/// inside a half behind a dangling path — are two; and the pieces form one path.
fn open_join<Wd: Word, T: Tally + Into<u128> + Copy>(
    layer: Vec<HashMap<u64, T>>,
    codec: &Codec,
    cut: usize,
    offset: usize,
    fixed: &[(usize, usize)],
    cancel: &CancelFlag,
) -> Result<BigUint, Error> {
    let last = cut - 1;
    // By degrees, then by the number of tour ends behind the state's paths (0, 1 or 2).
    let mut classes: HashMap<u32, [Vec<OpenCut<T>>; 3]> = HashMap::new();
    for shard in layer {
        for (key, count) in shard {
            let (window, _) = codec.decode::<Wd>(key);
            let mut dangling = 0u32;
            // The square before the cut, when it is still in the window: done, or a tour end.
            let leaving = if offset == 1 { window.code(0) } else { FULL };
            let mut leaving_label = None;
            match leaving {
                FULL => {}
                code if code >= FIRST_LABEL => leaving_label = Some(code), // a tour end
                _ => continue, // unreached, or a finished path that is not the whole board
            }
            let mut degrees = 0u32;
            let mut links = [NO_LINK; 16];
            for (i, link) in links.iter_mut().enumerate().take(cut) {
                let code = window.code(i + offset);
                degrees |= code_degree(code) << (2 * i);
                if code == DANGLING || Some(code) == leaving_label {
                    dangling |= 1 << i;
                    *link = LINK_END;
                } else if code >= FIRST_LABEL {
                    *link = label_partner(window, i, cut, offset) as u8;
                }
            }
            if dangling.count_ones() > 2 {
                continue;
            }
            classes.entry(degrees).or_default()[dangling.count_ones() as usize]
                .push(OpenCut { links, count });
        }
    }
    cancel.check()?;
    let entries: Vec<(&u32, &[Vec<OpenCut<T>>; 3])> = classes.iter().collect();
    let total = entries
        .par_iter()
        .map(|&(&degrees, tops_by_ends)| {
            let mut sum = ProductSum::new();
            let degree = |d: u32, i: usize| (d >> (2 * i)) & 3;
            for chosen in 0..1usize << fixed.len() {
                let (used, extra) = chosen_moves(fixed, chosen);
                let mut fixed_links = [NO_LINK; 16];
                for &(i, j) in &used {
                    fixed_links[i] = j as u8;
                    fixed_links[j] = i as u8;
                }
                let have: Vec<u32> = (0..cut).map(|i| degree(degrees, i) + extra[i]).collect();
                if have.iter().any(|&h| h > 2) {
                    continue;
                }
                // Tour ends on the cut: none, one or two squares that get one move in all.
                let may_end: Vec<usize> = (0..cut).filter(|&i| have[i] <= 1).collect();
                let mut end_sets: Vec<u32> = vec![0];
                for (n, &i) in may_end.iter().enumerate() {
                    end_sets.push(1 << i);
                    for &j in &may_end[n + 1..] {
                        end_sets.push(1 << i | 1 << j);
                    }
                }
                for ends in end_sets {
                    let mut wanted = 0u32;
                    for (i, &had) in have.iter().enumerate() {
                        let total = if ends & (1 << i) != 0 { 1 } else { 2 };
                        wanted |= (total - had) << (2 * (last - i));
                    }
                    let Some(bottoms) = classes.get(&wanted) else {
                        continue;
                    };
                    let on_cut = ends.count_ones() as usize;
                    // The squares where pieces meet: those with a move of a half's path
                    // ending there, or a self-turned move.
                    let nodes = (0..cut)
                        .filter(|&i| {
                            degree(degrees, i) == 1 || degree(wanted, last - i) == 1 || extra[i] > 0
                        })
                        .count();
                    for top_ends in 0..=2 - on_cut {
                        let tops = &tops_by_ends[top_ends];
                        let bottoms = &bottoms[2 - on_cut - top_ends];
                        for top in tops {
                            for bottom in bottoms {
                                if one_path(top, bottom, &fixed_links, ends, cut, nodes) {
                                    sum.add(top.count.into(), bottom.count.into());
                                }
                            }
                        }
                    }
                }
            }
            sum.total()
        })
        .reduce(BigUint::default, |a, b| a + b);
    Ok(total)
}

/// Whether a top state and a turned bottom state (with the self-turned moves `fixed` and the
/// tour ends `ends` on the cut) make one path through all `nodes` cut squares they touch.
fn one_path<T>(
    top: &OpenCut<T>,
    bottom: &OpenCut<T>,
    fixed: &[u8; 16],
    ends: u32,
    cut: usize,
    nodes: usize,
) -> bool {
    let last = cut - 1;
    // The link of cut square `at` of kind 0 (top), 1 (bottom, turned) or 2 (self-turned).
    let link = |at: usize, kind: usize| -> u8 {
        match kind {
            0 => top.links[at],
            1 => match bottom.links[last - at] {
                NO_LINK => NO_LINK,
                LINK_END => LINK_END,
                other => (last - other as usize) as u8,
            },
            _ => fixed[at],
        }
    };
    // Start at an end: a tour end on the cut, or a square whose path leads to one inside.
    let (mut at, mut came) = if ends != 0 {
        (ends.trailing_zeros() as usize, 3)
    } else {
        let Some((square, kind)) = (0..cut)
            .flat_map(|i| (0..2).map(move |kind| (i, kind)))
            .find(|&(i, kind)| link(i, kind) == LINK_END)
        else {
            return false;
        };
        (square, kind)
    };
    let mut seen = 1;
    loop {
        let Some((out, next)) = (0..3)
            .filter(|&kind| kind != came)
            .map(|kind| (kind, link(at, kind)))
            .find(|&(_, next)| next != NO_LINK)
        else {
            // Only a tour end on the cut has a single link.
            return ends & (1 << at) != 0 && seen == nodes;
        };
        if next == LINK_END {
            return seen == nodes;
        }
        at = next as usize;
        came = out;
        seen += 1;
        if seen > nodes {
            return false;
        }
    }
}

/// What one choice of moves leads to; the moves are the window slots joined to the new square,
/// as a bit mask.
enum Outcome {
    Next(u64, u32),
    Finished(u32),
}

impl Outcome {
    /// The state reached (`None`: a finished board) and the moves.
    fn parts(self) -> (Option<u64>, u32) {
        match self {
            Outcome::Next(key, moves) => (Some(key), moves),
            Outcome::Finished(moves) => (None, moves),
        }
    }
}

enum Join {
    Ok,
    Completes,
    Invalid,
}

fn shard_of(key: u64) -> usize {
    ((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize) % SHARDS
}

/// A window as a machine word, four bits a slot (slot `i` at bits `4i..4i+4`), handled a whole
/// word at a time.
trait Word:
    Copy
    + Eq
    + Send
    + Sync
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// The low bit of every slot the word can hold.
    const LOW: Self;
    fn from_u8(value: u8) -> Self;
    fn times(self, value: u8) -> Self;
    fn low_u8(self) -> u8;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    fn to_u128(self) -> u128;
    fn from_u128(value: u128) -> Self;

    /// `value` in slot `slot`.
    fn nibble(slot: usize, value: u8) -> Self {
        Self::from_u8(value) << (4 * slot as u32)
    }

    /// `value` in each of the first `slots` slots.
    fn repeat(value: u8, slots: usize) -> Self {
        (0..slots).fold(Self::ZERO, |m, slot| m | Self::nibble(slot, value))
    }

    fn code(self, slot: usize) -> u8 {
        (self >> (4 * slot as u32)).low_u8() & 15
    }

    fn with(self, slot: usize, value: u8) -> Self {
        let shift = 4 * slot as u32;
        (self & !(Self::from_u8(15) << shift)) | (Self::from_u8(value) << shift)
    }

    /// The low bit of every slot in `among` (given as low bits) holding `value`.
    fn eq_mask(self, value: u8, among: Self) -> Self {
        let y = self ^ among.times(value);
        let any = (y | (y >> 1) | (y >> 2) | (y >> 3)) & among;
        among & !any
    }

    /// The low bit of every slot holding a path label (3 or more).
    fn labels(self) -> Self {
        ((self >> 3) | (self >> 2) | ((self >> 1) & self)) & Self::LOW
    }

    /// Replaces the (single) slot among `among` that holds `from` by `to`.
    fn replace(self, from: u8, to: u8, among: Self) -> Self {
        let mask = self.eq_mask(from, among);
        if mask == Self::ZERO {
            return self;
        }
        self.with((mask.trailing_zeros() / 4) as usize, to)
    }

    /// The window after the step: slot 0 leaves, the others move down one.
    fn shift_out(self) -> Self {
        self >> 4
    }

    /// Labels renumbered from 3 in order of first appearance.
    fn canonical(self) -> Self {
        let mut labels = self.labels();
        let mut map = 0u64;
        let mut next = FIRST_LABEL as u64;
        let mut out = self & !(labels.times(15));
        while labels != Self::ZERO {
            let shift = labels.trailing_zeros();
            let label = ((self >> shift).low_u8() & 15) as u32;
            let known = (map >> (4 * label)) & 15;
            // Branch-free: a label seen for the first time takes the next number.
            let new = u64::from(known == 0);
            let mapped = known | (new * next);
            map |= (new * next) << (4 * label);
            next += new;
            out = out | (Self::from_u8(mapped as u8) << shift);
            labels = labels & (labels ^ (Self::from_u8(1) << shift));
        }
        out
    }

    /// The low bits of the slots holding 0 (empty), 1 (full) and 2 (dangling).
    fn classes(self) -> (Self, Self, Self) {
        let b0 = self & Self::LOW;
        let b1 = (self >> 1) & Self::LOW;
        let high = ((self >> 2) | (self >> 3)) & Self::LOW;
        let empty = Self::LOW & !(b0 | b1 | high);
        let full = b0 & !b1 & !high;
        let dangling = b1 & !b0 & !high;
        (empty, full, dangling)
    }
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const LOW: Self = <$t>::MAX / 15;
            fn from_u8(value: u8) -> Self {
                value as $t
            }
            fn times(self, value: u8) -> Self {
                self.wrapping_mul(value as $t)
            }
            fn low_u8(self) -> u8 {
                self as u8
            }
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            fn to_u128(self) -> u128 {
                self as u128
            }
            fn from_u128(value: u128) -> Self {
                value as $t
            }
        }
    };
}

word!(u64);
word!(u128);

/// Packs a window (and the colour flag) into a `u64` key: the slots' four bits as they are up
/// to width 7 (flag at bit 60), base 12 for width 8 (17 slots of at most 11).
#[derive(Clone, Copy, Debug)]
struct Codec {
    k: usize,
    base12: bool,
}

impl Codec {
    fn new(k: usize) -> Self {
        Codec { k, base12: k > 15 }
    }

    fn encode<Wd: Word>(&self, window: Wd, flag: u8) -> u64 {
        if self.base12 {
            let mut key = 0u64;
            for slot in (0..self.k).rev() {
                key = key * 12 + window.code(slot) as u64;
            }
            key
        } else {
            window.to_u128() as u64 | (flag as u64) << 60
        }
    }

    fn decode<Wd: Word>(&self, key: u64) -> (Wd, u8) {
        if self.base12 {
            let mut window = Wd::ZERO;
            let mut rest = key;
            for slot in 0..self.k {
                window = window | Wd::nibble(slot, (rest % 12) as u8);
                rest /= 12;
            }
            (window, 0)
        } else {
            (
                Wd::from_u128((key & ((1u64 << 60) - 1)) as u128),
                (key >> 60) as u8,
            )
        }
    }
}

/// A number of ways: added with overflow detection.
trait Tally: Clone + Send + Sync + AddAssign {
    /// 64, 128, or 0 for arbitrary precision.
    const BITS: u32;
    fn zero() -> Self;
    fn one() -> Self;
    /// Adds `other`; false on overflow.
    fn add(&mut self, other: &Self) -> bool;
    fn into_big(self) -> BigUint;
}

impl Tally for u64 {
    const BITS: u32 = 64;
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn add(&mut self, other: &Self) -> bool {
        match self.checked_add(*other) {
            Some(sum) => {
                *self = sum;
                true
            }
            None => false,
        }
    }
    fn into_big(self) -> BigUint {
        BigUint::from(self)
    }
}

impl Tally for u128 {
    const BITS: u32 = 128;
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn add(&mut self, other: &Self) -> bool {
        match self.checked_add(*other) {
            Some(sum) => {
                *self = sum;
                true
            }
            None => false,
        }
    }
    fn into_big(self) -> BigUint {
        BigUint::from(self)
    }
}

impl Tally for BigUint {
    const BITS: u32 = 0;
    fn zero() -> Self {
        BigUint::default()
    }
    fn one() -> Self {
        BigUint::from(1u32)
    }
    fn add(&mut self, other: &Self) -> bool {
        *self += other;
        true
    }
    fn into_big(self) -> BigUint {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    fn run(rows: u32, cols: u32, mode: FrontierMode) -> u128 {
        let (count, _) = count(
            Board::new(rows, cols).unwrap(),
            mode,
            MemoryBudget::DEFAULT,
            &CancelFlag::new(),
        )
        .unwrap();
        count.try_into().unwrap()
    }

    /// The two ways of reading a tour back agree on whether one exists, and both give the
    /// moves of a whole tour (n - 1 moves open, n closed, every square used once or twice).
    #[test]
    fn both_witness_searches_find_tours_exactly_when_they_exist() {
        let cancel = CancelFlag::new();
        for (rows, cols) in [(3, 12), (4, 9), (3, 15)] {
            let board = Board::new(rows, cols).unwrap();
            for closed in [false, true] {
                for square in board.all_squares() {
                    let mode = if closed {
                        FrontierMode::Closed
                    } else {
                        FrontierMode::OpenFrom(square)
                    };
                    let mut plan = Plan::new(board, mode).unwrap();
                    plan.witness = true;
                    let exists = !count(board, mode, MemoryBudget::DEFAULT, &cancel)
                        .unwrap()
                        .0
                        .is_zero();
                    let periodic = plan.witness_edges_periodic(&cancel).unwrap().unwrap();
                    let plain = plan.witness_edges(&cancel).unwrap();
                    for edges in [periodic, plain] {
                        assert_eq!(edges.is_some(), exists, "{board} {square} {closed}");
                        if let Some(edges) = edges {
                            let n = board.squares() as usize;
                            assert_eq!(edges.len(), if closed { n } else { n - 1 });
                            let mut degree = vec![0; n];
                            for (a, b) in edges {
                                degree[a] += 1;
                                degree[b] += 1;
                            }
                            assert!(degree.iter().all(|&d| d == 1 || d == 2));
                        }
                    }
                    if closed {
                        break; // the same for every square
                    }
                }
            }
        }
    }

    /// Open totals by meeting in the middle equal the direct computation's.
    #[test]
    fn open_totals_meet_in_the_middle() {
        let cancel = CancelFlag::new();
        for (rows, cols) in [
            (3, 4),
            (4, 4),
            (4, 6),
            (6, 4),
            (5, 6),
            (6, 5),
            (5, 8),
            (6, 6),
            (3, 5),
            (5, 3),
            (5, 5),
            (5, 7),
            (7, 5),
            (3, 7),
            (7, 3),
            (5, 9),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let mut plan = Plan::new(board, FrontierMode::OpenAll).unwrap();
            assert!(plan.meets(), "{board}");
            plan.split = false;
            let mut direct = BigUint::default();
            plan.run(
                plan.h..=plan.h,
                MemoryBudget::DEFAULT,
                &cancel,
                &mut |_, c| direct = c,
            )
            .unwrap();
            let (met, _) =
                count_meeting(board, FrontierMode::OpenAll, MemoryBudget::DEFAULT, &cancel)
                    .unwrap();
            assert_eq!(met, direct, "{board}");
        }
    }

    #[test]
    fn known_counts() {
        assert_eq!(run(3, 4, FrontierMode::OpenAll), 8);
        assert_eq!(run(5, 5, FrontierMode::OpenAll), 864);
        assert_eq!(run(6, 5, FrontierMode::Closed), 8);
        assert_eq!(run(3, 10, FrontierMode::Closed), 16);
        assert_eq!(run(5, 4, FrontierMode::OpenFrom(Square::new(0, 0))), 32);
        assert_eq!(run(5, 5, FrontierMode::OpenFrom(Square::new(2, 2))), 64);
        assert_eq!(run(1, 1, FrontierMode::OpenAll), 1);
        assert_eq!(run(1, 1, FrontierMode::Closed), 0);
        assert_eq!(run(2, 7, FrontierMode::OpenAll), 0);
    }

    #[test]
    fn open_series_matches_single_counts() {
        for width in [3u32, 4, 5] {
            let mut seen = Vec::new();
            series(
                width,
                width..=9,
                false,
                MemoryBudget::DEFAULT,
                &CancelFlag::new(),
                &mut |h, c| seen.push((h, c)),
            )
            .unwrap();
            for (height, count) in seen {
                let single = super::count(
                    Board::new(height, width).unwrap(),
                    FrontierMode::OpenAll,
                    MemoryBudget::DEFAULT,
                    &CancelFlag::new(),
                )
                .unwrap()
                .0;
                assert_eq!(count, single, "{width}x{height}");
            }
        }
    }

    #[test]
    fn series_matches_single_counts() {
        let mut seen = Vec::new();
        series(
            3,
            3..=12,
            true,
            MemoryBudget::DEFAULT,
            &CancelFlag::new(),
            &mut |h, c| seen.push((h, c)),
        )
        .unwrap();
        let expected: Vec<(u32, BigUint)> = [0u32, 0, 0, 0, 0, 0, 0, 16, 0, 176]
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u32 + 3, BigUint::from(c)))
            .collect();
        assert_eq!(seen, expected);
    }
}
