//! Layers: a layer maps each state to its number of ways, split into shards by key; each square
//! turns one layer into the next, on all threads. A layer being filled is a hash map a shard,
//! where equal states meet; once full, each shard is kept as two plain arrays (keys and counts,
//! 16 bytes a state with 64-bit counts), which is all that reading it needs.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use hashbrown::HashMap;
use rayon::prelude::*;

use crate::count::Limits;
use crate::count::frontier::counts::tally::Tally;
use crate::count::frontier::plan::{FrontierStats, Plan};
use crate::count::frontier::sweep::Outcome;
use crate::count::frontier::sweep::{Key, Sweep};
use crate::error::Error;

/// A finished layer: its shards, each the states of one range of key hashes, and the sizes of
/// the layers before it. Keys are `u64` unless the pass chose `u128` (see [`by_key`]).
pub(crate) struct Layer<T, K = u64> {
    shards: Vec<Shard<T, K>>,
    growth: Growth,
}

impl<T, K> Layer<T, K> {
    /// The layer's states.
    pub(crate) fn states(&self) -> u64 {
        self.shards.iter().map(|shard| shard.len() as u64).sum()
    }

    /// The layer's shards.
    #[cfg(test)]
    pub(crate) fn shards(&self) -> &[Shard<T, K>] {
        &self.shards
    }
}

impl<T: Send, K: Key> Layer<T, K> {
    /// The layer before the first square: its one state `initial`, in one way, on a board of
    /// width `w`.
    pub(crate) fn first(initial: K, w: usize) -> Layer<T, K>
    where
        T: Tally,
    {
        let mut shards: Vec<Shard<T, K>> = (0..MIN_SHARDS).map(|_| Shard::empty()).collect();
        shards[shard_of(initial, MIN_SHARDS)] = Shard::single(initial, T::one());
        Layer {
            shards,
            growth: Growth::new(w),
        }
    }

    /// The layer's states in the order of their keys, as two arrays, and the sizes of the
    /// layers before it.
    pub(crate) fn into_sorted(self) -> (Vec<K>, Vec<T>, Growth) {
        let mut states: Vec<(K, T)> = self.shards.into_iter().flatten().collect();
        states.par_sort_unstable_by_key(|(key, _)| *key);
        let (keys, counts) = states.into_iter().unzip();
        (keys, counts, self.growth)
    }

    /// The layer of these states (distinct keys), after the layers whose sizes `growth` has.
    pub(crate) fn from_states(keys: Vec<K>, counts: Vec<T>, growth: Growth) -> Layer<T, K> {
        let mut layer = Layer::gathering(keys.len() as u64, growth);
        for (key, count) in keys.into_iter().zip(counts) {
            layer.push(key, count);
        }
        layer
    }

    /// An empty layer sharded for `states` states, to [`Layer::push`] them into.
    pub(crate) fn gathering(states: u64, growth: Growth) -> Layer<T, K> {
        let shards = shard_plan(states).0;
        Layer {
            shards: (0..shards).map(|_| Shard::empty()).collect(),
            growth,
        }
    }

    /// Adds a state whose key the layer does not have.
    pub(crate) fn push(&mut self, key: K, count: T) {
        let shards = self.shards.len();
        let shard = &mut self.shards[shard_of(key, shards)];
        shard.keys.push(key);
        shard.counts.push(count);
    }

    /// The states and their counts, by reference, shard by shard.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (K, &T)> {
        self.shards.iter().flat_map(Shard::iter)
    }

    /// The sizes of the layers before it.
    pub(crate) fn growth(&self) -> &Growth {
        &self.growth
    }
}

impl<T, K> IntoIterator for Layer<T, K> {
    type Item = Shard<T, K>;
    type IntoIter = std::vec::IntoIter<Shard<T, K>>;

    fn into_iter(self) -> Self::IntoIter {
        self.shards.into_iter()
    }
}

/// The states of one shard of a finished layer and their counts, as two arrays of one length.
pub(crate) struct Shard<T, K = u64> {
    keys: Vec<K>,
    counts: Vec<T>,
}

impl<T, K> Shard<T, K> {
    /// The map's entries as arrays; the map is freed.
    fn from_map(map: HashMap<K, T>) -> Shard<T, K> {
        let mut keys = Vec::with_capacity(map.len());
        let mut counts = Vec::with_capacity(map.len());
        for (key, count) in map {
            keys.push(key);
            counts.push(count);
        }
        Shard { keys, counts }
    }

    fn single(key: K, count: T) -> Shard<T, K> {
        Shard {
            keys: vec![key],
            counts: vec![count],
        }
    }

