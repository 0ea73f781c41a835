//! `tracker demo`: realistic traffic for demos and benchmarks, submitted through the real ingest path without
//! waiting for each commit: each hit is a script's request (`TrackRequest`) validated and normalised by
//! `Hit::from_request` as the daemon's are, stamped with the demo's clock, then queued by `Ingest::track_hit`.
//! Sites at the enhanced level also get heatmap data and recordings (`page_data`), professional ones the
//! organizations of business visitors and identified visitors; `--live` then keeps a few visitors browsing
//! through the running daemon (`live`).
//!
//! Visitors come from the 198.18.0.0/15 benchmarking range (RFC 2544: never geolocated), so their
//! country is set on the hit directly and kept by ingest; devices and browsers come from real user
//! agents parsed by ingest as any hit's would be.

mod data;
mod live;
mod page_data;

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};
use tracker_core::Error;
use tracker_core::ingest::enrich::Organization;
use tracker_core::ingest::{Client, Commit, Hit, Submitted, TrackRequest};
use tracker_core::model::{Millis, TrackingLevel, Website, now_ms};
use tracker_core::store::websites::bare_host;

use self::data::{
    AGENTS, BUSINESS_SHARE, CAMPAIGNS, COUNTRIES, CUSTOM_EVENTS, IDENTIFY_SHARE, ORGANIZATIONS, PAGES, PURCHASES,
    REFERRERS, Visitor, Weighted,
};
use self::page_data::PageView;
use super::{GlobalArgs, find_site, progress_bar};
use crate::output::print_json;

#[derive(Args)]
#[command(after_help = "Every hit goes through the ingest writer (group commit, rollups, live updates), so the\n\
dashboard, `tracker stats` and `tracker export` see the traffic like real traffic.\n\n\
Examples:\n  tracker demo --site blog.example.com --events 10000\n  \
tracker demo --site 1 --events 1000000 --days 90 --seed 42\n  \
tracker sites edit 1 --level professional && tracker demo --site 1 --live   # every screen, and visitors now")]
pub struct DemoArgs {
    /// Website id or domain
    #[arg(long)]
    pub site: String,
    /// Hits to generate (page views, custom events, outbound clicks and conversions)
    #[arg(long, default_value_t = 10_000)]
    pub events: u64,
    /// Spread the hits over the last D days
    #[arg(long, default_value_t = 30)]
    pub days: u32,
    /// Random seed, for repeatable traffic
    #[arg(long)]
    pub seed: Option<u64>,
    /// Then keep a few visitors browsing through the daemon running on this data folder, for SECONDS (until
    /// interrupted without a number), so the live screens show them
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "0")]
    pub live: Option<u64>,
}

/// Share of an enhanced site's visits recorded (the recorder samples; every page view sends heatmap data).
const RECORDED_SHARE: f64 = 0.1;
/// Recordings and heatmap data cover this many days back (a script sends them only as they happen).
const PAGE_DATA_DAYS: i64 = 14;

const HOUR_MS: i64 = 3_600_000;

/// Hits submitted but not yet known to be committed; past this the oldest is waited for.
const WINDOW: usize = 16_384;

/// Submits hits keeping at most `WINDOW` commits pending; on a full ingest queue, waits for the oldest.
struct Submitter {
    pending: VecDeque<Commit>,
}

