//! Cluster mode end to end (issue 18): two daemons on one PostgreSQL and a 2-shard ClickHouse (the harness:
//! tests/cluster/cluster.sh up DIR; source DIR/env), each in a fresh schema and database. Without the harness's
//! env the test returns at once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use tracker_core::cluster::clickhouse::Node;

use crate::cli::Cli;
use crate::reads::next_message_within;
use crate::util::{Answer, BROWSER_UA, TestServer, answer};

/// The signing secret every daemon of a test cluster is configured with (cluster mode requires one, the same on
/// every daemon; none is kept in a database).
pub(crate) const CLUSTER_JWT_SECRET: &str = "cluster-test-secret-cluster-test-secret-0001";
/// The visitor-salt key every daemon of a test cluster is configured with.
pub(crate) const CLUSTER_SALT_KEY: &str = "cluster-test-salt-key-cluster-test-salt-0001";

/// Gives `config` the keys of a test cluster's daemons.
pub(crate) fn cluster_keys(config: &mut tracker_core::Config) {
    config.jwt_secret = Some(CLUSTER_JWT_SECRET.into());
    config.visitor_salt_key = Some(CLUSTER_SALT_KEY.into());
}

/// The harness's PostgreSQL URL and ClickHouse shard URLs, or `None` to skip (said on stderr). With
/// `TRACKER_TEST_REQUIRE_CLUSTER=1` (tests/run.sh sets it) a missing harness fails the test instead.
pub(crate) fn harness() -> Option<(String, String)> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match (var("TRACKER_TEST_POSTGRES_URL"), var("TRACKER_TEST_CLICKHOUSE_URLS")) {
        (Some(pg), Some(ch)) => Some((pg, ch)),
        _ => {
            assert!(
                var("TRACKER_TEST_REQUIRE_CLUSTER").as_deref() != Some("1"),
                "TRACKER_TEST_REQUIRE_CLUSTER=1 but the cluster harness is not running: start it \
                 (tests/cluster/cluster.sh up DIR) and source DIR/env"
            );
            eprintln!("skipped: the cluster harness is not running");
            None
        }
    }
}

/// A fresh PostgreSQL schema and ClickHouse database name for this test, dropped with it.
pub(crate) struct Corner {
    pg: String,
    pub(crate) ch: String,
    pub(crate) name: String,
}

impl Corner {
    pub(crate) async fn new(pg: String, ch: String) -> Corner {
        // Tests of this binary start in parallel, often in the same millisecond: a counter tells them apart.
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let started = STARTED.fetch_add(1, Ordering::Relaxed);
        let name = format!("t_cluster_{}_{}_{started}", std::process::id(), tracker_core::model::now_ms());
        let (url, schema) = (pg.clone(), name.clone());
        tokio::task::spawn_blocking(move || {
            let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            client.batch_execute(&format!("CREATE SCHEMA {schema}")).unwrap();
        })
        .await
        .unwrap();
        Corner { pg, ch, name }
    }

    /// The harness's PostgreSQL URL, outside this corner's schema.
    pub(crate) fn base_postgres_url(&self) -> String {
        self.pg.clone()
    }

    /// The PostgreSQL URL of this corner's schema.
    pub(crate) fn postgres_url(&self) -> String {
        let separator = if self.pg.contains('?') { '&' } else { '?' };
        format!("{}{separator}options=-csearch_path%3D{}", self.pg, self.name)
    }

    /// The settings that make `tracker serve` a daemon of this cluster, as environment variables.
    pub(crate) fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("TRACKER_POSTGRES_URL", self.postgres_url()),
            ("TRACKER_CLICKHOUSE_URL", self.ch.clone()),
            ("TRACKER_CLICKHOUSE_DATABASE", self.name.clone()),
            ("TRACKER_JWT_SECRET", CLUSTER_JWT_SECRET.into()),
            ("TRACKER_VISITOR_SALT_KEY", CLUSTER_SALT_KEY.into()),
        ]
    }

    /// A daemon of the cluster, with its own data folder.
    pub(crate) async fn daemon(&self) -> TestServer {
        let postgres_url = self.postgres_url();
        let (ch, name) = (self.ch.clone(), self.name.clone());
        TestServer::start_with(move |config| {
            config.postgres_url = Some(postgres_url);
            config.clickhouse_url = Some(ch);
            config.clickhouse_database = Some(name);
            cluster_keys(config);
        })
        .await
    }
}

impl Drop for Corner {
    fn drop(&mut self) {
        let (pg, ch, name) = (self.pg.clone(), self.ch.clone(), self.name.clone());
        // Best effort, on a thread of its own (the clients block; this runs on the test's runtime).
        let _ = std::thread::spawn(move || {
            if let Ok(mut client) = postgres::Client::connect(&pg, postgres::NoTls) {
                let _ = client.batch_execute(&format!("DROP SCHEMA {name} CASCADE"));
            }
            for url in ch.split(',') {
                let _ = Node::new(url).execute(&format!("DROP DATABASE IF EXISTS {name}"));
            }
        })
        .join();
    }
}

/// Page views of 12 visitors (1 to 3 pages each; a third of them bounce), as (visitor, path).
fn visits() -> Vec<(u8, String)> {
    let mut hits = Vec::new();
    for visitor in 0..12u8 {
        for page in 0..(1 + visitor % 3) {
            hits.push((visitor, format!("/p{}", (visitor + page) % 4)));
        }
    }
    hits
}

/// A page view from visitor `visitor` (its own address) on the site with `key`.
pub(crate) async fn pageview(server: &TestServer, key: &str, visitor: u8, path: &str) {
    track(server, key, visitor, path, json!({})).await;
}

/// A hit from visitor `visitor` on `path` with the `event` fields of the track body (none for a page view).
async fn track(server: &TestServer, key: &str, visitor: u8, path: &str, event: Value) {
    send(server, key, visitor, path, event, false).await;
}

/// A hit as `track` sends it, with Do-Not-Track on when `dnt`.
async fn send(server: &TestServer, key: &str, visitor: u8, path: &str, event: Value, dnt: bool) {
    let answer = post_hit(server, key, visitor, path, event, dnt).await;
    assert!(answer.status.is_success(), "{}: {}", answer.status, answer.text);
}

