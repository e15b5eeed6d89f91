//! What every command shares once the arguments are parsed: where the store is, the memory
//! budget and the Ctrl-C flag (ripgrep's `HiArgs` plays this part there).

use std::path::PathBuf;

use anyhow::{Context, Result};
use knights::resolve::Settings;
use knights::store::{self, Store};
use knights::{CancelFlag, MemoryBudget};

use super::exit::CliError;
use super::values::EngineArg;

/// The store's location and the engine settings.
pub struct Session {
    pub db: Option<PathBuf>,
    pub no_cache: bool,
    pub memory: MemoryBudget,
    pub cancel: CancelFlag,
}

impl Session {
    /// The answer store, or `None` with `--no-cache`.
    pub fn store(&self) -> Result<Option<Store>> {
        if self.no_cache {
            return Ok(None);
        }
        self.open_store().map(Some)
    }

    /// The answer store, for the commands that exist to use it.
    pub fn required_store(&self, command: &str) -> Result<Store> {
        if self.no_cache {
            return Err(CliError::bad_input(format!(
                "{command} works on the answer store; --no-cache makes no sense here"
            ))
            .into());
        }
        self.open_store()
    }

    fn open_store(&self) -> Result<Store> {
        let path = self.store_path()?;
        Ok(Store::open(&path).map_err(knights::Error::from)?)
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
            cancel: self.cancel.clone(),
        }
    }
}
