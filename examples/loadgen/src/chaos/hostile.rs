//! Hostile requests over every route: sent, their outcomes counted per route, and the checks of a run.

use std::collections::BTreeMap;
use std::fs::File;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::bail;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::HostileArgs;
use super::request::hostile_request;
use super::routes::ROUTES;
use super::seed::seed_target;
use crate::daemon::{self, Daemon, JWT_SECRET};
use crate::laced;

/// The seeded state the hostile requests aim at.
pub(super) struct Seeded {
    pub(super) addr: SocketAddr,
    /// Every daemon attacked (the first is `addr`, which seeded the data).
    pub(super) addrs: Vec<SocketAddr>,
    pub(super) owner_token: String,
    pub(super) sacrificial_token: String,
    pub(super) sacrificial_refresh: String,
    pub(super) site: i64,
    pub(super) victim: i64,
    /// An owner's site no route deletes: where requests with a control character in one field go, so that
    /// the field is read rather than the request stopped at a deleted site's 404.
    pub(super) laced: i64,
    pub(super) other_site: i64,
    pub(super) replay: i64,
    pub(super) other_replay: i64,
    pub(super) key: String,
    pub(super) other_key: String,
    /// Authorization header values that must all be refused (401), or for `other`, see only 404s.
    pub(super) forged: Vec<(&'static str, String)>,
    pub(super) bombs: Vec<(&'static str, Vec<u8>)>,
}

pub(super) const OWNER_EMAIL: &str = "owner@chaos.test";
pub(super) const PASSWORD: &str = "chaos-password";

/// One prepared request: the bytes on the wire and what it tries.
pub(super) struct Attempt {
    pub(super) route: usize,
    pub(super) attack: String,
    pub(super) bytes: Vec<u8>,
    /// Shut down our sending side after the bytes (for bodies shorter than announced).
    pub(super) half_close: bool,
    /// An attack at the HTTP syntax level: the server may close the connection without an answer.
    pub(super) may_close: bool,
}

/// How one request ended.
enum Outcome {
    Status {
        status: u16,
        head: String,
    },
    /// Closed (or reset) before a complete response head.
    NoAnswer(String),
    Hang,
    ConnectFailed(String),
}

/// Per-route counts of status classes.
#[derive(Default, Clone, Copy)]
struct RouteCounts {
    sent: u64,
    classes: [u64; 6],
    closed: u64,
    failed: u64,
}

#[derive(Default)]
struct HostileStats {
    routes: Vec<RouteCounts>,
    /// Answers by status class for the attacks `laced::family` names (NUL bytes, other control characters,
    /// oversized funnels).
    families: BTreeMap<&'static str, [u64; 6]>,
    statuses: BTreeMap<u16, u64>,
    failures: Vec<String>,
    failure_count: u64,
    no_answer_allowed: u64,
}

/// The largest daemon's resident memory over a hostile run, in KiB.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HostileMemory {
    /// VmRSS once the target is seeded, before the first hostile request.
    pub(crate) seeded_kib: u64,
    /// VmHWM at the end of the load.
    pub(crate) peak_kib: u64,
    /// VmRSS at the end of the load.
    pub(crate) end_kib: u64,
    /// VmRSS after `--idle-seconds` without requests (what the allocator gave back); `None` without the wait.
    pub(crate) idle_kib: Option<u64>,
}

/// Returns the failed checks (empty when no request got a 5xx, a dropped connection or a hang, the daemon did
/// not panic, kept its memory bounded and still answers) and the daemon's memory over the run.
pub(super) async fn hostile(
    tracker: &Path,
    args: &HostileArgs,
    seed: u64,
) -> anyhow::Result<(Vec<String>, HostileMemory)> {
    let engine = if args.cluster {
        format!("{} daemons on the cluster, request i to daemon i mod {}", args.daemons, args.daemons)
    } else {
        "one daemon on SQLite".to_string()
    };
    println!(
        "hostile: {} requests over {} routes, {} at a time, {} s before a request counts as a hang; {engine}",
        args.requests,
        ROUTES.len(),
        args.concurrency,
        args.request_timeout
    );
    let temp = tempfile::tempdir()?;
    let cluster_env = if args.cluster {
        crate::cluster::config(temp.path())?;
        crate::cluster::settings()
    } else {
        Vec::new()
    };
    // Accounts made by the CLI, as an operator would, so the run works whatever the registration mode.
    for email in [OWNER_EMAIL, "other@chaos.test", "sacrificial@chaos.test"] {
        let mut command = std::process::Command::new(tracker);
        command
            .args(["users", "add", email, "--password", PASSWORD, "--data-dir"])
            .arg(temp.path().join("data-0"))
            .env("TRACKER_JWT_SECRET", JWT_SECRET)
            .stdout(std::process::Stdio::null());
        if args.cluster {
            command.envs(cluster_env.iter().cloned());
        } else {
            for (name, _) in crate::cluster::settings() {
                command.env_remove(name);
            }
        }
        if !command.status()?.success() {
            bail!(
                "tracker users add {email} failed{}",
                if args.cluster {
                    " (the cluster must be an empty one: tests/cluster/cluster.sh up NEW_DIR)"
                } else {
                    ""
                }
            );
        }
    }
    let mut daemons = Vec::new();
    let mut log_paths = Vec::new();
    for i in 0..if args.cluster { args.daemons.max(1) } else { 1 } {
        let (data_dir, log_path) = (temp.path().join(format!("data-{i}")), temp.path().join(format!("daemon-{i}.log")));
        daemons.push(if args.cluster {
            Daemon::start_in_cluster_logged(tracker, &data_dir, File::create(&log_path)?)?
        } else {
            Daemon::start_logged(tracker, &data_dir, File::create(&log_path)?)?
        });
        log_paths.push(log_path);
    }
    let mut seeded = seed_target(&daemons[0]).await?;
    seeded.addrs = daemons.iter().map(|d| d.addr).collect();
    let seeded = Arc::new(seeded);
    let rss_before = daemons.iter().map(Daemon::memory).collect::<anyhow::Result<Vec<_>>>()?;
    println!(
        "  seeded: 3 accounts, sites {} (data), {} (victim), {} (laced), {} (another account's)",
        seeded.site, seeded.victim, seeded.laced, seeded.other_site
    );

    let stats =
        Arc::new(Mutex::new(HostileStats { routes: vec![RouteCounts::default(); ROUTES.len()], ..Default::default() }));
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let timeout = Duration::from_secs(args.request_timeout);
    let total = args.requests as usize;
    let routes: Arc<Vec<usize>> = Arc::new(
        (0..ROUTES.len())
            .filter(|&i| {
                let name = format!("{} {}", ROUTES[i].method, ROUTES[i].path);
                args.only.as_deref().is_none_or(|only| name.contains(only))
            })
            .collect(),
    );
    if routes.is_empty() {
        bail!("no route matches --only");
    }
    let workers: Vec<_> = (0..args.concurrency)
        .map(|_| {
            let (seeded, stats, next, routes) = (seeded.clone(), stats.clone(), next.clone(), routes.clone());
            tokio::spawn(async move {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        return;
                    }
                    // Request i depends only on the seed and i: a failure can be replayed alone.
                    let mut rng = SmallRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                    let attempt = hostile_request(routes[index % routes.len()], &seeded, &mut rng);
                    let addr = seeded.addrs[index % seeded.addrs.len()];
                    let outcome = send(addr, &attempt, timeout).await;
                    let connect_failed = matches!(outcome, Outcome::ConnectFailed(_));
                    record(&stats, index, &attempt, outcome);
                    if connect_failed {
                        // The daemon is gone: nothing more to learn.
                        next.store(total, Ordering::Relaxed);
                        return;
                    }
                }
            })
        })
        .collect();
    // A daemon whose memory runs away would take the machine with it: stop sending in time.
    let watchdog = {
        let (next, limit_kib) = (next.clone(), args.abort_rss_mib * 1024);
        let pids: Vec<u32> = daemons.iter().map(Daemon::pid).collect();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                for &pid in &pids {
                    match daemon::memory_of(pid) {
                        Ok(memory) if memory.rss_kib > limit_kib => {
                            next.store(usize::MAX / 2, Ordering::Relaxed);
                            return Some(memory.rss_kib);
                        }
                        Ok(_) => {}
                        Err(_) => return None,
                    }
                }
            }
        })
    };
    for worker in workers {
        worker.await?;
    }
    watchdog.abort();
    let aborted = watchdog.await.ok().flatten();
    let elapsed = started.elapsed();

    // Afterwards every daemon still serves visitors and owners.
    let client = reqwest::Client::new();
    let (mut alive, mut alive_ok) = (Vec::new(), true);
    for daemon in &daemons {
        let config = client.get(format!("{}/api/track/config?tracking_key={}", daemon.base, seeded.key)).send().await;
        let user = client.get(format!("{}/api/user", daemon.base)).bearer_auth(&seeded.owner_token).send().await;
        alive.push(match (&config, &user) {
            (Ok(config), Ok(user)) => {
                format!("GET /api/track/config {}, GET /api/user {}", config.status().as_u16(), user.status().as_u16())
            }
            _ => "no answer".to_string(),
        });
        alive_ok &= matches!((&config, &user), (Ok(c), Ok(u)) if c.status().is_success() && u.status().as_u16() < 500);
    }
    let alive = alive.join("; ");
    let memories = daemons.iter().map(Daemon::memory).collect::<anyhow::Result<Vec<_>>>()?;
    let memory = daemon::Memory {
        rss_kib: memories.iter().map(|m| m.rss_kib).max().unwrap_or(0),
        hwm_kib: memories.iter().map(|m| m.hwm_kib).max().unwrap_or(0),
    };
    // A measured interval, not a wait for a condition: how much the allocator returns once the load is over.
    let idle_kib = if args.idle_seconds > 0 {
        tokio::time::sleep(Duration::from_secs(args.idle_seconds)).await;
        let idle = daemons.iter().map(Daemon::memory).collect::<anyhow::Result<Vec<_>>>()?;
        Some(idle.iter().map(|m| m.rss_kib).max().unwrap_or(0))
    } else {
        None
    };
    let stopped: Vec<anyhow::Result<()>> = daemons.into_iter().map(Daemon::stop).collect();
    let mut log_text = String::new();
    for log_path in &log_paths {
        log_text.push_str(&std::fs::read_to_string(log_path)?);
    }
    let panics: Vec<&str> = log_text.lines().filter(|l| l.contains("panicked")).collect();
    let errors: Vec<&str> = log_text.lines().filter(|l| l.contains("ERROR")).collect();

    let stats = stats.lock().unwrap_or_else(|e| e.into_inner());
    let sent: u64 = stats.routes.iter().map(|r| r.sent).sum();
    println!("  per route: requests, then answers by status class, closed without an answer, failures");
    println!("  | route | sent | 1xx | 2xx | 3xx | 4xx | 5xx | closed | failed |");
    println!("  |---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (route, counts) in ROUTES.iter().zip(&stats.routes).filter(|(_, c)| c.sent > 0) {
        let c = counts.classes;
        println!(
            "  | {} {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            route.method, route.path, counts.sent, c[1], c[2], c[3], c[4], c[5], counts.closed, counts.failed
        );
    }
    let class = |n: usize| stats.routes.iter().map(|r| r.classes[n]).sum::<u64>();
    println!(
        "hostile summary: {sent} requests over {} routes in {:.1} s ({:.0}/s); 2xx {}, 3xx {}, 4xx {}, 5xx {}; \
         closed without an answer on HTTP-syntax attacks {}; failures {}",
        routes.len(),
        elapsed.as_secs_f64(),
        sent as f64 / elapsed.as_secs_f64(),
        class(2),
        class(3),
        class(4),
        class(5),
        stats.no_answer_allowed,
        stats.failure_count
    );
    let statuses: Vec<String> = stats.statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
    println!("  statuses: {}", statuses.join(", "));
    for (family, c) in &stats.families {
        println!("  {family}: {} answered; 2xx {}, 4xx {}, 5xx {}", c.iter().sum::<u64>(), c[2], c[4], c[5]);
    }
    println!(
        "  daemon memory (the largest daemon's): VmRSS {:.1} MiB after seeding, peak VmHWM {:.1} MiB, VmRSS {:.1} \
         MiB at the end",
        rss_before.iter().map(|m| m.rss_kib).max().unwrap_or(0) as f64 / 1024.0,
        memory.hwm_kib as f64 / 1024.0,
        memory.rss_kib as f64 / 1024.0
    );
    if let Some(idle_kib) = idle_kib {
        println!("  VmRSS {:.1} MiB after {} s idle", idle_kib as f64 / 1024.0, args.idle_seconds);
    }
    println!("  afterwards: {alive}; panics in the log {}, ERROR lines {}", panics.len(), errors.len());
    for line in errors.iter().take(5) {
        println!("    log: {line}");
    }

    let mut failures = Vec::new();
    if let Some(rss_kib) = aborted {
        failures.push(format!(
            "hostile: stopped early, the daemon's memory reached {:.0} MiB (--abort-rss-mib {})",
            rss_kib as f64 / 1024.0,
            args.abort_rss_mib
        ));
    }
    if stats.failure_count > 0 {
        failures.push(format!("hostile: {} request(s) failed; the first ones:", stats.failure_count));
        failures.extend(stats.failures.iter().cloned());
    }
    if sent < args.requests {
        failures.push(format!("hostile: only {sent} of {} requests could be sent", args.requests));
    }
    for line in panics.iter().take(5) {
        failures.push(format!("hostile: the daemon panicked: {line}"));
    }
    if memory.hwm_kib > args.max_rss_mib * 1024 {
        failures.push(format!(
            "hostile: the daemon's peak memory {:.0} MiB is above {} MiB",
            memory.hwm_kib as f64 / 1024.0,
            args.max_rss_mib
        ));
    }
    if !alive_ok {
        failures.push(format!("hostile: the daemon does not answer properly afterwards ({alive})"));
    }
    for e in stopped.into_iter().filter_map(Result::err) {
        failures.push(format!("hostile: a daemon did not stop cleanly afterwards: {e}"));
    }
    let seeded_kib = rss_before.iter().map(|m| m.rss_kib).max().unwrap_or(0);
    Ok((failures, HostileMemory { seeded_kib, peak_kib: memory.hwm_kib, end_kib: memory.rss_kib, idle_kib }))
}

