//! `allocators`: the same `tracker` built with each global allocator (cargo features of package `tracker`),
//! measured in one run, taking turns round after round so that the shared machine's noise biases none of them:
//! ingest rate and its peak, then the chaos benchmark's hostile requests with the peak, the memory at the end of
//! the load and after an idle interval (issue 39: glibc's per-thread arenas kept a burst's peak for good).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};

use crate::daemon::{self, Daemon};
use crate::load::{self, LoadPlan};

/// One allocator's build: its name in the tables and its binary.
#[derive(Clone, Debug)]
pub struct Build {
    pub name: String,
    pub binary: PathBuf,
}

/// Parses `NAME=PATH`.
pub fn parse_build(text: &str) -> Result<Build, String> {
    let (name, path) = text.split_once('=').ok_or("expected NAME=PATH, e.g. glibc=/tmp/tracker-glibc")?;
    Ok(Build { name: name.to_string(), binary: PathBuf::from(path) })
}

/// What the rounds ask of each build.
pub struct Plan {
    pub rounds: usize,
    pub ingest_seconds: u64,
    pub connections: usize,
    pub requests: u64,
    pub idle_seconds: u64,
    pub seed: u64,
}

/// One build's figures of one round.
#[derive(Clone, Copy, Default)]
struct Figures {
    hits_per_s: f64,
    ingest_peak_kib: u64,
    seeded_kib: u64,
    chaos_peak_kib: u64,
    end_kib: u64,
    idle_kib: u64,
}

/// Runs the rounds and prints each build's medians and their ratios to the first build's (the baseline).
pub async fn run(builds: Vec<Build>, plan: Plan) -> anyhow::Result<()> {
    if builds.len() < 2 {
        bail!("name at least two builds (the first is the baseline)");
    }
    let builds: Vec<Build> = builds
        .into_iter()
        .map(|b| {
            let binary =
                b.binary.canonicalize().with_context(|| format!("no tracker binary at {}", b.binary.display()))?;
            Ok(Build { name: b.name, binary })
        })
        .collect::<anyhow::Result<_>>()?;
    println!(
        "allocators: {} round(s) of, per build in turn: {} s of ingest on {} connections, then {} hostile requests \
         (seed {}) and {} s idle",
        plan.rounds, plan.ingest_seconds, plan.connections, plan.requests, plan.seed, plan.idle_seconds
    );
    let mut figures: Vec<Vec<Figures>> = vec![Vec::new(); builds.len()];
    let mut failures = Vec::new();
    for round in 0..plan.rounds {
        for (i, build) in builds.iter().enumerate() {
            println!("round {}, {}", round + 1, build.name);
            let mut f = ingest(build, &plan).await?;
            let (failed, memory) =
                crate::chaos::hostile_memory(&build.binary, plan.requests, plan.seed, plan.idle_seconds).await?;
            failures.extend(failed.into_iter().map(|f| format!("{} round {}: {f}", build.name, round + 1)));
            (f.seeded_kib, f.chaos_peak_kib, f.end_kib) = (memory.seeded_kib, memory.peak_kib, memory.end_kib);
            f.idle_kib = memory.idle_kib.unwrap_or(memory.end_kib);
            println!(
                "  {}: {:.0} hits/s (peak {:.1} MiB); chaos: {:.1} MiB seeded, peak {:.1}, end {:.1}, idle {:.1}",
                build.name,
                f.hits_per_s,
                mib(f.ingest_peak_kib),
                mib(f.seeded_kib),
                mib(f.chaos_peak_kib),
                mib(f.end_kib),
                mib(f.idle_kib)
            );
            figures[i].push(f);
        }
    }

    let medians: Vec<Figures> = figures.iter().map(|rounds| median(rounds)).collect();
    let base = medians[0];
    println!("medians of {} round(s); ratio to {} (the baseline) in brackets", plan.rounds, builds[0].name);
    println!(
        "| allocator | ingest hits/s | ingest peak MiB | chaos: after seeding MiB | chaos peak MiB | end of load MiB | \
         after {} s idle MiB |",
        plan.idle_seconds
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (build, m) in builds.iter().zip(&medians) {
        let kib = |value: u64, of: u64| format!("{:.1} ({:.2})", mib(value), value as f64 / of.max(1) as f64);
        println!(
            "| {} | {:.0} ({:.2}) | {} | {} | {} | {} | {} |",
            build.name,
            m.hits_per_s,
            m.hits_per_s / base.hits_per_s.max(1.0),
            kib(m.ingest_peak_kib, base.ingest_peak_kib),
            kib(m.seeded_kib, base.seeded_kib),
            kib(m.chaos_peak_kib, base.chaos_peak_kib),
            kib(m.end_kib, base.end_kib),
            kib(m.idle_kib, base.idle_kib)
        );
    }
    if !failures.is_empty() {
        println!("chaos checks failed:");
        for failure in &failures {
            println!("  - {failure}");
        }
        bail!("{} chaos check(s) failed", failures.len());
    }
    Ok(())
}

/// A fresh daemon under closed-loop ingest; fails when a 2xx hit was not stored.
async fn ingest(build: &Build, plan: &Plan) -> anyhow::Result<Figures> {
    let temp = tempfile::tempdir()?;
    let data_dir = temp.path().join("data");
    let daemon = Daemon::start(&build.binary, &data_dir)?;
    let account = daemon::register(&reqwest::Client::new(), &daemon.base).await?;
    let load = LoadPlan {
        addrs: vec![daemon.addr],
        tracking_key: account.tracking_key.clone(),
        connections: plan.connections,
        duration: Duration::from_secs(plan.ingest_seconds),
        rate: None,
    };
    let report = load::run(&load).await?;
    let peak = daemon.memory()?;
    daemon.stop()?;
    let stored = daemon::stored_events(&data_dir, account.website_id)? as u64;
    if stored != report.ok {
        bail!("{}: stored hits ({stored}) differ from 2xx answers ({})", build.name, report.ok);
    }
    Ok(Figures { hits_per_s: report.hits_per_s(), ingest_peak_kib: peak.hwm_kib, ..Figures::default() })
}

/// Each figure's median over the rounds (the lower middle of an even count).
fn median(rounds: &[Figures]) -> Figures {
    fn mid<T: Copy + PartialOrd>(mut values: Vec<T>) -> T {
        values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        values[(values.len() - 1) / 2]
    }
    let of = |pick: fn(&Figures) -> u64| mid(rounds.iter().map(pick).collect());
    Figures {
        hits_per_s: mid(rounds.iter().map(|f| f.hits_per_s).collect()),
        ingest_peak_kib: of(|f| f.ingest_peak_kib),
        seeded_kib: of(|f| f.seeded_kib),
        chaos_peak_kib: of(|f| f.chaos_peak_kib),
        end_kib: of(|f| f.end_kib),
        idle_kib: of(|f| f.idle_kib),
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}
