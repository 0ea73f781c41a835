//! Every export in cluster mode (issue 18): the same hits and heatmap bodies sent to a SQLite daemon and
//! round-robin to two cluster daemons, each export's file compared with SQLite's. Without the harness's env
//! (tests/cluster/cluster.sh) the tests return at once.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::visitor_post;
use crate::cluster::{
    Corner, CorpusHit, Setup, USER_AGENTS, address, comparable, corpus, harness, send_corpus_hit, shard_rows,
};
use crate::util::{Answer, TestServer};

/// The visitors of the recent visits that send heatmap bodies (after the corpus's).
const RECENT: std::ops::Range<u8> = 60..68;

/// One account's site on a SQLite daemon and on two cluster daemons, holding the same hits.
struct Sites {
    corner: Corner,
    a: TestServer,
    b: TestServer,
    token: String,
    site: Value,
    sqlite: TestServer,
    sqlite_token: String,
    sqlite_site: Value,
    /// The session id of each recent visit and the time of its last page view, a second before its heatmap body.
    last_page_views: Vec<(String, i64)>,
}

/// Sends an interactions body of `visitor` on `path` from that visitor's browser and address: it stores a
/// scroll depth and a click, and keeps the visit alive (a `touch` hits row on the cluster).
async fn send_interactions(server: &TestServer, key: &str, visitor: u8, path: &str) {
    let body = json!({
        "tracking_key": key,
        "session_id": format!("visitor-{visitor:04}"),
        "url": format!("https://shop.example.com{path}"),
        "viewport": {"w": 1280, "h": 800},
        "page": {"w": 1280, "h": 3000},
        "clicks": [{"x": 40 + visitor as i64, "y": 100, "selector": "main > button.buy"}],
        "scrollDepth": 20 + visitor % 5 * 10,
    });
    let agent = USER_AGENTS[visitor as usize % USER_AGENTS.len()];
    let headers = [("user-agent", agent), ("x-forwarded-for", &address(visitor))];
    let answer = visitor_post(server, "/api/interactions", body.to_string().into_bytes(), &headers).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
}

/// The corpus, then recent visits of two page views each followed by a heatmap body, all sent to SQLite and
/// round-robin to the two cluster daemons.
async fn sites() -> Option<Sites> {
    let (pg, ch) = harness()?;
    let now = tracker_core::model::now_ms();
    let hits = corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start);
    let Setup { corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } =
        Setup::start(pg, ch, "professional", &hits).await;
    let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
    let mut turn = 0;
    let mut daemon = || {
        turn += 1;
        if turn % 2 == 0 { &a } else { &b }
    };
    // Two page views a second old when sent (no two share a time), then a heatmap body on the second page: the
    // body comes at least a second after the visit's last page view. SQLite's writer takes a page view older
    // than its visit's last activity as a late hit that moves no exit page, so the body comes last.
    let mut last_page_views = Vec::new();
    let mut ts = 0;
    for visitor in RECENT {
        for path in [format!("/p{}", visitor % 3), "/checkout".to_string()] {
            ts = (tracker_core::model::now_ms() - 1_000).max(ts + 1);
            let hit = CorpusHit { visitor, ts, body: json!({"url": format!("https://shop.example.com{path}")}) };
            send_corpus_hit(daemon(), key, &hit).await;
            send_corpus_hit(&sqlite, sqlite_key, &hit).await;
        }
        send_interactions(daemon(), key, visitor, "/checkout").await;
        send_interactions(&sqlite, sqlite_key, visitor, "/checkout").await;
        last_page_views.push((format!("visitor-{visitor:04}"), ts));
    }
    Some(Sites { corner, a, b, token, site, sqlite, sqlite_token, sqlite_site, last_page_views })
}

/// An export's text with what each store numbers its own way set aside: the id in the `key~id` name of a visit
/// a later one replaced (SQLite's session id, the cluster's visit id).
fn without_visit_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '~' {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        }
    }
    out
}

