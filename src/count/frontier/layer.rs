//! Layers: a layer maps each state to its number of ways, split into shards by key; each square
//! turns one layer into the next, on both cores. A layer being filled is a hash map a shard,
//! where equal states meet; once full, each shard is kept as two plain arrays (keys and counts,
//! 16 bytes a state with 64-bit counts), which is all that reading it needs.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use hashbrown::HashMap;
use num_bigint::BigUint;
use rayon::prelude::*;

use super::plan::{FrontierStats, Plan};
use super::rules::Outcome;
use super::state::{Codec, Word};
use super::step::Step;
use super::tally::Tally;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;

/// A finished layer: its shards, each the states of one range of key hashes.
pub(super) type Layer<T> = Vec<Shard<T>>;

/// The states of one shard of a finished layer and their counts, as two arrays of one length.
pub(super) struct Shard<T> {
    keys: Vec<u64>,
    counts: Vec<T>,
}

impl<T> Shard<T> {
    /// The map's entries as arrays; the map is freed.
    fn from_map(map: HashMap<u64, T>) -> Shard<T> {
        let mut keys = Vec::with_capacity(map.len());
        let mut counts = Vec::with_capacity(map.len());
        for (key, count) in map {
            keys.push(key);
            counts.push(count);
        }
        Shard { keys, counts }
    }

    fn single(key: u64, count: T) -> Shard<T> {
        Shard {
            keys: vec![key],
            counts: vec![count],
        }
    }

    fn empty() -> Shard<T> {
        Shard {
            keys: Vec::new(),
            counts: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The bytes the arrays hold.
    pub(super) fn bytes(&self) -> u64 {
        (self.keys.capacity() * std::mem::size_of::<u64>()
            + self.counts.capacity() * std::mem::size_of::<T>()) as u64
    }

    /// The states and their counts, by reference.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, &T)> {
        self.keys.iter().copied().zip(self.counts.iter())
    }
}

impl<T> IntoIterator for Shard<T> {
    type Item = (u64, T);
    type IntoIter = std::iter::Zip<std::vec::IntoIter<u64>, std::vec::IntoIter<T>>;

    fn into_iter(self) -> Self::IntoIter {
        self.keys.into_iter().zip(self.counts)
    }
}

/// Layers are split into this many maps, by key, so that both cores can fill one layer and
/// each map is freed as soon as it has been read.
const SHARDS: usize = 256;

/// Transitions are handed to a shard in batches of this many.
const BATCH: usize = 128;

/// Layers of fewer states are advanced on one thread.
const SEQUENTIAL_STATES: usize = 4096;

/// `$call` with the type `$Wd` set to the word that holds the plan's window: `u64` while the
/// window's slots and the colour flag fit in its 16 nibbles (up to width 7), else `u128`.
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
pub(super) use by_word;

/// Tries each count in turn, the next only when the one before overflowed (each counts in a
/// wider type): the first result that is not an overflow, or the last one's.
macro_rules! widening {
    ($last:expr $(,)?) => {
        $last
    };
    ($first:expr, $($rest:expr),+ $(,)?) => {
        match $first {
            Err($crate::error::Error::Overflow { .. }) => {
                $crate::count::frontier::layer::widening!($($rest),+)
            }
            other => other,
        }
    };
}
pub(super) use widening;

impl Plan {
    /// Runs the dynamic program over the board of `heights.end()` rows, reporting the count of
    /// every height in `heights` after its last row.
    pub(super) fn run(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        by_word!(self, Wd => self.run_word::<Wd>(heights, budget, cancel, report))
    }

    fn run_word<Wd: Word>(
        &self,
        heights: std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        // Heights are reported as soon as they are known; a run redone with wider counts
        // (after an overflow) does not report them again.
        let mut reported = std::collections::BTreeSet::new();
        let mut once = |height: usize, count: BigUint| {
            if reported.insert(height) {
                report(height, count);
            }
        };
        widening!(
            self.run_with::<Wd, u64>(&heights, budget, cancel, &mut once),
            self.run_with::<Wd, u128>(&heights, budget, cancel, &mut once),
            self.run_with::<Wd, BigUint>(&heights, budget, cancel, &mut once),
        )
    }

