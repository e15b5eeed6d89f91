//! Checkpoints: a pass of hours saves its layer at a square's end every few minutes (and when
//! a stop is asked) into the directory the caller gave ([`crate::Checkpointing`]), and the same
//! pass started again goes on from the square saved. One file a pass, named for what the pass
//! counts and how (a hash of its identity, which the file also holds whole), written whole or
//! not at all (a temporary file renamed into place), and refused — never used, never changed —
//! where it is not this pass's or its checksum does not hold. A pass that finishes removes it.

use std::fs::File;
use std::hash::Hasher;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use fnv::FnvHasher;
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

use crate::cancel::{CancelFlag, CheckpointNote, Checkpointing, SavingPass};
use crate::count::frontier::counts::tally::{Tally, take_u64};
use crate::count::frontier::pass::layer::{Growth, Layer};
use crate::count::frontier::plan::FrontierStats;
use crate::count::frontier::sweep::Key;
use crate::error::Error;

/// The first bytes of a checkpoint, with the format's version.
const MAGIC: &[u8; 8] = b"KNPASS01";

/// Bytes written or read at a time.
const CHUNK: usize = 1 << 20;

/// Where a pass stands besides its layer: what it takes to go on as if it had not stopped.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct PassState {
    /// The next square to take.
    pub(crate) square: usize,
    /// The squares of the pass.
    pub(crate) squares: usize,
    /// The layer's counts are `u64` (a pass that counts small first, see `Plan::run_over`).
    pub(crate) small: bool,
    /// The layer holds the states of the sweep's unending form (a period ran in it).
    pub(crate) unending: bool,
    /// A period may still be recorded.
    pub(crate) look_for_period: bool,
    /// The states after each row so far.
    pub(crate) row_ends: Vec<u64>,
    /// The heights finished so far and their counts, in decimal.
    pub(crate) finished: Vec<(usize, String)>,
    /// The last height finished.
    pub(crate) last_reported: usize,
    /// The pass's figures so far.
    pub(crate) stats: FrontierStats,
}

/// What a checkpoint's file says before its states.
#[derive(Serialize, Deserialize)]
struct Header {
    identity: String,
    state: PassState,
    states: u64,
    growth: Vec<u64>,
}

/// The checkpoints of one pass.
pub(crate) struct Keeper {
    checkpointing: Checkpointing,
    identity: String,
    path: PathBuf,
    cancel: CancelFlag,
    /// When it last saved (or started).
    last: Instant,
    /// When it last asked whether to save: a square ago.
    asked: Instant,
    /// The square last saved or resumed from: not saved again.
    at: Option<usize>,
    /// Held while the pass's squares run: a stop then lets the square end and saves. Let go
    /// once they are done (see [`Keeper::passed`]).
    running: Option<SavingPass>,
}

impl Keeper {
    /// The checkpoints of the pass `identity` (everything that makes its layers what they
    /// are), where `cancel` asks passes to save: `None` where it does not.
    pub(crate) fn for_pass(cancel: &CancelFlag, identity: String) -> Option<Keeper> {
        let checkpointing = cancel.checkpointing()?;
        let mut hasher = FnvHasher::default();
        hasher.write(identity.as_bytes());
        let path = checkpointing
            .dir()
            .join(format!("{:016x}.pass", hasher.finish()));
        Some(Keeper {
            checkpointing,
            identity,
            path,
            cancel: cancel.clone(),
            last: Instant::now(),
            asked: Instant::now(),
            at: None,
            running: Some(cancel.saving_pass()),
        })
    }

    /// True where the pass, at the end of a square, before square `square`, is to save: a
    /// stop asked it to, or the next square may end past its interval (a square is taken to
    /// last at most twice the one before: a layer grows by less than that in a square's
    /// time), so that a run killed outright loses at most the interval; and it has not saved
    /// there already (nor before the first square). Called once a square.
    pub(crate) fn due(&mut self, square: usize) -> bool {
        let square_time = self.asked.elapsed();
        self.asked = Instant::now();
        square > 0
            && self.at != Some(square)
            && (self.cancel.save_asked()
                || self.last.elapsed() + 2 * square_time >= self.checkpointing.every())
    }