/// A header of an answer with the site's id in it replaced.
fn header(answer: &Answer, name: &str, site: &Value) -> Option<String> {
    answer.headers.get(name).map(|v| v.to_str().unwrap().replace(&site.to_string(), "{id}"))
}

impl Sites {
    /// Asserts that both cluster daemons answer `path` (with `{}` standing for the site's id) with SQLite's
    /// file: the same status, content type, file name and text, visit ids in session ids aside.
    async fn assert_same_file(&self, path: &str) {
        let at = |site: &Value| path.replace("{}", &site.to_string());
        let expected = self.sqlite.get(&at(&self.sqlite_site["id"]), &self.sqlite_token).await;
        assert_eq!(expected.status, StatusCode::OK, "{path}: {}", expected.text);
        assert!(expected.text.lines().count() > 5, "{path}: {}", expected.text);
        for (name, daemon) in [("A", &self.a), ("B", &self.b)] {
            let got = daemon.get(&at(&self.site["id"]), &self.token).await;
            assert_eq!(got.status, StatusCode::OK, "{name} {path}: {}", got.text);
            assert_eq!(without_visit_ids(&got.text), without_visit_ids(&expected.text), "{name} {path}");
            for header_name in ["content-type", "content-disposition"] {
                assert_eq!(
                    header(&got, header_name, &self.site["id"]),
                    header(&expected, header_name, &self.sqlite_site["id"]),
                    "{name} {path}: {header_name}"
                );
            }
        }
    }

    /// Asserts that `path` answers another account's site 404 and a missing one 404 alike, with a JSON error.
    async fn assert_not_found_for_strangers(&self, stranger: &str, path: &str) {
        for (token, site) in [(stranger, &self.site["id"]), (self.token.as_str(), &json!(999_999))] {
            let answer = self.a.get(&path.replace("{}", &site.to_string()), token).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {}", answer.text);
            assert!(!answer.error_message().is_empty());
        }
    }

    /// Asserts that `path` answers the cluster's site with SQLite's 4xx JSON error.
    async fn assert_refused_as_sqlite(&self, path: &str) {
        let at = |site: &Value| path.replace("{}", &site.to_string());
        let expected = self.sqlite.get(&at(&self.sqlite_site["id"]), &self.sqlite_token).await;
        assert!(expected.status.is_client_error(), "{path}: {}", expected.text);
        let got = self.b.get(&at(&self.site["id"]), &self.token).await;
        assert_eq!(got.status, expected.status, "{path}: {}", got.text);
        assert_eq!(got.error_message(), expected.error_message(), "{path}");
    }
}

