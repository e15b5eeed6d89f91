//! The memoized counting engine: a dynamic program over (current square, unvisited squares).
//!
//! The number of ways to finish a tour from a state depends only on the square the knight stands
//! on and the set of squares still to visit, so each state is solved once and kept in a
//! `hashbrown` table. States that cannot be finished are cut before they are solved or stored:
//!
//! * an unvisited square with no unvisited neighbour (nor the knight's square) can never be
//!   entered;
//! * every unvisited square but the last needs two ways in or out, so at most one unvisited
//!   square may be down to one (a forced end), it may not be next to the knight (it would have to
//!   be both the next square and the last), and it must have the colour the last square of the
//!   tour is bound to have;
//! * forced steps: a square down to two ways uses both (unless it is the last square), and a
//!   square down to one uses it; each forced step spends one of the two ways of the square at
//!   its other end (the knight's own square and a fixed end square have one), so a square with
//!   more forced steps than ways kills the state — allowing for one square with two ways that may
//!   turn out to be the last one while the last square is not yet known;
//! * a forced step at the knight's square is the next move, and the other moves are not tried;
//! * the unvisited squares must be connected to the knight (after a step, only the neighbours
//!   of the square just left need to be found again, which keeps the check short);
//! * at the start, a tour needs as many squares of the start's colour as of the other colour, or
//!   one more (this is what rules out half the starts on odd boards).
//!
//! Each rule only removes states from which no tour can be finished, so counts stay exact. All
//! arithmetic is checked `u128`; the table holds `u64` values and keeps the rare larger ones
//! aside, so nothing is ever wrapped.
//!
//! The table is shared by every start square counted with the same [`MemoCounter`]: whole
//! per-square tables reuse the states that different starts have in common.

use hashbrown::HashMap;
use num_bigint::BigUint;

use crate::board::{Board, Square, Symmetry};
use crate::cancel::CancelFlag;
use crate::count::CountTable;
use crate::count::fixed::FixedSteps;
use crate::error::Error;
use crate::existence::colour_forbids_start;
use crate::graph::{KnightGraph, SquareSet, bit};
use crate::memory::MemoryBudget;

/// How often (in solved states) the engine looks at the cancel flag.
const CANCEL_CHECK_INTERVAL: u64 = 1 << 14;

/// Marks a table value whose true count is kept in the side table of large values.
const LARGE_VALUE: u64 = u64::MAX;

/// What the engine did, for reports and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// States solved (not found in the table, not cut).
    pub states_solved: u64,
    /// Look-ups answered by the table.
    pub table_hits: u64,
    /// States cut by the pruning rules.
    pub states_pruned: u64,
    /// Entries in the table now.
    pub entries: u64,
    /// Bytes the table holds now (allocation size).
    pub table_bytes: u64,
    /// States that were not stored because the memory budget was reached.
    pub stores_refused: u64,
}

impl MemoStats {
    /// Adds another engine's figures to these.
    pub fn add(&mut self, other: &MemoStats) {
        self.states_solved += other.states_solved;
        self.table_hits += other.table_hits;
        self.states_pruned += other.states_pruned;
        self.entries += other.entries;
        self.table_bytes += other.table_bytes;
        self.stores_refused += other.stores_refused;
    }
}

/// Ok when the memo engine counts on `board`: boards whose knight graph fits in bitsets (at
/// most [`crate::graph::MAX_BITSET_SQUARES`] squares); otherwise the error naming the limit.
pub fn check_board(board: Board) -> Result<(), Error> {
    crate::graph::check_board(board)
}

/// Counts open tours on one board with a memo table shared across start squares.
///
/// The same engine also counts paths that must end on one given square ([`count_cycles`] uses
/// it for closed tours); an engine keeps to one of the two modes, as their tables differ.
#[derive(Debug)]
pub struct MemoCounter {
    graph: KnightGraph,
    /// The square every counted path must end on, as a set (empty: any end, open tours).
    end: SquareSet,
    /// One table per current square, keyed by the set of unvisited squares.
    tables: Vec<HashMap<SquareSet, u64>>,
    /// Values that do not fit in `u64`, keyed by (current square, unvisited squares).
    large: HashMap<(u8, SquareSet), u128>,
    budget: u64,
    stats: MemoStats,
    cancel: CancelFlag,
    /// Steps fixed in advance (a puzzle's given numbers): only the paths that keep them count.
    fixed: Option<FixedSteps>,
    /// Counts are capped at this value ([`MemoCounter::with_cap`]); `u128::MAX`: exact.
    cap: u128,
}

