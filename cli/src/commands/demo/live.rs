//! `tracker demo --live`: a few visitors browsing the site now, sent through the running daemon's
//! `POST /api/track` as a page's script sends them, so Live Visitors and the Visitor Stream show them arriving,
//! reading and leaving.

use std::time::{Duration, Instant};

use anyhow::Context;
use rand::Rng;
use serde_json::json;
use tracker_core::model::Website;

use super::data::{AGENTS, PAGES, REFERRERS, Weighted};

/// How many visitors browse at once, at least and at most.
const CONCURRENT: (usize, usize) = (3, 8);

/// A visitor reading the site: where they are and when they move on.
struct Browsing {
    session_id: String,
    agent: usize,
    /// Their address, passed as X-Forwarded-For (the daemon trusts its loopback peer as a proxy).
    ip: String,
    pages_left: u32,
    next_at: Instant,
    previous_url: String,
}

/// Sends visitors to `daemon` (its base URL) for `duration` (forever without one); returns the page views sent.
pub(super) fn run(daemon: &str, site: &Website, origin: &str, duration: Option<Duration>) -> anyhow::Result<u64> {
    let mut rng = rand::rng();
    let agents = Weighted::new(AGENTS.iter().enumerate().map(|(i, a)| (i, a.1)));
    let referrers = Weighted::new(REFERRERS.iter().copied());
    let started = Instant::now();
    let mut visitors: Vec<Browsing> = Vec::new();
    let mut sent = 0u64;
    let endpoint = format!("{}/api/track", daemon.trim_end_matches('/'));
    let mut target = rng.random_range(CONCURRENT.0..=CONCURRENT.1);
    while duration.is_none_or(|d| started.elapsed() < d) {
        while visitors.len() < target {
            let n: u32 = rng.random();
            visitors.push(Browsing {
                session_id: format!("live{:012x}", rng.random::<u64>() & 0xffff_ffff_ffff),
                agent: agents.pick(&mut rng),
                ip: format!("198.19.{}.{}", (n >> 8) & 0xff, n & 0xff),
                pages_left: rng.random_range(2..8),
                next_at: Instant::now() + Duration::from_millis(rng.random_range(0..4_000)),
                previous_url: referrers.pick(&mut rng).to_string(),
            });
        }
        let now = Instant::now();
        for visitor in visitors.iter_mut().filter(|v| v.next_at <= now) {
            let url = format!("{origin}{}", PAGES[rng.random_range(0..PAGES.len().min(12))]);
            let body = json!({
                "tracking_key": site.tracking_key,
                "session_id": visitor.session_id,
                "url": url,
                "referrer": visitor.previous_url,
                "event": "pageview",
                "screen": AGENTS[visitor.agent].2,
            });
            ureq::post(&endpoint)
                .header("User-Agent", AGENTS[visitor.agent].0)
                .header("X-Forwarded-For", &visitor.ip)
                .header("Content-Type", "text/plain")
                .send(body.to_string())
                .with_context(|| format!("the daemon at {daemon} refused a live visitor's page view"))?;
            sent += 1;
            visitor.previous_url = url;
            visitor.pages_left -= 1;
            visitor.next_at = now + Duration::from_millis(rng.random_range(5_000..25_000));
        }
        // Visitors who read their last page leave (the live screens keep them five minutes); others arrive.
        visitors.retain(|v| v.pages_left > 0);
        if rng.random::<f64>() < 0.05 {
            target = rng.random_range(CONCURRENT.0..=CONCURRENT.1);
        }
        let wake = visitors.iter().map(|v| v.next_at).min().unwrap_or(now + Duration::from_secs(1));
        std::thread::sleep(wake.saturating_duration_since(Instant::now()).min(Duration::from_secs(1)));
    }
    Ok(sent)
}