/// A site's privacy audit log, newest first, as (action, detail).
async fn audit_log(server: &TestServer, token: &str, site: &Value) -> Vec<(Value, Value)> {
    let answer = server.get(&format!("/api/privacy/audit-logs?website_id={site}"), token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json["entries"].as_array().unwrap().iter().map(|e| (e["action"].clone(), e["detail"].clone())).collect()
}

#[tokio::test]
async fn the_privacy_and_website_exports_are_sqlites_files_without_touches_and_are_audited() {
    let Some(s) = sites().await else { return };
    let touches = shard_rows(&s.corner, &format!("website_id = {} AND kind = 'touch'", s.site["id"]));
    assert_eq!(touches.iter().sum::<u64>(), RECENT.len() as u64, "the exports have touches to leave out");
    for path in [
        "/api/privacy/export-data?data_type=pageviews&website_id={}",
        "/api/privacy/export-data?data_type=events&website_id={}",
        "/api/websites/{}/export",
        "/api/websites/{}/export?format=csv",
        "/api/websites/{}/export?format=jsonl&type=events",
        "/api/websites/{}/export?format=csv&type=pageviews&range=24h",
        "/api/websites/{}/export?format=jsonl&range=7d",
    ] {
        s.assert_same_file(path).await;
    }

    // The visits: those that got a heatmap body were last active when it came (a time each daemon took itself);
    // everything else is SQLite's.
    let sessions = |site: &Value| format!("/api/privacy/export-data?data_type=sessions&website_id={site}");
    let expected = s.sqlite.get(&sessions(&s.sqlite_site["id"]), &s.sqlite_token).await;
    assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
    let comparable_visits = |answer: &Answer| -> Value {
        let mut visits: Vec<Value> = serde_json::from_str(&answer.text).unwrap();
        let mut touched = 0;
        for visit in &mut visits {
            let key = visit["sessionId"].as_str().unwrap();
            if let Some((_, page_view)) = s.last_page_views.iter().find(|(recent, _)| recent == key) {
                let after_the_body = tracker_core::model::iso(page_view + 1_000);
                assert!(visit["lastSeen"].as_str().unwrap() >= after_the_body.as_str(), "{visit}");
                assert_eq!(visit["exitPage"], "/checkout", "{visit}");
                visit["lastSeen"] = Value::Null;
                touched += 1;
            }
        }
        assert_eq!(touched, RECENT.len(), "{}", answer.text);
        comparable(Value::Array(visits))
    };
    let expected_visits = comparable_visits(&expected);
    assert!(expected_visits.as_array().unwrap().len() > 40, "{expected_visits}");
    for (name, daemon) in [("A", &s.a), ("B", &s.b)] {
        let got = daemon.get(&sessions(&s.site["id"]), &s.token).await;
        assert_eq!(got.status, StatusCode::OK, "{name}: {}", got.text);
        assert_eq!(comparable_visits(&got), expected_visits, "daemon {name}");
        assert_eq!(
            header(&got, "content-disposition", &s.site["id"]),
            header(&expected, "content-disposition", &s.sqlite_site["id"])
        );
    }

    let (stranger, _) = s.b.register("stranger@example.com").await;
    for path in ["/api/privacy/export-data?data_type=events&website_id={}", "/api/websites/{}/export?format=csv"] {
        s.assert_not_found_for_strangers(&stranger, path).await;
    }
    for path in [
        "/api/privacy/export-data?data_type=everything&website_id={}",
        "/api/privacy/export-data?data_type=events&website_id=x{}",
        "/api/websites/{}/export?type=touches",
        "/api/websites/{}/export?range=fortnight",
    ] {
        s.assert_refused_as_sqlite(path).await;
    }

    // Each privacy export is in the shared audit log with its row count, as on SQLite (once per daemon).
    let expected = audit_log(&s.sqlite, &s.sqlite_token, &s.sqlite_site["id"]).await;
    assert_eq!(expected.len(), 3, "{expected:?}");
    let got = audit_log(&s.a, &s.token, &s.site["id"]).await;
    assert_eq!(got.len(), 6, "{got:?}");
    let once: Vec<_> = got.iter().step_by(2).cloned().collect();
    assert_eq!(once, expected);
}

#[tokio::test]
async fn the_typed_exports_are_sqlites_files_the_newest_rows_or_a_ranges() {
    let Some(s) = sites().await else { return };
    for path in [
        "/api/export/pageviews?website_id={}",
        "/api/export/events?website_id={}&format=json",
        "/api/export/pageviews?website_id={}&range=24h&format=json",
        "/api/export/events?website_id={}&range=7d",
        "/api/export/pageviews?website_id={}&range=30d&format=csv",
    ] {
        s.assert_same_file(path).await;
    }
    let (stranger, _) = s.b.register("stranger@example.com").await;
    for path in ["/api/export/pageviews?website_id={}", "/api/export/events?website_id={}&range=7d"] {
        s.assert_not_found_for_strangers(&stranger, path).await;
    }
    for path in [
        "/api/export/touches?website_id={}",
        "/api/export/pageviews?website_id={}&format=xml",
        "/api/export/events?website_id={}&range=1y",
        "/api/export/events?website_id=x{}",
    ] {
        s.assert_refused_as_sqlite(path).await;
    }
}

/// An account export with what differs between two stores holding the same account set aside: the time of
/// the export, ids, tracking keys and the times rows were written.
fn comparable_account(mut export: Value) -> Value {
    fn mask(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    match key.as_str() {
                        "exportedAt" | "createdAt" | "created_at" | "updated_at" | "id" | "website_id"
                        | "trackingKey" => *value = json!("set aside"),
                        _ => mask(value),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(mask),
            _ => {}
        }
    }
    mask(&mut export);
    export
}

/// The same account made on `server` through `daemon(i)` in turn: two sites, one with event definitions,
/// changed privacy settings and retention days, and a funnel; a changed profile.
async fn account_on<'a>(daemon: impl Fn(usize) -> &'a TestServer, email: &str) -> String {
    let (token, _) = daemon(0).register(email).await;
    let shop = daemon(1).create_site(&token, "Shop", "professional").await;
    daemon(0).create_site(&token, "Blog", "light").await;
    let id = &shop["id"];
    for (i, name) in ["play", "signup"].into_iter().enumerate() {
        let created = daemon(i)
            .post(
                &format!("/api/websites/{id}/event-definitions"),
                &token,
                json!({"name": name, "displayName": name, "eventType": "custom", "isConversion": i == 1}),
            )
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    }
    let steps = json!([{"name": "Home", "url": "/"}, {"name": "Pricing", "url": "/pricing"}]);
    let funnel = daemon(1).post("/api/funnels", &token, json!({"name": "Buy", "websiteId": id, "steps": steps})).await;
    assert_eq!(funnel.status, StatusCode::CREATED, "{}", funnel.text);
    let privacy = json!({"websiteId": id, "cookieConsent": true, "anonymizeIPs": false, "consentMessage": "=Hi"});
    let changed = daemon(0).put("/api/privacy/settings", &token, privacy).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let changed = daemon(1).put("/api/privacy/retention", &token, json!({"websiteId": id, "events": 30})).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let profile = json!({"name": "Ann", "company": "=Co", "timezone": "Europe/Paris"});
    let changed = daemon(0).put("/api/user/profile", &token, profile).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    token
}

