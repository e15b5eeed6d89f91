//! The frontier engine: a transfer-matrix dynamic program over the squares in row-major order,
//! as in Knuth's and the OEIS contributors' programs for counting tours.
//!
//! The board is turned so that its rows are the short side, of width `W` (or, asked for with
//! [`Rows::Long`], the long side, to count a board a second way). A knight's move joins
//! squares at most `2W + 1` apart in row-major order, so once square `v` has been processed
//! (its moves to earlier squares decided), only the `2W + 1` squares `v - 2W ..= v` can still
//! gain moves: that window is the frontier. A state records, for each square of the window, its
//! degree so far in the partial system of paths (0, 1 or 2) and, for a path end, which other end
//! it is joined to. Labels are renumbered by first appearance, so equal states compare equal,
//! and packed four bits a square into one `u64` (base 12 for width 8; a `u128` for width 9,
//! chosen once for the pass). A layer maps each state
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
//! Counts are exact: a pass counts in the type the board's bound asks for, chosen before it
//! starts (`u64`, residues modulo as many primes as the bound needs, recombined once at the
//! end, or arbitrary precision), so that no pass is ever redone.
//!
//! The parts, each using only those above it in this list:
//!
//! * `plan`: the board turned, the cut, and the rules of one count ([`FrontierMode`]);
//! * `sweep`: what a pass needs of a frontier (`Sweep`, the spec), what one choice of
//!   moves leads to, and the slot codes every frontier shares;
//! * `window`: the engine's own frontier, the last `2W + 1` squares (`state` packs it into a
//!   key, `step` says what each square does, `rules` applies a square to a state);
//! * `boundary`: the frontier of the unprocessed squares next to the processed ones, which
//!   long boards take where it holds fewer states;
//! * `counts`: the count types (`tally`) and the arithmetic of residues (`residue`);
//! * `pass`: a whole pass over any sweep: the layers (`layer`, square by square on every
//!   thread), the rows in the middle of a long board as a recorded period (`periodic`: its
//!   `matrix` and the `products` that run counts through it);
//! * `meet`: the top half's states joined with their own half turns by lookup (`classes`,
//!   `cut`, `lookup`), the halves of pairs saved for the pairs that share them (`pairs`,
//!   `saved`), and the joins by brute force the tests check them against (`oracle`);
//! * `witness`: one tour read back from the layers;
//! * this file: the face on top, and `tests`.

mod boundary;
mod counts;
mod meet;
mod pass;
mod plan;
mod sweep;
#[cfg(test)]
mod tests;
mod window;
mod witness;

use std::path::Path;

use num_bigint::BigUint;

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::count::Limits;
use crate::error::Error;

pub use self::plan::{FrontierMode, FrontierStats, MAX_WIDTH, Rows, check_board};
use self::plan::{Plan, Purpose};
use self::witness::Witness;
use crate::count::frontier::pass::layer::widening;

/// Counts `mode` tours on `board` (any orientation) with the frontier engine.
pub fn count(
    board: Board,
    mode: FrontierMode,
    limits: &Limits,
) -> Result<(BigUint, FrontierStats), Error> {
    count_sharing(board, mode, None, limits)
}

/// [`count`] with the frontier's rows along the side `rows` says: along the long side, a board
/// is counted a second way, with other states and cuts (its long side must be at most
/// [`MAX_WIDTH`] too).
pub fn count_with_rows(
    board: Board,
    mode: FrontierMode,
    rows: Rows,
    limits: &Limits,
) -> Result<(BigUint, FrontierStats), Error> {
    count_along(board, mode, rows, None, limits)
}

/// [`count`], with a directory where the halves of tours between two squares are kept for the
/// other pairs of the board that share them (see [`count_between_meeting`]).
pub fn count_sharing(
    board: Board,
    mode: FrontierMode,
    halves: Option<&Path>,
    limits: &Limits,
) -> Result<(BigUint, FrontierStats), Error> {
    count_along(board, mode, Rows::Short, halves, limits)
}

/// [`count_sharing`] with the rows along the side `rows` says. Along the long side, tours
/// between two squares are counted in one pass: their halves are planned along the short side.
pub(crate) fn count_along(
    board: Board,
    mode: FrontierMode,
    rows: Rows,
    halves: Option<&Path>,
    limits: &Limits,
) -> Result<(BigUint, FrontierStats), Error> {
    let plan = Plan::with_rows(board, mode, Purpose::Count, rows)?;
    if plan.n == 1 {
        let count = u32::from(mode != FrontierMode::Closed);
        return Ok((BigUint::from(count), FrontierStats::default()));
    }
    if let FrontierMode::Between(from, to) = mode
        && rows == Rows::Short
        && plan.n >= PAIR_MEET_SQUARES
        && let Some(counted) = count_between_meeting(board, from, to, halves, limits)?
    {
        return Ok(counted);
    }
    meeting_along(board, mode, rows, limits)
}

