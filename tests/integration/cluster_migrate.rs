//! `tracker migrate --to-cluster` end to end: a SQLite daemon's data folder, with its account, site, definitions,
//! funnel and a corpus of hits, copied by the built binary into a fresh cluster; a cluster daemon then signs the
//! same account in and answers every read as the SQLite daemon does, under the same ids. Imported history
//! (Plausible's daily aggregates, Umami's hits) moves with the folder and answers as there.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::cli::Cli;
use crate::cluster::{Corner, comparable, corpus, harness, read, send_corpus_hit, start_early_in_the_hour};
use crate::imports::{import, recent_copy, stderr};
use crate::util::TestServer;

/// Runs `tracker migrate --to-cluster --json` on the data folder into the corner's cluster.
async fn migrate(data: std::path::PathBuf, env: Vec<(&'static str, String)>) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        let mut command = Cli::new(&data).command(&["migrate", "--to-cluster", "--json"]);
        command.envs(env).output().unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn a_migrated_data_folder_answers_on_the_cluster_as_on_sqlite_under_the_same_ids() {
    let Some((pg, ch)) = harness() else { return };
    start_early_in_the_hour().await;
    let corner = Corner::new(pg, ch).await;
    let sqlite = TestServer::start().await;
    let (token, _) = sqlite.register("owner@example.com").await;
    let site = sqlite.create_site(&token, "Shop", "light").await;
    let id = site["id"].clone();
    for name in ["play", "signup"] {
        let path = format!("/api/websites/{id}/event-definitions");
        let created =
            sqlite.post(&path, &token, json!({"name": name, "displayName": name, "eventType": "custom"})).await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    }
    let steps = json!([{"name": "Home", "url": "/"}, {"name": "Pricing", "url": "/pricing"}]);
    let funnel = sqlite.post("/api/funnels", &token, json!({"name": "Buy", "websiteId": id, "steps": steps})).await;
    assert_eq!(funnel.status, StatusCode::CREATED, "{}", funnel.text);
    let privacy = json!({"websiteId": id, "dataRetentionDays": 200});
    assert_eq!(sqlite.put("/api/privacy/settings", &token, privacy).await.status, StatusCode::OK);
    let now = tracker_core::model::now_ms();
    let key = site["trackingKey"].as_str().unwrap();
    for hit in corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start) {
        send_corpus_hit(&sqlite, key, &hit).await;
    }

    // The daemon keeps running: the copy reads the folder beside it.
    let data = sqlite.dir.path().join("data");
    let out = migrate(data.clone(), corner.env()).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["events"].as_u64().unwrap() > 50, "{report}");
    assert_eq!(report["resumed"], false, "{report}");

    let cluster = corner.daemon().await;
    let login = json!({"email": "owner@example.com", "password": "secret1"});
    let signed_in = cluster.call(Method::POST, "/api/login", None, Some(login)).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
    let cluster_token = signed_in.json["accessToken"].as_str().unwrap().to_string();

    let mut paths = vec![
        "/api/websites".to_string(),
        format!("/api/websites/{id}"),
        format!("/api/websites/{id}/event-definitions"),
        format!("/api/privacy/settings?website_id={id}"),
        format!("/api/dashboard/recent-activity?website_id={id}&limit=50"),
        "/api/dashboard/sites?metric=visitors".to_string(),
        format!("/api/analytics/urls?website_id={id}"),
    ];
    for range in ["24h", "7d", "30d"] {
        paths.push(format!("/api/dashboard/overview?website_id={id}&range={range}"));
        paths.push(format!("/api/dashboard/timeseries?website_id={id}&range={range}"));
        let funnel_range = if range == "24h" { "1d" } else { range };
        paths.push(format!("/api/funnels?website_id={id}&range={funnel_range}"));
        for report in ["referrers", "traffic-sources", "countries", "conversions", "events/summary"] {
            paths.push(format!("/api/websites/{id}/{report}?range={range}"));
        }
        for dim in ["page", "referrer", "country", "device", "browser", "os", "utm_source"] {
            paths.push(format!("/api/websites/{id}/breakdown/{dim}?range={range}"));
        }
    }
    let overview = read(&sqlite, &token, &paths[7]).await;
    assert!(overview["metrics"]["bounceRate"].as_f64().unwrap() > 0.0, "{overview}");
    for path in &paths {
        let expected = sqlite.get(path, &token).await;
        assert_eq!(expected.status, StatusCode::OK, "{path}: {}", expected.text);
        let got = cluster.get(path, &cluster_token).await;
        assert_eq!(got.status, StatusCode::OK, "{path}: {}", got.text);
        // Script addresses name the daemon that answers.
        let got: Value = serde_json::from_str(&got.text.replace(&cluster.base, &sqlite.base)).unwrap();
        let expected = expected.json;
        // Ids are kept: the answers are equal as they are, ids included, but for the ids of single hits, which
        // ClickHouse makes from the hit (it numbers no rows).
        let (got, expected) = match path.contains("recent-activity") || path.contains("conversions") {
            true => (comparable(got), comparable(expected)),
            false => (got, expected),
        };
        assert!(got == expected, "{path}:\n{got}\n{expected}");
    }

    // `tracker stats`, `tracker live` and `tracker export` read the cluster given its settings, and print what
    // they print for the data folder.
    let site_arg = id.to_string();
    for args in [
        vec!["stats", "--site", &site_arg, "--range", "7d"],
        vec!["live", "--site", &site_arg, "--once"],
        vec!["export", "--site", &site_arg, "--format", "json"],
    ] {
        let owned: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let (folder, env) = (data.clone(), corner.env());
        let (from_folder, from_cluster) = tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = owned.iter().map(String::as_str).collect();
            let cli = Cli::new(&folder);
            let from_folder = cli.json(&args);
            let mut command = cli.command(&args);
            let out = command.arg("--json").envs(env).output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            (from_folder, serde_json::from_slice::<Value>(&out.stdout).unwrap())
        })
        .await
        .unwrap();
        assert_eq!(from_cluster, from_folder, "{args:?}");
        if args[0] == "export" {
            assert!(from_folder.as_array().is_some_and(|rows| rows.len() > 10), "{from_folder}");
        }
    }

    // `tracker privacy` exports and erases a visitor, deletes page views, then events and everything before
    // a time, on the cluster with the data folder's reports.
    let (folder, env) = (data.clone(), corner.env());
    let cut = |hours: i64| chrono::DateTime::from_timestamp_millis(now - hours * 3_600_000).unwrap().to_rfc3339();
    let (events_cut, all_cut) = (cut(12), cut(5));
    tokio::task::spawn_blocking(move || {
        let cli = Cli::new(&folder);
        let on_cluster = |args: &[&str]| {
            let out = cli.command(args).arg("--json").envs(env.clone()).output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        };
        let export = ["privacy", "export", "--site", &site_arg, "--visitor", "visitor-0004"];
        let copy = on_cluster(&export);
        assert!(copy["sessions"].as_array().is_some_and(|s| !s.is_empty()), "{copy}");
        assert_eq!(copy["events"].as_array().map(Vec::len), cli.json(&export)["events"].as_array().map(Vec::len));
        for args in [
            vec!["privacy", "delete", "--site", &site_arg, "--visitor", "visitor-0004", "--yes"],
            vec!["privacy", "delete", "--site", &site_arg, "--data", "pageviews", "--yes"],
            vec!["privacy", "delete", "--site", &site_arg, "--data", "events", "--before", &events_cut, "--yes"],
            vec!["privacy", "delete", "--site", &site_arg, "--data", "all", "--before", &all_cut, "--yes"],
        ] {
            let (mut expected, mut got) = (cli.json(&args), on_cluster(&args));
            assert!(expected["recordsDeleted"].as_u64().unwrap() > 0, "{expected}");
            // Each engine counts the rollup rows of its own layout (`DeletionReport::rollup_rows`).
            for report in [&mut expected, &mut got] {
                report["deleted"]["rollupRows"] = json!(0);
            }
            assert_eq!(got, expected, "{args:?}");
        }
    })
    .await
    .unwrap();

    // A second run has nothing to do and says so; the data stays as it was.
    let again = migrate(data, corner.env()).await;
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already been copied"), "{again:?}");
    let expected = read(&sqlite, &token, &paths[7]).await;
    assert_eq!(read(&cluster, &cluster_token, &paths[7]).await["metrics"], expected["metrics"]);
}

