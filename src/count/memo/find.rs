//! Finding one tour rather than counting them: a depth-first search with the counter's
//! pruning and Warnsdorff's order, for open tours ([`find_open_tour`], between two squares
//! [`find_open_tour_between`], through fixed steps [`FixedPathFinder`]) and closed ones
//! ([`find_closed_tour`]).

use crate::board::{Board, Square};
use crate::cancel::CancelFlag;
use crate::count::Limits;
use crate::count::memo::givens::FixedSteps;
use crate::error::Error;
use crate::existence::colour_forbids_start;
use crate::graph::{SquareSet, bit};
use crate::memory::MemoryBudget;

use super::counter::{CANCEL_CHECK_INTERVAL, MemoCounter};
use super::cycles::cycle_pivot;

/// Finds one open tour from `start` on `board` (at most 64 squares), or proves there is none:
/// a depth-first search with the engine's pruning, trying the move with the fewest onward moves
/// first (Warnsdorff's rule) and remembering the states that led nowhere. Returns the squares
/// in order (row-major indices).
pub fn find_open_tour(
    board: Board,
    start: Square,
    cancel: CancelFlag,
) -> Result<Option<Vec<usize>>, Error> {
    let mut finder = Finder::new(board, start, MemoryBudget::DEFAULT, cancel)?;
    if colour_forbids_start(board, start) {
        return Ok(None);
    }
    let index = board.index(start);
    let unvisited = finder.engine.graph.all() & !bit(index);
    let mut path = vec![index];
    Ok(finder
        .search(index, unvisited, None, &mut path)?
        .then_some(path))
}

/// Finds one open tour from `start` that ends on `end` on `board` (at most 64 squares), or
/// proves there is none: the search of [`find_open_tour`] with the end held back for the last
/// move, as the counter's pairs hold it.
pub fn find_open_tour_between(
    board: Board,
    start: Square,
    end: Square,
    cancel: CancelFlag,
) -> Result<Option<Vec<usize>>, Error> {
    crate::question::check_between(board, start, end)?;
    let mut finder = Finder::new(board, start, MemoryBudget::DEFAULT, cancel)?;
    if colour_forbids_start(board, start) || colour_forbids_start(board, end) {
        return Ok(None);
    }
    let index = board.index(start);
    finder.engine.end = bit(board.index(end));
    let unvisited = finder.engine.graph.all() & !bit(index);
    let mut path = vec![index];
    Ok(finder
        .search(index, unvisited, None, &mut path)?
        .then_some(path))
}

/// Finds one closed tour of `board` (at most 64 squares), or proves there is none; the cycle
/// starts at `start`. Returns the squares in order (row-major indices); the last is a knight's
/// move from the first.
pub fn find_closed_tour(
    board: Board,
    start: Square,
    cancel: CancelFlag,
) -> Result<Option<Vec<usize>>, Error> {
    let mut finder = Finder::new(board, start, MemoryBudget::DEFAULT, cancel)?;
    let graph = &finder.engine.graph;
    // Every cycle passes through the pivot: with two neighbours, the cycle is a path between
    // them through every other square.
    let pivot = cycle_pivot(graph);
    let neighbours = graph.neighbours(pivot);
    if graph.len() < 3 || neighbours.count_ones() < 2 {
        return Ok(None);
    }
    let all = graph.all();
    let corner = graph.corner_colour();
    let odd_path = (graph.len() - 1) % 2 == 1;
    let mut ends = Vec::new();
    let mut rest = neighbours;
    while rest != 0 {
        ends.push(rest.trailing_zeros() as usize);
        rest &= rest - 1;
    }
    let mut cycle = None;
    'search: for &first in &ends {
        for &last in ends.iter().filter(|&&e| e != first) {
            finder.engine.end = bit(last);
            finder.forget();
            let same_colour = (bit(first) & corner != 0) == (bit(last) & corner != 0);
            if same_colour != odd_path {
                continue;
            }
            let mut path = vec![pivot, first];
            let unvisited = all & !bit(pivot) & !bit(first);
            if finder.search(first, unvisited, None, &mut path)? {
                cycle = Some(path);
                break 'search;
            }
            if neighbours.count_ones() == 2 {
                break 'search; // a pivot with two neighbours: one try decides
            }
        }
    }
    Ok(cycle.map(|mut cycle| {
        let at = cycle
            .iter()
            .position(|&i| i == board.index(start))
            .expect("a cycle visits every square");
        cycle.rotate_left(at);
        cycle
    }))
}

/// Finds one open path through every square that keeps fixed steps (a puzzle's completion),
/// from a given start and, when asked, to a given end: the search of [`find_open_tour`] with the
/// steps as constraints. The states known to lead nowhere are kept from one search to the next
/// while the end stays the same (they do not depend on the start).
pub struct FixedPathFinder {
    finder: Finder,
}

impl FixedPathFinder {
    /// A finder for the board of `fixed`, remembering states within the default budget.
    pub fn new(fixed: FixedSteps, cancel: CancelFlag) -> Result<Self, Error> {
        Self::within(fixed, &Limits::new(MemoryBudget::DEFAULT, &cancel))
    }

