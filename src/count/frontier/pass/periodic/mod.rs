//! The periodic transfer: in the middle of a long board every row's squares act on states as
//! the same squares a row earlier do, so the next `p` rows map states in the same way every
//! time. Their squares are then recorded once, as sparse matrices over sets of states closed
//! under the period (every state the period can reach from its set is in it), and every later
//! row in the middle of the board costs a few sparse matrix–vector products: no state is
//! generated, hashed or looked up again.
//!
//! The sets are closed, not waited for: the states after a row grow for many rows before they
//! repeat (six rows' open tours still gain states after twelve rows), but from the rows the
//! pass chooses (`pass`), the states every later row can reach are found at once, round after
//! round of the new states only (`record`). A state no row has reached yet is simply counted 0.
//!
//! A matrix is kept in pull form, each next state with the states it comes from, so that the
//! next states are summed independently, on every thread (`matrix`, and `products`, where
//! the kernel that runs counts through the matrices is chosen).

mod matrix;
mod products;
mod record;

pub(crate) use self::matrix::SquareTransfer;
pub(crate) use self::products::{PeriodCounts, Rayon};

/// The longest period looked for, in rows.
pub(crate) const MAX_PERIOD: usize = 4;
/// The squares of one period, recorded over sets of states closed under it.
pub(crate) struct Period<K = u64> {
    /// The first square recorded.
    pub(crate) first: usize,
    pub(crate) squares: Vec<SquareTransfer<K>>,
}

impl<K> Period<K> {
    /// The states the period starts from and ends at.
    pub(crate) fn start_states(&self) -> usize {
        self.squares.last().map_or(0, |square| square.keys.len())
    }

    /// The period's length in squares.
    pub(crate) fn len(&self) -> usize {
        self.squares.len()
    }

    /// The matrix of square `v`, which lies a whole number of periods after the first.
    pub(crate) fn square(&self, v: usize) -> &SquareTransfer<K> {
        &self.squares[(v - self.first) % self.len()]
    }

    /// The bytes the matrices hold.
    pub(crate) fn bytes(&self) -> u64 {
        self.squares.iter().map(SquareTransfer::bytes).sum()
    }
}