#[tokio::test]
async fn the_account_export_is_sqlites_from_postgresql_on_either_daemon() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    let token = account_on(|i| if i % 2 == 0 { &a } else { &b }, "owner@example.com").await;
    let sqlite_token = account_on(|_| &sqlite, "owner@example.com").await;
    // Another account's sites stay out of the file.
    let stranger = account_on(|_| &b, "stranger@example.com").await;

    let expected = sqlite.get("/api/user/export", &sqlite_token).await;
    assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
    for (list, n) in [("websites", 2), ("privacySettings", 1), ("eventDefinitions", 2), ("funnels", 1)] {
        assert_eq!(expected.json[list].as_array().unwrap().len(), n, "{list}: {}", expected.text);
    }
    assert_eq!(expected.json["privacySettings"][0]["anonymize_ips"], 0, "{}", expected.text);
    for (name, daemon) in [("A", &a), ("B", &b)] {
        let got = daemon.get("/api/user/export", &token).await;
        assert_eq!(got.status, StatusCode::OK, "{name}: {}", got.text);
        assert_eq!(comparable_account(got.json.clone()), comparable_account(expected.json.clone()), "daemon {name}");
        assert_eq!(got.headers.get("content-disposition"), expected.headers.get("content-disposition"));
        let shop = got.json["websites"].as_array().unwrap().iter().find(|w| w["name"] == "Shop").unwrap().clone();
        assert_eq!(got.json["privacySettings"][0]["website_id"], shop["id"], "{}", got.text);
        assert_eq!(got.json["funnels"][0]["website_id"], shop["id"], "{}", got.text);
    }
    let theirs = a.get("/api/user/export", &stranger).await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.text);
    let ids = |export: &Value| -> Vec<Value> {
        export["websites"].as_array().unwrap().iter().map(|w| w["id"].clone()).collect()
    };
    let (mine, theirs) = (ids(&a.get("/api/user/export", &token).await.json), ids(&theirs.json));
    assert_eq!(theirs.len(), 2);
    assert!(theirs.iter().all(|id| !mine.contains(id)), "{mine:?} {theirs:?}");
}
