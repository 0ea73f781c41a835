//! `export-rss`: the daemon's memory while it streams a large export (issue 16). Against a seeded data folder
//! (`seed --sites 1 --events 1100000` puts every row on one site), signs in as the seeded user and downloads
//! GET /api/websites/{id}/export in CSV and JSON, and GET /api/export/pageviews for the last 30 days, reading
//! each body as it streams; reports rows, bytes, time, the idle VmRSS and the peak VmHWM of each download (the
//! peak is reset before each). Flat memory: the peak does not grow with the rows.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use futures_util::StreamExt;
use serde_json::Value;

use crate::daemon::{self, Daemon};
use crate::seed::{EMAIL, PASSWORD};

pub async fn run(tracker: PathBuf, data_dir: PathBuf) -> anyhow::Result<()> {
    let tracker = tracker.canonicalize().with_context(|| format!("no tracker binary at {}", tracker.display()))?;
    let daemon = Daemon::start(&tracker, &data_dir)?;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(3600)).build()?;
    let token = daemon::login(&client, &daemon.base, EMAIL, PASSWORD).await?;
    let sites: Value = client
        .get(format!("{}/api/websites", daemon.base))
        .bearer_auth(&token)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let site = sites[0]["id"].as_i64().context("no site: seed the folder first")?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = daemon.memory()?;
    println!("idle daemon: VmRSS {:.1} MiB", idle.rss_kib as f64 / 1024.0);
    for (what, path) in [
        ("pageviews, last 30 days, CSV", format!("/api/export/pageviews?website_id={site}&range=30d&format=csv")),
        ("whole site, CSV", format!("/api/websites/{site}/export?format=csv")),
        ("whole site, JSON", format!("/api/websites/{site}/export?format=json")),
    ] {
        std::fs::write(format!("/proc/{}/clear_refs", daemon.pid()), "5").context("cannot reset the peak")?;
        let started = Instant::now();
        let response = client.get(format!("{}{path}", daemon.base)).bearer_auth(&token).send().await?;
        ensure!(response.status().is_success(), "{path}: {}", response.status());
        let mut stream = response.bytes_stream();
        let (mut bytes, mut lines) = (0usize, 0usize);
        while let Some(piece) = stream.next().await {
            let piece = piece?;
            bytes += piece.len();
            lines += piece.iter().filter(|b| **b == b'\n').count();
        }
        let seconds = started.elapsed().as_secs_f64();
        let peak = daemon.memory()?;
        // CSV: one header line; JSON: "[" and "]" lines around one row per line.
        let rows = lines.saturating_sub(if path.contains("format=json") { 2 } else { 1 });
        println!(
            "{what}: {rows} rows, {:.1} MiB in {seconds:.1} s ({:.0} rows/s); peak VmHWM {:.1} MiB = {:.2} x idle",
            bytes as f64 / (1 << 20) as f64,
            rows as f64 / seconds,
            peak.hwm_kib as f64 / 1024.0,
            peak.hwm_kib as f64 / idle.rss_kib as f64
        );
    }
    daemon.stop()?;
    Ok(())
}
