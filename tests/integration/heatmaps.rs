//! Interactions (clicks, moves, submits, form fields, scroll depth) and the heatmap reads:
//! /api/interactions, /api/analytics/urls, /api/analytics/heatmap, /api/analytics/heatmap/page.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{
    assert_cors, assert_not_found, count, gzip, interactions, owner_with_site, preflight, upload_chunk, visitor_post,
};
use crate::util::TestServer;

fn body(key: &str, session: &str, path: &str) -> Value {
    json!({
        "tracking_key": key, "session_id": session, "url": format!("https://shop.example.com{path}"),
        "viewport": {"w": 1280, "h": 720}, "page": {"w": 1280, "h": 4000},
    })
}

#[tokio::test]
async fn clicks_moves_and_scroll_make_a_heatmap() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "heat@example.com", "enhanced").await;
    for (i, session) in ["visit-aaaa-1", "visit-bbbb-2", "visit-cccc-3", "visit-dddd-4"].iter().enumerate() {
        assert_eq!(server.pageview(&key, session, "/pricing").await.status, StatusCode::ACCEPTED);
        let mut b = body(&key, session, "/pricing");
        b["clicks"] = json!([
            {"x": 101, "y": 203, "selector": "main > button.buy", "t": chrono::Utc::now().timestamp_millis()},
            {"x": 104, "y": 207, "selector": "main > button.buy"},
            {"x": 300, "y": 50, "selector": "form#signup input[name=\"email\"]"}
        ]);
        b["moves"] = json!([{"x": 5, "y": 6}, {"x": 7, "y": 8}]);
        b["scrollDepth"] = json!(25 * (i + 1));
        if i == 0 {
            b["submits"] = json!([{"selector": "form#signup"}]);
        }
        let answer = interactions(&server, b).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        assert_cors(&answer);
    }
    // A later, shallower report of the same page view keeps the deepest scroll.
    let mut again = body(&key, "visit-dddd-4", "/pricing");
    again["scrollDepth"] = json!(10);
    assert_eq!(interactions(&server, again).await.status, StatusCode::ACCEPTED);
    // Clicks on a narrower page are scaled to the 1280 px reference width.
    assert_eq!(server.pageview(&key, "visit-mobile-5", "/pricing").await.status, StatusCode::ACCEPTED);
    let mut mobile = body(&key, "visit-mobile-5", "/pricing");
    mobile["page"] = json!({"w": 640, "h": 2000});
    mobile["viewport"] = json!({"w": 640, "h": 1000});
    mobile["clicks"] = json!([{"x": 51, "y": 203, "selector": "main > button.buy"}]);
    assert_eq!(interactions(&server, mobile).await.status, StatusCode::ACCEPTED);
    assert_eq!(server.pageview(&key, "visit-aaaa-1", "/about").await.status, StatusCode::ACCEPTED);

    let urls = server.get(&format!("/api/analytics/urls?website_id={site}"), &token).await;
    assert_eq!(urls.status, StatusCode::OK, "{}", urls.text);
    assert_eq!(urls.json, json!(["/pricing", "/about"]), "most viewed first");

    let heatmap = server
        .get(
            &format!(
                "/api/analytics/heatmap?website_id={site}&url=https%3A%2F%2Fshop.example.com%2Fpricing&time_range=7d"
            ),
            &token,
        )
        .await;
    assert_eq!(heatmap.status, StatusCode::OK, "{}", heatmap.text);
    let h = &heatmap.json;
    assert_eq!(h["clicks"][0], json!({"x": 105, "y": 205, "count": 9}), "{h}");
    assert_eq!(h["clicks"][1], json!({"x": 305, "y": 55, "count": 4}));
    assert_eq!(h["clicks"].as_array().unwrap().len(), 2);
    assert_eq!(h["mouseMovements"].as_array().unwrap().len(), 8);
    assert_eq!(h["referenceWidth"], 1280);
    let scroll = h["scrollDepth"].as_array().unwrap();
    assert_eq!(scroll.len(), 11);
    assert_eq!(scroll[0], json!({"depth": 0, "percentage": 100.0, "visitors": 4}));
    assert_eq!(scroll[3], json!({"depth": 30, "percentage": 75.0, "visitors": 3}));
    assert_eq!(scroll[10], json!({"depth": 100, "percentage": 25.0, "visitors": 1}));
    assert_eq!(h["pageMetrics"]["totalVisitors"], 5);
    assert_eq!(h["pageMetrics"]["bounceRate"], 80.0, "visit 1 went on to /about");
    assert!(h["pageMetrics"]["averageTimeOnPage"].is_number());
    assert_eq!(h["pageMetrics"]["conversionRate"], 0.0);
    // Clicks by element: without an offset they are grouped by their place on the page (fractions of it).
    let on = |selector: &str| -> i64 {
        let groups = h["elementClicks"].as_array().unwrap().iter().filter(|c| c["selector"] == selector);
        groups.inspect(|c| assert_eq!(c["offsetX"], Value::Null)).map(|c| c["count"].as_i64().unwrap()).sum()
    };
    assert_eq!((on("main > button.buy"), on("form#signup input[name=\"email\"]")), (9, 4), "{h}");
    // Clicks on fields alone make no form interactions: those come from focus, blur and change.
    assert_eq!(h["formInteractions"], json!([]));

    // A path works as well as a URL; a page without data answers empty lists.
    let by_path = server.get(&format!("/api/analytics/heatmap?website_id={site}&url=%2Fabout"), &token).await;
    assert_eq!(by_path.status, StatusCode::OK);
    assert_eq!(by_path.json["clicks"], json!([]));
    assert_eq!(by_path.json["scrollDepth"], json!([]));
    assert_eq!(by_path.json["formInteractions"], json!([]));
    assert_eq!(by_path.json["pageMetrics"]["totalVisitors"], 1);

    for bad in [
        format!("/api/analytics/heatmap?website_id={site}"),
        format!("/api/analytics/heatmap?website_id={site}&url=javascript%3Ax"),
        format!("/api/analytics/heatmap?website_id={site}&url=%2F&time_range=2w"),
    ] {
        let answer = server.get(&bad, &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }

    // Deleting the site deletes its points and scroll depths.
    assert!(count(&server, "SELECT COUNT(*) FROM heatmap_points WHERE website_id = ?1", site) > 0);
    assert_eq!(server.delete(&format!("/api/websites/{site}"), &token).await.status, StatusCode::NO_CONTENT);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM heatmap_points WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM scroll_depths WHERE website_id = ?1", site), 0);
}

