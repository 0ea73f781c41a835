//! The subcommands, one file each, and the options every command shares.

pub mod serve;
pub mod sites;
pub mod users;

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use tracker_core::{Config, Tracker};

/// Self-hosted website analytics in one binary.
#[derive(Parser)]
#[command(name = "tracker", version, about, propagate_version = true)]
#[command(after_help = "Examples:\n  tracker serve\n  tracker users add alice@example.com --password-stdin\n  \
tracker sites add --name Blog --domain blog.example.com --owner alice@example.com\n  tracker sites snippet blog.example.com")]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
#[derive(Args, Clone)]
pub struct GlobalArgs {
    /// Data folder holding the database [default: ./tracker-data; env TRACKER_DATA_DIR]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Configuration file (TOML) [env: TRACKER_CONFIG]
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print machine-readable JSON instead of tables
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the daemon: dashboard, API, live stream and tracking scripts
    Serve(serve::ServeArgs),
    /// Manage user accounts
    Users(users::UsersArgs),
    /// Manage websites
    Sites(sites::SitesArgs),
}

impl GlobalArgs {
    /// The configuration: defaults < file < TRACKER_* environment < flags.
    pub fn config(&self) -> anyhow::Result<Config> {
        let path = self.config_path();
        let mut config = Config::load(path.as_deref(), std::env::vars())?;
        if let Some(dir) = &self.data_dir {
            config.data_dir = dir.clone();
        }
        Ok(config)
    }

    /// The config file named by --config or TRACKER_CONFIG.
    pub fn config_path(&self) -> Option<PathBuf> {
        self.config.clone().or_else(|| std::env::var_os("TRACKER_CONFIG").map(PathBuf::from))
    }

    /// Opens the tracker on the configured data folder (the daemon may be running: SQLite WAL allows it).
    pub fn open(&self) -> anyhow::Result<Tracker> {
        let config = self.config()?;
        Tracker::open(&config).with_context(|| format!("cannot open data folder {}", config.data_dir.display()))
    }
}