/// True for boards whose counts from one square this engine does not give on one machine:
/// 7x8 meets in the middle (each start above the cut a half pass of its own, joined with the
/// total's half), while on 8x8 the top half of the total alone outgrows any one machine's
/// memory (docs/measurements/ has the figures); 7x9 and longer are not measured yet, and a
/// width of 9 holds more states than 8 at every square. Pairs of squares fix both ends, and fit.
pub fn starts_beyond_one_machine(board: Board) -> bool {
    let (short, long) = (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
    );
    match short {
        7 => long >= 9,
        8 | 9 => long >= 8,
        _ => false,
    }
}

/// True for boards whose open total this engine does not count on one machine, as the plan
/// of its pass says: the pass (the top half where the total meets in the middle, else the
/// whole board) of a row width of 8 or 9 outgrows any one machine's memory before its largest
/// layers. Measured (docs/measurements/): the top half of 8x8's total passes 223 million states by square
/// 28 of its 40, and still grows, while 7x8's total meets in the middle within 3 GiB and
/// 8x8's closed tours within 4 GiB; a pass of width 8 is only longer on longer boards, and one
/// of width 9 holds more states at every square.
/// Closed tours, and pairs of squares (both ends fixed), are not refused here.
pub fn total_beyond_one_machine(board: Board) -> bool {
    // The square of 8x8's half by which its layer held 223 million states.
    const MEASURED_SQUARES: usize = 28;
    let Ok(plan) = Plan::new(board, FrontierMode::Total, Purpose::Count) else {
        return false;
    };
    let pass = if plan.meets() {
        plan.cut().1 + 1
    } else {
        plan.n
    };
    plan.w >= 8 && pass > MEASURED_SQUARES
}

/// Tours between two squares meet in the middle from this many squares on, where the board
/// can be cut (measured, docs/measurements/: on 6x6 one pass is a little faster, on 7x7 meeting is
/// several times faster).
const PAIR_MEET_SQUARES: usize = 42;

/// True when [`count`] answers `mode` on `board` by meeting in the middle (see
/// [`count_meeting`]) rather than in one pass over the whole board.
pub fn meets_in_the_middle(board: Board, mode: FrontierMode) -> bool {
    Plan::new(board, mode, Purpose::Count).is_ok_and(|plan| plan.meets())
}

/// Counts closed tours or all open tours (each path once) by meeting in the middle: the board
/// is cut at its two middle rows (rows are the short side; an even number of rows, at least 4),
/// the top half's states are computed up to the cut — including the moves inside it that
/// the top half owns — and the bottom half's states are the same states turned 180 degrees. A
/// top state and a turned one join, for closed tours, when every square on the cut gets two
/// moves in all and the paths of both halves close into a single cycle; open paths join where
/// the moves add up to two on every cut square (one where a tour end lies on the cut), the ends
/// are two, and the pieces of both halves form one path. A board with an odd number of squares
/// (both sides odd) is cut at the `2W + 1` squares around its centre square, which is its own
/// half turn; one with an odd number of rows and an even number of squares (6x7) at the
/// `2W + 2` squares around the middle of its middle row, one more than a window holds: the top
/// half stops a square early, and the cut's last square, which takes no move from it, is
/// empty to it. The largest layer is that of a half board, a small part of what the direct
/// computation holds at its peak. Boards that cannot be cut so (a cut past 24 squares), and
/// counts past 128 bits, are counted directly.
pub fn count_meeting(
    board: Board,
    mode: FrontierMode,
    limits: &Limits,
) -> Result<(BigUint, FrontierStats), Error> {
    meeting_along(board, mode, Rows::Short, limits)
}

/// [`count_meeting`] with the rows along the side `rows` says.
fn meeting_along(
    board: Board,
    mode: FrontierMode,
    rows: Rows,
    limits: &Limits,
) -> Result<(BigUint, FrontierStats), Error> {
    let (budget, cancel) = (limits.budget, &limits.cancel);
    let plan = Plan::with_rows(board, mode, Purpose::Count, rows)?;
    let direct = |plan: Plan| -> Result<(BigUint, FrontierStats), Error> {
        let heights = plan.h..=plan.h;
        let mut result = BigUint::default();
        let stats = plan.run(heights, budget, cancel, &mut |_, count| result = count)?;
        Ok((result, stats))
    };
    if !plan.meets() {
        return direct(plan);
    }
    let halves = Plan::with_rows(board, mode, Purpose::Meet, rows)?;
    widening!(
        halves.meet::<u64>(budget, cancel),
        halves.meet::<u128>(budget, cancel),
        direct(plan),
    )
}