#[tokio::test]
async fn light_sites_drop_interactions() {
    let server = TestServer::start().await;
    let (_, site, key) = owner_with_site(&server, "lightheat@example.com", "light").await;
    let mut b = body(&key, "light-visit-1", "/");
    b["clicks"] = json!([{"x": 1, "y": 1, "selector": "a"}]);
    b["scrollDepth"] = json!(80);
    let answer = interactions(&server, b).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM heatmap_points WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM scroll_depths WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 0);
}

#[tokio::test]
async fn bad_interactions_are_4xx_with_cors_and_store_nothing() {
    let server = TestServer::start().await;
    let (_, site, key) = owner_with_site(&server, "badheat@example.com", "professional").await;
    let with = |field: &str, value: Value| {
        let mut b = body(&key, "bad-visit-01", "/");
        b[field] = value;
        b
    };
    let many_clicks: Vec<Value> = (0..201).map(|i| json!({"x": i, "y": i, "selector": "a"})).collect();
    let many_moves: Vec<Value> = (0..501).map(|i| json!({"x": i, "y": i})).collect();
    let cases = [
        (with("clicks", Value::Array(many_clicks)), StatusCode::PAYLOAD_TOO_LARGE),
        (with("moves", Value::Array(many_moves)), StatusCode::PAYLOAD_TOO_LARGE),
        (with("clicks", json!([{"x": -1, "y": 1}])), StatusCode::BAD_REQUEST),
        (with("clicks", json!([{"x": 1, "y": 1, "selector": "a".repeat(501)}])), StatusCode::BAD_REQUEST),
        (with("scrollDepth", json!(101)), StatusCode::BAD_REQUEST),
        (with("page", json!({"w": 0, "h": 100})), StatusCode::BAD_REQUEST),
        (with("url", json!("ftp://shop.example.com/")), StatusCode::BAD_REQUEST),
        (with("session_id", json!("x")), StatusCode::BAD_REQUEST),
        (with("clicks", json!("nope")), StatusCode::BAD_REQUEST),
        (with("clicks", json!([{"x": 1, "y": 1, "ox": 1.5, "oy": 0.5}])), StatusCode::BAD_REQUEST),
        (with("clicks", json!([{"x": 1, "y": 1, "ox": 0.5}])), StatusCode::BAD_REQUEST),
        (with("fields", json!([{"field": "#a", "event": "input"}])), StatusCode::BAD_REQUEST),
        (with("fields", json!([{"field": "", "event": "focus"}])), StatusCode::BAD_REQUEST),
        (with("tracking_key", json!("no-such-key")), StatusCode::NOT_FOUND),
    ];
    for (b, status) in cases {
        let answer = interactions(&server, b.clone()).await;
        assert_eq!(answer.status, status, "{b}: {}", answer.text);
        answer.error_message();
        assert_cors(&answer);
    }
    let huge = format!("{{\"padding\":\"{}\"}}", "x".repeat(200 * 1024));
    let too_big = visitor_post(&server, "/api/interactions", huge.into_bytes(), &[]).await;
    assert_eq!(too_big.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_cors(&too_big);
    let not_json = visitor_post(&server, "/api/interactions", b"{".to_vec(), &[]).await;
    assert_eq!(not_json.status, StatusCode::BAD_REQUEST);
    assert_cors(&not_json);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM heatmap_points WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 0);

    let preflight = preflight(&server, "/api/interactions").await;
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    assert!(preflight.headers().get("access-control-allow-credentials").is_none());
}

