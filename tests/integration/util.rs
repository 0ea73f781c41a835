//! Test helpers: the real daemon on a 127.0.0.1:0 listener over a temp data folder, an HTTP client, and
//! the built `tracker` binary for CLI and crash tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::sync::oneshot;
use tracker_core::{Config, Tracker};

/// A browser user agent, so hits are not dropped as bots.
pub const BROWSER_UA: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/// The daemon running in this process on an ephemeral port, with its own data folder.
pub struct TestServer {
    pub base: String,
    pub tracker: Tracker,
    pub client: reqwest::Client,
    pub dir: TempDir,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

/// An HTTP answer: status, JSON body (Null when empty or not JSON) and the raw text.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub json: Value,
    pub text: String,
    pub headers: reqwest::header::HeaderMap,
}

impl Answer {
    /// The error message of a JSON error body, asserting the body has the `{"error":{"message"}}` shape.
    pub fn error_message(&self) -> String {
        self.json["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("not a JSON error body ({}): {}", self.status, self.text))
            .to_string()
    }
}

impl TestServer {
    pub async fn start() -> TestServer {
        Self::start_with(|_| {}).await
    }

    /// Starts with a config adjusted by `adjust` (data_dir and addr are set already).
    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = Config { data_dir: dir.path().join("data"), ..Config::default() };
        config.addr = "127.0.0.1:0".parse().unwrap();
        // Tests register several accounts from loopback; the sign-up rules have their own tests.
        config.registration = tracker_core::config::RegistrationMode::Open;
        config.registrations_per_hour = 10_000;
        adjust(&mut config);
        // Off the async threads: cluster mode's PostgreSQL client is synchronous and runs its own runtime.
        let tracker = tokio::task::spawn_blocking(move || Tracker::open(&config)).await.unwrap().expect("open tracker");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (shutdown, signal) = oneshot::channel::<()>();
        let task = tokio::spawn(tracker_daemon::serve(tracker.clone(), listener, async move {
            let _ = signal.await;
        }));
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        TestServer { base, tracker, client, dir, shutdown: Some(shutdown), task: Some(task) }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Sends a request with an optional bearer token and JSON body.
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
        let mut request = self.client.request(method, self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        answer(request.send().await.expect("request")).await
    }

    pub async fn get(&self, path: &str, token: &str) -> Answer {
        self.call(Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Answer {
        self.call(Method::POST, path, Some(token), Some(body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> Answer {
        self.call(Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: &str) -> Answer {
        self.call(Method::DELETE, path, Some(token), None).await
    }

    /// Registers an account; returns its access token and the whole answer.
    pub async fn register(&self, email: &str) -> (String, Value) {
        let answer =
            self.call(Method::POST, "/api/register", None, Some(json!({"email": email, "password": "secret1"}))).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        (answer.json["accessToken"].as_str().unwrap().to_string(), answer.json)
    }

    /// Creates a website; returns it as the API shows it.
    pub async fn create_site(&self, token: &str, name: &str, level: &str) -> Value {
        let body =
            json!({"name": name, "domain": format!("{}.example.com", name.to_lowercase()), "trackingLevel": level});
        let answer = self.post("/api/websites", token, body).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json
    }

    /// Sends a tracking hit as a browser would.
    pub async fn track(&self, body: Value) -> Answer {
        let response = self
            .client
            .post(self.url("/api/track"))
            .header("user-agent", BROWSER_UA)
            .header("content-type", "text/plain")
            .body(body.to_string())
            .send()
            .await
            .expect("track");
        answer(response).await
    }

    /// A page view of `path` on the site with `key`, in session `session`.
    pub async fn pageview(&self, key: &str, session: &str, path: &str) -> Answer {
        self.track(
            json!({"tracking_key": key, "session_id": session, "url": format!("https://site.example.com{path}")}),
        )
        .await
    }

    /// Stops the daemon and waits for it (queued hits are committed first).
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    /// Stops the daemon and keeps its temp folder (the data folder is `data` in it), every connection to the
    /// database closed: the folder as a thief or a backup would find it.
    pub async fn stop_keeping_dir(mut self) -> TempDir {
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().expect("temp dir"));
        self.stop().await;
        dir
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

pub async fn answer(response: reqwest::Response) -> Answer {
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap_or_default();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Answer { status, json, text, headers }
}

/// The built `tracker` binary (tests/run.sh builds it before the tests).
pub fn tracker_bin() -> PathBuf {
    if let Some(path) = std::env::var_os("TRACKER_BIN") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("test exe");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target dir");
    let bin = dir.join("tracker");
    assert!(bin.exists(), "{} is missing: run `cargo build -p tracker` first", bin.display());
    bin
}

/// Polls `check` every 20 ms until it returns Some, failing after `timeout`.
pub async fn wait_for<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(tokio::time::Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