/// A hit as `send` sends it, and the daemon's answer whatever it is.
pub(crate) async fn post_hit(
    server: &TestServer,
    key: &str,
    visitor: u8,
    path: &str,
    event: Value,
    dnt: bool,
) -> Answer {
    let mut body = json!({"tracking_key": key, "session_id": format!("visitor-{visitor:04}"),
        "url": format!("https://site.example.com{path}")});
    if let (Some(body), Some(event)) = (body.as_object_mut(), event.as_object()) {
        body.extend(event.clone());
    }
    let response = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", BROWSER_UA)
        .header("x-forwarded-for", format!("198.51.100.{}", visitor + 1))
        .header("content-type", "text/plain")
        .header("dnt", if dnt { "1" } else { "0" })
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    answer(response).await
}

/// Rows of the test's hits table on each shard, queried on the shard itself (its local table) where `condition`.
pub(crate) fn shard_rows(corner: &Corner, condition: &str) -> Vec<u64> {
    corner
        .ch
        .split(',')
        .map(|url| {
            Node::new(url)
                .query_value(&format!("SELECT count() FROM {}.hits_local WHERE {condition}", corner.name))
                .unwrap()
        })
        .collect()
}

/// Waits until no shard holds a row of `hits_local` matching `condition` (a deletion's job runs shortly after
/// the request that left it: a grace of 3 s, then the mutations), at most a minute.
pub(crate) async fn await_no_rows(corner: &Corner, condition: &str) {
    crate::util::wait_for(&format!("no row where {condition} on either shard"), Duration::from_secs(60), || async {
        (shard_rows(corner, condition) == [0, 0]).then_some(())
    })
    .await
}

async fn overview(server: &TestServer, token: &str, site: &Value) -> Value {
    let answer = server.get(&format!("/api/dashboard/overview?website_id={}&range=24h", site["id"]), token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json
}

#[tokio::test]
async fn two_daemons_share_accounts_sites_and_hits_and_agree_with_sqlite() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;

    // An account made on A signs in on B with the same password, and A's token is good on B.
    let (token_a, _) = a.register("owner@example.com").await;
    let login = json!({"email": "owner@example.com", "password": "secret1"});
    let signed_in = b.call(Method::POST, "/api/login", None, Some(login)).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
    let token_b = signed_in.json["accessToken"].as_str().unwrap().to_string();
    assert_eq!(b.get("/api/user", &token_a).await.status, StatusCode::OK, "one signing secret for every daemon");

    // A site made on B is A's too; the same hits go round-robin to A and B, and all to the SQLite daemon.
    let site = b.create_site(&token_b, "Shop", "light").await;
    let key = site["trackingKey"].as_str().unwrap();
    let listed = a.get("/api/websites", &token_a).await;
    assert_eq!(listed.json.as_array().map(Vec::len), Some(1), "{}", listed.text);
    let (sqlite_token, _) = sqlite.register("owner@example.com").await;
    let sqlite_site = sqlite.create_site(&sqlite_token, "Shop", "light").await;
    let sqlite_key = sqlite_site["trackingKey"].as_str().unwrap();
    // Each hit carries its time, a second apart: visit durations are then the same on every daemon, not the
    // gaps between when each received its hits.
    let start = tracker_core::model::now_ms() - 10 * 60_000;
    let hits = visits();
    for (i, (visitor, path)) in hits.iter().enumerate() {
        let at = json!({"timestamp": start + i as i64 * 1_000});
        track(if i % 2 == 0 { &a } else { &b }, key, *visitor, path, at.clone()).await;
        track(&sqlite, sqlite_key, *visitor, path, at).await;
    }
    // Every third visitor buys (a conversion with a value), and one of them twice.
    for (i, visitor) in [0u8, 3, 6, 9, 9].into_iter().enumerate() {
        let purchase = json!({"event": "conversion", "event_name": "purchase",
            "event_properties": {"value": 10 + i, "currency": "EUR"},
            "timestamp": start + (hits.len() + i) as i64 * 1_000});
        track(if i % 2 == 0 { &b } else { &a }, key, visitor, "/checkout", purchase.clone()).await;
        track(&sqlite, sqlite_key, visitor, "/checkout", purchase).await;
    }

    let expected = overview(&sqlite, &sqlite_token, &sqlite_site).await;
    assert_eq!(expected["metrics"]["pageViews"], 24, "{expected}");
    assert_eq!(expected["metrics"]["totalVisitors"], 12, "{expected}");
    assert_eq!(expected["metrics"]["conversions"], 5, "{expected}");
    assert!(expected["metrics"]["avgSessionDuration"].as_f64().unwrap() > 0.0, "{expected}");
    for (name, server, token) in [("A", &a, &token_a), ("B", &b, &token_b)] {
        let got = overview(server, token, &site).await;
        assert_eq!(got, expected, "daemon {name}");
    }

    // A path that is no route answers 404 with the JSON error, as on SQLite (there is no list of the routes
    // cluster mode serves: each read is one method both engines implement).
    let unlisted = a.get(&format!("/api/websites/{}/not-a-report", site["id"]), &token_a).await;
    assert_eq!(unlisted.status, StatusCode::NOT_FOUND, "{}", unlisted.text);
    assert!(unlisted.json["error"]["message"].is_string(), "{}", unlisted.text);
    // Ready: PostgreSQL and both shards answer.
    let ready = b.call(Method::GET, "/ready", None, None).await;
    assert_eq!(ready.status, StatusCode::OK, "{}", ready.text);
}

