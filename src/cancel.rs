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
    /// the middle, to `out`, as CSV: the phase (`pass`, `classes`, `join`), the square and the
    /// squares of the pass, the states, the bytes this process holds (resident), and the
    /// seconds since this call. Where a board's passes fit is planned from these lines.
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
