//! The address of the daemon serving a data folder: `serve` writes it into the folder, and the commands that
//! print snippets read it, so a snippet names the port the daemon really listens on.

use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::Duration;

use tracker_core::Config;

/// The file `serve` keeps in the data folder while it listens.
fn file(data_dir: &Path) -> PathBuf {
    data_dir.join("daemon.url")
}

/// Notes the base URL (`http://127.0.0.1:PORT`) of the daemon starting on this folder; a folder that cannot
/// be written only costs the CLI's snippets their exact port, so it is a warning, not a failure.
pub fn record(data_dir: &Path, base_url: &str) {
    if let Err(e) = std::fs::write(file(data_dir), base_url) {
        tracing::warn!(error = %e, "cannot note the daemon's address in the data folder");
    }
}

/// Forgets the address when the daemon stops.
pub fn forget(data_dir: &Path) {
    let _ = std::fs::remove_file(file(data_dir));
}

/// Where the snippets' scripts are served from, and whether that is a guess: `public_url` when set, else the
/// address of the daemon listening on this data folder now, else the configured listen address (a guess).
pub fn base_url(config: &Config) -> (String, bool) {
    if config.public_url.is_some() {
        return (config.base_url(), false);
    }
    match running(&config.data_dir) {
        Some(url) => (url, false),
        None => (config.base_url(), true),
    }
}

/// The recorded address, if a daemon still answers there (a killed daemon leaves its file behind).
pub fn running(data_dir: &Path) -> Option<String> {
    let url = std::fs::read_to_string(file(data_dir)).ok()?.trim().to_string();
    let host_port = url.strip_prefix("http://")?.trim_end_matches('/');
    let addr = host_port.to_socket_addrs().ok()?.next()?;
    TcpStream::connect_timeout(&addr, Duration::from_millis(500)).ok()?;
    Some(url)
}