/// Counts the open tours from each of `starts` (squares of `board`, any orientation), giving
/// `report` each start's directed count as soon as it is known. Where the board's open total
/// meets in the middle, so do the starts, sharing one computation of the total's top half (see
/// `meet::meet_starts`); elsewhere each start is counted in one pass.
pub fn count_from_each(
    board: Board,
    starts: &[Square],
    limits: &Limits,
    report: &mut dyn FnMut(Square, BigUint),
) -> Result<FrontierStats, Error> {
    count_from_each_along(board, starts, Rows::Short, limits, report)
}

/// [`count_from_each`] with the rows along the side `rows` says. Along the long side, each
/// start is counted in one pass: the halves of starts are planned along the short side.
pub(crate) fn count_from_each_along(
    board: Board,
    starts: &[Square],
    rows: Rows,
    limits: &Limits,
    report: &mut dyn FnMut(Square, BigUint),
) -> Result<FrontierStats, Error> {
    let (budget, cancel) = (limits.budget, &limits.cancel);
    for &start in starts {
        board.check_square(start)?;
    }
    let all = Plan::with_rows(board, FrontierMode::Total, Purpose::Count, rows)?;
    if !all.meets() || all.n == 1 || rows == Rows::Long {
        let mut stats = FrontierStats::default();
        for &start in starts {
            let mode = FrontierMode::Start(start);
            let (count, figures) = count_with_rows(board, mode, rows, limits)?;
            stats.add(&figures);
            report(start, count);
        }
        return Ok(stats);
    }
    let halves = Plan::new(board, FrontierMode::Total, Purpose::Meet)?;
    // A run redone with wider counts (after an overflow) reports only the starts not yet known.
    let mut known = std::collections::HashSet::new();
    let mut once = |start: Square, count: BigUint| {
        if known.insert(start) {
            report(start, count);
        }
    };
    widening!(
        meet::meet_starts::<u64>(&halves, starts, budget, cancel, &mut once),
        meet::meet_starts::<u128>(&halves, starts, budget, cancel, &mut once),
        {
            let mut stats = FrontierStats::default();
            for &start in starts {
                let (count, figures) = count(board, FrontierMode::Start(start), limits)?;
                stats.add(&figures);
                once(start, count);
            }
            Ok(stats)
        },
    )
}

/// Counts the open tours from `from` to `to` on `board` by meeting in the middle, where the
/// board can be cut so (see `meet::meet_between`); `None` where it cannot. The pair is counted on
/// its image under the board's symmetries whose halves the most pairs share: the half that no
/// tour end enters (the same for every pair), the half with one end before the cut (the same
/// for every pair with that end), or, for two ends near one corner, a half with both. With
/// `halves`, a directory, each half is read from it when an earlier count saved it there (or
/// its mirror image), and saved there when computed, so that the pairs of a board compute each
/// shared half once.
pub fn count_between_meeting(
    board: Board,
    from: Square,
    to: Square,
    halves: Option<&Path>,
    limits: &Limits,
) -> Result<Option<(BigUint, FrontierStats)>, Error> {
    let (budget, cancel) = (limits.budget, &limits.cancel);
    board.check_square(from)?;
    board.check_square(to)?;
    Plan::new(board, FrontierMode::Between(from, to), Purpose::Count)?;
    let all = Plan::new(board, FrontierMode::Total, Purpose::Meet)?;
    if !all.can_cut_open() {
        return Ok(None);
    }
    widening!(
        meet::meet_between::<u64>(&all, from, to, halves, budget, cancel),
        meet::meet_between::<u128>(&all, from, to, halves, budget, cancel),
        count_meeting(board, FrontierMode::Between(from, to), limits),
    )
    .map(Some)
}

/// A relative cost of counting the open tours from `start` (to `end`, when given) on `board`,
/// for planning shards: only ratios between questions of one board mean anything. Where the
/// question meets in the middle, an end above the cut fixes it in a top half of its own whose
/// pass grows with the squares it takes before the end (7x7, measured while other work shared
/// the machine: from (0, 0) 210 s, (0, 2) 164 s, (1, 1) 94 s, (1, 3) 45 s, (2, 2) 33 s, the
/// centre on the cut 17 s), so the cost is one join plus the squares before each such end;
/// elsewhere every question costs the same (one pass over the board).
pub fn relative_cost(board: Board, start: Square, end: Option<Square>) -> u64 {
    let Ok(all) = Plan::new(board, FrontierMode::Total, Purpose::Meet) else {
        return 1;
    };
    let meets = match end {
        None => all.meets(),
        Some(_) => all.n >= PAIR_MEET_SQUARES && all.can_cut_open(),
    };
    if !meets || board.check_square(start).is_err() {
        return all.n as u64;
    }
    let (lo, hi) = all.cut();
    let mut ends: Vec<usize> = std::iter::once(start)
        .chain(end)
        .filter(|square| board.contains(*square))
        .map(|square| all.index(square))
        .collect();
    // As the engine does: ends below the cut are counted as their half turns above it.
    if ends.iter().all(|&v| v > hi || (lo..=hi).contains(&v)) {
        for v in &mut ends {
            *v = all.n - 1 - *v;
        }
    }
    1 + ends
        .iter()
        .map(|&v| {
            if v < lo {
                (lo - v) as u64
            } else if v > hi {
                (lo - (all.n - 1 - v)) as u64
            } else {
                0
            }
        })
        .sum::<u64>()
}

