//! Warnsdorff's rule: always move to the square with the fewest onward moves.
//!
//! Ties are broken by the distance from the middle of the board (the farther first: edges
//! fill up before they are cut off), then by a pseudo-random choice from the seed; a closed
//! tour also keeps the start's neighbours for last where it can. Where the rule runs into a
//! dead end, the search backs up and tries the next move in the same order, up to a budget of
//! moves; then it starts again with other random choices, up to a fixed number of attempts.
//! Deterministic: the same seed gives the same tour.

use crate::board::{Board, Square};

/// Mixed into the seed, so that seed 0 is not a degenerate start.
const SEED_MIX: u64 = 0x005E_ED0F_4B1C_A11E;

/// Attempts before giving up.
pub const ATTEMPTS: usize = 200;

/// A small knight graph: a rectangle, perhaps with one square left out.
#[derive(Clone, Debug)]
pub struct Graph {
    rows: usize,
    cols: usize,
    neighbours: Vec<Vec<u32>>,
    present: Vec<bool>,
}

impl Graph {
    /// The knight graph of `rows × cols`, without `removed`.
    pub fn new(rows: usize, cols: usize, removed: Option<(usize, usize)>) -> Self {
        let n = rows * cols;
        let mut present = vec![true; n];
        if let Some((r, c)) = removed {
            present[r * cols + c] = false;
        }
        let board = Board::new(rows as u32, cols as u32).expect("a block has sides of at least 1");
        let neighbours = (0..n)
            .map(|i| {
                if !present[i] {
                    return Vec::new();
                }
                board
                    .knight_moves(board.square(i))
                    .map(|sq| board.index(sq))
                    .filter(|&j| present[j])
                    .map(|j| j as u32)
                    .collect()
            })
            .collect();
        Graph {
            rows,
            cols,
            neighbours,
            present,
        }
    }

    fn len(&self) -> usize {
        self.present.iter().filter(|&&p| p).count()
    }

    /// Four times the squared distance from the middle (an integer).
    fn spread(&self, i: usize) -> i64 {
        let (r, c) = ((i / self.cols) as i64, (i % self.cols) as i64);
        let (dr, dc) = (
            2 * r - (self.rows as i64 - 1),
            2 * c - (self.cols as i64 - 1),
        );
        dr * dr + dc * dc
    }

    /// A Hamiltonian path from `start` (a cycle back to it when `closed`), by Warnsdorff's rule
    /// with restarts; square indices in order.
    pub fn warnsdorff(
        &self,
        start: usize,
        closed: bool,
        seed: u64,
        attempts: usize,
    ) -> Option<Vec<usize>> {
        let mut rng = SplitMix(seed ^ SEED_MIX);
        (0..attempts).find_map(|_| self.attempt(start, closed, None, BACKTRACK_BUDGET, &mut rng))
    }

    /// An open path from `start` that ends on `end`, by the same rule: `end` is held back for
    /// the last move and its neighbours are kept for last where they can be (they are its only
    /// ways in). Attempts go on, each with other random choices, while `more` says so.
    pub fn path_between(
        &self,
        start: usize,
        end: usize,
        seed: u64,
        mut more: impl FnMut() -> bool,
    ) -> Option<Vec<usize>> {
        let mut rng = SplitMix(seed ^ SEED_MIX);
        while more() {
            if let Some(path) = self.attempt(start, false, Some(end), BACKTRACK_BUDGET, &mut rng) {
                return Some(path);
            }
        }
        None
    }

    /// A closed tour, listed from `start`. A cycle passes through every square, so the search
    /// may begin anywhere: one short attempt from each square in turn (from `start` on), since
    /// Warnsdorff's rule closes the cycle at once from most squares and struggles from a few;
    /// then full attempts from `start`.
    pub fn closed_tour(&self, start: usize, seed: u64, attempts: usize) -> Option<Vec<usize>> {
        let mut rng = SplitMix(seed ^ SEED_MIX);
        let squares = self.present.len();
        let found = (0..squares)
            .map(|k| (start + k) % squares)
            .filter(|&origin| self.present[origin])
            .find_map(|origin| self.attempt(origin, true, None, QUICK_BUDGET, &mut rng))
            .or_else(|| self.warnsdorff(start, true, seed, attempts))?;
        let mut cycle = found;
        let at = cycle.iter().position(|&i| i == start)?;
        cycle.rotate_left(at);
        Some(cycle)
    }

    /// One attempt: a depth-first search that tries moves in Warnsdorff's order and gives up
    /// after `budget` moves (its first descent is Warnsdorff's rule itself).
    fn attempt(
        &self,
        start: usize,
        closed: bool,
        end: Option<usize>,
        budget: u32,
        rng: &mut SplitMix,
    ) -> Option<Vec<usize>> {
        let n = self.len();
        let mut state = Attempt {
            visited: vec![false; self.present.len()],
            onward: self
                .neighbours
                .iter()
                .map(|list| list.len() as u32)
                .collect(),
            path: Vec::with_capacity(n),
            budget,
            end,
            // Some attempts ignore the spread, so that restarts differ more.
            use_spread: !rng.next().is_multiple_of(4),
        };
        self.visit(&mut state, start, start, closed, n, rng)
            .then_some(state.path)
    }