    /// Saves `layer` and `state`, replacing the pass's checkpoint whole or not at all, and
    /// counts it in `stats` (the figures the pass goes on with; those saved are `state`'s).
    /// Where a stop asked the pass to save, it is saved and then `Err(Interrupted)`.
    pub(crate) fn save<T: Tally, K: Key>(
        &mut self,
        state: &PassState,
        layer: &Layer<T, K>,
        stats: &mut FrontierStats,
    ) -> Result<(), Error> {
        // Two tasks of one process may run the same pass (the same half for two questions):
        // each save writes a file of its own before the rename.
        static SAVES: AtomicU64 = AtomicU64::new(0);
        let dir = self.checkpointing.dir();
        let temporary = dir.join(format!(
            ".{}.{}.{}.tmp",
            self.path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            std::process::id(),
            SAVES.fetch_add(1, Ordering::Relaxed)
        ));
        let written = write_checkpoint(&temporary, &self.identity, state, layer)
            .and_then(|()| std::fs::rename(&temporary, &self.path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(Error::Unsupported(format!(
                "cannot save the pass's checkpoint in {}: {e}",
                dir.display()
            )));
        }
        self.last = Instant::now();
        self.at = Some(state.square);
        stats.checkpoints_saved += 1;
        stats.checkpoint_bytes += std::fs::metadata(&self.path).map_or(0, |m| m.len());
        self.cancel.report_phase("checkpoint", layer.states());
        self.cancel.note_saved(CheckpointNote {
            square: state.square as u64,
            squares: state.squares as u64,
            path: self.path.clone(),
        });
        if self.cancel.save_asked() {
            return Err(Error::Interrupted);
        }
        Ok(())
    }

    /// The pass's checkpoint, if there is one: where it stands, and its layer (of `u64` counts
    /// where it says `small`, else of `T`) on a board of width `w`. A file that is not this
    /// pass's, or is damaged, is refused with an error that names it.
    pub(crate) fn resume<T: Tally, K: Key>(
        &mut self,
        w: usize,
    ) -> Result<Option<Saved<T, K>>, Error> {
        let file = match File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.refused(&format!("cannot be read: {e}"))),
        };
        let mut reader = Reader::new(file);
        let damaged = |keeper: &Keeper| keeper.refused("is damaged (its checksum does not hold)");
        let magic = reader.raw(MAGIC.len()).ok_or_else(|| damaged(self))?;
        if magic != MAGIC {
            return Err(self.refused("is not a knights checkpoint"));
        }
        let len = reader.u64().ok_or_else(|| damaged(self))?;
        let header = usize::try_from(len)
            .ok()
            .filter(|&len| len <= 1 << 30)
            .and_then(|len| reader.raw(len))
            .ok_or_else(|| damaged(self))?;
        let header: Header =
            serde_json::from_slice(&header).map_err(|_| self.refused("is damaged"))?;
        if header.identity != self.identity {
            return Err(self.refused("belongs to another pass (another board, question, or build)"));
        }
        let layer = if header.state.small {
            read_layer::<u64, K>(&mut reader, &header, w).map(Resumed::Small)
        } else {
            read_layer::<T, K>(&mut reader, &header, w).map(Resumed::Lanes)
        };
        let finished = header.state.finished_counts();
        let (Some(layer), Some(_)) = (layer, finished) else {
            return Err(damaged(self));
        };
        if !reader.checksum_holds() || header.state.square > header.state.squares {
            return Err(damaged(self));
        }
        self.at = Some(header.state.square);
        // The figures saved were taken before this file was written: it counts too.
        let mut state = header.state;
        state.stats.checkpoints_saved += 1;
        state.stats.checkpoint_bytes += std::fs::metadata(&self.path).map_or(0, |m| m.len());
        self.cancel.report_phase("resumed", header.states);
        self.cancel.note_resumed(CheckpointNote {
            square: state.square as u64,
            squares: state.squares as u64,
            path: self.path.clone(),
        });
        Ok(Some((state, layer)))
    }

    /// The pass's squares are done, but the work that reads its last layer (a meeting in the
    /// middle's classes and join) is not: the checkpoint stays until [`Keeper::finish`], and a
    /// stop now stops at once (that work is not saved part way).
    pub(crate) fn passed(&mut self) {
        self.running = None;
    }

    /// The pass is over (finished, or it cannot finish: an overflow redoes it in wider
    /// counts): its checkpoint goes.
    pub(crate) fn finish(self) {
        let _ = std::fs::remove_file(&self.path);
    }

    fn refused(&self, why: &str) -> Error {
        Error::Unsupported(format!(
            "the checkpoint {} {why}; move it away to start the pass over",
            self.path.display()
        ))
    }
}

/// A pass's checkpoint read back: where it stood, and its layer.
pub(crate) type Saved<T, K> = (PassState, Resumed<T, K>);

/// A resumed layer, in the count type it was saved in.
pub(crate) enum Resumed<T, K> {
    Small(Layer<u64, K>),
    Lanes(Layer<T, K>),
}

impl PassState {
    /// The heights finished so far and their counts.
    pub(crate) fn finished_counts(&self) -> Option<Vec<(usize, BigUint)>> {
        self.finished
            .iter()
            .map(|(height, count)| Some((*height, count.parse().ok()?)))
            .collect()
    }
}

