//! Backups and restores of the database: a consistent copy taken while the daemon runs (`VACUUM INTO`, one
//! read transaction, so writers go on), the checks a file must pass to be restored, and the data folder's
//! lock that a serving daemon holds so a restore cannot pull the database from under it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::{Db, MIGRATIONS, files};
use crate::error::{Error, Result};

/// Tables every tracker database has had since the first migration.
const REQUIRED_TABLES: &[&str] = &["users", "websites", "sessions", "events"];

/// What a backup file holds, as checked before a restore.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupInfo {
    /// Migrations the database has seen (this version knows `known_level`).
    pub schema_level: i64,
    pub known_level: i64,
    pub users: i64,
    pub websites: i64,
    pub events: i64,
    pub bytes: u64,
}

/// Writes a consistent, compacted copy of the database to `dest` (owner-only, like the data folder), through
/// a temporary name so a failed backup leaves no partial file under `dest`. Hits committed before it starts
/// are in the copy; the daemon goes on ingesting meanwhile.
pub fn backup(db: &Db, dest: &Path) -> Result<BackupInfo> {
    if dest.exists() {
        return Err(Error::Conflict(format!("{} already exists: choose a new file name", dest.display())));
    }
    let partial = with_suffix(dest, ".partial");
    let _ = std::fs::remove_file(&partial); // left by an interrupted backup
    create_private(&partial)?;
    let copied = (|| {
        let name = partial.to_str().ok_or_else(|| Error::invalid("the backup's path must be valid UTF-8"))?;
        // VACUUM INTO reads in one transaction (a snapshot) and writes only live pages: rows deleted for
        // privacy are not carried into the copy from free pages.
        db.connect()?.execute("VACUUM INTO ?1", [name])?;
        sync_file(&partial)?;
        inspect(&partial)
    })();
    let info = match copied {
        Ok(info) => info,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, dest)?;
    sync_parent(dest);
    Ok(info)
}

/// Checks that `file` is a whole tracker database this version can open: SQLite's integrity check passes,
/// its migration level is one this version knows, and it has the tracker's tables.
pub fn inspect(file: &Path) -> Result<BackupInfo> {
    let bytes =
        std::fs::metadata(file).map_err(|e| Error::invalid(format!("cannot read {}: {e}", file.display())))?.len();
    let not_tracker = || Error::invalid(format!("{} is not a tracker database", file.display()));
    let conn = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|_| not_tracker())?;
    let problems: Vec<String> = {
        let mut stmt = conn.prepare("PRAGMA integrity_check(5)").map_err(|_| not_tracker())?;
        stmt.query_map([], |r| r.get::<_, String>(0))
            .and_then(|rows| rows.collect::<rusqlite::Result<_>>())
            .map_err(|_| not_tracker())?
    };
    if problems != ["ok"] {
        return Err(Error::invalid(format!("{} failed its integrity check: {}", file.display(), problems.join("; "))));
    }
    let level: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if level > known {
        return Err(Error::invalid(format!(
            "{} comes from a newer version of tracker (schema level {level}; this one knows up to {known}): \
             restore it with that version",
            file.display()
        )));
    }
    for table in REQUIRED_TABLES {
        let present: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
            [table],
            |r| r.get(0),
        )?;
        if !present || level == 0 {
            return Err(not_tracker());
        }
    }
    let count = |table: &str| -> Result<i64> {
        // Table names from the fixed list above, never from input.
        Ok(conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?)
    };
    Ok(BackupInfo {
        schema_level: level,
        known_level: known,
        users: count("users")?,
        websites: count("websites")?,
        events: count("events")?,
        bytes,
    })
}

/// Replaces the database of `data_dir` with the backup `file`, after [`inspect`] passed. Refuses while a
/// daemon serves the folder, and refuses to replace an existing database unless `replace`. The folder's
/// signing secret stays (a new one is made if there is none: everyone signs in again then).
pub fn restore(file: &Path, data_dir: &Path, replace: bool) -> Result<BackupInfo> {
    let info = inspect(file)?;
    let _lock = lock_folder(data_dir)?;
    let database = data_dir.join("tracker.db");
    let existing = std::fs::metadata(&database).map(|m| m.len() > 0).unwrap_or(false);
    if existing && !replace {
        return Err(Error::Conflict(format!(
            "{} already holds a database: add --yes to replace it with the backup",
            data_dir.display()
        )));
    }
    let incoming = with_suffix(&database, ".restoring");
    let _ = std::fs::remove_file(&incoming);
    create_private(&incoming)?;
    let copied = (|| -> Result<()> {
        let mut from = File::open(file)?;
        let mut to = OpenOptions::new().write(true).open(&incoming)?;
        std::io::copy(&mut from, &mut to)?;
        to.flush()?;
        to.sync_all()?;
        Ok(())
    })();
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&incoming);
        return Err(e);
    }
    // The old database's log and index must never be read against the restored file.
    for suffix in ["-wal", "-shm"] {
        match std::fs::remove_file(with_suffix(&database, suffix)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
            _ => {}
        }
    }
    std::fs::rename(&incoming, &database)?;
    sync_parent(&database);
    Ok(info)
}

/// The data folder's lock, held by a serving daemon (and by a restore) for as long as it lives.
pub struct FolderLock(#[allow(dead_code)] File);

/// Takes the lock of `data_dir` (creating the folder, owner-only, if needed); a `Conflict` when a running
/// daemon or restore holds it. The operating system lets it go when the process ends, however it ends.
pub fn lock_folder(data_dir: &Path) -> Result<FolderLock> {
    files::secure_folder(data_dir)?;
    let path = data_dir.join("tracker.lock");
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(&path)?;
    match file.try_lock() {
        Ok(()) => Ok(FolderLock(file)),
        Err(TryLockError::WouldBlock) => Err(Error::Conflict(format!(
            "the data folder {} is in use by a running tracker daemon: stop it first",
            data_dir.display()
        ))),
        Err(TryLockError::Error(e)) => Err(e.into()),
    }
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Creates an empty owner-only file, failing if it exists.
fn create_private(path: &Path) -> Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map_err(|e| Error::invalid(format!("cannot create {}: {e}", path.display())))?;
    files::secure_file(path)
}

fn sync_file(path: &Path) -> Result<()> {
    Ok(File::open(path)?.sync_all()?)
}

/// Makes a rename in the folder durable; best effort (not every platform can open a folder).
fn sync_parent(path: &Path) {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && let Ok(dir) = File::open(parent)
    {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_folder_is_refused_until_the_first_goes() {
        let dir = tempfile::tempdir().unwrap();
        let first = lock_folder(dir.path()).unwrap();
        assert!(matches!(lock_folder(dir.path()), Err(Error::Conflict(_))));
        drop(first);
        lock_folder(dir.path()).unwrap();
    }

    #[test]
    fn files_that_are_not_whole_tracker_databases_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "not a database at all, just some text that is long enough").unwrap();
        assert!(inspect(&text).unwrap_err().to_string().contains("not a tracker database"));
        let other = dir.path().join("other.db");
        Connection::open(&other).unwrap().execute_batch("CREATE TABLE notes (x); PRAGMA user_version = 3;").unwrap();
        assert!(inspect(&other).unwrap_err().to_string().contains("not a tracker database"));
        let newer = dir.path().join("newer.db");
        let mut conn = super::super::connect(&newer).unwrap();
        super::super::migrate(&mut conn).unwrap();
        conn.pragma_update(None, "user_version", MIGRATIONS.len() as i64 + 1).unwrap();
        drop(conn);
        assert!(inspect(&newer).unwrap_err().to_string().contains("newer version"));
    }
}
