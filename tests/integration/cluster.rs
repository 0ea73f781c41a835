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

/// The harness's PostgreSQL URL and ClickHouse shard URLs, or `None` to skip.
fn harness() -> Option<(String, String)> {
    let pg = std::env::var("TRACKER_TEST_POSTGRES_URL").ok().filter(|u| !u.is_empty())?;
    let ch = std::env::var("TRACKER_TEST_CLICKHOUSE_URLS").ok().filter(|u| !u.is_empty())?;
    Some((pg, ch))
}

/// A fresh PostgreSQL schema and ClickHouse database name for this test, dropped with it.
struct Corner {
    pg: String,
    ch: String,
    name: String,
}

impl Corner {
    async fn new(pg: String, ch: String) -> Corner {
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

    /// A daemon of the cluster, with its own data folder.
    async fn daemon(&self) -> TestServer {
        let separator = if self.pg.contains('?') { '&' } else { '?' };
        let postgres_url = format!("{}{separator}options=-csearch_path%3D{}", self.pg, self.name);
        let (ch, name) = (self.ch.clone(), self.name.clone());
        TestServer::start_with(move |config| {
            config.postgres_url = Some(postgres_url);
            config.clickhouse_url = Some(ch);
            config.clickhouse_database = Some(name);
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
async fn pageview(server: &TestServer, key: &str, visitor: u8, path: &str) {
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
async fn post_hit(server: &TestServer, key: &str, visitor: u8, path: &str, event: Value, dnt: bool) -> Answer {
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
fn shard_rows(corner: &Corner, condition: &str) -> Vec<u64> {
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
    for (i, (visitor, path)) in visits().iter().enumerate() {
        pageview(if i % 2 == 0 { &a } else { &b }, key, *visitor, path).await;
        pageview(&sqlite, sqlite_key, *visitor, path).await;
    }
    // Every third visitor buys (a conversion with a value), and one of them twice.
    for (i, visitor) in [0u8, 3, 6, 9, 9].into_iter().enumerate() {
        let purchase = json!({"event": "conversion", "event_name": "purchase",
            "event_properties": {"value": 10 + i, "currency": "EUR"}});
        track(if i % 2 == 0 { &b } else { &a }, key, visitor, "/checkout", purchase.clone()).await;
        track(&sqlite, sqlite_key, visitor, "/checkout", purchase).await;
    }

    let expected = overview(&sqlite, &sqlite_token, &sqlite_site).await;
    assert_eq!(expected["metrics"]["pageViews"], 24, "{expected}");
    assert_eq!(expected["metrics"]["totalVisitors"], 12, "{expected}");
    assert_eq!(expected["metrics"]["conversions"], 5, "{expected}");
    for (name, server, token) in [("A", &a, &token_a), ("B", &b, &token_b)] {
        let mut got = overview(server, token, &site).await;
        // Imported history is not part of the cluster; the SQLite daemon has none either.
        got["imported"] = expected["imported"].clone();
        assert_eq!(got, expected, "daemon {name}");
    }

    // A feature whose storage has not moved answers 503 with the JSON error, not a per-daemon answer.
    let funnels = a.get(&format!("/api/funnels?websiteId={}", site["id"]), &token_a).await;
    assert_eq!(funnels.status, StatusCode::SERVICE_UNAVAILABLE, "{}", funnels.text);
    assert_eq!(funnels.error_message(), "funnels is not available in cluster mode yet");
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
    // Retention has not moved: still refused rather than answered from one daemon's own database.
    let retention = a.get(&format!("/api/privacy/retention?website_id={id}"), &token_a).await;
    assert_eq!(retention.status, StatusCode::SERVICE_UNAVAILABLE, "{}", retention.text);
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
    assert_eq!(rows_of(&first), vec![0, 0]);
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
    assert_eq!(rows_of(&second), vec![0, 0]);
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
    assert_eq!(shard_rows(&corner, &format!("website_id = {}", doomed["id"])), vec![0, 0]);

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

/// The commands other than `serve` work on the data folder's database, which holds none of a cluster's data:
/// with cluster settings they refuse (before connecting anywhere) instead of answering from it.
#[test]
fn commands_other_than_serve_refuse_cluster_settings() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let mut command = cli.command(&["sites", "list"]);
    command.env("TRACKER_POSTGRES_URL", "postgres://tracker@127.0.0.1:1/tracker");
    command.env("TRACKER_CLICKHOUSE_URL", "http://127.0.0.1:1");
    let out = command.output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not available in cluster mode yet"), "{stderr}");
    assert!(!dir.path().join("data").join("tracker.db").exists(), "no database is made in the data folder");
}