impl MemoCounter {
    /// An engine for `board` (at most 64 squares) whose table stays within `budget`.
    pub fn new(board: Board, budget: MemoryBudget, cancel: CancelFlag) -> Result<Self, Error> {
        let graph = KnightGraph::new(board)?;
        Ok(MemoCounter {
            tables: (0..graph.len()).map(|_| HashMap::new()).collect(),
            graph,
            end: 0,
            large: HashMap::new(),
            budget: budget.bytes(),
            stats: MemoStats::default(),
            cancel,
            fixed: None,
            cap: u128::MAX,
        })
    }

    /// The same engine counting only the paths that keep `fixed` (steps fixed in advance on
    /// this board). Symmetries are not used: fixed steps rarely keep them.
    pub fn with_fixed_steps(mut self, fixed: FixedSteps) -> Result<Self, Error> {
        if fixed.board() != self.board() {
            return Err(Error::Internal(format!(
                "fixed steps of the {} board given to an engine for {}",
                fixed.board(),
                self.board()
            )));
        }
        self.fixed = Some(fixed);
        Ok(self)
    }

    /// The same engine with every count capped at `cap` (at least 1): it says 0, 1, ... or
    /// "at least `cap`", and stops a state's search once `cap` is reached. Exact below the cap
    /// (the capped count of a state is the capped sum of its moves' capped counts, so the
    /// table stays consistent): how a puzzle's uniqueness is checked without counting every
    /// completion of the puzzles that have many.
    pub fn with_cap(mut self, cap: u128) -> Self {
        self.cap = cap.max(1);
        self
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.graph.board()
    }

    /// What the engine has done so far.
    pub fn stats(&self) -> MemoStats {
        self.stats
    }

    /// The number of open tours that start on `start`.
    pub fn count_from(&mut self, start: Square) -> Result<u128, Error> {
        let board = self.board();
        board.check_square(start)?;
        if colour_forbids_start(board, start) {
            return Ok(0);
        }
        let index = board.index(start);
        let unvisited = self.graph.all() & !bit(index);
        if unvisited == 0 {
            return Ok(1);
        }
        if let Some(fixed) = &self.fixed {
            if !fixed.allows(1, index) {
                return Ok(0);
            }
            return self.ways(index, unvisited, None);
        }
        // The symmetries that keep the start in place map first moves onto first moves with
        // the same number of tours: count one move of each class, times the class's size.
        let fixing: Vec<Symmetry> = board
            .automorphisms()
            .iter()
            .copied()
            .filter(|sym| sym.apply(board, start) == start)
            .collect();
        let mut classes: Vec<(usize, u128)> = Vec::new();
        let mut rest = self.graph.neighbours(index);
        while rest != 0 {
            let step = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let representative = fixing
                .iter()
                .map(|sym| board.index(sym.apply(board, board.square(step))))
                .min()
                .expect("the identity keeps the start in place");
            match classes.iter_mut().find(|(rep, _)| *rep == representative) {
                Some((_, size)) => *size += 1,
                None => classes.push((representative, 1)),
            }
        }
        let mut total: u128 = 0;
        for (step, size) in classes {
            let ways = self.ways(step, unvisited & !bit(step), None)?;
            total = ways
                .checked_mul(size)
                .and_then(|part| total.checked_add(part))
                .ok_or(Error::Overflow { board })?;
        }
        Ok(total.min(self.cap))
    }

