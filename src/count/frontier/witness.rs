//! Reading one tour back: the sets of reachable states, square by square, then from the end a
//! state of each layer that leads to the one chosen after it, and the moves between them.

use hashbrown::HashMap;

use super::plan::Plan;
use crate::board::Square;
use crate::cancel::CancelFlag;
use crate::count::frontier::sweep::Outcome;
use crate::count::frontier::window::state::Codec;
use crate::count::frontier::window::step::{Step, same_step};
use crate::error::Error;

/// The most bytes of distinct layers that [`Plan::witness_edges_periodic`] keeps.
const WITNESS_LAYER_BYTES: usize = 256 << 20;

/// For one layer and step: from each state reached (`None`: a finished board) to the first state
/// of the layer that leads to it, and its moves.
type Predecessors = HashMap<Option<u64>, (u64, u32)>;

/// What [`Plan::witness_edges_periodic`] found.
pub(super) enum Witness {
    /// The moves of one tour, as pairs of row-major squares of the oriented board.
    Found(Vec<(usize, usize)>),
    /// There is no tour.
    NoTour,
    /// The distinct layers would take more than [`WITNESS_LAYER_BYTES`]: use
    /// [`Plan::witness_edges`].
    TooManyLayers,
}

impl Plan {
    /// The states after square `v` reachable from `layer` (sorted), and whether a board
    /// finishes at `v`.
    fn next_states(&self, codec: &Codec, step: &Step<u64>, layer: &[u64]) -> (Vec<u64>, bool) {
        let mut next = hashbrown::HashSet::new();
        let mut finished = false;
        for &key in layer {
            self.transitions(codec, step, key, |outcome| match outcome {
                Outcome::Next(next_key, _) => {
                    next.insert(next_key);
                }
                Outcome::Finished(_) => finished = true,
            });
        }
        let mut next: Vec<u64> = next.into_iter().collect();
        next.sort_unstable();
        (next, finished)
    }

    /// The first state of `layer` (and its moves) that leads to `target` (`None`: finishing).
    fn predecessor(
        &self,
        codec: &Codec,
        step: &Step<u64>,
        layer: &[u64],
        target: Option<u64>,
    ) -> Option<(u64, u32)> {
        let mut found = None;
        for &key in layer {
            self.transitions(codec, step, key, |outcome| {
                let (to, moves) = outcome.parts();
                if found.is_none() && to == target {
                    found = Some((key, moves));
                }
            });
            if found.is_some() {
                break;
            }
        }
        found
    }

    /// Adds the moves of square `v` (a mask of window slots) to `edges`.
    fn push_moves(&self, v: usize, moves: u32, edges: &mut Vec<(usize, usize)>) {
        for slot in 0..self.k {
            if moves & (1 << slot) != 0 {
                edges.push((v + slot - self.k, v));
            }
        }
    }

    /// [`Plan::witness_edges`] for long boards, in time linear in the length with a small
    /// constant: away from the top, the bottom and the start, two rows of steps are the same as
    /// the two rows before them, so once a layer equals the one two rows earlier, the layers
    /// repeat and are shared, not computed. Reading the tour back uses, for each distinct
    /// layer, a table from each state to one state before it.
    pub(super) fn witness_edges_periodic(&self, cancel: &CancelFlag) -> Result<Witness, Error> {
        use std::sync::Arc;
        let codec = Codec::new(self.k);
        let heights = self.h..=self.h;
        let n = self.n;
        let period = 2 * self.w;
        let initial = codec.initial::<u64, u64>();
        let steps: Vec<Step<u64>> = (0..n).map(|v| self.step::<u64>(v, &heights)).collect();
        // Steps in classes: v is in the class of v - period when the two act alike.
        let mut class = vec![0usize; n];
        for v in 0..n {
            class[v] = if v >= period && same_step(&steps[v], &steps[v - period]) {
                class[v - period]
            } else {
                v
            };
        }
        // layers[v]: the states before square v.
        let mut layers: Vec<Arc<Vec<u64>>> = Vec::with_capacity(n);
        layers.push(Arc::new(vec![initial]));
        let mut held = 0usize;
        let mut finished = false;
        for v in 0..n {
            if v % 1024 == 0 {
                cancel.check()?;
            }
            let layer = &layers[v];
            if v + 1 < n
                && class[v] != v
                && (Arc::ptr_eq(layer, &layers[v - period]) || **layer == *layers[v - period])
            {
                let repeated = layers[v + 1 - period].clone();
                layers.push(repeated);
                continue;
            }
            let (next, finishes) = self.next_states(&codec, &steps[v], layer);
            if v + 1 == n {
                finished = finishes;
                break;
            }
            if next.is_empty() {
                return Ok(Witness::NoTour);
            }
            held += next.len() * 8;
            if held > WITNESS_LAYER_BYTES {
                return Ok(Witness::TooManyLayers);
            }
            layers.push(Arc::new(next));
        }
        if !finished {
            return Ok(Witness::NoTour);
        }
        // Read the tour back from the end: at square v, a state of layers[v] that leads to the
        // state chosen after it. One table per distinct layer and step.
        let mut edges = Vec::with_capacity(n);
        let mut target: Option<u64> = None; // None: "finishes"
        // Tables of shared layers, by layer and step class (a repeated stretch uses a few).
        let mut tables: HashMap<(usize, usize), Predecessors> = HashMap::new();
        let build = |layer: &[u64], v: usize| {
            let mut table = HashMap::new();
            for &key in layer {
                self.transitions(&codec, &steps[v], key, |outcome| {
                    let (to, moves) = outcome.parts();
                    table.entry(to).or_insert((key, moves));
                });
            }
            table
        };
        for v in (0..n).rev() {
            if v % 1024 == 0 {
                cancel.check()?;
            }
            let layer = &layers[v];
            let chosen = if Arc::strong_count(layer) > 1 {
                if tables.len() > 8 * period {
                    tables.clear();
                }
                let table = tables
                    .entry((Arc::as_ptr(layer) as usize, class[v]))
                    .or_insert_with(|| build(layer, v));
                table.get(&target).copied()
            } else {
                // Used once: the first state that leads to the target.
                self.predecessor(&codec, &steps[v], layer, target)
            };
            let (key, moves) = chosen.expect("a layer leads to the state chosen after it");
            self.push_moves(v, moves, &mut edges);
            target = Some(key);
        }
        Ok(Witness::Found(edges))
    }

