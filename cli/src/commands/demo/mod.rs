//! `tracker demo`: realistic traffic for demos and benchmarks, submitted through the real ingest path without
//! waiting for each commit: each hit is a script's request (`TrackRequest`) validated and normalised by
//! `Hit::from_request` as the daemon's are, stamped with the demo's clock, then queued by `Ingest::track_hit`.
//!
//! Visitors come from the 198.18.0.0/15 benchmarking range (RFC 2544: never geolocated), so their
//! country is set on the hit directly and kept by ingest; devices and browsers come from real user
//! agents parsed by ingest as any hit's would be.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};
use tracker_core::Error;
use tracker_core::ingest::{Client, Commit, Hit, Submitted, TrackRequest};
use tracker_core::model::{Millis, Website, now_ms};
use tracker_core::store::websites::bare_host;

use super::{GlobalArgs, find_site, progress_bar};
use crate::output::print_json;

#[derive(Args)]
#[command(after_help = "Every hit goes through the ingest writer (group commit, rollups, live updates), so the\n\
dashboard, `tracker stats` and `tracker export` see the traffic like real traffic.\n\n\
Examples:\n  tracker demo --site blog.example.com --events 10000\n  \
tracker demo --site 1 --events 1000000 --days 90 --seed 42")]
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
}

const HOUR_MS: i64 = 3_600_000;

/// Hits submitted but not yet known to be committed; past this the oldest is waited for.
const WINDOW: usize = 16_384;

const PAGES: &[&str] = &[
    "/",
    "/pricing",
    "/blog",
    "/docs",
    "/features",
    "/blog/launch-week",
    "/signup",
    "/docs/getting-started",
    "/about",
    "/blog/privacy-first-analytics",
    "/contact",
    "/docs/api",
    "/blog/self-hosting-guide",
    "/customers",
    "/changelog",
    "/docs/tracking-script",
    "/careers",
    "/blog/sqlite-at-scale",
    "/integrations",
    "/docs/events",
    "/security",
    "/blog/core-web-vitals",
    "/legal/privacy",
    "/docs/faq",
    "/legal/terms",
    "/blog/utm-campaigns",
    "/partners",
    "/docs/retention",
    "/status",
    "/blog/2025-in-review",
];

const REFERRERS: &[(&str, f64)] = &[
    ("", 40.0),
    ("https://www.google.com/", 24.0),
    ("https://www.bing.com/", 4.0),
    ("https://duckduckgo.com/", 3.0),
    ("https://t.co/", 4.0),
    ("https://www.facebook.com/", 3.0),
    ("https://www.linkedin.com/feed/", 3.0),
    ("https://www.reddit.com/r/selfhosted/", 3.0),
    ("https://news.ycombinator.com/", 4.0),
    ("https://github.com/", 3.0),
    ("https://www.producthunt.com/", 1.5),
    ("https://search.brave.com/", 1.0),
    ("https://dev.to/", 1.5),
];

/// (utm_source, utm_medium, utm_campaign); chosen for about one visit in ten.
const CAMPAIGNS: &[(&str, &str, &str)] = &[
    ("newsletter", "email", "spring_sale"),
    ("twitter", "social", "launch_week"),
    ("google", "cpc", "brand"),
    ("linkedin", "social", "b2b_q2"),
    ("producthunt", "referral", "launch"),
];

const COUNTRIES: &[(&str, f64)] = &[
    ("US", 30.0),
    ("DE", 9.0),
    ("GB", 8.0),
    ("FR", 6.0),
    ("IN", 6.0),
    ("CA", 4.0),
    ("NL", 3.0),
    ("BR", 3.0),
    ("JP", 3.0),
    ("ES", 3.0),
    ("IT", 3.0),
    ("AU", 2.5),
    ("SE", 2.0),
    ("PL", 2.0),
    ("CH", 1.5),
    ("MX", 1.5),
    ("KR", 1.5),
    ("SG", 1.0),
    ("IE", 1.0),
    ("AT", 1.0),
    ("BE", 1.0),
    ("DK", 1.0),
    ("NO", 1.0),
    ("FI", 1.0),
    ("ZA", 0.8),
    ("AR", 0.8),
    ("NG", 0.6),
    ("", 1.0),
];

/// Real user agents with their share and screen size.
const AGENTS: &[(&str, f64, &str)] = &[
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        28.0,
        "1920x1080",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        10.0,
        "1440x900",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        8.0,
        "1512x982",
    ),
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        16.0,
        "393x852",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
        12.0,
        "412x915",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
        5.0,
        "360x780",
    ),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", 6.0, "1920x1080"),
    ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", 3.0, "2560x1440"),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
        7.0,
        "1536x864",
    ),
    (
        "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        3.0,
        "820x1180",
    ),
    (
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        2.0,
        "1920x1200",
    ),
];

/// Custom events: (name, chance per page view, a property key and its values).
const CUSTOM_EVENTS: &[(&str, f64, &str, &[&str])] = &[
    ("cta_click", 0.05, "location", &["header", "hero", "footer"]),
    ("play_video", 0.02, "video", &["intro", "demo", "customer-story"]),
    ("newsletter_subscribe", 0.01, "form", &["footer", "blog"]),
    ("copy_snippet", 0.015, "language", &["html", "react", "vue"]),
];

