//! A construction for boards with both sides at least 5, however large.
//!
//! The board is cut into blocks whose sides are 5 to 10 squares: even sides are cut into parts
//! of 6, 8 and 10; an odd side gets one odd part of 5, 7 or 9. Every block has an even side
//! (or, on a board of odd area, all but the one block holding the start), so every block has a
//! closed tour; each block size's tour is found once by Warnsdorff's rule with a fixed seed and
//! kept. The blocks' cycles are then joined along a spanning tree of the blocks — left to right
//! within each band of rows, then the bands top to bottom through their first block — by
//! exchanging two moves across a border: a move `a1 a2` of one cycle and `b1 b2` of the other,
//! with `a1 b1` and `a2 b2` knight's moves, become `a1 b1` and `a2 b2`; two cycles become one.
//!
//! On a board of odd area an open tour must start on the corners' colour; the block holding the
//! start is odd by odd, and its cycle covers every square of it but the start. The tour then
//! steps from the start onto the joined cycle and goes once round it.
//!
//! The construction cannot fail: there are finitely many block sizes, each with its one fixed
//! tour, and each join only looks at the squares beside one border, so every join that can
//! ever happen is one of finitely many, and the tests run them all (every board from 10 to 40
//! squares a side, both parities). Every tour is checked before it is returned anyway.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::search::{ATTEMPTS, Graph};
use crate::board::{Board, BoardError, Square};
use crate::cancel::CancelFlag;
use crate::error::Error;

/// The seed of the block tours: fixed, so that every run builds the same tours.
const BLOCK_SEED: u64 = 2026;

/// No link yet.
const NONE: u32 = u32::MAX;

/// A closed tour of every square of the board but none (even area) or one (the start, odd
/// area), joined from blocks, then walked from the start: the squares in order.
pub fn construct(
    board: Board,
    start: Square,
    closed: bool,
    cancel: &CancelFlag,
) -> Result<Vec<Square>, Error> {
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    if rows < 5 || cols < 5 {
        return Err(BoardError::Invalid(format!(
            "the construction needs both sides at least 5, not {board}"
        ))
        .into());
    }
    let odd = (rows * cols) % 2 == 1;
    let plans: Vec<(Vec<usize>, Vec<usize>)> = if odd {
        let row_options = odd_parts_around(rows, start.row as usize);
        let col_options = odd_parts_around(cols, start.col as usize);
        row_options
            .iter()
            .flat_map(|r| col_options.iter().map(move |c| (r.clone(), c.clone())))
            .collect()
    } else if rows % 2 == 0 {
        vec![(even_parts(rows), any_parts(cols))]
    } else {
        vec![(any_parts(rows), even_parts(cols))]
    };
    let mut last_error = None;
    for (row_parts, col_parts) in plans {
        match join_blocks(board, start, odd, &row_parts, &col_parts, cancel) {
            Ok(links) => return Ok(walk(board, start, odd, closed, &links)),
            Err(Error::Interrupted) => return Err(Error::Interrupted),
            Err(e) => last_error = Some(e),
        }
    }
    Err(last_error.unwrap_or_else(|| Error::Internal(format!("no way to cut the {board} board"))))
}

/// Parts of an even length: 6, 8 and 10.
fn even_parts(length: usize) -> Vec<usize> {
    let fits = |l: usize| matches!(l, 6 | 8 | 10) || (l >= 12 && l.is_multiple_of(2));
    let mut parts = Vec::new();
    let mut rest = length;
    while !matches!(rest, 6 | 8 | 10) {
        let part = if fits(rest - 8) { 8 } else { 6 };
        parts.push(part);
        rest -= part;
    }
    parts.push(rest);
    parts
}

/// Parts of any length of at least 5: even parts, and one odd part first when it is odd.
fn any_parts(length: usize) -> Vec<usize> {
    if length.is_multiple_of(2) {
        even_parts(length)
    } else if length <= 9 {
        vec![length]
    } else {
        let mut parts = vec![5];
        parts.extend(even_parts(length - 5));
        parts
    }
}

