//! What a pass needs of a frontier, and the words every frontier shares: the squares in the
//! order it takes them, each as a step that turns a state into the states it can go on to
//! ([`Sweep`], the spec of a frontier), what one choice of moves leads to ([`Outcome`]), and
//! what a slot of a state holds (the slot codes). The layers, the period and the pass
//! (`pass`) run over any [`Sweep`]: the window of processed squares (`window`, the engine's
//! own) or the boundary of unprocessed ones (`boundary`), which series take where it holds
//! fewer states.

/// A state packed into a machine word: `u64`, or `u128` where a window's states outgrow it
/// (width 9: 19 slots of 12 codes). Chosen once for a pass, so that a layer of `u64` keys
/// holds no more bytes a state than it needs.
pub(crate) trait Key:
    Copy + Eq + Ord + std::hash::Hash + Send + Sync + std::fmt::Debug + 'static
{
    /// The bits of the key.
    const BITS: u32;
    fn from_u128(value: u128) -> Self;
    fn to_u128(self) -> u128;
    /// The key's bits folded into 64, for choosing its shard (the key itself in a `u64`).
    fn fold(self) -> u64;
}

impl Key for u64 {
    const BITS: u32 = 64;
    fn from_u128(value: u128) -> Self {
        value as u64
    }
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        self
    }
}

impl Key for u128 {
    const BITS: u32 = 128;
    fn from_u128(value: u128) -> Self {
        value
    }
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        // The high half is mixed in before the shard's hash, which spreads low bits best.
        (self as u64) ^ ((self >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// A frontier's squares, one step each, over states packed into keys.
pub(crate) trait Sweep: Sync {
    /// What one square does, whatever the state.
    type Step: Send + Sync;
    /// The word its states are packed into.
    type Key: Key;
    /// The step of the `v`-th square taken.
    fn step(&self, v: usize) -> Self::Step;
    /// Every state `key` goes on to at `step`, and the ways it finishes a board there.
    fn transitions(&self, step: &Self::Step, key: Self::Key, emit: impl FnMut(Outcome<Self::Key>));
    /// The height of the board that `step` finishes, if any.
    fn finishes(step: &Self::Step) -> Option<usize>;
    /// Two steps that act alike on states, both finishing a board or neither: a square and
    /// the same square a period of rows later.
    fn same_transfer(a: &Self::Step, b: &Self::Step) -> bool;
    /// The state before the first square.
    fn initial(&self) -> Self::Key;
    /// The same sweep over a strip that goes on past the board's last row, finishing the
    /// same boards: its rows near the board's end act as those in the middle (a square there
    /// no longer sees the end), so a recorded period runs on to the end as products. Its
    /// steps equal this sweep's away from the end. `None` where the sweep has no such form.
    fn unending(&self) -> Option<Self>
    where
        Self: Sized;
    /// The choices made when the sweep was built that its type does not say, for naming a
    /// pass's checkpoint (see `pass::checkpoint`).
    fn describe(&self) -> String {
        String::new()
    }
}

/// What one choice of moves leads to; the moves are the slots joined to the new square, as a
/// bit mask.
pub(crate) enum Outcome<K = u64> {
    Next(K, u32),
    Finished(u32),
}

impl<K> Outcome<K> {
    /// The state reached (`None`: a finished board) and the moves.
    pub(crate) fn parts(self) -> (Option<K>, u32) {
        match self {
            Outcome::Next(key, moves) => (Some(key), moves),
            Outcome::Finished(moves) => (None, moves),
        }
    }
}

// What a slot of a state holds, in every frontier.

/// Degree 0: not yet reached.
pub(crate) const EMPTY: u8 = 0;
/// Degree 2: done.
pub(crate) const FULL: u8 = 1;
/// Degree 1, and the other end of its path is a tour end that has already left the window.
pub(crate) const DANGLING: u8 = 2;
/// Degree 1, the end of a path whose other end carries the same label.
pub(crate) const FIRST_LABEL: u8 = 3;
