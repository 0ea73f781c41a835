//! `replay-rss`: the daemon's memory while serving the largest recording a visit may store (issue 12, finding
//! 2). Uploads a recording at the inflated cap through `POST /api/replay` to a real `tracker serve`, then reads
//! `GET /api/replays/{id}/events` several times, one after another and then at once, and reports VmRSS of the
//! idle daemon and VmHWM over the reads (the peak is reset after the uploads through /proc/{pid}/clear_refs).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use flate2::Compression;
use flate2::write::GzEncoder;
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::daemon::{Daemon, Memory};

/// The recording caps of daemon/API.md: inflated bytes per recording and per chunk.
const RECORDING_INFLATED: usize = 64 * 1024 * 1024;
const CHUNK_INFLATED: usize = 8 * 1024 * 1024 - 64 * 1024;
const UA: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/// Runs the benchmark against `tracker` with `reads` sequential reads, then `reads` concurrent ones.
pub async fn run(tracker: PathBuf, reads: usize) -> anyhow::Result<()> {
    let tracker = tracker.canonicalize().with_context(|| format!("no tracker binary at {}", tracker.display()))?;
    let temp = tempfile::tempdir()?;
    let daemon = Daemon::start(&tracker, &temp.path().join("data"))?;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(300)).build()?;
    let (token, key) = owner_with_site(&client, &daemon.base).await?;
    let session = "replayrss-0000000001";
    post(
        &client,
        &daemon.base,
        "/api/track",
        json!({"tracking_key": key, "session_id": session, "url": "https://example.com/"}),
    )
    .await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = daemon.memory()?;

    // The largest recording: chunks just under the chunk cap until the recording's cap is reached.
    let mut uploaded = (0usize, 0usize);
    let mut seq = 0;
    // Up to the last KiB: a chunk smaller than one event is an empty array.
    while uploaded.0 + 1024 < RECORDING_INFLATED {
        let size = CHUNK_INFLATED.min(RECORDING_INFLATED - uploaded.0);
        let json = busy_page_events(size, seq);
        let gzip = gzip(&json)?;
        let url = format!("{}/api/replay?tracking_key={key}&session_id={session}&seq={seq}", daemon.base);
        let answer = client.post(url).header("user-agent", UA).body(gzip.clone()).send().await?;
        ensure!(answer.status().as_u16() == 202, "chunk {seq}: {} {}", answer.status(), answer.text().await?);
        uploaded.0 += json.len();
        uploaded.1 += gzip.len();
        seq += 1;
    }
    let one_more = gzip(&busy_page_events(64 * 1024, seq))?;
    let url = format!("{}/api/replay?tracking_key={key}&session_id={session}&seq={seq}", daemon.base);
    let refused = client.post(url).header("user-agent", UA).body(one_more).send().await?.status();
    println!(
        "recording: {seq} chunks, {:.1} MiB inflated, {:.1} MiB uploaded; one chunk more: {refused}",
        uploaded.0 as f64 / (1 << 20) as f64,
        uploaded.1 as f64 / (1 << 20) as f64
    );
    let after_upload = daemon.memory()?;

    let list: Value = client
        .get(format!("{}/api/websites/{}/session-replays", daemon.base, site_id(&client, &daemon.base, &token).await?))
        .bearer_auth(&token)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let replay = list[0]["id"].as_i64().context("no replay listed")?;
    let path = format!("{}/api/replays/{replay}/events", daemon.base);

    reset_peak(daemon.pid())?;
    let before_reads = daemon.memory()?;
    let started = Instant::now();
    let mut bytes = 0;
    for _ in 0..reads {
        bytes = read_events(&client, &path, &token).await?;
    }
    let sequential = daemon.memory()?;
    let sequential_s = started.elapsed().as_secs_f64() / reads as f64;
    let started = Instant::now();
    let concurrent: Vec<_> = (0..reads).map(|_| read_events(&client, &path, &token)).collect();
    for result in futures_util::future::join_all(concurrent).await {
        ensure!(result? == bytes, "concurrent reads differ in length");
    }
    let concurrent_s = started.elapsed().as_secs_f64();
    let peak = daemon.memory()?;
    daemon.stop()?;

    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "response: {:.1} MiB of JSON, valid, every event; {sequential_s:.2} s per read",
        bytes as f64 / (1 << 20) as f64
    );
    println!("idle daemon: VmRSS {:.1} MiB", mib(idle.rss_kib));
    println!(
        "after the uploads: VmRSS {:.1} MiB, VmHWM {:.1} MiB (peak reset here: VmRSS {:.1} MiB)",
        mib(after_upload.rss_kib),
        mib(after_upload.hwm_kib),
        mib(before_reads.rss_kib)
    );
    report("sequential reads", reads, sequential, idle);
    report(&format!("concurrent reads ({concurrent_s:.2} s)"), reads, peak, idle);
    let peak_mib = mib(peak.hwm_kib);
    println!(
        "target: peak under 128 MB while serving: {}",
        if peak_mib * 1.048_576 < 128.0 { "met" } else { "MISSED" }
    );
    Ok(())
}

