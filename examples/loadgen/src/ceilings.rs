//! The two ceilings the product is measured against: a bare warp endpoint answering 202 without work
//! (what HTTP on this machine allows) and raw batched inserts of the same rows into the same schema with
//! synchronous=FULL (what SQLite with an fsync per batch allows).

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rusqlite::params;
use warp::Filter;

use crate::traffic::Visitor;

/// Serves `POST /api/track` with 202 after reading the body, on the daemon's kind of runtime; prints the
/// `Dashboard:` line the load generator waits for. Runs until killed.
pub fn bare_server() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let track =
            warp::path!("api" / "track").and(warp::post()).and(warp::body::bytes()).map(|_body: bytes::Bytes| {
                warp::reply::with_status(
                    warp::reply::json(&serde_json::json!({"ok": true})),
                    warp::http::StatusCode::ACCEPTED,
                )
            });
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        println!("Dashboard: http://{}/", listener.local_addr()?);
        warp::serve(track).incoming(listener).run().await;
        Ok(())
    })
}

/// Outcome of the storage ceiling.
pub struct StorageReport {
    pub hits: u64,
    pub batches: u64,
    pub elapsed: Duration,
}

impl StorageReport {
    pub fn hits_per_s(&self) -> f64 {
        self.hits as f64 / self.elapsed.as_secs_f64()
    }
}

/// Inserts the rows hits become (a session row per visit, an event row per hit) in transactions of `batch`
/// hits for `duration`, with an fsync per commit, into a fresh database with the product's schema.
pub fn storage(dir: &Path, batch: usize, duration: Duration) -> anyhow::Result<StorageReport> {
    let mut conn = tracker_core::db::connect(&dir.join("ceiling.db"))?;
    tracker_core::db::migrate(&mut conn)?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.execute("INSERT INTO users (id, email, password_hash, created_at) VALUES (1, 'c@example.com', 'x', 0)", [])?;
    conn.execute(
        "INSERT INTO websites (id, user_id, name, domain, tracking_key, created_at) VALUES (1, 1, 'C', 'example.com', 'k', 0)",
        [],
    )?;
    let mut rng = SmallRng::seed_from_u64(7);
    let mut visits: Vec<(Visitor, i64)> = Vec::new();
    let mut report = StorageReport { hits: 0, batches: 0, elapsed: Duration::ZERO };
    let start = Instant::now();
    let mut n = 0usize;
    while start.elapsed() < duration {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for _ in 0..batch {
            let ts = chrono_now();
            if visits.len() < 8 * batch.max(1) {
                visits.push((Visitor::new(&mut rng), 0));
            }
            let slot = n % visits.len();
            n += 1;
            if visits[slot].0.done() {
                visits[slot] = (Visitor::new(&mut rng), 0);
            }
            let (visitor, session) = &mut visits[slot];
            let hit = visitor.next_hit(&mut rng, false);
            let path = hit.url.trim_start_matches("https://example.com").split('?').next().unwrap_or("/").to_string();
            if *session == 0 {
                tx.prepare_cached(
                    "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page,
                        exit_page, page_views, events, country, device, browser, os, referrer, referrer_host, screen,
                        ip_address)
                     VALUES (1, ?1, ?2, ?3, ?3, ?4, ?4, 1, 0, 'DE', 'desktop', 'Chrome', 'Windows', ?5, '', '1920x1080',
                        '1.2.3.0')",
                )?
                .execute(params![hit.session_id, n as i64, ts, path, hit.referrer])?;
                *session = tx.last_insert_rowid();
            }
            tx.prepare_cached(
                "INSERT INTO events (website_id, session_id, ts, kind, name, url, path, referrer)
                 VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                *session,
                ts,
                hit.event.unwrap_or("pageview"),
                hit.event_name.unwrap_or(""),
                hit.url,
                path,
                hit.referrer
            ])?;
            report.hits += 1;
        }
        tx.commit()?;
        report.batches += 1;
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

fn chrono_now() -> i64 {
    tracker_core::model::now_ms()
}
