//! The schema: the migrations of `migrations/` and the runner that applies them, after checking
//! that the file is a knights store (its application id) of a version this build knows.

use rusqlite::TransactionBehavior;

use super::error::classify;
use super::file::{BUSY_TIMEOUT, retry_while_busy};
use super::{Store, StoreError};

/// `PRAGMA application_id` of a knights answer store ("KnTr").
pub const APPLICATION_ID: i32 = 0x4B6E_5472;

/// One schema migration: a file of `migrations/`.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    /// The `user_version` the database has once this migration is applied.
    pub version: i64,
    /// The file name under `migrations/`.
    pub name: &'static str,
    /// The SQL.
    pub sql: &'static str,
}

/// Every migration, in order. Each file of `migrations/` must be listed here (a test checks).
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "0001_answers.sql",
        sql: include_str!("../../migrations/0001_answers.sql"),
    },
    Migration {
        version: 2,
        name: "0002_closed_tours.sql",
        sql: include_str!("../../migrations/0002_closed_tours.sql"),
    },
    Migration {
        version: 3,
        name: "0003_provenance.sql",
        sql: include_str!("../../migrations/0003_provenance.sql"),
    },
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

impl Store {
    /// Identifies the file, then sets the journal mode and brings the schema up to date.
    pub(super) fn prepare(&mut self) -> Result<(), StoreError> {
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| self.error("setting the busy timeout", e))?;
        let version = self.identify()?;
        if version < SCHEMA_VERSION {
            // Changing the journal mode needs the file to itself, and SQLite reports a busy file
            // at once instead of waiting: wait here, as the busy timeout would.
            let mode: String = retry_while_busy(|| {
                self.conn
                    .pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))
            })
            .map_err(|e| self.error("switching to the WAL journal", e))?;
            if mode != "wal" && mode != "memory" {
                return Err(StoreError::CannotOpen {
                    path: self.path.clone(),
                    reason: format!("the WAL journal is not available here (journal mode {mode})"),
                });
            }
            self.migrate()?;
        }
        self.conn
            .pragma_update(None, "foreign_keys", true)
            .map_err(|e| self.error("enabling foreign keys", e))?;
        Ok(())
    }

    /// Reads the file's identity without writing: returns its schema version (0 for a new,
    /// empty database) or the reason it must not be touched.
    fn identify(&self) -> Result<i64, StoreError> {
        // One read transaction, so that the three readings come from the same moment even
        // while another process creates the schema.
        let snapshot = self
            .conn
            .unchecked_transaction()
            .map_err(|e| self.error("reading the file", e))?;
        let application_id: i32 = snapshot
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .map_err(|e| self.error("reading the file", e))?;
        let version: i64 = snapshot
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.error("reading the schema version", e))?;
        let objects: Vec<String> = snapshot
            .prepare("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
            .and_then(|mut stmt| {
                stmt.query_map([], |row| row.get(0))?
                    .collect::<Result<Vec<String>, _>>()
            })
            .map_err(|e| self.error("reading the schema", e))?;
        if application_id == APPLICATION_ID {
            if version > SCHEMA_VERSION {
                return Err(StoreError::NewerSchema {
                    path: self.path.clone(),
                    found: version,
                    known: SCHEMA_VERSION,
                });
            }
            return Ok(version);
        }
        if application_id == 0 && version == 0 && objects.is_empty() {
            return Ok(0);
        }
        let detail = if application_id != 0 {
            format!("its application id is {application_id:#x}")
        } else if objects.is_empty() {
            format!("its schema version is {version}")
        } else {
            format!("it holds {}", objects.join(", "))
        };
        Err(StoreError::Foreign {
            path: self.path.clone(),
            detail,
        })
    }

    /// Applies the pending migrations in one transaction.
    fn migrate(&mut self) -> Result<(), StoreError> {
        let path = self.path.clone();
        let fail = |context, e| classify(&path, context, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| fail("starting the schema update", e))?;
        // Another process may have created the schema while this one waited for the lock.
        let version: i64 = tx
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| fail("reading the schema version", e))?;
        for migration in MIGRATIONS.iter().filter(|m| m.version > version) {
            tx.execute_batch(migration.sql)
                .map_err(|e| fail("applying a schema migration", e))?;
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)
            .and_then(|()| tx.pragma_update(None, "application_id", APPLICATION_ID))
            .map_err(|e| fail("recording the schema version", e))?;
        tx.commit().map_err(|e| fail("committing the schema", e))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use super::*;

    #[test]
    fn every_migration_file_is_listed() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut files: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".sql"))
            .collect();
        files.sort();
        let listed: Vec<&str> = MIGRATIONS.iter().map(|m| m.name).collect();
        assert_eq!(files, listed);
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1);
            assert!(m.name.starts_with(&format!("{:04}_", m.version)));
        }
    }
}