#[tokio::test]
async fn privacy_settings_changed_on_one_daemon_apply_to_every_daemons_hits() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token_a, _) = a.register("owner@example.com").await;
    let site = a.create_site(&token_a, "Shop", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap());
    let (token_b, _) = b.register("other@example.com").await;

    // Defaults: Do-Not-Track is honoured, so this hit is answered but not stored.
    send(&a, key, 1, "/", json!({}), true).await;
    assert_eq!(shard_rows(&corner, "1").iter().sum::<u64>(), 0);

    // Changed through B (by the owner), read back on A, applied by B's ingest.
    let login = json!({"email": "owner@example.com", "password": "secret1"});
    let owner_b =
        b.call(Method::POST, "/api/login", None, Some(login)).await.json["accessToken"].as_str().unwrap().to_string();
    let change = json!({"websiteId": id, "respectDoNotTrack": false, "anonymizeIPs": false});
    let changed = b.put("/api/privacy/settings", &owner_b, change).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let read = a.get(&format!("/api/privacy/settings?website_id={id}"), &token_a).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text);
    assert_eq!(read.json, changed.json);
    assert_eq!(
        (read.json["respectDoNotTrack"].clone(), read.json["anonymizeIPs"].clone()),
        (json!(false), json!(false))
    );
    send(&b, key, 7, "/", json!({}), true).await;
    // Stored with its full address (198.51.100.8 for visitor 7), on one shard.
    assert_eq!(shard_rows(&corner, "ip_address = '198.51.100.8'").iter().sum::<u64>(), 1);
    assert_eq!(shard_rows(&corner, "1").iter().sum::<u64>(), 1);

    // The change is in the audit log, read on the other daemon.
    let audit = a.get(&format!("/api/privacy/audit-logs?website_id={id}"), &token_a).await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    assert_eq!(audit.json["total"], 1, "{}", audit.text);
    assert_eq!(audit.json["entries"][0]["actor"], "owner@example.com", "{}", audit.text);
    assert_eq!(audit.json["entries"][0]["detail"]["respectDoNotTrack"], false, "{}", audit.text);

    // Bad input is a 400 with the JSON error; another account's site is not found.
    let bad = a.put("/api/privacy/settings", &token_a, json!({"websiteId": id, "dataRetentionDays": 0})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    assert!(bad.error_message().contains("dataRetentionDays"), "{}", bad.text);
    let theirs = b.get(&format!("/api/privacy/settings?website_id={id}"), &token_b).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
    let theirs = b.put("/api/privacy/settings", &token_b, json!({"websiteId": id, "cookieConsent": true})).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
}

/// The overview of the site on each daemon equals the SQLite daemon's.
async fn assert_overviews_equal(daemons: [(&TestServer, &str); 2], site: &Value, expected: &Value) {
    for (i, (server, token)) in daemons.into_iter().enumerate() {
        let got = overview(server, token, site).await;
        assert_eq!(&got, expected, "daemon {}", ["A", "B"][i]);
    }
}

/// The (session, type, choice) of a site's consent log, newest first.
async fn consent_log(server: &TestServer, token: &str, site: &Value) -> Vec<Value> {
    let logs = server.get(&format!("/api/privacy/consent-logs?website_id={}", site["id"]), token).await;
    assert_eq!(logs.status, StatusCode::OK, "{}", logs.text);
    let entries = logs.json.as_array().unwrap().iter();
    entries.map(|l| json!([l["sessionId"], l["consentType"], l["consentData"], l["ipAddress"]])).collect()
}

#[tokio::test]
async fn a_consent_sites_hits_count_as_on_sqlite_and_choices_made_on_one_daemon_hold_on_the_other() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    let (token_a, _) = a.register("owner@example.com").await;
    let (sqlite_token, _) = sqlite.register("owner@example.com").await;
    let site = a.create_site(&token_a, "Shop", "light").await;
    let sqlite_site = sqlite.create_site(&sqlite_token, "Shop", "light").await;
    let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
    for (server, token, site) in [(&a, &token_a, &site), (&sqlite, &sqlite_token, &sqlite_site)] {
        let required =
            server.put("/api/privacy/settings", token, json!({"websiteId": site["id"], "cookieConsent": true})).await;
        assert_eq!(required.status, StatusCode::OK, "{}", required.text);
    }
    let login = json!({"email": "owner@example.com", "password": "secret1"});
    let token_b =
        b.call(Method::POST, "/api/login", None, Some(login)).await.json["accessToken"].as_str().unwrap().to_string();

    // No visitor has chosen: page views count, round-robin over A and B; a conversion is not kept.
    let purchase = json!({"event": "conversion", "event_name": "purchase", "event_properties": {"value": 10}});
    for (i, (visitor, path)) in visits().iter().enumerate() {
        pageview(if i % 2 == 0 { &a } else { &b }, key, *visitor, path).await;
        pageview(&sqlite, sqlite_key, *visitor, path).await;
    }
    track(&b, key, 1, "/checkout", purchase.clone()).await;
    track(&sqlite, sqlite_key, 1, "/checkout", purchase.clone()).await;
    let expected = overview(&sqlite, &sqlite_token, &sqlite_site).await;
    assert_eq!(expected["metrics"]["pageViews"], 24, "{expected}");
    assert_eq!(expected["metrics"]["totalVisitors"], 0, "{expected}");
    assert_eq!(expected["metrics"]["conversions"], 0, "{expected}");
    assert_overviews_equal([(&a, &token_a), (&b, &token_b)], &site, &expected).await;
    assert_eq!(shard_rows(&corner, "visit_id != 0 OR session_key != '' OR ip_address != ''"), [0, 0]);

    // Visitors 0 and 3 accept through A, visitor 6 declines through A; their next hits go to B.
    for (visitor, analytics) in [(0u8, true), (3, true), (6, false)] {
        let choice = json!({"event": "consent", "event_properties": {"analytics": analytics, "marketing": false}});
        track(&a, key, visitor, "/", choice.clone()).await;
        track(&sqlite, sqlite_key, visitor, "/", choice).await;
    }
    for visitor in [0u8, 3, 6] {
        for path in ["/after", "/checkout"] {
            pageview(&b, key, visitor, path).await;
            pageview(&sqlite, sqlite_key, visitor, path).await;
        }
        track(&b, key, visitor, "/checkout", purchase.clone()).await;
        track(&sqlite, sqlite_key, visitor, "/checkout", purchase.clone()).await;
    }
    let expected = overview(&sqlite, &sqlite_token, &sqlite_site).await;
    assert_eq!(expected["metrics"]["totalVisitors"], 2, "{expected}");
    assert_eq!(expected["metrics"]["conversions"], 2, "{expected}");
    assert_overviews_equal([(&a, &token_a), (&b, &token_b)], &site, &expected).await;

    // B lists the choices made through A, as the SQLite daemon lists its own.
    let listed = consent_log(&b, &token_b, &site).await;
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert_eq!(listed, consent_log(&sqlite, &sqlite_token, &sqlite_site).await);
    // Another account's site is not found; a bad page is a 400.
    let (token_other, _) = b.register("other@example.com").await;
    let theirs = b.get(&format!("/api/privacy/consent-logs?website_id={}", site["id"]), &token_other).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
    let bad = a.get(&format!("/api/privacy/consent-logs?website_id={}&limit=-1", site["id"]), &token_a).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
}

