//! What every command shares once the arguments are parsed: where the store is, the memory
//! budget and the Ctrl-C flag (ripgrep's `HiArgs` plays this part there).

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;

use anyhow::{Context, Result};
use knights::count::frontier::Rows;
use knights::input::plural;
use knights::resolve::{Settings, shipped};
use knights::store::{self, Store};
use knights::{CancelFlag, MemoryBudget};

use super::exit::CliError;
use super::values::EngineArg;

/// The store's location and the engine settings.
pub struct Session {
    pub db: Option<PathBuf>,
    pub no_cache: bool,
    /// Leave out the results that ship with knights (`--no-shipped`).
    pub no_shipped: bool,
    pub memory: MemoryBudget,
    pub halves: Option<PathBuf>,
    pub cancel: CancelFlag,
}

/// An open answer store. One that this user can only read answers all the same; when it is
/// dropped, one line on standard error says how many computed answers it did not keep.
pub struct OpenStore(Store);

impl Deref for OpenStore {
    type Target = Store;

    fn deref(&self) -> &Store {
        &self.0
    }
}

impl DerefMut for OpenStore {
    fn deref_mut(&mut self) -> &mut Store {
        &mut self.0
    }
}

impl Drop for OpenStore {
    fn drop(&mut self) {
        let unsaved = self.0.unsaved();
        if self.0.is_on_a_full_disk() {
            let lost = match unsaved {
                0 => String::new(),
                n => format!(
                    "; {n} new {} not saved",
                    plural(n, "answer was", "answers were")
                ),
            };
            eprintln!(
                "warning: the disk that holds the answer store {} is full: it was only read{lost}",
                self.0.path()
            );
        } else if unsaved > 0 {
            eprintln!(
                "warning: the answer store {} is read-only; {unsaved} new {} not saved",
                self.0.path(),
                plural(unsaved, "answer was", "answers were")
            );
        }
    }
}

impl Session {
    /// The answer store, or `None` with `--no-cache`. It may be read-only: it answers, and
    /// what is computed is printed but not kept (with a warning).
    pub fn store(&self) -> Result<Option<OpenStore>> {
        if self.no_cache {
            return Ok(None);
        }
        self.open_store().map(|store| Some(OpenStore(store)))
    }

    /// The answer store as a long-running command keeps it (the server): no line when it is
    /// closed, since such a command says what a read-only store means as it opens it.
    pub fn kept_store(&self) -> Result<Option<Store>> {
        if self.no_cache {
            return Ok(None);
        }
        self.open_store().map(Some)
    }

    /// The answer store, for the commands that exist to read it.
    pub fn required_store(&self, command: &str, no_cache: bool) -> Result<Store> {
        self.refuse_no_cache(command, no_cache)?;
        self.open_store()
    }

    /// The answer store as it is, for `verify`, which reports on a store and never changes
    /// it: the shipped results are not added first.
    pub fn store_as_found(&self, command: &str) -> Result<Store> {
        self.refuse_no_cache(command, false)?;
        self.open_as_found()
    }

    fn open_as_found(&self) -> Result<Store> {
        let path = self.store_path()?;
        Ok(Store::open(&path).map_err(knights::Error::from)?)
    }

    /// The answer store, for the commands that exist to fill it: a read-only one is refused.
    /// The answer store, for the commands that exist to fill it: a read-only one is refused.
    pub fn writable_store(&self, command: &str, no_cache: bool) -> Result<Store> {
        self.refuse_no_cache(command, no_cache)?;
        let store = self.open_store()?;
        if store.is_read_only() {
            return Err(knights::Error::from(store::StoreError::ReadOnly {
                path: store.path().to_string(),
                detail: match store.is_on_a_full_disk() {
                    true => format!("its disk is full, and {command} needs to write to it"),
                    false => format!("{command} needs to write to it"),
                },
            })
            .into());
        }
        Ok(store)
    }

    fn refuse_no_cache(&self, command: &str, no_cache: bool) -> Result<()> {
        // `no_cache`: the command's own --no-cache, given after its name.
        if self.no_cache || no_cache {
            return Err(CliError::bad_input(format!(
                "{command} works on the answer store; --no-cache makes no sense here"
            ))
            .into());
        }
        Ok(())
    }

    /// When the answer store does not exist yet: the store it would be when created (in
    /// memory, with the shipped results), to try a change on first, so that a refused one
    /// creates no file. `None` when the file exists.
    pub fn trial_store(&self) -> Result<Option<Store>> {
        let path = self.store_path()?;
        if path.exists() || path.is_symlink() {
            return Ok(None);
        }
        let mut store =
            Store::in_memory_as(&path.display().to_string()).map_err(knights::Error::from)?;
        if !self.no_shipped {
            shipped::admit_shipped(&mut store, &self.settings(EngineArg::Auto))?;
        }
        Ok(Some(store))
    }

    /// The store, with the results that ship with knights admitted to it (once per release;
    /// a file the gate refuses is one warning line, and the store keeps nothing of it).
    fn open_store(&self) -> Result<Store> {
        let mut store = self.open_as_found()?;
        if self.no_shipped {
            return Ok(store);
        }
        let report = shipped::admit_shipped(&mut store, &self.settings(EngineArg::Auto))?;
        for (name, why) in &report.refused {
            eprintln!(
                "warning: the results shipped with knights in {name} were not added to the answer store {}: {why}",
                store.path()
            );
        }
        Ok(store)
    }

    /// Where the answer store is (its directory created if it is the default one).
    pub fn store_path(&self) -> Result<PathBuf> {
        Ok(match &self.db {
            Some(path) => path.clone(),
            None => {
                let path = store::default_path().ok_or_else(|| {
                    CliError::bad_input("no data directory is known here; give the store's place with --db PATH or $KNIGHTS_DB")
                })?;
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).with_context(|| {
                        format!(
                            "cannot create the directory {} for the answer store",
                            dir.display()
                        )
                    })?;
                }
                path
            }
        })
    }

    /// The engine settings for a command run with `--engine engine`.
    pub fn settings(&self, engine: EngineArg) -> Settings {
        Settings {
            engine: engine.into(),
            memory: self.memory,
            halves: self.halves.clone(),
            rows: Rows::Short,
            one_at_a_time: false,
            cancel: self.cancel.clone(),
            threads: None,
        }
    }
}
