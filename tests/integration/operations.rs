//! Running tracker for real: the monitoring routes (/health, /ready, /metrics), the request log, backups
//! taken under load and restored, and the operator's account and site commands.

use std::collections::HashSet;
use std::io::Write;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tracker_core::{Config, Tracker};

use crate::cli::{Cli, has_line, seeded, start_daemon};
use crate::util::{BROWSER_UA, TestServer, answer, wait_for};

/// The value of one sample line (`name{labels} value`) of a Prometheus text answer.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_ready_and_metrics_answer_monitoring() {
    let server = TestServer::start().await;
    for method in [Method::GET, Method::HEAD] {
        let health = server.call(method.clone(), "/health", None, None).await;
        assert_eq!(health.status, StatusCode::OK, "{method} /health");
        let ready = server.call(method.clone(), "/ready", None, None).await;
        assert_eq!(ready.status, StatusCode::OK, "{method} /ready: {}", ready.text);
        if method == Method::GET {
            assert_eq!(health.json, json!({"status": "ok"}));
            assert_eq!(ready.json, json!({"status": "ready"}));
        } else {
            assert!(health.text.is_empty() && ready.text.is_empty(), "HEAD has no body");
        }
    }

    // Off until a token is configured.
    let off = server.call(Method::GET, "/metrics", None, None).await;
    assert_eq!(off.status, StatusCode::NOT_FOUND);
    assert!(off.error_message().contains("metrics_token"), "{}", off.text);
    let token = "metrics-token-0123456789abcdef";
    let reload = Config { metrics_token: Some(token.into()), ..server.tracker.settings.get() };
    assert_eq!(server.tracker.settings.reload(&reload), vec!["metrics_token"]);
    let scrape = |bearer: Option<&'static str>, method: Method| {
        let mut request = server.client.request(method, server.url("/metrics"));
        if let Some(bearer) = bearer {
            request = request.bearer_auth(bearer);
        }
        async move { answer(request.send().await.unwrap()).await }
    };
    assert_eq!(scrape(None, Method::GET).await.status, StatusCode::UNAUTHORIZED);
    let wrong = scrape(Some("metrics-token-0123456789abcdeX"), Method::GET).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(!wrong.error_message().is_empty());

    // Three stored hits, one for an unknown site, one unreadable body, one bot (accepted, not stored).
    let (owner, _) = server.register("owner@example.com").await;
    let site = server.create_site(&owner, "Shop", "light").await;
    let key = site["trackingKey"].as_str().unwrap();
    for i in 0..3 {
        assert_eq!(server.pageview(key, "metrics-visit", &format!("/p{i}")).await.status, StatusCode::ACCEPTED);
    }
    assert_eq!(server.pageview("no-such-key", "metrics-visit", "/").await.status, StatusCode::NOT_FOUND);
    let broken = server.client.post(server.url("/api/track")).body("{not json").send().await.unwrap();
    assert_eq!(broken.status(), StatusCode::BAD_REQUEST);
    let bot = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", "Googlebot/2.1 (+http://www.google.com/bot.html)")
        .body(json!({"tracking_key": key, "session_id": "bot-visit", "url": "https://shop.example.com/"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(bot.status(), StatusCode::ACCEPTED);

    // A live stream open counts as a client while it lasts.
    let id = site["id"].as_i64().unwrap();
    let live = server
        .client
        .get(server.url(&format!("/api/dashboard/live?website_id={id}")))
        .bearer_auth(&owner)
        .send()
        .await
        .unwrap();
    assert_eq!(live.status(), StatusCode::OK);

    let metrics = scrape(Some(token), Method::GET).await;
    assert_eq!(metrics.status, StatusCode::OK, "{}", metrics.text);
    let content_type = metrics.headers["content-type"].to_str().unwrap();
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "{content_type}");
    let text = &metrics.text;
    assert_eq!(sample(text, "tracker_hits_accepted_total"), Some(3.0), "{text}");
    assert_eq!(sample(text, "tracker_hits_ignored_total"), Some(1.0), "{text}");
    assert_eq!(sample(text, "tracker_hits_rejected_total{reason=\"unknown_site\"}"), Some(1.0), "{text}");
    assert_eq!(sample(text, "tracker_hits_rejected_total{reason=\"invalid\"}"), Some(1.0), "{text}");
    assert_eq!(sample(text, "tracker_hits_rejected_total{reason=\"busy\"}"), Some(0.0), "{text}");
    assert_eq!(sample(text, "tracker_ingest_queue_depth"), Some(0.0), "{text}");
    assert_eq!(sample(text, "tracker_ingest_queue_capacity"), Some(50_000.0), "{text}");
    assert_eq!(sample(text, "tracker_ingest_batch_size_sum"), Some(3.0), "{text}");
    assert!(sample(text, "tracker_ingest_commit_seconds_count").unwrap() >= 1.0, "{text}");
    assert!(sample(text, "tracker_ingest_fsync_seconds_sum").unwrap() > 0.0, "{text}");
    assert_eq!(sample(text, "tracker_live_clients"), Some(1.0), "{text}");
    assert!(sample(text, "tracker_database_bytes").unwrap() > 0.0, "{text}");
    assert!(sample(text, "tracker_wal_bytes").is_some(), "{text}");
    let head = scrape(Some(token), Method::HEAD).await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(head.text.is_empty());
    drop(live);
    wait_for("the live stream to close", Duration::from_secs(10), || {
        let scraped = scrape(Some(token), Method::GET);
        async move { (sample(&scraped.await.text, "tracker_live_clients") == Some(0.0)).then_some(()) }
    })
    .await;

    // Not ready while another process holds the database's write lock: 503 with the JSON error.
    let path = server.dir.path().join("data").join("tracker.db");
    let blocker = rusqlite::Connection::open(&path).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    let blocked = server.call(Method::GET, "/ready", None, None).await;
    assert_eq!(blocked.status, StatusCode::SERVICE_UNAVAILABLE, "{}", blocked.text);
    assert!(blocked.error_message().contains("database is not writable"), "{}", blocked.text);
    assert!(blocked.headers.contains_key("retry-after"));
    blocker.execute_batch("ROLLBACK").unwrap();
    assert_eq!(server.call(Method::GET, "/ready", None, None).await.status, StatusCode::OK);
    server.stop().await;
}

/// With `log_format = "json"` every dashboard/API request is one JSON line with method, path, status and
/// duration; the access token, the query string and the tracked URL never appear in the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_log_lines_have_their_fields_and_no_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tracker.toml");
    std::fs::write(&config, "log_format = \"json\"\nregistration = \"open\"\n").unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let (mut child, stderr, addr) = start_daemon(&cli, &["--config", config.to_str().unwrap()]).await;
    let base = format!("http://{addr}");
    let client = reqwest::Client::new();
    let registered = client
        .post(format!("{base}/api/register"))
        .json(&json!({"email": "log@example.com", "password": "secret1"}))
        .send()
        .await
        .unwrap();
    let registered = answer(registered).await;
    assert_eq!(registered.status, StatusCode::CREATED);
    let token = registered.json["accessToken"].as_str().unwrap().to_string();
    let user =
        client.get(format!("{base}/api/user?token=query-secret-4711&x=1")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(user.status(), StatusCode::OK);
    let site = client
        .post(format!("{base}/api/websites"))
        .bearer_auth(&token)
        .json(&json!({"name": "Log", "domain": "log.example.com"}))
        .send()
        .await
        .unwrap();
    let key = answer(site).await.json["trackingKey"].as_str().unwrap().to_string();
    let hit = client
        .post(format!("{base}/api/track"))
        .header("user-agent", BROWSER_UA)
        .body(
            json!({"tracking_key": key, "session_id": "log-visit", "url": "https://log.example.com/private-page-0815"})
                .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(hit.status(), StatusCode::ACCEPTED);

    let line = wait_for("the request line of GET /api/user", Duration::from_secs(10), || {
        let found = has_line(&stderr, "\"path\":\"/api/user\"");
        async move { found }
    })
    .await;
    let entry: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    assert_eq!(entry["level"], "INFO", "{line}");
    assert_eq!(entry["message"], "request", "{line}");
    assert_eq!(entry["method"], "GET", "{line}");
    assert_eq!(entry["status"], 200, "{line}");
    assert!(entry["duration_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{line}");
    assert!(has_line(&stderr, "\"path\":\"/api/websites\"").is_some_and(|l| l.contains("\"status\":201")));

    let stopped = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(stopped.success());
    assert!(child.wait().unwrap().success());
    let log = stderr.lock().unwrap().join("\n");
    for secret in [token.as_str(), "query-secret-4711", "x=1", "private-page-0815", "secret1"] {
        assert!(!log.contains(secret), "the log holds {secret:?}:\n{log}");
    }
    for line in stderr.lock().unwrap().iter() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("a log line is not JSON ({e}): {line}"));
    }
}

/// `tracker backup` while hits pour into a real daemon; the copy restored into a new folder and served by
/// a new daemon holds every hit acknowledged before the backup began. Restores check what they are given.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_load_restores_every_acknowledged_hit() {
    let server = TestServer::start().await;
    let (owner, _) = server.register("owner@example.com").await;
    let site = server.create_site(&owner, "Shop", "light").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    let id = site["id"].as_i64().unwrap();

    // Four senders, each hit with its own path; an acknowledged hit is "before" if the backup had not started.
    let started = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let before = Arc::new(Mutex::new(HashSet::new()));
    let mut senders = Vec::new();
    for sender in 0..4 {
        let (client, url, key) = (server.client.clone(), server.url("/api/track"), key.clone());
        let (started, stop, before) = (started.clone(), stop.clone(), before.clone());
        senders.push(tokio::spawn(async move {
            let mut sent = 0u32;
            while !stop.load(Ordering::SeqCst) {
                let path = format!("/s{sender}-{sent}");
                let body = json!({"tracking_key": key, "session_id": format!("visit-{sender}-{}", sent / 5),
                    "url": format!("https://shop.example.com{path}")});
                let response =
                    client.post(&url).header("user-agent", BROWSER_UA).body(body.to_string()).send().await.unwrap();
                assert_eq!(response.status(), StatusCode::ACCEPTED);
                if !started.load(Ordering::SeqCst) {
                    before.lock().unwrap().insert(path);
                }
                sent += 1;
            }
            sent
        }));
    }
    wait_for("hits before the backup", Duration::from_secs(30), || {
        let n = before.lock().unwrap().len();
        async move { (n >= 300).then_some(()) }
    })
    .await;

    let cli = Cli::new(&server.dir.path().join("data"));
    let file = server.dir.path().join("backup.db");
    started.store(true, Ordering::SeqCst);
    let output = {
        let mut command = cli.command(&["backup", "--output", file.to_str().unwrap(), "--json"]);
        tokio::task::spawn_blocking(move || command.output().unwrap()).await.unwrap()
    };
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // Ingest went on during and after the backup.
    let after_backup = server.tracker.metrics.render();
    stop.store(true, Ordering::SeqCst);
    let mut total = 0;
    for sender in senders {
        total += sender.await.unwrap();
    }
    let before = before.lock().unwrap().clone();
    assert!(total as usize > before.len(), "no hit was sent while the backup ran");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report["info"]["events"].as_i64().unwrap() >= before.len() as i64, "{report}");
    assert!(after_backup.contains("tracker_hits_accepted_total"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    assert!(cli.fails(&["backup", "--output", file.to_str().unwrap()]).contains("already exists"));

    // Files that are not whole tracker databases are refused before anything is touched.
    let restored = Cli::new(&server.dir.path().join("restored"));
    let truncated = server.dir.path().join("truncated.db");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let refused = restored.fails(&["restore", truncated.to_str().unwrap()]);
    assert!(refused.contains("integrity check") || refused.contains("not a tracker database"), "{refused}");
    let text = server.dir.path().join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    assert!(restored.fails(&["restore", text.to_str().unwrap()]).contains("not a tracker database"));
    assert!(!restored.data.join("tracker.db").exists());

    let done = restored.json(&["restore", file.to_str().unwrap()]);
    assert_eq!(done["info"]["users"], 1, "{done}");
    assert!(restored.fails(&["restore", file.to_str().unwrap()]).contains("--yes"));

    // A new daemon on the restored folder: every hit acknowledged before the backup is there.
    let (mut child, _stderr, addr) = start_daemon(&restored, &[]).await;
    let in_use = restored.fails(&["restore", file.to_str().unwrap(), "--yes"]);
    assert!(in_use.contains("in use by a running tracker daemon"), "{in_use}");
    let client = reqwest::Client::new();
    let login = client
        .post(format!("http://{addr}/api/login"))
        .json(&json!({"email": "owner@example.com", "password": "secret1"}))
        .send()
        .await
        .unwrap();
    let login = answer(login).await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    let token = login.json["accessToken"].as_str().unwrap();
    let export = client
        .get(format!("http://{addr}/api/websites/{id}/export?format=json"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let export = answer(export).await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.text);
    let stored: HashSet<String> =
        export.json.as_array().unwrap().iter().map(|row| row["path"].as_str().unwrap().to_string()).collect();
    let missing: Vec<&String> = before.iter().filter(|path| !stored.contains(*path)).collect();
    assert!(missing.is_empty(), "{} acknowledged hits missing from the restore: {missing:?}", missing.len());
    child.kill().unwrap();
    child.wait().unwrap();

    // Stopped, the folder may be replaced with --yes.
    let replaced = restored.json(&["restore", file.to_str().unwrap(), "--yes"]);
    assert_eq!(replaced["info"]["events"], done["info"]["events"]);
    let reopened = Tracker::open(&Config { data_dir: restored.data.clone(), ..Config::default() }).unwrap();
    assert_eq!(reopened.auth.list_users().unwrap().len(), 1);
    server.stop().await;
}

/// `tracker users passwd` (from standard input), `users rm` and `sites rm` (only with --yes), and the enum
/// flags whose help lists their values.
#[test]
fn operator_commands_for_accounts_and_sites() {
    let dir = tempfile::tempdir().unwrap();
    let (cli, site) = seeded(&dir);
    let passwd = |email: &str, input: &str| {
        let mut child =
            cli.command(&["users", "passwd", email]).stdin(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let changed = passwd("ops@example.com", "a new password\n");
    assert!(changed.status.success(), "{}", String::from_utf8_lossy(&changed.stderr));
    let short = passwd("ops@example.com", "abc\n");
    assert!(!short.status.success());
    assert_eq!(String::from_utf8_lossy(&short.stderr).trim_end().lines().count(), 1);
    let unknown = passwd("nobody@example.com", "another password\n");
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown user"), "{unknown:?}");
    {
        let tracker = Tracker::open(&Config { data_dir: cli.data.clone(), ..Config::default() }).unwrap();
        let ip = "192.0.2.1".parse().unwrap();
        assert!(tracker.auth.login("ops@example.com", "a new password", None, ip).is_ok());
        assert!(tracker.auth.login("ops@example.com", "secret1", None, ip).is_err(), "the old password still works");
    }

    // Deleting a site or an account needs --yes; without it nothing changes.
    let refused = cli.fails(&["sites", "rm", &site.to_string()]);
    assert!(refused.contains("--yes") && refused.contains("Shop"), "{refused}");
    assert_eq!(cli.json(&["sites", "list"]).as_array().unwrap().len(), 1);
    cli.json(&["users", "add", "second@example.com", "--password", "secret2"]);
    cli.json(&["sites", "add", "--name", "Blog", "--domain", "blog.example.com", "--owner", "second@example.com"]);
    assert!(cli.fails(&["users", "rm", "second@example.com"]).contains("--yes"));
    assert_eq!(cli.json(&["users", "list"]).as_array().unwrap().len(), 2);
    assert!(cli.json(&["users", "rm", "second@example.com", "--yes"])["deleted"].is_number());
    let users = cli.json(&["users", "list"]);
    assert_eq!(users.as_array().unwrap().len(), 1, "{users}");
    let sites = cli.json(&["sites", "list"]);
    assert_eq!(sites.as_array().unwrap().len(), 1, "the account's site went with it: {sites}");
    assert!(cli.fails(&["users", "rm", "second@example.com", "--yes"]).contains("unknown user"));
    assert_eq!(cli.json(&["sites", "rm", &site.to_string(), "--yes"])["deleted"], site);

    // Enum flags refuse other values and list theirs in --help.
    let bad = cli.fails(&[
        "sites",
        "add",
        "--name",
        "X",
        "--domain",
        "x.example.com",
        "--owner",
        "ops@example.com",
        "--level",
        "extreme",
    ]);
    assert!(bad.contains("light") && bad.contains("professional"), "{bad}");
    for (command, values) in [
        (vec!["sites", "add", "--help"], vec!["light", "enhanced", "professional"]),
        (vec!["sites", "edit", "--help"], vec!["light", "enhanced", "professional"]),
        (vec!["export", "--help"], vec!["pageviews", "events", "all", "csv", "json", "jsonl"]),
        (vec!["privacy", "delete", "--help"], vec!["pageviews", "events", "all"]),
    ] {
        let help = cli.ok(&command);
        for value in values {
            assert!(help.contains(&format!("{value}:")), "{command:?} --help does not list {value}:\n{help}");
        }
    }
    let help = cli.ok(&["stats", "--help"]);
    let listed = help.split("[possible values: ").nth(1).and_then(|rest| rest.split(']').next()).unwrap_or_default();
    for value in ["today", "1d", "7d", "28d", "30d", "90d", "365d", "month", "last_month", "year", "all"] {
        assert!(listed.split(", ").any(|v| v == value), "stats --help does not list {value}:\n{help}");
    }
    assert!(help.contains("--from") && help.contains("--filter"), "{help}");
}