#[tokio::test]
async fn retention_set_on_one_daemon_applies_on_the_other_and_its_run_leaves_no_expired_row() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token_a, _) = a.register("owner@example.com").await;
    let site = a.create_site(&token_a, "Shop", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap());
    let login = json!({"email": "owner@example.com", "password": "secret1"});
    let token_b =
        b.call(Method::POST, "/api/login", None, Some(login)).await.json["accessToken"].as_str().unwrap().to_string();

    // Set on A, read on B, in B's audit log; bad days are a 400, another account's site is not found.
    let change = json!({"websiteId": id, "pageviews": 1, "events": 30});
    let changed = a.put("/api/privacy/retention", &token_a, change).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let read = b.get(&format!("/api/privacy/retention?website_id={id}"), &token_b).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text);
    assert_eq!(read.json, changed.json);
    assert_eq!(
        read.json,
        json!({"pageviews": 1, "events": 30, "sessions": 90, "heatmaps": 30, "recordings": 30,
        "conversions": 365})
    );
    let audit = b.get(&format!("/api/privacy/audit-logs?website_id={id}"), &token_b).await;
    assert_eq!(audit.json["entries"][0]["action"], "retention_changed", "{}", audit.text);
    assert_eq!(audit.json["entries"][0]["detail"], json!({"pageviews": 1, "events": 30}), "{}", audit.text);
    let bad = b.put("/api/privacy/retention", &token_b, json!({"websiteId": id, "sessions": 366})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    let (token_other, _) = b.register("other@example.com").await;
    let theirs = b.put("/api/privacy/retention", &token_other, json!({"websiteId": id, "pageviews": 5})).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
    assert_eq!(b.get(&format!("/api/privacy/retention?website_id={id}"), &token_b).await.json, changed.json);

    // 20 visitors on both daemons: a page view, a custom event and a conversion each.
    for visitor in 0..20u8 {
        let server = if visitor % 2 == 0 { &a } else { &b };
        pageview(server, key, visitor, "/").await;
        track(server, key, visitor, "/", json!({"event": "custom", "event_name": "signup"})).await;
        track(server, key, visitor, "/", json!({"event": "conversion", "event_name": "purchase"})).await;
    }
    let kind = |kind: &str| shard_rows(&corner, &format!("website_id = {id} AND kind = '{kind}'"));
    for k in ["pageview", "custom", "conversion"] {
        assert!(kind(k).iter().all(|n| *n > 0), "{k} on both shards: {:?}", kind(k));
    }

    // Two days on, B's run deletes the page views (kept 1 day) on both shards and keeps the rest.
    // A run finding another daemon's scheduled run going (a minute after its start, on a loaded machine) reports
    // nothing: it is asked again until it runs.
    let run = |server: &TestServer, days: i64| {
        let tracker = server.tracker.clone();
        let at = tracker_core::model::now_ms() + days * 86_400_000;
        async move {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
            loop {
                let worker = tracker.clone();
                let report = tokio::task::spawn_blocking(move || worker.events.apply_retention_at(at)).await;
                match report {
                    Ok(Ok(report)) if report.total.is_empty() && std::time::Instant::now() < deadline => {
                        tokio::time::sleep(std::time::Duration::from_millis(200)).await
                    }
                    other => return other,
                }
            }
        }
    };
    let report = run(&b, 2).await.unwrap().unwrap();
    assert_eq!(report.total["pageviews"], 20, "{report:?}");
    assert_eq!((report.total["events"], report.total["conversions"]), (0, 0), "{report:?}");
    assert_eq!(kind("pageview"), [0, 0]);
    assert_eq!(kind("custom").iter().sum::<u64>(), 20);
    assert_eq!(kind("conversion").iter().sum::<u64>(), 20);

    // A year and more on, A's run leaves nothing (the months are dropped whole).
    let report = run(&a, 400).await.unwrap().unwrap();
    assert_eq!((report.total["events"], report.total["conversions"]), (20, 20), "{report:?}");
    assert_eq!(shard_rows(&corner, "1"), [0, 0]);
}

#[tokio::test]
async fn deleting_a_site_or_an_account_deletes_its_events_on_every_shard() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token_a, _) = a.register("owner@example.com").await;
    let (token_b, _) = b.register("other@example.com").await;
    let (first, second) =
        (a.create_site(&token_a, "One", "light").await, a.create_site(&token_a, "Two", "light").await);
    for site in [&first, &second] {
        // 20 visitors: each shard holds some of each site's (the odds of one empty shard are 2 in a million).
        for visitor in 0..20u8 {
            pageview(if visitor % 2 == 0 { &a } else { &b }, site["trackingKey"].as_str().unwrap(), visitor, "/").await;
        }
    }
    let rows_of = |site: &Value| shard_rows(&corner, &format!("website_id = {}", site["id"]));
    for site in [&first, &second] {
        assert!(rows_of(site).iter().all(|n| *n > 0), "rows on both shards: {:?}", rows_of(site));
    }

    // Another account's id is not found, and nothing is deleted.
    let refused = b.delete(&format!("/api/websites/{}", first["id"]), &token_b).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    assert_eq!(rows_of(&first).iter().sum::<u64>(), 20);

    // A site deleted on B: no row of it on either shard, the other site's all there, the site gone on A.
    let deleted = b.delete(&format!("/api/websites/{}", first["id"]), &token_a).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    await_no_rows(&corner, &format!("website_id = {}", first["id"])).await;
    assert_eq!(rows_of(&second).iter().sum::<u64>(), 20);
    let gone = a.get(&format!("/api/websites/{}", first["id"]), &token_a).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);

    // The account deleted on A (password checked first): its other site's rows go from both shards too.
    let wrong = a.call(Method::DELETE, "/api/user/account", Some(&token_a), Some(json!({"password": "nope"}))).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.text);
    assert_eq!(rows_of(&second).iter().sum::<u64>(), 20);
    let deleted =
        a.call(Method::DELETE, "/api/user/account", Some(&token_a), Some(json!({"password": "secret1"}))).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    await_no_rows(&corner, &format!("website_id = {}", second["id"])).await;
    let login = json!({"email": "owner@example.com", "password": "secret1"});
    assert_eq!(b.call(Method::POST, "/api/login", None, Some(login)).await.status, StatusCode::UNAUTHORIZED);
}

