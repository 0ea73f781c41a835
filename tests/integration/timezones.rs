//! A site's timezone through HTTP (issue 36): a new site takes its creator's profile timezone, the site's settings
//! change it (a name outside the IANA list is a 400, another user's site a 404), and the dashboard's, the Stats
//! API's and Advanced Analytics' days and hours are then the site's local ones.

use reqwest::StatusCode;
use serde_json::json;

use crate::util::TestServer;

#[tokio::test]
async fn a_sites_timezone_is_its_creators_then_its_settings_and_its_charts_follow_it() {
    let server = TestServer::start().await;
    let (alice, _) = server.register("alice@example.com").await;
    let (bob, _) = server.register("bob@example.com").await;
    let profile = json!({"name": "Alice", "company": "", "timezone": "Asia/Kolkata"});
    assert_eq!(server.put("/api/user/profile", &alice, profile).await.status, StatusCode::OK);
    let site = server.create_site(&alice, "Shop", "light").await;
    assert_eq!(site["timezone"], "Asia/Kolkata", "{site}");
    let id = site["id"].as_i64().unwrap();
    let path = format!("/api/websites/{id}");

    for bad in ["Mars/Olympus", "", "+05:30", "Asia/Kolkata; DROP TABLE websites"] {
        let answer = server.put(&path, &alice, json!({"timezone": bad})).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        assert!(answer.error_message().contains("IANA"), "{bad}: {}", answer.text);
    }
    let theirs = server.put(&path, &bob, json!({"timezone": "UTC"})).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
    assert_eq!(server.get(&path, &alice).await.json["timezone"], "Asia/Kolkata", "unchanged by the refusals");

    let key = site["trackingKey"].as_str().unwrap().to_string();
    assert!(server.pageview(&key, "first-visit", "/").await.status.is_success());
    let moved = server.put(&path, &alice, json!({"timezone": "America/New_York"})).await;
    assert_eq!((moved.status, moved.json["timezone"].as_str()), (StatusCode::OK, Some("America/New_York")));

    // Today is New York's day, in its hours (its offset on every label), and holds the page view.
    let chart = server.get(&format!("/api/dashboard/timeseries?website_id={id}&range=today"), &alice).await;
    assert_eq!(chart.status, StatusCode::OK, "{}", chart.text);
    let points = chart.json["points"].as_array().unwrap().clone();
    let first = points[0]["date"].as_str().unwrap();
    assert!(first.ends_with("T00:00:00-05:00") || first.ends_with("T00:00:00-04:00"), "{first}");
    let views: i64 = points.iter().map(|p| p["pageViews"].as_i64().unwrap()).sum();
    assert_eq!(views, 1, "{}", chart.text);
    // Custom days are local dates; a reversed pair or a bad date is a 400.
    let reversed = format!("/api/dashboard/overview?website_id={id}&from=2026-03-09&to=2026-03-08");
    assert_eq!(server.get(&reversed, &alice).await.status, StatusCode::BAD_REQUEST);
    let bad = format!("/api/dashboard/overview?website_id={id}&from=2026-02-30&to=2026-03-08");
    assert_eq!(server.get(&bad, &alice).await.status, StatusCode::BAD_REQUEST);
    let days = format!("/api/dashboard/timeseries?website_id={id}&from=2026-03-07&to=2026-03-09");
    let days = server.get(&days, &alice).await;
    let dates: Vec<&str> =
        days.json["points"].as_array().unwrap().iter().map(|p| p["date"].as_str().unwrap()).collect();
    assert_eq!(dates, ["2026-03-07", "2026-03-08", "2026-03-09"], "{}", days.text);
    // The Stats API's day is New York's too: its echoed range and its hour labels are local.
    let query = json!({"site_id": site["domain"], "metrics": ["pageviews"], "date_range": "day",
                       "dimensions": ["time:day"], "include": {"time_labels": true}});
    let stats = server.post("/api/v2/query", &alice, query).await;
    assert_eq!(stats.status, StatusCode::OK, "{}", stats.text);
    let echoed = stats.json["query"]["date_range"][0].as_str().unwrap();
    assert!(echoed.ends_with("T00:00:00-05:00") || echoed.ends_with("T00:00:00-04:00"), "{echoed}");
    assert_eq!(stats.json["results"][0]["dimensions"][0], first[..10], "{}", stats.text);
    assert_eq!(stats.json["results"][0]["metrics"][0], 1, "{}", stats.text);
    // Advanced Analytics reads the site's days too (and still refuses a range it does not list).
    let advanced = server.get(&format!("/api/analytics/advanced?website_id={id}&time_range=1d"), &alice).await;
    assert_eq!(advanced.status, StatusCode::OK, "{}", advanced.text);
    let bad = server.get(&format!("/api/analytics/advanced?website_id={id}&time_range=2w"), &alice).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    let other = server.get(&format!("/api/dashboard/timeseries?website_id={id}&range=today"), &bob).await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    server.stop().await;
}