/// Sends one request on its own connection and reads the answer's head (the body until EOF, bounded, to
/// catch a connection cut mid-answer; a live stream's head only).
async fn send(addr: SocketAddr, attempt: &Attempt, timeout: Duration) -> Outcome {
    let mut stream = match tokio::net::TcpStream::connect(addr).await {
        Ok(stream) => stream,
        Err(e) => return Outcome::ConnectFailed(e.to_string()),
    };
    // Borrowed halves: dropping them does not shut the connection down (the server would see an EOF and may
    // drop the request in flight).
    let (mut reader, mut writer) = stream.split();
    let write = async {
        // The server may answer (413, 400) and close before reading the whole body: write errors are expected.
        let _ = writer.write_all(&attempt.bytes).await;
        if attempt.half_close {
            let _ = writer.shutdown().await;
        }
    };
    let read = async {
        let mut buf = Vec::with_capacity(4096);
        let mut chunk = vec![0u8; 64 * 1024];
        let ended = loop {
            match reader.read(&mut chunk).await {
                Ok(0) => break "closed".to_string(),
                Ok(n) => {
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(head) = final_head(&buf)
                        && (head.to_ascii_lowercase().contains("text/event-stream") || buf.len() > 32 << 20)
                    {
                        return Ok(head);
                    }
                }
                Err(e) => break e.to_string(),
            }
        };
        final_head(&buf).ok_or(ended)
    };
    let result = tokio::time::timeout(timeout, async {
        let (_, read) = tokio::join!(write, read);
        read
    })
    .await;
    match result {
        Err(_) => Outcome::Hang,
        Ok(Err(e)) => Outcome::NoAnswer(e),
        Ok(Ok(head)) => {
            let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            Outcome::Status { status, head }
        }
    }
}