/// Writes a checkpoint to `path` and syncs it to disk.
fn write_checkpoint<T: Tally, K: Key>(
    path: &std::path::Path,
    identity: &str,
    state: &PassState,
    layer: &Layer<T, K>,
) -> std::io::Result<()> {
    let header = Header {
        identity: identity.to_string(),
        state: state.clone(),
        states: layer.states(),
        growth: layer.growth().sizes().to_vec(),
    };
    let header = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
    let file = File::create(path)?;
    let mut out = BufWriter::with_capacity(CHUNK, file);
    out.write_all(MAGIC)?;
    let mut sum = FnvHasher::default();
    sum.write(MAGIC);
    let mut chunk = Vec::with_capacity(CHUNK + 4096);
    chunk.extend_from_slice(&(header.len() as u64).to_le_bytes());
    chunk.extend_from_slice(&header);
    let key_bytes = K::BITS as usize / 8;
    for (key, count) in layer.iter() {
        chunk.extend_from_slice(&key.to_u128().to_le_bytes()[..key_bytes]);
        count.put_bytes(&mut chunk);
        if chunk.len() >= CHUNK {
            sum.write(&chunk);
            out.write_all(&chunk)?;
            chunk.clear();
        }
    }
    sum.write(&chunk);
    out.write_all(&chunk)?;
    out.write_all(&sum.finish().to_le_bytes())?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
}

/// The layer whose `header.states` states follow, or `None` where they are cut short or not
/// states of this type.
fn read_layer<C: Tally, K: Key>(
    reader: &mut Reader,
    header: &Header,
    w: usize,
) -> Option<Layer<C, K>> {
    let growth = Growth::from_sizes(w, header.growth.clone());
    let mut layer = Layer::gathering(header.states, growth);
    let key_bytes = K::BITS as usize / 8;
    for _ in 0..header.states {
        let key = reader.take(|bytes| {
            let (key, rest) = bytes.split_at_checked(key_bytes)?;
            let mut word = [0u8; 16];
            word[..key_bytes].copy_from_slice(key);
            *bytes = rest;
            Some(K::from_u128(u128::from_le_bytes(word)))
        })?;
        let count = reader.take(C::take_bytes)?;
        layer.push(key, count);
    }
    Some(layer)
}

/// A checkpoint read in chunks, summed as it is read (all but the sum itself).
struct Reader {
    file: BufReader<File>,
    buffer: Vec<u8>,
    /// Where the unread bytes of `buffer` start; those before it are summed.
    at: usize,
    sum: FnvHasher,
    ended: bool,
}

impl Reader {
    fn new(file: File) -> Reader {
        Reader {
            file: BufReader::with_capacity(CHUNK, file),
            buffer: Vec::new(),
            at: 0,
            sum: FnvHasher::default(),
            ended: false,
        }
    }

    /// Sums the bytes read so far and keeps those not yet read, with at least `CHUNK` more
    /// behind them where the file has them; false at the file's end.
    fn refill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        self.sum.write(&self.buffer[..self.at]);
        self.buffer.drain(..self.at);
        self.at = 0;
        let before = self.buffer.len();
        let read = (&mut self.file)
            .take(CHUNK as u64)
            .read_to_end(&mut self.buffer);
        if read.is_err() || self.buffer.len() == before {
            self.ended = true;
        }
        true
    }

    /// What `parse` takes from the unread bytes, reading more where they are too few.
    fn take<V>(&mut self, mut parse: impl FnMut(&mut &[u8]) -> Option<V>) -> Option<V> {
        loop {
            let mut bytes = &self.buffer[self.at..];
            if let Some(value) = parse(&mut bytes) {
                self.at = self.buffer.len() - bytes.len();
                return Some(value);
            }
            if !self.refill() {
                return None;
            }
        }
    }

    fn raw(&mut self, n: usize) -> Option<Vec<u8>> {
        self.take(|bytes| {
            let (head, rest) = bytes.split_at_checked(n)?;
            *bytes = rest;
            Some(head.to_vec())
        })
    }

    fn u64(&mut self) -> Option<u64> {
        self.take(take_u64)
    }

    /// Reads the sum at the end and checks it against what was read, and that nothing
    /// follows it.
    fn checksum_holds(&mut self) -> bool {
        // The sum covers all that was read: sum what is read but not yet summed.
        let at = self.at;
        self.sum.write(&self.buffer[..at]);
        self.buffer.drain(..at);
        self.at = 0;
        let expected = self.sum.finish();
        let mut rest = std::mem::take(&mut self.buffer);
        if self.file.read_to_end(&mut rest).is_err() {
            return false;
        }
        rest.len() == 8 && u64::from_le_bytes(rest[..8].try_into().expect("8 bytes")) == expected
    }
}

#[cfg(test)]
mod tests;