    /// The moves of one tour, as pairs of row-major squares of the oriented board, or `None`
    /// when there is no tour.
    pub(super) fn witness_edges(
        &self,
        cancel: &CancelFlag,
    ) -> Result<Option<Vec<(usize, usize)>>, Error> {
        let codec = Codec::new(self.k);
        let heights = self.h..=self.h;
        let n = self.n;
        let initial = codec.initial::<u64, u64>();
        // Layer v is the set of states before square v; every `stride`-th is kept.
        let stride = (n as f64).sqrt().ceil() as usize;
        let advance = |layer: &[u64], v: usize| -> (Vec<u64>, bool) {
            self.next_states(&codec, &self.step::<u64>(v, &heights), layer)
        };
        let mut kept: Vec<Vec<u64>> = Vec::new();
        let mut layer = vec![initial];
        for v in 0..n {
            cancel.check()?;
            if v % stride == 0 {
                kept.push(layer.clone());
            }
            let (next, finished) = advance(&layer, v);
            if v + 1 == n {
                if !finished {
                    return Ok(None);
                }
            } else if next.is_empty() {
                return Ok(None);
            }
            layer = next;
        }
        // Read the tour back: at each square, a state of the layer before it that leads to the
        // state already chosen after it (at the last square: one that finishes).
        let mut edges = Vec::with_capacity(n);
        let mut target: Option<u64> = None; // None: "finishes"
        while let Some(checkpoint) = kept.pop() {
            cancel.check()?;
            let block = kept.len();
            let first = block * stride;
            let last = ((block + 1) * stride).min(n);
            let mut layers = vec![checkpoint];
            for v in first..last - 1 {
                let (next, _) = advance(&layers[layers.len() - 1], v);
                layers.push(next);
            }
            for v in (first..last).rev() {
                let step = self.step::<u64>(v, &heights);
                let (key, moves) = self
                    .predecessor(&codec, &step, &layers[v - first], target)
                    .expect("a kept layer leads to the chosen state");
                self.push_moves(v, moves, &mut edges);
                target = Some(key);
            }
        }
        Ok(Some(edges))
    }

    /// The tour whose moves are `edges` (row-major squares of the oriented board), walked from
    /// `start`: its squares in order, on the board as asked.
    pub(super) fn walk(&self, edges: &[(usize, usize)], start: Square) -> Vec<Square> {
        let n = self.n;
        let mut links: Vec<[usize; 2]> = vec![[usize::MAX; 2]; n];
        for &(a, b) in edges {
            for (from, to) in [(a, b), (b, a)] {
                let slot = if links[from][0] == usize::MAX { 0 } else { 1 };
                links[from][slot] = to;
            }
        }
        let mut order = Vec::with_capacity(n);
        let (mut previous, mut at) = (usize::MAX, self.index(start));
        for _ in 0..n {
            order.push(self.square(at));
            let [x, y] = links[at];
            let next = if x != previous { x } else { y };
            if next == usize::MAX {
                break;
            }
            previous = at;
            at = next;
        }
        order
    }
}
