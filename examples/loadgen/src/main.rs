//! tracker-loadgen: the benchmark suite of BENCHMARKS.md. `ingest` measures the HTTP ceiling, the storage
//! ceiling and the product in one run and prints ratios; `seed` fills a data folder through the core and
//! `seed-interactions` adds heatmap interactions to it; `query` times every dashboard read against a seeded
//! folder.

mod allocators;
mod ceilings;
mod chaos;
mod cluster;
mod daemon;
mod export_rss;
mod interactions;
mod laced;
mod load;
mod migrate;
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
    /// Ingest on a cluster (TRACKER_POSTGRES_URL, TRACKER_CLICKHOUSE_URL): the HTTP ceiling and one daemon on
    /// SQLite as baselines, then 1..=N daemons on the cluster, same load, one run; stored hits == 2xx on each
    IngestCluster {
        #[arg(long, default_value = "target/release/tracker")]
        tracker: PathBuf,
        #[arg(long, default_value_t = 64)]
        connections: usize,
        #[arg(long, default_value_t = 30)]
        duration: u64,
        /// The most daemons sharing the load (connections spread over them as a proxy would)
        #[arg(long, default_value_t = 2)]
        daemons: usize,
        /// Fixed total rate in hits/s (open loop); as fast as possible without it
        #[arg(long)]
        rate: Option<f64>,
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
        /// Into the cluster the TRACKER_POSTGRES_URL and TRACKER_CLICKHOUSE_URL variables name (the data folder
        /// then holds only the seeding process's lock)
        #[arg(long)]
        cluster: bool,
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
        /// Time the same reads on the cluster the TRACKER_* variables name (seeded with `seed --cluster` and the
        /// same counts) after the data folder's, and compare them
        #[arg(long)]
        cluster: bool,
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
    /// Times `tracker migrate --to-cluster` of a seeded folder into the (empty) cluster the TRACKER_* variables
    /// name, beside `tracker export` of the same rows
    Migrate {
        #[arg(long, default_value = "target/release/tracker")]
        tracker: PathBuf,
        #[arg(long)]
        data_dir: PathBuf,
    },
    /// Chaos benchmark of issue 12: kill -9 under ingest load, hostile requests over every route
    Chaos(chaos::ChaosArgs),
    /// Builds of tracker with different global allocators in turn, same run: ingest rate, the chaos run's peak
    /// memory and what is left after an idle interval, with ratios to the first build's
    Allocators {
        /// A build as NAME=PATH, the first the baseline (e.g. glibc=/tmp/alloc/glibc/tracker); two or more
        #[arg(long = "tracker", value_parser = allocators::parse_build, required = true)]
        builds: Vec<allocators::Build>,
        /// Rounds of every build in turn; each figure is the median over them
        #[arg(long, default_value_t = 2)]
        rounds: usize,
        /// Seconds of closed-loop ingest per build and round
        #[arg(long, default_value_t = 15)]
        ingest_seconds: u64,
        #[arg(long, default_value_t = 64)]
        connections: usize,
        /// Hostile requests per build and round (the chaos benchmark's default)
        #[arg(long, default_value_t = 100_000)]
        requests: u64,
        /// Seconds idle after the hostile requests before the last memory reading
        #[arg(long, default_value_t = 60)]
        idle_seconds: u64,
        /// Seed of the hostile requests (the same for every build)
        #[arg(long, default_value_t = 39)]
        seed: u64,
    },
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
        Cmd::Migrate { tracker, data_dir } => migrate::run(&tracker, &data_dir),
        Cmd::IngestCluster { tracker, connections, duration, daemons, rate } => {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            runtime.block_on(ingest_cluster(tracker, connections, Duration::from_secs(duration), daemons, rate))
        }
        Cmd::Seed { data_dir, events, sites, days, cluster } => {
            let config = if cluster {
                cluster::config(&data_dir)?
            } else {
                tracker_core::Config { data_dir: data_dir.clone(), ..tracker_core::Config::default() }
            };
            let took = seed::seed(&config, events, sites, days)?;
            let size = if cluster {
                cluster::bytes_on_disk(&config)?
            } else {
                std::fs::metadata(daemon::database(&data_dir))?.len()
            };
            println!(
                "seeded {events} events over {sites} sites and {days} days in {:.1} s ({:.0} events/s); {} {:.0} MiB",
                took.as_secs_f64(),
                events as f64 / took.as_secs_f64(),
                if cluster { "ClickHouse parts on disk" } else { "database" },
                size as f64 / (1 << 20) as f64
            );
            Ok(())
        }
        Cmd::SeedInteractions { data_dir } => {
            let took = interactions::seed(&data_dir)?;
            println!("added the interactions in {:.1} s", took.as_secs_f64());
            Ok(())
        }
        Cmd::Query { tracker, data_dir, samples, only, cluster: false } => {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            runtime.block_on(query(tracker, data_dir, samples, only))
        }
        Cmd::Query { tracker, data_dir, samples, only, cluster: true } => {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            runtime.block_on(query_cluster(tracker, data_dir, samples, only))
        }
        Cmd::ReplayRss { tracker, reads } => {
            tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(replay_rss::run(tracker, reads))
        }
        Cmd::ExportRss { tracker, data_dir } => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?
            .block_on(export_rss::run(tracker, data_dir)),
        Cmd::Chaos(args) => chaos::run(args),
        Cmd::Allocators { builds, rounds, ingest_seconds, connections, requests, idle_seconds, seed } => {
            let plan = allocators::Plan { rounds, ingest_seconds, connections, requests, idle_seconds, seed };
            tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(allocators::run(builds, plan))
        }
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
        addrs: vec![addr],
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

async fn ingest_cluster(
    tracker: PathBuf,
    connections: usize,
    duration: Duration,
    daemons: usize,
    rate: Option<f64>,
) -> anyhow::Result<()> {
    let tracker = tracker.canonicalize().with_context(|| format!("no tracker binary at {}", tracker.display()))?;
    let temp = tempfile::tempdir()?;
    let cluster_config = cluster::config(temp.path())?;
    let mode = match rate {
        Some(rate) => format!("open loop at {rate:.0} hits/s"),
        None => "closed loop".to_string(),
    };
    println!("load: {connections} keep-alive connections, {} s each, {mode}", duration.as_secs());
    let plan = |addrs: Vec<std::net::SocketAddr>, tracking_key: &str| LoadPlan {
        addrs,
        tracking_key: tracking_key.to_string(),
        connections,
        duration,
        rate,
    };
    let client = reqwest::Client::new();
    let mut rows: Vec<(String, LoadReport, CpuPerHit)> = Vec::new();

    let mut command = Command::new(std::env::current_exe()?);
    command.arg("bare-server");
    let bare = Daemon::spawn(command)?;
    let (report, cpu) = measured_run(&plan(vec![bare.addr], "bare"), bare.pid()).await?;
    bare.stop()?;
    rows.push(("HTTP ceiling (bare warp, 202)".into(), report, cpu));

    let data_dir = temp.path().join("sqlite");
    let daemon = Daemon::start(&tracker, &data_dir)?;
    let account = daemon::register(&client, &daemon.base).await?;
    let (report, cpu) = measured_run(&plan(vec![daemon.addr], &account.tracking_key), daemon.pid()).await?;
    daemon.stop()?;
    let stored = daemon::stored_events(&data_dir, account.website_id)? as u64;
    check_stored("one daemon on SQLite", stored, &report)?;
    rows.push(("one daemon on SQLite (baseline)".into(), report, cpu));

    for n in 1..=daemons.max(1) {
        let running: Vec<Daemon> = (0..n)
            .map(|i| Daemon::start_in_cluster(&tracker, &temp.path().join(format!("cluster-{n}-{i}"))))
            .collect::<anyhow::Result<_>>()?;
        let config = cluster_config.clone();
        let (website_id, tracking_key) = tokio::task::spawn_blocking(move || cluster::new_site(&config)).await??;
        let addrs = running.iter().map(|d| d.addr).collect();
        let pids: Vec<u32> = running.iter().map(Daemon::pid).collect();
        let (report, cpu) = measured_run_on(&plan(addrs, &tracking_key), &pids).await?;
        for daemon in running {
            daemon.stop()?;
        }
        let name = format!("{n} daemon{} on the cluster", if n == 1 { "" } else { "s" });
        check_stored(&name, cluster::stored_events(&cluster_config, website_id)?, &report)?;
        rows.push((name, report, cpu));
    }

    let ceiling = rows[0].1.hits_per_s();
    let baseline = rows[1].1.hits_per_s();
    println!(
        "| run | hits/s | p50 ms | p99 ms | rate to SQLite's | to the HTTP ceiling | CPU µs/hit: daemons | machine |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, report, cpu) in &rows {
        println!(
            "| {name} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {:.1} | {:.1} |",
            report.hits_per_s(),
            report.quantile_ms(0.5),
            report.quantile_ms(0.99),
            report.hits_per_s() / baseline,
            report.hits_per_s() / ceiling,
            cpu.server_us,
            cpu.machine_us
        );
    }
    Ok(())
}

/// Fails the run when the stored hits differ from the 2xx answers (a lost or duplicated acknowledged hit).
fn check_stored(run: &str, stored: u64, report: &LoadReport) -> anyhow::Result<()> {
    println!(
        "{run}: stored hits {stored}, 2xx answers {}: {}",
        report.ok,
        if stored == report.ok { "equal" } else { "MISMATCH" }
    );
    if stored != report.ok {
        bail!("{run}: stored hits ({stored}) differ from 2xx answers ({})", report.ok);
    }
    Ok(())
}

/// CPU time per 2xx hit during one load run, of the load generator (this process) and of the server.
struct CpuPerHit {
    load_us: f64,
    server_us: f64,
    /// Every process on the machine (with the cluster's databases, and anything else running).
    machine_us: f64,
}

/// Runs the load against the server `server_pid` and measures both processes' CPU time over it.
async fn measured_run(plan: &LoadPlan, server_pid: u32) -> anyhow::Result<(LoadReport, CpuPerHit)> {
    measured_run_on(plan, &[server_pid]).await
}

/// Runs the load against the servers `server_pids` and measures the load generator's CPU time and theirs
/// (summed) over it.
async fn measured_run_on(plan: &LoadPlan, server_pids: &[u32]) -> anyhow::Result<(LoadReport, CpuPerHit)> {
    let me = std::process::id();
    let servers = || -> anyhow::Result<Duration> { server_pids.iter().map(|&pid| cpu_time(pid)).sum() };
    let (load_before, server_before, machine_before) = (cpu_time(me)?, servers()?, daemon::machine_busy()?);
    let report = load::run(plan).await?;
    let (load_after, server_after, machine_after) = (cpu_time(me)?, servers()?, daemon::machine_busy()?);
    let cpu = CpuPerHit {
        load_us: per_hit(load_after - load_before, report.ok),
        server_us: per_hit(server_after - server_before, report.ok),
        machine_us: per_hit(machine_after.saturating_sub(machine_before), report.ok),
    };
    Ok((report, cpu))
}

fn per_hit(cpu: Duration, hits: u64) -> f64 {
    cpu.as_secs_f64() * 1e6 / hits.max(1) as f64
}

fn ratio(report: &LoadReport, ceiling: f64) -> f64 {
    report.hits_per_s() / ceiling
}

/// The seeded user's first (largest) site on a running daemon, and a token of the user.
async fn seeded_site(daemon: &Daemon) -> anyhow::Result<(String, i64)> {
    let client = reqwest::Client::new();
    let token = daemon::login(&client, &daemon.base, seed::EMAIL, seed::PASSWORD).await?;
    let sites: serde_json::Value =
        client.get(format!("{}/api/websites", daemon.base)).bearer_auth(&token).send().await?.json().await?;
    let website_id = sites[0]["id"].as_i64().context("no seeded site: seed it first")?;
    Ok((token, website_id))
}

/// The reads timed on the SQLite data folder, then on the cluster (seeded alike), in one table with the ratio
/// of the cluster's p95 to SQLite's; reads the cluster does not serve yet are marked so.
async fn query_cluster(tracker: PathBuf, data_dir: PathBuf, samples: usize, only: Vec<String>) -> anyhow::Result<()> {
    let tracker = tracker.canonicalize().with_context(|| format!("no tracker binary at {}", tracker.display()))?;
    let temp = tempfile::tempdir()?;
    let config = cluster::config(temp.path())?;
    // The seed's closed hours go into the cluster's rollups first, as the daemons' warming job would put them.
    let started = Instant::now();
    let settings = tracker_core::cluster::ClusterConfig::of(&config)?.context("no cluster configured")?;
    let mark = tokio::task::spawn_blocking(move || {
        tracker_core::cluster::Cluster::open(&settings)?.roll_up(tracker_core::model::now_ms())
    })
    .await??;
    println!("rolled up the closed hours (mark {mark:?}) in {:.1} s", started.elapsed().as_secs_f64());
    let daemon = Daemon::start(&tracker, &data_dir)?;
    let (token, website_id) = seeded_site(&daemon).await?;
    let on_sqlite = query::run(&daemon.base, &token, website_id, samples, &only).await?;
    daemon.stop()?;
    let daemon = Daemon::start_in_cluster(&tracker, &temp.path().join("data"))?;
    let (token, website_id) = seeded_site(&daemon).await?;
    let on_cluster = query::run(&daemon.base, &token, website_id, samples, &only).await?;
    let memory = daemon.memory()?;
    daemon.stop()?;
    println!("| endpoint | range | SQLite p50 ms | SQLite p95 ms | cluster p50 ms | cluster p95 ms | p95 ratio |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for t in &on_sqlite {
        match on_cluster.iter().find(|c| c.endpoint == t.endpoint && c.range == t.range) {
            Some(c) => println!(
                "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
                t.endpoint,
                t.range,
                t.p50_ms,
                t.p95_ms,
                c.p50_ms,
                c.p95_ms,
                c.p95_ms / t.p95_ms
            ),
            None => println!(
                "| {} | {} | {:.2} | {:.2} | not served in cluster mode yet | | |",
                t.endpoint, t.range, t.p50_ms, t.p95_ms
            ),
        }
    }
    println!("cluster daemon VmHWM after the reads: {:.1} MiB", memory.hwm_kib as f64 / 1024.0);
    Ok(())
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
