//! Owner-only modes for the data folder (0700) and its files (0600): they hold password hashes, visitor
//! traits and the signing secret. Set explicitly with chmod, whatever the umask, and on every open, so a folder
//! made by an older version or by hand is closed too. (Unix only; elsewhere the folder's ACLs rule.)

use std::path::Path;

use crate::error::Result;

/// Creates the data folder if needed and makes it owner-only.
pub fn secure_folder(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    set_mode(dir, 0o700)
}

/// Makes a file of the data folder owner-only, if it exists.
pub fn secure_file(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(_) => set_mode(path, 0o600),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Creates the database file owner-only before SQLite opens it (SQLite gives its -wal and -shm files the
/// database's mode), and closes the modes of an existing database, log and index.
pub(super) fn secure_database(path: &Path) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?;
    secure_file(path)?;
    for suffix in ["-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        secure_file(Path::new(&name))?;
    }
    Ok(())
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if std::fs::metadata(path)?.permissions().mode() & 0o777 != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot make {} readable by its owner only: {e}", path.display()))
        })?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> Result<()> {
    Ok(())
}
