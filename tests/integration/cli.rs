//! The `tracker` binary run as operators run it: every subcommand on a temp data folder, its `--json`
//! parsed, its errors (non-zero exit, one line on stderr); exports compared with the API's, deletions
//! checked against row counts, and a running daemon picking up a config change.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;
use tracker_core::export::{ExportKind, ExportQuery};
use tracker_core::model::now_ms;
use tracker_core::privacy::RetentionUpdate;
use tracker_core::{Config, Tracker};

use crate::util::{TestServer, answer, tracker_bin, wait_for};

/// The binary on one data folder, with no TRACKER_* variables leaking in from the environment.
pub(crate) struct Cli {
    pub(crate) data: PathBuf,
}

impl Cli {
    pub(crate) fn new(data: &Path) -> Cli {
        Cli { data: data.to_path_buf() }
    }

    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(tracker_bin());
        command.arg("--data-dir").arg(&self.data).args(args);
        for (key, _) in std::env::vars() {
            if key.starts_with("TRACKER_") && key != "TRACKER_BIN" {
                command.env_remove(key);
            }
        }
        command.stdin(Stdio::null());
        command
    }

    pub(crate) fn output(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run tracker")
    }

    /// Runs a command that must succeed; returns its stdout.
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let out = self.output(args);
        assert!(out.status.success(), "tracker {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    /// Runs a command with `--json` that must succeed; returns the parsed JSON.
    pub(crate) fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let text = self.ok(&all);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("tracker {args:?}: not JSON ({e}): {text}"))
    }

    /// Runs a command that must fail with one line on stderr; returns that line.
    pub(crate) fn fails(&self, args: &[&str]) -> String {
        let out = self.output(args);
        assert!(!out.status.success(), "tracker {args:?} should fail");
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(stderr.trim_end().lines().count(), 1, "tracker {args:?}: not one line: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        stderr.trim_end().to_string()
    }
}

/// A data folder with one user and one site; returns the CLI and the site id.
pub(crate) fn seeded(dir: &TempDir) -> (Cli, i64) {
    let cli = Cli::new(&dir.path().join("data"));
    cli.json(&["users", "add", "ops@example.com", "--password", "secret1"]);
    let site =
        cli.json(&["sites", "add", "--name", "Shop", "--domain", "shop.example.com", "--owner", "ops@example.com"]);
    (cli, site["id"].as_i64().unwrap())
}

#[test]
fn users_and_sites_commands() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let user = cli.json(&["users", "add", "alice@example.com", "--password", "secret1"]);
    assert_eq!(user["email"], "alice@example.com");
    let mut add = cli.command(&["users", "add", "bob@example.com", "--password-stdin"]);
    add.stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = add.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"hunter22\n").unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    let users = cli.json(&["users", "list"]);
    assert_eq!(users.as_array().unwrap().len(), 2);
    assert!(cli.fails(&["users", "add", "not-an-email", "--password", "secret1"]).starts_with("error:"));
    assert!(cli.fails(&["users", "add", "carol@example.com"]).contains("password"));

    let site =
        cli.json(&["sites", "add", "--name", "Blog", "--domain", "blog.example.com", "--owner", "alice@example.com"]);
    let id = site["id"].as_i64().unwrap();
    assert_eq!(site["owner"], "alice@example.com");
    assert_eq!(site["trackingLevel"], "light");
    let key = site["trackingKey"].as_str().unwrap();
    assert!(site["scriptUrl"].as_str().unwrap().ends_with(&format!("/tracking/{key}.js")));
    let list = cli.json(&["sites", "list"]);
    assert_eq!(list[0]["domain"], "blog.example.com");
    assert!(cli.ok(&["sites", "list"]).contains("blog.example.com"));
    // SQLite's deletions finish in their request: no job is ever under way.
    assert!(cli.ok(&["privacy", "jobs"]).contains("No deletion under way."));
    assert_eq!(cli.json(&["privacy", "jobs"]), serde_json::json!([]));
    let edited = cli.json(&["sites", "edit", "blog.example.com", "--level", "enhanced", "--name", "Blog 2"]);
    assert_eq!(edited["trackingLevel"], "enhanced");
    assert_eq!(edited["name"], "Blog 2");
    let snippet = cli.json(&["sites", "snippet", &id.to_string()]);
    assert!(snippet["snippet"].as_str().unwrap().contains(key));
    assert!(cli.ok(&["sites", "snippet", "blog.example.com"]).starts_with("<script async src="));
    assert!(cli.fails(&["sites", "snippet", "nope.example.com"]).contains("unknown site"));
    assert!(
        cli.fails(&["sites", "add", "--name", "X", "--domain", "x.com", "--owner", "nobody@example.com"])
            .starts_with("error:")
    );
    assert_eq!(cli.json(&["sites", "rm", &id.to_string(), "--yes"])["deleted"], id);
    assert_eq!(cli.json(&["sites", "list"]), json!([]));
    assert!(cli.fails(&["sites", "rm", &id.to_string()]).contains("unknown site"));
}

