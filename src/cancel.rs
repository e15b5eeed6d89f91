//! Cooperative cancellation and progress: long work checks a shared flag and stops cleanly when
//! it is set (the command-line tool sets it on Ctrl-C), and leaves on it how far it has got, for
//! whoever shows progress.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::Error;

/// A flag shared between the code that asks for a stop and the work that honours it; the work
/// also reports on it where its frontier pass stands.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<Shared>);

#[derive(Debug, Default)]
struct Shared {
    cancelled: AtomicBool,
    square: AtomicU64,
    squares: AtomicU64,
    states: AtomicU64,
    recording: AtomicBool,
    /// Where each layer's figures are written, when asked ([`CancelFlag::log_layers`]).
    layers: LayerLog,
    /// What else a stop sets off: work that cannot look at the flag itself (an SQLite query
    /// sorting its rows) is interrupted by these.
    on_cancel: OnCancel,
    /// Where and how often frontier passes save their layers, when asked
    /// ([`CancelFlag::save_passes`]), and what they have saved and resumed.
    checkpoints: Mutex<Checkpoints>,
    /// Passes that save their layers now running.
    saving_passes: AtomicU64,
    /// A stop was asked while such a pass ran: it saves at its square's end, then stops.
    save_and_stop: AtomicBool,
}

/// Where passes save their layers and what they did with them.
#[derive(Debug, Default)]
struct Checkpoints {
    every: Option<Checkpointing>,
    saved: Option<CheckpointNote>,
    resumed: Option<CheckpointNote>,
}

/// Where frontier passes save their layers, and how often: a pass of hours writes its layer at
/// a square's end every `every` into `dir` (one file a pass, replaced each time), and the same
/// pass started again goes on from the square saved. A stop asked while it runs (Ctrl-C,
/// SIGTERM: a scheduler's time limit) saves at the square's end first.
#[derive(Clone, Debug)]
pub struct Checkpointing {
    dir: std::path::PathBuf,
    every: std::time::Duration,
}

impl Checkpointing {
    /// Saves into `dir`, made if missing, every `every`: a directory that cannot be made or
    /// written is refused now, not after hours of work.
    pub fn new(dir: &std::path::Path, every: std::time::Duration) -> Result<Self, Error> {
        let refuse = |why: String| {
            Error::Unsupported(format!("the checkpoint directory {} {why}", dir.display()))
        };
        if dir.exists() && !dir.is_dir() {
            return Err(refuse("is not a directory".to_string()));
        }
        std::fs::create_dir_all(dir).map_err(|e| refuse(format!("cannot be made: {e}")))?;
        let probe = dir.join(format!(".probe.{}", std::process::id()));
        std::fs::File::create(&probe).map_err(|e| refuse(format!("cannot be written: {e}")))?;
        let _ = std::fs::remove_file(&probe);
        Ok(Checkpointing {
            dir: dir.to_path_buf(),
            every,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// How often a pass saves.
    pub fn every(&self) -> std::time::Duration {
        self.every
    }
}

/// A pass saved or resumed: at the end of which square of how many, in which file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointNote {
    /// Squares processed.
    pub square: u64,
    /// Squares in the pass.
    pub squares: u64,
    /// The checkpoint's file.
    pub path: std::path::PathBuf,
}

/// What a stop asked of the work ([`CancelFlag::stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A pass that saves its layers saves at its square's end, then stops.
    AfterSaving,
    /// The work stops at once.
    Now,
}

/// A pass that saves its layers, while it runs (see [`CancelFlag::saving_pass`]).
pub(crate) struct SavingPass(CancelFlag);

impl Drop for SavingPass {
    fn drop(&mut self) {
        self.0.0.saving_passes.fetch_sub(1, Ordering::Relaxed);
    }
}

#[derive(Default)]
struct OnCancel(Mutex<Vec<Box<dyn Fn() + Send + Sync>>>);

/// The layer log: its writer and when it was opened.
#[derive(Default)]
struct LayerLog(Mutex<Option<(Box<dyn std::io::Write + Send>, std::time::Instant)>>);

impl std::fmt::Debug for LayerLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let on = self.0.lock().is_ok_and(|log| log.is_some());
        write!(f, "LayerLog({on})")
    }
}

