//! Bulk seeding through the core (the same validation, enrichment and writer as `POST /api/track`, minus
//! HTTP): a user, several sites, and visits spread evenly over the last `days` days with explicit timestamps.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use anyhow::Context;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tracker_core::ingest::{Client, Commit, Hit, Submitted, TrackRequest};
use tracker_core::store::websites::NewWebsite;
use tracker_core::{Config, Error, Tracker};

use crate::traffic::Visitor;

/// The seeded user, for the query benchmarks to sign in.
pub const EMAIL: &str = "bench@example.com";
pub const PASSWORD: &str = "benchmark-password";

const DAY_MS: i64 = 86_400_000;

/// Seeds `events` hits over `sites` sites (the first gets half of the traffic) spread over the last `days` days,
/// into the data folder or cluster `config` names, and returns the time taken.
pub fn seed(config: &Config, events: u64, sites: usize, days: u32) -> anyhow::Result<Duration> {
    let tracker = Tracker::open(config).context("cannot open the tracker")?;
    let user = tracker.auth.create_user(EMAIL, PASSWORD)?;
    let sites: Vec<_> = (0..sites.max(1))
        .map(|i| {
            let new =
                NewWebsite { name: format!("Site {i}"), domain: format!("site{i}.example.com"), tracking_level: None };
            tracker.websites.create(user.id, new)
        })
        .collect::<tracker_core::Result<_>>()?;
    let now = tracker_core::model::now_ms();
    let start_ts = now - i64::from(days.max(1)) * DAY_MS;
    let mut rng = SmallRng::seed_from_u64(42);
    let mut pending: VecDeque<Commit> = VecDeque::new();
    let started = Instant::now();
    let mut sent = 0u64;
    let mut last_report = Instant::now();
    while sent < events {
        let site = if rng.random_bool(0.5) { &sites[0] } else { &sites[rng.random_range(0..sites.len())] };
        let mut visitor = Visitor::new(&mut rng);
        let client = Client { ip: visitor.ip, user_agent: visitor.user_agent.to_string(), do_not_track: false };
        // Time runs with the share of events sent, so the days fill evenly and end just before now.
        let mut ts = start_ts + ((now - 60_000 - start_ts) as f64 * sent as f64 / events as f64) as i64;
        while !visitor.done() && sent < events {
            let spec = visitor.next_hit(&mut rng, true);
            let request = TrackRequest {
                tracking_key: site.tracking_key.clone(),
                session_id: spec.session_id,
                url: spec.url,
                referrer: Some(spec.referrer),
                event: spec.event.map(str::to_string),
                event_name: spec.event_name.map(str::to_string),
                event_properties: (spec.event == Some("identify")).then(|| {
                    serde_json::from_str(r#"{"company":"Acme Corp","industry":"Software"}"#).unwrap_or_default()
                }),
                screen: Some("1920x1080".into()),
                ..Default::default()
            };
            let hit = Hit::from_request(request, site, ts.min(now))?;
            loop {
                match tracker.ingest.track_hit(hit.clone(), &client) {
                    Ok(Submitted::Queued(commit)) => {
                        pending.push_back(commit);
                        break;
                    }
                    Ok(Submitted::Ignored) => break,
                    // The queue is full: wait for the oldest hits to commit, then retry.
                    Err(Error::Busy) => wait_oldest(&mut pending, 4096)?,
                    Err(e) => return Err(e.into()),
                }
            }
            sent += 1;
            ts += rng.random_range(10_000..90_000);
        }
        if pending.len() > 40_000 {
            wait_oldest(&mut pending, 8192)?;
        }
        if last_report.elapsed() > Duration::from_secs(10) {
            let rate = sent as f64 / started.elapsed().as_secs_f64();
            eprintln!("seeded {sent} of {events} events ({rate:.0}/s)");
            last_report = Instant::now();
        }
    }
    wait_oldest(&mut pending, usize::MAX)?;
    drop(tracker);
    Ok(started.elapsed())
}

fn wait_oldest(pending: &mut VecDeque<Commit>, n: usize) -> anyhow::Result<()> {
    for _ in 0..n {
        match pending.pop_front() {
            Some(commit) => commit.wait_blocking()?,
            None => break,
        }
    }
    Ok(())
}
