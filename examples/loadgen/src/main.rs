//! tracker-loadgen: the benchmark suite of BENCHMARKS.md. `ingest` measures the HTTP ceiling, the storage
//! ceiling and the product in one run and prints ratios; `seed` fills a data folder through the core and
//! `seed-interactions` adds heatmap interactions to it; `query` times every dashboard read against a seeded
//! folder.

mod ceilings;
mod chaos;
mod daemon;
mod export_rss;
mod interactions;
mod load;
mod query;
mod replay_rss;
mod seed;
mod traffic;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};

use daemon::{Daemon, cpu_time};
use load::{LoadPlan, LoadReport};

#[derive(Parser)]
#[command(name = "tracker-loadgen", about = "Benchmarks of tracker: ingest with its ceilings, seeding, queries")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// HTTP ceiling, storage ceiling and the product, same load, one run; then stored hits == 2xx answers
    Ingest {
        /// The tracker binary to benchmark
        #[arg(long, default_value = "target/release/tracker")]
        tracker: PathBuf,
        /// Keep-alive connections
        #[arg(long, default_value_t = 64)]
        connections: usize,
        /// Seconds of load per measurement
        #[arg(long, default_value_t = 60)]
        duration: u64,
        /// Fixed total rate in hits/s (open loop); as fast as possible without it
        #[arg(long)]
        rate: Option<f64>,
        /// Use this data folder (e.g. a seeded one) instead of a fresh temporary one
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// Measure the product only
        #[arg(long)]
        no_ceilings: bool,
    },
    /// Fills a data folder with events through the core (user bench@example.com / benchmark-password)
    Seed {
        #[arg(long)]
        data_dir: PathBuf,
        #[arg(long, default_value_t = 1_000_000)]
        events: u64,
        #[arg(long, default_value_t = 4)]
        sites: usize,
        /// Days the events spread over, ending now (the daemon's default retention keeps 90 days of raw rows)
        #[arg(long, default_value_t = 365)]
        days: u32,
    },
    /// Adds heatmap interactions (clicks, moves, scroll depths, form-field events) to a seeded folder's page views
    SeedInteractions {
        #[arg(long)]
        data_dir: PathBuf,
    },
    /// Times every dashboard read over HTTP against a seeded data folder (its first site has most traffic)
    Query {
        #[arg(long, default_value = "target/release/tracker")]
        tracker: PathBuf,
        #[arg(long)]
        data_dir: PathBuf,
        #[arg(long, default_value_t = 30)]
        samples: usize,
        /// Only the endpoints whose names start with one of these (comma-separated), e.g. `advanced,ai-intent`
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
    },
    /// Peak memory of the daemon serving the largest allowed recording (GET /api/replays/{id}/events)
    ReplayRss {
        #[arg(long, default_value = "target/release/tracker")]
        tracker: PathBuf,
        /// Reads one after another, then as many at once
        #[arg(long, default_value_t = 4)]
        reads: usize,
    },
    /// Peak memory of the daemon streaming a large export (a folder seeded with `seed --sites 1`)
    ExportRss {
        #[arg(long, default_value = "target/release/tracker")]
        tracker: PathBuf,
        #[arg(long)]
        data_dir: PathBuf,
    },
    /// Chaos benchmark of issue 12: kill -9 under ingest load, hostile requests over every route
    Chaos(chaos::ChaosArgs),
    /// The bare warp endpoint of the HTTP ceiling (started by `ingest` as a child process)
    #[command(hide = true)]
    BareServer,
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Cmd::Ingest { tracker, connections, duration, rate, data_dir, no_ceilings } => {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            let duration = Duration::from_secs(duration);
            runtime.block_on(ingest(tracker, connections, duration, rate, data_dir, no_ceilings))
        }
        Cmd::Seed { data_dir, events, sites, days } => {
            let took = seed::seed(&data_dir, events, sites, days)?;
            let size = std::fs::metadata(daemon::database(&data_dir))?.len();
            println!(
                "seeded {events} events over {sites} sites and {days} days in {:.1} s ({:.0} events/s); database {:.0} MiB",
                took.as_secs_f64(),
                events as f64 / took.as_secs_f64(),
                size as f64 / (1 << 20) as f64
            );
            Ok(())
        }
        Cmd::SeedInteractions { data_dir } => {
            let took = interactions::seed(&data_dir)?;
            println!("added the interactions in {:.1} s", took.as_secs_f64());
            Ok(())
        }
        Cmd::Query { tracker, data_dir, samples, only } => {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            runtime.block_on(query(tracker, data_dir, samples, only))
        }
        Cmd::ReplayRss { tracker, reads } => {
            tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(replay_rss::run(tracker, reads))
        }
        Cmd::ExportRss { tracker, data_dir } => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?
            .block_on(export_rss::run(tracker, data_dir)),
        Cmd::Chaos(args) => chaos::run(args),
        Cmd::BareServer => ceilings::bare_server(),
    }
}