#[tokio::test]
async fn heatmap_reads_are_owner_only() {
    let server = TestServer::start().await;
    let (_, site, _) = owner_with_site(&server, "heatowner@example.com", "enhanced").await;
    let (other, _) = server.register("heatintruder@example.com").await;
    for path in [
        format!("/api/analytics/urls?website_id={site}"),
        format!("/api/analytics/heatmap?website_id={site}&url=%2F"),
        format!("/api/analytics/heatmap/page?website_id={site}&url=%2F"),
        "/api/analytics/urls?website_id=424242".to_string(),
        "/api/analytics/heatmap/page?website_id=424242&url=%2F".to_string(),
    ] {
        assert_not_found(&server.get(&path, &other).await, &path);
    }
}

/// Form fields through the real ingest path, as the enhanced script sends them: per field the visits that
/// touched it, those where it ended filled, and drop-offs (the last field touched of a form never submitted).
#[tokio::test]
async fn form_fields_give_interactions_completions_and_drop_off() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "forms@example.com", "enhanced").await;
    let (email, name) = ("#email", "form#signup>input:nth-of-type(2)");
    let ev = |field: &str, event: &str, filled: bool, t: i64| json!({"form": "form#signup", "field": field, "event": event, "filled": filled, "t": t});
    let now = chrono::Utc::now().timestamp_millis() - 60_000;
    let visits = [
        // Filled the email, left the name empty, never submitted: drops off at the name.
        (
            "form-visit-aaaa",
            vec![
                ev(email, "focus", false, now),
                ev(email, "change", true, now + 1),
                ev(email, "blur", true, now + 2),
                ev(name, "focus", false, now + 3),
                ev(name, "blur", false, now + 4),
            ],
            false,
        ),
        // Filled both and submitted.
        (
            "form-visit-bbbb",
            vec![
                ev(email, "focus", false, now),
                ev(email, "blur", true, now + 1),
                ev(name, "focus", false, now + 2),
                ev(name, "change", true, now + 3),
                ev(name, "blur", true, now + 4),
            ],
            true,
        ),
        // Touched the email only, left it empty: drops off at the email.
        ("form-visit-cccc", vec![ev(email, "focus", false, now), ev(email, "blur", false, now + 1)], false),
    ];
    for (session, fields, submitted) in visits {
        assert_eq!(server.pageview(&key, session, "/signup").await.status, StatusCode::ACCEPTED);
        let mut b = body(&key, session, "/signup");
        b["fields"] = Value::Array(fields);
        if submitted {
            b["submits"] = json!([{"selector": "form#signup", "t": now + 5}]);
        }
        let answer = interactions(&server, b).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    assert_eq!(count(&server, "SELECT COUNT(*) FROM form_field_events WHERE website_id = ?1", site), 12);
    let heatmap = server.get(&format!("/api/analytics/heatmap?website_id={site}&url=%2Fsignup"), &token).await;
    assert_eq!(heatmap.status, StatusCode::OK, "{}", heatmap.text);
    assert_eq!(
        heatmap.json["formInteractions"],
        json!([
            {"element": email, "form": "form#signup", "interactions": 3, "completions": 2, "dropOffs": 1, "dropOffRate": 33.3},
            {"element": name, "form": "form#signup", "interactions": 2, "completions": 1, "dropOffs": 1, "dropOffRate": 50.0},
        ])
    );
}

