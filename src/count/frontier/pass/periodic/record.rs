//! Recording a period: the sets of states closed under its squares, and each square's moves
//! between them as a matrix in pull form.
//!
//! A set is split into shards by key, so that all threads number the states a square reaches
//! at once. While the sets grow a state is numbered within its shard; once they are closed
//! they are numbered densely, the period's start states first (in their order, as the counts
//! of the layer the period starts from are), and each matrix is put in pull form by counting
//! the moves into each state (no sort).

use hashbrown::HashMap;
use rayon::prelude::*;

use super::{Period, SquareTransfer};
use crate::cancel::CancelFlag;
use crate::count::frontier::pass::layer::shard_of;
use crate::count::frontier::sweep::{Key, Outcome, Sweep};
use crate::error::Error;

/// The most times the new states may go round a period before its sets are taken as not
/// closing (the pass then goes on square by square).
const MAX_ROUNDS: usize = 1024;

/// A set's shards: while recording, a state's number is `local << SHARD_BITS | shard`.
const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;

/// The most states a shard numbers (the rest of 32 bits).
const SHARD_STATES: usize = 1 << (32 - SHARD_BITS);

/// The states one core takes through a square at a time.
const CHUNK: usize = 8192;

/// One shard of a set: its states in the order they were first reached, and their numbers.
struct SetShard<K> {
    keys: Vec<K>,
    index: HashMap<K, u32>,
}

