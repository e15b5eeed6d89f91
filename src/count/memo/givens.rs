//! Step numbers fixed in advance (a puzzle's given numbers), as constraints of the memo engine.
//!
//! The memo engine's state is (knight's square, unvisited squares); the knight's step number is
//! the number of visited squares, so a constraint on steps keeps every state's count a function
//! of the state, and the engine's table stays valid. A fixed step `k` on square `q` means: at
//! step `k` the knight must be on `q`, and it may not enter `q` at any other step.

use crate::board::{Board, Square};
use crate::graph::{KnightGraph, SquareSet, bit};

/// Knight distances between every two squares of a board of at most 64 squares.
#[derive(Clone, Debug)]
pub struct KnightDistances {
    squares: usize,
    /// Row-major `squares × squares`; [`KnightDistances::UNREACHABLE`] where no path joins.
    table: Vec<u8>,
}

impl KnightDistances {
    /// The distance of two squares no knight path joins (boards with fewer than 3 squares on a
    /// side have several components).
    pub const UNREACHABLE: u8 = u8::MAX;

    /// The distances on `graph`'s board, by one breadth-first search per square.
    pub fn new(graph: &KnightGraph) -> Self {
        let squares = graph.len();
        let mut table = vec![Self::UNREACHABLE; squares * squares];
        for from in 0..squares {
            let mut reached = bit(from);
            let mut layer = bit(from);
            let mut distance = 0u8;
            while layer != 0 {
                let mut rest = layer;
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    table[from * squares + i] = distance;
                }
                layer = graph.neighbours_of_set(layer) & !reached;
                reached |= layer;
                distance += 1;
            }
        }
        KnightDistances { squares, table }
    }

    /// The fewest knight's moves from square `a` to square `b` (row-major indices), or
    /// [`KnightDistances::UNREACHABLE`].
    #[inline]
    pub fn between(&self, a: usize, b: usize) -> u8 {
        self.table[a * self.squares + b]
    }
}

/// The fixed steps of one puzzle on one board.
#[derive(Clone, Debug)]
pub struct FixedSteps {
    board: Board,
    /// The square of each fixed step, indexed by step (from 1; index 0 unused).
    square_at: Vec<Option<u8>>,
    /// Every square that has a fixed step.
    fixed_squares: SquareSet,
    /// For each step `t` (0 to the number of squares), the first fixed step after `t`, with its
    /// square.
    next_fixed: Vec<Option<(u32, u8)>>,
    distances: KnightDistances,
}

impl FixedSteps {
    /// Fixed steps on `board` (at most 64 squares): `(step, square)` pairs, each step from 1 to
    /// the number of squares, no step and no square twice. `None` when they break these rules.
    pub fn new(board: Board, graph: &KnightGraph, steps: &[(u32, Square)]) -> Option<Self> {
        let squares = board.squares() as usize;
        let mut square_at = vec![None; squares + 1];
        let mut fixed_squares: SquareSet = 0;
        for &(step, square) in steps {
            let index = board.index(square);
            if step == 0
                || step as usize > squares
                || !board.contains(square)
                || square_at[step as usize].is_some()
                || fixed_squares & bit(index) != 0
            {
                return None;
            }
            square_at[step as usize] = Some(index as u8);
            fixed_squares |= bit(index);
        }
        let mut next_fixed = vec![None; squares + 1];
        let mut next = None;
        for step in (0..=squares).rev() {
            next_fixed[step] = next;
            if step > 0
                && let Some(square) = square_at[step]
            {
                next = Some((step as u32, square));
            }
        }
        Some(FixedSteps {
            board,
            square_at,
            fixed_squares,
            next_fixed,
            distances: KnightDistances::new(graph),
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The square fixed for `step` (from 1), if any, as a row-major index.
    pub fn square_at(&self, step: u32) -> Option<usize> {
        self.square_at
            .get(step as usize)
            .copied()
            .flatten()
            .map(usize::from)
    }

    /// Every square that has a fixed step.
    pub fn fixed_squares(&self) -> SquareSet {
        self.fixed_squares
    }

    /// True when the knight may stand on square `index` at step `step`: it is the square fixed
    /// for that step, or the step is free and the square has no fixed step.
    pub fn allows(&self, step: u32, index: usize) -> bool {
        match self.square_at(step) {
            Some(square) => square == index,
            None => self.fixed_squares & bit(index) == 0,
        }
    }

    /// The squares of `moves` the knight, on `current` at step `step`, may enter next; none when
    /// the next fixed step is too far for the knight to reach it in time.
    #[inline]
    pub fn next_moves(&self, current: usize, step: u32, moves: SquareSet) -> SquareSet {
        if let Some((target_step, target)) = self.next_fixed[step as usize]
            && u32::from(self.distances.between(current, usize::from(target))) > target_step - step
        {
            return 0;
        }
        match self.square_at(step + 1) {
            Some(square) => moves & bit(square),
            None => moves & !self.fixed_squares,
        }
    }
}