/// Clicks with their place inside the element are grouped by element and offset, whatever the page width.
#[tokio::test]
async fn clicks_keep_their_offset_inside_the_element() {
    let server = TestServer::start().await;
    let (token, _site, key) = owner_with_site(&server, "offsets@example.com", "enhanced").await;
    for (session, page_w, x) in [("wide-visit-0001", 1400, 700), ("narrow-visit-01", 390, 195)] {
        assert_eq!(server.pageview(&key, session, "/").await.status, StatusCode::ACCEPTED);
        let mut b = body(&key, session, "/");
        b["page"] = json!({"w": page_w, "h": 2000});
        b["clicks"] = json!([{"x": x, "y": 300, "selector": "#buy", "ox": 0.26, "oy": 0.74}]);
        assert_eq!(interactions(&server, b).await.status, StatusCode::ACCEPTED);
    }
    let heatmap = server.get(&format!("/api/analytics/heatmap?website_id={_site}&url=%2F"), &token).await;
    assert_eq!(
        heatmap.json["elementClicks"],
        json!([{"selector": "#buy", "offsetX": 0.25, "offsetY": 0.75, "pageX": 0.5, "pageY": 0.15, "count": 2}])
    );
}

/// The page under the heat: the latest recording's full snapshot of that path (not of another page of the
/// visit), null without one; the snapshot is returned as data, never interpreted.
#[tokio::test]
async fn the_page_comes_from_the_latest_recording_of_it() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "pagesnap@example.com", "enhanced").await;
    let page = |url: &str| format!("/api/analytics/heatmap/page?website_id={site}&url={url}");
    let none = server.get(&page("%2Fpricing"), &token).await;
    assert_eq!(none.status, StatusCode::OK, "{}", none.text);
    assert_eq!(none.json, json!({"snapshot": null}));

    let start = chrono::Utc::now().timestamp_millis() - 120_000;
    let snapshot = |marker: &str, id: i64| {
        json!({"type": 0, "id": 1, "childNodes": [{"type": 2, "tagName": "html", "attributes": {}, "id": id,
            "childNodes": [{"type": 3, "textContent": marker, "id": id + 1}]}]})
    };
    let recording = |at: i64, pages: &[(&str, &str)]| {
        let mut events = Vec::new();
        for (i, (href, marker)) in pages.iter().enumerate() {
            let t = at + i as i64 * 1000;
            events.push(json!({"type": 4, "data": {"href": href, "width": 1400, "height": 900}, "timestamp": t}));
            events.push(json!({"type": 2, "data": {"node": snapshot(marker, 2), "initialOffset": {"left": 0, "top": 0}}, "timestamp": t + 1}));
        }
        gzip(serde_json::to_string(&events).unwrap().as_bytes())
    };
    // An older visit, and a newer one that saw /pricing and then /about.
    for (session, at, pages) in [
        ("snap-visit-old1", start, vec![("https://shop.example.com/pricing?a=1", "OLD-PRICING")]),
        (
            "snap-visit-new1",
            start + 60_000,
            vec![("https://shop.example.com/pricing", "NEW-PRICING"), ("https://shop.example.com/about", "ABOUT")],
        ),
    ] {
        assert_eq!(server.pageview(&key, session, "/pricing").await.status, StatusCode::ACCEPTED);
        let answer = upload_chunk(&server, &key, session, 0, recording(at, &pages), "").await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    let found = server.get(&page("https%3A%2F%2Fshop.example.com%2Fpricing"), &token).await;
    assert_eq!(found.status, StatusCode::OK, "{}", found.text);
    let snap = &found.json["snapshot"];
    assert_eq!(snap["href"], "https://shop.example.com/pricing");
    assert_eq!((snap["width"].as_i64(), snap["height"].as_i64()), (Some(1400), Some(900)));
    assert_eq!(snap["node"]["childNodes"][0]["childNodes"][0]["textContent"], "NEW-PRICING");
    // /about was recorded but no page view of it is stored: the recording is not looked for it.
    assert_eq!(server.get(&page("%2Fabout"), &token).await.json, json!({"snapshot": null}));
    let bad = server.get(&page("javascript%3Ax"), &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    bad.error_message();
}
