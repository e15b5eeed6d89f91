//! The schema: the migrations of `migrations/` and the runner that applies them, after checking
//! that the file is a knights store (its application id) of a version this build knows, whose
//! schema is the one that version defines.

use std::collections::BTreeMap;

use rusqlite::{Connection, TransactionBehavior};

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
    Migration {
        version: 4,
        name: "0004_between.sql",
        sql: include_str!("../../migrations/0004_between.sql"),
    },
    Migration {
        version: 5,
        name: "0005_shipped.sql",
        sql: include_str!("../../migrations/0005_shipped.sql"),
    },
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// The tables that only migrations fill: their rows are part of the schema.
const REFERENCE_TABLES: &[&str] = &["kinds"];

/// The schema objects of a database (SQLite's own left out): name, then type and SQL.
type Objects = BTreeMap<String, (String, Option<String>)>;

fn schema_objects(conn: &Connection) -> rusqlite::Result<Objects> {
    let mut stmt =
        conn.prepare("SELECT name, type, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")?;
    let rows = stmt.query_map([], |row| Ok((row.get(0)?, (row.get(1)?, row.get(2)?))))?;
    rows.collect()
}

/// The rows of a reference table, each written out, in order.
fn table_rows(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\""))?;
    let columns = stmt.column_count();
    let mut rows: Vec<String> = stmt
        .query_map([], |row| {
            (0..columns)
                .map(|i| {
                    row.get::<_, rusqlite::types::Value>(i)
                        .map(|v| format!("{v:?}"))
                })
                .collect::<rusqlite::Result<Vec<String>>>()
                .map(|values| values.join("|"))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.sort();
    Ok(rows)
}

/// What the migrations give at `version`: its schema objects and the rows of its reference
/// tables; and the objects of [`SCHEMA_VERSION`]. Built by applying them to a database in
/// memory, so that it is the migrations themselves that say.
struct Expected {
    objects: Objects,
    rows: BTreeMap<&'static str, Vec<String>>,
    latest: Objects,
}

fn expected_schema(version: i64) -> rusqlite::Result<Expected> {
    let conn = Connection::open_in_memory()?;
    let snapshot = |conn: &Connection| -> rusqlite::Result<(Objects, BTreeMap<_, _>)> {
        let objects = schema_objects(conn)?;
        let mut rows = BTreeMap::new();
        for table in REFERENCE_TABLES
            .iter()
            .filter(|t| objects.contains_key(**t))
        {
            rows.insert(*table, table_rows(conn, table)?);
        }
        Ok((objects, rows))
    };
    let (mut objects, mut rows) = snapshot(&conn)?;
    for migration in MIGRATIONS {
        conn.execute_batch(migration.sql)?;
        if migration.version == version {
            (objects, rows) = snapshot(&conn)?;
        }
    }
    Ok(Expected {
        objects,
        rows,
        latest: schema_objects(&conn)?,
    })
}

/// What in `found` (a knights store's schema at `version`) differs from what the migrations
/// give, if anything. Objects of the store's owner that no version of the schema has (an
/// index of their own) are tolerated; an object of a later version is not, since its
/// migration would fail on it.
fn schema_fault(found: &Objects, expected: &Objects, latest: &Objects) -> Option<String> {
    for (name, (kind, sql)) in expected {
        match found.get(name) {
            None => return Some(format!("the {kind} {name} is missing")),
            Some(object) if object != &(kind.clone(), sql.clone()) => {
                return Some(format!("the {kind} {name} is not that version's"));
            }
            Some(_) => {}
        }
    }
    found
        .iter()
        .find(|(name, _)| !expected.contains_key(*name) && latest.contains_key(*name))
        .map(|(name, (kind, _))| format!("it holds the {kind} {name}, which that version has not"))
}

impl Store {
    /// Identifies the file, then sets the journal mode and brings the schema up to date.
    pub(super) fn prepare(&mut self) -> Result<(), StoreError> {
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| self.error("setting the busy timeout", e))?;
        let version = self.identify()?;
        if self.read_only {
            // Nothing can be written: the store is read as it is, if this build can read it.
            if version < SCHEMA_VERSION {
                return Err(StoreError::ReadOnly {
                    path: self.path.clone(),
                    detail: if version == 0 {
                        "it is empty, and cannot be made an answer store".into()
                    } else {
                        format!(
                            "its schema (version {version}) cannot be brought up to version {SCHEMA_VERSION}"
                        )
                    },
                });
            }
        } else if version < SCHEMA_VERSION {
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

    /// Reads the file's identity and checks its schema without writing: returns its schema
    /// version (0 for a new, empty database) or the reason it must not be touched.
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
            if version < 0 {
                return Err(StoreError::Damaged {
                    path: self.path.clone(),
                    detail: format!("its schema version is {version}"),
                });
            }
            let found =
                schema_objects(&snapshot).map_err(|e| self.error("reading the schema", e))?;
            let expected = expected_schema(version)
                .map_err(|e| self.error("building the expected schema", e))?;
            let mut fault = schema_fault(&found, &expected.objects, &expected.latest);
            for (table, wanted) in &expected.rows {
                if fault.is_some() {
                    break;
                }
                let rows = table_rows(&snapshot, table)
                    .map_err(|e| self.error("reading the schema", e))?;
                if &rows != wanted {
                    fault = Some(format!(
                        "its table {table} does not hold that version's rows"
                    ));
                }
            }
            if let Some(fault) = fault {
                return Err(StoreError::Damaged {
                    path: self.path.clone(),
                    detail: format!("its schema version is {version}, but {fault}"),
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
