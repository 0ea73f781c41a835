//! Privacy panel exports and audit (issue 14): export-data per type, the audit log of privacy actions,
//! consent-log paging, one visitor's access and erasure across every table, the settings that gate them,
//! and anonymizeIPs at ingest.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{assert_not_found, count, gzip, interactions, owner_with_site, rrweb_events, upload_chunk};
use crate::util::TestServer;

/// A visit of `session` with a page view, a custom event, a click, a form-field event and a scroll report.
async fn visit(server: &TestServer, key: &str, session: &str) {
    assert_eq!(server.pageview(key, session, "/pricing").await.status, StatusCode::ACCEPTED);
    let event = json!({"tracking_key": key, "session_id": session, "url": "https://site.example.com/pricing",
                       "event": "custom", "event_name": "signup_click"});
    assert_eq!(server.track(event).await.status, StatusCode::ACCEPTED);
    let clicks = json!({"tracking_key": key, "session_id": session, "url": "https://site.example.com/pricing",
        "viewport": {"w": 1280, "h": 720}, "page": {"w": 1280, "h": 3000},
        "clicks": [{"x": 100, "y": 200, "selector": "main > button.buy"}], "scrollDepth": 60,
        "fields": [{"form": "form#signup", "field": "#email", "event": "blur", "filled": true}]});
    assert_eq!(interactions(server, clicks).await.status, StatusCode::ACCEPTED);
}