#[test]
fn demo_stats_live_and_export_commands() {
    let dir = tempfile::tempdir().unwrap();
    let (cli, site) = seeded(&dir);
    let site = site.to_string();
    let demo = cli.json(&["demo", "--site", "shop.example.com", "--events", "3000", "--days", "3", "--seed", "7"]);
    assert_eq!(demo["events"], 3000);
    assert!(demo["sessions"].as_u64().unwrap() > 300);

    let stats = cli.json(&["stats", "--site", &site, "--range", "7d"]);
    let views = stats["pageViews"].as_i64().unwrap();
    assert!(views > 1000 && views < 3000, "{stats}");
    assert!(stats["visitors"].as_i64().unwrap() > 0);
    assert!(stats["bounceRate"].as_f64().unwrap() > 10.0);
    for dim in ["page", "referrer", "source", "country", "device", "browser", "os", "utm_source"] {
        assert!(stats["breakdowns"][dim].is_array(), "{dim}");
    }
    assert_eq!(stats["breakdowns"]["page"][0]["value"], "/", "the power law puts / first");
    assert!(stats["breakdowns"]["referrer"].as_array().unwrap().iter().any(|r| r["value"] == "google.com"));
    // Sources as the dashboard names them: google.com's visits are Google's, no host is listed beside it.
    let sources = stats["breakdowns"]["source"].as_array().unwrap();
    assert!(sources.iter().any(|r| r["value"] == "Google"), "{sources:?}");
    assert!(!sources.iter().any(|r| r["value"] == "google.com"), "{sources:?}");
    assert!(cli.ok(&["stats", "--site", &site, "--range", "1d"]).contains("Top pages"));
    assert!(cli.fails(&["stats", "--site", &site, "--range", "2w"]).contains("range"));

    let live = cli.json(&["live", "--site", &site, "--once"]);
    assert!(live.is_array());
    for session in live.as_array().unwrap() {
        assert!(session["sessionId"].is_string() && session["currentPage"].is_string());
    }
    assert!(cli.ok(&["live", "--site", &site, "--once"]).contains("active in the last 5 minutes"));

    // Every format holds the same rows; the page view export only page views; all = page views + events.
    let csv = cli.ok(&["export", "--site", &site]);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header.join(","),
        "timestamp,type,name,url,path,referrer,session_id,country,device,browser,os,utm_source,utm_medium,utm_campaign,properties"
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3000);
    assert!(rows.windows(2).all(|w| w[0][0] <= w[1][0]), "oldest first");
    let lines = cli.ok(&["export", "--site", &site, "--format", "jsonl"]);
    assert_eq!(lines.lines().count(), 3000);
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["timestamp"], rows[0][0]);
    assert!(first.get("ipAddress").is_none() && !csv.contains("198.18."), "no IPs exported");
    let array: Value =
        serde_json::from_str(&cli.ok(&["export", "--site", &site, "--format", "json", "--type", "pageviews"])).unwrap();
    let pageviews = array.as_array().unwrap();
    assert!(pageviews.iter().all(|r| r["type"] == "pageview"));
    let events = cli.ok(&["export", "--site", &site, "--type", "events", "--format", "jsonl"]);
    assert_eq!(pageviews.len() + events.lines().count(), 3000);
    assert!(events.contains("\"type\":\"conversion\"") && events.contains("\"currency\""));
    assert_eq!(pageviews.len() as i64, views, "rollups agree with the raw rows");

    let out = dir.path().join("views.csv");
    let written = cli.json(&["export", "--site", &site, "--type", "pageviews", "--output", out.to_str().unwrap()]);
    assert_eq!(written["rows"], pageviews.len());
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), pageviews.len() + 1);
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let since_today = cli.ok(&["export", "--site", &site, "--since", &today, "--format", "jsonl"]);
    assert!(since_today.lines().all(|l| l.contains(&format!("\"timestamp\":\"{today}"))));
    let until = cli.ok(&["export", "--site", &site, "--since", "2020-01-01", "--until", "2020-01-02T00:00:00Z"]);
    assert_eq!(until.lines().count(), 1, "just the header");

    assert!(cli.fails(&["export", "--site", "nope"]).contains("unknown site 'nope'"));
    assert!(cli.fails(&["export", "--site", &site, "--since", "yesterday"]).contains("not a date"));
    assert!(cli.fails(&["export", "--site", &site, "--until", "2026-13-01"]).contains("not a date"));
    assert!(cli.fails(&["export", "--site", &site, "--format", "xml"]).contains("format"));
    assert!(cli.fails(&["export", "--site", &site, "--type", "clicks"]).contains("type"));
    assert!(cli.fails(&["export", "--site", &site, "--output", "/nonexistent/dir/x.csv"]).contains("cannot write"));
    assert!(cli.fails(&["demo", "--site", "nope", "--events", "1"]).contains("unknown site"));
    assert!(cli.fails(&["live", "--site", "999", "--once"]).contains("unknown site"));
    assert!(cli.fails(&["stats"]).contains("--site"), "usage errors are one line too");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_matches_the_api_row_for_row_while_the_daemon_runs() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Store", "light").await;
    let id = site["id"].as_i64().unwrap();
    let key = site["trackingKey"].as_str().unwrap().to_string();
    for (i, path) in ["/", "/pricing", "/docs"].iter().enumerate() {
        let answer = server.pageview(&key, &format!("session-{i:04}"), path).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    let custom = server
        .track(json!({"tracking_key": key, "session_id": "session-0000", "url": "https://site.example.com/", "event": "custom",
            "event_name": "signup, \"quoted\"", "event_properties": {"plan": "pro", "note": "a,b\nc"}}))
        .await;
    assert_eq!(custom.status, StatusCode::ACCEPTED);
    // The CLI writes through its own ingest writer into the database the daemon has open.
    let data = server.dir.path().join("data");
    let demo = tokio::task::spawn_blocking({
        let data = data.clone();
        move || {
            Cli::new(&data).json(&["demo", "--site", &id.to_string(), "--events", "400", "--days", "2", "--seed", "3"])
        }
    })
    .await
    .unwrap();
    assert_eq!(demo["events"], 400);

    let api = server.get(&format!("/api/websites/{id}/export?format=csv"), &token).await;
    assert_eq!(api.status, StatusCode::OK, "{}", api.text);
    assert_eq!(api.headers["content-disposition"], format!("attachment; filename=\"analytics-{id}.csv\""));
    assert!(api.headers["content-type"].to_str().unwrap().starts_with("text/csv"));
    let data2 = data.clone();
    let cli_csv = tokio::task::spawn_blocking(move || {
        Cli::new(&data2).ok(&["export", "--site", &id.to_string(), "--format", "csv"])
    })
    .await
    .unwrap();
    let api_rows: Vec<&str> = api.text.lines().collect();
    let cli_rows: Vec<&str> = cli_csv.lines().collect();
    assert_eq!(api_rows.len(), cli_rows.len());
    assert!(api_rows.len() > 400);
    for (n, (a, c)) in api_rows.iter().zip(&cli_rows).enumerate() {
        assert_eq!(a, c, "row {n}");
    }
    assert!(api.text.contains("\"signup, \"\"quoted\"\"\""), "CSV quoting");

    let as_json = server.get(&format!("/api/websites/{id}/export?format=json"), &token).await;
    assert_eq!(as_json.status, StatusCode::OK);
    assert_eq!(as_json.json.as_array().unwrap().len(), api_rows.len() - 1);
    assert!(
        as_json
            .json
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["sessionId"] == "session-0000" && r["properties"]["plan"] == "pro")
    );

    let recent = server.get(&format!("/api/export/pageviews?website_id={id}"), &token).await;
    assert_eq!(recent.status, StatusCode::OK);
    assert_eq!(recent.headers["content-disposition"], format!("attachment; filename=\"pageviews-{id}.csv\""));
    let recent_rows: Vec<&str> = recent.text.lines().skip(1).collect();
    assert!(recent_rows.iter().all(|r| r.split(',').nth(1) == Some("pageview")));
    assert!(recent_rows.windows(2).all(|w| w[0][..24] >= w[1][..24]), "most recent first");
    let events = server.get(&format!("/api/export/events?website_id={id}"), &token).await;
    assert!(events.text.contains("signup"));
    assert_eq!(recent_rows.len() + events.text.lines().count() - 1, api_rows.len() - 1);

    let (other, _) = server.register("other@example.com").await;
    for path in [format!("/api/websites/{id}/export?format=csv"), format!("/api/export/events?website_id={id}")] {
        let denied = server.get(&path, &other).await;
        assert_eq!(denied.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(denied.error_message(), "website not found");
    }
    assert_eq!(server.get(&format!("/api/export/clicks?website_id={id}"), &token).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        server.call(Method::GET, &format!("/api/websites/{id}/export"), None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    server.stop().await;
}

/// Page views and events of a site, counted from the raw rows.
fn raw_counts(tracker: &Tracker, site: i64) -> (u64, u64) {
    let count = |kind| tracker.events.export_row_count(&ExportQuery::new(site, kind)).unwrap().unwrap();
    (count(ExportKind::Pageviews), count(ExportKind::Events))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletion_removes_exactly_what_it_reports() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let id = server.create_site(&token, "Store", "light").await["id"].as_i64().unwrap();
    let data = server.dir.path().join("data");
    let run = |args: Vec<String>| {
        let data = data.clone();
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            Cli::new(&data).json(&args)
        })
    };
    let s = id.to_string();
    run(vec![
        "demo".into(),
        "--site".into(),
        s.clone(),
        "--events".into(),
        "3000".into(),
        "--days".into(),
        "6".into(),
        "--seed".into(),
        "11".into(),
    ])
    .await
    .unwrap();
    let tracker = &server.tracker;
    let (pv0, ev0) = raw_counts(tracker, id);
    assert_eq!(pv0 + ev0, 3000);

    // Page views before three days ago: the report matches the raw counts, events stay.
    let cut = chrono::Utc::now().date_naive() - chrono::Duration::days(3);
    let cut_ms = cut.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis();
    let old_views = tracker
        .events
        .export_row_count(&ExportQuery { until: Some(cut_ms), ..ExportQuery::new(id, ExportKind::Pageviews) })
        .unwrap()
        .unwrap();
    assert!(old_views > 0);
    let report = run(vec![
        "privacy".into(),
        "delete".into(),
        "--site".into(),
        s.clone(),
        "--data".into(),
        "pageviews".into(),
        "--before".into(),
        cut.to_string(),
        "--yes".into(),
    ])
    .await
    .unwrap();
    assert_eq!(report["deleted"]["pageviews"], old_views);
    assert_eq!(report["deleted"]["events"], 0);
    let (pv1, ev1) = raw_counts(tracker, id);
    assert_eq!((pv1, ev1), (pv0 - old_views, ev0));
    // The recomputed rollups agree with what remains.
    let stats = run(vec!["stats".into(), "--site".into(), s.clone(), "--range".into(), "30d".into()]).await.unwrap();
    assert_eq!(stats["pageViews"].as_u64().unwrap(), pv1);

    // The API's deletion of events reports exactly the events there were.
    let other_token = server.register("other@example.com").await.0;
    let denied =
        server.post("/api/privacy/delete-data", &other_token, json!({"websiteId": id, "dataType": "events"})).await;
    assert_eq!(denied.status, StatusCode::NOT_FOUND);
    let bad = server.post("/api/privacy/delete-data", &token, json!({"websiteId": id, "dataType": "heatmaps"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let deleted = server
        .post("/api/privacy/delete-data", &token, json!({"websiteId": id.to_string(), "dataType": "events"}))
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(deleted.json["deleted"]["events"], ev1);
    assert_eq!(deleted.json["recordsDeleted"], ev1 + deleted.json["deleted"]["sessions"].as_u64().unwrap());
    assert_eq!(raw_counts(tracker, id), (pv1, 0));
    let stats = run(vec!["stats".into(), "--site".into(), s.clone(), "--range".into(), "30d".into()]).await.unwrap();
    assert_eq!((stats["events"].as_u64().unwrap(), stats["conversions"].as_u64().unwrap()), (0, 0));
    assert_eq!(stats["pageViews"].as_u64().unwrap(), pv1);

    // Retention: keep page views one day; exactly the older ones go.
    tracker
        .privacy
        .update_retention(id, RetentionUpdate { pageviews: Some(1), sessions: Some(1), ..Default::default() })
        .unwrap();
    let day_ago = tracker
        .events
        .export_row_count(&ExportQuery {
            until: Some(now_ms() - 86_400_000 - 60_000),
            ..ExportQuery::new(id, ExportKind::Pageviews)
        })
        .unwrap()
        .unwrap();
    let retention = run(vec!["retention".into(), "run".into()]).await.unwrap();
    let removed = retention["total"]["pageviews"].as_u64().unwrap();
    assert!(removed >= day_ago && removed > 0, "{retention}");
    assert_eq!(raw_counts(tracker, id).0, pv1 - removed);
    assert!(retention["sites"][0]["deleted"]["sessions"].as_u64().unwrap() > 0);

    // Everything: sessions and rollups go too.
    let all = run(vec![
        "privacy".into(),
        "delete".into(),
        "--site".into(),
        s.clone(),
        "--data".into(),
        "all".into(),
        "--yes".into(),
    ])
    .await
    .unwrap();
    assert_eq!(all["deleted"]["pageviews"], pv1 - removed);
    assert_eq!(raw_counts(tracker, id), (0, 0));
    let stats = run(vec!["stats".into(), "--site".into(), s.clone()]).await.unwrap();
    assert_eq!((stats["pageViews"].as_u64(), stats["visits"].as_u64()), (Some(0), Some(0)));

    let data2 = data.clone();
    let refused = tokio::task::spawn_blocking(move || {
        Cli::new(&data2).fails(&["privacy", "delete", "--site", &id.to_string(), "--data", "all"])
    })
    .await
    .unwrap();
    assert!(refused.contains("--yes"), "{refused}");
    let data3 = data.clone();
    let bad = tokio::task::spawn_blocking(move || {
        Cli::new(&data3).fails(&[
            "privacy",
            "delete",
            "--site",
            &id.to_string(),
            "--data",
            "all",
            "--before",
            "soon",
            "--yes",
        ])
    })
    .await
    .unwrap();
    assert!(bad.contains("not a date"));
    server.stop().await;
}

/// The daemon's writer remembers ongoing visits; a deletion by the CLI (another process) must not leave it
/// pointing at rows that are gone: the visit's next hit starts a new, complete visit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visit_continues_correctly_after_the_cli_deleted_it() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Store", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string());
    for path in ["/", "/pricing"] {
        assert_eq!(server.pageview(&key, "remembered-visit", path).await.status, StatusCode::ACCEPTED);
    }
    let data = server.dir.path().join("data");
    let s = id.to_string();
    tokio::task::spawn_blocking(move || {
        Cli::new(&data).json(&["privacy", "delete", "--site", &s, "--data", "all", "--yes"]);
    })
    .await
    .unwrap();
    assert_eq!(raw_counts(&server.tracker, id), (0, 0));

    let next = server.pageview(&key, "remembered-visit", "/checkout").await;
    assert_eq!(next.status, StatusCode::ACCEPTED, "{}", next.text);
    assert_eq!(raw_counts(&server.tracker, id), (1, 0));
    let data = server.dir.path().join("data");
    let s = id.to_string();
    let stats = tokio::task::spawn_blocking(move || Cli::new(&data).json(&["stats", "--site", &s])).await.unwrap();
    assert_eq!((stats["visits"].as_u64(), stats["pageViews"].as_u64()), (Some(1), Some(1)), "{stats}");
    server.stop().await;
}

#[test]
fn config_example_completions_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let example = cli.ok(&["config", "example"]);
    let path = dir.path().join("tracker.toml");
    std::fs::write(&path, &example).unwrap();
    assert_eq!(Config::from_file(&path).unwrap(), Config::default(), "the example shows the defaults");
    for key in serde_json::to_value(Config::default()).unwrap().as_object().unwrap().keys() {
        assert!(
            example.contains(&format!("\n{key} = ")) || example.contains(&format!("\n# {key} = ")),
            "{key} is not documented"
        );
    }
    assert!(cli.ok(&["--config", path.to_str().unwrap(), "config", "check"]).contains("configuration ok"));
    let shown = cli.json(&["--config", path.to_str().unwrap(), "config", "show"]);
    assert_eq!(
        shown["dataDir"].as_str().or(shown["data_dir"].as_str()),
        Some(dir.path().join("data").to_str().unwrap())
    );
    std::fs::write(&path, "log_level = \"info\"\nnot_a_key = 1\n").unwrap();
    assert!(cli.fails(&["--config", path.to_str().unwrap(), "config", "check"]).contains("invalid config"));

    for shell in ["bash", "zsh", "fish"] {
        let script = cli.ok(&["completions", shell]);
        assert!(script.contains("tracker") && script.contains("export"), "{shell}");
    }
    cli.fails(&["completions", "tcsh"]);
    for command in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["users", "--help"],
        vec!["sites", "--help"],
        vec!["live", "--help"],
        vec!["stats", "--help"],
        vec!["export", "--help"],
        vec!["privacy", "--help"],
        vec!["privacy", "delete", "--help"],
        vec!["privacy", "export", "--help"],
        vec!["privacy", "jobs", "--help"],
        vec!["retention", "--help"],
        vec!["retention", "run", "--help"],
        vec!["demo", "--help"],
        vec!["config", "--help"],
        vec!["completions", "--help"],
    ] {
        assert!(cli.ok(&command).contains("Examples:"), "{command:?} has no examples");
    }
}

