//! `tracker demo` as people judge the product by it: on a professional site it fills every screen (today's
//! traffic, heatmaps, replays, organizations, identified visitors, journeys), and `--live` keeps visitors on
//! the live screens through the running daemon.

use std::time::Duration;

use serde_json::{Value, json};

use crate::cli::{Cli, start_daemon};
use crate::util::wait_for;

/// GET `path` as the bearer of `token` from the daemon at `base`; the JSON answer, which must be 200.
async fn get(client: &reqwest::Client, base: &str, token: &str, path: &str) -> Value {
    let answer = client.get(format!("{base}{path}")).bearer_auth(token).send().await.unwrap();
    assert!(answer.status().is_success(), "GET {path}: {}", answer.status());
    answer.json().await.unwrap()
}

fn len(value: &Value) -> usize {
    value.as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_fills_every_screen_and_keeps_visitors_live() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    cli.json(&["users", "add", "demo@example.com", "--password", "secret1"]);
    let site = cli.json(&[
        "sites",
        "add",
        "--name",
        "Demo",
        "--domain",
        "demo.example.com",
        "--owner",
        "demo@example.com",
        "--level",
        "professional",
    ]);
    let id = site["id"].as_i64().unwrap();
    let report = cli.json(&["demo", "--site", &id.to_string(), "--events", "6000", "--days", "14", "--seed", "3"]);
    assert!(report["heatmapPages"].as_u64().unwrap() > 0 && report["recordings"].as_u64().unwrap() > 0, "{report}");

    let (mut daemon, _stderr, addr) = start_daemon(&cli, &[]).await;
    let base = format!("http://{addr}");
    let client = reqwest::Client::new();
    let login = client
        .post(format!("{base}/api/login"))
        .json(&json!({"email": "demo@example.com", "password": "secret1"}))
        .send()
        .await
        .unwrap();
    let token = login.json::<Value>().await.unwrap()["accessToken"].as_str().unwrap().to_string();
    let get = |path: String| {
        let (client, base, token) = (client.clone(), base.clone(), token.clone());
        async move { get(&client, &base, &token, &path).await }
    };

    // Today has traffic: the demo's visits run up to the present.
    let today = get(format!("/api/dashboard/overview?website_id={id}&range=1d")).await;
    assert!(today["metrics"]["pageViews"].as_i64().unwrap() > 0, "{today}");
    let series = get(format!("/api/dashboard/timeseries?website_id={id}&range=7d")).await;
    assert!(series.to_string().contains("pageViews"), "{series}");
    for panel in ["referrers", "countries", "traffic-sources", "conversions"] {
        let answer = get(format!("/api/websites/{id}/{panel}?range=30d")).await;
        let rows = answer.get("conversions").map_or_else(|| len(&answer), len);
        assert!(rows > 0, "{panel}: {answer}");
    }
    let events = get(format!("/api/websites/{id}/events/summary?timeRange=7d")).await;
    assert!(len(&events["topEvents"]) > 0, "{events}");
    let recent = get(format!("/api/dashboard/recent-activity?website_id={id}&limit=10")).await;
    assert!(recent.to_string().len() > 20, "{recent}");

    // Heatmaps: pages with data, and clicks on the busiest.
    let urls = get(format!("/api/analytics/urls?website_id={id}")).await;
    let page = urls[0].as_str().expect("a page with heatmap data").to_string();
    let heatmap = get(format!("/api/analytics/heatmap?website_id={id}&url={page}&time_range=7d")).await;
    assert!(heatmap.to_string().contains("\"x\""), "clicks on {page}: {heatmap}");

    // Replays, with events the player can load.
    let replays = get(format!("/api/websites/{id}/session-replays?range=7d")).await;
    assert!(len(&replays) > 0, "{replays}");
    let replay = replays[0]["id"].as_str().map(str::to_string).unwrap_or_else(|| replays[0]["id"].to_string());
    let recorded = get(format!("/api/replays/{replay}/events")).await;
    assert!(recorded.to_string().contains("\"type\":2"), "a full snapshot in replay {replay}");

    // Organizations and identified visitors (professional level).
    assert!(len(&get(format!("/api/websites/{id}/organizations")).await) > 0);
    assert!(len(&get(format!("/api/websites/{id}/identified-visitors")).await) > 0);
    let advanced = get(format!("/api/analytics/advanced?website_id={id}&time_range=7d")).await;
    assert!(advanced.to_string().len() > 100, "{advanced}");
    let journeys = get(format!("/api/analytics/customer-journeys?website_id={id}&period=7d")).await;
    assert!(len(&journeys["journeys"]) > 0, "{journeys}");

    // --live: visitors browse through the daemon, and the live screens list them.
    let live = tokio::task::spawn_blocking({
        let cli = Cli::new(&cli.data);
        move || cli.json(&["demo", "--site", &id.to_string(), "--events", "10", "--days", "1", "--live", "8"])
    });
    let data = cli.data.clone();
    wait_for("three visitors from demo --live on the live list", Duration::from_secs(30), || {
        let cli = Cli::new(&data);
        async move {
            let active = tokio::task::spawn_blocking(move || cli.json(&["live", "--site", &id.to_string(), "--once"]));
            let active = active.await.unwrap();
            let from_live =
                active.as_array().unwrap().iter().filter(|s| s["sessionId"].as_str().unwrap().starts_with("live"));
            (from_live.count() >= 3).then_some(())
        }
    })
    .await;
    live.await.unwrap();
    let stream = get(format!("/api/analytics/live-visitors?website_id={id}")).await;
    assert!(stream["totalActiveVisitors"].as_i64().unwrap() >= 3, "{stream}");
    daemon.kill().unwrap();
    daemon.wait().unwrap();
}

#[test]
fn demo_live_needs_the_daemon() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    cli.json(&["users", "add", "demo@example.com", "--password", "secret1"]);
    cli.json(&["sites", "add", "--name", "Demo", "--domain", "demo.example.com", "--owner", "demo@example.com"]);
    let error = cli.fails(&["demo", "--site", "demo.example.com", "--events", "10", "--live", "1"]);
    assert!(error.contains("start `tracker serve`"), "{error}");
}