/// Without a database in the data folder the command stops before touching the cluster, and makes no database.
#[test]
fn migrating_a_folder_without_a_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = Cli::new(&dir.path().join("nothing")).output(&["migrate", "--to-cluster"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no database at"), "{stderr}");
    assert!(!dir.path().join("nothing").join("tracker.db").exists());
}

/// A site's Plausible import and another's Umami import (the samples moved to recent days) are copied with the
/// folder: the overview (its imported marker included), the page breakdown and `tracker stats` give the folder's
/// figures, not zero, and importing the same days again is refused naming the same import (same id).
#[tokio::test]
async fn imported_history_moves_with_a_migrated_data_folder() {
    let Some((pg, ch)) = harness() else { return };
    start_early_in_the_hour().await;
    let corner = Corner::new(pg, ch).await;
    let sqlite = TestServer::start().await;
    let (token, _) = sqlite.register("owner@example.com").await;
    let tmp = tempfile::tempdir().unwrap();
    let mut sites = Vec::new();
    for (tool, fixture) in [("plausible", "plausible"), ("umami", "umami-events.csv")] {
        let site = sqlite.create_site(&token, tool, "light").await;
        let file = recent_copy(fixture, tmp.path());
        let imported = import(&sqlite, &site["id"].to_string(), tool, &file, &["--json"]);
        assert!(imported.status.success(), "{tool}: {}", stderr(&imported));
        sites.push((site["id"].to_string(), tool, file));
    }

    let data = sqlite.dir.path().join("data");
    let out = migrate(data.clone(), corner.env()).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["imports"], 2, "{report}");
    assert!(report["importedDays"].as_u64().unwrap() > 10, "{report}");
    assert!(report["events"].as_u64().unwrap() > 0, "Umami's hits are events: {report}");

    let cluster = corner.daemon().await;
    let login = json!({"email": "owner@example.com", "password": "secret1"});
    let signed_in = cluster.call(Method::POST, "/api/login", None, Some(login)).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
    let cluster_token = signed_in.json["accessToken"].as_str().unwrap().to_string();

    for (id, tool, file) in sites {
        for path in [
            format!("/api/dashboard/overview?website_id={id}&range=7d"),
            format!("/api/websites/{id}/breakdown/page?range=7d"),
        ] {
            let expected = read(&sqlite, &token, &path).await;
            assert_eq!(read(&cluster, &cluster_token, &path).await, expected, "{tool}: {path}");
            if path.contains("overview") {
                assert!(expected["metrics"]["pageViews"].as_i64().unwrap() > 0, "{tool}: {expected}");
                assert_eq!(expected["imported"]["sources"], json!([tool]), "{tool}: {expected}");
            }
        }
        let (folder, env) = (data.clone(), corner.env());
        tokio::task::spawn_blocking(move || {
            let cli = Cli::new(&folder);
            let on_cluster = |args: &[&str]| cli.command(args).envs(env.clone()).output().unwrap();
            let stats = ["stats", "--site", &id, "--range", "7d", "--json"];
            let expected = cli.json(&stats[..5]);
            assert!(expected["pageViews"].as_i64().unwrap() > 0, "{tool}: {expected}");
            let got = on_cluster(&stats);
            assert!(got.status.success(), "{tool}: {}", stderr(&got));
            assert_eq!(serde_json::from_slice::<Value>(&got.stdout).unwrap(), expected, "{tool}");

            // The import is on record under its id in both: a repeat is refused naming it.
            let mut again = vec!["import", "--site", &id, "--from", tool];
            again.push(file.to_str().unwrap());
            let (from_folder, from_cluster) = (cli.output(&again), on_cluster(&again));
            assert!(!from_folder.status.success() && !from_cluster.status.success());
            let refused = stderr(&from_folder);
            assert!(refused.contains(&format!("already has history imported from {tool}")), "{refused}");
            assert_eq!(stderr(&from_cluster), refused, "{tool}");
        })
        .await
        .unwrap();
    }
}
