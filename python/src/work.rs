//! Long work off the interpreter: the library runs on a thread of its own, without the GIL,
//! while the calling thread waits for it a few milliseconds at a time, and between waits shows
//! progress (a callback, or tqdm where it is installed) and looks for KeyboardInterrupt
//! (`check_signals`). An interrupt sets the library's cancel flag, as Ctrl-C does on the
//! command line: the work stops at its next check, keeping (saving) what it finished.

use std::ffi::CString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use knights::CancelFlag;
use pyo3::exceptions::{PyKeyboardInterrupt, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::{self, Class, Raise};

/// How often the waiting thread looks for a signal.
const POLL: Duration = Duration::from_millis(50);

/// What the work tells the waiting thread.
pub enum Event<R> {
    /// This many more steps are planned.
    Planned(u64),
    /// This many more steps are done.
    Done(u64),
    /// A line for the user (the command line's `warning:` and `note:` lines).
    Warning(String),
    /// A partial result (a board of a series).
    Item(R),
}

/// The work's end of the channel.
pub struct Reporter<R = ()> {
    tx: Sender<Event<R>>,
}

impl<R> Reporter<R> {
    /// The work's end of `tx`.
    pub fn new(tx: Sender<Event<R>>) -> Self {
        Reporter { tx }
    }

    /// Sends `event` (dropped when the caller has gone).
    pub fn send(&self, event: Event<R>) {
        let _ = self.tx.send(event);
    }

    /// A line for the user.
    pub fn warn(&self, line: impl Into<String>) {
        self.send(Event::Warning(line.into()));
    }
}

/// Progress where the caller sees it: a callable `progress(done, total)`, or a tqdm bar when
/// tqdm is installed and no callable was given (`progress=False`: none).
pub struct Progress {
    callback: Option<Py<PyAny>>,
    tqdm: bool,
    bar: Option<Py<PyAny>>,
    what: &'static str,
    done: u64,
    total: u64,
}

impl Progress {
    /// From the `progress` argument; `what` names the steps on a bar ("answers", "boards").
    pub fn new(arg: Option<&Bound<'_, PyAny>>, what: &'static str) -> PyResult<Self> {
        let mut progress = Progress {
            callback: None,
            tqdm: false,
            bar: None,
            what,
            done: 0,
            total: 0,
        };
        match arg {
            None => progress.tqdm = true,
            Some(arg) if arg.is_none() => progress.tqdm = true,
            Some(arg) if arg.is_instance_of::<PyBool>() => progress.tqdm = arg.is_truthy()?,
            Some(arg) if arg.is_callable() => progress.callback = Some(arg.clone().unbind()),
            Some(arg) => {
                return Err(Raise::input(format!(
                    "progress must be a callable progress(done, total), True, False or None, not {}",
                    arg.get_type().name()?
                ))
                .into_pyerr(arg.py()));
            }
        }
        Ok(progress)
    }

    /// No progress at all.
    pub fn none() -> Self {
        Progress {
            callback: None,
            tqdm: false,
            bar: None,
            what: "",
            done: 0,
            total: 0,
        }
    }

    fn planned(&mut self, py: Python<'_>, steps: u64) -> PyResult<()> {
        self.total += steps;
        if let Some(callback) = &self.callback {
            callback.call1(py, (self.done, self.total))?;
        } else if self.tqdm && self.total > 0 {
            match &self.bar {
                Some(bar) => {
                    bar.setattr(py, "total", self.total)?;
                    bar.call_method0(py, "refresh")?;
                }
                None => {
                    // tqdm is optional: without it, no bar.
                    let Ok(tqdm) = py.import("tqdm.auto") else {
                        self.tqdm = false;
                        return Ok(());
                    };
                    let kwargs = pyo3::types::PyDict::new(py);
                    kwargs.set_item("total", self.total)?;
                    kwargs.set_item("unit", self.what)?;
                    kwargs.set_item("leave", false)?;
                    let bar = tqdm.getattr("tqdm")?.call((), Some(&kwargs))?;
                    if self.done > 0 {
                        bar.call_method1("update", (self.done,))?;
                    }
                    self.bar = Some(bar.unbind());
                }
            }
        }
        Ok(())
    }

    fn advanced(&mut self, py: Python<'_>, steps: u64) -> PyResult<()> {
        self.done += steps;
        if let Some(callback) = &self.callback {
            callback.call1(py, (self.done, self.total))?;
        } else if let Some(bar) = &self.bar {
            bar.call_method1(py, "update", (steps,))?;
        }
        Ok(())
    }

    /// Closes the bar, if one was shown.
    pub fn close(&mut self, py: Python<'_>) {
        if let Some(bar) = self.bar.take() {
            let _ = bar.call_method0(py, "close");
        }
    }
}

/// A user warning with `line`.
pub fn warn(py: Python<'_>, line: &str) -> PyResult<()> {
    let text = CString::new(line.replace('\0', " ")).expect("no NUL left");
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 2)
}

