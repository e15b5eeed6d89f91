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
//!
//! The parts, each using only those before it: [`givens`] holds step numbers fixed in advance
//! (a puzzle's givens) as constraints; `counter` is the [`MemoCounter`] itself, its
//! table, the pruning rules above and its figures ([`MemoStats`]); `cycles` counts closed
//! tours with it ([`count_cycles`]) as paths through the square with the fewest neighbours;
//! `find` searches for one tour with the counter's pruning ([`find_open_tour`],
//! [`find_open_tour_between`], [`FixedPathFinder`]), and for a closed one ([`find_closed_tour`])
//! through that same square; `tests` holds the unit tests. This file is the face on top: it says
//! which boards the engine takes ([`check_board`]) and re-exports the public items.

mod counter;
mod cycles;
mod find;
pub mod givens;
#[cfg(test)]
mod tests;

use crate::board::Board;
use crate::error::Error;

pub use self::counter::{MemoCounter, MemoStats};
pub use self::cycles::count_cycles;
pub use self::find::{FixedPathFinder, find_closed_tour, find_open_tour, find_open_tour_between};

/// Ok when the memo engine counts on `board`: boards whose knight graph fits in bitsets (at
/// most [`crate::graph::MAX_BITSET_SQUARES`] squares); otherwise the error naming the limit.
pub fn check_board(board: Board) -> Result<(), Error> {
    crate::graph::check_board(board)
}
