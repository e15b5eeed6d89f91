//! Board geometry: boards, squares, the knight's moves and the board's symmetries.
//!
//! A board has `rows × cols` squares; a square is `(row, col)`, 0-based from a corner, as in the
//! judge problem. Every board has four symmetries that map it onto itself (identity, the two
//! mirrors and the half turn), a square board has eight, and the four "diagonal" symmetries
//! (transpose, anti-transpose, quarter turns) map an `n×m` board onto the `m×n` board. All of them
//! map knight's moves to knight's moves, so they preserve every count of tours: this module lets
//! callers map a question to its canonical representative and back.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The eight knight's moves as `(row delta, column delta)`.
pub const KNIGHT_MOVES: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// The largest side length accepted for any board (tour finding included).
pub const MAX_SIDE: u32 = 100_000;

/// What is wrong with a board or a square of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A board size that is not allowed (a side of 0, or absurdly large).
    #[error("invalid board: {0}")]
    Invalid(String),

    /// A number that cannot be a side of a board: 0, or more than [`MAX_SIDE`].
    #[error("a board side is at {}", side_limit(*.0))]
    Side(u64),

    /// A start square that is not on the board.
    #[error("start square {square} is outside the {board} board (rows 0 to {}, columns 0 to {})", board.rows() - 1, board.cols() - 1)]
    SquareOutside {
        /// The board.
        board: Board,
        /// The square asked for.
        square: Square,
    },
}

/// The bound that `side` breaks: "least 1" for 0, "most [`MAX_SIDE`]" otherwise.
fn side_limit(side: u64) -> String {
    if side == 0 {
        "least 1".into()
    } else {
        format!("most {MAX_SIDE}")
    }
}

/// A rectangular board of `rows × cols` squares, each side at least 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Board {
    rows: u32,
    cols: u32,
}

/// A square of a board, `(row, col)`, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    /// Row, counted from 0.
    pub row: u32,
    /// Column, counted from 0.
    pub col: u32,
}

impl Square {
    /// The square at `(row, col)`.
    pub const fn new(row: u32, col: u32) -> Self {
        Square { row, col }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

impl Board {
    /// A board of `rows × cols` squares. Both sides must be between 1 and [`MAX_SIDE`].
    pub fn new(rows: u32, cols: u32) -> Result<Self, BoardError> {
        for (name, value) in [("rows", rows), ("cols", cols)] {
            Board::check_side(value.into()).map_err(|_| {
                BoardError::Invalid(if value == 0 {
                    format!("{name} must be at least 1, got 0")
                } else {
                    format!("{name} must be at most {MAX_SIDE}, got {value}")
                })
            })?;
        }
        Ok(Board { rows, cols })
    }

    /// Checks that `side` can be a side of a board: between 1 and [`MAX_SIDE`]. This is the one
    /// place that rule is written; readers of numbers call it and word the error their way
    /// ([`BoardError::Side`] holds the number, 0 for the lower bound).
    pub fn check_side(side: u64) -> Result<u32, BoardError> {
        u32::try_from(side)
            .ok()
            .filter(|side| (1..=MAX_SIDE).contains(side))
            .ok_or(BoardError::Side(side))
    }

    /// Number of rows.
    pub const fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of columns.
    pub const fn cols(&self) -> u32 {
        self.cols
    }

    /// Number of squares, `rows · cols`.
    pub const fn squares(&self) -> u64 {
        self.rows as u64 * self.cols as u64
    }

    /// True when the board has as many rows as columns.
    pub const fn is_square(&self) -> bool {
        self.rows == self.cols
    }

    /// The same board turned on its side: `cols × rows`.
    pub const fn transposed(&self) -> Board {
        Board {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// True when `square` lies on the board.
    pub const fn contains(&self, square: Square) -> bool {
        square.row < self.rows && square.col < self.cols
    }

    /// Checks that `square` lies on the board, with an error that names the board otherwise.
    pub fn check_square(&self, square: Square) -> Result<(), BoardError> {
        if self.contains(square) {
            Ok(())
        } else {
            Err(BoardError::SquareOutside {
                board: *self,
                square,
            })
        }
    }

    /// The row-major index of `square` (`row · cols + col`).
    pub const fn index(&self, square: Square) -> usize {
        square.row as usize * self.cols as usize + square.col as usize
    }

    /// The square at row-major index `index`.
    pub const fn square(&self, index: usize) -> Square {
        Square {
            row: (index / self.cols as usize) as u32,
            col: (index % self.cols as usize) as u32,
        }
    }

    /// Every square of the board in row-major order.
    pub fn all_squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.rows).flat_map(move |row| (0..self.cols).map(move |col| Square { row, col }))
    }

    /// The squares a knight on `square` can move to, in a fixed order.
    pub fn knight_moves(&self, square: Square) -> impl Iterator<Item = Square> + '_ {
        KNIGHT_MOVES.iter().filter_map(move |&(dr, dc)| {
            let row = square.row as i64 + dr as i64;
            let col = square.col as i64 + dc as i64;
            (row >= 0 && col >= 0 && row < self.rows as i64 && col < self.cols as i64)
                .then_some(Square::new(row as u32, col as u32))
        })
    }

    /// True when a knight moves from `a` to `b` in one step.
    pub fn is_knight_move(a: Square, b: Square) -> bool {
        let dr = a.row.abs_diff(b.row);
        let dc = a.col.abs_diff(b.col);
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    /// The colour of a square as on a chessboard: `true` for squares with `row + col` even
    /// (the colour of the corner). Every knight's move changes colour.
    pub const fn is_corner_colour(square: Square) -> bool {
        (square.row + square.col).is_multiple_of(2)
    }

    /// Number of squares of the corner's colour (`row + col` even).
    pub const fn corner_colour_squares(&self) -> u64 {
        self.squares().div_ceil(2)
    }

    /// The symmetries that map this board onto itself: four on an oblong board, eight on a
    /// square one. The identity comes first.
    pub fn automorphisms(&self) -> &'static [Symmetry] {
        if self.is_square() {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..4]
        }
    }

