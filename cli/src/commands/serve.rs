//! `tracker serve`: runs the daemon until SIGINT or SIGTERM, after printing the dashboard URL. Watches the
//! config file (if one was given) and applies reloadable settings without a restart, and runs retention
//! every `retention_interval_hours`, and sends the weekly reports and traffic alerts that are due.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use notify::{RecursiveMode, Watcher};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Registry, reload};
use tracker_core::Tracker;
use tracker_core::config::LogFormat;

use super::GlobalArgs;

#[derive(Args)]
#[command(after_help = "The config file (--config or TRACKER_CONFIG) is watched: log_level, trusted_proxies,\n\
login_attempts_per_minute, registration, registrations_per_hour, max_sites_per_account, api_key_requests_per_hour,\n\
retention_interval_hours, smtp_url, smtp_from and metrics_token apply when it is saved; other keys need a restart.\n\n\
Examples:\n  tracker serve\n  tracker serve --addr 0.0.0.0:8080 --data-dir /var/lib/tracker\n  \
tracker serve --config /etc/tracker/tracker.toml")]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080; env TRACKER_ADDR]; port 0 picks a free port
    #[arg(long, value_name = "HOST:PORT")]
    pub addr: Option<SocketAddr>,
}

/// Threads answering HTTP: one per core but the one the ingest writer keeps busy. Every hit waits on that
/// one writer thread, so a worker preempting it delays them all (on 2 cores, 2 workers ingested ~6% less
/// than 1; database reads run on the blocking pool either way).
fn http_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| cores.get().saturating_sub(1).max(1))
}

/// Drops warp's "server connection error" events. warp logs every connection that ends badly at ERROR, and
/// nearly all of them are a client hanging up mid-request: routine for tracking hits, sent as pages unload.
/// warp's other errors under the same target (accept errors such as too many open files) still show.
struct QuietHangUps;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for QuietHangUps {
    fn event_enabled(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) -> bool {
        if !event.metadata().target().starts_with("warp::server") {
            return true;
        }
        let mut message = Message::default();
        event.record(&mut message);
        !message.0.starts_with("server connection error")
    }
}

/// The text of an event's message field.
#[derive(Default)]
struct Message(String);

impl tracing::field::Visit for Message {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }
}

/// Replaces the log filter of the running subscriber.
type FilterHandle = reload::Handle<EnvFilter, Registry>;

pub fn run(global: &GlobalArgs, args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = global.config()?;
    if let Some(addr) = args.addr {
        config.addr = addr;
    }
    let filter = EnvFilter::try_new(&config.log_level).unwrap_or_else(|_| EnvFilter::new("info"));
    let (filter, filter_handle) = reload::Layer::new(filter);
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Fields at the top level of each JSON line, where log collectors look for them.
    let (text, json) = match config.log_format {
        LogFormat::Text => (Some(tracing_subscriber::fmt::layer().with_ansi(ansi).with_writer(std::io::stderr)), None),
        LogFormat::Json => {
            (None, Some(tracing_subscriber::fmt::layer().json().flatten_event(true).with_writer(std::io::stderr)))
        }
    };
    tracing_subscriber::registry().with(filter).with(QuietHangUps).with(text).with(json).init();

    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(http_workers()).enable_all().build()?;
    // Held while serving: a restore must not replace the database under a running daemon, and two daemons on
    // one folder would each keep their own visitor salts and visit memory.
    let _lock = tracker_core::db::backup::lock_folder(&config.data_dir)?;
    // Opened outside the runtime: cluster mode's PostgreSQL client is synchronous and runs its own.
    let tracker =
        Tracker::open(&config).with_context(|| format!("cannot open data folder {}", config.data_dir.display()))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {}", config.addr))?;
        let local = listener.local_addr()?;
        let url = match &config.public_url {
            Some(url) => format!("{}/", url.trim_end_matches('/')),
            None => format!("http://{local}/"),
        };
        // Noted before the address is printed, so whoever waits for that line finds the note.
        super::daemon_url::record(&config.data_dir, &format!("http://{local}"));
        println!("tracker {} listening on {local}", env!("CARGO_PKG_VERSION"));
        println!("Dashboard: {url}");
        tracing::info!(data_dir = %config.data_dir.display(), registration = config.registration.as_str(), "serving");
        if config.public_url.is_none() && !local.ip().is_loopback() {
            tracing::warn!(
                "public_url is not set: tracking snippets and scripts name this server by its address ({local}); \
                 set public_url to the URL visitors' browsers reach it by"
            );
        }
        // Kept alive for the daemon's lifetime; dropping it stops the watch.
        let _watcher = match global.config_path() {
            Some(path) => Some(watch_config(global.clone(), path, tracker.clone(), filter_handle)?),
            None => None,
        };
        // In cluster mode retention deletes the cluster's expired hits and warming rolls up its closed hours (one
        // daemon at a time); every daemon runs the email schedule, and each email's claim in PostgreSQL lets one
        // of them send it.
        tokio::spawn(retention_schedule(tracker.clone()));
        tokio::spawn(warm_schedule(tracker.clone()));
        tokio::spawn(tracker_daemon::email_schedule(tracker.clone()));
        tracker_daemon::serve(tracker, listener, shutdown_signal()).await;
        super::daemon_url::forget(&config.data_dir);
        tracing::info!("stopped");
        Ok(())
    })
}