impl LayerLog {
    /// Writes one line: the phase, where the pass stands, the bytes the process holds and the
    /// seconds since the log was opened. A log that cannot be written is given up (the work
    /// goes on).
    fn write(&self, phase: &str, square: Option<(u64, u64)>, states: u64) {
        let Ok(mut log) = self.0.lock() else { return };
        let Some((out, opened)) = log.as_mut() else {
            return;
        };
        let (square, squares) = square.map_or((String::new(), String::new()), |(a, b)| {
            (a.to_string(), b.to_string())
        });
        let resident = crate::memory::resident_bytes().map_or(String::new(), |b| b.to_string());
        let line = format!(
            "{phase},{square},{squares},{states},{resident},{:.3}\n",
            opened.elapsed().as_secs_f64()
        );
        if out
            .write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            *log = None;
        }
    }
}

impl std::fmt::Debug for OnCancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |hooks| hooks.len());
        write!(f, "OnCancel({n})")
    }
}

/// Where the latest frontier pass stands: the square it has just processed (from 1) of how
/// many, and the states its layer holds; or, while it records a period from that square, the
/// states its sets hold so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassProgress {
    /// Squares processed.
    pub square: u64,
    /// Squares in the pass.
    pub squares: u64,
    /// States in the layer, or in the period's sets.
    pub states: u64,
    /// A period is being recorded (`states` are its sets').
    pub recording: bool,
}