/// A ticket for the live stream, issued by `server` to the sign-in of `token`.
async fn stream_ticket(server: &TestServer, token: &str) -> String {
    let ticket = server.post("/api/dashboard/live/ticket", token, json!({})).await;
    assert_eq!(ticket.status, StatusCode::OK, "{}", ticket.text);
    ticket.json["ticket"].as_str().unwrap().to_string()
}

/// Opens the live stream of `site` on `server` with `ticket`.
async fn open_stream(server: &TestServer, site: &Value, ticket: &str) -> reqwest::Response {
    server
        .client
        .get(server.url(&format!("/api/dashboard/live?website_id={}&ticket={ticket}", site["id"])))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_live_stream_on_one_daemon_receives_a_hit_taken_by_another() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token, _) = a.register("owner@example.com").await;
    let site = a.create_site(&token, "Shop", "light").await;
    let key = site["trackingKey"].as_str().unwrap();

    let ticket = stream_ticket(&a, &token).await;
    let response = open_stream(&b, &site, &ticket).await;
    assert_eq!(response.status(), StatusCode::OK);
    let (mut stream, mut buffer) = (response.bytes_stream(), String::new());
    let snapshot = next_message_within(&mut stream, &mut buffer, Duration::from_secs(10)).await;
    assert_eq!(snapshot, json!({"type": "active_sessions", "data": []}));

    // The stream re-reads every 5 s anyway; A's notice must wake it well before.
    pageview(&a, key, 3, "/landing").await;
    let update = next_message_within(&mut stream, &mut buffer, Duration::from_secs(3)).await;
    let sessions = update["data"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{update}");
    assert_eq!(
        (sessions[0]["sessionId"].as_str(), sessions[0]["currentPage"].as_str()),
        (Some("visitor-0003"), Some("/landing"))
    );
    assert_eq!(sessions[0]["ipAddress"], "198.51.100.0", "the address as stored: anonymised");

    // The visitor stream's summary is ClickHouse's too, on either daemon.
    let live = b.get(&format!("/api/analytics/live-visitors?website_id={}", site["id"]), &token).await;
    assert_eq!(live.status, StatusCode::OK, "{}", live.text);
    assert_eq!(live.json["totalActiveVisitors"], 1, "{}", live.text);
    assert_eq!(live.json["topPages"], json!([{"page": "/landing", "visitors": 1}]), "{}", live.text);
    assert_eq!(live.json["recentSessions"][0]["entryPage"], "/landing", "{}", live.text);
}

#[tokio::test]
async fn a_stream_ticket_from_one_daemon_opens_a_stream_on_another_once_and_dies_with_its_sign_in() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token, _) = a.register("owner@example.com").await;
    let site = a.create_site(&token, "Shop", "light").await;

    let ticket = stream_ticket(&a, &token).await;
    assert_eq!(open_stream(&b, &site, &ticket).await.status(), StatusCode::OK, "issued on A, redeemed on B");
    for (name, server) in [("A", &a), ("B", &b)] {
        let again = answer(open_stream(server, &site, &ticket).await).await;
        assert_eq!(again.status, StatusCode::UNAUTHORIZED, "used once already, on {name}: {}", again.text);
        assert_eq!(again.error_message(), "invalid or expired stream ticket");
    }

    // A ticket of a sign-in that ends (logged out on B) opens nothing, on either daemon.
    let unused = stream_ticket(&a, &token).await;
    let logout = b.call(Method::POST, "/api/logout", Some(&token), Some(json!({}))).await;
    assert!(logout.status.is_success(), "{}", logout.text);
    let refused = answer(open_stream(&b, &site, &unused).await).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.text);
    assert_eq!(refused.error_message(), "session ended, please sign in again", "gone with its sign-in");
}

#[tokio::test]
async fn a_site_deleted_on_one_daemon_takes_no_more_hits_on_another_and_changes_reach_it_at_once() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    let (token, _) = a.register("owner@example.com").await;
    let (doomed, changed) =
        (a.create_site(&token, "Shop", "light").await, a.create_site(&token, "Blog", "light").await);
    let (doomed_key, changed_key) = (doomed["trackingKey"].as_str().unwrap(), changed["trackingKey"].as_str().unwrap());
    // B has both sites in its cache.
    pageview(&b, doomed_key, 1, "/").await;
    pageview(&b, changed_key, 1, "/").await;

    // Deleted on A: once that has returned, B stores no hit of the site, and answers as SQLite does.
    let deleted = a.delete(&format!("/api/websites/{}", doomed["id"]), &token).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    let late = post_hit(&b, doomed_key, 2, "/late", json!({}), false).await;
    let (sqlite_token, _) = sqlite.register("owner@example.com").await;
    let sqlite_site = sqlite.create_site(&sqlite_token, "Shop", "light").await;
    let sqlite_key = sqlite_site["trackingKey"].as_str().unwrap();
    pageview(&sqlite, sqlite_key, 1, "/").await;
    let sqlite_deleted = sqlite.delete(&format!("/api/websites/{}", sqlite_site["id"]), &sqlite_token).await;
    assert_eq!(sqlite_deleted.status, StatusCode::NO_CONTENT, "{}", sqlite_deleted.text);
    let sqlite_late = post_hit(&sqlite, sqlite_key, 2, "/late", json!({}), false).await;
    assert_eq!((late.status, late.json.clone()), (sqlite_late.status, sqlite_late.json.clone()), "{}", late.text);
    assert_eq!(late.status, StatusCode::NOT_FOUND, "{}", late.text);
    await_no_rows(&corner, &format!("website_id = {}", doomed["id"])).await;

    // Changed on A: B drops its cached copy on A's notice, well before its 5-second cache would expire. These
    // hits come from pages off the site's domain, which domainOnly refuses.
    let update = a.put(&format!("/api/websites/{}", changed["id"]), &token, json!({"domainOnly": true})).await;
    assert_eq!(update.status, StatusCode::OK, "{}", update.text);
    let refused = crate::util::wait_for("B to refuse the off-domain hit", Duration::from_secs(2), || async {
        let answer = post_hit(&b, changed_key, 3, "/", json!({}), false).await;
        (answer.status == StatusCode::FORBIDDEN).then_some(answer)
    })
    .await;
    assert!(refused.error_message().contains("own domain"), "{}", refused.text);
}

