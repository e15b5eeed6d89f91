//! SQLite's own checks of the file, for `knights verify`.

use super::{Store, StoreError};

impl Store {
    /// Runs `PRAGMA integrity_check` and `PRAGMA foreign_key_check`: an empty list when the
    /// file is sound, otherwise one line per fault SQLite reports.
    pub fn integrity_check(&self) -> Result<Vec<String>, StoreError> {
        let mut faults: Vec<String> = self
            .conn
            .prepare("PRAGMA integrity_check")
            .and_then(|mut stmt| {
                stmt.query_map([], |row| row.get::<_, String>(0))?
                    .collect::<Result<Vec<String>, _>>()
            })
            .map_err(|e| self.error("checking the file's integrity", e))?
            .into_iter()
            .filter(|line| line != "ok")
            .map(|line| format!("integrity_check: {line}"))
            .collect();
        let orphans: Vec<(String, i64, String)> = self
            .conn
            .prepare("PRAGMA foreign_key_check")
            .and_then(|mut stmt| {
                stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|e| self.error("checking the file's references", e))?;
        faults.extend(orphans.into_iter().map(|(table, rowid, parent)| {
            format!("foreign_key_check: row {rowid} of {table} refers to a missing row of {parent}")
        }));
        Ok(faults)
    }
}
