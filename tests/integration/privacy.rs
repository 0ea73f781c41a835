//! Privacy: settings and retention calls, the consent log, Do-Not-Track and consent-required mode at ingest.

use reqwest::StatusCode;
use serde_json::json;

use crate::capture_util::{assert_cors, assert_not_found, count, owner_with_site, track_with};
use crate::util::TestServer;

#[tokio::test]
async fn settings_and_retention_read_update_and_validate() {
    let server = TestServer::start().await;
    let (token, site, _) = owner_with_site(&server, "priv@example.com", "light").await;

    let settings = server.get(&format!("/api/privacy/settings?website_id={site}"), &token).await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    for field in [
        "gdprCompliant",
        "cookieConsent",
        "anonymizeIPs",
        "respectDoNotTrack",
        "dataSubjectRights",
        "dataPortability",
        "dataDeletion",
    ] {
        assert!(settings.json[field].is_boolean(), "{field}: {}", settings.text);
    }
    assert_eq!(settings.json["dataRetentionDays"], 90);
    assert_eq!(settings.json["dataProcessingBasis"], "consent");

    let updated = server
        .put(
            "/api/privacy/settings",
            &token,
            json!({"websiteId": site, "cookieConsent": true, "dataRetentionDays": 30,
                   "privacyPolicyUrl": "https://shop.example.com/privacy"}),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.text);
    assert_eq!(updated.json["cookieConsent"], true);
    let reread = server.get(&format!("/api/privacy/settings?website_id={site}"), &token).await;
    assert_eq!(reread.json["dataRetentionDays"], 30);
    assert_eq!(reread.json["gdprCompliant"], true, "unchanged fields stay");

    // The website id may come as text, as the spec's client sends it from a select.
    let as_text = server
        .put("/api/privacy/settings", &token, json!({"websiteId": site.to_string(), "dataProcessingBasis": "contract"}))
        .await;
    assert_eq!(as_text.status, StatusCode::OK, "{}", as_text.text);

    for bad in [
        json!({"websiteId": site, "dataRetentionDays": 0}),
        json!({"websiteId": site, "dataRetentionDays": 366}),
        json!({"websiteId": site, "dataProcessingBasis": "because"}),
        json!({"websiteId": site, "privacyPolicyUrl": "javascript:alert(1)"}),
        json!({"websiteId": site, "cookieConsent": "yes"}),
        json!({"cookieConsent": true}),
    ] {
        let answer = server.put("/api/privacy/settings", &token, bad.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let after = server.get(&format!("/api/privacy/settings?website_id={site}"), &token).await;
    assert_eq!(after.json["dataProcessingBasis"], "contract", "bad input stores nothing");

    let retention = server.get(&format!("/api/privacy/retention?website_id={site}"), &token).await;
    assert_eq!(retention.status, StatusCode::OK);
    assert_eq!(
        retention.json,
        json!({"pageviews": 90, "events": 90, "sessions": 90, "heatmaps": 30, "recordings": 30, "conversions": 365})
    );
    let changed = server
        .put("/api/privacy/retention", &token, json!({"websiteId": site, "recordings": 7, "pageviews": 365}))
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.json["recordings"], 7);
    assert_eq!(changed.json["pageviews"], 365);
    let bad = server.put("/api/privacy/retention", &token, json!({"websiteId": site, "heatmaps": 400})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    bad.error_message();
}

#[tokio::test]
async fn privacy_calls_are_owner_only() {
    let server = TestServer::start().await;
    let (_, site, _) = owner_with_site(&server, "owner@example.com", "light").await;
    let (other, _) = server.register("intruder@example.com").await;
    for path in [
        format!("/api/privacy/settings?website_id={site}"),
        format!("/api/privacy/retention?website_id={site}"),
        format!("/api/privacy/consent-logs?website_id={site}"),
        "/api/privacy/settings?website_id=999999".to_string(),
        "/api/privacy/consent-logs?website_id=abc".to_string(),
    ] {
        assert_not_found(&server.get(&path, &other).await, &path);
    }
    for path in ["/api/privacy/settings", "/api/privacy/retention"] {
        let answer = server.put(path, &other, json!({"websiteId": site, "cookieConsent": true, "events": 5})).await;
        assert_not_found(&answer, path);
    }
    let missing = server.get("/api/privacy/settings", &other).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST, "website_id is required");
    let anonymous =
        server.call(reqwest::Method::GET, &format!("/api/privacy/settings?website_id={site}"), None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn do_not_track_is_honoured_when_enabled() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "dnt@example.com", "enhanced").await;
    let hit = |session: &str| json!({"tracking_key": key, "session_id": session, "url": "https://shop.example.com/"});

    // respectDoNotTrack is on by default: DNT and GPC browsers are answered 202 and not stored.
    let dnt = track_with(&server, hit("dnt-visitor-1"), &[("dnt", "1")]).await;
    assert_eq!(dnt.status, StatusCode::ACCEPTED);
    assert_cors(&dnt);
    let gpc = track_with(&server, hit("gpc-visitor-1"), &[("sec-gpc", "1")]).await;
    assert_eq!(gpc.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 0);
    assert_eq!(
        count(&server, "SELECT COALESCE(SUM(pageviews), 0) FROM rollup_days WHERE website_id = ?1", site),
        0,
        "not even counted"
    );

    let config = server.client.get(server.url(&format!("/api/track/config?tracking_key={key}"))).send().await.unwrap();
    let config: serde_json::Value = config.json().await.unwrap();
    assert_eq!(config["respectDoNotTrack"], true);
    assert_eq!(config["requireConsent"], false);

    // Switched off, the same browser is tracked.
    server.put("/api/privacy/settings", &token, json!({"websiteId": site, "respectDoNotTrack": false})).await;
    let tracked = track_with(&server, hit("dnt-visitor-2"), &[("dnt", "1")]).await;
    assert_eq!(tracked.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 1);
}

#[tokio::test]
async fn consent_required_keeps_only_anonymous_counts_until_granted() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "consent@example.com", "professional").await;
    let set = server.put("/api/privacy/settings", &token, json!({"websiteId": site, "cookieConsent": true})).await;
    assert_eq!(set.status, StatusCode::OK);

    let config = server
        .client
        .get(server.url(&format!("/api/track/config?tracking_key={key}")))
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap();
    assert_eq!(config["requireConsent"], true);
    let script = server.client.get(server.url(&format!("/tracking/{key}.js"))).send().await.unwrap();
    if script.status() == StatusCode::OK {
        let text = script.text().await.unwrap();
        assert!(text.contains("\"requireConsent\":true"), "config inlined in the script");
    }

    let xff = [("x-forwarded-for", "203.0.113.77")];
    let page = |path: &str, session: &str| {
        json!({"tracking_key": key, "session_id": session, "url": format!("https://shop.example.com{path}"),
               "referrer": "https://news.example.org/", "screen": "1920x1080"})
    };
    // Before consent: page views are counted, nothing about the visit or visitor is stored.
    for path in ["/", "/pricing"] {
        let answer = track_with(&server, page(path, "anon-session-1"), &xff).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    let custom = json!({"tracking_key": key, "session_id": "anon-session-1", "url": "https://shop.example.com/",
                        "event": "custom", "event_name": "signup"});
    assert_eq!(track_with(&server, custom, &xff).await.status, StatusCode::ACCEPTED);
    let identify = json!({"tracking_key": key, "session_id": "anon-session-1", "url": "https://shop.example.com/",
                          "event": "identify", "event_properties": {"email": "a@b.c"}});
    assert_eq!(track_with(&server, identify, &xff).await.status, StatusCode::ACCEPTED);
    let moves = json!({"tracking_key": key, "session_id": "anon-session-1", "url": "https://shop.example.com/",
                       "viewport": {"w": 1280, "h": 720}, "page": {"w": 1280, "h": 3000},
                       "clicks": [{"x": 10, "y": 10, "selector": "a"}], "scrollDepth": 50});
    assert_eq!(crate::capture_util::interactions(&server, moves).await.status, StatusCode::ACCEPTED);

    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM events WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM heatmap_points WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM scroll_depths WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM organizations WHERE website_id = ?1", site), 0);
    assert_eq!(
        count(&server, "SELECT COALESCE(SUM(pageviews), 0) FROM rollup_days WHERE website_id = ?1 AND dim = ''", site),
        2,
        "anonymous page count"
    );
    assert_eq!(
        count(
            &server,
            "SELECT COUNT(*) FROM rollup_days WHERE website_id = ?1 AND (dim NOT IN ('', 'page') OR visits > 0 OR visitors > 0 OR events > 0)",
            site
        ),
        0,
        "no referrer, country, device or visitor counts"
    );

    // The visitor accepts: the choice is logged (anonymised address) and the visit is tracked from now on.
    let accept = json!({"tracking_key": key, "session_id": "anon-session-1", "url": "https://shop.example.com/",
                        "event": "consent", "event_properties": {"analytics": true, "marketing": false}});
    let logged = track_with(&server, accept, &xff).await;
    assert_eq!(logged.status, StatusCode::ACCEPTED, "{}", logged.text);
    assert_cors(&logged);
    assert_eq!(track_with(&server, page("/checkout", "anon-session-1"), &xff).await.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 1);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM events WHERE website_id = ?1", site), 1);

    // Another visitor declines: logged, and still nothing identifying is kept.
    let decline = json!({"tracking_key": key, "session_id": "anon-session-2", "url": "https://shop.example.com/",
                         "event": "consent", "event_properties": {"analytics": false, "marketing": false}});
    assert_eq!(track_with(&server, decline, &xff).await.status, StatusCode::ACCEPTED);
    assert_eq!(track_with(&server, page("/", "anon-session-2"), &xff).await.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 1);

    let logs = server.get(&format!("/api/privacy/consent-logs?website_id={site}"), &token).await;
    assert_eq!(logs.status, StatusCode::OK, "{}", logs.text);
    let logs = logs.json.as_array().unwrap().clone();
    assert_eq!(logs.len(), 2);
    assert_eq!(logs[0]["sessionId"], "anon-session-2", "newest first");
    assert_eq!(logs[0]["consentType"], "declined");
    assert_eq!(logs[1]["consentType"], "partial");
    assert_eq!(logs[1]["consentData"], json!({"analytics": true, "marketing": false}));
    assert_eq!(logs[1]["ipAddress"], "203.0.113.0", "address anonymised");
    assert!(logs[1]["timestamp"].as_str().unwrap().ends_with('Z'));
    assert!(logs[1]["id"].is_i64());

    let bad = json!({"tracking_key": key, "session_id": "anon-session-3", "url": "https://shop.example.com/",
                     "event": "consent", "event_properties": {"analytics": "yes"}});
    let refused = track_with(&server, bad, &xff).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_cors(&refused);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM consent_logs WHERE website_id = ?1", site), 2);
}

#[tokio::test]
async fn a_declined_visitor_is_not_tracked_even_without_required_consent() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "decline@example.com", "light").await;
    let decline = json!({"tracking_key": key, "session_id": "declined-visit", "url": "https://shop.example.com/",
                         "event": "consent", "event_properties": {"analytics": false, "marketing": true}});
    assert_eq!(track_with(&server, decline, &[]).await.status, StatusCode::ACCEPTED);
    let page = json!({"tracking_key": key, "session_id": "declined-visit", "url": "https://shop.example.com/"});
    assert_eq!(track_with(&server, page, &[]).await.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 0);
    let logs = server.get(&format!("/api/privacy/consent-logs?website_id={site}"), &token).await;
    assert_eq!(logs.json[0]["consentType"], "partial");
}