#[tokio::test]
async fn login_failures_alternating_between_two_daemons_are_limited_as_on_one() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    a.register("owner@example.com").await;
    sqlite.register("owner@example.com").await;
    // The cluster counts in fixed windows: the account's 15 minutes must not end during the test.
    let quarter_ms = 15 * 60_000;
    let into_quarter = tracker_core::model::now_ms() % quarter_ms;
    if into_quarter > quarter_ms - 20_000 {
        tokio::time::sleep(Duration::from_millis((quarter_ms - into_quarter) as u64 + 100)).await;
    }

    /// How many wrong passwords `servers` (taken in turn) answer 401 before the first 429.
    async fn failures_before_the_limit(servers: &[&TestServer]) -> usize {
        let wrong = json!({"email": "owner@example.com", "password": "wrong password"});
        for attempt in 0..100 {
            let server = servers[attempt % servers.len()];
            let answer = server.call(Method::POST, "/api/login", None, Some(wrong.clone())).await;
            match answer.status {
                StatusCode::UNAUTHORIZED => continue,
                StatusCode::TOO_MANY_REQUESTS => return attempt,
                other => panic!("attempt {attempt}: {other} {}", answer.text),
            }
        }
        panic!("no limit within 100 attempts");
    }
    let on_one = failures_before_the_limit(&[&sqlite]).await;
    assert_eq!(on_one, 20, "the default login_attempts_per_minute");
    assert_eq!(failures_before_the_limit(&[&a, &b]).await, on_one);
    // The right password is refused too while the account is over its limit, on either daemon.
    let right = json!({"email": "owner@example.com", "password": "secret1"});
    for server in [&a, &b] {
        assert_eq!(
            server.call(Method::POST, "/api/login", None, Some(right.clone())).await.status,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
}

/// `tracker backup` copies a data folder's database, which holds none of a cluster's data: with cluster
/// settings it refuses (before connecting anywhere) and names the engines' own tools.
#[test]
fn backup_refuses_cluster_settings_and_names_the_engines_tools() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let mut command = cli.command(&["backup", "--output", dir.path().join("copy.db").to_str().unwrap()]);
    command.env("TRACKER_POSTGRES_URL", "postgres://tracker@127.0.0.1:1/tracker");
    command.env("TRACKER_CLICKHOUSE_URL", "http://127.0.0.1:1");
    let out = command.output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("pg_dump") && stderr.contains("FREEZE"), "{stderr}");
    assert!(!dir.path().join("data").join("tracker.db").exists(), "no database is made in the data folder");
    assert!(!dir.path().join("copy.db").exists());
}

/// `tracker users` and `tracker sites` manage the cluster's accounts and websites: what the operator adds
/// signs in and is listed on a daemon, and what the operator removes is gone there, events included.
/// `tracker retention run` runs on the shards.
#[tokio::test]
async fn users_and_sites_commands_manage_the_clusters_accounts_and_websites() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let env = corner.env();
    let run = move |args: &[&str]| -> Value {
        let mut command = cli.command(args);
        command.arg("--json").envs(env.clone());
        let out = command.output().unwrap();
        assert!(out.status.success(), "tracker {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let run = std::sync::Arc::new(run);
    let blocking = |args: &'static [&'static str]| {
        let run = run.clone();
        async move { tokio::task::spawn_blocking(move || run(args)).await.unwrap() }
    };
    blocking(&["users", "add", "ops@example.com", "--password", "secret1"]).await;
    let site =
        blocking(&["sites", "add", "--name", "Shop", "--domain", "shop.example.com", "--owner", "ops@example.com"])
            .await;

    let daemon = corner.daemon().await;
    let login = json!({"email": "ops@example.com", "password": "secret1"});
    let signed_in = daemon.call(Method::POST, "/api/login", None, Some(login)).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
    let token = signed_in.json["accessToken"].as_str().unwrap().to_string();
    let listed = daemon.get("/api/websites", &token).await;
    assert_eq!(listed.json[0]["id"], site["id"], "{}", listed.text);
    let key = site["trackingKey"].as_str().unwrap();
    pageview(&daemon, key, 1, "/").await;
    let sites = blocking(&["sites", "list"]).await;
    assert_eq!(sites.as_array().map(Vec::len), Some(1), "{sites}");
    // A retention run from cron keeps the fresh page view (the site keeps its history for the default days).
    let report = blocking(&["retention", "run"]).await;
    assert!(report.is_object(), "{report}");
    assert_eq!(shard_rows(&corner, &format!("website_id = {}", site["id"])).iter().sum::<u64>(), 1);

    // Removing the account removes its site and the site's events on both shards.
    blocking(&["users", "rm", "ops@example.com", "--yes"]).await;
    assert_eq!(blocking(&["users", "list"]).await, json!([]));
    // The CLI leaves the events' deletion to a job, which the running daemon takes.
    await_no_rows(&corner, &format!("website_id = {}", site["id"])).await;
    let gone = daemon
        .call(
            Method::POST,
            "/api/login",
            None,
            Some(json!({"email": "ops@example.com",
        "password": "secret1"})),
        )
        .await;
    assert_eq!(gone.status, StatusCode::UNAUTHORIZED, "{}", gone.text);
}

/// User agents of the corpus: desktop Chrome on Windows, Firefox on Linux, Safari on an iPhone, Chrome on an
/// Android phone and Safari on an iPad (devices, browsers and systems to break down by).
pub(crate) const USER_AGENTS: [&str; 5] = [
    BROWSER_UA,
    "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
];

/// A visitor's address: its country comes from the embedded database (GB, US, AU, DE; documentation addresses
/// are unknown).
pub(crate) fn address(visitor: u8) -> String {
    match visitor % 5 {
        0 => format!("81.2.69.{}", 100 + visitor),
        1 => format!("8.8.8.{}", visitor),
        2 => format!("1.1.1.{}", visitor),
        3 => format!("2a01:4f8::{:x}", 100 + visitor as u16),
        _ => format!("198.51.100.{}", visitor),
    }
}

/// One hit of the corpus: who sends it, when, and the track body's fields besides key, session and time.
pub(crate) struct CorpusHit {
    pub(crate) visitor: u8,
    pub(crate) ts: i64,
    pub(crate) body: Value,
}