    fn visit(
        &self,
        state: &mut Attempt,
        at: usize,
        start: usize,
        closed: bool,
        n: usize,
        rng: &mut SplitMix,
    ) -> bool {
        state.visited[at] = true;
        state.path.push(at);
        // A closed tour comes back to its start, so the start stays an exit for its
        // neighbours: they are not rushed into early.
        let keep_start = closed && at == start;
        if !keep_start {
            for &j in &self.neighbours[at] {
                state.onward[j as usize] -= 1;
            }
        }
        if state.path.len() == n {
            if !closed || self.neighbours[at].contains(&(start as u32)) {
                return true;
            }
        } else if state.budget > 0 {
            state.budget -= 1;
            let mut moves: Vec<(u32, bool, i64, u64, usize)> = self.neighbours[at]
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| !state.visited[j])
                // The end is the last square, never one on the way.
                .filter(|&j| {
                    state
                        .end
                        .is_none_or(|end| j != end || state.path.len() + 1 == n)
                })
                .map(|j| {
                    let near_start = match state.end {
                        Some(end) => self.neighbours[end].contains(&(j as u32)),
                        None => closed && self.neighbours[start].contains(&(j as u32)),
                    };
                    let spread = if state.use_spread { -self.spread(j) } else { 0 };
                    (state.onward[j], near_start, spread, rng.next(), j)
                })
                .collect();
            moves.sort_unstable();
            for m in moves {
                if self.visit(state, m.4, start, closed, n, rng) {
                    return true;
                }
                if state.budget == 0 {
                    break;
                }
            }
        }
        if !keep_start {
            for &j in &self.neighbours[at] {
                state.onward[j as usize] += 1;
            }
        }
        state.path.pop();
        state.visited[at] = false;
        false
    }
}

/// Moves one attempt may make before it gives up.
const BACKTRACK_BUDGET: u32 = 20_000;

/// Moves of each short attempt of [`Graph::closed_tour`].
const QUICK_BUDGET: u32 = 1_000;

/// The state of one attempt.
struct Attempt {
    visited: Vec<bool>,
    onward: Vec<u32>,
    path: Vec<usize>,
    budget: u32,
    /// The square an open path must end on, if one is asked for.
    end: Option<usize>,
    use_spread: bool,
}

/// A tour of `board` from `start` by Warnsdorff's rule, or `None` after `attempts` tries.
pub fn warnsdorff(
    board: Board,
    start: Square,
    closed: bool,
    seed: u64,
    attempts: usize,
) -> Option<Vec<Square>> {
    let graph = Graph::new(board.rows() as usize, board.cols() as usize, None);
    graph
        .warnsdorff(board.index(start), closed, seed, attempts)
        .map(|path| path.into_iter().map(|i| board.square(i)).collect())
}

/// A closed tour of `board` listed from `start` by Warnsdorff's rule (see
/// [`Graph::closed_tour`]), or `None` after `attempts` full tries.
pub fn closed_tour(board: Board, start: Square, seed: u64, attempts: usize) -> Option<Vec<Square>> {
    let graph = Graph::new(board.rows() as usize, board.cols() as usize, None);
    graph
        .closed_tour(board.index(start), seed, attempts)
        .map(|path| path.into_iter().map(|i| board.square(i)).collect())
}

/// An open tour of `board` from `start` to `end` by Warnsdorff's rule (see
/// [`Graph::path_between`]), attempted while `more` says so.
pub fn path_between(
    board: Board,
    start: Square,
    end: Square,
    seed: u64,
    more: impl FnMut() -> bool,
) -> Option<Vec<Square>> {
    let graph = Graph::new(board.rows() as usize, board.cols() as usize, None);
    graph
        .path_between(board.index(start), board.index(end), seed, more)
        .map(|path| path.into_iter().map(|i| board.square(i)).collect())
}

/// A small, fast pseudo-random sequence (SplitMix64), the same on every machine for a seed:
/// for tie-breaking here, and for the puzzles' random tours.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::validate;

    #[test]
    fn finds_open_and_closed_tours_of_8x8() {
        let board = Board::new(8, 8).unwrap();
        for square in board.all_squares() {
            let path = warnsdorff(board, square, false, 0, ATTEMPTS).unwrap();
            assert_eq!(validate(board, &path, false), Ok(()));
        }
        let cycle = warnsdorff(board, Square::new(3, 4), true, 0, ATTEMPTS).unwrap();
        assert_eq!(validate(board, &cycle, true), Ok(()));
        assert_eq!(cycle[0], Square::new(3, 4));
    }

    #[test]
    fn finds_a_path_that_ends_where_asked() {
        let board = Board::new(8, 8).unwrap();
        let (start, end) = (Square::new(0, 0), Square::new(7, 6));
        let mut attempts = 0;
        let path = path_between(board, start, end, 0, || {
            attempts += 1;
            attempts <= 50
        })
        .unwrap();
        assert_eq!(validate(board, &path, false), Ok(()));
        assert_eq!((path[0], path[63]), (start, end));
    }
}