const PURCHASES: &[(f64, &str)] = &[(19.0, "USD"), (49.0, "USD"), (99.0, "EUR"), (199.0, "USD"), (9.0, "GBP")];

/// Picks by weight from `(item, weight)` pairs.
struct Weighted<T> {
    items: Vec<T>,
    cumulative: Vec<f64>,
}

impl<T: Copy> Weighted<T> {
    fn new(pairs: impl IntoIterator<Item = (T, f64)>) -> Weighted<T> {
        let mut items = Vec::new();
        let mut cumulative = Vec::new();
        let mut sum = 0.0;
        for (item, weight) in pairs {
            sum += weight;
            items.push(item);
            cumulative.push(sum);
        }
        Weighted { items, cumulative }
    }

    fn pick(&self, rng: &mut impl Rng) -> T {
        let x = rng.random::<f64>() * self.cumulative.last().copied().unwrap_or(0.0);
        let i = self.cumulative.partition_point(|&c| c <= x).min(self.items.len() - 1);
        self.items[i]
    }
}

/// A returning visitor: an address, a browser and a country.
#[derive(Clone, Copy)]
struct Visitor {
    ip: IpAddr,
    agent: usize,
    country: &'static str,
}

/// Submits hits keeping at most `WINDOW` commits pending; on a full ingest queue, waits for the oldest.
struct Submitter<'a> {
    tracker: &'a tracker_core::Tracker,
    pending: VecDeque<Commit>,
}

impl Submitter<'_> {
    fn submit(&mut self, hit: Hit, client: &Client) -> anyhow::Result<()> {
        loop {
            // A refused hit is consumed, so a copy goes in; retried after room is made.
            match self.tracker.ingest.track_hit(hit.clone(), client) {
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
                Err(e) => return Err(e).context("ingest refused a hit"),
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
        })
        .collect();

    let now = now_ms();
    let start = now - i64::from(args.days) * 86_400_000;
    let bar =
        progress_bar(args.events, "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} hits ({per_sec}, {eta} left)");
    let mut submitter = Submitter { tracker: &tracker, pending: VecDeque::new() };
    let began = Instant::now();
    let (mut sent, mut sessions) = (0u64, 0u64);
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
    // About 2.5 hits a visit on average (measured); visits past the estimate crowd into the last minutes.
    let expected_visits = (args.events as f64 / 2.5).max(1.0);
    while sent < args.events {
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
        let visit = DemoVisit { site: &site, session_id: session_key, screen, country: visitor.country };
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
            submitter.submit(visit.hit(ts, &url, &previous_url, "pageview", "", None)?, &client)?;
            sent += 1;
            // Custom events and outbound clicks happen a few seconds into the page.
            for (name, chance, key, values) in CUSTOM_EVENTS {
                if sent < args.events && rng.random::<f64>() < *chance {
                    ts += rng.random_range(2_000..20_000);
                    let value = values[rng.random_range(0..values.len())];
                    let properties = properties(json!({ *key: value }));
                    submitter.submit(visit.hit(ts, &url, "", "custom", name, properties)?, &client)?;
                    sent += 1;
                }
            }
            if sent < args.events && rng.random::<f64>() < 0.03 {
                ts += rng.random_range(1_000..30_000);
                let href =
                    ["https://github.com/example/project", "https://twitter.com/example", "https://docs.example.org/"]
                        [rng.random_range(0..3)];
                let properties = properties(json!({ "href": href }));
                submitter.submit(visit.hit(ts, &url, "", "outbound", "", properties)?, &client)?;
                sent += 1;
            }
            previous_url = url;
            // Reading time: mostly under a minute, sometimes several.
            ts += 4_000 + (-(1.0 - rng.random::<f64>()).ln() * 50_000.0) as i64;
        }
        // About 3% of visits convert.
        if sent < args.events && views > 1 && rng.random::<f64>() < 0.06 && ts <= now {
            let (value, currency) = PURCHASES[rng.random_range(0..PURCHASES.len())];
            let properties = properties(json!({ "value": value, "currency": currency }));
            let url = format!("{origin}/checkout/complete");
            submitter.submit(visit.hit(ts, &url, "", "conversion", "purchase", properties)?, &client)?;
            sent += 1;
        }
        if sessions % 256 == 0 {
            bar.set_position(sent);
        }
    }
    submitter.finish()?;
    // Hours the cluster had already rolled up hold the history just written only once rebuilt.
    tracker.rebuild_rollups(site.id, start, now + 1).context("rolling up the demo's hours")?;
    bar.finish_and_clear();
    let seconds = began.elapsed().as_secs_f64();
    let per_second = (sent as f64 / seconds.max(1e-9)).round();
    if global.json {
        return print_json(&serde_json::json!({
            "websiteId": site.id,
            "events": sent,
            "sessions": sessions,
            "days": args.days,
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "perSecond": per_second,
        }));
    }
    println!(
        "generated {sent} hits in {sessions} visits over {} days for {} in {seconds:.1}s ({per_second} hits/s)",
        args.days, site.domain
    );
    Ok(())
}

/// One visit of the demo: its hits are built as a script's requests and validated by ingest.
struct DemoVisit<'a> {
    site: &'a Website,
    session_id: String,
    screen: &'static str,
    /// Set on each hit: the demo's addresses are never geolocated, and ingest keeps a country it cannot find.
    country: &'static str,
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
