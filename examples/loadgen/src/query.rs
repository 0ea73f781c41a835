//! Query benchmarks: every dashboard read endpoint over HTTP against a seeded database, timed p50 / p95
//! over the 7, 30 and 365-day ranges (endpoints without a range once).

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::StreamExt;

/// One timed endpoint and range.
pub struct Timing {
    pub endpoint: &'static str,
    pub range: &'static str,
    /// The first (warm-up) call: what a cold cache costs.
    pub first_ms: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub bytes: usize,
}

/// Endpoints as (name, path with `{id}`, `{range}` and `{token}` placeholders, takes a range).
const ENDPOINTS: &[(&str, &str, bool)] = &[
    ("overview", "/api/dashboard/overview?website_id={id}&range={range}", true),
    ("timeseries", "/api/dashboard/timeseries?website_id={id}&range={range}", true),
    ("referrers", "/api/websites/{id}/referrers?range={range}", true),
    ("countries", "/api/websites/{id}/countries?range={range}", true),
    ("traffic-sources", "/api/websites/{id}/traffic-sources?range={range}", true),
    ("conversions", "/api/websites/{id}/conversions?range={range}", true),
    ("sites", "/api/dashboard/sites?metric=visitors", false),
    ("recent-activity", "/api/dashboard/recent-activity?website_id={id}&limit=10", false),
    ("identified-visitors", "/api/websites/{id}/identified-visitors", false),
    ("live (first SSE event)", "/api/dashboard/live?website_id={id}&token={token}", false),
    // Advanced Analytics takes 1d..90d only, so its ranges are fixed here; the cached intent model is used
    // (fitted by the first call), and the refit row times the fit itself.
    ("advanced 7d", "/api/analytics/advanced?website_id={id}&time_range=7d", false),
    ("advanced 90d", "/api/analytics/advanced?website_id={id}&time_range=90d", false),
    ("ai-intent 24h", "/api/analytics/ai-intent?website_id={id}&time_range=24h", false),
    ("ai-intent 7d", "/api/analytics/ai-intent?website_id={id}&time_range=7d", false),
    ("ai-intent (model refit)", "/api/analytics/ai-intent?website_id={id}&time_range=24h&refit=true", false),
    ("heatmap 7d", "/api/analytics/heatmap?website_id={id}&url=/pricing&time_range=7d", false),
    ("heatmap 90d", "/api/analytics/heatmap?website_id={id}&url=/pricing&time_range=90d", false),
    ("live-visitors", "/api/analytics/live-visitors?website_id={id}", false),
    ("live-visitors (all sites)", "/api/analytics/live-visitors", false),
];

/// Raw-event reads whose ranges stop at 90 days (spec part 2 §9), timed over 7, 30 and 90 days. `run`
/// creates the 4-step funnel first.
const ENDPOINTS_90D: &[(&str, &str)] = &[
    ("funnels (4 steps)", "/api/funnels?website_id={id}&range={range}"),
    ("customer-journeys", "/api/analytics/customer-journeys?website_id={id}&period={range}&filter=all"),
    ("journeys (paths)", "/api/analytics/journeys?website_id={id}&period={range}"),
];

/// The funnel timed by `funnels (4 steps)`: pages the synthetic traffic visits, and its conversion.
const FUNNEL: &str = r#"{"name":"loadgen","websiteId":{id},"steps":[{"name":"Landing","url":"/"},
    {"name":"Pricing","url":"/pricing"},{"name":"Sign-up page","url":"/signup"},
    {"name":"Signed up","url":"*","eventName":"signup"}]}"#;

/// Whether an endpoint is selected by `--only` (every one without it).
fn selected(endpoint: &str, only: &[String]) -> bool {
    only.is_empty() || only.iter().any(|prefix| endpoint.starts_with(prefix.as_str()))
}

