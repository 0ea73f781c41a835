//! Deleting on the cluster answers at once (issue 39): the site goes from PostgreSQL in the request, and a
//! deletion job that any daemon runs removes its events from both shards soon after: also when a shard is
//! unreachable during the deletion and comes back, and when the daemon running the job dies mid-way and
//! starts again. Through the real daemon on the harness (tests/cluster/cluster.sh up DIR; source DIR/env).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};

use crate::cluster::{Corner, await_no_rows, cluster_keys, harness, pageview, post_hit, shard_rows};
use crate::durability::start_daemon_with;
use crate::util::{BROWSER_UA, TestServer, wait_for};

/// The token of the test daemons' `/metrics`.
pub(crate) const METRICS_TOKEN: &str = "deletion-metrics-token";

/// A gauge of `/metrics` at `base`.
pub(crate) async fn gauge(client: &reqwest::Client, base: &str, name: &str) -> i64 {
    let text =
        client.get(format!("{base}/metrics")).bearer_auth(METRICS_TOKEN).send().await.unwrap().text().await.unwrap();
    let line = text.lines().find(|l| l.split(' ').next() == Some(name));
    line.and_then(|l| l.rsplit(' ').next()?.parse().ok()).unwrap_or_else(|| panic!("no {name} in\n{text}"))
}

/// Waits until `/metrics` at `base` shows `name` satisfying `ok`.
pub(crate) async fn await_gauge(client: &reqwest::Client, base: &str, name: &str, ok: impl Fn(i64) -> bool) {
    wait_for(&format!("{name} in /metrics"), Duration::from_secs(90), || async {
        ok(gauge(client, base, name).await).then_some(())
    })
    .await
}

/// A daemon of `corner` on the shards `clickhouse_url` names (the corner's own unless told), with metrics on.
pub(crate) async fn daemon(corner: &Corner, clickhouse_url: Option<String>) -> TestServer {
    let (postgres_url, name) = (corner.postgres_url(), corner.name.clone());
    let clickhouse_url = clickhouse_url.unwrap_or_else(|| corner.ch.clone());
    TestServer::start_with(move |config| {
        config.postgres_url = Some(postgres_url);
        config.clickhouse_url = Some(clickhouse_url);
        config.clickhouse_database = Some(name);
        config.metrics_token = Some(METRICS_TOKEN.into());
        cluster_keys(config);
    })
    .await
}

/// A site of `token` on `server` with 20 visitors' page views (each shard holds some).
async fn site_with_visits(server: &TestServer, token: &str, name: &str) -> Value {
    let site = server.create_site(token, name, "light").await;
    for visitor in 0..20u8 {
        pageview(server, site["trackingKey"].as_str().unwrap(), visitor, "/").await;
    }
    site
}

