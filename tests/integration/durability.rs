//! Group commit is durable: every hit answered 2xx survives a SIGKILL of the daemon mid-load, on SQLite and
//! on a cluster (one of two daemons killed).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use tokio::sync::Mutex;

use crate::util::{BROWSER_UA, tracker_bin};

/// Starts `tracker serve` on a free port over `data_dir`; returns the child and its base URL.
fn start_daemon(data_dir: &std::path::Path) -> (Child, String) {
    start_daemon_with(data_dir, Vec::new())
}

/// `start_daemon` with more environment (a cluster's settings).
pub(crate) fn start_daemon_with(data_dir: &std::path::Path, env: Vec<(&'static str, String)>) -> (Child, String) {
    let mut child = Command::new(tracker_bin())
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .env("TRACKER_LOG_LEVEL", "warn")
        .envs(env)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tracker serve");
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let url = loop {
        let line = lines.next().expect("daemon printed its URL").unwrap();
        if let Some(url) = line.strip_prefix("Dashboard: ") {
            break url.trim_end_matches('/').to_string();
        }
    };
    (child, url)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_acknowledged_hit_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut child, base) = start_daemon(&data);
    let (token, key) = account_with_site(&base, &base).await;

    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let killed = Arc::new(AtomicBool::new(false));
    let sending = tokio::spawn(load(vec![base], key, killed.clone(), acknowledged.clone()));
    // Kill once a good number of hits are acknowledged, while the workers are still sending.
    while acknowledged.lock().await.len() < 400 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    killed.store(true, Ordering::Release);
    sending.await.unwrap();

    let (mut restarted, base) = start_daemon(&data);
    let client = reqwest::Client::new();
    let status = client.get(format!("{base}/api/user")).bearer_auth(&token).send().await.unwrap().status();
    assert_eq!(status, StatusCode::OK, "the daemon restarted on the same data");
    restarted.kill().unwrap();
    restarted.wait().unwrap();

    let conn = rusqlite::Connection::open(data.join("tracker.db")).unwrap();
    let acknowledged = acknowledged.lock().await;
    let mut stmt = conn.prepare("SELECT COUNT(*) FROM sessions WHERE session_key = ?1").unwrap();
    let missing: Vec<&String> =
        acknowledged.iter().filter(|s| stmt.query_row([s.as_str()], |r| r.get::<_, i64>(0)).unwrap() != 1).collect();
    assert!(acknowledged.len() >= 400);
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged hits lost, e.g. {:?}",
        missing.len(),
        acknowledged.len(),
        missing.first()
    );
    let events: i64 = conn.query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0)).unwrap();
    assert!(events >= acknowledged.len() as i64);
}

/// Registers an account through `register_at` and makes it a site through `site_at` (two daemons of a cluster,
/// or one daemon twice); answers the account's token and the site's tracking key.
async fn account_with_site(register_at: &str, site_at: &str) -> (String, String) {
    let client = reqwest::Client::new();
    let register = client
        .post(format!("{register_at}/api/register"))
        .json(&json!({"email": "crash@example.com", "password": "secret1"}))
        .send()
        .await
        .unwrap();
    let token = register.json::<serde_json::Value>().await.unwrap()["accessToken"].as_str().unwrap().to_string();
    let site = client
        .post(format!("{site_at}/api/websites"))
        .bearer_auth(&token)
        .json(&json!({"name": "Crash", "domain": "crash.example.com"}))
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap();
    (token, site["trackingKey"].as_str().unwrap().to_string())
}

/// Sends page views of fresh sessions from 16 workers, round-robin over `bases`, until `stop` is set and a few
/// more have been sent (so some die in flight); answers the session of every hit acknowledged with 202.
/// Hits to a base that is down fail (connection refused or cut), 503 is allowed, anything else fails the test.
async fn load(bases: Vec<String>, key: String, stop: Arc<AtomicBool>, acknowledged: Arc<Mutex<Vec<String>>>) {
    let client = reqwest::Client::new();
    let mut workers = Vec::new();
    for worker in 0..16usize {
        let (client, bases, key) = (client.clone(), bases.clone(), key.clone());
        let (acknowledged, stop) = (acknowledged.clone(), stop.clone());
        workers.push(tokio::spawn(async move {
            for n in 0usize.. {
                if stop.load(Ordering::Acquire) && n % 8 == 0 {
                    break;
                }
                let session = format!("crash-{worker}-{n:06}");
                let body = json!({"tracking_key": key, "session_id": session, "url": "https://crash.example.com/"});
                let base = &bases[(worker + n) % bases.len()];
                let sent = client.post(format!("{base}/api/track")).header("user-agent", BROWSER_UA).json(&body).send();
                match tokio::time::timeout(Duration::from_secs(10), sent).await {
                    Ok(Ok(response)) if response.status() == StatusCode::ACCEPTED => {
                        acknowledged.lock().await.push(session)
                    }
                    Ok(Ok(response)) => assert!(response.status().is_server_error(), "{}", response.status()),
                    _ => {}
                }
            }
        }));
    }
    for worker in workers {
        worker.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_a_cluster_every_acknowledged_hit_survives_sigkill_of_a_daemon() {
    let Some((pg, ch)) = crate::cluster::harness() else { return };
    let corner = crate::cluster::Corner::new(pg, ch).await;
    let dir = tempfile::tempdir().unwrap();
    let (mut a, base_a) = start_daemon_with(&dir.path().join("a"), corner.env());
    let (mut b, base_b) = start_daemon_with(&dir.path().join("b"), corner.env());
    let (_, key) = account_with_site(&base_a, &base_b).await;

    // Hits go round-robin to A and B; A is killed mid-load and B goes on taking its share.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let sending = tokio::spawn(load(vec![base_a, base_b.clone()], key, stop.clone(), acknowledged.clone()));
    while acknowledged.lock().await.len() < 400 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    a.kill().expect("SIGKILL");
    a.wait().unwrap();
    let at_kill = acknowledged.lock().await.len();
    while acknowledged.lock().await.len() < at_kill + 200 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stop.store(true, Ordering::Release);
    sending.await.unwrap();
    b.kill().unwrap();
    b.wait().unwrap();

    // Every acknowledged session is in ClickHouse, read through the Distributed table (both shards).
    let (ch, name) = (corner.ch.clone(), corner.name.clone());
    let stored: std::collections::HashSet<String> = tokio::task::spawn_blocking(move || {
        let node = tracker_core::cluster::clickhouse::Node::new(ch.split(',').next().unwrap());
        node.query(&format!("SELECT DISTINCT session_key FROM {name}.hits")).unwrap().into_iter().flatten().collect()
    })
    .await
    .unwrap();
    let acknowledged = acknowledged.lock().await;
    let missing: Vec<&String> = acknowledged.iter().filter(|s| !stored.contains(*s)).collect();
    assert!(acknowledged.len() >= 600, "{}", acknowledged.len());
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged hits lost, e.g. {:?}",
        missing.len(),
        acknowledged.len(),
        missing.first()
    );
}
