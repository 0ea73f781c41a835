//! The chaos benchmark of issue 12, kept in the repo rather than run as a timed test. `kill` crashes
//! `tracker serve` with SIGKILL under ingest load, restarts it on the same data folder and checks that every
//! hit it acknowledged is stored; `hostile` sends malformed and hostile requests spread over every route and
//! fails on any 5xx, dropped connection, hang or panic, against one daemon on SQLite or (`--cluster`) daemons
//! of a cluster taking turns. All traffic goes to 127.0.0.1; counts and times are bounded. Each prints a summary and the command exits non-zero when anything failed.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use clap::{Args, Subcommand};
use flate2::Compression;
use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
use http_body_util::{BodyExt, Full};
use hyper::Request;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::daemon::{self, Daemon, JWT_SECRET};
use crate::laced;
use crate::load;
use crate::traffic::{HitSpec, Visitor};

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
        failures.extend(runtime.block_on(kill(&tracker, &kill_args, seed))?);
    }
    if let Some(hostile_args) = hostile_args {
        failures.extend(runtime.block_on(hostile(&tracker, &hostile_args, seed))?);
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

// ---------------------------------------------------------------------------------------------------------
// kill -9 under ingest load
// ---------------------------------------------------------------------------------------------------------

/// What the ingest connections of one cycle saw.
#[derive(Default)]
struct IngestCounts {
    /// URLs of the hits answered 2xx: the daemon promised they are on disk.
    acked: Mutex<Vec<String>>,
    /// 503 (queue full, Retry-After): refused, not lost.
    unavailable: AtomicU64,
    /// Other 5xx: a failure whatever the crash.
    server_errors: AtomicU64,
    /// 4xx: a failure too (the hits are well-formed).
    rejected: AtomicU64,
}

/// Returns the failed checks (empty when every acknowledged hit was found after every restart).
async fn kill(tracker: &Path, args: &KillArgs, seed: u64) -> anyhow::Result<Vec<String>> {
    println!(
        "kill: {} cycles of kill -9 under ingest load ({} connections), the kill {}..{} ms after the first answer",
        args.cycles, args.connections, args.min_kill_ms, args.max_kill_ms
    );
    let mut rng = SmallRng::seed_from_u64(seed);
    let temp = tempfile::tempdir()?;
    let data_dir = temp.path().join("data");
    let log_path = temp.path().join("daemon.log");
    let log = || OpenOptions::new().create(true).append(true).open(&log_path);
    let mut daemon = Daemon::start_logged(tracker, &data_dir, log()?)?;
    let client = reqwest::Client::new();
    let account = daemon::register(&client, &daemon.base).await?;

    let mut failures = Vec::new();
    let (mut acked_total, mut stored_unacked_total, mut lost_total, mut unavailable_total) = (0, 0, 0, 0);
    let mut restarts = Vec::with_capacity(args.cycles);
    let started = Instant::now();
    for cycle in 1..=args.cycles {
        let counts = Arc::new(IngestCounts::default());
        let tasks: Vec<_> = (0..args.connections)
            .map(|connection| {
                let (key, counts) = (account.tracking_key.clone(), counts.clone());
                let marker = format!("{cycle}/{connection}");
                let seed = seed ^ ((cycle as u64) << 20 | connection as u64);
                tokio::spawn(ingest(daemon.addr, key, marker, seed, counts))
            })
            .collect();
        let kill_after = Duration::from_millis(rng.random_range(args.min_kill_ms..=args.max_kill_ms));
        // The moment counts from the first acknowledged hit: on a busy machine the load may take a while to start.
        let waiting = Instant::now();
        while counts.acked.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
            && waiting.elapsed() < Duration::from_secs(10)
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(kill_after).await;
        daemon.kill()?;
        for task in tasks {
            // Every connection ends on its first error, which the kill brings at once.
            tokio::time::timeout(Duration::from_secs(10), task)
                .await
                .context("an ingest connection did not notice the kill within 10 s")??;
        }

        let restarting = Instant::now();
        daemon = Daemon::start_logged(tracker, &data_dir, log()?)?;
        let restart = restarting.elapsed();
        restarts.push(restart);

        // Read what the restarted daemon sees (it has opened and recovered the database by now).
        let stored = stored_urls(&data_dir, account.website_id, &format!("{}/{cycle}/", MARKER_BASE))?;
        let acked = std::mem::take(&mut *counts.acked.lock().unwrap_or_else(|e| e.into_inner()));
        let lost: Vec<&String> = acked.iter().filter(|url| !stored.contains(*url)).collect();
        let stored_unacked = stored.len() - (acked.len() - lost.len());
        let unavailable = counts.unavailable.load(Ordering::Relaxed);
        let server_errors = counts.server_errors.load(Ordering::Relaxed);
        let rejected = counts.rejected.load(Ordering::Relaxed);
        println!(
            "  cycle {cycle:>3}: killed {:>4} ms into the load; acknowledged {:>5}, stored {:>5} ({stored_unacked} in flight \
             at the kill), lost {}; 503 {unavailable}, other 5xx {server_errors}, 4xx {rejected}; restart {:.0} ms",
            kill_after.as_millis(),
            acked.len(),
            stored.len(),
            lost.len(),
            restart.as_secs_f64() * 1000.0
        );
        if !lost.is_empty() {
            failures.push(format!(
                "kill cycle {cycle}: {} acknowledged hit(s) missing after the restart, e.g. {}",
                lost.len(),
                lost[0]
            ));
        }
        if server_errors > 0 || rejected > 0 {
            failures
                .push(format!("kill cycle {cycle}: {server_errors} 5xx (not 503) and {rejected} 4xx on valid hits"));
        }
        if acked.is_empty() {
            failures.push(format!("kill cycle {cycle}: no hit acknowledged before the kill (no load, no test)"));
        }
        acked_total += acked.len();
        stored_unacked_total += stored_unacked;
        lost_total += lost.len();
        unavailable_total += unavailable;
    }

    // The rollups are committed with the events: after all the crashes the dashboard must count what is stored.
    let stored_pageviews = stored_events(&data_dir, account.website_id)?;
    let overview: Value = client
        .get(format!("{}/api/dashboard/overview?website_id={}&range=7d", daemon.base, account.website_id))
        .bearer_auth(&account.access_token)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let dashboard_pageviews = overview["metrics"]["pageViews"].as_i64().context("no metrics.pageViews")?;
    daemon.stop()?;
    let log_text = std::fs::read_to_string(&log_path)?;
    let panics: Vec<&str> = log_text.lines().filter(|l| l.contains("panicked")).collect();

    restarts.sort();
    let restart_ms = |q: f64| {
        let index = ((restarts.len() as f64 * q).ceil() as usize).clamp(1, restarts.len()) - 1;
        restarts[index].as_secs_f64() * 1000.0
    };
    println!(
        "kill summary: {} cycles in {:.0} s; {acked_total} hits acknowledged, {lost_total} lost, \
         {stored_unacked_total} stored without an answer (in flight at a kill), {unavailable_total} refused with 503",
        args.cycles,
        started.elapsed().as_secs_f64()
    );
    println!(
        "  restart to listening: median {:.0} ms, max {:.0} ms; dashboard page views {dashboard_pageviews} vs \
         {stored_pageviews} stored; panics in the log {}",
        restart_ms(0.5),
        restart_ms(1.0),
        panics.len()
    );
    if dashboard_pageviews != stored_pageviews {
        failures.push(format!(
            "kill: the dashboard counts {dashboard_pageviews} page views but {stored_pageviews} are stored"
        ));
    }
    for line in panics.iter().take(5) {
        failures.push(format!("kill: the daemon panicked: {line}"));
    }
    Ok(failures)
}

/// Page URLs of the kill test: `{MARKER_BASE}/{cycle}/{connection}/{n}`, unique per hit.
const MARKER_BASE: &str = "https://example.com/chaos";

/// One keep-alive connection sending uniquely marked page views until the daemon goes away.
async fn ingest(addr: SocketAddr, tracking_key: String, marker: String, seed: u64, counts: Arc<IngestCounts>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let Ok(mut sender) = load::connect(addr).await else { return };
    let host = addr.to_string();
    let mut visitor = Visitor::new(&mut rng);
    for n in 0u64.. {
        if n % 4 == 0 {
            visitor = Visitor::new(&mut rng);
        }
        let url = format!("{MARKER_BASE}/{marker}/{n}");
        let hit = HitSpec {
            session_id: visitor.session_id.clone(),
            url: url.clone(),
            referrer: String::new(),
            event: None,
            event_name: None,
        };
        let Ok(request) = Request::post("/api/track")
            .header("host", &host)
            .header("content-type", "application/json")
            .header("user-agent", visitor.user_agent)
            .header("x-forwarded-for", visitor.ip.to_string())
            .body(Full::new(Bytes::from(hit.body(&tracking_key))))
        else {
            return;
        };
        if sender.ready().await.is_err() {
            return;
        }
        let Ok(response) = sender.send_request(request).await else { return };
        // The status line is sent only after the hit's batch is committed: from here on it must survive.
        let status = response.status();
        if status.is_success() {
            counts.acked.lock().unwrap_or_else(|e| e.into_inner()).push(url);
        } else if status.as_u16() == 503 {
            counts.unavailable.fetch_add(1, Ordering::Relaxed);
        } else if status.is_server_error() {
            counts.server_errors.fetch_add(1, Ordering::Relaxed);
        } else {
            counts.rejected.fetch_add(1, Ordering::Relaxed);
        }
        if response.into_body().collect().await.is_err() {
            return;
        }
    }
}

/// The page URLs stored for a site under a prefix, read from the database file (read-only).
fn stored_urls(data_dir: &Path, website_id: i64, prefix: &str) -> anyhow::Result<HashSet<String>> {
    let conn = rusqlite::Connection::open_with_flags(
        daemon::database(data_dir),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let mut statement = conn.prepare("SELECT url FROM events WHERE website_id = ?1 AND substr(url, 1, ?2) = ?3")?;
    let urls = statement
        .query_map(rusqlite::params![website_id, prefix.len() as i64, prefix], |row| row.get(0))?
        .collect::<Result<HashSet<String>, _>>()?;
    Ok(urls)
}

/// Page views stored for a site.
fn stored_events(data_dir: &Path, website_id: i64) -> anyhow::Result<i64> {
    let conn = rusqlite::Connection::open_with_flags(
        daemon::database(data_dir),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM events WHERE website_id = ?1 AND kind = 'pageview'",
        [website_id],
        |r| r.get(0),
    )?)
}

// ---------------------------------------------------------------------------------------------------------
// Hostile requests over every route
// ---------------------------------------------------------------------------------------------------------

/// How a route authenticates its caller.
#[derive(Clone, Copy, PartialEq)]
enum Auth {
    /// Visitors' and public routes.
    Public,
    /// `Authorization: Bearer` of the owner of the seeded data.
    Owner,
    /// `Authorization: Bearer` of a sacrificial account: routes that may revoke the caller's tokens.
    Sacrificial,
    /// The access token in the query (`token=`), as the live stream takes it.
    Query,
}

/// The body of a route's well-formed request.
#[derive(Clone, Copy)]
enum Body {
    None,
    /// JSON with placeholders (see `Seeded::fill`); ids stand unquoted so they can be replaced by any JSON value.
    Json(&'static str),
    /// A gzip of rrweb events (the replay upload).
    Replay,
}

/// One route of the daemon and a well-formed request to it; the hostile variants are derived from it.
struct Route {
    method: &'static str,
    /// With placeholders: `{site}` the owner's site with data, `{victim}` an owner's site that mutating routes
    /// may change or delete, `{replay}` the owner's recording, `{key}` the site's tracking key.
    path: &'static str,
    query: &'static str,
    body: Body,
    auth: Auth,
}

const fn route(method: &'static str, path: &'static str, query: &'static str, body: Body, auth: Auth) -> Route {
    Route { method, path, query, body, auth }
}

const TRACK_BODY: &str = r#"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/chaos","referrer":"https://news.ycombinator.com/","screen":"1920x1080"}"#;
/// A custom event and an identify call: every other string a visitor sends (event name, property keys and
/// values, traits).
const TRACK_EVENT_BODY: &str = r#"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/buy","event":"custom","event_name":"chaos_event","event_properties":{"plan":"pro","seats":3}}"#;
const TRACK_IDENTIFY_BODY: &str = r#"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/","event":"identify","event_properties":{"company":"Acme Corp","industry":"Software","email":"a@acme.example"}}"#;
/// Plausible's script's short keys and Umami's script's body, naming the site by its tracking key.
const PLAUSIBLE_BODY: &str = r#"{"n":"Signup","u":"https://example.com/chaos","d":"{key}","r":"https://news.ycombinator.com/","p":{"plan":"pro"}}"#;
const UMAMI_BODY: &str = r#"{"type":"event","payload":{"website":"{key}","hostname":"example.com","url":"/chaos","screen":"1920x1080","name":"chaos_event","data":{"plan":"pro"}}}"#;
const INTERACTIONS_BODY: &str = r##"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/pricing","viewport":{"w":1280,"h":800},"page":{"w":1280,"h":3000},"clicks":[{"x":10,"y":20,"selector":"#buy"}],"moves":[{"x":5,"y":6}],"submits":[{"selector":"form#signup"}],"fields":[{"form":"form#signup","field":"#email","event":"focus","filled":false}],"scrollDepth":50}"##;

/// Every route of the daemon (daemon/src/routes/*.rs and daemon/API.md), each with a well-formed request.
/// This table should become the one route list issue 13 asks for, so that the router, API.md and this
/// benchmark cannot drift apart; until then a route added to the daemon must be added here by hand.
const ROUTES: &[Route] = &[
    // Auth
    route("POST", "/api/register", "", Body::Json(r#"{"email":"{email}","password":"chaos-password"}"#), Auth::Public),
    route(
        "POST",
        "/api/login",
        "",
        Body::Json(r#"{"email":"owner@chaos.test","password":"wrong-password"}"#),
        Auth::Public,
    ),
    route("POST", "/api/refresh", "", Body::Json(r#"{"refreshToken":"{refresh}"}"#), Auth::Public),
    route("POST", "/api/logout", "", Body::Json(r#"{"refreshToken":"{refresh}"}"#), Auth::Sacrificial),
    route("GET", "/api/registration", "", Body::None, Auth::Public),
    route("POST", "/api/dashboard/live/ticket", "", Body::None, Auth::Owner),
    route("GET", "/api/user", "", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/user/password",
        "",
        Body::Json(r#"{"currentPassword":"wrong-password","newPassword":"chaos-new-password"}"#),
        Auth::Sacrificial,
    ),
    route("DELETE", "/api/user/account", "", Body::Json(r#"{"password":"wrong-password"}"#), Auth::Sacrificial),
    // Websites
    route("GET", "/api/websites", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites",
        "",
        Body::Json(r#"{"name":"Chaos","domain":"example.org","trackingLevel":"light"}"#),
        Auth::Owner,
    ),
    route("GET", "/api/websites/{site}", "", Body::None, Auth::Owner),
    route("PUT", "/api/websites/{victim}", "", Body::Json(r#"{"name":"Victim","domain":"example.net"}"#), Auth::Owner),
    route("DELETE", "/api/websites/{victim}", "", Body::None, Auth::Owner),
    // Visitors' routes and scripts
    route("GET", "/api/track/config", "tracking_key={key}", Body::None, Auth::Public),
    route("POST", "/api/track", "", Body::Json(TRACK_BODY), Auth::Public),
    route("POST", "/api/track", "", Body::Json(TRACK_EVENT_BODY), Auth::Public),
    route("POST", "/api/track", "", Body::Json(TRACK_IDENTIFY_BODY), Auth::Public),
    route("OPTIONS", "/api/track", "", Body::None, Auth::Public),
    route("POST", "/api/interactions", "", Body::Json(INTERACTIONS_BODY), Auth::Public),
    route("OPTIONS", "/api/interactions", "", Body::None, Auth::Public),
    // The other tools' endpoints (issue 38), naming the site by tracking key.
    route("POST", "/api/event", "", Body::Json(PLAUSIBLE_BODY), Auth::Public),
    route("OPTIONS", "/api/event", "", Body::None, Auth::Public),
    route("POST", "/api/send", "", Body::Json(UMAMI_BODY), Auth::Public),
    route("OPTIONS", "/api/send", "", Body::None, Auth::Public),
    route("GET", "/goatcounter/{key}/count", "p=%2Fchaos&r=&s=1920&q=&rnd={n}", Body::None, Auth::Public),
    route("POST", "/goatcounter/{key}/count", "p=chaos-event&e=true&rnd={n}", Body::None, Auth::Public),
    // An upload that is no export of the named tool: 400 with the importer's message (a victim's site: 404).
    route("POST", "/api/websites/{victim}/imports", "from=plausible", Body::Json(r#"{"not":"a file"}"#), Auth::Owner),
    route("POST", "/api/replay", "tracking_key={key}&session_id=chaos-replay&seq={n}", Body::Replay, Auth::Public),
    route("OPTIONS", "/api/replay", "", Body::None, Auth::Public),
    route("GET", "/tracking/{key}.js", "", Body::None, Auth::Public),
    route("GET", "/tracking.js", "", Body::None, Auth::Public),
    route("GET", "/tracer.js", "", Body::None, Auth::Public),
    route("GET", "/tracking/enhanced.js", "", Body::None, Auth::Public),
    // Dashboard reads
    route("GET", "/api/dashboard/overview", "website_id={site}&range=7d", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/live", "website_id={site}&token={token}", Body::None, Auth::Query),
    route("GET", "/api/websites/{site}/referrers", "range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/countries", "range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/breakdown/browser", "range=7d&limit=5", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/timeseries", "website_id={site}&range=7d", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/recent-activity", "website_id={site}&limit=10", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/sites", "metric=pageviews", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/conversions", "range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/identified-visitors", "", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/traffic-sources", "range=7d", Body::None, Auth::Owner),
    // Export
    route("GET", "/api/websites/{site}/export", "format=csv&range=7d&type=all", Body::None, Auth::Owner),
    route("GET", "/api/export/pageviews", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/export/events", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/export/events", "website_id={site}&range=7d&format=json", Body::None, Auth::Owner),
    // Privacy
    route("GET", "/api/privacy/settings", "website_id={site}", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/privacy/settings",
        "",
        Body::Json(
            r#"{"websiteId":{victim},"cookieConsent":false,"consentMessage":"We count visits.","privacyPolicyUrl":"https://example.com/privacy"}"#,
        ),
        Auth::Owner,
    ),
    route("GET", "/api/privacy/retention", "website_id={site}", Body::None, Auth::Owner),
    route("PUT", "/api/privacy/retention", "", Body::Json(r#"{"websiteId":{victim},"pageviews":90}"#), Auth::Owner),
    route("GET", "/api/privacy/consent-logs", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/privacy/audit-logs", "website_id={site}&offset=0&limit=10", Body::None, Auth::Owner),
    route("GET", "/api/privacy/export-data", "website_id={site}&data_type=sessions", Body::None, Auth::Owner),
    route("GET", "/api/privacy/visitor-data", "website_id={site}&visitor_id=chaos-visitor", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/privacy/delete-visitor",
        "",
        Body::Json(r#"{"websiteId":{victim},"visitorId":"chaos-visitor-{n}"}"#),
        Auth::Owner,
    ),
    route(
        "POST",
        "/api/privacy/delete-data",
        "",
        Body::Json(r#"{"websiteId":{victim},"dataType":"all"}"#),
        Auth::Owner,
    ),
    // Funnels and journeys
    route("GET", "/api/funnels", "website_id={site}&range=7d", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/funnels",
        "",
        Body::Json(
            r#"{"name":"chaos_{n}","websiteId":{victim},"steps":[{"name":"Home","url":"/"},{"name":"Buy","url":"/buy/*","eventName":"purchase"}]}"#,
        ),
        Auth::Owner,
    ),
    // Funnel ids are the database's; on another user's funnel (most of them) the answer is 404.
    route("GET", "/api/funnels/1", "range=7d", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/funnels/1",
        "",
        Body::Json(r#"{"name":"chaos_{n}","steps":[{"name":"Home","url":"/"},{"name":"Buy","url":"/buy/*"}]}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/funnels/2", "", Body::None, Auth::Owner),
    route("GET", "/api/funnels/1/drop-offs", "range=7d&limit=5", Body::None, Auth::Owner),
    route("GET", "/api/analytics/customer-journeys", "website_id={site}&period=7d&filter=all", Body::None, Auth::Owner),
    route("GET", "/api/analytics/journeys", "website_id={site}&period=7d", Body::None, Auth::Owner),
    // Heatmaps
    route("GET", "/api/analytics/urls", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/analytics/heatmap", "website_id={site}&url=/pricing&time_range=7d", Body::None, Auth::Owner),
    route("GET", "/api/analytics/heatmap/page", "website_id={site}&url=/pricing", Body::None, Auth::Owner),
    // Advanced analytics and AI intent
    route("GET", "/api/analytics/advanced", "website_id={site}&time_range=7d", Body::None, Auth::Owner),
    route("GET", "/api/analytics/ai-intent", "website_id={site}&time_range=24h", Body::None, Auth::Owner),
    // Visitor stream
    route("GET", "/api/analytics/live-visitors", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/analytics/sessions/1/journey", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/analytics/sessions/1", "website_id={site}", Body::None, Auth::Owner),
    // Replays
    route("GET", "/api/websites/{site}/session-replays", "limit=10&time_range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/session-replays/stats", "filter=all&range=30d", Body::None, Auth::Owner),
    route("GET", "/api/replays/{replay}/events", "", Body::None, Auth::Owner),
    route("GET", "/api/replays/{replay}", "", Body::None, Auth::Owner),
    route(
        "GET",
        "/api/websites/{site}/session-replays",
        "limit=100&filter=enterprise&range=30d",
        Body::None,
        Auth::Owner,
    ),
    // Events
    route("GET", "/api/websites/{site}/event-definitions", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/event-definitions",
        "",
        Body::Json(
            r##"{"name":"chaos_{n}","displayName":"Chaos","description":"A click on Buy","eventType":"click","selector":"#buy"}"##,
        ),
        Auth::Owner,
    ),
    route("GET", "/api/websites/{site}/events/summary", "timeRange=7d", Body::None, Auth::Owner),
    // The seeded "buy" definition is the database's first; on the victim site the id is another site's (404).
    route(
        "PUT",
        "/api/websites/{site}/event-definitions/1",
        "",
        Body::Json(r#"{"displayName":"Buy","isActive":true}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/websites/{victim}/event-definitions/1", "", Body::None, Auth::Owner),
    // Organizations
    route("GET", "/api/websites/{site}/organizations", "", Body::None, Auth::Owner),
    route("PUT", "/api/websites/{site}/organizations/1", "", Body::Json(r#"{"size":"small"}"#), Auth::Owner),
    // Account settings
    route("GET", "/api/user/settings", "", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/user/profile",
        "",
        Body::Json(r#"{"name":"Chaos","company":"","timezone":"Europe/Paris"}"#),
        Auth::Owner,
    ),
    route("PUT", "/api/user/notifications", "", Body::Json(r#"{"weeklyReports":false}"#), Auth::Owner),
    route("PUT", "/api/user/security", "", Body::Json(r#"{"sessionTimeout":480}"#), Auth::Owner),
    route(
        "PUT",
        "/api/user/email",
        "",
        Body::Json(r#"{"newEmail":"{email}","currentPassword":"wrong-password"}"#),
        Auth::Sacrificial,
    ),
    route("POST", "/api/user/email/verification", "", Body::None, Auth::Owner),
    route("POST", "/api/user/email/verify", "", Body::Json(r#"{"token":"not-a-token"}"#), Auth::Public),
    route("GET", "/api/user/export", "", Body::None, Auth::Owner),
    route("POST", "/api/user/two-factor/setup", "", Body::Json(r#"{"password":"wrong-password"}"#), Auth::Sacrificial),
    route(
        "POST",
        "/api/user/two-factor/enable",
        "",
        Body::Json(r#"{"password":"wrong-password","code":"000000"}"#),
        Auth::Sacrificial,
    ),
    route(
        "POST",
        "/api/user/two-factor/disable",
        "",
        Body::Json(r#"{"password":"wrong-password","code":"000000"}"#),
        Auth::Sacrificial,
    ),
    // API keys (a key made here is one of the account's 50; past them, creation answers 409)
    route("GET", "/api/user/api-keys", "", Body::None, Auth::Owner),
    route("POST", "/api/user/api-keys", "", Body::Json(r#"{"name":"chaos {n}","scope":"read"}"#), Auth::Sacrificial),
    route("DELETE", "/api/user/api-keys/{n}", "", Body::None, Auth::Sacrificial),
    // Annotations and saved segments (a site keeps at most 1000 and 100: past them, creation answers 409;
    // a segment's name is unique on its site, so the second run of a name answers 409 too)
    route("GET", "/api/websites/{site}/annotations", "range=30d", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/annotations",
        "",
        Body::Json(r#"{"date":"2026-11-20","text":"Chaos release {n}"}"#),
        Auth::Owner,
    ),
    route(
        "PUT",
        "/api/websites/{site}/annotations/1",
        "",
        Body::Json(r#"{"date":"2026-11-21","text":"Moved"}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/websites/{victim}/annotations/{n}", "", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/segments", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/segments",
        "",
        Body::Json(r#"{"name":"chaos {n}","filters":[["is","visit:country",["DE"]]]}"#),
        Auth::Owner,
    ),
    route(
        "PUT",
        "/api/websites/{site}/segments/1",
        "",
        Body::Json(r#"{"name":"Germany","filters":[["contains","event:page",["/blog"]]]}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/websites/{victim}/segments/{n}", "", Body::None, Auth::Owner),
    // Team members (issue 37): invitations made out to addresses no account has; roles of account ids that are
    // no member of the site (404); the signed-in account's invitations and accepting one that is not its own.
    route("GET", "/api/websites/{site}/members", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/members",
        "",
        Body::Json(r#"{"email":"chaos{n}@example.net","role":"viewer"}"#),
        Auth::Owner,
    ),
    route("PUT", "/api/websites/{site}/members/{n}", "", Body::Json(r#"{"role":"editor"}"#), Auth::Owner),
    route("DELETE", "/api/websites/{victim}/members/{n}", "", Body::None, Auth::Owner),
    route("DELETE", "/api/websites/{victim}/invitations/{n}", "", Body::None, Auth::Owner),
    route("POST", "/api/websites/{victim}/owner", "", Body::Json(r#"{"memberId":{n}}"#), Auth::Owner),
    route("GET", "/api/user/invitations", "", Body::None, Auth::Owner),
    route("POST", "/api/user/invitations/{n}/accept", "", Body::Json(r#"{"token":"not-a-token"}"#), Auth::Owner),
    // Share links (issue 37): the owner's, and what a link opens (an unknown slug here: 404, never a 5xx).
    route("GET", "/api/websites/{site}/shared-links", "", Body::None, Auth::Owner),
    route("POST", "/api/websites/{victim}/shared-links", "", Body::Json(r#"{"name":"chaos {n}"}"#), Auth::Owner),
    route("DELETE", "/api/websites/{victim}/shared-links/{n}", "", Body::None, Auth::Owner),
    route("GET", "/api/share/chaos-no-such-slug-000000", "", Body::None, Auth::Public),
    route(
        "POST",
        "/api/share/chaos-no-such-slug-000000/session",
        "",
        Body::Json(r#"{"password":"guess"}"#),
        Auth::Public,
    ),
    route("GET", "/api/share/chaos-no-such-slug-000000/overview", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/timeseries", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/breakdown/browser", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/traffic-sources", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/referrers", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/countries", "range=7d", Body::None, Auth::Public),
    route("GET", "/share/chaos-no-such-slug-000000", "", Body::None, Auth::Public),
    // The Stats API over the sites the chaos run creates (example.org), filtered and grouped.
    route(
        "POST",
        "/api/v2/query",
        "",
        Body::Json(
            r#"{"site_id":"example.org","metrics":["visitors","pageviews"],"date_range":"7d","dimensions":["visit:source"],"filters":[["contains","event:page",["/"]]]}"#,
        ),
        Auth::Owner,
    ),
    route("GET", "/tracking/legacy.js", "", Body::None, Auth::Public),
    // The dashboard app, its assets and the 404 page
    route("GET", "/", "", Body::None, Auth::Public),
    route("GET", "/dashboard", "", Body::None, Auth::Public),
    route("GET", "/assets/index.js", "", Body::None, Auth::Public),
    route("GET", "/no-such-page", "", Body::None, Auth::Public),
];

/// The seeded state the hostile requests aim at.
struct Seeded {
    addr: SocketAddr,
    /// Every daemon attacked (the first is `addr`, which seeded the data).
    addrs: Vec<SocketAddr>,
    owner_token: String,
    sacrificial_token: String,
    sacrificial_refresh: String,
    site: i64,
    victim: i64,
    /// An owner's site no route deletes: where requests with a control character in one field go, so that
    /// the field is read rather than the request stopped at a deleted site's 404.
    laced: i64,
    other_site: i64,
    replay: i64,
    other_replay: i64,
    key: String,
    other_key: String,
    /// Authorization header values that must all be refused (401), or for `other`, see only 404s.
    forged: Vec<(&'static str, String)>,
    bombs: Vec<(&'static str, Vec<u8>)>,
}

const OWNER_EMAIL: &str = "owner@chaos.test";
const PASSWORD: &str = "chaos-password";

/// One prepared request: the bytes on the wire and what it tries.
struct Attempt {
    route: usize,
    attack: String,
    bytes: Vec<u8>,
    /// Shut down our sending side after the bytes (for bodies shorter than announced).
    half_close: bool,
    /// An attack at the HTTP syntax level: the server may close the connection without an answer.
    may_close: bool,
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

/// Returns the failed checks (empty when no request got a 5xx, a dropped connection or a hang, the daemon did
/// not panic, kept its memory bounded and still answers).
async fn hostile(tracker: &Path, args: &HostileArgs, seed: u64) -> anyhow::Result<Vec<String>> {
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
    Ok(failures)
}

/// Logs in the CLI-made accounts, creates their sites, and sends some real data (hits, interactions,
/// recordings, an event definition) so that the reads have something to read.
async fn seed_target(daemon: &Daemon) -> anyhow::Result<Seeded> {
    let client = reqwest::Client::new();
    let base = &daemon.base;
    let session = |email: &'static str| {
        let client = client.clone();
        async move {
            let session: Value = client
                .post(format!("{base}/api/login"))
                .json(&json!({"email": email, "password": PASSWORD}))
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            anyhow::Ok((
                session["accessToken"].as_str().context("no accessToken")?.to_string(),
                session["refreshToken"].as_str().context("no refreshToken")?.to_string(),
                session["user"]["id"].as_i64().context("no user id")?,
            ))
        }
    };
    let (owner_token, _, owner_id) = session(OWNER_EMAIL).await?;
    let (other_token, _, _) = session("other@chaos.test").await?;
    let (sacrificial_token, sacrificial_refresh, _) = session("sacrificial@chaos.test").await?;
    // One account tracks a domain once: each of the owner's sites has its own.
    let create_site = |token: String, name: &'static str, domain: &'static str, level: &'static str| {
        let client = client.clone();
        async move {
            let site: Value = client
                .post(format!("{base}/api/websites"))
                .bearer_auth(token)
                .json(&json!({"name": name, "domain": domain, "trackingLevel": level}))
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            anyhow::Ok((
                site["id"].as_i64().context("no site id")?,
                site["trackingKey"].as_str().context("no trackingKey")?.to_string(),
            ))
        }
    };
    let (site, key) = create_site(owner_token.clone(), "Chaos", "example.com", "professional").await?;
    let (victim, _) = create_site(owner_token.clone(), "Victim", "victim.example.com", "light").await?;
    let (laced, _) = create_site(owner_token.clone(), "Laced", "laced.example.com", "professional").await?;
    let (other_site, other_key) = create_site(other_token.clone(), "Other", "example.com", "professional").await?;

    let mut rng = SmallRng::seed_from_u64(1);
    for (n, tracking_key) in [&key, &other_key].into_iter().enumerate() {
        for i in 0..40 {
            let mut visitor = Visitor::new(&mut rng);
            let mut hit = visitor.next_hit(&mut rng, true);
            let event = ["pageview", "custom", "conversion", "identify", "outbound"][i % 5];
            let mut body: Value = serde_json::from_str(&hit.body(tracking_key))?;
            body["event"] = event.into();
            body["event_name"] = "chaos_event".into();
            body["event_properties"] = match event {
                "conversion" => json!({"value": 9.5, "currency": "EUR"}),
                "identify" => json!({"company": "Acme Corp", "industry": "Software"}),
                "outbound" => json!({"href": "https://elsewhere.example/"}),
                _ => json!({"plan": "pro"}),
            };
            hit.session_id = format!("seed-session-{n}-{i}");
            body["session_id"] = hit.session_id.clone().into();
            client
                .post(format!("{base}/api/track"))
                .header("user-agent", visitor.user_agent)
                .body(body.to_string())
                .send()
                .await
                .map(checked)?
                .await?;
            let interactions =
                INTERACTIONS_BODY.replace("{key}", tracking_key).replace("{n}", &format!("seed-{n}-{i}"));
            client
                .post(format!("{base}/api/interactions"))
                .header("user-agent", visitor.user_agent)
                .body(interactions)
                .send()
                .await
                .map(checked)?
                .await?;
        }
        for seq in 0..3 {
            client
                .post(format!("{base}/api/replay?tracking_key={tracking_key}&session_id=chaos-replay&seq={seq}"))
                .header("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0")
                .body(replay_chunk())
                .send()
                .await
                .map(checked)?
                .await?;
        }
    }
    client
        .post(format!("{base}/api/websites/{site}/event-definitions"))
        .bearer_auth(&owner_token)
        .json(&json!({"name": "buy", "displayName": "Buy", "eventType": "click", "selector": "#buy"}))
        .send()
        .await?
        .error_for_status()?;
    let replay_of = |token: String, site: i64| {
        let client = client.clone();
        async move {
            let list: Value = client
                .get(format!("{base}/api/websites/{site}/session-replays"))
                .bearer_auth(token)
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            list[0]["id"].as_i64().context("the seeded recording is not listed")
        }
    };
    let replay = replay_of(owner_token.clone(), site).await?;
    let other_replay = replay_of(other_token.clone(), other_site).await?;

    let now = chrono_now();
    let sign = |claims: Value, secret: &[u8], algorithm: jsonwebtoken::Algorithm| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::new(algorithm),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(secret),
        )
    };
    let real = JWT_SECRET.as_bytes();
    let hs256 = jsonwebtoken::Algorithm::HS256;
    let unsigned = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#),
        URL_SAFE_NO_PAD.encode(json!({"sub": owner_id.to_string(), "iat": now, "exp": now + 600}).to_string())
    );
    // The owner's real token with its claims swapped for another id, the signature kept.
    let tampered = {
        let parts: Vec<&str> = owner_token.split('.').collect();
        let claims = URL_SAFE_NO_PAD
            .encode(json!({"sub": (owner_id + 1).to_string(), "iat": now, "exp": now + 600}).to_string());
        format!("{}.{claims}.{}", parts[0], parts.get(2).unwrap_or(&""))
    };
    let forged = vec![
        ("no token", String::new()),
        ("garbage token", "Bearer not-a-token".to_string()),
        ("empty bearer", "Bearer ".to_string()),
        ("huge token", format!("Bearer {}", "A".repeat(200_000))),
        ("basic auth", "Basic b3duZXJAY2hhb3MudGVzdDpjaGFvcy1wYXNzd29yZA==".to_string()),
        (
            "expired token",
            format!(
                "Bearer {}",
                sign(json!({"sub": owner_id.to_string(), "iat": now - 7200, "exp": now - 3600}), real, hs256)?
            ),
        ),
        ("alg none token", format!("Bearer {unsigned}")),
        (
            "token of another key",
            format!(
                "Bearer {}",
                sign(
                    json!({"sub": owner_id.to_string(), "iat": now, "exp": now + 600}),
                    b"some-other-secret-some-other-secret",
                    hs256
                )?
            ),
        ),
        (
            "HS512 token",
            format!(
                "Bearer {}",
                sign(
                    json!({"sub": owner_id.to_string(), "iat": now, "exp": now + 600}),
                    real,
                    jsonwebtoken::Algorithm::HS512
                )?
            ),
        ),
        (
            "token without exp",
            format!("Bearer {}", sign(json!({"sub": owner_id.to_string(), "iat": now}), real, hs256)?),
        ),
        (
            "token of a missing account",
            format!("Bearer {}", sign(json!({"sub": "987654321", "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        (
            "token with sub abc",
            format!("Bearer {}", sign(json!({"sub": "abc", "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        (
            "token with sub -1",
            format!("Bearer {}", sign(json!({"sub": "-1", "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        (
            "token with a numeric sub",
            format!("Bearer {}", sign(json!({"sub": owner_id, "iat": now, "exp": now + 600}), real, hs256)?),
        ),
        ("tampered token", format!("Bearer {tampered}")),
        ("token with a suffix", format!("Bearer {owner_token}x")),
        ("token in the wrong scheme", format!("Token {owner_token}")),
        ("another account's token", format!("Bearer {other_token}")),
    ];
    Ok(Seeded {
        addr: daemon.addr,
        addrs: vec![daemon.addr],
        owner_token,
        sacrificial_token,
        sacrificial_refresh,
        site,
        victim,
        laced,
        other_site,
        replay,
        other_replay,
        key,
        other_key,
        forged,
        bombs: bombs()?,
    })
}

fn chrono_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// A small well-formed recording chunk: a Meta event and a click.
fn replay_chunk() -> Vec<u8> {
    let now = chrono_now() * 1000;
    let events = json!([
        {"type": 4, "data": {"href": "https://example.com/", "width": 1280, "height": 800}, "timestamp": now},
        {"type": 3, "data": {"source": 2, "type": 2, "id": 1, "x": 10, "y": 20}, "timestamp": now + 500},
    ]);
    gzip(events.to_string().as_bytes())
}

/// Compressed bodies for the replay upload (and, with Content-Encoding, for JSON routes).
fn bombs() -> anyhow::Result<Vec<(&'static str, Vec<u8>)>> {
    let zeros = gzip(&vec![0u8; 64 << 20]);
    let mut deflate = DeflateEncoder::new(Vec::new(), Compression::best());
    deflate.write_all(&[b'['; 1 << 20])?;
    let mut zlib = ZlibEncoder::new(Vec::new(), Compression::best());
    zlib.write_all(br#"[{"type":4,"data":{},"timestamp":1}]"#)?;
    let chunk = replay_chunk();
    let mut many = Vec::with_capacity(8 << 20);
    many.push(b'[');
    // Just under the 8 MiB inflated cap: 2.7 million empty objects, each a heap allocation once parsed.
    for _ in 0..2_700_000 {
        many.extend_from_slice(b"{},");
    }
    many.extend_from_slice(b"{}]");
    let mut long_string = br#"[{"type":2,"data":""#.to_vec();
    long_string.extend(std::iter::repeat_n(b'x', 7 << 20));
    long_string.extend_from_slice(br#"","timestamp":1}]"#);
    let mut trailing = chunk.clone();
    trailing.extend_from_slice(b"trailing garbage after the gzip member");
    let mut bad_crc = chunk.clone();
    let crc_at = bad_crc.len() - 8;
    bad_crc[crc_at] ^= 0xff;
    Ok(vec![
        ("gzip of 64 MiB of zeros", zeros.clone()),
        ("gzip of a gzip of 64 MiB of zeros", gzip(&zeros)),
        ("gzip of 1 MiB of '['", gzip(&[b'['; 1 << 20])),
        ("gzip of 2.7 million empty objects (8 MiB)", gzip(&many)),
        ("gzip of one 7 MiB string", gzip(&long_string)),
        ("gzip of a JSON object, not an array", gzip(br#"{"type":4}"#)),
        ("gzip of an array of numbers", gzip(b"[1,2,3]")),
        ("gzip of invalid UTF-8", gzip(b"[{\"a\":\"\xff\xfe\"}]")),
        ("raw deflate of 1 MiB of '['", deflate.finish()?),
        ("zlib instead of gzip", zlib.finish()?),
        ("gzip cut in half", chunk[..chunk.len() / 2].to_vec()),
        ("gzip with trailing garbage", trailing),
        ("gzip with a bad CRC", bad_crc),
        ("two gzip members", [chunk.clone(), chunk].concat()),
        ("gzip of nothing", gzip(b"")),
    ])
}

impl Seeded {
    /// Fills a route's placeholders; `ids` replaces every site, replay and key id when given (text for paths
    /// and queries, a JSON value for bodies).
    fn fill(&self, template: &str, ids: Option<&str>, rng: &mut SmallRng, json: bool) -> String {
        let n = rng.random_range(0..100_000u32).to_string();
        let (site, victim, replay) = (self.site.to_string(), self.victim.to_string(), self.replay.to_string());
        let mut out = template
            .replace("{email}", &format!("chaos-{n}-{}@example.com", rng.random::<u32>()))
            .replace("{refresh}", &self.sacrificial_refresh)
            .replace("{token}", &self.owner_token)
            .replace("{n}", &n);
        let ids_value = ids.map(str::to_string);
        let laced = self.laced.to_string();
        out = out
            .replace("{laced}", &laced)
            .replace("{site}", ids_value.as_deref().unwrap_or(&site))
            .replace("{victim}", ids_value.as_deref().unwrap_or(&victim))
            .replace("{replay}", ids_value.as_deref().unwrap_or(&replay));
        // A tracking key sits inside a JSON string: a hostile id there must stay a string.
        let key_value = match ids {
            Some(id) if json => id.trim_matches('"').replace(['"', '\\'], ""),
            Some(id) => id.to_string(),
            None => self.key.clone(),
        };
        out.replace("{key}", &key_value)
    }
}

/// Path and query ids that are not the caller's: malformed, out of range, traversal, another account's; and
/// odd spellings of the victim site's id (which Rust's integer parsing may accept, so they aim at the victim).
fn hostile_path_id(seeded: &Seeded, rng: &mut SmallRng) -> String {
    let fixed = [
        "-1",
        "0",
        "9999999999999999999999",
        "18446744073709551616",
        "-9223372036854775809",
        "abc",
        "..%2F..",
        "%2e%2e%2f%2e%2e",
        "1.5",
        "1e3",
        "0x10",
        "%D9%A1",
        "%00",
        "%ff",
        "1%0A2",
        "NaN",
        "",
    ];
    match rng.random_range(0..fixed.len() + 6) {
        i if i < fixed.len() => fixed[i].to_string(),
        i if i == fixed.len() => seeded.other_site.to_string(),
        i if i == fixed.len() + 1 => seeded.other_replay.to_string(),
        i if i == fixed.len() + 2 => format!("+{}", seeded.victim),
        i if i == fixed.len() + 3 => format!("%20{}", seeded.victim),
        i if i == fixed.len() + 4 => format!("00{}", seeded.victim),
        _ => seeded.other_key.clone(),
    }
}

/// JSON values standing where a body expects a site id.
fn hostile_json_id(seeded: &Seeded, rng: &mut SmallRng) -> String {
    let fixed = [
        "-1",
        "0",
        "99999999999999999999999",
        "1e400",
        "-1e400",
        "1.5",
        "\"abc\"",
        "\"../..\"",
        "\"\"",
        "null",
        "true",
        "[]",
        "{}",
        "[1]",
        "\"1 OR 1=1\"",
    ];
    match rng.random_range(0..fixed.len() + 2) {
        i if i < fixed.len() => fixed[i].to_string(),
        i if i == fixed.len() => seeded.other_site.to_string(),
        _ => format!("\"{}\"", seeded.other_site),
    }
}

/// Values for query parameters.
fn hostile_query_value(rng: &mut SmallRng) -> String {
    let fixed = [
        "",
        "%",
        "%ff%fe%fd",
        "%00",
        "%C0%AF",
        "-1",
        "0",
        "99999999999999999999999",
        "1e9",
        "NaN",
        "..%2F..%2F..%2Fetc%2Fpasswd",
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "%E2%80%AE",
        "7d%00",
        "365d365d",
        "9999999d",
        "-7d",
        "true",
        "%5B%5D",
        "javascript:alert(1)",
        "https://evil.example/",
        "%2F%2F%2F",
    ];
    match rng.random_range(0..fixed.len() + 1) {
        i if i < fixed.len() => fixed[i].to_string(),
        _ => "a".repeat(100_000),
    }
}

/// Bodies that are not what any route wants.
fn hostile_body(template: Option<&str>, rng: &mut SmallRng) -> (&'static str, Vec<u8>) {
    let keys = template.map(json_keys).unwrap_or_else(|| vec!["websiteId".to_string(), "email".to_string()]);
    let all_as = |raw: &str| {
        let pairs: Vec<String> = keys.iter().map(|k| format!("\"{k}\":{raw}")).collect();
        format!("{{{}}}", pairs.join(",")).into_bytes()
    };
    match rng.random_range(0..24) {
        0 => ("invalid JSON: truncated", b"{\"email\":".to_vec()),
        1 => ("invalid JSON: bare words", b"nonsense".to_vec()),
        2 => ("invalid JSON: binary", vec![0xff, 0xfe, 0x00, 0x01, 0x7b]),
        3 => ("invalid JSON: single quotes", b"{'email':'a'}".to_vec()),
        4 => ("empty body", Vec::new()),
        5 => ("every field a number", all_as("12345")),
        6 => ("every field an array", all_as("[]")),
        7 => ("every field an object", all_as("{}")),
        8 => ("every field null", all_as("null")),
        9 => ("every field 1e400", all_as("1e400")),
        10 => ("every field a 60 KB string", all_as(&format!("\"{}\"", "x".repeat(60_000)))),
        11 => ("every field a lone surrogate", all_as("\"\\ud800\"")),
        12 => ("every field a NUL", all_as("\"\\u0000\"")),
        13 => ("100,000 nested arrays", vec![b'['; 100_000]),
        14 => ("5,000 nested arrays, closed", [vec![b'['; 5_000], vec![b']'; 5_000]].concat()),
        15 => ("3,000 nested objects", format!("{}1{}", "{\"a\":".repeat(3_000), "}".repeat(3_000)).into_bytes()),
        16 => ("a 1 MiB string", format!("{{\"email\":\"{}\"}}", "x".repeat(1 << 20)).into_bytes()),
        17 => ("5,000 keys", {
            let pairs: Vec<String> = (0..5_000).map(|i| format!("\"k{i}\":{i}")).collect();
            format!("{{{}}}", pairs.join(",")).into_bytes()
        }),
        18 => ("duplicate keys", {
            let pairs: Vec<String> =
                keys.iter().flat_map(|k| [format!("\"{k}\":1"), format!("\"{k}\":\"x\"")]).collect();
            format!("{{{}}}", pairs.join(",")).into_bytes()
        }),
        19 => ("a byte-order mark before the JSON", [b"\xef\xbb\xbf".to_vec(), all_as("\"x\"")].concat()),
        20 => ("a top-level array", b"[1,2,3]".to_vec()),
        21 => ("a top-level number", b"42".to_vec()),
        22 => ("a top-level string", b"\"email\"".to_vec()),
        _ => ("2 MiB of zeros", vec![0u8; 2 << 20]),
    }
}

/// The top-level keys of a JSON body template (placeholders are not valid JSON, so this reads the text).
fn json_keys(template: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut depth = 0;
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}', '"']) {
        let c = rest.as_bytes()[i];
        rest = &rest[i + 1..];
        match c {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {
                let Some(end) = rest.find('"') else { break };
                let text = &rest[..end];
                rest = &rest[end + 1..];
                if depth == 1 && rest.trim_start().starts_with(':') {
                    keys.push(text.to_string());
                }
            }
        }
    }
    keys
}

/// A change to a request's query parameters.
type QueryEdit = Box<dyn FnOnce(&mut Vec<(String, String)>)>;

/// Where a request's control character goes (`laced`), chosen before the request's parts are filled in.
#[derive(Clone, Copy)]
enum Lace {
    Body,
    Query,
    Path,
}

/// Builds request `route`'s well-formed request, then spoils it with one hostile variant.
fn hostile_request(route_index: usize, seeded: &Seeded, rng: &mut SmallRng) -> Attempt {
    let route = &ROUTES[route_index];
    let mut method = route.method.to_string();
    let mut path_template = route.path.to_string();
    let mut query_ids: Option<String> = None;
    let mut path_ids: Option<String> = None;
    let mut body_ids: Option<String> = None;
    let mut authorization = match route.auth {
        Auth::Owner => Some(format!("Bearer {}", seeded.owner_token)),
        Auth::Sacrificial => Some(format!("Bearer {}", seeded.sacrificial_token)),
        Auth::Public | Auth::Query => None,
    };
    let mut query_token: Option<String> = None;
    let mut extra_headers: Vec<(String, Vec<u8>)> = Vec::new();
    let mut content_type: Option<String> = match route.body {
        Body::Json(_) => Some("application/json".to_string()),
        Body::None | Body::Replay => None,
    };
    let mut body_override: Option<Vec<u8>> = None;
    let mut content_length: Option<String> = None;
    let mut half_close = false;
    let mut may_close = false;
    let mut query_edit: Option<QueryEdit> = None;
    let mut path_suffix = String::new();
    let mut raw: Option<Vec<u8>> = None;
    let mut target_override: Option<Vec<u8>> = None;
    let mut lace: Option<Lace> = None;

    let has_ids = ["{site}", "{victim}", "{replay}", "{key}"].iter().any(|p| {
        route.path.contains(p) || route.query.contains(p) || matches!(route.body, Body::Json(b) if b.contains(p))
    });
    let mut attack = loop {
        match rng.random_range(0..14) {
            0 => {
                let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "CONNECT", "FOO"];
                let other = methods[rng.random_range(0..methods.len())];
                if other == route.method {
                    continue;
                }
                method = other.to_string();
                // Another method on the data site's path could be its DELETE: aim at the victim instead.
                path_template = path_template.replace("{site}", "{victim}");
                may_close = other == "CONNECT";
                break format!("method {other}");
            }
            1 if route.auth != Auth::Public => {
                let (name, header) = &seeded.forged[rng.random_range(0..seeded.forged.len())];
                if route.auth == Auth::Query {
                    let token = header.split_once(' ').map_or("", |(_, t)| t);
                    query_token = Some(token.to_string());
                } else {
                    authorization = (!header.is_empty()).then(|| header.clone());
                }
                break name.to_string();
            }
            2 if has_ids => {
                let id = hostile_path_id(seeded, rng);
                path_ids = Some(id.clone());
                query_ids = Some(id.clone());
                body_ids = Some(hostile_json_id(seeded, rng));
                break format!("id {id:.40} / body id {}", body_ids.as_deref().unwrap_or(""));
            }
            3 => {
                let value = hostile_query_value(rng);
                let label;
                match rng.random_range(0..5) {
                    0 => {
                        label = format!("every query value {value:.40}");
                        query_edit = Some(Box::new(move |q| q.iter_mut().for_each(|(_, v)| *v = value.clone())));
                    }
                    1 => {
                        label = "query keys repeated with other values".to_string();
                        query_edit = Some(Box::new(move |q| {
                            let copies: Vec<(String, String)> =
                                q.iter().map(|(k, _)| (k.clone(), value.clone())).collect();
                            q.extend(copies);
                        }));
                    }
                    2 => {
                        label = "no query".to_string();
                        query_edit = Some(Box::new(|q| q.clear()));
                    }
                    3 => {
                        label = "2,000 junk parameters".to_string();
                        query_edit =
                            Some(Box::new(|q| q.extend((0..2_000).map(|i| (format!("junk{i}"), "%ff".to_string())))));
                    }
                    _ => {
                        label = "query of separators".to_string();
                        query_edit = Some(Box::new(|q| {
                            q.clear();
                            q.push(("&&&".to_string(), "==&=".to_string()));
                        }));
                    }
                }
                break label;
            }
            4 => {
                let template = match route.body {
                    Body::Json(t) => Some(t),
                    _ => None,
                };
                let (name, body) = hostile_body(template, rng);
                body_override = Some(body);
                break format!("body: {name}");
            }
            5 => {
                let (name, bomb) = &seeded.bombs[rng.random_range(0..seeded.bombs.len())];
                body_override = Some(bomb.clone());
                if matches!(route.body, Body::Replay) {
                    // A fresh recording per bomb: the seeded one stays readable.
                    query_edit = Some(Box::new(|q| {
                        for (k, v) in q.iter_mut() {
                            if k == "session_id" {
                                *v = format!("chaos-bomb-{}", rand::rng().random::<u32>());
                            }
                        }
                    }));
                } else {
                    extra_headers.push(("content-encoding".to_string(), b"gzip".to_vec()));
                }
                break format!("compressed body: {name}");
            }
            6 => {
                may_close = true;
                match rng.random_range(0..7) {
                    0 => {
                        content_length = Some("more".to_string());
                        half_close = true;
                        break "Content-Length larger than the body, then EOF".to_string();
                    }
                    1 => {
                        content_length = Some("less".to_string());
                        break "Content-Length smaller than the body".to_string();
                    }
                    2 => {
                        content_length = Some("abc".to_string());
                        break "Content-Length abc".to_string();
                    }
                    3 => {
                        content_length = Some("-1".to_string());
                        break "Content-Length -1".to_string();
                    }
                    4 => {
                        content_length = Some("99999999999999999999".to_string());
                        half_close = true;
                        break "Content-Length 10^20".to_string();
                    }
                    5 => {
                        content_length = Some("none".to_string());
                        extra_headers.push(("transfer-encoding".to_string(), b"chunked".to_vec()));
                        body_override = Some(b"zz\r\nnot a chunk\r\n0\r\n\r\n".to_vec());
                        break "invalid chunked body".to_string();
                    }
                    _ => {
                        extra_headers.push(("content-length".to_string(), b"1".to_vec()));
                        break "two different Content-Lengths".to_string();
                    }
                }
            }
            7 => {
                let types = [
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=----chaos",
                    "application/json; charset=utf-16",
                    "garbage/;;;",
                    "",
                    "image/png",
                    "application/json, text/html",
                ];
                let t = types[rng.random_range(0..types.len())];
                content_type = Some(t.to_string());
                break format!("Content-Type {t:?}");
            }
            8 => {
                let choice = rng.random_range(0..9);
                may_close = choice <= 2;
                match choice {
                    0 => {
                        extra_headers.extend((0..200).map(|i| (format!("x-chaos-{i}"), b"flood".to_vec())));
                        break "200 headers".to_string();
                    }
                    1 => {
                        extra_headers.push(("x-chaos".to_string(), vec![b'a'; 500_000]));
                        break "a 500 KB header".to_string();
                    }
                    2 => {
                        extra_headers.push(("x-chaos".to_string(), b"bad\x01value\x7f".to_vec()));
                        break "control bytes in a header".to_string();
                    }
                    3 => {
                        extra_headers.push(("cookie".to_string(), format!("a={}", "b".repeat(60_000)).into_bytes()));
                        break "a 60 KB cookie".to_string();
                    }
                    4 => {
                        extra_headers.extend((0..50).map(|_| ("authorization".to_string(), b"Bearer x".to_vec())));
                        break "50 Authorization headers".to_string();
                    }
                    5 => {
                        extra_headers.push(("host".to_string(), b"evil.example\"><script>".to_vec()));
                        break "a hostile Host".to_string();
                    }
                    6 => {
                        let list: Vec<String> = (0..2_000).map(|i| format!("10.0.{}.{}", i / 250, i % 250)).collect();
                        extra_headers.push(("x-forwarded-for".to_string(), list.join(", ").into_bytes()));
                        break "X-Forwarded-For with 2,000 entries".to_string();
                    }
                    7 => {
                        extra_headers
                            .push(("x-forwarded-for".to_string(), b"not-an-ip, ::ffff:999.1.1.1, [::1]".to_vec()));
                        break "garbage X-Forwarded-For".to_string();
                    }
                    _ => {
                        extra_headers.push(("expect".to_string(), b"100-continue".to_vec()));
                        break "Expect: 100-continue".to_string();
                    }
                }
            }
            9 => {
                let suffixes = [
                    "/../../../../etc/passwd",
                    "%2F..%2F..%2F..%2Fetc%2Fpasswd",
                    "/",
                    "//",
                    "%00",
                    ";jsessionid=chaos",
                    "/%",
                    "/%ff",
                    "/extra/segments/here",
                    ".json",
                ];
                match rng.random_range(0..suffixes.len() + 3) {
                    i if i < suffixes.len() => {
                        path_suffix = suffixes[i].to_string();
                        break format!("path + {:?}", suffixes[i]);
                    }
                    i if i == suffixes.len() => {
                        path_suffix = format!("/{}", "a".repeat(60_000));
                        break "path + 60 KB".to_string();
                    }
                    i if i == suffixes.len() + 1 => {
                        path_template = path_template.replace("/api/", "//api//").to_uppercase();
                        break "path doubled slashes, upper case".to_string();
                    }
                    _ => {
                        may_close = true;
                        path_suffix = "\u{fffd}".to_string();
                        target_override = Some(b"/api/websites/\xff\xfe".to_vec());
                        break "raw invalid UTF-8 bytes in the path".to_string();
                    }
                }
            }
            10 => {
                may_close = true;
                let garbage: Vec<u8> = (0..1024).map(|_| rng.random()).collect();
                let choices: [(&str, Vec<u8>); 7] = [
                    ("random bytes", garbage),
                    ("HTTP/9.9", format!("{} {} HTTP/9.9\r\nhost: x\r\n\r\n", route.method, route.path).into_bytes()),
                    ("an HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec()),
                    ("nothing at all", Vec::new()),
                    (
                        "headers never finished",
                        format!("GET {} HTTP/1.1\r\nhost: x\r\nx-a: b", route.path).into_bytes(),
                    ),
                    (
                        "bare LF line ends",
                        format!("GET {} HTTP/1.1\nhost: x\nconnection: close\n\n", route.path).into_bytes(),
                    ),
                    (
                        "a 100 KB request line",
                        format!("GET /{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(100_000)).into_bytes(),
                    ),
                ];
                let (name, bytes) = choices.into_iter().nth(rng.random_range(0..7)).unwrap_or_default();
                raw = Some(bytes);
                half_close = true;
                break format!("not HTTP: {name}");
            }
            11 => {
                // Two spoilers at once: a hostile id with a forged token, against the body too.
                let (name, header) = &seeded.forged[rng.random_range(0..seeded.forged.len())];
                if route.auth == Auth::Query {
                    query_token = Some(header.split_once(' ').map_or("", |(_, t)| t).to_string());
                } else if route.auth != Auth::Public {
                    authorization = (!header.is_empty()).then(|| header.clone());
                }
                let id = hostile_path_id(seeded, rng);
                path_ids = Some(id.clone());
                query_ids = Some(id.clone());
                let (body_name, body) = hostile_body(None, rng);
                body_override = Some(body);
                break format!("{name}, id {id:.40}, body: {body_name}");
            }
            12 => {
                // One field of a well-formed request laced with a control character; a mutating request aims
                // at the laced site rather than the victim, which is soon deleted (then every check would
                // stop at its 404 before the field is read).
                if route.method != "DELETE" {
                    path_template = path_template.replace("{victim}", "{laced}");
                }
                let mut places = Vec::new();
                if matches!(route.body, Body::Json(_)) {
                    places.extend([Lace::Body, Lace::Body, Lace::Body]);
                }
                if !route.query.is_empty() {
                    places.push(Lace::Query);
                }
                if route.path.matches('/').count() > 1 {
                    places.push(Lace::Path);
                }
                if places.is_empty() || rng.random_range(0..5) == 0 {
                    let (name, value, label, illegal) = laced::lace_header(rng);
                    extra_headers.push((name, value));
                    may_close = illegal;
                    break label;
                }
                lace = Some(places[rng.random_range(0..places.len())]);
                break "control character".to_string();
            }
            13 if route.path.starts_with("/api/funnels") && matches!(route.body, Body::Json(_)) => {
                let create = (route.method == "POST").then_some(seeded.laced);
                let (label, body) = laced::oversized_funnel(create, rng);
                body_override = Some(body);
                break label;
            }
            _ => continue,
        }
    };

    if let Some(raw) = raw {
        return Attempt { route: route_index, attack, bytes: raw, half_close, may_close };
    }

    let mut path = seeded.fill(&path_template, path_ids.as_deref(), rng, false) + &path_suffix;
    if let Some(Lace::Path) = lace {
        let label;
        (path, label) = laced::lace_path(&path, rng);
        attack = label;
    }
    let mut query: Vec<(String, String)> = route
        .query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (k.to_string(), seeded.fill(v, query_ids.as_deref(), rng, false))
        })
        .collect();
    if let Some(token) = query_token {
        for (k, v) in query.iter_mut() {
            if k == "token" {
                *v = token.clone();
            }
        }
    }
    if let Some(edit) = query_edit {
        edit(&mut query);
    }
    if let Some(Lace::Query) = lace {
        attack = laced::lace_query(&mut query, rng).unwrap_or(attack);
    }
    let body = match body_override {
        Some(body) => body,
        None => match route.body {
            Body::None => Vec::new(),
            Body::Json(template) if matches!(lace, Some(Lace::Body)) => {
                let filled = seeded.fill(&template.replace("{victim}", "{laced}"), None, rng, true);
                match laced::lace_json(&filled, rng) {
                    Some((label, body)) => {
                        attack = label;
                        body
                    }
                    None => filled.into_bytes(),
                }
            }
            Body::Json(template) => seeded.fill(template, body_ids.as_deref(), rng, true).into_bytes(),
            Body::Replay => replay_chunk(),
        },
    };

    let mut target = target_override.unwrap_or_else(|| path.into_bytes());
    if !query.is_empty() && !target.contains(&b'?') {
        let text: Vec<String> =
            query.iter().map(|(k, v)| if v.is_empty() { format!("{k}=") } else { format!("{k}={v}") }).collect();
        target.push(b'?');
        target.extend_from_slice(text.join("&").as_bytes());
    }
    let mut bytes = Vec::with_capacity(body.len() + 1024);
    bytes.extend_from_slice(method.as_bytes());
    bytes.push(b' ');
    bytes.extend_from_slice(&target);
    bytes.extend_from_slice(b" HTTP/1.1\r\n");
    let mut header = |name: &str, value: &[u8]| {
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(b": ");
        bytes.extend_from_slice(value);
        bytes.extend_from_slice(b"\r\n");
    };
    if !extra_headers.iter().any(|(n, _)| n == "host") {
        header("host", seeded.addr.to_string().as_bytes());
    }
    header("connection", b"close");
    if !extra_headers.iter().any(|(n, _)| n == "user-agent") {
        header("user-agent", b"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0");
    }
    if let Some(authorization) = &authorization {
        header("authorization", authorization.as_bytes());
    }
    if let Some(content_type) = &content_type {
        header("content-type", content_type.as_bytes());
    }
    match content_length.as_deref() {
        None => {
            if !body.is_empty() || method == "POST" || method == "PUT" {
                header("content-length", body.len().to_string().as_bytes())
            }
        }
        Some("more") => header("content-length", (body.len() + 1000).to_string().as_bytes()),
        Some("less") => header("content-length", (body.len() / 2).to_string().as_bytes()),
        Some("none") => {}
        Some(other) => header("content-length", other.as_bytes()),
    }
    for (name, value) in &extra_headers {
        header(name, value);
    }
    bytes.extend_from_slice(b"\r\n");
    bytes.extend_from_slice(&body);
    Attempt { route: route_index, attack, bytes, half_close, may_close }
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

/// A seeding call's answer, or an error carrying the daemon's message.
async fn checked(response: reqwest::Response) -> anyhow::Result<reqwest::Response> {
    if response.status().is_success() {
        return Ok(response);
    }
    let (status, url) = (response.status(), response.url().clone());
    bail!("{url} answered {status}: {}", response.text().await.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::ROUTES;

    /// A path with its parameters blanked: `/api/websites/{site}/breakdown/browser` and the document's
    /// `/api/websites/{id}/breakdown/{dimension}` both name `/api/websites/{}/breakdown/{}` once a literal in
    /// a parameter's place is allowed.
    fn matches(template: &str, path: &str) -> bool {
        let (t, p): (Vec<_>, Vec<_>) = (template.split('/').collect(), path.split('/').collect());
        t.len() == p.len() && t.iter().zip(&p).all(|(t, p)| t.starts_with('{') || t == p)
    }

    /// The chaos table covers every operation of the API contract (GET /api/openapi.json), and lists no
    /// API route the contract does not have.
    #[test]
    fn the_route_table_covers_the_contract() {
        let document = serde_json::to_value(tracker_daemon::openapi()).expect("the document serialises");
        let mut documented = BTreeSet::new();
        for (path, item) in document["paths"].as_object().expect("paths") {
            for method in item.as_object().expect("operations").keys() {
                documented.insert((method.to_uppercase(), path.clone()));
            }
        }
        // The contract's paths: the JSON API, and the GoatCounter count endpoint its script calls.
        let api = || {
            ROUTES.iter().filter(|r| {
                (r.path.starts_with("/api/") || r.path.starts_with("/goatcounter/")) && r.method != "OPTIONS"
            })
        };
        let missing: Vec<_> = documented
            .iter()
            .filter(|(_, path)| path != "/api/openapi.json")
            .filter(|(method, path)| !api().any(|r| r.method == method && matches(path, r.path)))
            .collect();
        assert!(missing.is_empty(), "operations of the contract missing from the chaos table: {missing:?}");
        let unknown: Vec<_> = api()
            .filter(|r| !documented.iter().any(|(method, path)| r.method == method && matches(path, r.path)))
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        assert!(unknown.is_empty(), "chaos routes the contract does not list: {unknown:?}");
    }
}
