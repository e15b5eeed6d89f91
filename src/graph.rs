//! The knight graph of a board of at most 64 squares, as bitsets.
//!
//! Square `i` (row-major index, see [`Board::index`]) is bit `i` of a `u64`. Besides one
//! neighbour bitset per square, the graph keeps the knight's moves as eight masked shifts, so that
//! the neighbours of a whole set of squares, or how many neighbours every square has inside a set,
//! are computed for all squares at once with a handful of word operations.

use crate::board::{Board, KNIGHT_MOVES, Square};
use crate::error::Error;

/// Largest number of squares a bitset graph (and the memo engine) handles.
pub const MAX_BITSET_SQUARES: u64 = 64;

/// A set of squares of a board of at most 64 squares.
pub type SquareSet = u64;

/// One knight's move as a shift of the whole bitset: squares in `from` move by `shift` places,
/// left when `left` is true.
#[derive(Clone, Copy, Debug)]
struct Shift {
    from: SquareSet,
    amount: u32,
    left: bool,
}

/// Ok when the graph of `board` fits in bitsets: at most [`MAX_BITSET_SQUARES`] squares, the
/// memo engine's limit (it is that engine's error).
pub fn check_board(board: Board) -> Result<(), Error> {
    if board.squares() > MAX_BITSET_SQUARES {
        return Err(Error::BoardTooLarge {
            board,
            max_squares: MAX_BITSET_SQUARES,
            engine: "memo",
        });
    }
    Ok(())
}

/// The knight graph of a board with at most 64 squares.
#[derive(Clone, Debug)]
pub struct KnightGraph {
    board: Board,
    neighbours: Vec<SquareSet>,
    shifts: Vec<Shift>,
    all: SquareSet,
    corner_colour: SquareSet,
}

impl KnightGraph {
    /// Builds the graph of `board`, which must have at most [`MAX_BITSET_SQUARES`] squares.
    pub fn new(board: Board) -> Result<Self, Error> {
        check_board(board)?;
        let n = board.squares() as usize;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let neighbours = (0..n)
            .map(|i| {
                board
                    .knight_moves(board.square(i))
                    .fold(0, |set, sq| set | bit(board.index(sq)))
            })
            .collect();
        let corner_colour = (0..n)
            .filter(|&i| Board::is_corner_colour(board.square(i)))
            .fold(0, |set, i| set | bit(i));
        let cols = board.cols() as i64;
        let shifts = KNIGHT_MOVES
            .iter()
            .filter_map(|&(dr, dc)| {
                let delta = dr as i64 * cols + dc as i64;
                if delta.unsigned_abs() >= 64 {
                    return None;
                }
                // Squares whose column stays on the board after the move (rows that fall off
                // are cut by the shift itself or by `all`).
                let from = (0..n)
                    .filter(|&i| {
                        let c = board.square(i).col as i64 + dc as i64;
                        c >= 0 && c < cols
                    })
                    .fold(0, |set, i| set | bit(i));
                Some(Shift {
                    from,
                    amount: delta.unsigned_abs() as u32,
                    left: delta > 0,
                })
            })
            .collect();
        Ok(KnightGraph {
            board,
            neighbours,
            shifts,
            all,
            corner_colour,
        })
    }

    /// The board this graph belongs to.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Number of squares.
    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    /// True for a graph without squares (never: boards have at least one square).
    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }

    /// The set of every square.
    pub fn all(&self) -> SquareSet {
        self.all
    }

    /// The squares of the corner's colour (`row + col` even).
    pub fn corner_colour(&self) -> SquareSet {
        self.corner_colour
    }

    /// The knight's neighbours of square `index`.
    #[inline]
    pub fn neighbours(&self, index: usize) -> SquareSet {
        self.neighbours[index]
    }

    /// The bit index of `square`.
    pub fn index(&self, square: Square) -> usize {
        self.board.index(square)
    }

    /// Every square that is a knight's move from some square of `set`.
    #[inline]
    pub fn neighbours_of_set(&self, set: SquareSet) -> SquareSet {
        let mut out = 0;
        for shift in &self.shifts {
            out |= shift.apply(set);
        }
        out & self.all
    }

    /// For every square, whether it has at least one and at least two neighbours inside `set`:
    /// returns `(at_least_one, at_least_two)`.
    #[inline]
    pub fn neighbour_counts(&self, set: SquareSet) -> (SquareSet, SquareSet) {
        let mut one = 0;
        let mut two = 0;
        for shift in &self.shifts {
            let reached = shift.apply(set);
            two |= one & reached;
            one |= reached;
        }
        (one & self.all, two & self.all)
    }

    /// For every square, whether it has at least 1, 2, 3 and 4 neighbours inside `set`.
    #[inline]
    pub fn neighbour_count_levels(&self, set: SquareSet) -> [SquareSet; 4] {
        let (mut one, mut two, mut three, mut four) = (0, 0, 0, 0);
        for shift in &self.shifts {
            let reached = shift.apply(set);
            four |= three & reached;
            three |= two & reached;
            two |= one & reached;
            one |= reached;
        }
        [
            one & self.all,
            two & self.all,
            three & self.all,
            four & self.all,
        ]
    }

    /// True when every square of `targets` can be reached from `from` by knight's moves that
    /// stay inside `within` (the search stops as soon as they are all reached).
    #[inline]
    pub fn reaches_all(&self, from: SquareSet, within: SquareSet, targets: SquareSet) -> bool {
        let mut reached = from & within;
        loop {
            if targets & !reached == 0 {
                return true;
            }
            let next = (reached | self.neighbours_of_set(reached)) & within;
            if next == reached {
                return false;
            }
            reached = next;
        }
    }

    /// The squares of `within` reachable from `from` by knight's moves that stay inside
    /// `within` (`from` itself included when it is in `within`).
    #[inline]
    pub fn reachable(&self, from: SquareSet, within: SquareSet) -> SquareSet {
        let mut reached = from & within;
        loop {
            let next = (reached | self.neighbours_of_set(reached)) & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}

impl Shift {
    #[inline]
    fn apply(&self, set: SquareSet) -> SquareSet {
        let moving = set & self.from;
        if self.left {
            moving << self.amount
        } else {
            moving >> self.amount
        }
    }
}

/// The set holding only square `index`.
#[inline]
pub const fn bit(index: usize) -> SquareSet {
    1u64 << index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_match_neighbour_lists() {
        for (rows, cols) in [
            (1, 1),
            (3, 4),
            (5, 5),
            (8, 8),
            (1, 64),
            (2, 32),
            (4, 16),
            (7, 9),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let graph = KnightGraph::new(board).unwrap();
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..200 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let set = state & graph.all();
                let expected: u64 = (0..graph.len())
                    .filter(|&i| set & bit(i) != 0)
                    .fold(0, |acc, i| acc | graph.neighbours(i));
                assert_eq!(graph.neighbours_of_set(set), expected, "{board}");
                let (one, two) = graph.neighbour_counts(set);
                let levels = graph.neighbour_count_levels(set);
                for i in 0..graph.len() {
                    let count = (graph.neighbours(i) & set).count_ones();
                    assert_eq!(one & bit(i) != 0, count >= 1);
                    assert_eq!(two & bit(i) != 0, count >= 2);
                    for (k, level) in levels.iter().enumerate() {
                        assert_eq!(level & bit(i) != 0, count > k as u32);
                    }
                }
            }
        }
    }

    #[test]
    fn too_many_squares_is_an_error() {
        assert!(KnightGraph::new(Board::new(5, 13).unwrap()).is_err());
    }
}