/// Watches the config file's folder (editors often replace the file) and reloads on changes to it.
fn watch_config(
    global: GlobalArgs,
    path: PathBuf,
    tracker: Tracker,
    filter: FilterHandle,
) -> anyhow::Result<notify::RecommendedWatcher> {
    let (changed, mut changes) = tokio::sync::mpsc::unbounded_channel::<()>();
    let name = path.file_name().map(|n| n.to_os_string());
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && !event.kind.is_access()
            && event.paths.iter().any(|p| p.file_name() == name.as_deref())
        {
            let _ = changed.send(());
        }
    })
    .context("cannot watch the config file")?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    watcher
        .watch(&folder, RecursiveMode::NonRecursive)
        .with_context(|| format!("cannot watch {}", folder.display()))?;
    tracing::info!(path = %path.display(), "watching the config file");
    tokio::spawn(async move {
        while changes.recv().await.is_some() {
            // One save is often several events (truncate, write, rename): let them settle.
            tokio::time::sleep(Duration::from_millis(150)).await;
            while changes.try_recv().is_ok() {}
            reload_config(&global, &path, &tracker, &filter);
        }
    });
    Ok(watcher)
}

/// Loads the file again and applies what may change at run time; a bad file leaves everything as it was.
fn reload_config(global: &GlobalArgs, path: &Path, tracker: &Tracker, filter: &FilterHandle) {
    let new = match global.config() {
        Ok(new) => new,
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %format!("{e:#}").replace('\n', " "),
                "config file is invalid; keeping the running settings");
            return;
        }
    };
    let new_filter = match EnvFilter::try_new(&new.log_level) {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(log_level = %new.log_level, error = %e,
                "invalid log_level in config file; keeping the running settings");
            return;
        }
    };
    let changed = tracker.settings.reload(&new);
    if changed.contains(&"log_level")
        && let Err(e) = filter.reload(new_filter)
    {
        tracing::warn!(error = %e, "could not change the log filter");
    }
    let running = tracker.settings.get();
    let restart: Vec<&str> = [
        ("data_dir", running.data_dir != new.data_dir),
        ("addr", false),
        ("public_url", running.public_url != new.public_url),
        ("jwt_secret", running.jwt_secret != new.jwt_secret),
        ("jwt_secret_file", running.jwt_secret_file != new.jwt_secret_file),
        ("visitor_salt_key", running.visitor_salt_key != new.visitor_salt_key),
        ("visitor_salt_key_file", running.visitor_salt_key_file != new.visitor_salt_key_file),
        ("ingest_queue", running.ingest_queue != new.ingest_queue),
        ("ingest_batch", running.ingest_batch != new.ingest_batch),
        ("log_format", running.log_format != new.log_format),
    ]
    .into_iter()
    .filter_map(|(key, differs)| differs.then_some(key))
    .collect();
    if changed.is_empty() {
        tracing::info!(path = %path.display(), "config file reloaded; no reloadable setting changed");
    } else {
        tracing::info!(path = %path.display(), changed = %changed.join(", "), "config reloaded");
    }
    if !restart.is_empty() {
        tracing::warn!(keys = %restart.join(", "), "these settings change only after a restart");
    }
}