#[tokio::test]
async fn export_data_downloads_each_type_as_json_and_is_audited() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "export@example.com", "enhanced").await;
    visit(&server, &key, "visit-aaaa-1").await;
    visit(&server, &key, "visit-bbbb-2").await;

    for (data_type, rows) in [("pageviews", 2), ("events", 2), ("sessions", 2)] {
        let response = server
            .client
            .get(server.url(&format!("/api/privacy/export-data?website_id={site}&data_type={data_type}")))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{data_type}");
        let disposition = response.headers()["content-disposition"].to_str().unwrap().to_string();
        let date = &tracker_core::model::iso(tracker_core::model::now_ms())[..10];
        assert_eq!(disposition, format!("attachment; filename=\"{data_type}-export-{date}.json\""));
        let body: Value = response.json().await.unwrap();
        let list = body.as_array().unwrap_or_else(|| panic!("{data_type}: an array, got {body}"));
        assert_eq!(list.len(), rows, "{data_type}: {body}");
        assert!(!body.to_string().contains("ipAddress"), "no addresses in a site export");
    }

    for bad in ["", "&data_type=all", "&data_type=", "&data_type=PAGEVIEWS"] {
        let answer = server.get(&format!("/api/privacy/export-data?website_id={site}{bad}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let answer = server.get("/api/privacy/export-data?data_type=events", &token).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);

    // Another user's site is not found, exactly like a missing one, and nothing is audited for it.
    let (other, _, _) = owner_with_site(&server, "other@example.com", "light").await;
    assert_not_found(
        &server.get(&format!("/api/privacy/export-data?website_id={site}&data_type=events"), &other).await,
        "foreign",
    );
    assert_not_found(
        &server.get("/api/privacy/export-data?website_id=999999&data_type=events", &token).await,
        "missing",
    );
    assert_not_found(&server.get(&format!("/api/privacy/audit-logs?website_id={site}"), &other).await, "foreign audit");

    let audit = server.get(&format!("/api/privacy/audit-logs?website_id={site}&limit=10"), &token).await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    assert_eq!(audit.json["total"], 3, "{}", audit.text);
    let entries = audit.json["entries"].as_array().unwrap();
    assert!(
        entries.iter().all(|e| e["action"] == "data_exported" && e["actor"] == "export@example.com"),
        "{}",
        audit.text
    );
    assert_eq!(entries[0]["detail"], json!({"dataType": "sessions", "rows": 2}), "newest first");
}

#[tokio::test]
async fn audit_log_records_settings_retention_and_deletions_with_paging() {
    let server = TestServer::start().await;
    let (token, site, _) = owner_with_site(&server, "audit@example.com", "light").await;
    for days in 1..=12 {
        let answer =
            server.put("/api/privacy/settings", &token, json!({"websiteId": site, "dataRetentionDays": days})).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    // A save that changes nothing is not an action.
    server.put("/api/privacy/settings", &token, json!({"websiteId": site, "dataRetentionDays": 12})).await;
    let answer = server.put("/api/privacy/retention", &token, json!({"websiteId": site, "heatmaps": 7})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let answer =
        server.post("/api/privacy/delete-data", &token, json!({"websiteId": site, "dataType": "events"})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);

    let first = server.get(&format!("/api/privacy/audit-logs?website_id={site}"), &token).await;
    assert_eq!(first.json["total"], 14, "{}", first.text);
    let entries = first.json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 10, "10 a page by default");
    assert_eq!(entries[0]["action"], "data_deleted");
    assert_eq!(entries[0]["detail"], json!({"dataType": "events", "recordsDeleted": 0}));
    assert_eq!(entries[1]["action"], "retention_changed");
    assert_eq!(entries[1]["detail"], json!({"heatmaps": 7}));
    assert_eq!(entries[2]["detail"], json!({"dataRetentionDays": 12}));
    assert!(entries[2]["timestamp"].as_str().unwrap().ends_with('Z'));
    let second = server.get(&format!("/api/privacy/audit-logs?website_id={site}&offset=10&limit=10"), &token).await;
    let rest = second.json["entries"].as_array().unwrap();
    assert_eq!(rest.len(), 4);
    assert_eq!(rest[3]["detail"], json!({"dataRetentionDays": 1}), "oldest last");
    for bad in ["&offset=-1", "&limit=x", "&offset=1.5"] {
        let answer = server.get(&format!("/api/privacy/audit-logs?website_id={site}{bad}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
}

#[tokio::test]
async fn consent_log_pages() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "pages@example.com", "light").await;
    for i in 0..13 {
        let hit = json!({"tracking_key": key, "session_id": format!("consent-visit-{i:02}"),
                         "url": "https://site.example.com/", "event": "consent",
                         "event_properties": {"analytics": i % 2 == 0, "marketing": false}});
        assert_eq!(server.track(hit).await.status, StatusCode::ACCEPTED);
    }
    let page = |offset: i64, limit: i64| {
        let server = &server;
        let token = &token;
        async move {
            server
                .get(&format!("/api/privacy/consent-logs?website_id={site}&offset={offset}&limit={limit}"), token)
                .await
        }
    };
    let first = page(0, 11).await;
    assert_eq!(first.json.as_array().unwrap().len(), 11, "{}", first.text);
    let last = page(10, 11).await;
    let last = last.json.as_array().unwrap().clone();
    assert_eq!(last.len(), 3);
    assert_eq!(last[2]["sessionId"], "consent-visit-00", "oldest last");
    let all = server.get(&format!("/api/privacy/consent-logs?website_id={site}"), &token).await;
    assert_eq!(all.json.as_array().unwrap().len(), 13, "without a page: up to 100");
    let bad = server.get(&format!("/api/privacy/consent-logs?website_id={site}&offset=-3"), &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
}

#[tokio::test]
async fn one_visitor_is_exported_and_erased_across_every_table() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "gdpr@example.com", "professional").await;
    visit(&server, &key, "visit-erase-1").await;
    visit(&server, &key, "visit-keep-22").await;
    let identify = json!({"tracking_key": key, "session_id": "visit-erase-1", "url": "https://site.example.com/pricing",
                          "event": "identify", "event_properties": {"id": "user-42", "plan": "pro"}});
    assert_eq!(server.track(identify).await.status, StatusCode::ACCEPTED);
    let consent = json!({"tracking_key": key, "session_id": "visit-erase-1", "url": "https://site.example.com/",
                         "event": "consent", "event_properties": {"analytics": true, "marketing": true}});
    assert_eq!(server.track(consent).await.status, StatusCode::ACCEPTED);
    let now = tracker_core::model::now_ms();
    let chunk = gzip(rrweb_events(now - 5_000, 3, 2).to_string().as_bytes());
    assert_eq!(upload_chunk(&server, &key, "visit-erase-1", 0, chunk, "").await.status, StatusCode::ACCEPTED);

    // Access (article 15) by the identify() id: every table, the recording with its events.
    let data = server.get(&format!("/api/privacy/visitor-data?website_id={site}&visitor_id=user-42"), &token).await;
    assert_eq!(data.status, StatusCode::OK, "{}", data.text);
    assert_eq!(data.json["sessions"].as_array().unwrap().len(), 1, "{}", data.text);
    assert_eq!(data.json["sessions"][0]["sessionId"], "visit-erase-1");
    assert_eq!(data.json["sessions"][0]["traits"]["id"], "user-42");
    assert_eq!(data.json["events"].as_array().unwrap().len(), 3, "page view, event, identify: {}", data.text);
    assert_eq!(data.json["interactions"][0]["selector"], "main > button.buy");
    assert_eq!(data.json["scrollDepths"][0]["depth"], 60);
    assert_eq!(data.json["formFields"][0]["field"], "#email", "{}", data.text);
    assert_eq!(data.json["formFields"][0]["filled"], 1);
    assert_eq!(data.json["recordings"][0]["events"].as_array().unwrap().len(), 5, "{}", data.text);
    assert_eq!(data.json["consentLogs"].as_array().unwrap().len(), 1);
    // And by the session id: the same visit.
    let by_session =
        server.get(&format!("/api/privacy/visitor-data?website_id={site}&visitor_id=visit-erase-1"), &token).await;
    assert_eq!(by_session.json["sessions"], data.json["sessions"]);

    // Another user's site is 404; a blank or missing id is 400; an unknown visitor 404.
    let (other, other_site, _) = owner_with_site(&server, "stranger@example.com", "light").await;
    assert_not_found(
        &server.get(&format!("/api/privacy/visitor-data?website_id={site}&visitor_id=user-42"), &other).await,
        "foreign",
    );
    assert_not_found(
        &server.post("/api/privacy/delete-visitor", &other, json!({"websiteId": site, "visitorId": "user-42"})).await,
        "foreign delete",
    );
    for bad in ["&visitor_id=", "&visitor_id=%20%20", ""] {
        let answer = server.get(&format!("/api/privacy/visitor-data?website_id={site}{bad}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let long = "x".repeat(201);
    let answer =
        server.post("/api/privacy/delete-visitor", &token, json!({"websiteId": site, "visitorId": long})).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
    assert_not_found(
        &server.get(&format!("/api/privacy/visitor-data?website_id={site}&visitor_id=nobody"), &token).await,
        "unknown",
    );
    assert_not_found(
        &server.get(&format!("/api/privacy/visitor-data?website_id={other_site}&visitor_id=user-42"), &other).await,
        "other site",
    );

    // The settings gate the rights: off answers 403 with the reason, and nothing is deleted.
    server.put("/api/privacy/settings", &token, json!({"websiteId": site, "dataDeletion": false})).await;
    let refused =
        server.post("/api/privacy/delete-visitor", &token, json!({"websiteId": site, "visitorId": "user-42"})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert!(refused.error_message().contains("data deletion"), "{}", refused.text);
    server
        .put(
            "/api/privacy/settings",
            &token,
            json!({"websiteId": site, "dataDeletion": true, "dataPortability": false}),
        )
        .await;
    let refused = server.get(&format!("/api/privacy/visitor-data?website_id={site}&visitor_id=user-42"), &token).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    server
        .put(
            "/api/privacy/settings",
            &token,
            json!({"websiteId": site, "dataPortability": true, "dataSubjectRights": false}),
        )
        .await;
    let refused =
        server.post("/api/privacy/delete-visitor", &token, json!({"websiteId": site, "visitorId": "user-42"})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    server.put("/api/privacy/settings", &token, json!({"websiteId": site, "dataSubjectRights": true})).await;

    // Erasure (article 17): every row of the visitor goes, the other visitor stays, rollups agree.
    let erased =
        server.post("/api/privacy/delete-visitor", &token, json!({"websiteId": site, "visitorId": "user-42"})).await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text);
    assert_eq!(
        erased.json["deleted"],
        json!({"sessions": 1, "events": 3, "interactions": 2, "scrollDepths": 1, "recordings": 1, "consentLogs": 1}),
        "the click and the form-field event"
    );
    assert_eq!(erased.json["recordsDeleted"], 9);
    for (table, left) in [
        ("sessions", 1),
        ("events", 2),
        ("heatmap_points", 1),
        ("form_field_events", 1),
        ("scroll_depths", 1),
        ("replays", 0),
        ("replay_chunks", 0),
        ("consent_logs", 0),
    ] {
        assert_eq!(count(&server, &format!("SELECT COUNT(*) FROM {table}"), 0), left, "{table}");
    }
    assert_eq!(
        count(&server, "SELECT SUM(pageviews) FROM rollup_days WHERE website_id = ?1 AND dim = ''", site),
        1,
        "rollups recomputed from what remains"
    );
    assert_not_found(
        &server.get(&format!("/api/privacy/visitor-data?website_id={site}&visitor_id=user-42"), &token).await,
        "gone",
    );

    let audit = server.get(&format!("/api/privacy/audit-logs?website_id={site}"), &token).await;
    let actions: Vec<&str> =
        audit.json["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions[0], "visitor_deleted");
    assert!(actions.contains(&"visitor_exported"), "{actions:?}");
    assert!(!audit.text.contains("\"plan\""), "no visitor data in the audit log");
}

#[tokio::test]
async fn anonymize_ips_off_keeps_the_full_address() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "ips@example.com", "light").await;
    assert_eq!(server.pageview(&key, "visit-anon-1", "/").await.status, StatusCode::ACCEPTED);
    let put = server.put("/api/privacy/settings", &token, json!({"websiteId": site, "anonymizeIPs": false})).await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    assert_eq!(server.pageview(&key, "visit-full-2", "/").await.status, StatusCode::ACCEPTED);
    let ip = |session: &str| {
        let session = session.to_string();
        server
            .tracker
            .db()
            .read(move |conn| {
                Ok(conn.query_row("SELECT ip_address FROM sessions WHERE session_key = ?1", [session], |r| {
                    r.get::<_, Option<String>>(0)
                })?)
            })
            .unwrap()
    };
    assert_eq!(ip("visit-anon-1").as_deref(), Some("127.0.0.0"), "anonymised while on");
    assert_eq!(ip("visit-full-2").as_deref(), Some("127.0.0.1"), "full address once off");
}