    /// A finder for the board of `fixed` whose states known to lead nowhere take at most
    /// `limits.budget` (past it the search goes on remembering no more: slower, never larger).
    pub fn within(fixed: FixedSteps, limits: &Limits) -> Result<Self, Error> {
        let (budget, cancel) = (limits.budget, limits.cancel.clone());
        let board = fixed.board();
        let mut finder = Finder::new(board, Square::new(0, 0), budget, cancel)?;
        finder.engine = finder.engine.with_fixed_steps(fixed)?;
        Ok(FixedPathFinder { finder })
    }

    /// A path from `start` through every square (ending on `end`, when given) that keeps the
    /// fixed steps, as row-major indices; `None` when there is none.
    pub fn find(
        &mut self,
        start: Square,
        end: Option<Square>,
    ) -> Result<Option<Vec<usize>>, Error> {
        let engine = &mut self.finder.engine;
        let board = engine.board();
        board.check_square(start)?;
        let index = board.index(start);
        let last = engine.graph.len() as u32;
        let fixed = engine.fixed.as_ref().expect("made with fixed steps");
        if !fixed.allows(1, index) {
            return Ok(None);
        }
        let end_bit = match end {
            Some(end) => {
                board.check_square(end)?;
                if end == start || !fixed.allows(last, board.index(end)) {
                    return Ok(None);
                }
                bit(board.index(end))
            }
            None => 0,
        };
        if engine.end != end_bit {
            engine.end = end_bit;
            forget(
                &mut self.finder.dead,
                &mut self.finder.dead_room,
                self.finder.dead_budget,
            );
        }
        let unvisited = engine.graph.all() & !bit(index);
        let corner = engine.graph.corner_colour();
        let odd = engine.graph.len() % 2 == 1;
        if end_bit != 0 {
            let same_colour = (bit(index) & corner != 0) == (end_bit & corner != 0);
            if same_colour != odd {
                return Ok(None);
            }
        } else if colour_forbids_start(board, start) {
            return Ok(None);
        }
        let mut path = vec![index];
        Ok(self
            .finder
            .search(index, unvisited, None, &mut path)?
            .then_some(path))
    }
}

/// The bytes one state known to lead nowhere may cost in its set: its 8 and one of control,
/// over the table's load factor, twice while the table grows into a new one.
const DEAD_BYTES: u64 = 24;

/// Empties `dead` and gives back its memory (a cleared set would keep its table): its states
/// hold for one end only.
fn forget(dead: &mut [hashbrown::HashSet<SquareSet>], room: &mut u64, budget: u64) {
    dead.iter_mut().for_each(|d| *d = hashbrown::HashSet::new());
    *room = budget;
}

/// The search behind [`find_open_tour`] and [`find_closed_tour`].
struct Finder {
    engine: MemoCounter,
    /// States known to lead nowhere, per current square.
    dead: Vec<hashbrown::HashSet<SquareSet>>,
    /// States that may still be remembered within the budget.
    dead_room: u64,
    /// The budget's states.
    dead_budget: u64,
    steps: u64,
}

impl Finder {
    /// A search on `board` for a tour through `start` (checked to be on the board), its
    /// remembered states within `budget`.
    fn new(
        board: Board,
        start: Square,
        budget: MemoryBudget,
        cancel: CancelFlag,
    ) -> Result<Self, Error> {
        board.check_square(start)?;
        let engine = MemoCounter::new(board, &Limits::new(budget, &cancel))?;
        let dead = (0..engine.graph.len())
            .map(|_| hashbrown::HashSet::new())
            .collect();
        let dead_budget = budget.bytes() / DEAD_BYTES;
        Ok(Finder {
            engine,
            dead,
            dead_room: dead_budget,
            dead_budget,
            steps: 0,
        })
    }

    /// Forgets every state remembered ([`forget`]).
    fn forget(&mut self) {
        forget(&mut self.dead, &mut self.dead_room, self.dead_budget);
    }

    fn search(
        &mut self,
        current: usize,
        unvisited: SquareSet,
        previous: Option<usize>,
        path: &mut Vec<usize>,
    ) -> Result<bool, Error> {
        let graph = &self.engine.graph;
        let moves = self.engine.allowed_moves(current, unvisited);
        if unvisited & unvisited.wrapping_sub(1) == 0 {
            if unvisited == 0 {
                return Ok(true);
            }
            if graph.neighbours(current) & unvisited != 0 {
                path.push(unvisited.trailing_zeros() as usize);
                return Ok(true);
            }
            return Ok(false);
        }
        if moves == 0 || self.dead[current].contains(&unvisited) {
            return Ok(false);
        }
        self.steps += 1;
        if self.steps.is_multiple_of(CANCEL_CHECK_INTERVAL) {
            self.engine.cancel.check()?;
        }
        let moves = self
            .engine
            .viable_moves(current, unvisited, moves, previous);
        // Warnsdorff's rule: the move with the fewest onward moves first.
        let mut order: Vec<(u32, usize)> = Vec::with_capacity(8);
        let mut rest = moves;
        while rest != 0 {
            let next = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let onward = (self.engine.graph.neighbours(next) & unvisited).count_ones();
            order.push((onward, next));
        }
        order.sort_unstable();
        for (_, next) in order {
            path.push(next);
            if self.search(next, unvisited & !bit(next), Some(current), path)? {
                return Ok(true);
            }
            path.pop();
        }
        if self.dead[current].len() < 1 << 22 && self.dead_room > 0 {
            self.dead_room -= 1;
            self.dead[current].insert(unvisited);
        }
        Ok(false)
    }
}
