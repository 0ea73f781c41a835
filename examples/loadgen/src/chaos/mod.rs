//! The chaos benchmark of issue 12, kept in the repo rather than run as a timed test. `kill` crashes
//! `tracker serve` with SIGKILL under ingest load, restarts it on the same data folder and checks that every
//! hit it acknowledged is stored; `hostile` sends malformed and hostile requests spread over every route and
//! fails on any 5xx, dropped connection, hang or panic, against one daemon on SQLite or (`--cluster`) daemons
//! of a cluster taking turns. All traffic goes to 127.0.0.1; counts and times are bounded. Each prints a summary and the command exits non-zero when anything failed.

pub(crate) mod hostile;
mod kill;
mod request;
mod routes;
mod seed;
mod values;

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use rand::Rng;

#[derive(Args)]
pub struct ChaosArgs {
    /// The tracker binary to crash and attack
    #[arg(long, default_value = "target/release/tracker", global = true)]
    tracker: PathBuf,
    /// Seed of the random choices (kill moments, hostile requests); printed, so a failing run can be replayed
    #[arg(long, global = true)]
    seed: Option<u64>,
    #[command(subcommand)]
    test: ChaosTest,
}

#[derive(Subcommand)]
enum ChaosTest {
    /// kill -9 the daemon under ingest load, restart it on the same folder, find every acknowledged hit
    Kill(KillArgs),
    /// Malformed and hostile requests over every route: no 5xx, no dropped connection, no hang, no panic
    Hostile(HostileArgs),
    /// `kill`, then `hostile`
    All {
        #[command(flatten)]
        kill: KillArgs,
        #[command(flatten)]
        hostile: HostileArgs,
    },
}

#[derive(Args)]
struct KillArgs {
    /// Crash and restart cycles
    #[arg(long, default_value_t = 50)]
    cycles: usize,
    /// Keep-alive connections sending hits during each cycle
    #[arg(long, default_value_t = 16)]
    connections: usize,
    /// The kill comes at a random moment between these many milliseconds of load...
    #[arg(long, default_value_t = 200)]
    min_kill_ms: u64,
    /// ...and these many
    #[arg(long, default_value_t = 2000)]
    max_kill_ms: u64,
}

#[derive(Args)]
struct HostileArgs {
    /// Hostile requests to send, spread evenly over the routes
    #[arg(long, default_value_t = 100_000)]
    requests: u64,
    /// Requests in flight at once (each on its own connection)
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Seconds a request may take before it counts as a hang
    #[arg(long, default_value_t = 20)]
    request_timeout: u64,
    /// The daemon's peak resident memory (VmHWM) above which the run fails
    #[arg(long, default_value_t = 512)]
    max_rss_mib: u64,
    /// Stop sending when the daemon's resident memory passes this (it shares the machine); the run fails
    #[arg(long, default_value_t = 3072)]
    abort_rss_mib: u64,
    /// Only the routes whose "METHOD /path" contains this text (to replay a failure)
    #[arg(long)]
    only: Option<String>,
    /// Attack daemons of the cluster the TRACKER_POSTGRES_URL and TRACKER_CLICKHOUSE_URL variables name (an
    /// empty one: the accounts are made afresh and some routes name database ids), request i going to daemon
    /// i mod --daemons, instead of one daemon on SQLite
    #[arg(long)]
    cluster: bool,
    /// Daemons started on the cluster
    #[arg(long, default_value_t = 2, requires = "cluster")]
    daemons: usize,
    /// Seconds to leave the daemon idle after the load before reading its VmRSS again (memory given back)
    #[arg(long, default_value_t = 0)]
    idle_seconds: u64,
}

/// A hostile run of `requests` against one daemon on SQLite, its memory read again after `idle_seconds`
/// (for `allocators`): the failed checks and the memory figures.
pub(crate) async fn hostile_memory(
    tracker: &std::path::Path,
    requests: u64,
    seed: u64,
    idle_seconds: u64,
) -> anyhow::Result<(Vec<String>, hostile::HostileMemory)> {
    let args = HostileArgs {
        requests,
        concurrency: 16,
        request_timeout: 20,
        max_rss_mib: 512,
        abort_rss_mib: 3072,
        only: None,
        cluster: false,
        daemons: 1,
        idle_seconds,
    };
    hostile::hostile(tracker, &args, seed).await
}

/// Runs the chosen part(s); an error means a failed benchmark (or one that could not run).
pub fn run(args: ChaosArgs) -> anyhow::Result<()> {
    let tracker =
        args.tracker.canonicalize().with_context(|| format!("no tracker binary at {}", args.tracker.display()))?;
    let seed = args.seed.unwrap_or_else(|| rand::rng().random());
    println!("chaos benchmark, seed {seed} (replay with --seed {seed})");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let mut failures = Vec::new();
    let (kill_args, hostile_args) = match args.test {
        ChaosTest::Kill(kill) => (Some(kill), None),
        ChaosTest::Hostile(hostile) => (None, Some(hostile)),
        ChaosTest::All { kill, hostile } => (Some(kill), Some(hostile)),
    };
    if let Some(kill_args) = kill_args {
        failures.extend(runtime.block_on(kill::kill(&tracker, &kill_args, seed))?);
    }
    if let Some(hostile_args) = hostile_args {
        failures.extend(runtime.block_on(hostile::hostile(&tracker, &hostile_args, seed))?.0);
    }
    if failures.is_empty() {
        println!("chaos: PASS");
        Ok(())
    } else {
        println!("chaos: FAIL");
        for failure in &failures {
            println!("  - {failure}");
        }
        bail!("{} chaos check(s) failed", failures.len())
    }
}