/// Counts the settled hours the funnels, journeys and Advanced Analytics reads store (`tracker_core::warm`)
/// 30 seconds after start, then every 15 minutes, so the first read after an upgrade or a deletion does not
/// count months of raw events while someone waits.
async fn warm_schedule(tracker: Tracker) {
    let mut ticks =
        tokio::time::interval_at(tokio::time::Instant::now() + Duration::from_secs(30), Duration::from_secs(900));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let worker = tracker.clone();
        let started = std::time::Instant::now();
        match tokio::task::spawn_blocking(move || worker.warm_stored_hours()).await {
            Ok(Ok(report)) => {
                tracing::debug!(sites = report.sites, failed = report.failed, took = ?started.elapsed(), "stored hours warmed")
            }
            Ok(Err(e)) => tracing::warn!(error = %e, "warming the stored hours failed; the next run tries again"),
            Err(e) => tracing::error!(error = %e, "warming task failed"),
        }
    }
}

/// How soon retention runs again after a failed run, instead of a whole interval: the first run after start
/// could fail on a database kept busy by the warming pass, and expired data then stayed a day longer.
const RETENTION_RETRY: Duration = Duration::from_secs(5 * 60);

/// Whether retention is due: a minute after start, then `interval` after a run that succeeded, or
/// [`RETENTION_RETRY`] after one that failed. `last` is how long ago the last run started
/// and whether it succeeded.
fn retention_due(since_start: Duration, last: Option<(Duration, bool)>, interval: Duration) -> bool {
    match last {
        None => since_start >= Duration::from_secs(60),
        Some((ago, true)) => ago >= interval,
        Some((ago, false)) => ago >= RETENTION_RETRY,
    }
}

/// Runs retention shortly after start and then every `retention_interval_hours` (re-read each minute, so a
/// reload applies; 0 pauses it), sooner again after a failure.
async fn retention_schedule(tracker: Tracker) {
    let mut last_run: Option<(tokio::time::Instant, bool)> = None;
    let started = tokio::time::Instant::now();
    loop {
        tokio::time::sleep(Duration::from_secs(60)).await;
        let hours = tracker.settings.get().retention_interval_hours;
        if hours == 0 {
            continue;
        }
        let last = last_run.map(|(at, succeeded)| (at.elapsed(), succeeded));
        if !retention_due(started.elapsed(), last, Duration::from_secs(hours.saturating_mul(3600))) {
            continue;
        }
        let run_at = tokio::time::Instant::now();
        let worker = tracker.clone();
        let worker_metrics = tracker.metrics.clone();
        let succeeded =
            match tokio::task::spawn_blocking(move || worker.events.apply_retention_at(tracker_core::model::now_ms()))
                .await
            {
                Ok(Ok(report)) => {
                    for (data, rows) in &report.total {
                        worker_metrics.retention_deleted(data, *rows);
                    }
                    let total: u64 = report.total.values().sum();
                    tracing::info!(deleted = total, detail = ?report.total, "retention applied");
                    true
                }
                Ok(Err(e)) => {
                    tracing::error!(error = %e, retry_in = ?RETENTION_RETRY, "retention failed");
                    false
                }
                Err(e) => {
                    tracing::error!(error = %e, retry_in = ?RETENTION_RETRY, "retention task failed");
                    false
                }
            };
        last_run = Some((run_at, succeeded));
    }
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_runs_after_a_minute_then_each_interval_and_soon_again_after_a_failure() {
        let (minute, day) = (Duration::from_secs(60), Duration::from_secs(24 * 3600));
        assert!(!retention_due(Duration::from_secs(59), None, day));
        assert!(retention_due(minute, None, day));
        assert!(!retention_due(day, Some((day - minute, true)), day));
        assert!(retention_due(day, Some((day, true)), day));
        assert!(!retention_due(day, Some((RETENTION_RETRY - minute, false)), day), "not at once after a failure");
        assert!(retention_due(day, Some((RETENTION_RETRY, false)), day), "a failure is retried within minutes");
    }
}