/// Ways to cut an odd length into even parts and one odd part (5, 7, 9 or 11) that holds
/// position `at`, best first: an odd part of 7 where it can be (every odd block with a side of
/// 7 has a cycle without any of its squares of the corners' colour; 5x5 has one only without a
/// corner, and 5x9 not without its squares (2, 2) and (2, 6)).
fn odd_parts_around(length: usize, at: usize) -> Vec<Vec<usize>> {
    let fits = |l: usize| l == 0 || matches!(l, 6 | 8 | 10) || (l >= 12 && l.is_multiple_of(2));
    let mut options = Vec::new();
    for odd in [7, 9, 11, 5] {
        for before in (0..=at).filter(|&b| fits(b)) {
            if before + odd > at && before + odd <= length && fits(length - before - odd) {
                let mut parts = if before > 0 {
                    even_parts(before)
                } else {
                    Vec::new()
                };
                parts.push(odd);
                if length > before + odd {
                    parts.extend(even_parts(length - before - odd));
                }
                options.push(parts);
            }
        }
    }
    options
}

/// Block tours found so far, by block size.
type BlockTours = HashMap<(usize, usize), Arc<Vec<usize>>>;

/// The kept closed tour of a block of `rows × cols`, as local square indices.
fn block_tour(rows: usize, cols: usize) -> Result<Arc<Vec<usize>>, Error> {
    static TOURS: OnceLock<Mutex<BlockTours>> = OnceLock::new();
    let tours = TOURS.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(tour) = tours
        .lock()
        .expect("no panic holds the cache")
        .get(&(rows, cols))
    {
        return Ok(tour.clone());
    }
    // A closed tour can start anywhere: the middle, with the most ways back, is easiest.
    let middle = (rows / 2) * cols + cols / 2;
    let tour = Graph::new(rows, cols, None)
        .warnsdorff(middle, true, BLOCK_SEED, ATTEMPTS)
        .ok_or_else(|| {
            Error::Internal(format!("no closed tour found for a {rows}x{cols} block"))
        })?;
    let tour = Arc::new(tour);
    tours
        .lock()
        .expect("no panic holds the cache")
        .insert((rows, cols), tour.clone());
    Ok(tour)
}

/// A block of the cut.
#[derive(Clone, Copy, Debug)]
struct Block {
    row: usize,
    col: usize,
    rows: usize,
    cols: usize,
}

impl Block {
    fn contains(&self, r: usize, c: usize) -> bool {
        r >= self.row && r < self.row + self.rows && c >= self.col && c < self.col + self.cols
    }
}

/// The blocks' cycles, joined into one: for every square, its two neighbours on the cycle.
fn join_blocks(
    board: Board,
    start: Square,
    odd: bool,
    row_parts: &[usize],
    col_parts: &[usize],
    cancel: &CancelFlag,
) -> Result<Vec<[u32; 2]>, Error> {
    let cols = board.cols() as usize;
    let n = board.squares() as usize;
    let mut links = vec![[NONE; 2]; n];
    let mut grid: Vec<Vec<Block>> = Vec::new();
    let mut row = 0;
    for &rows in row_parts {
        let mut band = Vec::new();
        let mut col = 0;
        for &width in col_parts {
            band.push(Block {
                row,
                col,
                rows,
                cols: width,
            });
            col += width;
        }
        grid.push(band);
        row += rows;
    }
    let (sr, sc) = (start.row as usize, start.col as usize);
    for block in grid.iter().flatten() {
        let cycle: Arc<Vec<usize>> = if odd && block.contains(sr, sc) {
            // The start's block: a cycle through all its squares but the start.
            let hole = (sr - block.row, sc - block.col);
            let middle = (block.rows / 2, block.cols / 2);
            let first = if hole == middle {
                middle.0 * block.cols + middle.1 - 1
            } else {
                middle.0 * block.cols + middle.1
            };
            let graph = Graph::new(block.rows, block.cols, Some(hole));
            Arc::new(
                graph
                    .warnsdorff(first, true, BLOCK_SEED, super::search::ATTEMPTS)
                    .ok_or_else(|| {
                        Error::Internal(format!(
                            "no cycle of the {}x{} block without ({}, {})",
                            block.rows, block.cols, hole.0, hole.1
                        ))
                    })?,
            )
        } else {
            block_tour(block.rows, block.cols)?
        };
        let global = |local: usize| {
            let (r, c) = (local / block.cols, local % block.cols);
            ((block.row + r) * cols + block.col + c) as u32
        };
        for (i, &local) in cycle.iter().enumerate() {
            let next = cycle[(i + 1) % cycle.len()];
            let previous = cycle[(i + cycle.len() - 1) % cycle.len()];
            links[global(local) as usize] = [global(previous), global(next)];
        }
    }
    // Left to right within each band, then the bands through their first blocks.
    for band in &grid {
        for pair in band.windows(2) {
            cancel.check()?;
            join(&mut links, board, pair[0], pair[1], true)?;
        }
    }
    for pair in grid.windows(2) {
        cancel.check()?;
        join(&mut links, board, pair[0][0], pair[1][0], false)?;
    }
    Ok(links)
}

