//! kill -9 under ingest load: every hit the daemon acknowledged is stored after its restart.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::KillArgs;
use crate::daemon::{self, Daemon};
use crate::load;
use crate::traffic::{HitSpec, Visitor};

/// What the ingest connections of one cycle saw.
#[derive(Default)]
struct IngestCounts {
    /// URLs of the hits answered 2xx: the daemon promised they are on disk.
    acked: Mutex<Vec<String>>,
    /// 503 (queue full, Retry-After): refused, not lost.
    unavailable: AtomicU64,
    /// Other 5xx: a failure whatever the crash.
    server_errors: AtomicU64,
    /// 4xx: a failure too (the hits are well-formed).
    rejected: AtomicU64,
}

/// Returns the failed checks (empty when every acknowledged hit was found after every restart).
pub(super) async fn kill(tracker: &Path, args: &KillArgs, seed: u64) -> anyhow::Result<Vec<String>> {
    println!(
        "kill: {} cycles of kill -9 under ingest load ({} connections), the kill {}..{} ms after the first answer",
        args.cycles, args.connections, args.min_kill_ms, args.max_kill_ms
    );
    let mut rng = SmallRng::seed_from_u64(seed);
    let temp = tempfile::tempdir()?;
    let data_dir = temp.path().join("data");
    let log_path = temp.path().join("daemon.log");
    let log = || OpenOptions::new().create(true).append(true).open(&log_path);
    let mut daemon = Daemon::start_logged(tracker, &data_dir, log()?)?;
    let client = reqwest::Client::new();
    let account = daemon::register(&client, &daemon.base).await?;

    let mut failures = Vec::new();
    let (mut acked_total, mut stored_unacked_total, mut lost_total, mut unavailable_total) = (0, 0, 0, 0);
    let mut restarts = Vec::with_capacity(args.cycles);
    let started = Instant::now();
    for cycle in 1..=args.cycles {
        let counts = Arc::new(IngestCounts::default());
        let tasks: Vec<_> = (0..args.connections)
            .map(|connection| {
                let (key, counts) = (account.tracking_key.clone(), counts.clone());
                let marker = format!("{cycle}/{connection}");
                let seed = seed ^ ((cycle as u64) << 20 | connection as u64);
                tokio::spawn(ingest(daemon.addr, key, marker, seed, counts))
            })
            .collect();
        let kill_after = Duration::from_millis(rng.random_range(args.min_kill_ms..=args.max_kill_ms));
        // The moment counts from the first acknowledged hit: on a busy machine the load may take a while to start.
        let waiting = Instant::now();
        while counts.acked.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
            && waiting.elapsed() < Duration::from_secs(10)
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(kill_after).await;
        daemon.kill()?;
        for task in tasks {
            // Every connection ends on its first error, which the kill brings at once.
            tokio::time::timeout(Duration::from_secs(10), task)
                .await
                .context("an ingest connection did not notice the kill within 10 s")??;
        }

        let restarting = Instant::now();
        daemon = Daemon::start_logged(tracker, &data_dir, log()?)?;
        let restart = restarting.elapsed();
        restarts.push(restart);

        // Read what the restarted daemon sees (it has opened and recovered the database by now).
        let stored = stored_urls(&data_dir, account.website_id, &format!("{}/{cycle}/", MARKER_BASE))?;
        let acked = std::mem::take(&mut *counts.acked.lock().unwrap_or_else(|e| e.into_inner()));
        let lost: Vec<&String> = acked.iter().filter(|url| !stored.contains(*url)).collect();
        let stored_unacked = stored.len() - (acked.len() - lost.len());
        let unavailable = counts.unavailable.load(Ordering::Relaxed);
        let server_errors = counts.server_errors.load(Ordering::Relaxed);
        let rejected = counts.rejected.load(Ordering::Relaxed);
        println!(
            "  cycle {cycle:>3}: killed {:>4} ms into the load; acknowledged {:>5}, stored {:>5} ({stored_unacked} in flight \
             at the kill), lost {}; 503 {unavailable}, other 5xx {server_errors}, 4xx {rejected}; restart {:.0} ms",
            kill_after.as_millis(),
            acked.len(),
            stored.len(),
            lost.len(),
            restart.as_secs_f64() * 1000.0
        );
        if !lost.is_empty() {
            failures.push(format!(
                "kill cycle {cycle}: {} acknowledged hit(s) missing after the restart, e.g. {}",
                lost.len(),
                lost[0]
            ));
        }
        if server_errors > 0 || rejected > 0 {
            failures
                .push(format!("kill cycle {cycle}: {server_errors} 5xx (not 503) and {rejected} 4xx on valid hits"));
        }
        if acked.is_empty() {
            failures.push(format!("kill cycle {cycle}: no hit acknowledged before the kill (no load, no test)"));
        }
        acked_total += acked.len();
        stored_unacked_total += stored_unacked;
        lost_total += lost.len();
        unavailable_total += unavailable;
    }

    // The rollups are committed with the events: after all the crashes the dashboard must count what is stored.
    let stored_pageviews = stored_events(&data_dir, account.website_id)?;
    let overview: Value = client
        .get(format!("{}/api/dashboard/overview?website_id={}&range=7d", daemon.base, account.website_id))
        .bearer_auth(&account.access_token)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let dashboard_pageviews = overview["metrics"]["pageViews"].as_i64().context("no metrics.pageViews")?;
    daemon.stop()?;
    let log_text = std::fs::read_to_string(&log_path)?;
    let panics: Vec<&str> = log_text.lines().filter(|l| l.contains("panicked")).collect();

    restarts.sort();
    let restart_ms = |q: f64| {
        let index = ((restarts.len() as f64 * q).ceil() as usize).clamp(1, restarts.len()) - 1;
        restarts[index].as_secs_f64() * 1000.0
    };
    println!(
        "kill summary: {} cycles in {:.0} s; {acked_total} hits acknowledged, {lost_total} lost, \
         {stored_unacked_total} stored without an answer (in flight at a kill), {unavailable_total} refused with 503",
        args.cycles,
        started.elapsed().as_secs_f64()
    );
    println!(
        "  restart to listening: median {:.0} ms, max {:.0} ms; dashboard page views {dashboard_pageviews} vs \
         {stored_pageviews} stored; panics in the log {}",
        restart_ms(0.5),
        restart_ms(1.0),
        panics.len()
    );
    if dashboard_pageviews != stored_pageviews {
        failures.push(format!(
            "kill: the dashboard counts {dashboard_pageviews} page views but {stored_pageviews} are stored"
        ));
    }
    for line in panics.iter().take(5) {
        failures.push(format!("kill: the daemon panicked: {line}"));
    }
    Ok(failures)
}