async fn ingest(
    tracker: PathBuf,
    connections: usize,
    duration: Duration,
    rate: Option<f64>,
    data_dir: Option<PathBuf>,
    no_ceilings: bool,
) -> anyhow::Result<()> {
    let tracker = tracker.canonicalize().with_context(|| format!("no tracker binary at {}", tracker.display()))?;
    let temp = tempfile::tempdir()?;
    let mode = match rate {
        Some(rate) => format!("open loop at {rate:.0} hits/s"),
        None => "closed loop".to_string(),
    };
    println!("load: {connections} keep-alive connections, {} s, {mode}", duration.as_secs());
    let plan = |addr, tracking_key: &str| LoadPlan {
        addr,
        tracking_key: tracking_key.to_string(),
        connections,
        duration,
        rate,
    };

    let mut http_ceiling = None;
    let mut storage_ceiling = None;
    if !no_ceilings {
        let mut command = Command::new(std::env::current_exe()?);
        command.arg("bare-server");
        let bare = Daemon::spawn(command)?;
        let (report, cpu) = measured_run(&plan(bare.addr, "bare"), bare.pid()).await?;
        bare.stop()?;
        println!("HTTP ceiling (bare warp, 202):     {}", report.summary());
        println!("  CPU per hit: load generator {:.1} µs, bare server {:.1} µs", cpu.load_us, cpu.server_us);
        http_ceiling = Some((report, cpu));

        let dir = temp.path().to_path_buf();
        let before = cpu_time(std::process::id())?;
        let storage = tokio::task::spawn_blocking(move || ceilings::storage(&dir, connections, duration)).await??;
        let storage_us = per_hit(cpu_time(std::process::id())? - before, storage.hits);
        println!(
            "storage ceiling (raw inserts, batches of {connections}, synchronous=FULL): {:.0} hits/s ({} batches)",
            storage.hits_per_s(),
            storage.batches
        );
        println!("  CPU per hit: {storage_us:.1} µs");
        storage_ceiling = Some((storage, storage_us));
    }

    let data_dir = data_dir.unwrap_or_else(|| temp.path().join("data"));
    let daemon = Daemon::start(&tracker, &data_dir)?;
    let client = reqwest::Client::new();
    let account = daemon::register(&client, &daemon.base).await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = daemon.memory()?;
    let before = daemon::stored_events(&data_dir, account.website_id)?;
    let (report, cpu) = measured_run(&plan(daemon.addr, &account.tracking_key), daemon.pid()).await?;
    let peak = daemon.memory()?;
    println!("product (tracker serve):           {}", report.summary());
    println!("  CPU per hit: load generator {:.1} µs, tracker serve {:.1} µs", cpu.load_us, cpu.server_us);
    daemon.stop()?;
    let stored = daemon::stored_events(&data_dir, account.website_id)? - before;

    println!(
        "stored hits {stored}, 2xx answers {}: {}",
        report.ok,
        if stored as u64 == report.ok { "equal" } else { "MISMATCH" }
    );
    println!(
        "daemon memory: idle VmRSS {:.1} MiB; peak VmHWM {:.1} MiB",
        idle.rss_kib as f64 / 1024.0,
        peak.hwm_kib as f64 / 1024.0
    );
    if let Some((http, _)) = &http_ceiling {
        println!("ratio to HTTP ceiling:    {:.2}", ratio(&report, http.hits_per_s()));
        println!("p99 vs HTTP ceiling p99:  {:.2} ms vs {:.2} ms", report.quantile_ms(0.99), http.quantile_ms(0.99));
    }
    if let Some((storage, _)) = &storage_ceiling {
        println!("ratio to storage ceiling: {:.2}", ratio(&report, storage.hits_per_s()));
    }
    // Only a closed loop runs as fast as the machine allows; at a fixed rate the cores idle between hits.
    if let (Some((http, bare)), Some((_, storage_us)), None) = (&http_ceiling, &storage_ceiling, rate) {
        // The product cannot cost less per hit than the bare endpoint plus the raw inserts, and it shares the
        // machine's cores with the load generator: that caps its rate before any of its own work.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        let floor_us = cpu.load_us + bare.server_us + storage_us;
        let bound = cores * 1e6 / floor_us;
        println!(
            "CPU bound: {cores:.0} cores / (load generator {:.1} + bare server {:.1} + raw inserts {storage_us:.1} µs \
             per hit) = {bound:.0} hits/s, {:.2} of the HTTP ceiling",
            cpu.load_us,
            bare.server_us,
            bound / http.hits_per_s()
        );
    }
    if stored as u64 != report.ok {
        bail!("stored hits ({stored}) differ from 2xx answers ({})", report.ok);
    }
    Ok(())
}

