//! Board geometry: boards, squares, the knight's moves and the board's symmetries.
//!
//! A board has `rows × cols` squares; a square is `(row, col)`, 0-based from a corner, as in the
//! judge problem. Every board has four symmetries that map it onto itself (identity, the two
//! mirrors and the half turn), a square board has eight, and the four "diagonal" symmetries
//! (transpose, anti-transpose, quarter turns) map an `n×m` board onto the `m×n` board. All of them
//! map knight's moves to knight's moves, so they preserve every count of tours: this module lets
//! callers map a question to its canonical representative and back.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::Error;

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
    pub fn new(rows: u32, cols: u32) -> Result<Self, Error> {
        for (name, value) in [("rows", rows), ("cols", cols)] {
            if value == 0 {
                return Err(Error::InvalidBoard(format!(
                    "{name} must be at least 1, got 0"
                )));
            }
            if value > MAX_SIDE {
                return Err(Error::InvalidBoard(format!(
                    "{name} must be at most {MAX_SIDE}, got {value}"
                )));
            }
        }
        Ok(Board { rows, cols })
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
    pub fn check_square(&self, square: Square) -> Result<(), Error> {
        if self.contains(square) {
            Ok(())
        } else {
            Err(Error::SquareOutsideBoard {
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

/// Reads a whole number, saying what is wrong with text that is not one.
fn parse_whole(text: &str) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(v) if v < 0 => Err(format!("{text} is negative")),
        Ok(v) => u64::try_from(v).map_err(|_| format!("{text} is far too large")),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// Reads a board side: a whole number from 1 to [`MAX_SIDE`]. The message is the one the
/// command line and the server both show.
pub fn parse_side(text: &str) -> Result<u32, String> {
    let value = parse_whole(text).map_err(|e| format!("{e}; a board side is at least 1"))?;
    if value == 0 {
        return Err("a board side is at least 1".into());
    }
    u32::try_from(value)
        .ok()
        .filter(|&v| v <= MAX_SIDE)
        .ok_or_else(|| format!("a board side is at most {MAX_SIDE}"))
}

/// Reads a row or column of a square, counted from 0.
pub fn parse_coordinate(text: &str) -> Result<u32, String> {
    let value = parse_whole(text).map_err(|e| format!("{e}; squares are numbered from 0"))?;
    u32::try_from(value).map_err(|_| format!("{text} is far too large"))
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
}
