//! The counter: [`MemoCounter`], its table of solved states (one per current square, keyed by
//! the unvisited squares, with the rare values past `u64` kept aside), the pruning rules that
//! cut states before they are solved, and the figures it keeps ([`MemoStats`]).

use hashbrown::HashMap;
use num_bigint::BigUint;

use crate::board::{Board, Square, Symmetry};
use crate::cancel::CancelFlag;
use crate::count::CountTable;
use crate::count::Limits;
use crate::count::memo::givens::FixedSteps;
use crate::error::Error;
use crate::existence::colour_forbids_start;
use crate::graph::{KnightGraph, SquareSet, bit};
use crate::memory::MemoryBudget;

/// How often (in solved states) the engine looks at the cancel flag.
pub(super) const CANCEL_CHECK_INTERVAL: u64 = 1 << 14;

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

/// Counts open tours on one board with a memo table shared across start squares.
///
/// The same engine also counts paths that must end on one given square
/// ([`count_cycles`](super::count_cycles) uses it for closed tours); an engine keeps to one of
/// the two modes, as their tables differ.
#[derive(Debug)]
pub struct MemoCounter {
    pub(super) graph: KnightGraph,
    /// The square every counted path must end on, as a set (empty: any end, open tours).
    pub(super) end: SquareSet,
    /// One table per current square, keyed by the set of unvisited squares.
    tables: Vec<HashMap<SquareSet, u64>>,
    /// Values that do not fit in `u64`, keyed by (current square, unvisited squares).
    large: HashMap<(u8, SquareSet), u128>,
    budget: u64,
    stats: MemoStats,
    pub(super) cancel: CancelFlag,
    /// Steps fixed in advance (a puzzle's given numbers): only the paths that keep them count.
    pub(super) fixed: Option<FixedSteps>,
    /// Counts are capped at this value ([`MemoCounter::with_cap`]); `u128::MAX`: exact.
    cap: u128,
}

impl MemoCounter {
    /// An engine for `board` (at most 64 squares) whose table stays within `limits.budget`, stopped by `limits.cancel`.
    pub fn new(board: Board, limits: &Limits) -> Result<Self, Error> {
        let (budget, cancel) = (limits.budget, limits.cancel.clone());
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
        crate::question::check_between(board, start, end)?;
        let end_bit = bit(board.index(end));
        if self.end != end_bit {
            if self.end != 0 || self.stats.entries > 0 {
                let mut fresh = MemoCounter::new(
                    board,
                    &Limits::new(MemoryBudget::from_bytes(self.budget), &self.cancel),
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
    pub(super) fn allowed_moves(&self, current: usize, unvisited: SquareSet) -> SquareSet {
        let moves = self.graph.neighbours(current) & unvisited & !self.end;
        match &self.fixed {
            Some(fixed) => {
                let step = (self.graph.len() as u32) - unvisited.count_ones();
                fixed.next_moves(current, step, moves)
            }
            None => moves,
        }
    }

    /// The pruning rules (see the [module documentation](super)): the moves from this state that
    /// may still lead to a tour (none when no tour can be finished from it).
    pub(super) fn viable_moves(
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

impl MemoCounter {
    /// Paths from `from` through every square of `unvisited`, ending on the engine's end square.
    pub(super) fn paths_to_end(
        &mut self,
        from: usize,
        unvisited: SquareSet,
    ) -> Result<u128, Error> {
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
