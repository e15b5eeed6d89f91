//! A recorded square as a sparse matrix, in pull form: each state after the square with the
//! states it comes from. How counts are run through it is `products`'.

/// One square as a matrix from the states before it to the states after it, each set in the
/// order its states were first reached.
pub(crate) struct SquareTransfer<K = u64> {
    /// The states after the square.
    pub(crate) keys: Vec<K>,
    /// Next state `t` comes from the states `sources[offsets[t]..offsets[t + 1]]` (a state
    /// reached twice from one state is listed twice).
    pub(crate) offsets: Vec<u32>,
    pub(crate) sources: Vec<u32>,
    /// The states that finish a board at this square (as often as they do).
    pub(crate) finished: Vec<u32>,
}
impl<K> SquareTransfer<K> {
    /// The states after the square.
    pub(crate) fn keys(&self) -> &[K] {
        &self.keys
    }

    /// The transitions the square makes.
    pub(crate) fn transitions(&self) -> u64 {
        (self.sources.len() + self.finished.len()) as u64
    }

    /// The bytes the matrix holds.
    pub(crate) fn bytes(&self) -> u64 {
        (self.keys.capacity() * std::mem::size_of::<K>()
            + (self.offsets.capacity() + self.sources.capacity() + self.finished.capacity()) * 4)
            as u64
    }
}
