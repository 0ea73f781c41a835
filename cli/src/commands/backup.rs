//! `tracker backup` and `tracker restore`: a consistent copy of the database taken while the daemon runs,
//! and putting one back into a data folder after checking it.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use tracker_core::db::backup::{self, BackupInfo};

use super::GlobalArgs;
use crate::output::print_json;

#[derive(Args)]
#[command(after_help = "The copy is consistent (one snapshot) and compact, made while the daemon goes on serving;\n\
every hit acknowledged before it starts is in it. The file is readable by its owner only.\n\n\
Examples:\n  tracker backup --output /var/backups/tracker-$(date +%F).db\n  \
tracker backup --data-dir /var/lib/tracker --output tracker.db --json")]
pub struct BackupArgs {
    /// File to write (must not exist)
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
}

#[derive(Args)]
#[command(after_help = "The file must pass SQLite's integrity check and be a tracker database of a schema this\n\
version knows (older ones are brought up to date when the daemon opens them). Stop the daemon first:\n\
a restore refuses a data folder that a running daemon serves.\n\n\
Examples:\n  tracker restore /var/backups/tracker-2026-11-01.db --data-dir /var/lib/tracker\n  \
tracker restore backup.db --yes   # replace the database already in the data folder")]
pub struct RestoreArgs {
    /// Backup file written by `tracker backup`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Replace the data folder's existing database
    #[arg(long, short)]
    pub yes: bool,
}

pub fn run_backup(global: &GlobalArgs, args: &BackupArgs) -> anyhow::Result<()> {
    if tracker_core::cluster::ClusterConfig::of(&global.config()?)?.is_some() {
        anyhow::bail!(
            "tracker backup copies a data folder's database; a cluster's data is in PostgreSQL and ClickHouse: back \
             them up with their own tools (pg_dump; ALTER TABLE ... FREEZE on each shard), see README \"Scaling out\""
        );
    }
    let tracker = global.open()?;
    let info = tracker.backup(&args.output).with_context(|| format!("backup to {} failed", args.output.display()))?;
    report(global, "backed up", &args.output, &info)
}

pub fn run_restore(global: &GlobalArgs, args: &RestoreArgs) -> anyhow::Result<()> {
    let config = global.config()?;
    let info = backup::restore(&args.file, &config.data_dir, args.yes)
        .with_context(|| format!("cannot restore {}", args.file.display()))?;
    report(global, "restored", &config.data_dir, &info)
}

fn report(global: &GlobalArgs, done: &str, place: &std::path::Path, info: &BackupInfo) -> anyhow::Result<()> {
    if global.json {
        return print_json(&serde_json::json!({ "path": place, "info": info }));
    }
    println!(
        "{done} {} ({} users, {} websites, {} events, {:.1} MB, schema level {})",
        place.display(),
        info.users,
        info.websites,
        info.events,
        info.bytes as f64 / 1e6,
        info.schema_level
    );
    Ok(())
}