impl CancelFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every holder of this flag to stop.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
        if let Ok(hooks) = self.0.on_cancel.0.lock() {
            hooks.iter().for_each(|hook| hook());
        }
    }

    /// Calls `hook` when the flag is set (at once if it is set already), for work that does
    /// not look at the flag: a query of a store's rows that SQLite must sort before the first.
    pub fn on_cancel(&self, hook: impl Fn() + Send + Sync + 'static) {
        if let Ok(mut hooks) = self.0.on_cancel.0.lock() {
            hooks.push(Box::new(hook));
        }
        if self.is_cancelled() {
            self.cancel();
        }
    }

    /// Asks the work to stop as a signal does: where a pass that saves its layers runs and
    /// this is the first stop asked, it saves at its square's end and then stops (a
    /// scheduler's time limit then loses no work); else the work stops at once.
    pub fn stop(&self) -> Stop {
        if self.0.saving_passes.load(Ordering::Relaxed) > 0
            && !self.0.save_and_stop.swap(true, Ordering::Relaxed)
        {
            Stop::AfterSaving
        } else {
            self.cancel();
            Stop::Now
        }
    }

    /// Frontier passes save their layers as `checkpointing` says.
    pub fn save_passes(&self, checkpointing: Checkpointing) {
        if let Ok(mut checkpoints) = self.0.checkpoints.lock() {
            checkpoints.every = Some(checkpointing);
        }
    }

    /// Where and how often passes save their layers, if they do.
    pub fn checkpointing(&self) -> Option<Checkpointing> {
        self.0.checkpoints.lock().ok()?.every.clone()
    }

    /// Marks a pass that saves its layers as running, until the value is dropped.
    pub(crate) fn saving_pass(&self) -> SavingPass {
        self.0.saving_passes.fetch_add(1, Ordering::Relaxed);
        SavingPass(self.clone())
    }

    /// True once a stop asked a pass to save and stop.
    pub(crate) fn save_asked(&self) -> bool {
        self.0.save_and_stop.load(Ordering::Relaxed)
    }

    /// Records that a pass saved its layer.
    pub(crate) fn note_saved(&self, note: CheckpointNote) {
        if let Ok(mut checkpoints) = self.0.checkpoints.lock() {
            checkpoints.saved = Some(note);
        }
    }

    /// Records that a pass went on from a saved layer.
    pub(crate) fn note_resumed(&self, note: CheckpointNote) {
        if let Ok(mut checkpoints) = self.0.checkpoints.lock() {
            checkpoints.resumed = Some(note);
        }
    }

    /// The latest layer a pass saved, if any.
    pub fn last_saved(&self) -> Option<CheckpointNote> {
        self.0.checkpoints.lock().ok()?.saved.clone()
    }

    /// The latest saved layer a pass went on from, if any.
    pub fn resumed(&self) -> Option<CheckpointNote> {
        self.0.checkpoints.lock().ok()?.resumed.clone()
    }

    /// True once [`CancelFlag::cancel`] has been called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Relaxed)
    }

    /// `Err(Error::Interrupted)` once the flag is set.
    pub fn check(&self) -> Result<(), Error> {
        if self.is_cancelled() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }

    /// Writes a line for every layer a frontier pass finishes, and every phase of a meeting in
    /// the middle, to `out`, as CSV: the phase (`pass`, `classes`, `join`; `checkpoint` when a
    /// layer has been saved, `resumed` when one has been read back, see
    /// [`CancelFlag::save_passes`]), the square and the squares of the pass, the states, the
    /// bytes this process holds (resident), and the seconds since this call. Where a board's
    /// passes fit is planned from these lines.
    pub fn log_layers(&self, mut out: impl std::io::Write + Send + 'static) -> std::io::Result<()> {
        out.write_all(b"phase,square,squares,states,resident_bytes,seconds\n")?;
        out.flush()?;
        if let Ok(mut log) = self.0.layers.0.lock() {
            *log = Some((Box::new(out), std::time::Instant::now()));
        }
        Ok(())
    }

    /// Records that a meeting in the middle has finished a phase after its pass (`classes`:
    /// the half's states reduced at the cut, `states` of them; `join`), in the layer log.
    pub fn report_phase(&self, phase: &str, states: u64) {
        self.0.layers.write(phase, None, states);
    }

    /// Records that a frontier pass has processed `square` of `squares` squares and holds
    /// `states` states (several passes at once: the latest report wins).
    pub fn report_pass(&self, square: u64, squares: u64, states: u64) {
        self.0.layers.write("pass", Some((square, squares)), states);
        self.0.squares.store(squares, Ordering::Relaxed);
        self.0.square.store(square, Ordering::Relaxed);
        self.0.states.store(states, Ordering::Relaxed);
        self.0.recording.store(false, Ordering::Relaxed);
    }

    /// Records that the frontier pass, at the square it last reported, is recording a period
    /// whose sets hold `states` states so far.
    pub fn report_recording(&self, states: u64) {
        self.0.states.store(states, Ordering::Relaxed);
        self.0.recording.store(true, Ordering::Relaxed);
    }

    /// The latest frontier pass's progress, if one has reported.
    pub fn pass(&self) -> Option<PassProgress> {
        let squares = self.0.squares.load(Ordering::Relaxed);
        (squares > 0).then(|| PassProgress {
            square: self.0.square.load(Ordering::Relaxed),
            squares,
            states: self.0.states.load(Ordering::Relaxed),
            recording: self.0.recording.load(Ordering::Relaxed),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Progress reads back as reported: none before a pass, then the pass's square and layer;
    /// a period being recorded keeps the square and says so, until the pass goes on.
    #[test]
    fn progress_reads_back_as_reported() {
        let flag = CancelFlag::new();
        assert_eq!(flag.pass(), None);
        flag.report_pass(12, 84, 4192);
        let at = |states, recording| PassProgress {
            square: 12,
            squares: 84,
            states,
            recording,
        };
        assert_eq!(flag.pass(), Some(at(4192, false)));
        flag.report_recording(3_751_993);
        assert_eq!(flag.pass(), Some(at(3_751_993, true)));
        flag.report_pass(12, 84, 7);
        assert_eq!(flag.pass(), Some(at(7, false)));
    }
}