    fn run_with<Wd: Word, T: Tally>(
        &self,
        heights: &std::ops::RangeInclusive<usize>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(usize, BigUint),
    ) -> Result<FrontierStats, Error> {
        let codec = Codec::new(self.k);
        let mut stats = FrontierStats {
            count_bits: T::BITS,
            ..FrontierStats::default()
        };
        let mut layer = first_layer::<Wd, T>(&codec);
        let rows = *heights.end();
        let mut last_reported = 0;
        for v in 0..rows * self.w {
            cancel.check()?;
            let step = self.step::<Wd>(v, heights);
            let (next, finished) =
                self.advance(&codec, layer, &step, budget, cancel, &mut stats)?;
            layer = next;
            let states: u64 = layer.iter().map(|m| m.len() as u64).sum();
            cancel.report_pass(v as u64 + 1, (rows * self.w) as u64, states);
            if let Some(height) = step.finishes {
                report(height, finished.into_big());
                last_reported = height;
            }
            if states == 0 {
                break; // nothing can finish any more: the heights left count 0
            }
        }
        for height in (last_reported + 1).max(*heights.start())..=*heights.end() {
            report(height, BigUint::default());
        }
        Ok(stats)
    }

    /// Turns one layer into the next with the moves of one square, in parallel: returns the
    /// next layer and the ways that finished a board at this step.
    pub(super) fn advance<Wd: Word, T: Tally>(
        &self,
        codec: &Codec,
        layer: Layer<T>,
        step: &Step<Wd>,
        budget: MemoryBudget,
        cancel: &CancelFlag,
        stats: &mut FrontierStats,
    ) -> Result<(Layer<T>, T), Error> {
        let states_in: usize = layer.iter().map(Shard::len).sum();
        // Sized for half a layer like the last one: the maps grow once or twice while filled,
        // and hold little more than they need while the layer they read is still whole.
        let expected = states_in / SHARDS / 2;
        let next: Vec<Mutex<HashMap<u64, T>>> = (0..SHARDS)
            .map(|_| Mutex::new(HashMap::with_capacity(expected)))
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
        let workers =
            || -> Vec<Vec<(u64, T)>> { (0..SHARDS).map(|_| Vec::with_capacity(BATCH)).collect() };
        // A layer can take minutes on wide boards: Ctrl-C is looked at every few thousand
        // states, not only between squares.
        let stop = || {
            overflow.load(Ordering::Relaxed)
                || over_budget.load(Ordering::Relaxed)
                || cancel.is_cancelled()
        };
        let process = |buffers: &mut Vec<Vec<(u64, T)>>, shard: Shard<T>| {
            if stop() {
                return;
            }
            let shard_bytes = shard.bytes();
            let mut done = T::zero();
            let mut local_made = 0u64;
            let flush = |target: usize, buffer: &mut Vec<(u64, T)>| {
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
                self.transitions(codec, step, key, |outcome| match outcome {
                    Outcome::Next(next_key, _) => {
                        local_made += 1;
                        let target = shard_of(next_key);
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
        let maps: Vec<HashMap<u64, T>> = next
            .into_iter()
            .map(|m| m.into_inner().expect("no thread panics holding a shard"))
            .collect();
        let states: u64 = maps.iter().map(|m| m.len() as u64).sum();
        if over_budget.load(Ordering::Relaxed) {
            return Err(Error::MemoryBudget {
                board: self.board,
                square: step.v,
                states,
                bytes: bytes.load(Ordering::Relaxed),
                budget: budget.bytes(),
                shared_by: 1,
            });
        }
        // Each map becomes arrays and is freed, a few at a time.
        let layer: Layer<T> = maps.into_par_iter().map(Shard::from_map).collect();
        let held: u64 = layer.iter().map(Shard::bytes).sum();
        stats.transitions += made.load(Ordering::Relaxed);
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

/// The layer before the first square: its one state, whose window holds squares that do not
/// exist (done), in one way.
pub(super) fn first_layer<Wd: Word, T: Tally>(codec: &Codec) -> Layer<T> {
    let initial = codec.initial::<Wd>();
    let mut layer: Layer<T> = (0..SHARDS).map(|_| Shard::empty()).collect();
    layer[shard_of(initial)] = Shard::single(initial, T::one());
    layer
}

fn shard_of(key: u64) -> usize {
    ((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize) % SHARDS
}