/// The corpus, in time order, from `now`: 30 visitors over the last 23 hours (so across a midnight) with
/// referrers, UTM tags, five user agents, four countries and an unknown one; bounces; page views, custom events
/// with properties, outbound links, downloads and conversions with and without value and currency; a visit
/// started by an event; visitors coming back after the 30-minute timeout; a visit that starts before the
/// 24-hour range and goes on inside it; and a visitor seen before that range who comes back the same day inside
/// it. Every hit's time ends in its visitor's own millisecond, so no two share a time.
pub(crate) fn corpus(now: i64, range_start_24h: i64) -> Vec<CorpusHit> {
    const MINUTE: i64 = 60_000;
    let page = |path: &str| json!({"url": format!("https://shop.example.com{path}")});
    let mut hits = Vec::new();
    let mut push = |visitor: u8, ts: i64, body: Value| hits.push(CorpusHit { visitor, ts: ts + visitor as i64, body });
    for visitor in 0..30u8 {
        let mut ts = (now - 23 * 60 * MINUTE + visitor as i64 * 45 * MINUTE) / 1000 * 1000;
        let query = match visitor % 7 {
            0 => "?utm_source=newsletter&utm_medium=email&utm_campaign=fall",
            3 => "?utm_source=twitter",
            _ => "",
        };
        let referrer = ["", "https://www.google.com/search?q=shop", "https://t.co/x1", "https://news.ycombinator.com/"]
            [visitor as usize % 4];
        let mut landing = page(&format!("/p{}{query}", visitor % 6));
        landing["referrer"] = json!(referrer);
        if visitor == 5 {
            // A visit started by an event, not a page view.
            push(
                visitor,
                ts,
                json!({"url": "https://shop.example.com/", "event": "custom", "event_name": "play",
                "event_properties": {"video": "intro"}}),
            );
            ts += MINUTE;
        }
        push(visitor, ts, landing);
        if visitor % 3 == 0 && visitor != 0 {
            continue; // a bounce
        }
        ts += 2 * MINUTE;
        // A later hit with another referrer: the visit keeps its first one.
        let mut next = page(&format!("/p{}", (visitor + 1) % 6));
        next["referrer"] =
            json!(if visitor % 2 == 0 { "https://duckduckgo.com/" } else { "https://shop.example.com/" });
        push(visitor, ts, next);
        ts += MINUTE;
        let event = match visitor % 5 {
            0 => json!({"event": "custom", "event_name": "play", "event_properties": {"video": "intro", "hd": true}}),
            1 => json!({"event": "conversion", "event_name": "purchase",
                "event_properties": {"value": 10.5 + visitor as f64, "currency": "EUR"}}),
            2 => json!({"event": "conversion", "event_name": "trial"}),
            3 => json!({"event": "outbound", "event_properties": {"url": "https://partner.example.org/"}}),
            _ => json!({"event": "download", "event_name": "brochure.pdf"}),
        };
        let mut event = event;
        event["url"] = json!(format!("https://shop.example.com/p{}", visitor % 6));
        push(visitor, ts, event);
        if visitor % 4 == 0 {
            // Back after the idle timeout: a second visit under the same key.
            ts += 45 * MINUTE;
            push(visitor, ts, page("/p2"));
            push(
                visitor,
                ts + MINUTE,
                json!({"url": "https://shop.example.com/checkout", "event": "conversion",
                "event_name": "purchase", "event_properties": {"value": 99, "currency": "USD"}}),
            );
        }
    }
    // Visitor 40: a visit from before the 24-hour range into it, a hit every 20 minutes.
    let early = (now - 24 * 60 * MINUTE + 30_000) / 1000 * 1000;
    let mut ts = early;
    while ts < range_start_24h + MINUTE {
        push(40, ts, page("/long"));
        ts += 20 * MINUTE;
    }
    push(40, ts, page("/long/end"));
    // Visitor 41: seen before the range, back 45 minutes later inside it (the same UTC day unless midnight falls
    // between): SQLite counts the visitor in the earlier hour, not in the range.
    push(41, early + 5_000, page("/p1"));
    push(41, early + 45 * MINUTE, page("/p3"));
    hits.retain(|hit| hit.ts <= now);
    hits.sort_by_key(|hit| hit.ts);
    hits
}

/// Sends a corpus hit to `server` (the SQLite daemon, or a cluster daemon in turn).
pub(crate) async fn send_corpus_hit(server: &TestServer, key: &str, hit: &CorpusHit) {
    let mut body = hit.body.clone();
    body["tracking_key"] = json!(key);
    body["session_id"] = json!(format!("visitor-{:04}", hit.visitor));
    body["timestamp"] = json!(hit.ts);
    let response = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", USER_AGENTS[hit.visitor as usize % USER_AGENTS.len()])
        .header("x-forwarded-for", address(hit.visitor))
        .header("content-type", "text/plain")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}: {}", response.status(), response.text().await.unwrap());
}

/// An answer with what each store numbers its own way set aside: ids (of hits, sites and definitions) and the
/// id in the `key~id` name of a visit a later one replaced.
pub(crate) fn comparable(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("id" | "websiteId", _) => (k, Value::Null),
                    ("sessionId", Value::String(s)) => {
                        let key = s.split_once('~').map_or(s.clone(), |(key, _)| format!("{key}~"));
                        (k, Value::String(key))
                    }
                    (_, v) => (k, comparable(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(comparable).collect()),
        other => other,
    }
}

/// Waits for the next hour when less than 3 minutes of this one are left: the ranges move on the hour, and a
/// test comparing reads makes every read within one.
pub(crate) async fn start_early_in_the_hour() {
    let hour = 3_600_000;
    let left = hour - tracker_core::model::now_ms() % hour;
    if left < 3 * 60_000 {
        // Waiting for the clock itself, not for a condition the test could observe.
        tokio::time::sleep(std::time::Duration::from_millis(left as u64 + 1_000)).await;
    }
}

/// Two cluster daemons and a SQLite one, each with the owner's site of a tracking level, given the same hits
/// (round-robin to the two cluster daemons).
pub(crate) struct Setup {
    pub corner: Corner,
    pub a: TestServer,
    pub b: TestServer,
    pub sqlite: TestServer,
    pub token: String,
    pub site: Value,
    pub sqlite_token: String,
    pub sqlite_site: Value,
}