impl Submitter {
    /// Queues what `send` submits (a hit, heatmap data, a recording chunk); `send` is called again after room
    /// is made when the queue is full, as a refused item is consumed.
    fn submit(&mut self, send: impl Fn() -> tracker_core::Result<Submitted>) -> anyhow::Result<()> {
        loop {
            match send() {
                Ok(Submitted::Queued(commit)) => {
                    self.pending.push_back(commit);
                    if self.pending.len() > WINDOW {
                        self.wait_oldest()?;
                    }
                    return Ok(());
                }
                Ok(Submitted::Ignored) => return Ok(()),
                Err(Error::Busy) => {
                    if !self.wait_oldest()? {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                }
                Err(e) => return Err(e).context("ingest refused the demo's data"),
            }
        }
    }

    /// Waits for the oldest pending commit; false when nothing was pending.
    fn wait_oldest(&mut self) -> anyhow::Result<bool> {
        match self.pending.pop_front() {
            Some(commit) => {
                commit.wait_blocking().context("a demo batch failed to commit")?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        while self.wait_oldest()? {}
        Ok(())
    }
}

pub fn run(global: &GlobalArgs, args: &DemoArgs) -> anyhow::Result<()> {
    if args.days == 0 {
        anyhow::bail!("--days must be at least 1");
    }
    // In cluster mode the hits go to the shards through the cluster's ingest, as a daemon's would.
    let tracker = global.open_or_create()?;
    let site = find_site(&tracker, &args.site)?;
    // Checked before the history is written: --live needs the daemon serving this data folder.
    let daemon = match args.live {
        Some(_) => Some(super::daemon_url::running(&tracker.settings.get().data_dir).context(
            "--live sends visitors through the running daemon, and none runs on this data folder: start `tracker serve`",
        )?),
        None => None,
    };
    let host = bare_host(&site.domain);
    let origin = format!("https://{host}");
    let mut rng = match args.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => StdRng::from_rng(&mut rand::rng()),
    };
    // Page popularity follows a power law (Zipf, s = 1.1).
    let pages = Weighted::new(PAGES.iter().enumerate().map(|(i, p)| (*p, 1.0 / ((i + 1) as f64).powf(1.1))));
    let referrers = Weighted::new(REFERRERS.iter().copied());
    let countries = Weighted::new(COUNTRIES.iter().copied());
    let agents = Weighted::new(AGENTS.iter().enumerate().map(|(i, a)| (i, a.1)));
    let visitors: Vec<Visitor> = (0..(args.events / 12).clamp(10, 131_072))
        .map(|i| Visitor {
            ip: IpAddr::V4(Ipv4Addr::from(u32::from(Ipv4Addr::new(198, 18, 0, 0)) + i as u32)),
            agent: agents.pick(&mut rng),
            country: countries.pick(&mut rng),
            organization: (rng.random::<f64>() < BUSINESS_SHARE).then(|| rng.random_range(0..ORGANIZATIONS.len())),
        })
        .collect();
    let enhanced = site.tracking_level >= TrackingLevel::Enhanced;
    let professional = site.tracking_level == TrackingLevel::Professional;

    let now = now_ms();
    let start = now - i64::from(args.days) * 86_400_000;
    let page_data_since = now - PAGE_DATA_DAYS * 86_400_000;
    let bar =
        progress_bar(args.events, "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} hits ({per_sec}, {eta} left)");
    let mut submitter = Submitter { pending: VecDeque::new() };
    let began = Instant::now();
    let (mut sent, mut sessions, mut heatmap_pages, mut recordings) = (0u64, 0u64, 0u64, 0u64);
    // Visits start in time order, as real traffic arrives: inserts land at the end of the time indexes
    // instead of all over them (random order made 1M hits several times slower). The hour-by-hour
    // schedule follows a daily curve: quiet at night (UTC), busy in the afternoon.
    let first_hour = start.div_euclid(HOUR_MS);
    let mut schedule = Vec::with_capacity(args.days as usize * 24);
    let mut cumulative = 0.0;
    for slot in 0..i64::from(args.days) * 24 {
        let hour = (first_hour + slot).rem_euclid(24) as f64;
        cumulative += 0.65 + ((hour - 15.0) / 24.0 * std::f64::consts::TAU).cos().max(-0.3);
        schedule.push(cumulative);
    }
    while sent < args.events {
        // Hits per visit as measured so far (2.5 to begin with), so that the last visits arrive in the last
        // minutes: a fixed guess left the traffic stopping hours before now when visits ran longer.
        let per_visit = if sessions >= 64 { sent as f64 / sessions as f64 } else { 2.5 };
        let expected_visits = (args.events as f64 / per_visit).max(1.0);
        let visitor = visitors[rng.random_range(0..visitors.len())];
        let (agent, _, screen) = AGENTS[visitor.agent];
        let client = Client { ip: visitor.ip, user_agent: agent.to_string(), do_not_track: false };
        let position = ((sessions as f64 + rng.random::<f64>()) / expected_visits).min(0.999_999) * cumulative;
        let slot = schedule.partition_point(|&c| c <= position).min(schedule.len() - 1);
        let before = if slot == 0 { 0.0 } else { schedule[slot - 1] };
        let within = (position - before) / (schedule[slot] - before);
        let mut ts: Millis = start + slot as i64 * HOUR_MS + (within * HOUR_MS as f64) as i64;
        if ts > now {
            ts = now - rng.random_range(0..60_000);
        }
        let session_key: String = (0..16)
            .map(|_| {
                char::from(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[rng.random_range(0..62)])
            })
            .collect();
        let campaign = (rng.random::<f64>() < 0.1).then(|| CAMPAIGNS[rng.random_range(0..CAMPAIGNS.len())]);
        let referrer = if campaign.is_none() { referrers.pick(&mut rng) } else { "" };
        // Visit length: 45% bounce, the rest read a few pages (geometric tail).
        let mut views = 1;
        if rng.random::<f64>() >= 0.45 {
            views = 2;
            while views < 20 && rng.random::<f64>() < 0.55 {
                views += 1;
            }
        }
        let organization = visitor.organization.filter(|_| professional).map(|i| ORGANIZATIONS[i]);
        let visit = DemoVisit {
            site: &site,
            session_id: session_key,
            screen,
            country: visitor.country,
            organization: organization.map(|(name, _, asn)| Organization {
                asn,
                name: name.to_string(),
                confidence: 80,
                is_isp: false,
            }),
        };
        let recorded = enhanced && ts >= page_data_since && rng.random::<f64>() < RECORDED_SHARE;
        sessions += 1;
        let mut previous_url = referrer.to_string();
        for view in 0..views {
            if sent >= args.events || ts > now {
                break;
            }
            let url = match campaign {
                Some((source, medium, name)) if view == 0 => {
                    format!("{origin}/pricing?utm_source={source}&utm_medium={medium}&utm_campaign={name}")
                }
                _ => format!("{origin}{}", pages.pick(&mut rng)),
            };
            // Reading time: mostly under a minute, sometimes several.
            let dwell = 4_000 + (-(1.0 - rng.random::<f64>()).ln() * 50_000.0) as i64;
            let hit = visit.hit(ts, &url, &previous_url, "pageview", "", None)?;
            submitter.submit(|| tracker.ingest.track_hit(hit.clone(), &client))?;
            sent += 1;
            if let Some((company, industry, _)) =
                organization.filter(|_| view == 0 && rng.random::<f64>() < IDENTIFY_SHARE)
            {
                let traits = properties(json!({ "company": company, "industry": industry }));
                let hit = visit.hit(ts + 500, &url, "", "identify", "", traits)?;
                submitter.submit(|| tracker.ingest.track_hit(hit.clone(), &client))?;
            }
            let page = PageView { site: &site, session_id: &visit.session_id, url: &url, screen, at: ts, dwell };
            if enhanced && ts >= page_data_since {
                let interactions = page.interactions(&mut rng)?;
                submitter.submit(|| tracker.ingest.track_interactions(interactions.clone(), &client))?;
                heatmap_pages += 1;
            }
            if recorded {
                let last = view + 1 == views || sent >= args.events || ts + dwell > now;
                let chunk = page.recording(view as i64, last, &mut rng)?;
                submitter.submit(|| tracker.ingest.track_replay(chunk.clone(), &client))?;
            }
            let mut event_ts = ts;
            // Custom events and outbound clicks happen a few seconds into the page.
            for (name, chance, key, values) in CUSTOM_EVENTS {
                if sent < args.events && rng.random::<f64>() < *chance {
                    event_ts += rng.random_range(2_000..20_000);
                    let value = values[rng.random_range(0..values.len())];
                    let properties = properties(json!({ *key: value }));
                    let hit = visit.hit(event_ts, &url, "", "custom", name, properties)?;
                    submitter.submit(|| tracker.ingest.track_hit(hit.clone(), &client))?;
                    sent += 1;
                }
            }
            if sent < args.events && rng.random::<f64>() < 0.03 {
                event_ts += rng.random_range(1_000..30_000);
                let href =
                    ["https://github.com/example/project", "https://twitter.com/example", "https://docs.example.org/"]
                        [rng.random_range(0..3)];
                let properties = properties(json!({ "href": href }));
                let hit = visit.hit(event_ts, &url, "", "outbound", "", properties)?;
                submitter.submit(|| tracker.ingest.track_hit(hit.clone(), &client))?;
                sent += 1;
            }
            previous_url = url;
            ts += dwell.max(event_ts - ts + 1_000);
        }
        recordings += u64::from(recorded);
        // About 3% of visits convert.
        if sent < args.events && views > 1 && rng.random::<f64>() < 0.06 && ts <= now {
            let (value, currency) = PURCHASES[rng.random_range(0..PURCHASES.len())];
            let properties = properties(json!({ "value": value, "currency": currency }));
            let url = format!("{origin}/checkout/complete");
            let hit = visit.hit(ts, &url, "", "conversion", "purchase", properties)?;
            submitter.submit(|| tracker.ingest.track_hit(hit.clone(), &client))?;
            sent += 1;
        }
        if sessions % 256 == 0 {
            bar.set_position(sent);
        }
    }
    submitter.finish()?;
    // Hours the cluster had already rolled up hold the history just written only once rebuilt.
    tracker.events.rebuild_rollups(site.id, start, now + 1).context("rolling up the demo's hours")?;
    bar.finish_and_clear();
    let seconds = began.elapsed().as_secs_f64();
    let per_second = (sent as f64 / seconds.max(1e-9)).round();
    if global.json {
        print_json(&serde_json::json!({
            "websiteId": site.id,
            "events": sent,
            "sessions": sessions,
            "days": args.days,
            "heatmapPages": heatmap_pages,
            "recordings": recordings,
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "perSecond": per_second,
        }))?;
    } else {
        println!(
            "generated {sent} hits in {sessions} visits over {} days for {} in {seconds:.1}s ({per_second} hits/s)",
            args.days, site.domain
        );
        if !enhanced {
            println!(
                "no heatmaps, recordings or organizations at the {} level: `tracker sites edit {} --level professional` \
                 before the demo fills those screens too",
                site.tracking_level.as_str(),
                site.id
            );
        }
    }
    if let (Some(seconds), Some(daemon)) = (args.live, daemon) {
        let duration = (seconds > 0).then(|| Duration::from_secs(seconds));
        if !global.json {
            eprintln!("live: visitors browsing {} through {daemon} (Ctrl-C to stop)", site.domain);
        }
        let views = live::run(&daemon, &site, &origin, duration)?;
        if !global.json {
            eprintln!("live: {views} page views sent");
        }
    }
    Ok(())
}

/// One visit of the demo: its hits are built as a script's requests and validated by ingest.
struct DemoVisit<'a> {
    site: &'a Website,
    session_id: String,
    screen: &'static str,
    /// Set on each hit: the demo's addresses are never geolocated, and ingest keeps a country it cannot find.
    country: &'static str,
    /// The business the visitor browses from, on professional sites (the demo's addresses are in no AS database).
    organization: Option<Organization>,
}

impl DemoVisit<'_> {
    /// A hit of the visit as `POST /api/track` would receive it, at `ts`: no client timestamp and `ts` as the
    /// clock, so `Hit::from_request` stamps it `ts` (a script's own timestamps are trusted within a day only).
    fn hit(
        &self,
        ts: Millis,
        url: &str,
        referrer: &str,
        event: &str,
        name: &str,
        properties: Option<Map<String, Value>>,
    ) -> anyhow::Result<Hit> {
        let request = TrackRequest {
            tracking_key: self.site.tracking_key.clone(),
            session_id: self.session_id.clone(),
            url: url.to_string(),
            referrer: Some(referrer.to_string()),
            event: Some(event.to_string()),
            event_name: Some(name.to_string()),
            event_properties: properties,
            timestamp: None,
            screen: Some(self.screen.to_string()),
        };
        let mut hit = Hit::from_request(request, self.site, ts).context("demo hit")?;
        hit.country = self.country.to_string();
        hit.organization = self.organization.clone();
        Ok(hit)
    }
}

/// The object of a `json!` literal, as event properties.
fn properties(value: Value) -> Option<Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        _ => None,
    }
}