/// Lines a child process writes, collected by a thread.
pub(crate) fn collect_lines(stream: impl std::io::Read + Send + 'static) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            sink.lock().unwrap().push(line);
        }
    });
    lines
}

pub(crate) fn has_line(lines: &Arc<Mutex<Vec<String>>>, needle: &str) -> Option<String> {
    lines.lock().unwrap().iter().find(|l| l.contains(needle)).cloned()
}

/// `tracker serve` on a free port with `args` added: the child, its stderr lines as they come, its address.
pub(crate) async fn start_daemon(cli: &Cli, args: &[&str]) -> (std::process::Child, Arc<Mutex<Vec<String>>>, String) {
    let mut child = cli
        .command(&[&["serve", "--addr", "127.0.0.1:0"], args].concat())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = collect_lines(child.stdout.take().unwrap());
    let stderr = collect_lines(child.stderr.take().unwrap());
    let addr = wait_for("the listening address", Duration::from_secs(30), || {
        let line = has_line(&stdout, "listening on");
        async move { line.map(|l| l.rsplit(' ').next().unwrap().to_string()) }
    })
    .await;
    (child, stderr, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_daemon_picks_up_config_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tracker.toml");
    std::fs::write(&path, "log_level = \"info\"\nlogin_attempts_per_minute = 20\n").unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let (mut child, stderr, addr) = start_daemon(&cli, &["--config", path.to_str().unwrap()]).await;
    wait_for("the config watch", Duration::from_secs(10), || {
        let found = has_line(&stderr, "watching the config file");
        async move { found }
    })
    .await;
    let client = reqwest::Client::new();
    let base = format!("http://{addr}");
    let post = |path: &str, body: Value| {
        let request = client.post(format!("{base}{path}")).json(&body);
        async move { answer(request.send().await.unwrap()).await }
    };
    assert_eq!(
        post("/api/register", json!({"email": "a@example.com", "password": "secret1"})).await.status,
        StatusCode::CREATED
    );
    let wrong = json!({"email": "a@example.com", "password": "wrong-password"});
    assert_eq!(post("/api/login", wrong.clone()).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(post("/api/login", wrong.clone()).await.status, StatusCode::UNAUTHORIZED, "20 allowed");

    std::fs::write(&path, "log_level = \"debug\"\nlogin_attempts_per_minute = 1\n").unwrap();
    let reloaded = wait_for("the reload in the log", Duration::from_secs(10), || {
        let found = has_line(&stderr, "config reloaded");
        async move { found }
    })
    .await;
    assert!(reloaded.contains("login_attempts_per_minute") && reloaded.contains("log_level"), "{reloaded}");
    assert_eq!(post("/api/login", wrong.clone()).await.status, StatusCode::TOO_MANY_REQUESTS);
    // The new log level is live: debug request logs (a probe's; the dashboard's are at info) now appear.
    let probe = client.get(format!("{base}/health")).send().await.unwrap();
    assert_eq!(probe.status(), StatusCode::OK);
    wait_for("a debug line", Duration::from_secs(10), || {
        let found = has_line(&stderr, "DEBUG");
        async move { found }
    })
    .await;

    // A broken file is reported and the running settings stay.
    std::fs::write(&path, "login_attempts_per_minute = \"many\"\n").unwrap();
    wait_for("the invalid-file warning", Duration::from_secs(10), || {
        let found = has_line(&stderr, "config file is invalid");
        async move { found }
    })
    .await;
    assert_eq!(post("/api/login", wrong).await.status, StatusCode::TOO_MANY_REQUESTS);
    let health = client.get(format!("{base}/api/user")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::UNAUTHORIZED, "still serving");

    child.kill().unwrap();
    child.wait().unwrap();
}

/// Visitors' browsers hang up mid-request all the time (a page unloading with a hit in flight): the daemon
/// goes on serving and its log shows no error for it, from our routes or from warp's connection handling.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_hanging_up_mid_request_are_not_errors_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let (mut child, stderr, addr) = start_daemon(&cli, &[]).await;
    let cut_short: [&[u8]; 3] = [
        b"POST /api/track HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"tracking_key\"",
        b"POST /api/replay?tracking_key=k&session_id=abcdefgh&seq=0 HTTP/1.1\r\nHost: x\r\nContent-Length: 90\r\n\r\nxx",
        b"POST /api/track HTTP/1.1\r\nHost: x\r\nContent-Le",
    ];
    for request in cut_short {
        let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
        tokio::io::AsyncWriteExt::write_all(&mut stream, request).await.unwrap();
    } // each stream is closed here, mid-request
    let still = reqwest::get(format!("http://{addr}/api/user")).await.unwrap();
    assert_eq!(still.status(), StatusCode::UNAUTHORIZED, "still serving");

    // A graceful stop waits for every connection to end, so whatever they logged is in by the exit.
    let stopped = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(stopped.success());
    assert!(child.wait().unwrap().success());
    wait_for("the last log line", Duration::from_secs(10), || {
        let found = has_line(&stderr, "stopped");
        async move { found }
    })
    .await;
    let errors: Vec<String> = stderr.lock().unwrap().iter().filter(|l| l.contains("ERROR")).cloned().collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// A reader that stops early (`tracker sites list | head -1`) ends the command quietly, never with a panic.
#[test]
fn closed_stdout_is_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    {
        // More sites than one account may have by default: the operator raised the cap.
        let config = Config { data_dir: data.clone(), max_sites_per_account: 1000, ..Config::default() };
        let tracker = Tracker::open(&config).unwrap();
        let owner = tracker.auth.create_user("pipe@example.com", "secret1").unwrap();
        // Enough rows that the table outgrows the pipe's buffer.
        for i in 0..800 {
            let new = tracker_core::store::websites::NewWebsite {
                name: format!("Site {i}"),
                domain: format!("site{i}.example.com"),
                tracking_level: None,
            };
            tracker.websites.create(owner.id, new).unwrap();
        }
    }
    let mut child = Command::new(tracker_bin())
        .args(["sites", "list", "--data-dir"])
        .arg(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(!first.is_empty());
    // Dropping the reader closes the pipe while the command is still writing.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}