/// Page URLs of the kill test: `{MARKER_BASE}/{cycle}/{connection}/{n}`, unique per hit.
const MARKER_BASE: &str = "https://example.com/chaos";

/// One keep-alive connection sending uniquely marked page views until the daemon goes away.
async fn ingest(addr: SocketAddr, tracking_key: String, marker: String, seed: u64, counts: Arc<IngestCounts>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let Ok(mut sender) = load::connect(addr).await else { return };
    let host = addr.to_string();
    let mut visitor = Visitor::new(&mut rng);
    for n in 0u64.. {
        if n % 4 == 0 {
            visitor = Visitor::new(&mut rng);
        }
        let url = format!("{MARKER_BASE}/{marker}/{n}");
        let hit = HitSpec {
            session_id: visitor.session_id.clone(),
            url: url.clone(),
            referrer: String::new(),
            event: None,
            event_name: None,
        };
        let Ok(request) = Request::post("/api/track")
            .header("host", &host)
            .header("content-type", "application/json")
            .header("user-agent", visitor.user_agent)
            .header("x-forwarded-for", visitor.ip.to_string())
            .body(Full::new(Bytes::from(hit.body(&tracking_key))))
        else {
            return;
        };
        if sender.ready().await.is_err() {
            return;
        }
        let Ok(response) = sender.send_request(request).await else { return };
        // The status line is sent only after the hit's batch is committed: from here on it must survive.
        let status = response.status();
        if status.is_success() {
            counts.acked.lock().unwrap_or_else(|e| e.into_inner()).push(url);
        } else if status.as_u16() == 503 {
            counts.unavailable.fetch_add(1, Ordering::Relaxed);
        } else if status.is_server_error() {
            counts.server_errors.fetch_add(1, Ordering::Relaxed);
        } else {
            counts.rejected.fetch_add(1, Ordering::Relaxed);
        }
        if response.into_body().collect().await.is_err() {
            return;
        }
    }
}

/// The page URLs stored for a site under a prefix, read from the database file (read-only).
fn stored_urls(data_dir: &Path, website_id: i64, prefix: &str) -> anyhow::Result<HashSet<String>> {
    let conn = rusqlite::Connection::open_with_flags(
        daemon::database(data_dir),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let mut statement = conn.prepare("SELECT url FROM events WHERE website_id = ?1 AND substr(url, 1, ?2) = ?3")?;
    let urls = statement
        .query_map(rusqlite::params![website_id, prefix.len() as i64, prefix], |row| row.get(0))?
        .collect::<Result<HashSet<String>, _>>()?;
    Ok(urls)
}

/// Page views stored for a site.
fn stored_events(data_dir: &Path, website_id: i64) -> anyhow::Result<i64> {
    let conn = rusqlite::Connection::open_with_flags(
        daemon::database(data_dir),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM events WHERE website_id = ?1 AND kind = 'pageview'",
        [website_id],
        |r| r.get(0),
    )?)
}