    /// This board with rows and columns ordered so that `rows <= cols`.
    pub const fn canonical(&self) -> Board {
        if self.rows <= self.cols {
            *self
        } else {
            self.transposed()
        }
    }

    /// The canonical representative of `square` under this board's own symmetries: the least
    /// `(row, col)` of its orbit, with the symmetry that maps `square` to it.
    pub fn canonical_square(&self, square: Square) -> (Square, Symmetry) {
        self.automorphisms()
            .iter()
            .map(|&sym| (sym.apply(*self, square), sym))
            .min_by_key(|&(sq, _)| sq)
            .expect("a board has at least one symmetry")
    }

    /// One representative of every orbit of squares under the board's symmetries (the least
    /// square of each orbit), in row-major order.
    pub fn canonical_squares(&self) -> Vec<Square> {
        self.all_squares()
            .filter(|&sq| self.canonical_square(sq).0 == sq)
            .collect()
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A board size as written on the command line: `5x6` (also `5X6` and `5×6`, spaces allowed).
/// The error is a sentence that quotes the text, for a command-line parser to show.
impl FromStr for Board {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let not_a_size = || format!("'{}' is not a board size like 5x6", crate::echo::echo(text));
        let (rows, cols) = text
            .trim()
            .split_once(['x', 'X', '×'])
            .ok_or_else(not_a_size)?;
        let side = |s: &str| -> Result<u32, String> {
            let side: u32 = s.trim().parse().map_err(|_| not_a_size())?;
            Board::check_side(side.into())
                .map_err(|e| format!("'{}': {e}", crate::echo::echo(text)))
        };
        Ok(Board {
            rows: side(rows)?,
            cols: side(cols)?,
        })
    }
}

/// One of the eight symmetries of the square, acting on a rectangular board.
///
/// The first four map an `R×C` board onto itself; the last four map it onto the `C×R` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Symmetry {
    /// `(r, c) → (r, c)`.
    Identity,
    /// Mirror top to bottom: `(r, c) → (R-1-r, c)`.
    FlipRows,
    /// Mirror left to right: `(r, c) → (r, C-1-c)`.
    FlipCols,
    /// Half turn: `(r, c) → (R-1-r, C-1-c)`.
    Rotate180,
    /// Mirror in the main diagonal: `(r, c) → (c, r)`.
    Transpose,
    /// Mirror in the other diagonal: `(r, c) → (C-1-c, R-1-r)`.
    AntiTranspose,
    /// Quarter turn clockwise: `(r, c) → (c, R-1-r)`.
    Rotate90,
    /// Quarter turn anticlockwise: `(r, c) → (C-1-c, r)`.
    Rotate270,
}

impl Symmetry {
    /// All eight symmetries; the first four keep the board's orientation.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipRows,
        Symmetry::FlipCols,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// True for the four symmetries that turn an `R×C` board into a `C×R` one.
    pub const fn swaps_sides(self) -> bool {
        matches!(
            self,
            Symmetry::Transpose
                | Symmetry::AntiTranspose
                | Symmetry::Rotate90
                | Symmetry::Rotate270
        )
    }

    /// The board that `board` becomes under this symmetry.
    pub const fn target(self, board: Board) -> Board {
        if self.swaps_sides() {
            board.transposed()
        } else {
            board
        }
    }

