//! The Export screen's call, GET /api/export/{pageviews|events}: a range and a format beyond the spec's
//! 10,000 most recent rows, streamed, and the same rows as the core writer (which `tracker export` uses).

use reqwest::StatusCode;
use serde_json::json;

use crate::capture_util::{assert_not_found, owner_with_site};
use crate::util::TestServer;

#[tokio::test]
async fn typed_exports_take_a_range_and_a_format() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "typedexport@example.com", "light").await;
    for (i, path) in ["/", "/pricing", "/docs"].iter().enumerate() {
        assert_eq!(server.pageview(&key, &format!("export-visit-{i}"), path).await.status, StatusCode::ACCEPTED);
    }
    let signup = json!({"tracking_key": key, "session_id": "export-visit-0", "url": "https://shop.example.com/",
        "event": "custom", "event_name": "=cmd|' /C calc'!A0", "event_properties": {"plan": "pro"}});
    assert_eq!(server.track(signup).await.status, StatusCode::ACCEPTED);

    let json_views =
        server.get(&format!("/api/export/pageviews?website_id={site}&range=24h&format=json"), &token).await;
    assert_eq!(json_views.status, StatusCode::OK, "{}", json_views.text);
    assert_eq!(json_views.headers["content-type"], "application/json");
    assert_eq!(json_views.headers["content-disposition"], format!("attachment; filename=\"pageviews-{site}.json\""));
    assert!(json_views.headers.get("content-length").is_none(), "streamed, not built in memory first");
    let rows = json_views.json.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.windows(2).all(|w| w[0]["timestamp"].as_str() <= w[1]["timestamp"].as_str()), "oldest first");
    assert!(rows.iter().all(|r| r["type"] == "pageview"));

    let csv_events = server.get(&format!("/api/export/events?website_id={site}&range=7d&format=csv"), &token).await;
    assert_eq!(csv_events.status, StatusCode::OK);
    assert_eq!(csv_events.headers["content-disposition"], format!("attachment; filename=\"events-{site}.csv\""));
    assert_eq!(csv_events.text.lines().count(), 2, "{}", csv_events.text);
    assert!(csv_events.text.contains(",'=cmd|"), "formula cells stay quoted: {}", csv_events.text);

    let json_events = server.get(&format!("/api/export/events?website_id={site}&range=30d&format=json"), &token).await;
    assert_eq!(json_events.json[0]["name"], "=cmd|' /C calc'!A0", "JSON stays verbatim");
    assert_eq!(json_events.json[0]["properties"], json!({"plan": "pro"}));

    for bad in ["range=1y", "range=", "format=xml", "format=jsonl", "range=7d&format=pdf"] {
        let answer = server.get(&format!("/api/export/pageviews?website_id={site}&{bad}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let (other, _) = server.register("typedexportintruder@example.com").await;
    assert_not_found(
        &server.get(&format!("/api/export/events?website_id={site}&range=7d&format=json"), &other).await,
        "another user's export",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_export_streams_every_row_and_a_dropped_download_stops_the_writer() {
    let server = TestServer::start().await;
    let (token, site, _) = owner_with_site(&server, "bigexport@example.com", "light").await;
    // `tracker demo` sends its hits through the real ingest path, into the database the daemon has open.
    let data = server.dir.path().join("data");
    let demo = tokio::task::spawn_blocking(move || {
        std::process::Command::new(crate::util::tracker_bin())
            .args(["--data-dir", data.to_str().unwrap(), "demo", "--site", &site.to_string()])
            .args(["--events", "20000", "--days", "2", "--seed", "7", "--json"])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(demo.status.success(), "{}", String::from_utf8_lossy(&demo.stderr));
    let whole = server.get(&format!("/api/websites/{site}/export?format=csv"), &token).await;
    assert_eq!(whole.status, StatusCode::OK);
    let rows = whole.text.lines().count() - 1;
    assert!(rows >= 20_000, "{rows}");
    let count = server
        .tracker
        .events
        .export_row_count(&tracker_core::export::ExportQuery::new(site, tracker_core::export::ExportKind::All));
    assert_eq!(Some(rows as u64), count.unwrap());

    // A client that reads the head and hangs up: the daemon stays healthy and answers the next call.
    let response = server
        .client
        .get(server.url(&format!("/api/websites/{site}/export?format=json")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    drop(response);
    let after = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!(after.status, StatusCode::OK);
}