fn report(what: &str, reads: usize, memory: Memory, idle: Memory) {
    println!(
        "{reads} {what}: peak VmHWM {:.1} MiB = {:.2} x idle VmRSS; VmRSS after {:.1} MiB",
        memory.hwm_kib as f64 / 1024.0,
        memory.hwm_kib as f64 / idle.rss_kib as f64,
        memory.rss_kib as f64 / 1024.0
    );
}

/// Resets VmHWM to the current resident set, so the next peak is the reads' own.
fn reset_peak(pid: u32) -> anyhow::Result<()> {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").context("cannot reset the peak (clear_refs)")
}

/// Reads the events body as it streams, checks it is one JSON document and returns its length.
async fn read_events(client: &reqwest::Client, url: &str, token: &str) -> anyhow::Result<usize> {
    let response = client.get(url).bearer_auth(token).send().await?.error_for_status()?;
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(piece) = stream.next().await {
        body.extend_from_slice(&piece?);
    }
    let parsed: serde_json::Map<String, Value> = serde_json::from_slice(&body).context("the events are not JSON")?;
    ensure!(parsed["events"].as_array().is_some_and(|e| !e.is_empty()), "no events");
    Ok(body.len())
}

/// About `size` bytes of rrweb mutation events that gzip like a busy page (tens of times, not thousands).
fn busy_page_events(size: usize, seed: u64) -> Vec<u8> {
    let mut json = String::with_capacity(size + 512);
    json.push('[');
    let mut state: u64 = 0x2545_f491_4f6c_dd1d ^ (seed + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut i = 0u64;
    loop {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let event = format!(
            r#"{{"type":3,"data":{{"source":0,"texts":[],"removes":[],"adds":[],"attributes":[{{"id":{},"attributes":{{"class":"product-card product-card--featured grid-item grid-item--wide","style":"transform: translate({}px, {}px)"}}}}]}},"timestamp":{}}}"#,
            state % 100_000,
            state % 997,
            (state >> 20) % 991,
            1_700_000_000_000 + i
        );
        if json.len() + event.len() + 2 > size {
            break;
        }
        if i > 0 {
            json.push(',');
        }
        json.push_str(&event);
        i += 1;
    }
    json.push(']');
    json.into_bytes()
}

fn gzip(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

async fn post(client: &reqwest::Client, base: &str, path: &str, body: Value) -> anyhow::Result<Value> {
    let answer = client.post(format!("{base}{path}")).header("user-agent", UA).json(&body).send().await?;
    let status = answer.status();
    let text = answer.text().await?;
    if !status.is_success() {
        bail!("{path}: {status} {text}");
    }
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A fresh user with one enhanced site (recordings on): (token, tracking key).
async fn owner_with_site(client: &reqwest::Client, base: &str) -> anyhow::Result<(String, String)> {
    let email = format!("replay-rss-{}@example.com", std::process::id());
    let session =
        post(client, base, "/api/register", json!({"email": email, "password": "benchmark-password"})).await?;
    let token = session["accessToken"].as_str().context("no accessToken")?.to_string();
    let site: Value = client
        .post(format!("{base}/api/websites"))
        .bearer_auth(&token)
        .json(&json!({"name": "Replay", "domain": "example.com", "trackingLevel": "enhanced"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok((token, site["trackingKey"].as_str().context("no trackingKey")?.to_string()))
}

async fn site_id(client: &reqwest::Client, base: &str, token: &str) -> anyhow::Result<i64> {
    let sites: Value =
        client.get(format!("{base}/api/websites")).bearer_auth(token).send().await?.error_for_status()?.json().await?;
    sites[0]["id"].as_i64().context("no site")
}
