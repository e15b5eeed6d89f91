//! The plain backtracking counter: the textbook algorithm, kept as the reference that the fast
//! engines are tested and benchmarked against.
//!
//! It walks every sequence of knight's moves from the start, trying the eight moves in a fixed
//! order, and counts the sequences that visit every square (and, for closed tours, end a
//! knight's move from the start). No pruning, no memo, no bitsets: slow, but obviously right.

use crate::board::{Board, KNIGHT_MOVES, Square};
use crate::cancel::CancelFlag;
use crate::count::Limits;
use crate::error::Error;

/// Counts the open tours of `board` that start on `start`, by plain backtracking.
///
/// Every board size is accepted, but the running time grows exponentially: past 30 or so
/// squares it takes minutes to days. `limits.cancel` stops it early (it keeps no table, so the budget is not needed) with [`Error::Interrupted`].
pub fn count_open_tours(board: Board, start: Square, limits: &Limits) -> Result<u128, Error> {
    let cancel = &limits.cancel;
    count(board, start, None, false, cancel)
}

/// Counts the closed tours of `board` from `start`, as directed sequences (each cycle through
/// the start is walked in both directions, so this is twice the number of cycles).
pub fn count_closed_tours(board: Board, start: Square, limits: &Limits) -> Result<u128, Error> {
    let cancel = &limits.cancel;
    count(board, start, None, true, cancel)
}

/// Counts the open tours of `board` from `start` that end on `end`, by plain backtracking.
pub fn count_open_tours_between(
    board: Board,
    start: Square,
    end: Square,
    limits: &Limits,
) -> Result<u128, Error> {
    let cancel = &limits.cancel;
    board.check_square(end)?;
    count(board, start, Some(end), false, cancel)
}

/// Counts the tours of `board` (open, or closed when `closed`), from every start, whose step
/// numbers agree with `steps` (one entry per square, row-major; `Some(k)`: the square must be
/// step `k`, from 1), by plain backtracking: the reference for puzzles' counts. A tour is
/// counted once per numbering, so a closed tour is counted from each start and both ways.
///
/// One cut beyond plain backtracking, or puzzles of 36 squares would take days: a path that
/// can no longer reach the next given number's square in time (by the knight distance, from a
/// breadth-first search of its own) is abandoned.
pub fn count_with_steps(
    board: Board,
    steps: &[Option<u64>],
    closed: bool,
    limits: &Limits,
) -> Result<u128, Error> {
    let cancel = &limits.cancel;
    let n = board.squares() as usize;
    let distance: Vec<Vec<u64>> = (0..n).map(|i| distances_from(board, i)).collect();
    // The next given step after each step, with its square.
    let mut next_given = vec![None; n + 2];
    for step in (1..=n).rev() {
        next_given[step] = next_given[step + 1];
        if let Some(index) = steps.iter().position(|&s| s == Some(step as u64)) {
            next_given[step] = Some((step as u64, index));
        }
    }
    let mut total = 0;
    for start in board.all_squares() {
        let mut search = StepSearch {
            board,
            start,
            steps,
            distance: &distance,
            next_given: &next_given,
            closed,
            visited: vec![false; board.squares() as usize],
            found: 0,
            steps_taken: 0,
            cancel,
        };
        search.visit(start, 1)?;
        total += search.found;
    }
    Ok(total)
}

/// Knight distances from square `from` to every square (`u64::MAX`: unreachable).
fn distances_from(board: Board, from: usize) -> Vec<u64> {
    let mut distance = vec![u64::MAX; board.squares() as usize];
    distance[from] = 0;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(i) = queue.pop_front() {
        for next in board.knight_moves(board.square(i)) {
            let j = board.index(next);
            if distance[j] == u64::MAX {
                distance[j] = distance[i] + 1;
                queue.push_back(j);
            }
        }
    }
    distance
}

struct StepSearch<'a> {
    board: Board,
    start: Square,
    steps: &'a [Option<u64>],
    distance: &'a [Vec<u64>],
    next_given: &'a [Option<(u64, usize)>],
    closed: bool,
    visited: Vec<bool>,
    found: u128,
    steps_taken: u64,
    cancel: &'a CancelFlag,
}