/// Handles one event on the waiting thread; an item is handed to `item`.
pub fn handle<R>(
    py: Python<'_>,
    event: Event<R>,
    progress: &mut Progress,
    item: &mut dyn FnMut(R),
) -> PyResult<()> {
    match event {
        Event::Planned(n) => progress.planned(py, n),
        Event::Done(n) => progress.advanced(py, n),
        Event::Warning(line) => warn(py, &line),
        Event::Item(r) => {
            item(r);
            Ok(())
        }
    }
}

/// Waits up to [`POLL`] for the next event without the GIL; `rx` goes in and comes back.
pub fn next_event<R: Send>(
    py: Python<'_>,
    rx: Receiver<Event<R>>,
) -> (Result<Event<R>, RecvTimeoutError>, Receiver<Event<R>>) {
    py.detach(move || {
        let got = rx.recv_timeout(POLL);
        (got, rx)
    })
}

/// Runs `work` on a thread of its own, without the GIL, showing its progress and passing its
/// warnings on; a KeyboardInterrupt (or an exception of the progress callback) sets `cancel`,
/// waits for the work to stop, then is raised, with the work's own words for what it kept
/// when it stopped on the flag. A panic is an `InternalError`, never a crash.
pub fn run<T, F>(
    py: Python<'_>,
    cancel: &CancelFlag,
    progress: &mut Progress,
    work: F,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Reporter) -> errors::Result<T> + Send,
{
    let (tx, rx) = mpsc::channel::<Event<()>>();
    let outcome = std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let reporter = Reporter { tx };
            catch_unwind(AssertUnwindSafe(|| work(&reporter)))
        });
        let mut raised: Option<PyErr> = None;
        let mut rx = rx;
        loop {
            let (got, back) = next_event(py, rx);
            rx = back;
            match got {
                Ok(event) if raised.is_none() => {
                    if let Err(e) = handle(py, event, progress, &mut |()| {}) {
                        cancel.cancel();
                        raised = Some(e);
                    }
                }
                Ok(_) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if raised.is_none()
                && let Err(e) = py.check_signals()
            {
                cancel.cancel();
                raised = Some(e);
            }
        }
        let result = py.detach(move || worker.join());
        (result, raised)
    });
    progress.close(py);
    let (result, raised) = outcome;
    let result = match result {
        Ok(Ok(result)) => result,
        Ok(Err(payload)) | Err(payload) => Err(errors::panicked(payload)),
    };
    finish(py, result, raised)
}

/// The work's result, or what was raised while it ran: an interrupt with the work's words for
/// what it kept (when it stopped on the flag), any other exception as it was.
pub fn finish<T>(py: Python<'_>, result: errors::Result<T>, raised: Option<PyErr>) -> PyResult<T> {
    match (result, raised) {
        (Err(stopped), Some(e))
            if stopped.class == Class::Interrupted
                && e.is_instance_of::<PyKeyboardInterrupt>(py) =>
        {
            Err(stopped.into_pyerr(py))
        }
        (_, Some(e)) => Err(e),
        (Ok(value), None) => Ok(value),
        (Err(e), None) => Err(e.into_pyerr(py)),
    }
}