/// CPU time per 2xx hit during one load run, of the load generator (this process) and of the server.
struct CpuPerHit {
    load_us: f64,
    server_us: f64,
}

/// Runs the load against the server `server_pid` and measures both processes' CPU time over it.
async fn measured_run(plan: &LoadPlan, server_pid: u32) -> anyhow::Result<(LoadReport, CpuPerHit)> {
    let me = std::process::id();
    let (load_before, server_before) = (cpu_time(me)?, cpu_time(server_pid)?);
    let report = load::run(plan).await?;
    let (load_after, server_after) = (cpu_time(me)?, cpu_time(server_pid)?);
    let cpu = CpuPerHit {
        load_us: per_hit(load_after - load_before, report.ok),
        server_us: per_hit(server_after - server_before, report.ok),
    };
    Ok((report, cpu))
}

fn per_hit(cpu: Duration, hits: u64) -> f64 {
    cpu.as_secs_f64() * 1e6 / hits.max(1) as f64
}

fn ratio(report: &LoadReport, ceiling: f64) -> f64 {
    report.hits_per_s() / ceiling
}

async fn query(tracker: PathBuf, data_dir: PathBuf, samples: usize, only: Vec<String>) -> anyhow::Result<()> {
    let tracker = tracker.canonicalize().with_context(|| format!("no tracker binary at {}", tracker.display()))?;
    let daemon = Daemon::start(&tracker, &data_dir)?;
    let client = reqwest::Client::new();
    let token = daemon::login(&client, &daemon.base, seed::EMAIL, seed::PASSWORD).await?;
    let sites: serde_json::Value =
        client.get(format!("{}/api/websites", daemon.base)).bearer_auth(&token).send().await?.json().await?;
    let website_id = sites[0]["id"].as_i64().context("the data folder has no site: seed it first")?;
    let started = Instant::now();
    let timings = query::run(&daemon.base, &token, website_id, samples, &only).await?;
    let streams = query::run_streams(&daemon.base, &token, website_id, &only).await?;
    let memory = daemon.memory()?;
    daemon.stop()?;
    println!("| endpoint | range | first call ms | p50 ms | p95 ms | body bytes |");
    println!("|---|---|---:|---:|---:|---:|");
    for t in &timings {
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.2} | {} |",
            t.endpoint, t.range, t.first_ms, t.p50_ms, t.p95_ms, t.bytes
        );
    }
    let worst = timings.iter().filter(|t| t.range == "365d" || t.range == "-").map(|t| t.p95_ms).fold(0.0, f64::max);
    println!(
        "worst p95 over 365 days (and unranged reads): {worst:.2} ms; {:.1} s in all",
        started.elapsed().as_secs_f64()
    );
    if !streams.is_empty() {
        println!(
            "\nStreamed downloads: time to first byte (5 calls) and rows/s of one whole read, not a p95 of the \
             whole download (that would measure the site's size)."
        );
        println!("| stream | time to first byte p50 ms | p95 ms | rows | rows/s | MiB |");
        println!("|---|---:|---:|---:|---:|---:|");
        for s in &streams {
            println!(
                "| {} | {:.2} | {:.2} | {} | {:.0} | {:.1} |",
                s.endpoint,
                s.first_byte_p50_ms,
                s.first_byte_p95_ms,
                s.rows,
                s.rows as f64 / s.seconds,
                s.bytes as f64 / 1048576.0
            );
        }
    }
    println!("daemon VmHWM after the reads: {:.1} MiB", memory.hwm_kib as f64 / 1024.0);
    Ok(())
}
