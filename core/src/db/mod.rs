//! SQLite plumbing: opening connections with our pragmas, embedded numbered migrations, a small read pool,
//! owner-only file modes and emptying the write-ahead log after deletions.

pub mod backup;
mod files;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::Connection;

use crate::error::Result;

/// Numbered migrations, applied in order; `PRAGMA user_version` records how many ran.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_init.sql"),
    include_str!("../../migrations/0002_privacy_settings.sql"),
    include_str!("../../migrations/0003_capture.sql"),
    include_str!("../../migrations/0004_identified_sessions.sql"),
    include_str!("../../migrations/0005_read_indexes.sql"),
    include_str!("../../migrations/0006_lead_scores.sql"),
    include_str!("../../migrations/0007_day_visitors_in_memory.sql"),
    include_str!("../../migrations/0008_accounts_never_reuse_ids.sql"),
    include_str!("../../migrations/0009_replay_limits_and_masking.sql"),
    include_str!("../../migrations/0010_salts_in_memory.sql"),
    include_str!("../../migrations/0011_funnels.sql"),
    include_str!("../../migrations/0013_owner_supplied_organizations.sql"),
    include_str!("../../migrations/0014_account_settings.sql"),
    include_str!("../../migrations/0017_privacy_audit.sql"),
    include_str!("../../migrations/0020_imports.sql"),
    include_str!("../../migrations/0022_emails_sent.sql"),
    include_str!("../../migrations/0016_heatmap_alignment_and_form_fields.sql"),
    include_str!("../../migrations/0018_import_progress.sql"),
    include_str!("../../migrations/0012_visit_hours.sql"),
    include_str!("../../migrations/0015_advanced_hours.sql"),
    include_str!("../../migrations/0021_advanced_intent_hours.sql"),
    include_str!("../../migrations/0019_page_hours.sql"),
    include_str!("../../migrations/0023_point_hours.sql"),
    include_str!("../../migrations/0024_advanced_intent_scores.sql"),
    include_str!("../../migrations/0025_point_days.sql"),
    include_str!("../../migrations/0026_account_audit.sql"),
    include_str!("../../migrations/0027_email_verification.sql"),
    include_str!("../../migrations/0028_replay_remote_assets.sql"),
    include_str!("../../migrations/0029_visit_sources_and_versions.sql"),
    include_str!("../../migrations/0030_api_keys.sql"),
    include_str!("../../migrations/0031_site_members.sql"),
    include_str!("../../migrations/0032_shared_links.sql"),
    include_str!("../../migrations/0033_annotations_and_segments.sql"),
    include_str!("../../migrations/0034_umami_website_id.sql"),
    include_str!("../../migrations/0035_import_days.sql"),
    include_str!("../../migrations/0036_member_emails.sql"),
    include_str!("../../migrations/0037_personal_segments.sql"),
    include_str!("../../migrations/0038_sealed_share_slugs.sql"),
    include_str!("../../migrations/0039_site_timezone.sql"),
];

pub use files::{secure_file, secure_folder};

/// Opens a connection with the pragmas every connection needs (WAL, busy timeout, foreign keys, secure delete).
pub fn connect(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    // secure_delete: what a privacy deletion or retention removes (and the old copy of a row that an update
    // moved) is overwritten with zeros in the database, not left in free space for anyone with the file.
    conn.execute_batch(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = NORMAL;
         PRAGMA foreign_keys = ON;
         PRAGMA secure_delete = ON;
         PRAGMA temp_store = MEMORY;
         PRAGMA cache_size = -8000;",
    )?;
    // SQLite (3.47 on) plans `column = ?` differently when the bound value is 0 or 1 and then re-prepares the
    // statement whenever the binding moves off 0 or 1: every query of website 1, the first site of every
    // installation, was being compiled again on each run (7% of the ingest writer). A stable plan is wanted.
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    conn.set_prepared_statement_cache_capacity(64);
    Ok(conn)
}

/// Applies the migrations this database has not seen yet, each in its own transaction.
///
/// Foreign keys are off meanwhile (SQLite ignores the pragma inside a transaction), so a migration can
/// rebuild a table that others reference without the drop cascading; each one must leave no dangling
/// reference, which is checked before it commits.
pub fn migrate(conn: &mut Connection) -> Result<()> {
    let applied = schema_version(conn)?;
    if applied as usize >= MIGRATIONS.len() {
        return Ok(());
    }
    conn.pragma_update(None, "foreign_keys", false)?;
    let result = apply(conn, applied as usize);
    conn.pragma_update(None, "foreign_keys", true)?;
    result
}