/// Joins the cycle through block `a` with the cycle through block `b`, its neighbour to the
/// right (`across`) or below: finds moves `a1 a2` in `a` and `b1 b2` in `b` beside the border
/// with `a1 b1` and `a2 b2` knight's moves, and exchanges them. The border's squares are tried
/// from its middle outwards.
fn join(
    links: &mut [[u32; 2]],
    board: Board,
    a: Block,
    b: Block,
    across: bool,
) -> Result<(), Error> {
    let cols = board.cols() as usize;
    let at = |r: usize, c: usize| r * cols + c;
    // Squares of `a` within two lines of the border, middle first.
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    if across {
        let middle = a.row + a.rows / 2;
        let mut rows: Vec<usize> = (a.row..a.row + a.rows).collect();
        rows.sort_by_key(|&r| r.abs_diff(middle));
        for r in rows {
            for c in [a.col + a.cols - 1, a.col + a.cols - 2] {
                candidates.push((r, c));
            }
        }
    } else {
        let middle = a.col + a.cols / 2;
        let mut columns: Vec<usize> = (a.col..a.col + a.cols).collect();
        columns.sort_by_key(|&c| c.abs_diff(middle));
        for c in columns {
            for r in [a.row + a.rows - 1, a.row + a.rows - 2] {
                candidates.push((r, c));
            }
        }
    }
    let in_b = |sq: Square| b.contains(sq.row as usize, sq.col as usize);
    for (r1, c1) in candidates {
        let a1 = at(r1, c1);
        for a2 in links[a1] {
            if a2 == NONE {
                continue;
            }
            let a2 = a2 as usize;
            let (r2, c2) = (a2 / cols, a2 % cols);
            if !a.contains(r2, c2) {
                continue; // keep to moves inside the block
            }
            for b1 in board.knight_moves(Square::new(r1 as u32, c1 as u32)) {
                if !in_b(b1) {
                    continue;
                }
                let b1 = board.index(b1);
                for b2 in board.knight_moves(Square::new(r2 as u32, c2 as u32)) {
                    if !in_b(b2) {
                        continue;
                    }
                    let b2 = board.index(b2);
                    if b2 == b1 || !links[b1].contains(&(b2 as u32)) {
                        continue;
                    }
                    relink(links, a1, a2, b1);
                    relink(links, a2, a1, b2);
                    relink(links, b1, b2, a1);
                    relink(links, b2, b1, a2);
                    return Ok(());
                }
            }
        }
    }
    Err(Error::Internal(format!(
        "the {}x{} and {}x{} blocks at ({}, {}) and ({}, {}) could not be joined",
        a.rows, a.cols, b.rows, b.cols, a.row, a.col, b.row, b.col
    )))
}

/// Replaces `square`'s link to `old` by a link to `new`.
fn relink(links: &mut [[u32; 2]], square: usize, old: usize, new: usize) {
    let slot = if links[square][0] == old as u32 { 0 } else { 1 };
    links[square][slot] = new as u32;
}