/// Deletes `path` and answers how long it took.
async fn timed_delete(server: &TestServer, path: &str, token: &str, body: Option<Value>) -> (StatusCode, Duration) {
    let started = Instant::now();
    let answer = server.call(Method::DELETE, path, Some(token), body).await;
    assert!(answer.status.is_success(), "{}: {}", answer.status, answer.text);
    (answer.status, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_site_or_an_account_deletion_answers_at_once_and_its_events_leave_both_shards_soon_after() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (daemon(&corner, None).await, daemon(&corner, None).await);
    let (token, _) = a.register("owner@example.com").await;
    let (doomed, kept) = (site_with_visits(&a, &token, "Doomed").await, site_with_visits(&a, &token, "Kept").await);
    let (doomed_id, key) = (doomed["id"].clone(), doomed["trackingKey"].as_str().unwrap().to_string());
    let of = |site: &Value| format!("website_id = {site}");
    assert!(shard_rows(&corner, &of(&doomed_id)).iter().all(|n| *n > 0), "rows on both shards");

    // Hits keep coming to B while the site is deleted on A: those taken before go with the job, the rest are
    // refused by the key.
    let stop = Arc::new(AtomicBool::new(false));
    let sending = {
        let (stop, base, key) = (stop.clone(), b.base.clone(), key.clone());
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let (mut refused, mut taken) = (0, 0);
            for n in 0u32.. {
                let body = json!({"tracking_key": key, "session_id": format!("late-hit-{n:05}"), "url": "https://doomed.example.com/"});
                let status = client
                    .post(format!("{base}/api/track"))
                    .header("user-agent", BROWSER_UA)
                    .json(&body)
                    .send()
                    .await
                    .unwrap()
                    .status();
                match status {
                    StatusCode::NOT_FOUND => refused += 1,
                    ok if ok.is_success() => taken += 1,
                    other => panic!("a late hit answered {other}"),
                }
                if stop.load(Ordering::Acquire) && refused >= 5 {
                    break;
                }
            }
            taken
        })
    };
    pageview(&b, &key, 30, "/").await;
    let (status, took) = timed_delete(&a, &format!("/api/websites/{doomed_id}"), &token, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(took < Duration::from_secs(2), "answered in {took:?}");
    stop.store(true, Ordering::Release);
    assert!(sending.await.unwrap() > 0, "hits were taken while the site was being deleted");
    // Gone on both daemons at once, its key refusing hits; the job is listed until it is done.
    assert_eq!(b.get(&format!("/api/websites/{doomed_id}"), &token).await.status, StatusCode::NOT_FOUND);
    assert_eq!(post_hit(&a, &key, 31, "/", json!({}), false).await.status, StatusCode::NOT_FOUND);
    assert_eq!(gauge(&b.client, &b.base, "tracker_deletion_jobs").await, 1);

    await_no_rows(&corner, &of(&doomed_id)).await;
    await_gauge(&a.client, &a.base, "tracker_deletion_jobs", |n| n == 0).await;
    assert_eq!(shard_rows(&corner, &of(&kept["id"])).iter().sum::<u64>(), 20, "the other site keeps its rows");
    assert_eq!(shard_rows(&corner, &of(&doomed_id)), [0, 0], "no late hit survived the job");

    // The account's deletion too: answered at once, its site's rows gone soon after.
    let body = Some(json!({"password": "secret1"}));
    let (status, took) = timed_delete(&b, "/api/user/account", &token, body).await;
    assert_eq!(status, StatusCode::OK);
    assert!(took < Duration::from_secs(2), "answered in {took:?}");
    await_no_rows(&corner, &of(&kept["id"])).await;
    await_gauge(&b.client, &b.base, "tracker_deletion_jobs", |n| n == 0).await;
}

/// A TCP relay to one shard that can be cut (connections refused, open ones dropped) and restored: the shard as
/// this test's daemon sees it, down without stopping the harness's server under the other tests.
pub(crate) struct Relay {
    pub(crate) address: String,
    up: Arc<AtomicBool>,
}