fn apply(conn: &mut Connection, applied: usize) -> Result<()> {
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        let dangling: i64 = tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0))?;
        if dangling > 0 {
            return Err(crate::Error::Internal(format!(
                "migration {} leaves {dangling} dangling references",
                index + 1
            )));
        }
        tx.pragma_update(None, "user_version", index as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

/// How many migrations this database has seen.
fn schema_version(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// Copies the write-ahead log into the database file and empties it, so that rows just deleted (zeroed in the
/// file by secure_delete) leave no copy in the log. Waits, within the busy timeout, for a write in progress; a
/// reader still on an older snapshot keeps the log whole, which is logged (the next run empties it).
pub fn empty_log(conn: &Connection) -> Result<()> {
    let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
    if busy != 0 {
        tracing::warn!("the write-ahead log could not be emptied (a reader was busy); deleted rows stay in it for now");
    }
    Ok(())
}

/// Shared handle on the database: one connection for writes outside ingest, a pool for reads.
#[derive(Clone)]
pub struct Db {
    inner: Arc<DbInner>,
}

struct DbInner {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Vec<Connection>>,
}

/// Most idle read connections kept around.
const MAX_IDLE_READERS: usize = 8;

impl Db {
    /// Opens (creating if needed) the database file, owner-only, and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Db> {
        files::secure_database(path)?;
        let mut writer = connect(path)?;
        // A migration may drop what must not stay readable (0010: the visitor salts): out of the log with it.
        let before = schema_version(&writer)?;
        migrate(&mut writer)?;
        if schema_version(&writer)? != before {
            empty_log(&writer)?;
        }
        // Every transaction on this connection takes the write lock when it begins, waiting within the busy
        // timeout. A deferred one that reads first (a count before an insert) took it only at its first write,
        // and SQLite refuses that upgrade at once ("database is locked", no wait) when the ingest writer
        // committed since the read: a 500 on a funnel's creation while hits arrived.
        writer.set_transaction_behavior(rusqlite::TransactionBehavior::Immediate);
        Ok(Db {
            inner: Arc::new(DbInner {
                path: path.to_path_buf(),
                writer: Mutex::new(writer),
                readers: Mutex::new(Vec::new()),
            }),
        })
    }

    /// Path of the database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` on the shared write connection (users, websites, settings; not the ingest hot path).
    pub fn write<T>(&self, f: impl FnOnce(&mut Connection) -> Result<T>) -> Result<T> {
        let mut conn = self.inner.writer.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut conn)
    }

    /// Runs `f` on a pooled read connection.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let pooled = self.inner.readers.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match pooled {
            Some(conn) => conn,
            None => connect(&self.inner.path)?,
        };
        let result = f(&conn);
        let mut readers = self.inner.readers.lock().unwrap_or_else(|e| e.into_inner());
        if readers.len() < MAX_IDLE_READERS {
            readers.push(conn);
        }
        result
    }

    /// A fresh connection owned by the caller (the ingest writer thread, bulk jobs).
    pub fn connect(&self) -> Result<Connection> {
        connect(&self.inner.path)
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::StatementStatus;

    use super::*;

    /// A transaction on the shared write connection holds the write lock from its start, so a read before its
    /// first write cannot be overtaken by another connection's commit (which SQLite answers with "database is
    /// locked" at the write, without waiting).
    #[test]
    fn a_transaction_on_the_write_connection_holds_the_write_lock_from_its_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let db = Db::open(&path).unwrap();
        let other = connect(&path).unwrap();
        other.busy_timeout(std::time::Duration::ZERO).unwrap();
        db.write(|conn| {
            let tx = conn.transaction()?;
            let _: i64 = tx.query_row("SELECT COUNT(*) FROM websites", [], |r| r.get(0))?;
            let overtaken = other.execute_batch("BEGIN IMMEDIATE; COMMIT;");
            assert!(overtaken.is_err(), "another connection took the write lock inside the transaction");
            tx.commit()?;
            Ok(())
        })
        .unwrap();
        other.execute_batch("BEGIN IMMEDIATE; COMMIT;").unwrap();
    }

    /// A cached statement runs as prepared whatever the site: no recompiling when the site id moves off 1.
    #[test]
    fn statements_are_not_recompiled_per_binding() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = connect(&dir.path().join("t.db")).unwrap();
        migrate(&mut conn).unwrap();
        let mut stmt = conn
            .prepare(
                "SELECT analytics FROM consent_logs WHERE website_id = ?1 AND session_key = ?2
                 ORDER BY id DESC LIMIT 1",
            )
            .unwrap();
        for site in [1, 2, 1, 2, 0, 7] {
            assert!(!stmt.exists(rusqlite::params![site, "some-session"]).unwrap());
        }
        assert_eq!(stmt.get_status(StatementStatus::RePrepare), 0);
    }
}