/// Finds one tour of `board` with the frontier engine, or proves there is none: a closed tour
/// (listed from `start`), or an open tour from `start`. Meant for narrow boards (a short side
/// of 3 or 4), where the layers are small. The sets of reachable states are computed square by
/// square, sharing the layers of stretches where they repeat two rows on (so long boards take
/// time and memory for their few distinct layers); the tour is then read back from the end.
/// Where the distinct layers would be too many, layers are kept at checkpoints only and
/// recomputed a stretch at a time, so memory grows with the square root of the board's length.
/// Returns the squares in order.
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
        FrontierMode::Start(start)
    };
    let plan = Plan::new(board, mode, Purpose::Witness)?;
    // The search keeps its windows in a `u64`: 15 slots at most.
    if plan.k >= 16 {
        return Err(Error::BoardTooLarge {
            board,
            max_squares: 7 * u64::from(crate::board::MAX_SIDE),
            engine: "frontier tour search (short side at most 7)",
        });
    }
    if plan.n == 1 {
        return Ok((!closed).then(|| vec![start]));
    }
    let edges = match plan.witness_edges_periodic(cancel)? {
        Witness::Found(edges) => edges,
        Witness::NoTour => return Ok(None),
        Witness::TooManyLayers => match plan.witness_edges(cancel)? {
            Some(edges) => edges,
            None => return Ok(None),
        },
    };
    Ok(Some(plan.walk(&edges, start)))
}

/// The frontier a series' pass keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesFrontier {
    /// The window of the last `2W + 1` processed squares, row by row.
    Window,
    /// The boundary of the squares not yet taken, with a vertex joined to every square, the
    /// squares of a row taken outside in and states merged with their mirror images after
    /// every second square (see `boundary`), where it fits a key (widths 3 to 7); else the
    /// window.
    Boundary,
}

impl SeriesFrontier {
    /// The frontier with the fewer states at `width` (measured; docs/measurements/ has the figures).
    pub fn fewest_states(width: u32) -> SeriesFrontier {
        if (3..=7).contains(&width) {
            SeriesFrontier::Boundary
        } else {
            SeriesFrontier::Window
        }
    }
}

/// Counts closed tours (`closed`) or all open tours of every `width × h` board for `h` in
/// `heights`, in one pass over the tallest: `report` receives each height and its count
/// (cycles, or undirected open paths) as soon as it is known. The pass keeps the frontier with
/// the fewer states ([`SeriesFrontier::fewest_states`]).
pub fn series(
    width: u32,
    heights: std::ops::RangeInclusive<u32>,
    closed: bool,
    limits: &Limits,
    report: &mut dyn FnMut(u32, BigUint),
) -> Result<FrontierStats, Error> {
    let frontier = SeriesFrontier::fewest_states(width);
    series_over(frontier, width, heights, closed, limits, report)
}

/// [`series`] over the frontier `frontier`.
pub fn series_over(
    frontier: SeriesFrontier,
    width: u32,
    heights: std::ops::RangeInclusive<u32>,
    closed: bool,
    limits: &Limits,
    report: &mut dyn FnMut(u32, BigUint),
) -> Result<FrontierStats, Error> {
    let (budget, cancel) = (limits.budget, &limits.cancel);
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
        FrontierMode::Total
    };
    let purpose = if low == high {
        Purpose::Count
    } else {
        Purpose::Heights
    };
    let plan = Plan::new(board, mode, purpose)?;
    if frontier == SeriesFrontier::Boundary
        && let Some(stats) = plan.run_boundary(
            low as usize..=high as usize,
            true,
            budget,
            cancel,
            &mut |h, count| report(h as u32, count),
        )?
    {
        return Ok(stats);
    }
    plan.run(
        low as usize..=high as usize,
        budget,
        cancel,
        &mut |h, count| report(h as u32, count),
    )
}