impl Relay {
    pub(crate) async fn to(target: String) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let up = Arc::new(AtomicBool::new(true));
        let open = up.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !open.load(Ordering::Acquire) {
                    continue; // dropped: the connection is closed at once
                }
                let (target, open) = (target.clone(), open.clone());
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(&target).await else { return };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = async { while open.load(Ordering::Acquire) { tokio::time::sleep(Duration::from_millis(20)).await } } => {}
                    }
                });
            }
        });
        Relay { address, up }
    }

    pub(crate) fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::Release);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_site_deleted_while_a_shard_is_down_loses_its_events_when_the_shard_is_back() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch.clone()).await;
    // The daemon reaches shard 2 through the relay (user and password as in the harness's URL).
    let second = ch.split(',').nth(1).unwrap().to_string();
    let (credentials, target) = second.rsplit_once('@').unwrap();
    let relay = Relay::to(target.to_string()).await;
    let urls = format!("{},{credentials}@{}", ch.split(',').next().unwrap(), relay.address);
    let server = daemon(&corner, Some(urls)).await;
    let (token, _) = server.register("owner@example.com").await;
    let site = site_with_visits(&server, &token, "Shop").await;
    let of_site = format!("website_id = {}", site["id"]);
    assert!(shard_rows(&corner, &of_site).iter().all(|n| *n > 0), "rows on both shards");

    relay.set_up(false);
    let (status, took) = timed_delete(&server, &format!("/api/websites/{}", site["id"]), &token, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(took < Duration::from_secs(2), "answered in {took:?} with a shard down");
    // The job fails on the shard that does not answer, says so, and waits to retry.
    await_gauge(&server.client, &server.base, "tracker_deletion_jobs_failing", |n| n == 1).await;
    let tracker = server.tracker.clone();
    let jobs = tokio::task::spawn_blocking(move || tracker.events.deletion_jobs()).await.unwrap().unwrap();
    assert!(jobs[0].last_error.is_some() && jobs[0].attempts >= 1, "{jobs:?}");
    assert!(shard_rows(&corner, &of_site)[1] > 0, "shard 2 still holds its rows");
    // The operator sees it, and why, with `tracker privacy jobs`.
    let (cli_dir, env) = (tempfile::tempdir().unwrap(), corner.env());
    let listed = tokio::task::spawn_blocking(move || {
        let cli = crate::cli::Cli::new(&cli_dir.path().join("data"));
        let mut command = cli.command(&["privacy", "jobs", "--json"]);
        command.envs(env).output().unwrap()
    })
    .await
    .unwrap();
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed[0]["websiteIds"], json!([site["id"]]), "{listed}");
    assert!(listed[0]["lastError"].as_str().is_some_and(|e| !e.is_empty()), "{listed}");

    relay.set_up(true);
    await_no_rows(&corner, &of_site).await;
    await_gauge(&server.client, &server.base, "tracker_deletion_jobs", |n| n == 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_daemon_killed_mid_deletion_finishes_the_job_when_it_starts_again() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let dir = tempfile::tempdir().unwrap();
    let mut env = corner.env();
    env.push(("TRACKER_METRICS_TOKEN", METRICS_TOKEN.into()));
    let (mut first, base) = start_daemon_with(&dir.path().join("data"), env.clone());
    let client = reqwest::Client::new();
    let call = |method: Method, path: &str, token: Option<&str>, body: Value| {
        let mut request = client.request(method, format!("{base}{path}")).header("user-agent", BROWSER_UA).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let registered: Value =
        call(Method::POST, "/api/register", None, json!({"email": "o@example.com", "password": "secret1"}))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    let token = registered["accessToken"].as_str().unwrap().to_string();
    let site: Value =
        call(Method::POST, "/api/websites", Some(&token), json!({"name": "Shop", "domain": "shop.example.com"}))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    for visitor in 0..20 {
        let body = json!({"tracking_key": site["trackingKey"], "session_id": format!("visitor-{visitor:04}"), "url": "https://shop.example.com/"});
        let tracked = call(Method::POST, "/api/track", None, body).await.unwrap();
        assert!(tracked.status().is_success(), "{}: {}", tracked.status(), tracked.text().await.unwrap());
    }
    let of_site = format!("website_id = {}", site["id"]);
    assert_eq!(shard_rows(&corner, &of_site).iter().sum::<u64>(), 20);

    let deleted =
        call(Method::DELETE, &format!("/api/websites/{}", site["id"]), Some(&token), json!({})).await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    // Killed while it works on the job (after its grace, during the wait on the shards).
    await_gauge(&client, &base, "tracker_deletion_jobs_running", |n| n == 1).await;
    first.kill().expect("SIGKILL");
    first.wait().unwrap();

    // Started again: it takes the job once the dead one's lease lapses, and finishes it.
    let (mut again, base) = start_daemon_with(&dir.path().join("data"), env);
    assert_eq!(gauge(&client, &base, "tracker_deletion_jobs").await, 1, "the job outlived its daemon");
    await_gauge(&client, &base, "tracker_deletion_jobs", |n| n == 0).await;
    assert_eq!(shard_rows(&corner, &of_site), [0, 0]);
    again.kill().unwrap();
    again.wait().unwrap();
}