/// Times every endpoint (or those `--only` selects) `samples` times after two warm-up calls.
pub async fn run(
    base: &str,
    token: &str,
    website_id: i64,
    samples: usize,
    only: &[String],
) -> anyhow::Result<Vec<Timing>> {
    let client = reqwest::Client::builder().pool_max_idle_per_host(4).build()?;
    let mut timings = Vec::new();
    let funnels = client.get(format!("{base}/api/funnels?website_id={website_id}")).bearer_auth(token).send().await?;
    // A cluster that does not serve funnels yet answers 503: its funnel rows are left out below.
    let served = funnels.status().is_success();
    let existing: serde_json::Value = funnels.json().await?;
    if served && !existing.as_array().is_some_and(|list| list.iter().any(|f| f["name"] == "loadgen")) {
        let created = client
            .post(format!("{base}/api/funnels"))
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body(FUNNEL.replace("{id}", &website_id.to_string()))
            .send()
            .await?;
        if !created.status().is_success() {
            bail!("creating the benchmark funnel: {}", created.status());
        }
    }
    let long: &[&'static str] = &["7d", "30d", "365d"];
    let upto90: &[&'static str] = &["7d", "30d", "90d"];
    let every = ENDPOINTS
        .iter()
        .map(|&(endpoint, template, ranged)| (endpoint, template, if ranged { long } else { &["-"][..] }))
        .chain(ENDPOINTS_90D.iter().map(|&(endpoint, template)| (endpoint, template, upto90)))
        .filter(|(endpoint, _, _)| selected(endpoint, only));
    for (endpoint, template, ranges) in every {
        for &range in ranges {
            let url = format!(
                "{base}{}",
                template.replace("{id}", &website_id.to_string()).replace("{range}", range).replace("{token}", token)
            );
            let mut times = Vec::with_capacity(samples);
            let mut bytes = 0;
            let mut first_ms = 0.0;
            for i in 0..samples + 2 {
                let Some((elapsed, size)) = time(&client, &url, token, endpoint.starts_with("live")).await? else {
                    break;
                };
                if i == 0 {
                    first_ms = elapsed.as_secs_f64() * 1000.0;
                }
                if i >= 2 {
                    times.push(elapsed);
                    bytes = size;
                }
            }
            if times.is_empty() {
                // Not served here (a cluster answering 503 for a feature that has not moved).
                continue;
            }
            times.sort();
            let q = |q: f64| {
                times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1].as_secs_f64() * 1000.0
            };
            timings.push(Timing { endpoint, range, first_ms, p50_ms: q(0.5), p95_ms: q(0.95), bytes });
        }
    }
    Ok(timings)
}

/// One call: the whole body, or for the SSE stream the first chunk (the snapshot sent on connect); `None` when
/// the server answers 503 (a cluster not serving the feature yet).
async fn time(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    stream: bool,
) -> anyhow::Result<Option<(Duration, usize)>> {
    let started = Instant::now();
    let response = client.get(url).bearer_auth(token).send().await?;
    if response.status() == reqwest::StatusCode::SERVICE_UNAVAILABLE {
        return Ok(None);
    }
    if !response.status().is_success() {
        bail!("{url}: {}", response.status());
    }
    let size = if stream {
        let mut body = response.bytes_stream();
        body.next().await.context("the live stream ended")??.len()
    } else {
        response.bytes().await?.len()
    };
    Ok(Some((started.elapsed(), size)))
}

/// Whole-site downloads, streamed: a p95 of the whole download would measure the site's size, so these are
/// timed to the first byte of the body (5 calls, the rest dropped) and then read once to the end for rows/s.
const STREAMS: &[(&str, &str, &str)] = &[
    ("export-data sessions", "/api/privacy/export-data?website_id={id}&data_type=sessions", "\"sessionId\":"),
    ("export-data pageviews", "/api/privacy/export-data?website_id={id}&data_type=pageviews", "\"timestamp\":"),
];

/// One streamed download: time to first byte, and one whole read.
pub struct StreamTiming {
    pub endpoint: &'static str,
    pub first_byte_p50_ms: f64,
    pub first_byte_p95_ms: f64,
    pub rows: u64,
    pub bytes: u64,
    pub seconds: f64,
}

/// Times the selected streamed downloads.
pub async fn run_streams(
    base: &str,
    token: &str,
    website_id: i64,
    only: &[String],
) -> anyhow::Result<Vec<StreamTiming>> {
    let client = reqwest::Client::new();
    let mut out = Vec::new();
    for &(endpoint, template, row_key) in STREAMS.iter().filter(|(endpoint, _, _)| selected(endpoint, only)) {
        let url = format!("{base}{}", template.replace("{id}", &website_id.to_string()));
        let mut firsts = Vec::new();
        for _ in 0..5 {
            if let Some((elapsed, _)) = time(&client, &url, token, true).await? {
                firsts.push(elapsed);
            }
        }
        if firsts.is_empty() {
            continue;
        }
        firsts.sort();
        let started = Instant::now();
        let response = client.get(&url).bearer_auth(token).send().await?;
        if !response.status().is_success() {
            bail!("{url}: {}", response.status());
        }
        // Rows counted by a key each row has once, across piece boundaries.
        let key = row_key.as_bytes();
        let (mut rows, mut bytes, mut tail) = (0u64, 0u64, Vec::<u8>::new());
        let mut body = response.bytes_stream();
        while let Some(piece) = body.next().await {
            let piece = piece?;
            bytes += piece.len() as u64;
            tail.extend_from_slice(&piece);
            rows += tail.windows(key.len()).filter(|w| *w == key).count() as u64;
            let keep = tail.len().min(key.len() - 1);
            tail.drain(..tail.len() - keep);
        }
        out.push(StreamTiming {
            endpoint,
            first_byte_p50_ms: firsts[firsts.len() / 2].as_secs_f64() * 1000.0,
            first_byte_p95_ms: firsts[firsts.len() - 1].as_secs_f64() * 1000.0,
            rows,
            bytes,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    Ok(out)
}