impl StepSearch<'_> {
    fn visit(&mut self, here: Square, step: u64) -> Result<(), Error> {
        self.steps_taken += 1;
        if self.steps_taken.is_multiple_of(1 << 20) {
            self.cancel.check()?;
        }
        let index = self.board.index(here);
        if self.steps[index].is_some_and(|given| given != step) {
            return Ok(());
        }
        if let Some((given, square)) = self.next_given[step as usize + 1]
            && self.distance[index][square] > given - step
        {
            return Ok(());
        }
        if step == self.board.squares() {
            if !self.closed || Board::is_knight_move(here, self.start) {
                self.found += 1;
            }
            return Ok(());
        }
        self.visited[index] = true;
        let board = self.board;
        for next in board.knight_moves(here) {
            if !self.visited[board.index(next)] {
                self.visit(next, step + 1)?;
            }
        }
        self.visited[index] = false;
        Ok(())
    }
}

fn count(
    board: Board,
    start: Square,
    end: Option<Square>,
    closed: bool,
    cancel: &CancelFlag,
) -> Result<u128, Error> {
    board.check_square(start)?;
    let mut search = Search {
        start,
        end,
        closed,
        rows: board.rows() as i64,
        cols: board.cols() as i64,
        visited: vec![false; board.squares() as usize],
        squares: board.squares(),
        found: 0,
        steps: 0,
        cancel,
    };
    search.visit(start.row as i64, start.col as i64, 1)?;
    Ok(search.found)
}

struct Search<'a> {
    start: Square,
    end: Option<Square>,
    closed: bool,
    rows: i64,
    cols: i64,
    visited: Vec<bool>,
    squares: u64,
    found: u128,
    steps: u64,
    cancel: &'a CancelFlag,
}

impl Search<'_> {
    fn visit(&mut self, row: i64, col: i64, depth: u64) -> Result<(), Error> {
        self.steps += 1;
        if self.steps.is_multiple_of(1 << 20) {
            self.cancel.check()?;
        }
        if depth == self.squares {
            let here = Square::new(row as u32, col as u32);
            if (!self.closed || Board::is_knight_move(here, self.start))
                && self.end.is_none_or(|end| end == here)
            {
                self.found += 1;
            }
            return Ok(());
        }
        let here = (row * self.cols + col) as usize;
        self.visited[here] = true;
        for (dr, dc) in KNIGHT_MOVES {
            let (r, c) = (row + dr as i64, col + dc as i64);
            if r >= 0 && r < self.rows && c >= 0 && c < self.cols {
                let next = (r * self.cols + c) as usize;
                if !self.visited[next] {
                    self.visit(r, c, depth + 1)?;
                }
            }
        }
        self.visited[here] = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_sample() {
        let count = count_open_tours(
            Board::new(5, 4).unwrap(),
            Square::new(0, 0),
            &Limits::stopped_by(&CancelFlag::new()),
        );
        assert_eq!(count.unwrap(), 32);
    }

    /// 5x6 has 8 closed tours, 3x10 16 (both OEIS A070030's and A193055's terms), each
    /// through the corner in both directions; 3x10 backtracks in a fraction of 5x6's time.
    #[test]
    fn closed_tours_of_5x6() {
        let (board, cycles) = if crate::testing::long() {
            (Board::new(5, 6).unwrap(), 8)
        } else {
            (Board::new(3, 10).unwrap(), 16)
        };
        let count = count_closed_tours(
            board,
            Square::new(0, 0),
            &Limits::stopped_by(&CancelFlag::new()),
        );
        assert_eq!(count.unwrap(), 2 * cycles);
    }

    #[test]
    fn one_square_board_has_one_tour() {
        let count = count_open_tours(
            Board::new(1, 1).unwrap(),
            Square::new(0, 0),
            &Limits::stopped_by(&CancelFlag::new()),
        );
        assert_eq!(count.unwrap(), 1);
    }
}
