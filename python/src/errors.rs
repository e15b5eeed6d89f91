//! Errors as Python sees them: the library's one-line messages, as the command line words them
//! (src/cli/exit.rs), with the remedy named in this API's own terms (a keyword argument rather
//! than an option), raised as the classes of `knights/_errors.py`.

use knights::error::{ErrorKind, Remedy};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;

/// The Python class an error is raised as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `knights.InputError` (also a `ValueError`): the arguments or a file are wrong.
    Input,
    /// `knights.BeyondReachError` (an `InputError`): no engine here counts it.
    BeyondReach,
    /// `knights.MemoryBudgetError`: over the memory budget.
    Memory,
    /// `knights.SearchGaveUpError` (also a `TimeoutError`).
    GaveUp,
    /// `knights.StoreError`: the answer store failed, or holds what cannot be trusted.
    Store,
    /// `knights.NoTourError`: no tour (or no completion of a puzzle) exists.
    NoTour,
    /// `knights.InternalError`: a bug.
    Internal,
    /// `KeyboardInterrupt`: stopped, what finished is kept.
    Interrupted,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Input => "InputError",
            Class::BeyondReach => "BeyondReachError",
            Class::Memory => "MemoryBudgetError",
            Class::GaveUp => "SearchGaveUpError",
            Class::Store => "StoreError",
            Class::NoTour => "NoTourError",
            Class::Internal => "InternalError",
            Class::Interrupted => "KeyboardInterrupt",
        }
    }
}

/// An error to raise: its class and its one line. Made without the GIL (in the worker thread),
/// raised with it.
#[derive(Clone, Debug)]
pub struct Raise {
    /// The class.
    pub class: Class,
    /// The message, one line.
    pub message: String,
}

/// A result whose error is raised in Python.
pub type Result<T, E = Raise> = std::result::Result<T, E>;

impl Raise {
    /// An error of `class` saying `message`.
    pub fn new(class: Class, message: impl Into<String>) -> Self {
        Raise {
            class,
            message: message.into(),
        }
    }

    /// Bad input (a `ValueError`).
    pub fn input(message: impl Into<String>) -> Self {
        Raise::new(Class::Input, message)
    }

    /// The library's error with `prefix: ` before it (a file's name, as the command line's
    /// `in_file` puts it).
    pub fn in_file(name: &str, e: impl Into<knights::Error>) -> Self {
        let mut raise = Raise::from(e.into());
        if name != "standard input" {
            raise.message = format!("{name}: {}", raise.message);
        }
        raise
    }

    /// The Python exception.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        if self.class == Class::Interrupted {
            return PyKeyboardInterrupt::new_err(self.message);
        }
        let class = py
            .import("knights._errors")
            .and_then(|module| module.getattr(self.class.name()));
        match class.and_then(|class| class.call1((self.message.clone(),))) {
            Ok(error) => PyErr::from_value(error),
            // The package is half installed: the message is not lost all the same.
            Err(_) => PyRuntimeError::new_err(self.message),
        }
    }
}

impl From<Raise> for PyErr {
    fn from(raise: Raise) -> PyErr {
        Python::attach(|py| raise.into_pyerr(py))
    }
}

impl From<knights::Error> for Raise {
    /// The command line's line for the error (`error:` left out), its remedy in this API's
    /// words.
    fn from(e: knights::Error) -> Self {
        let class = match &e {
            knights::Error::Interrupted => Class::Interrupted,
            knights::Error::Store(_) | knights::Error::Untrusted { .. } => Class::Store,
            e => match e.kind() {
                ErrorKind::BadInput => Class::Input,
                ErrorKind::BeyondEngines | ErrorKind::BeyondOneMachine => Class::BeyondReach,
                ErrorKind::Memory => Class::Memory,
                ErrorKind::GaveUp => Class::GaveUp,
                ErrorKind::Interrupted => Class::Interrupted,
                ErrorKind::Store => Class::Store,
                ErrorKind::Internal => Class::Internal,
            },
        };
        let message = match e.remedy() {
            Some(remedy) => format!("{e}; {}", remedy_words(remedy)),
            None => e.to_string(),
        };
        Raise { class, message }
    }
}

impl From<knights::board::BoardError> for Raise {
    fn from(e: knights::board::BoardError) -> Self {
        knights::Error::from(e).into()
    }
}

impl From<knights::store::StoreError> for Raise {
    fn from(e: knights::store::StoreError) -> Self {
        knights::Error::from(e).into()
    }
}

/// What to change, as the command line's `remedy_words` says it, in this API's terms.
pub fn remedy_words(remedy: Remedy) -> String {
    match remedy {
        Remedy::MoreMemory => "allow more with memory=SIZE (e.g. memory=\"16G\")".into(),
        Remedy::MoreTime => "allow it longer with time_limit=SECONDS".into(),
        Remedy::OtherQuestions(board) => format!(
            "what it can count on this board: its closed tours (closed=True), and tours between two squares (to=(ROW2, COL2)), which `knights shards plan {} {}` lists as shards for many machines (their merge gives the board's open total and its per-square table)",
            board.rows(),
            board.cols()
        ),
    }
}

/// A panic caught at the boundary, as the internal error it is.
pub fn panicked(payload: Box<dyn std::any::Any + Send>) -> Raise {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    Raise::new(Class::Internal, format!("internal error: {what}"))
}