    fn empty() -> Shard<T, K> {
        Shard {
            keys: Vec::new(),
            counts: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The bytes the arrays hold.
    pub(crate) fn bytes(&self) -> u64 {
        (self.keys.capacity() * std::mem::size_of::<K>()
            + self.counts.capacity() * std::mem::size_of::<T>()) as u64
    }

    /// The states and their counts, by reference.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (K, &T)>
    where
        K: Copy,
    {
        self.keys.iter().copied().zip(self.counts.iter())
    }
}

impl<T, K> IntoIterator for Shard<T, K> {
    type Item = (K, T);
    type IntoIter = std::iter::Zip<std::vec::IntoIter<K>, std::vec::IntoIter<T>>;

    fn into_iter(self) -> Self::IntoIter {
        self.keys.into_iter().zip(self.counts)
    }
}

/// Layers are split into at least this many shards, by key, so that all threads can fill one
/// layer and each shard is freed as soon as it has been read.
const MIN_SHARDS: usize = 64;

/// The buckets of a large layer's maps once filled. A large layer has as many shards as make
/// each map fill `FILL` of them when the layer grows as predicted: hashbrown holds a map to at
/// most 7/8 of its buckets, a power of two, so maps sized by count alone would be anywhere
/// between 7/16 and 7/8 full, and hold 19 to 39 bytes a state.
const SHARD_BUCKETS: usize = 1 << 16;

/// The share of its buckets a large layer's map is expected to fill (hashbrown doubles a map
/// at 7/8).
const FILL: f64 = 0.8;

/// The sizes of the layers so far, to predict the next: the layers grow at one column much as
/// they did at the same column a row before.
pub(crate) struct Growth {
    w: usize,
    /// The states after each square, in order.
    sizes: Vec<u64>,
}

impl Growth {
    pub(crate) fn new(w: usize) -> Growth {
        Growth {
            w,
            sizes: Vec::new(),
        }
    }

    /// The growth of a pass of width `w` whose layers so far had these sizes (a pass resumed).
    pub(crate) fn from_sizes(w: usize, sizes: Vec<u64>) -> Growth {
        Growth { w, sizes }
    }

    /// The states after each square so far.
    pub(crate) fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    /// The states expected after the next square, from `states_in`: the growth at the same
    /// column a row before, damped (the layers grow more slowly towards the end of a half;
    /// measured on 6x10, 7x7 and 7x8, this keeps the maps of the largest layers 55 to 80% full).
    fn predict(&self, states_in: u64) -> u64 {
        let v = self.sizes.len();
        match v.checked_sub(self.w + 1) {
            Some(before) if self.sizes[before] > 0 => {
                let ratio = self.sizes[before + 1] as f64 / self.sizes[before] as f64;
                (states_in as f64 * ratio.powf(0.6)) as u64
            }
            _ => states_in.saturating_mul(2),
        }
    }

    pub(crate) fn record(&mut self, states: u64) {
        self.sizes.push(states);
    }
}

/// How a layer expected to hold `predicted` states is split: the number of shards, and the
/// capacity each map starts with (half its buckets once full: each map doubles once, when the
/// layer it reads is more than half freed).
fn shard_plan(predicted: u64) -> (usize, usize) {
    let per_shard = (SHARD_BUCKETS as f64 * FILL) as u64;
    let shards = predicted.div_ceil(per_shard);
    if shards > MIN_SHARDS as u64 {
        (shards as usize, SHARD_BUCKETS / 2 * 7 / 8)
    } else {
        (MIN_SHARDS, (predicted / MIN_SHARDS as u64 / 2) as usize)
    }
}

/// Transitions are handed to a shard in batches of this many.
const BATCH: usize = 128;

/// Layers of fewer states are advanced on one thread.
const SEQUENTIAL_STATES: usize = 4096;

/// `$call` with the type `$Wd` set to the word that holds the plan's window: `u64` while the
/// window's slots and the colour flag fit in its 16 nibbles (up to width 7), else `u128`. The
/// passes choose their keys with `by_key`; the tests' passes of `u64` keys use it alone.
#[cfg(test)]
macro_rules! by_word {
    ($plan:expr, $Wd:ident => $call:expr) => {
        if $plan.k < 16 {
            type $Wd = u64;
            $call
        } else {
            type $Wd = u128;
            $call
        }
    };
}
#[cfg(test)]
pub(crate) use by_word;

/// `$call` with the type `$Wd` set to the word that holds the plan's window (as `by_word`
/// chooses it) and `$K` to the key a layer packs it into: `u64` up to width 8 (base 12 at width 8), `u128` at
/// width 9 (12^19 passes 2^64), or where the plan asks for wide keys (the tests', to compare
/// the two). Chosen once a pass: a `u64` key costs no more bytes a state than before.
macro_rules! by_key {
    ($plan:expr, $Wd:ident, $K:ident => $call:expr) => {
        if $plan.wide_keys || $plan.k > 17 {
            type $Wd = u128;
            type $K = u128;
            $call
        } else if $plan.k < 16 {
            type $Wd = u64;
            type $K = u64;
            $call
        } else {
            type $Wd = u128;
            type $K = u64;
            $call
        }
    };
}
pub(crate) use by_key;

/// Tries each count in turn, the next only when the one before overflowed (each counts in a
/// wider type): the first result that is not an overflow, or the last one's.
macro_rules! widening {
    ($last:expr $(,)?) => {
        $last
    };
    ($first:expr, $($rest:expr),+ $(,)?) => {
        match $first {
            Err($crate::error::Error::Overflow { .. }) => {
                $crate::count::frontier::pass::layer::widening!($($rest),+)
            }
            other => other,
        }
    };
}
pub(crate) use widening;

impl Plan {
    /// Turns one layer into the next with the moves of one square, in parallel: returns the
    /// next layer and the ways that finished a board at this step.
    // The square's index `v` is only for the budget's error; the rest is what a step reads.
    pub(crate) fn advance<S: Sweep, T: Tally>(
        &self,
        sweep: &S,
        layer: Layer<T, S::Key>,
        step: &S::Step,
        v: usize,
        limits: &Limits,
        stats: &mut FrontierStats,
    ) -> Result<(Layer<T, S::Key>, T), Error> {
        let Limits { budget, cancel } = limits;
        let budget = *budget;
        let Layer {
            shards: layer,
            mut growth,
        } = layer;
        let states_in: usize = layer.iter().map(Shard::len).sum();
        let (shards, capacity) = shard_plan(growth.predict(states_in as u64));
        let next: Vec<Mutex<HashMap<S::Key, T>>> = (0..shards)
            .map(|_| Mutex::new(HashMap::with_capacity(capacity)))
            .collect();
        let finished: Mutex<T> = Mutex::new(T::zero());
        let overflow = AtomicBool::new(false);
        let over_budget = AtomicBool::new(false);
        // What the maps hold: the layer being read (each shard is freed once it is read) and
        // the next one as it fills.
        let bytes = AtomicU64::new(
            layer.iter().map(Shard::bytes).sum::<u64>()
                + next
                    .iter()
                    .map(|m| m.lock().map_or(0, |m| m.allocation_size() as u64))
                    .sum::<u64>(),
        );
        let peak = AtomicU64::new(bytes.load(Ordering::Relaxed));
        let made = AtomicU64::new(0);
        // Each worker keeps its batches between shards, so their memory is reused.
        let workers = || -> Vec<Vec<(S::Key, T)>> { (0..shards).map(|_| Vec::new()).collect() };
        // A layer can take minutes on wide boards: Ctrl-C is looked at every few thousand
        // states, not only between squares.
        let stop = || {
            overflow.load(Ordering::Relaxed)
                || over_budget.load(Ordering::Relaxed)
                || cancel.is_cancelled()
        };
        let process = |buffers: &mut Vec<Vec<(S::Key, T)>>, shard: Shard<T, S::Key>| {
            if stop() {
                return;
            }
            let shard_bytes = shard.bytes();
            let mut done = T::zero();
            let mut local_made = 0u64;
            let flush = |target: usize, buffer: &mut Vec<(S::Key, T)>| {
                let mut map = next[target]
                    .lock()
                    .expect("no thread panics holding a shard");
                let before = map.allocation_size();
                for (key, count) in buffer.drain(..) {
                    if !map.entry(key).or_insert_with(T::zero).add(&count) {
                        overflow.store(true, Ordering::Relaxed);
                    }
                }
                let grown = (map.allocation_size() - before) as u64;
                if grown > 0 {
                    let held = bytes.fetch_add(grown, Ordering::Relaxed) + grown;
                    peak.fetch_max(held, Ordering::Relaxed);
                    if held > budget.bytes() {
                        over_budget.store(true, Ordering::Relaxed);
                    }
                }
            };
            for (read, (key, count)) in shard.into_iter().enumerate() {
                if read % 4096 == 4095 && cancel.is_cancelled() {
                    return;
                }
                sweep.transitions(step, key, |outcome| match outcome {
                    Outcome::Next(next_key, _) => {
                        local_made += 1;
                        let target = shard_of(next_key, shards);
                        buffers[target].push((next_key, count.clone()));
                        if buffers[target].len() >= BATCH {
                            flush(target, &mut buffers[target]);
                        }
                    }
                    Outcome::Finished(_) => {
                        if !done.add(&count) {
                            overflow.store(true, Ordering::Relaxed);
                        }
                    }
                });
                if overflow.load(Ordering::Relaxed) || over_budget.load(Ordering::Relaxed) {
                    return;
                }
            }
            bytes.fetch_sub(shard_bytes, Ordering::Relaxed);
            for (target, buffer) in buffers.iter_mut().enumerate() {
                if !buffer.is_empty() {
                    flush(target, buffer);
                }
            }
            if !finished
                .lock()
                .expect("no thread panics holding the total")
                .add(&done)
            {
                overflow.store(true, Ordering::Relaxed);
            }
            made.fetch_add(local_made, Ordering::Relaxed);
        };
        if states_in < SEQUENTIAL_STATES {
            // A small layer: one thread, one set of buffers (threads would cost more).
            let mut buffers = workers();
            for shard in layer {
                process(&mut buffers, shard);
            }
        } else {
            layer.into_par_iter().for_each_init(workers, process);
        }
        cancel.check()?;
        if overflow.load(Ordering::Relaxed) {
            return Err(Error::Overflow { board: self.board });
        }
        let maps: Vec<HashMap<S::Key, T>> = next
            .into_iter()
            .map(|m| m.into_inner().expect("no thread panics holding a shard"))
            .collect();
        let states: u64 = maps.iter().map(|m| m.len() as u64).sum();
        if over_budget.load(Ordering::Relaxed) {
            return Err(Error::MemoryBudget {
                board: self.board,
                square: v,
                states,
                bytes: bytes.load(Ordering::Relaxed),
                budget: budget.bytes(),
                shared_by: 1,
            });
        }
        // Each map becomes arrays and is freed, a few at a time.
        let layer: Vec<Shard<T, S::Key>> = maps.into_par_iter().map(Shard::from_map).collect();
        let held: u64 = layer.iter().map(Shard::bytes).sum();
        growth.record(states);
        let layer = Layer {
            shards: layer,
            growth,
        };
        stats.transitions += made.load(Ordering::Relaxed);
        stats.layer_states += states;
        stats.peak_both_bytes = stats.peak_both_bytes.max(peak.load(Ordering::Relaxed));
        if states > stats.peak_states {
            stats.peak_states = states;
            stats.peak_bytes = held;
        }
        let finished = finished
            .into_inner()
            .expect("no thread panics holding the total");
        Ok((layer, finished))
    }
}

/// The layer before the first square: its one state `initial`, in one way, on a board of
/// width `w` (the tests').
#[cfg(test)]
pub(crate) fn first_layer<T: Tally>(initial: u64, w: usize) -> Layer<T> {
    Layer::first(initial, w)
}

/// The shard of `key` among `shards`: the high bits of a hash that mixes every bit of the key
/// (MurmurHash3's finalizer; packed keys differ in few bits), scaled.
#[inline(always)]
pub(crate) fn shard_of<K: Key>(key: K, shards: usize) -> usize {
    let mut hash = key.fold();
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    hash ^= hash >> 33;
    (((hash >> 32) * shards as u64) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key lands in a shard that exists, and the shards of a large layer share the keys
    /// evenly (within a few percent of the mean), whatever their number.
    #[test]
    fn shards_share_keys_evenly() {
        for shards in [MIN_SHARDS, 100, 1879, 4097] {
            let mut sizes = vec![0u64; shards];
            let keys = 200 * shards as u64;
            // Keys as the engine makes them: packed nibbles, many alike in their low bits.
            for i in 0..keys {
                let key = i.wrapping_mul(0x1_0000_0001) ^ (i << 40);
                sizes[shard_of(key, shards)] += 1;
            }
            let (least, most) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(
                *least >= 140 && *most <= 260,
                "{shards} shards: {least}..{most}"
            );
        }
    }

    /// A large layer's maps start at half their buckets and fill `FILL` of them as predicted; a
    /// small layer has the fewest shards.
    #[test]
    fn shard_plans_fill_their_maps() {
        let (shards, capacity) = shard_plan(100_000_000);
        let per_shard = 100_000_000 / shards as u64;
        let filled = per_shard as f64 / SHARD_BUCKETS as f64;
        assert!((FILL - 0.01..=FILL).contains(&filled), "{filled}");
        assert_eq!(capacity, SHARD_BUCKETS / 2 * 7 / 8);
        assert_eq!(shard_plan(1000), (MIN_SHARDS, 7));
        assert_eq!(shard_plan(0).0, MIN_SHARDS);
    }

    /// The prediction follows the growth a row before, damped; with no row before, a doubling.
    #[test]
    fn growth_predicts_from_the_row_before() {
        let mut growth = Growth::new(2);
        assert_eq!(growth.predict(10), 20);
        for states in [10, 100, 50, 400] {
            growth.record(states);
        }
        // Next is square 4: a row (2 squares) before, square 2 grew from 100 to 50.
        let expected = (400.0 * 0.5f64.powf(0.6)) as u64;
        assert_eq!(growth.predict(400), expected);
    }
}