impl<K: Key> SetShard<K> {
    fn new() -> SetShard<K> {
        SetShard {
            keys: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The number of `key` within the shard, and whether it is new; `None` past
    /// [`SHARD_STATES`].
    fn insert(&mut self, key: K) -> Option<(u32, bool)> {
        let next = self.keys.len();
        if next >= SHARD_STATES {
            return None;
        }
        let mut new = false;
        let local = *self.index.entry(key).or_insert_with(|| {
            new = true;
            next as u32
        });
        if new {
            self.keys.push(key);
        }
        Some((local, new))
    }

    /// The bytes held: the keys, and the map's buckets (a key, a number and a control byte).
    fn bytes(&self) -> u64 {
        let key = std::mem::size_of::<K>();
        (self.keys.capacity() * key + self.index.capacity() * (key + 5)) as u64
    }
}

/// What one core's chunk of states reaches at a square: the next states, each with the
/// number of the state it comes from, by the shard of their set they fall in; and the states
/// that finish a board there (as often as they do).
struct Reached<K> {
    next: Vec<Vec<(K, u32)>>,
    finished: Vec<u32>,
}

impl<K: Key> Reached<K> {
    fn new() -> Reached<K> {
        Reached {
            next: (0..SHARDS).map(|_| Vec::new()).collect(),
            finished: Vec::new(),
        }
    }

    fn push(&mut self, key: K, source: u32) {
        self.next[shard_of(key, SHARDS)].push((key, source));
    }
}

/// The states before one square of a period being recorded.
struct StateSet<K> {
    shards: Vec<SetShard<K>>,
}

impl<K: Key> StateSet<K> {
    fn new() -> StateSet<K> {
        StateSet {
            shards: (0..SHARDS).map(|_| SetShard::new()).collect(),
        }
    }

    fn key(&self, number: u32) -> K {
        self.shards[number as usize % SHARDS].keys[(number >> SHARD_BITS) as usize]
    }

    fn bytes(&self) -> u64 {
        self.shards.iter().map(SetShard::<K>::bytes).sum()
    }

    fn len(&self) -> usize {
        self.shards.iter().map(|shard| shard.keys.len()).sum()
    }

    /// Numbers the next states of `parts`, shard by shard on all threads. Returns the moves as
    /// `next << 32 | source` and the states new to the set; `None` where a shard is full.
    fn insert_all(&mut self, parts: &[Reached<K>]) -> Option<(Vec<u64>, Vec<u32>)> {
        let by_shard: Vec<Option<(Vec<u64>, Vec<u32>)>> = self
            .shards
            .par_iter_mut()
            .enumerate()
            .map(|(s, shard)| {
                let reached: usize = parts.iter().map(|part| part.next[s].len()).sum();
                let (mut moves, mut new) = (Vec::with_capacity(reached), Vec::new());
                for part in parts {
                    for &(key, source) in &part.next[s] {
                        let (local, is_new) = shard.insert(key)?;
                        let number = local << SHARD_BITS | s as u32;
                        if is_new {
                            new.push(number);
                        }
                        moves.push(u64::from(number) << 32 | u64::from(source));
                    }
                }
                Some((moves, new))
            })
            .collect();
        let mut all = (Vec::new(), Vec::new());
        for shard in by_shard {
            let (moves, new) = shard?;
            all.0.extend(moves);
            all.1.extend(new);
        }
        Some(all)
    }

    /// The set's states numbered densely: those numbered `first` come first, in that order,
    /// then the rest shard by shard. Returns the keys in that order and, shard by shard, each
    /// state's dense number.
    fn numbered(self, first: &[u32]) -> (Vec<K>, Vec<Vec<u32>>) {
        let mut dense: Vec<Vec<u32>> = self
            .shards
            .iter()
            .map(|shard| vec![u32::MAX; shard.keys.len()])
            .collect();
        let total = self.shards.iter().map(|shard| shard.keys.len()).sum();
        let mut keys = Vec::with_capacity(total);
        let mut place = |s: usize, local: usize, keys: &mut Vec<K>| {
            if dense[s][local] == u32::MAX {
                dense[s][local] = keys.len() as u32;
                keys.push(self.shards[s].keys[local]);
            }
        };
        for &number in first {
            place(
                number as usize % SHARDS,
                (number >> SHARD_BITS) as usize,
                &mut keys,
            );
        }
        for s in 0..SHARDS {
            for local in 0..self.shards[s].keys.len() {
                place(s, local, &mut keys);
            }
        }
        (keys, dense)
    }
}

/// The dense number of a state numbered `number` while recording.
fn dense(numbers: &[Vec<u32>], number: u32) -> u32 {
    numbers[number as usize % SHARDS][(number >> SHARD_BITS) as usize]
}

impl<K: Key> Period<K> {
    /// Records the squares of `steps` (whole rows, from square `first`), the last leading back
    /// to the first, over sets closed under them: from the states `start` (the head of the
    /// first set, in their order), the new states of each square are taken through it, round
    /// after round, until a square reaches none new. `None` where the sets do not close within
    /// `max_bytes` or [`MAX_ROUNDS`], or are too many to number in 32 bits.
    pub(crate) fn record_closed<S: Sweep<Key = K>>(
        sweep: &S,
        steps: &[S::Step],
        first: usize,
        start: &[K],
        max_bytes: u64,
        cancel: &CancelFlag,
    ) -> Result<Option<Period<K>>, Error> {
        let n = steps.len();
        // sets[j]: the states before square j of the period (sets[0] also those after it).
        let mut sets: Vec<StateSet<K>> = (0..n).map(|_| StateSet::new()).collect();
        // The start states, numbered in set 0: `fresh[i]` is the number of `start[i]`.
        if u32::try_from(start.len()).is_err() {
            return Ok(None);
        }
        let parts: Vec<Reached<K>> = start
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, keys)| {
                let mut reached = Reached::new();
                for (i, &key) in (c * CHUNK..).zip(keys) {
                    reached.push(key, i as u32);
                }
                reached
            })
            .collect();
        let Some((numbered, _)) = sets[0].insert_all(&parts) else {
            return Ok(None);
        };
        let mut fresh = vec![0u32; start.len()];
        for pair in numbered {
            fresh[pair as u32 as usize] = (pair >> 32) as u32;
        }
        let start_numbers = fresh.clone();
        // Each square's moves as (next state << 32 | state), and its finishing states.
        let mut moves: Vec<Vec<u64>> = (0..n).map(|_| Vec::new()).collect();
        let mut finished: Vec<Vec<u32>> = (0..n).map(|_| Vec::new()).collect();
        let (mut j, mut rounds) = (0, 0);
        while !fresh.is_empty() {
            cancel.check()?;
            let from = &sets[j];
            let parts: Vec<Reached<K>> = fresh
                .par_chunks(CHUNK)
                .map(|numbers| {
                    let mut reached = Reached::new();
                    for &source in numbers {
                        sweep.transitions(&steps[j], from.key(source), |outcome| match outcome {
                            Outcome::Next(key, _) => reached.push(key, source),
                            Outcome::Finished(_) => reached.finished.push(source),
                        });
                    }
                    reached
                })
                .collect();
            let to = (j + 1) % n;
            for part in &parts {
                finished[j].extend(&part.finished);
            }
            let Some((square_moves, new)) = sets[to].insert_all(&parts) else {
                return Ok(None);
            };
            drop(parts);
            moves[j].extend(square_moves);
            let too_many = moves[j].len() >= u32::MAX as usize;
            fresh = new;
            j = to;
            if j == 0 {
                rounds += 1;
            }
            cancel.report_recording(sets.iter().map(StateSet::len).sum::<usize>() as u64);
            let bytes: u64 = sets.iter().map(StateSet::<K>::bytes).sum::<u64>()
                + moves.iter().map(|m| m.capacity() as u64 * 8).sum::<u64>();
            if too_many || rounds > MAX_ROUNDS || bytes > max_bytes {
                return Ok(None);
            }
        }
        // Dense numbers, the start states first in set 0.
        let (mut keys, numbers): (Vec<Vec<K>>, Vec<Vec<Vec<u32>>>) = sets
            .into_par_iter()
            .enumerate()
            .map(|(j, set)| set.numbered(if j == 0 { &start_numbers } else { &[] }))
            .unzip();
        // Square j leads from the states of set j to those of set j + 1 (the last square, to
        // those of set 0).
        keys.rotate_left(1);
        let squares = keys
            .into_par_iter()
            .zip(moves)
            .zip(finished)
            .enumerate()
            .map(|(j, ((keys, moves), finished))| {
                let (before, after) = (&numbers[j], &numbers[(j + 1) % n]);
                pull_form(keys, moves, finished, before, after)
            })
            .collect();
        Ok(Some(Period { first, squares }))
    }
}

/// A square's matrix from its moves (numbered while recording, from the set `before` to the
/// set `after`), in pull form: the moves into each next state are counted, then each move's
/// source put in its next state's place.
fn pull_form<K>(
    keys: Vec<K>,
    mut moves: Vec<u64>,
    finished: Vec<u32>,
    before: &[Vec<u32>],
    after: &[Vec<u32>],
) -> SquareTransfer<K> {
    let mut offsets = vec![0u32; keys.len() + 1];
    for m in &mut moves {
        let (next, source) = (dense(after, (*m >> 32) as u32), dense(before, *m as u32));
        offsets[next as usize + 1] += 1;
        *m = u64::from(next) << 32 | u64::from(source);
    }
    for t in 0..keys.len() {
        offsets[t + 1] += offsets[t];
    }
    let mut place = offsets.clone();
    let mut sources = vec![0u32; moves.len()];
    for m in moves {
        let slot = &mut place[(m >> 32) as usize];
        sources[*slot as usize] = m as u32;
        *slot += 1;
    }
    SquareTransfer {
        keys,
        offsets,
        sources,
        finished: finished.into_iter().map(|s| dense(before, s)).collect(),
    }
}
