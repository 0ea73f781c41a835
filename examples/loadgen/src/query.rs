//! Query benchmarks: every dashboard read endpoint over HTTP against a seeded database, timed p50 / p95
//! over the 7, 30 and 365-day ranges (endpoints without a range once).

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::StreamExt;

/// One timed endpoint and range.
pub struct Timing {
    pub endpoint: &'static str,
    pub range: &'static str,
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
    ("live-visitors", "/api/analytics/live-visitors?website_id={id}", false),
    ("live-visitors (all sites)", "/api/analytics/live-visitors", false),
];

/// Times every endpoint `samples` times after two warm-up calls.
pub async fn run(base: &str, token: &str, website_id: i64, samples: usize) -> anyhow::Result<Vec<Timing>> {
    let client = reqwest::Client::builder().pool_max_idle_per_host(4).build()?;
    let mut timings = Vec::new();
    for &(endpoint, template, ranged) in ENDPOINTS {
        let ranges: &[&'static str] = if ranged { &["7d", "30d", "365d"] } else { &["-"] };
        for &range in ranges {
            let url = format!(
                "{base}{}",
                template.replace("{id}", &website_id.to_string()).replace("{range}", range).replace("{token}", token)
            );
            let mut times = Vec::with_capacity(samples);
            let mut bytes = 0;
            for i in 0..samples + 2 {
                let (elapsed, size) = time(&client, &url, token, endpoint.starts_with("live")).await?;
                if i >= 2 {
                    times.push(elapsed);
                    bytes = size;
                }
            }
            times.sort();
            let q = |q: f64| {
                times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1].as_secs_f64() * 1000.0
            };
            timings.push(Timing { endpoint, range, p50_ms: q(0.5), p95_ms: q(0.95), bytes });
        }
    }
    Ok(timings)
}

/// One call: the whole body, or for the SSE stream the first chunk (the snapshot sent on connect).
async fn time(client: &reqwest::Client, url: &str, token: &str, stream: bool) -> anyhow::Result<(Duration, usize)> {
    let started = Instant::now();
    let response = client.get(url).bearer_auth(token).send().await?;
    if !response.status().is_success() {
        bail!("{url}: {}", response.status());
    }
    let size = if stream {
        let mut body = response.bytes_stream();
        body.next().await.context("the live stream ended")??.len()
    } else {
        response.bytes().await?.len()
    };
    Ok((started.elapsed(), size))
}