/// The head of the final response in `buf` (after any 100 Continue), once complete.
fn final_head(buf: &[u8]) -> Option<String> {
    let mut rest = buf;
    loop {
        let end = rest.windows(4).position(|w| w == b"\r\n\r\n")?;
        let head = String::from_utf8_lossy(&rest[..end]).to_string();
        if head.starts_with("HTTP/1.1 1") || head.starts_with("HTTP/1.0 1") {
            rest = &rest[end + 4..];
            continue;
        }
        return Some(head);
    }
}

fn record(stats: &Mutex<HostileStats>, index: usize, attempt: &Attempt, outcome: Outcome) {
    let route = &ROUTES[attempt.route];
    let mut stats = stats.lock().unwrap_or_else(|e| e.into_inner());
    let counts = &mut stats.routes[attempt.route];
    counts.sent += 1;
    let failure = match &outcome {
        Outcome::Status { status, head } => {
            counts.classes[(*status as usize / 100).min(5)] += 1;
            if let Some(family) = laced::family(&attempt.attack) {
                stats.families.entry(family).or_default()[(*status as usize / 100).min(5)] += 1;
            }
            *stats.statuses.entry(*status).or_default() += 1;
            (*status >= 500 || *status < 100).then(|| format!("answered {}", head.lines().next().unwrap_or("")))
        }
        Outcome::NoAnswer(_) if attempt.may_close => {
            counts.closed += 1;
            stats.no_answer_allowed += 1;
            None
        }
        Outcome::NoAnswer(why) => {
            counts.closed += 1;
            Some(format!("no answer ({why})"))
        }
        Outcome::Hang => Some("no answer within the timeout (hang)".to_string()),
        Outcome::ConnectFailed(e) => Some(format!("cannot connect: {e} (the daemon is down)")),
    };
    if let Some(failure) = failure {
        let counts = &mut stats.routes[attempt.route];
        counts.failed += 1;
        stats.failure_count += 1;
        if stats.failures.len() < 20 {
            let request = printable(&attempt.bytes, 300);
            let head = match &outcome {
                Outcome::Status { head, .. } => format!("; response head: {}", printable(head.as_bytes(), 400)),
                _ => String::new(),
            };
            stats.failures.push(format!(
                "request #{index} to {} {} ({}): {failure}{head}; request: {request}",
                route.method, route.path, attempt.attack
            ));
        }
    }
}

/// The first `limit` bytes of a request or response, escaped so they print on one line.
fn printable(bytes: &[u8], limit: usize) -> String {
    let shown: String = bytes.iter().take(limit).flat_map(|b| std::ascii::escape_default(*b)).map(char::from).collect();
    if bytes.len() > limit { format!("{shown}... ({} bytes)", bytes.len()) } else { shown }
}