    /// Where `square` of `board` goes under this symmetry (a square of `self.target(board)`).
    pub const fn apply(self, board: Board, square: Square) -> Square {
        let (r, c) = (square.row, square.col);
        let (last_row, last_col) = (board.rows - 1, board.cols - 1);
        let (row, col) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::FlipRows => (last_row - r, c),
            Symmetry::FlipCols => (r, last_col - c),
            Symmetry::Rotate180 => (last_row - r, last_col - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (last_col - c, last_row - r),
            Symmetry::Rotate90 => (c, last_row - r),
            Symmetry::Rotate270 => (last_col - c, r),
        };
        Square { row, col }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}

/// A question about one start square, in the canonical form shared by all its symmetric
/// variants: the board has `rows <= cols` and the square is the least of its orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CanonicalStart {
    /// The board, with `rows <= cols`.
    pub board: Board,
    /// The least square of the start's orbit on `board`.
    pub square: Square,
    /// The symmetry that maps the original question onto this one; its inverse maps back.
    pub symmetry: Symmetry,
}

impl CanonicalStart {
    /// The canonical form of "start on `square` of `board`".
    ///
    /// Every one of the eight symmetries whose target board has `rows <= cols` is tried, so
    /// an `n×m` question and the transposed `m×n` one land on the same representative.
    pub fn of(board: Board, square: Square) -> Self {
        let target_board = board.canonical();
        Symmetry::ALL
            .iter()
            .filter(|sym| sym.target(board) == target_board)
            .map(|&symmetry| CanonicalStart {
                board: target_board,
                square: symmetry.apply(board, square),
                symmetry,
            })
            .min_by_key(|c| c.square)
            .expect("identity or transpose always targets the canonical board")
    }

    /// Maps a square of the canonical board back to the original board.
    pub fn to_original(&self, square: Square) -> Square {
        self.symmetry.inverse().apply(self.board, square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_bijections_with_inverses() {
        for (rows, cols) in [(1, 1), (3, 4), (5, 5), (2, 7), (6, 6)] {
            let board = Board::new(rows, cols).unwrap();
            for sym in Symmetry::ALL {
                let target = sym.target(board);
                let mut seen = std::collections::HashSet::new();
                for sq in board.all_squares() {
                    let image = sym.apply(board, sq);
                    assert!(target.contains(image), "{sym:?} {board} {sq}");
                    assert!(seen.insert(image));
                    assert_eq!(sym.inverse().apply(target, image), sq);
                }
            }
        }
    }

    #[test]
    fn symmetries_preserve_knight_moves() {
        let board = Board::new(4, 7).unwrap();
        for sym in Symmetry::ALL {
            for a in board.all_squares() {
                for b in board.knight_moves(a) {
                    assert!(Board::is_knight_move(
                        sym.apply(board, a),
                        sym.apply(board, b)
                    ));
                }
            }
        }
    }

    #[test]
    fn canonical_squares_of_square_board() {
        let board = Board::new(6, 6).unwrap();
        let reps = board.canonical_squares();
        assert_eq!(
            reps,
            vec![
                Square::new(0, 0),
                Square::new(0, 1),
                Square::new(0, 2),
                Square::new(1, 1),
                Square::new(1, 2),
                Square::new(2, 2)
            ]
        );
        assert_eq!(Board::new(5, 8).unwrap().canonical_squares().len(), 12);
    }

    #[test]
    fn canonical_start_round_trips() {
        let board = Board::new(7, 3).unwrap();
        for sq in board.all_squares() {
            let canon = CanonicalStart::of(board, sq);
            assert_eq!(canon.board, Board::new(3, 7).unwrap());
            assert_eq!(canon.to_original(canon.square), sq);
        }
    }

    #[test]
    fn zero_sides_are_rejected() {
        assert!(Board::new(0, 4).is_err());
        assert!(Board::new(4, 0).is_err());
    }

    #[test]
    fn sides_and_sizes() {
        assert_eq!(Board::check_side(1), Ok(1));
        assert_eq!(Board::check_side(MAX_SIDE.into()), Ok(MAX_SIDE));
        assert_eq!(
            Board::check_side(0).unwrap_err().to_string(),
            "a board side is at least 1"
        );
        assert_eq!(
            Board::check_side(u64::MAX).unwrap_err().to_string(),
            format!("a board side is at most {MAX_SIDE}")
        );
        assert_eq!(
            Board::new(0, 4).unwrap_err().to_string(),
            "invalid board: rows must be at least 1, got 0"
        );
        assert_eq!(" 5 x 6".parse(), Ok(Board::new(5, 6).unwrap()));
        assert_eq!("7×3".parse(), Ok(Board::new(7, 3).unwrap()));
        assert_eq!(
            "5x0".parse::<Board>(),
            Err("'5x0': a board side is at least 1".to_string())
        );
        assert_eq!(
            "5by6".parse::<Board>(),
            Err("'5by6' is not a board size like 5x6".to_string())
        );
    }
}