    /// Calls `visit` with every open path counted from `start` (ending on `end`, when given),
    /// as row-major indices in order, until it returns false; returns false when it did. Only
    /// states with a count are entered, so each path costs a few table look-ups.
    pub fn each_path(
        &mut self,
        start: Square,
        end: Option<Square>,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> Result<bool, Error> {
        let count = match end {
            Some(end) => self.count_between(start, end)?,
            None => self.count_from(start)?,
        };
        if count == 0 {
            return Ok(true);
        }
        let index = self.board().index(start);
        let mut path = vec![index];
        self.walk(
            index,
            self.graph.all() & !bit(index),
            None,
            &mut path,
            visit,
        )
    }

    fn walk(
        &mut self,
        current: usize,
        unvisited: SquareSet,
        previous: Option<usize>,
        path: &mut Vec<usize>,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> Result<bool, Error> {
        if unvisited == 0 {
            return Ok(visit(path));
        }
        if unvisited & (unvisited - 1) == 0 {
            if self.graph.neighbours(current) & unvisited == 0 {
                return Ok(true);
            }
            path.push(unvisited.trailing_zeros() as usize);
            let go_on = visit(path);
            path.pop();
            return Ok(go_on);
        }
        let moves = self.allowed_moves(current, unvisited);
        let mut rest = self.viable_moves(current, unvisited, moves, previous);
        while rest != 0 {
            let next = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let after = unvisited & !bit(next);
            if self.ways(next, after, Some(current))? == 0 {
                continue;
            }
            path.push(next);
            let go_on = self.walk(next, after, Some(current), path, visit)?;
            path.pop();
            if !go_on {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The number of open tours that start on `start` and end on `end` (two different squares).
    /// The counter keeps its table for one end: a new end needs a new counter.
    pub fn count_between(&mut self, start: Square, end: Square) -> Result<u128, Error> {
        let board = self.board();
        board.check_square(start)?;
        crate::question::check_pair(board, start, end)?;
        let end_bit = bit(board.index(end));
        if self.end != end_bit {
            if self.end != 0 || self.stats.entries > 0 {
                let mut fresh = MemoCounter::new(
                    board,
                    MemoryBudget::from_bytes(self.budget),
                    self.cancel.clone(),
                )?;
                fresh.fixed = self.fixed.take();
                fresh.cap = self.cap;
                *self = fresh;
            }
            self.end = end_bit;
        }
        let index = board.index(start);
        if let Some(fixed) = &self.fixed {
            let last = self.graph.len() as u32;
            if !fixed.allows(1, index) || !fixed.allows(last, board.index(end)) {
                return Ok(0);
            }
        }
        self.paths_to_end(index, self.graph.all() & !bit(index))
    }

    /// The number of open tours from every square, computed for one square of each symmetry
    /// class and copied to the rest.
    pub fn table(&mut self) -> Result<CountTable, Error> {
        let board = self.board();
        let mut canonical = Vec::new();
        for square in board.canonical_squares() {
            canonical.push((square, self.count_from(square)?));
        }
        let counts = board
            .all_squares()
            .map(|square| {
                let (rep, _) = board.canonical_square(square);
                canonical
                    .iter()
                    .find(|(sq, _)| *sq == rep)
                    .map(|&(_, count)| BigUint::from(count))
                    .expect("every square has a canonical representative")
            })
            .collect();
        Ok(CountTable::new(board, counts))
    }

    /// Ways to visit every square of `unvisited` starting from `current` (already visited),
    /// ending on the engine's end square when it has one.
    ///
    /// `previous` is the square the knight came from, when the state it left was solved (and so
    /// connected): then only that square's removal can have split the unvisited squares.
    fn ways(
        &mut self,
        current: usize,
        unvisited: SquareSet,
        previous: Option<usize>,
    ) -> Result<u128, Error> {
        if unvisited & unvisited.wrapping_sub(1) == 0 {
            // Nothing or a single square left (the end square, when there is one): it is a tour
            // exactly when the knight can step there. (A fixed step on that square can only be
            // the last: fixed squares are entered at their step and no other.)
            return Ok(u128::from(
                unvisited == 0 || self.graph.neighbours(current) & unvisited != 0,
            ));
        }
        let moves = self.allowed_moves(current, unvisited);
        if moves == 0 {
            return Ok(0);
        }
        if let Some(&value) = self.tables[current].get(&unvisited) {
            self.stats.table_hits += 1;
            return Ok(if value == LARGE_VALUE {
                self.large[&(current as u8, unvisited)]
            } else {
                u128::from(value)
            });
        }
        let moves = self.viable_moves(current, unvisited, moves, previous);
        if moves == 0 {
            self.stats.states_pruned += 1;
            return Ok(0);
        }
        self.stats.states_solved += 1;
        if self
            .stats
            .states_solved
            .is_multiple_of(CANCEL_CHECK_INTERVAL)
        {
            self.cancel.check()?;
        }
        let mut total: u128 = 0;
        let mut rest = moves;
        while rest != 0 {
            let next = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let ways = self.ways(next, unvisited & !bit(next), Some(current))?;
            total = total.checked_add(ways).ok_or(Error::Overflow {
                board: self.board(),
            })?;
            if total >= self.cap {
                total = self.cap;
                break;
            }
        }
        self.store(current, unvisited, total);
        Ok(total)
    }

    /// The squares the knight on `current` may enter next, before the pruning rules: its
    /// unvisited neighbours but the end square (entered last, only when it is all that is
    /// left), within the fixed steps.
    #[inline]
    fn allowed_moves(&self, current: usize, unvisited: SquareSet) -> SquareSet {
        let moves = self.graph.neighbours(current) & unvisited & !self.end;
        match &self.fixed {
            Some(fixed) => {
                let step = (self.graph.len() as u32) - unvisited.count_ones();
                fixed.next_moves(current, step, moves)
            }
            None => moves,
        }
    }

    /// The pruning rules (see the module documentation): the moves from this state that may
    /// still lead to a tour (none when no tour can be finished from it).
    fn viable_moves(
        &self,
        current: usize,
        unvisited: SquareSet,
        moves: SquareSet,
        previous: Option<usize>,
    ) -> SquareSet {
        let here = bit(current);
        let open = unvisited | here;
        let [one, two, three, _] = self.graph.neighbour_count_levels(open);
        if unvisited & !one != 0 {
            return 0;
        }
        let ends = unvisited & !two;
        if ends != 0 {
            if ends & (ends - 1) != 0 || ends & self.graph.neighbours(current) != 0 {
                return 0;
            }
            // With a fixed end, that square is the only one allowed to be down to one way.
            if self.end != 0 && ends != self.end {
                return 0;
            }
            // The tour's remaining squares alternate colours from the knight's square, so the
            // last one has the knight's colour exactly when their number is odd.
            let corner = self.graph.corner_colour();
            let same_colour = (ends & corner != 0) == (here & corner != 0);
            if same_colour != (open.count_ones() % 2 == 1) {
                return 0;
            }
        }
        // Forced steps: a square down to one way uses it, and a square down to two ways uses
        // both unless it is the last square. Each forced step spends a way of the square at its
        // other end, which has two to spend (one for the knight's square and the fixed end).
        // One square with two ways may turn out to be the last and spend only one, unless the
        // last square is already known.
        let forcing = ends | (unvisited & two & !three & !self.end);
        let [by_one, by_two, by_three, by_four] = self.graph.neighbour_count_levels(forcing);
        let end_known = ends != 0 || self.end != 0;
        let (too_many_inside, too_many_at_ends) = if end_known {
            (by_three, by_two)
        } else {
            (by_four, by_three)
        };
        if too_many_inside & unvisited & !self.end != 0 || too_many_at_ends & (here | self.end) != 0
        {
            return 0;
        }
        // Connected: the squares that were joined through the previous square must still be
        // reachable from the knight's (the state before was connected, so nothing else can
        // have come apart).
        let must_reach = match previous {
            Some(square) => self.graph.neighbours(square) & open,
            None => open,
        };
        if !self.graph.reaches_all(here, open, must_reach) {
            return 0;
        }
        // A forced step at the knight's square is the next move: when the last square is known,
        // the one such step; otherwise, with two of them, one is next and the other is last.
        let forced_here = by_one & here != 0;
        if end_known && forced_here || by_two & here != 0 {
            moves & forcing
        } else {
            moves
        }
    }

    /// Keeps a solved state, unless the table has reached its memory budget.
    fn store(&mut self, current: usize, unvisited: SquareSet, value: u128) {
        let table = &mut self.tables[current];
        if table.len() == table.capacity() {
            let before = table.allocation_size() as u64;
            // Growing doubles the table, and the old and new tables exist together while
            // entries move across.
            let after = (2 * before).max(1024);
            if self.stats.table_bytes + after > self.budget {
                self.stats.stores_refused += 1;
                return;
            }
            table.reserve(1);
            self.stats.table_bytes =
                self.stats.table_bytes - before + table.allocation_size() as u64;
        }
        let stored = match u64::try_from(value) {
            Ok(small) if small != LARGE_VALUE => small,
            _ => {
                self.large.insert((current as u8, unvisited), value);
                LARGE_VALUE
            }
        };
        table.insert(unvisited, stored);
        self.stats.entries += 1;
    }
}

/// The number of closed tours (Hamiltonian cycles of the knight graph, each counted once) on
/// `board`, with the engine's figures.
///
/// Every cycle passes through the square with the fewest neighbours, so the count starts there:
/// when that square has two neighbours `a` and `b` (a corner, on every board with a cycle),
/// each cycle is exactly one path from `a` to `b` through every other square; otherwise the
/// paths from the square back to each of its neighbours are counted and halved.
pub fn count_cycles(
    board: Board,
    budget: MemoryBudget,
    cancel: CancelFlag,
) -> Result<(u128, MemoStats), Error> {
    let graph = KnightGraph::new(board)?;
    let start = cycle_pivot(&graph);
    let neighbours = graph.neighbours(start);
    let all = graph.all();
    let mut stats = MemoStats::default();
    if graph.len() < 3 || neighbours.count_ones() < 2 {
        return Ok((0, stats));
    }
    let mut ends_to_count = Vec::new();
    if neighbours.count_ones() == 2 {
        let first = neighbours.trailing_zeros() as usize;
        let last = (neighbours & (neighbours - 1)).trailing_zeros() as usize;
        ends_to_count.push((first, all & !bit(start) & !bit(first), last));
    } else {
        let mut rest = neighbours;
        while rest != 0 {
            let end = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            ends_to_count.push((start, all & !bit(start), end));
        }
    }
    let mut paths: u128 = 0;
    for (from, unvisited, end) in ends_to_count {
        let mut engine = MemoCounter::new(board, budget, cancel.clone())?;
        engine.end = bit(end);
        paths = paths
            .checked_add(engine.paths_to_end(from, unvisited)?)
            .ok_or(Error::Overflow { board })?;
        stats.add(&engine.stats());
    }
    let cycles = if neighbours.count_ones() == 2 {
        paths
    } else {
        paths / 2
    };
    Ok((cycles, stats))
}

impl MemoCounter {
    /// Paths from `from` through every square of `unvisited`, ending on the engine's end square.
    fn paths_to_end(&mut self, from: usize, unvisited: SquareSet) -> Result<u128, Error> {
        // The path alternates colours, so its ends have the same colour exactly when it has an
        // odd number of squares.
        let corner = self.graph.corner_colour();
        let same_colour = (bit(from) & corner != 0) == (self.end & corner != 0);
        let squares = unvisited.count_ones() + 1;
        if same_colour != (squares % 2 == 1) {
            return Ok(0);
        }
        self.ways(from, unvisited, None)
    }
}

/// Finds one open tour from `start` on `board` (at most 64 squares), or proves there is none:
/// a depth-first search with the engine's pruning, trying the move with the fewest onward moves
/// first (Warnsdorff's rule) and remembering the states that led nowhere. Returns the squares
/// in order (row-major indices).
pub fn find_open_tour(
    board: Board,
    start: Square,
    cancel: CancelFlag,
) -> Result<Option<Vec<usize>>, Error> {
    let mut finder = Finder::new(board, start, cancel)?;
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
    crate::question::check_pair(board, start, end)?;
    let mut finder = Finder::new(board, start, cancel)?;
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
    let mut finder = Finder::new(board, start, cancel)?;
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
            finder.dead.iter_mut().for_each(|d| d.clear());
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

/// The square that every cycle is counted or searched through: one with the fewest
/// neighbours (a corner, with two, on boards with both sides at least 3).
fn cycle_pivot(graph: &KnightGraph) -> usize {
    (0..graph.len())
        .min_by_key(|&i| graph.neighbours(i).count_ones())
        .expect("a board has a square")
}

/// Finds one open path through every square that keeps fixed steps (a puzzle's completion),
/// from a given start and, when asked, to a given end: the search of [`find_open_tour`] with the
/// steps as constraints. The states known to lead nowhere are kept from one search to the next
/// while the end stays the same (they do not depend on the start).
pub struct FixedPathFinder {
    finder: Finder,
}

impl FixedPathFinder {
    /// A finder for the board of `fixed`.
    pub fn new(fixed: FixedSteps, cancel: CancelFlag) -> Result<Self, Error> {
        let board = fixed.board();
        let mut finder = Finder::new(board, Square::new(0, 0), cancel)?;
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
            self.finder.dead.iter_mut().for_each(|d| d.clear());
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

/// The search behind [`find_open_tour`] and [`find_closed_tour`].
struct Finder {
    engine: MemoCounter,
    /// States known to lead nowhere, per current square.
    dead: Vec<hashbrown::HashSet<SquareSet>>,
    steps: u64,
}

impl Finder {
    /// A search on `board` for a tour through `start` (checked to be on the board).
    fn new(board: Board, start: Square, cancel: CancelFlag) -> Result<Self, Error> {
        board.check_square(start)?;
        let engine = MemoCounter::new(board, MemoryBudget::DEFAULT, cancel)?;
        let dead = (0..engine.graph.len())
            .map(|_| hashbrown::HashSet::new())
            .collect();
        Ok(Finder {
            engine,
            dead,
            steps: 0,
        })
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
        if self.dead[current].len() < 1 << 22 {
            self.dead[current].insert(unvisited);
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::reference::count_open_tours;

    fn memo(rows: u32, cols: u32) -> MemoCounter {
        MemoCounter::new(
            Board::new(rows, cols).unwrap(),
            MemoryBudget::DEFAULT,
            CancelFlag::new(),
        )
        .unwrap()
    }

    #[test]
    fn judge_examples() {
        assert_eq!(memo(5, 4).count_from(Square::new(0, 0)).unwrap(), 32);
        assert_eq!(memo(3, 4).count_from(Square::new(0, 0)).unwrap(), 2);
        assert_eq!(memo(5, 5).count_from(Square::new(2, 2)).unwrap(), 64);
        assert_eq!(memo(1, 1).count_from(Square::new(0, 0)).unwrap(), 1);
    }

    #[test]
    fn agrees_with_reference_on_small_boards() {
        for (rows, cols) in [(3, 4), (4, 5), (3, 7), (2, 5)] {
            let board = Board::new(rows, cols).unwrap();
            let table = memo(rows, cols).table().unwrap();
            for square in board.all_squares() {
                let expected = count_open_tours(board, square, &CancelFlag::new()).unwrap();
                assert_eq!(
                    *table.get(square),
                    BigUint::from(expected),
                    "{board} {square}"
                );
            }
        }
    }

    #[test]
    fn tiny_budget_still_counts_exactly() {
        let board = Board::new(5, 5).unwrap();
        let mut engine =
            MemoCounter::new(board, MemoryBudget::from_bytes(1), CancelFlag::new()).unwrap();
        assert_eq!(
            engine.table().unwrap().total_directed(),
            BigUint::from(1728u32)
        );
        assert_eq!(engine.stats().entries, 0);
        assert!(engine.stats().stores_refused > 0);
    }

    #[test]
    fn cycles_of_known_boards() {
        let cycles = |r, c| {
            count_cycles(
                Board::new(r, c).unwrap(),
                MemoryBudget::DEFAULT,
                CancelFlag::new(),
            )
            .unwrap()
            .0
        };
        assert_eq!(cycles(5, 6), 8);
        assert_eq!(cycles(3, 10), 16);
        assert_eq!(cycles(4, 5), 0);
        assert_eq!(cycles(1, 1), 0);
    }

    #[test]
    fn finds_tours_exactly_when_they_exist() {
        let cancel = CancelFlag::new;
        let board = Board::new(5, 5).unwrap();
        let path = find_open_tour(board, Square::new(2, 2), cancel())
            .unwrap()
            .unwrap();
        assert_eq!(path.len(), 25);
        assert!(
            find_open_tour(board, Square::new(0, 1), cancel())
                .unwrap()
                .is_none()
        );
        let board = Board::new(3, 7).unwrap();
        assert!(
            find_open_tour(board, Square::new(1, 0), cancel())
                .unwrap()
                .is_none()
        );
        let cycle = find_closed_tour(Board::new(6, 6).unwrap(), Square::new(2, 3), cancel())
            .unwrap()
            .unwrap();
        assert_eq!(cycle[0], 2 * 6 + 3);
        assert_eq!(cycle.len(), 36);
        assert!(
            find_closed_tour(Board::new(4, 6).unwrap(), Square::new(0, 0), cancel())
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn finds_tours_between_two_squares_exactly_when_they_exist() {
        let board = Board::new(5, 5).unwrap();
        let (start, end) = (Square::new(0, 0), Square::new(4, 4));
        let path = find_open_tour_between(board, start, end, CancelFlag::new())
            .unwrap()
            .unwrap();
        assert_eq!(path.first(), Some(&board.index(start)));
        assert_eq!(path.last(), Some(&board.index(end)));
        assert_eq!(path.len(), 25);
        // Every pair the counter counts as none, the search finds none; every other, one.
        let mut counter = memo(5, 5);
        for end in board.all_squares().filter(|&e| e != start) {
            let count = counter.count_between(start, end).unwrap();
            let found = find_open_tour_between(board, start, end, CancelFlag::new()).unwrap();
            assert_eq!(count > 0, found.is_some(), "{end}");
        }
    }

    #[test]
    fn cancelled_count_stops() {
        let cancel = CancelFlag::new();
        cancel.cancel();
        let mut engine =
            MemoCounter::new(Board::new(6, 6).unwrap(), MemoryBudget::DEFAULT, cancel).unwrap();
        assert!(matches!(
            engine.count_from(Square::new(0, 0)),
            Err(Error::Interrupted)
        ));
    }
}
