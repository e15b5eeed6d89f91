//! What every call shares, as the command line's `Session` (src/cli/session.rs) has it: where
//! the answer store is (`store=`: the same default as `knights`, $KNIGHTS_DB, else
//! knights/answers.db in the data directory), the results shipped with knights admitted to it
//! through the import gate (unless $KNIGHTS_NO_SHIPPED or `no_shipped`), the memory budget
//! (`memory=`, else $KNIGHTS_MEMORY, else three quarters of this machine's memory) and the
//! engine settings.

use std::path::PathBuf;

use knights::input::plural;
use knights::resolve::{Settings, shipped};
use knights::store::{self, Store};
use knights::{CancelFlag, MemoryBudget};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use crate::errors::{Raise, Result};
use crate::store::PyStore;
use crate::work::Reporter;

/// Where the answers are kept for one call: a store file, or none (`store=False`, the command
/// line's `--no-cache`).
#[derive(Clone, Debug)]
pub struct Place {
    /// The store file, or `None` for no store.
    pub path: Option<PathBuf>,
    /// Leave out the results shipped with knights (`--no-shipped`).
    pub no_shipped: bool,
}

impl Place {
    /// From the `store` argument: `None` for the default store, `False` for none, a
    /// [`PyStore`], or a path (`str` or `os.PathLike`).
    pub fn from_arg(store: Option<&Bound<'_, PyAny>>) -> PyResult<Place> {
        let no_shipped = no_shipped_from_environment()?;
        let Some(store) = store.filter(|s| !s.is_none()) else {
            return Ok(Place {
                path: Some(default_store_path()?),
                no_shipped,
            });
        };
        if store.is_instance_of::<PyBool>() {
            if store.is_truthy()? {
                return Ok(Place {
                    path: Some(default_store_path()?),
                    no_shipped,
                });
            }
            return Ok(Place {
                path: None,
                no_shipped,
            });
        }
        if let Ok(store) = store.cast::<PyStore>() {
            let store = store.get();
            return Ok(Place {
                path: Some(store.path.clone()),
                no_shipped: store.no_shipped,
            });
        }
        Ok(Place {
            path: Some(path_arg(store, "store")?),
            no_shipped,
        })
    }

    /// The store opened as the command line's `Session::store` does: with the shipped results
    /// admitted (a refused file is a warning), `None` for no store.
    pub fn open<R>(&self, settings: &Settings, reporter: &Reporter<R>) -> Result<Option<Store>> {
        let Some(path) = &self.path else {
            return Ok(None);
        };
        let mut store = Store::open(path)?;
        if !self.no_shipped {
            let report = shipped::admit_shipped(&mut store, settings)?;
            for (name, why) in &report.refused {
                reporter.warn(format!(
                    "the results shipped with knights in {name} were not added to the answer store {}: {why}",
                    store.path()
                ));
            }
        }
        Ok(Some(store))
    }

    /// The store as it is (for `verify`: nothing added first).
    pub fn open_as_found(&self) -> Result<Store> {
        let path = self.path.as_ref().expect("a store place");
        Ok(Store::open(path)?)
    }
}

/// The lines the command line's `OpenStore` prints when it is dropped: answers a read-only
/// store (or one on a full disk) did not keep.
pub fn unsaved_warning<R>(store: &Store, reporter: &Reporter<R>) {
    let unsaved = store.unsaved();
    if store.is_on_a_full_disk() {
        let lost = match unsaved {
            0 => String::new(),
            n => format!(
                "; {n} new {} not saved",
                plural(n, "answer was", "answers were")
            ),
        };
        reporter.warn(format!(
            "the disk that holds the answer store {} is full: it was only read{lost}",
            store.path()
        ));
    } else if unsaved > 0 {
        reporter.warn(format!(
            "the answer store {} is read-only; {unsaved} new {} not saved",
            store.path(),
            plural(unsaved, "answer was", "answers were")
        ));
    }
}

/// The default store: $KNIGHTS_DB, else knights/answers.db in the data directory (made).
pub fn default_store_path() -> PyResult<PathBuf> {
    if let Some(value) = std::env::var_os("KNIGHTS_DB") {
        if value.is_empty() {
            return Err(Raise::input(
                "KNIGHTS_DB is set but empty: give the store's path in it (or store=PATH), or unset it for the default store",
            )
            .into());
        }
        return Ok(PathBuf::from(value));
    }
    let path = store::default_path().ok_or_else(|| {
        Raise::input(
            "no data directory is known here; give the store's place with store=PATH or $KNIGHTS_DB",
        )
    })?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            Raise::new(
                crate::errors::Class::Store,
                format!(
                    "cannot create the directory {} for the answer store: {e}",
                    dir.display()
                ),
            )
        })?;
    }
    Ok(path)
}

/// $KNIGHTS_NO_SHIPPED, read as the command line's clap reads it (1, true, yes, on, y, t; 0,
/// false, no, off, n, f; empty: not set).
pub fn no_shipped_from_environment() -> PyResult<bool> {
    let Some(value) = std::env::var_os("KNIGHTS_NO_SHIPPED") else {
        return Ok(false);
    };
    let text = value.to_string_lossy().to_ascii_lowercase();
    match text.as_str() {
        "" | "0" | "false" | "no" | "off" | "n" | "f" => Ok(false),
        "1" | "true" | "yes" | "on" | "y" | "t" => Ok(true),
        _ => Err(Raise::input(format!(
            "KNIGHTS_NO_SHIPPED: '{}' is neither yes nor no (1, true, yes, on; 0, false, no, off)",
            knights::echo::echo(&text)
        ))
        .into()),
    }
}

/// The memory budget: `memory=` (bytes, or a size such as "512M"), else $KNIGHTS_MEMORY, else
/// three quarters of this machine's memory, as for the command line.
pub fn memory(arg: Option<&Bound<'_, PyAny>>) -> PyResult<MemoryBudget> {
    match arg.filter(|a| !a.is_none()) {
        Some(arg) if arg.is_instance_of::<PyInt>() && !arg.is_instance_of::<PyBool>() => {
            let text = arg.str()?.to_string();
            parse_memory(&text, "memory")
        }
        Some(arg) if arg.is_instance_of::<PyString>() => {
            parse_memory(&arg.extract::<String>()?, "memory")
        }
        Some(arg) => Err(PyTypeError::new_err(format!(
            "memory must be a number of bytes or a size such as \"512M\", not {}",
            arg.get_type().name()?
        ))),
        None => match std::env::var("KNIGHTS_MEMORY") {
            Ok(text) if !text.is_empty() => parse_memory(&text, "KNIGHTS_MEMORY"),
            _ => Ok(MemoryBudget::for_this_machine()),
        },
    }
}

fn parse_memory(text: &str, name: &str) -> PyResult<MemoryBudget> {
    text.parse::<MemoryBudget>()
        .map_err(|e| Raise::input(format!("{name}: {e}")).into())
}

/// The engine settings of a call, as the command line's for `--engine auto`.
pub fn settings(memory: MemoryBudget, cancel: &CancelFlag) -> Settings {
    Settings {
        memory,
        halves: std::env::var_os("KNIGHTS_HALVES")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
        cancel: cancel.clone(),
        ..Settings::default()
    }
}

/// A path argument: `str` or `os.PathLike`.
pub fn path_arg(arg: &Bound<'_, PyAny>, name: &str) -> PyResult<PathBuf> {
    let os = arg.py().import("os")?;
    let fspath = os.call_method1("fspath", (arg,)).map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a path (str or os.PathLike), not {}",
            arg.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    fspath.extract::<PathBuf>()
}