impl Setup {
    pub(crate) async fn start(pg: String, ch: String, tracking_level: &str, hits: &[CorpusHit]) -> Setup {
        let corner = Corner::new(pg, ch).await;
        let (a, b) = (corner.daemon().await, corner.daemon().await);
        let sqlite = TestServer::start().await;
        let (token, _) = a.register("owner@example.com").await;
        let site = a.create_site(&token, "Shop", tracking_level).await;
        let (sqlite_token, _) = sqlite.register("owner@example.com").await;
        let sqlite_site = sqlite.create_site(&sqlite_token, "Shop", tracking_level).await;
        let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
        for (i, hit) in hits.iter().enumerate() {
            send_corpus_hit(if i % 2 == 0 { &a } else { &b }, key, hit).await;
            send_corpus_hit(&sqlite, sqlite_key, hit).await;
        }
        Setup { corner, a, b, sqlite, token, site, sqlite_token, sqlite_site }
    }
}

/// The JSON of a read that must answer 200.
pub(crate) async fn read(server: &TestServer, token: &str, path: &str) -> Value {
    let answer = server.get(path, token).await;
    assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.text);
    comparable(answer.json)
}

/// Every part-one dashboard read of a site over `ranges` (and those without a range), as (cluster path, SQLite
/// path) pairs for the same site on each.
pub(crate) fn part_one_paths(site: &Value, sqlite_site: &Value, ranges: &[&str]) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    for &range in ranges {
        let (id, sqlite_id) = (&site["id"], &sqlite_site["id"]);
        let both = |path: String| (path.replace("{id}", &id.to_string()), path.replace("{id}", &sqlite_id.to_string()));
        paths.push(both(format!("/api/dashboard/overview?website_id={{id}}&range={range}")));
        paths.push(both(format!("/api/dashboard/timeseries?website_id={{id}}&range={range}")));
        for report in ["referrers", "traffic-sources", "countries", "conversions", "events/summary"] {
            // The events summary takes 24h, 7d and 30d only.
            if !(report == "events/summary" && range == "90d") {
                paths.push(both(format!("/api/websites/{{id}}/{report}?range={range}")));
            }
        }
        for dim in ["page", "referrer", "country", "device", "browser", "os", "utm_source"] {
            paths.push(both(format!("/api/websites/{{id}}/breakdown/{dim}?range={range}")));
            paths.push(both(format!("/api/websites/{{id}}/breakdown/{dim}?range={range}&limit=2")));
        }
    }
    for path in [
        "/api/dashboard/recent-activity?website_id={id}&limit=50",
        "/api/dashboard/recent-activity?website_id={id}",
        "/api/dashboard/sites?metric=pageviews",
        "/api/dashboard/sites?metric=visitors",
        "/api/analytics/urls?website_id={id}",
    ] {
        paths.push((
            path.replace("{id}", &site["id"].to_string()),
            path.replace("{id}", &sqlite_site["id"].to_string()),
        ));
    }
    paths
}

#[tokio::test]
async fn every_part_one_read_answers_as_sqlite_on_the_same_hits_sent_round_robin() {
    let Some((pg, ch)) = harness() else { return };
    start_early_in_the_hour().await;
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    let (token, _) = a.register("owner@example.com").await;
    let site = a.create_site(&token, "Shop", "light").await;
    let (sqlite_token, _) = sqlite.register("owner@example.com").await;
    let sqlite_site = sqlite.create_site(&sqlite_token, "Shop", "light").await;
    for (server, token, site) in [(&a, &token, &site), (&sqlite, &sqlite_token, &sqlite_site)] {
        let path = format!("/api/websites/{}/event-definitions", site["id"]);
        for name in ["play", "signup"] {
            let created =
                server.post(&path, token, json!({"name": name, "displayName": name, "eventType": "custom"})).await;
            assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
        }
    }

    let now = tracker_core::model::now_ms();
    let hits = corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start);
    let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
    for (i, hit) in hits.iter().enumerate() {
        send_corpus_hit(if i % 2 == 0 { &a } else { &b }, key, hit).await;
        send_corpus_hit(&sqlite, sqlite_key, hit).await;
    }

    let paths = part_one_paths(&site, &sqlite_site, &["24h", "7d", "30d", "90d"]);

    // The corpus reaches what each read must get right.
    let expected = read(&sqlite, &sqlite_token, &paths[0].1).await;
    assert!(expected["metrics"]["bounceRate"].as_f64().unwrap() > 0.0, "{expected}");
    let countries =
        read(&sqlite, &sqlite_token, &format!("/api/websites/{}/countries?range=24h", sqlite_site["id"])).await;
    let found: Vec<&str> = countries.as_array().unwrap().iter().filter_map(|c| c["country"].as_str()).collect();
    for country in ["GB", "US", "AU", "DE", ""] {
        assert!(found.contains(&country), "{country} in {countries}");
    }
    let sources =
        read(&sqlite, &sqlite_token, &format!("/api/websites/{}/traffic-sources?range=7d", sqlite_site["id"])).await;
    assert!(sources.as_array().unwrap().len() >= 5, "{sources}");
    let activity = read(&sqlite, &sqlite_token, &paths[paths.len() - 5].1).await;
    assert!(activity.as_array().unwrap().iter().any(|item| item["sessionId"].as_str().unwrap().ends_with('~')));
    let conversions =
        read(&sqlite, &sqlite_token, &format!("/api/websites/{}/conversions?range=24h", sqlite_site["id"])).await;
    assert!(conversions["conversions"].as_array().unwrap().iter().any(|c| c["value"].is_null()), "{conversions}");

    for (cluster_path, sqlite_path) in &paths {
        let expected = read(&sqlite, &sqlite_token, sqlite_path).await;
        for (name, server) in [("A", &a), ("B", &b)] {
            assert_eq!(read(server, &token, cluster_path).await, expected, "daemon {name}: {cluster_path}");
        }
    }

    // Bad input is a 400, another account's site a 404, on the moved reads too.
    let (stranger, _) = b.register("stranger@example.com").await;
    for path in [
        format!("/api/websites/{}/breakdown/page?limit=0", site["id"]),
        format!("/api/websites/{}/breakdown/nope", site["id"]),
        format!("/api/dashboard/timeseries?website_id={}&range=2w", site["id"]),
        format!("/api/dashboard/recent-activity?website_id={}&limit=51", site["id"]),
        "/api/dashboard/sites?metric=bounces".to_string(),
    ] {
        let answer = b.get(&path, &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}: {}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    for path in [
        format!("/api/websites/{}/referrers", site["id"]),
        format!("/api/dashboard/timeseries?website_id={}", site["id"]),
        format!("/api/websites/{}/events/summary", site["id"]),
    ] {
        let answer = a.get(&path, &stranger).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {}", answer.text);
    }
}
