//! `tracker migrate --to-cluster` timed on a seeded data folder (`seed`): beside it, in the same run, the time
//! `tracker export` takes to read and write the same rows as CSV (the folder read alone, the baseline), and a
//! check that the shards then hold every event of every site.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};

use crate::cluster;

/// Times the export of every site, then the copy into the cluster the TRACKER_* variables name (which must be
/// empty), and prints both with events per second.
pub fn run(tracker: &Path, data_dir: &Path) -> anyhow::Result<()> {
    let config = cluster::config(data_dir)?;
    let db = rusqlite::Connection::open(data_dir.join("tracker.db")).context("no seeded folder")?;
    let sites: Vec<(i64, u64)> = db
        .prepare("SELECT website_id, COUNT(*) FROM events GROUP BY website_id ORDER BY website_id")?
        .query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?
        .collect::<Result<_, _>>()?;
    let events: u64 = sites.iter().map(|(_, n)| n).sum();
    ensure!(events > 0, "seed the folder first (tracker-loadgen seed --data-dir ...)");

    let started = Instant::now();
    for (site, _) in &sites {
        let mut export = Command::new(tracker);
        export.args(["export", "--type", "all", "--format", "csv", "--output", "/dev/null", "--site"]);
        export.arg(site.to_string()).arg("--data-dir").arg(data_dir);
        // The export reads the folder: without the cluster's settings.
        for (name, _) in cluster::settings() {
            export.env_remove(name);
        }
        ensure!(export.status()?.success(), "tracker export failed");
    }
    let export = started.elapsed();

    let started = Instant::now();
    let out = Command::new(tracker)
        .args(["migrate", "--to-cluster", "--json", "--data-dir"])
        .arg(data_dir)
        .envs(cluster::settings())
        .output()?;
    ensure!(out.status.success(), "tracker migrate failed: {}", String::from_utf8_lossy(&out.stderr));
    let migrate = started.elapsed();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)?;

    for (site, expected) in &sites {
        let stored = cluster::stored_events(&config, *site)?;
        let anonymous = cluster::stored_anonymous(&config, *site)?;
        ensure!(
            stored - anonymous == *expected,
            "site {site}: {} events on the shards, {expected} in SQLite",
            stored - anonymous
        );
    }
    let rate = |took: Duration| events as f64 / took.as_secs_f64();
    println!("{events} events over {} sites (every one on the shards after the copy)", sites.len());
    println!("tracker export (CSV, the baseline): {:>8.1} s  {:>9.0} events/s", export.as_secs_f64(), rate(export));
    println!(
        "tracker migrate --to-cluster:       {:>8.1} s  {:>9.0} events/s  ({:.2}x the export's time)",
        migrate.as_secs_f64(),
        rate(migrate),
        migrate.as_secs_f64() / export.as_secs_f64()
    );
    println!("report: {report}");
    Ok(())
}