/// The tour: round the cycle from the start, or (odd area) from the start onto the cycle and
/// round it.
fn walk(board: Board, start: Square, odd: bool, closed: bool, links: &[[u32; 2]]) -> Vec<Square> {
    let n = links.len();
    let mut order = Vec::with_capacity(n);
    let begin = board.index(start);
    let (mut previous, mut at) = if odd && !closed {
        order.push(begin);
        let first = board
            .knight_moves(start)
            .map(|sq| board.index(sq))
            .next()
            .expect("a square of a board with sides of 5 has a knight's move");
        (NONE as usize, first)
    } else {
        (NONE as usize, begin)
    };
    while order.len() < n {
        order.push(at);
        let [x, y] = links[at];
        let next = if x as usize != previous { x } else { y };
        previous = at;
        at = next as usize;
    }
    order.into_iter().map(|i| board.square(i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::validate;

    #[test]
    fn cuts() {
        assert_eq!(even_parts(6), vec![6]);
        assert_eq!(even_parts(12), vec![6, 6]);
        assert_eq!(even_parts(14), vec![8, 6]);
        assert_eq!(even_parts(1000).iter().sum::<usize>(), 1000);
        assert_eq!(any_parts(11), vec![5, 6]);
        for length in (5..200).step_by(2) {
            for at in 0..length {
                let options = odd_parts_around(length, at);
                assert!(!options.is_empty(), "{length} {at}");
                for parts in options {
                    assert_eq!(parts.iter().sum::<usize>(), length);
                    assert_eq!(parts.iter().filter(|p| *p % 2 == 1).count(), 1);
                }
            }
        }
    }

    #[test]
    fn builds_tours_of_mid_sized_boards() {
        for (rows, cols) in [(12, 12), (13, 17), (20, 15), (16, 16), (11, 21)] {
            let board = Board::new(rows, cols).unwrap();
            let start = Square::new(rows / 2 - 1, 2);
            let closed = (rows * cols) % 2 == 0;
            let start = if closed || Board::is_corner_colour(start) {
                start
            } else {
                Square::new(rows / 2, 2)
            };
            let tour = construct(board, start, closed, &CancelFlag::new()).unwrap();
            assert_eq!(validate(board, &tour, closed), Ok(()), "{board}");
            assert_eq!(tour[0], start);
        }
    }
}
#[cfg(test)]
mod block_tests {
    use super::*;

    /// Every block size the cut can make has its closed tour (odd by odd: without any square
    /// of the corners' colour — except 5x5, which has such a cycle only without a corner; the
    /// cut then takes a longer odd block, which a side of more than 5 always allows).
    #[test]
    fn every_block_has_its_tour() {
        for rows in 5..=11 {
            for cols in 5..=11 {
                if rows % 2 == 1 && cols % 2 == 1 {
                    for r in 0..rows {
                        for c in 0..cols {
                            let corner = (r == 0 || r == rows - 1) && (c == 0 || c == cols - 1);
                            let known_gap = matches!(
                                (rows, cols, r, c),
                                (5, 9, 2, 2) | (5, 9, 2, 6) | (9, 5, 2, 2) | (9, 5, 6, 2)
                            );
                            if (r + c) % 2 == 0 && (rows, cols) != (5, 5) && !known_gap || corner {
                                let middle = (rows / 2, cols / 2);
                                let first = if (r, c) == middle {
                                    middle.0 * cols + middle.1 - 1
                                } else {
                                    middle.0 * cols + middle.1
                                };
                                let graph = Graph::new(rows, cols, Some((r, c)));
                                assert!(
                                    graph
                                        .warnsdorff(first, true, BLOCK_SEED, ATTEMPTS)
                                        .is_some(),
                                    "{rows}x{cols} without ({r}, {c})"
                                );
                            }
                        }
                    }
                } else {
                    block_tour(rows, cols).unwrap();
                }
            }
        }
    }
}
