//! What a pass needs of a frontier, and the words every frontier shares: the squares in the
//! order it takes them, each as a step that turns a state into the states it can go on to
//! ([`Sweep`], the spec of a frontier), what one choice of moves leads to ([`Outcome`]), and
//! what a slot of a state holds (the slot codes). The layers, the period and the pass
//! (`pass`) run over any [`Sweep`]: the window of processed squares (`window`, the engine's
//! own) or the boundary of unprocessed ones (`boundary`), which series take where it holds
//! fewer states.

/// A frontier's squares, one step each, over states packed into `u64` keys.
pub(crate) trait Sweep: Sync {
    /// What one square does, whatever the state.
    type Step: Send + Sync;
    /// The step of the `v`-th square taken.
    fn step(&self, v: usize) -> Self::Step;
    /// Every state `key` goes on to at `step`, and the ways it finishes a board there.
    fn transitions(&self, step: &Self::Step, key: u64, emit: impl FnMut(Outcome));
    /// The height of the board that `step` finishes, if any.
    fn finishes(step: &Self::Step) -> Option<usize>;
    /// Two steps that act alike on states, both finishing a board or neither: a square and
    /// the same square a period of rows later.
    fn same_transfer(a: &Self::Step, b: &Self::Step) -> bool;
    /// The state before the first square.
    fn initial(&self) -> u64;
    /// The same sweep over a strip that goes on past the board's last row, finishing the
    /// same boards: its rows near the board's end act as those in the middle (a square there
    /// no longer sees the end), so a recorded period runs on to the end as products. Its
    /// steps equal this sweep's away from the end. `None` where the sweep has no such form.
    fn unending(&self) -> Option<Self>
    where
        Self: Sized;
}

/// What one choice of moves leads to; the moves are the slots joined to the new square, as a
/// bit mask.
pub(crate) enum Outcome {
    Next(u64, u32),
    Finished(u32),
}

impl Outcome {
    /// The state reached (`None`: a finished board) and the moves.
    pub(crate) fn parts(self) -> (Option<u64>, u32) {
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
