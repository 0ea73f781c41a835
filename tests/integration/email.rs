//! Email reports and alerts (issue 17 part 4) against a real SMTP server on loopback: Python's aiosmtpd
//! (smtp_sink.py, installed into target/aiosmtpd-venv when missing). The scheduler's work is triggered with
//! the clock it would run at (`Email::run_due(now)`, as `tracker email run --now` does), so nothing waits on
//! the wall clock; each received message is parsed by Python's email package.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tracker_core::email::{RunReport, week_start};
use tracker_core::ingest::{Client, Hit, Submitted, TrackRequest};
use tracker_core::{Config, Tracker};

use crate::util::{BROWSER_UA, TestServer, tracker_bin};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;
const WEEK: i64 = 7 * DAY;

/// The address the tests send a last message to: once it arrives, every message before it has too.
const MARKER: &str = "marker@example.com";

/// aiosmtpd listening on a loopback port; each message received is one JSON value on `messages`.
pub(crate) struct SmtpSink {
    port: u16,
    messages: tokio::sync::mpsc::UnboundedReceiver<Value>,
    child: Child,
}

/// One venv install at a time (tests run in parallel).
static VENV: Mutex<()> = Mutex::new(());

/// The venv's python with aiosmtpd, installed under target/ on first use (pip reaches PyPI).
fn sink_python() -> PathBuf {
    // This test binary is target/<profile>/deps/integration-*.
    let exe = std::env::current_exe().expect("test exe");
    let target = exe.ancestors().nth(3).expect("target folder").to_path_buf();
    let venv = std::env::var_os("AIOSMTPD_VENV").map(PathBuf::from).unwrap_or_else(|| target.join("aiosmtpd-venv"));
    let python = venv.join("bin/python");
    let _one = VENV.lock().unwrap_or_else(|e| e.into_inner());
    let has_aiosmtpd = || Command::new(&python).args(["-c", "import aiosmtpd"]).status().is_ok_and(|s| s.success());
    if !has_aiosmtpd() {
        let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status().expect("python3");
        assert!(made.success(), "python3 -m venv failed (on Debian: apt-get install python3-venv)");
        let pip = venv.join("bin/pip");
        let installed = Command::new(pip)
            .args(["install", "--quiet", "--disable-pip-version-check", "aiosmtpd==1.4.6"])
            .status()
            .expect("pip");
        assert!(installed.success() && has_aiosmtpd(), "could not install aiosmtpd into {}", venv.display());
    }
    python
}

impl SmtpSink {
    pub(crate) fn start() -> SmtpSink {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("integration/smtp_sink.py");
        let mut child = Command::new(sink_python())
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the SMTP sink");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first: Value = serde_json::from_str(&lines.next().expect("sink output").unwrap()).unwrap();
        let port = first["port"].as_u64().expect("sink port") as u16;
        let (sender, messages) = tokio::sync::mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                let _ = sender.send(serde_json::from_str::<Value>(&line).unwrap());
            }
        });
        SmtpSink { port, messages, child }
    }

    pub(crate) fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message received before the marker message, which `tracker` sends now.
    pub(crate) async fn received(&mut self, tracker: &Tracker) -> Vec<Value> {
        let marker = tracker.clone();
        let delivery = tokio::task::spawn_blocking(move || marker.email.send_test(MARKER)).await.unwrap().unwrap();
        assert_eq!(delivery, tracker_core::email::Delivery::Sent);
        let mut messages = Vec::new();
        loop {
            let message = tokio::time::timeout(Duration::from_secs(30), self.messages.recv())
                .await
                .expect("the marker message within 30 s")
                .expect("the sink is running");
            if message["to"] == json!([MARKER]) {
                return messages;
            }
            messages.push(message);
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The daemon with email going to `sink`.
pub(crate) async fn server_mailing(sink: &SmtpSink) -> TestServer {
    let url = sink.url();
    TestServer::start_with(move |config| {
        config.smtp_url = Some(url);
        config.smtp_from = Some("Tracker Reports <reports@example.com>".into());
        config.public_url = Some("https://stats.example.com".into());
    })
    .await
}

/// Runs the scheduler's work at `now`.
pub(crate) async fn run_due(tracker: &Tracker, now: i64) -> RunReport {
    let tracker = tracker.clone();
    tokio::task::spawn_blocking(move || tracker.email.run_due(now)).await.unwrap().unwrap()
}

/// Page views at `ts` through the ingest writer (older than /api/track accepts, as the CLI's demo sends them):
/// (visitor address, session, path, referrer) each; waits until all are committed.
pub(crate) async fn views_at(server: &TestServer, key: &str, ts: i64, views: &[(&str, &str, &str, &str)]) {
    let site = server.tracker.ingest.site(key).unwrap();
    let mut commits = Vec::new();
    for (ip, session, path, referrer) in views {
        let request: TrackRequest =
            serde_json::from_value(json!({"tracking_key": key, "session_id": format!("session-{session}"),
            "url": format!("https://{}{path}", site.domain), "referrer": referrer}))
            .unwrap();
        let hit = Hit::from_request(request, &site, ts).unwrap();
        let client = Client { ip: ip.parse().unwrap(), user_agent: BROWSER_UA.into(), do_not_track: false };
        match server.tracker.ingest.track_hit(hit, &client).unwrap() {
            Submitted::Queued(commit) => commits.push(commit),
            Submitted::Ignored => panic!("hit ignored"),
        }
    }
    for commit in commits {
        commit.wait().await.unwrap();
    }
}

/// `n` page views of `path` at `ts`, each in its own visit.
pub(crate) async fn burst(server: &TestServer, key: &str, ts: i64, n: usize, path: &str) {
    let sessions: Vec<String> = (0..n).map(|i| format!("burst-{ts}-{}-{i}", path.len())).collect();
    let views: Vec<(&str, &str, &str, &str)> =
        sessions.iter().map(|s| ("198.51.100.7", s.as_str(), path, "")).collect();
    views_at(server, key, ts, &views).await;
}

/// Registers an account and follows the verification link mailed to it (reports and alerts go only to a
/// confirmed address); returns its access token.
pub(crate) async fn register_verified(server: &TestServer, sink: &mut SmtpSink, email: &str) -> String {
    let (token, _) = server.register(email).await;
    let messages = sink.received(&server.tracker).await;
    let text = message_to(&messages, email)["text"].as_str().unwrap();
    let link = text.split("#token=").nth(1).expect("a verification link").split_whitespace().next().unwrap();
    let answer = server.call(Method::POST, "/api/user/email/verify", None, Some(json!({"token": link}))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    token
}

/// Registers a verified account and creates a site named `name` on `domain`; returns (token, tracking key,
/// site id).
pub(crate) async fn owner_with_site(
    server: &TestServer,
    sink: &mut SmtpSink,
    email: &str,
    name: &str,
    domain: &str,
) -> (String, String, i64) {
    let token = register_verified(server, sink, email).await;
    let site =
        server.post("/api/websites", &token, json!({"name": name, "domain": domain, "trackingLevel": "light"})).await;
    assert_eq!(site.status, StatusCode::CREATED, "{}", site.text);
    (token, site.json["trackingKey"].as_str().unwrap().to_string(), site.json["id"].as_i64().unwrap())
}

pub(crate) fn message_to<'a>(messages: &'a [Value], to: &str) -> &'a Value {
    messages.iter().find(|m| m["to"] == json!([to])).unwrap_or_else(|| panic!("no message to {to}: {messages:#?}"))
}

#[tokio::test]
async fn weekly_reports_go_once_to_owners_who_want_them_with_only_their_sites() {
    let mut sink = SmtpSink::start();
    let server = server_mailing(&sink).await;
    let (alice, shop, shop_id) =
        owner_with_site(&server, &mut sink, "alice@example.com", "Shop & Co", "shop.example.com").await;
    let empty = server.post("/api/websites", &alice, json!({"name": "Empty", "domain": "empty.example.com"})).await;
    assert_eq!(empty.status, StatusCode::CREATED, "{}", empty.text);
    let (_, garden, _) = owner_with_site(&server, &mut sink, "bob@example.com", "Garden", "garden.example.com").await;
    let (carol, quiet, _) =
        owner_with_site(&server, &mut sink, "carol@example.com", "Quiet", "quiet.example.com").await;
    let off = server.put("/api/user/notifications", &carol, json!({"weeklyReports": false})).await;
    assert_eq!(off.json["weeklyReports"], false, "{}", off.text);

    // The reported week is two weeks back, so its days are whole; its Wednesday noon and the one before.
    let week = week_start(chrono::Utc::now().timestamp_millis()) - 2 * WEEK;
    let wednesday = week + 2 * DAY + 12 * HOUR;
    let hn = "https://news.ycombinator.com/item?id=1";
    views_at(
        &server,
        &shop,
        wednesday,
        &[
            ("203.0.113.1", "s1", "/", hn),
            ("203.0.113.1", "s1", "/pricing", ""),
            ("203.0.113.2", "s2", "/", hn),
            ("203.0.113.3", "s3", "/docs", ""),
        ],
    )
    .await;
    views_at(&server, &shop, wednesday - WEEK, &[("203.0.113.9", "p1", "/", ""), ("203.0.113.9", "p1", "/", "")]).await;
    views_at(&server, &garden, wednesday, &[("203.0.113.4", "g1", "/roses", "")]).await;
    views_at(&server, &quiet, wednesday, &[("203.0.113.5", "q1", "/", "")]).await;

    // Monday 06:00 after the week: Shop's and Garden's reports; Empty had no page view, Carol turned hers off.
    let monday = week + WEEK + 6 * HOUR;
    assert_eq!(run_due(&server.tracker, monday).await, RunReport { reports_sent: 2, alerts_sent: 0, refused: 0 });
    let messages = sink.received(&server.tracker).await;
    assert_eq!(messages.len(), 2, "{messages:#?}");
    let shop_report = message_to(&messages, "alice@example.com");
    assert_eq!(shop_report["from"], "reports@example.com");
    assert_eq!(shop_report["headerFrom"], "Tracker Reports <reports@example.com>");
    assert_eq!(shop_report["contentType"], "multipart/alternative");
    assert_eq!(shop_report["subject"], "Weekly report for Shop & Co: 3 visitors (+200%)");
    let text = shop_report["text"].as_str().unwrap();
    for line in [
        "Visitors: 3 (previous week 1, +200%)",
        "Page views: 4 (previous week 2, +100%)",
        "  /: 2 (previous week 2, no change)",
        "  /docs: 1 (previous week 0, new)",
        "  /pricing: 1 (previous week 0, new)",
        "  Hacker News: 2 (previous week 0, new)",
        "  Direct: 1 (previous week 1, no change)",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} missing from:\n{text}");
    }
    assert!(text.contains(&format!("https://stats.example.com/dashboard?website={shop_id}&range=7d")), "{text}");
    let html = shop_report["html"].as_str().unwrap();
    assert!(html.contains("Weekly report for Shop &amp; Co"), "{html}");
    assert!(html.contains(&format!("website={shop_id}&amp;range=7d")), "{html}");
    let garden_report = message_to(&messages, "bob@example.com");
    assert_eq!(garden_report["subject"], "Weekly report for Garden: 1 visitors (new)");
    for message in &messages {
        let raw = message["raw"].as_str().unwrap();
        assert!(!raw.contains("203.0.113."), "a visitor's address in an email: {raw}");
        assert!(!raw.contains("carol") && !raw.contains("Quiet"), "Carol's site in someone's report: {raw}");
    }
    assert!(!shop_report["raw"].as_str().unwrap().contains("Garden"));
    assert!(!garden_report["raw"].as_str().unwrap().contains("Shop"));

    // The next run, and a run after a restart, send nothing again.
    assert_eq!(run_due(&server.tracker, monday + 300_000).await, RunReport::default());
    let data = server.stop_keeping_dir().await;
    let config = Config {
        data_dir: data.path().join("data"),
        smtp_url: Some(sink.url()),
        smtp_from: Some("reports@example.com".into()),
        ..Config::default()
    };
    let restarted = Tracker::open(&config).unwrap();
    assert_eq!(run_due(&restarted, monday + 600_000).await, RunReport::default());
    assert_eq!(sink.received(&restarted).await.len(), 0);
}

#[tokio::test]
async fn a_traffic_spike_alerts_an_owner_with_real_time_alerts_once() {
    let mut sink = SmtpSink::start();
    let server = server_mailing(&sink).await;
    let (alice, shop, shop_id) =
        owner_with_site(&server, &mut sink, "alice@example.com", "Shop", "shop.example.com").await;
    let busy = server.post("/api/websites", &alice, json!({"name": "Busy", "domain": "busy.example.com"})).await;
    let busy = busy.json["trackingKey"].as_str().unwrap().to_string();
    // Weekly Reports off: Busy's days of traffic before would otherwise make last week's report due.
    let on =
        server.put("/api/user/notifications", &alice, json!({"realTimeAlerts": true, "weeklyReports": false})).await;
    assert_eq!(on.json["realTimeAlerts"], true, "{}", on.text);
    let (_, other, _) = owner_with_site(&server, &mut sink, "bob@example.com", "Other", "other.example.com").await;

    let now = chrono::Utc::now().timestamp_millis();
    let recent = now - 10 * 60_000;
    // Shop: 60 page views in the last hour, none in that hour before: a spike.
    burst(&server, &shop, recent, 40, "/launch").await;
    burst(&server, &shop, recent, 20, "/").await;
    // Busy: the same 60, but 30 in that hour on each of the 7 days before; 60 < 3 × 30 is no spike.
    burst(&server, &busy, recent, 60, "/").await;
    for days in 1..=7 {
        burst(&server, &busy, recent - days * DAY, 30, "/").await;
    }
    // Bob's site spikes too, but he has Real-time Alerts off (the default).
    burst(&server, &other, recent, 60, "/").await;

    assert_eq!(run_due(&server.tracker, now).await, RunReport { reports_sent: 0, alerts_sent: 1, refused: 0 });
    // Five minutes on the spike is still there, but the site had its alert.
    assert_eq!(run_due(&server.tracker, now + 300_000).await, RunReport::default());
    let messages = sink.received(&server.tracker).await;
    assert_eq!(messages.len(), 1, "{messages:#?}");
    let alert = &messages[0];
    assert_eq!(alert["to"], json!(["alice@example.com"]));
    assert_eq!(alert["subject"], "Traffic spike on Shop: 60 page views in the last hour");
    let text = alert["text"].as_str().unwrap();
    for line in ["Usually about 0 in that hour (median of the 7 days before).", "  /launch: 40", "  /: 20"] {
        assert!(text.lines().any(|l| l == line), "{line:?} missing from:\n{text}");
    }
    assert!(text.contains("https://stats.example.com/live?website="), "{text}");
    assert!(alert["html"].as_str().unwrap().contains("<b>60</b> page views"), "{}", alert["html"]);
    assert!(!alert["raw"].as_str().unwrap().contains("198.51.100."), "a visitor's address in the alert");

    // The chart keeps the spike (issue 37): one annotation on its day, by tracker, not one per run.
    let marks = server.get(&format!("/api/websites/{shop_id}/annotations"), &alice).await;
    let marks = marks.json.as_array().expect("a list");
    assert_eq!(marks.len(), 1, "{marks:?}");
    let today = chrono::DateTime::from_timestamp_millis(now).unwrap().format("%Y-%m-%d").to_string();
    assert_eq!((marks[0]["date"].as_str(), marks[0]["source"].as_str()), (Some(today.as_str()), Some("spike")));
    let text = marks[0]["text"].as_str().unwrap();
    assert!(text.starts_with("Traffic spike: 60 page views in the hour to "), "{text}");
    assert!(marks[0]["createdBy"].is_null());
    let busy_id = server
        .get("/api/websites", &alice)
        .await
        .json
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Busy")
        .unwrap()["id"]
        .clone();
    let quiet = server.get(&format!("/api/websites/{busy_id}/annotations"), &alice).await;
    assert_eq!(quiet.json, json!([]), "no spike, no mark");
}

#[tokio::test]
async fn without_smtp_url_the_notification_settings_say_email_is_not_configured() {
    let server = TestServer::start().await;
    let (token, _) = server.register("nomail@example.com").await;
    let settings = server.get("/api/user/settings", &token).await;
    assert_eq!(settings.json["notifications"]["emailConfigured"], false, "{}", settings.text);
    let saved = server.put("/api/user/notifications", &token, json!({"weeklyReports": true})).await;
    assert_eq!(saved.json["emailConfigured"], false, "{}", saved.text);
    // The flag is the server's to say, not a preference to save.
    let refused = server.put("/api/user/notifications", &token, json!({"emailConfigured": true})).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.text);
    assert_eq!(run_due(&server.tracker, chrono::Utc::now().timestamp_millis()).await, RunReport::default());

    let mut sink = SmtpSink::start();
    let mailing = server_mailing(&sink).await;
    let (token, _) = mailing.register("mail@example.com").await;
    let settings = mailing.get("/api/user/settings", &token).await;
    assert_eq!(settings.json["notifications"]["emailConfigured"], true, "{}", settings.text);
    let messages = sink.received(&mailing.tracker).await;
    let subjects: Vec<&Value> = messages.iter().map(|m| &m["subject"]).collect();
    assert_eq!(subjects, [&json!("Confirm your email address for tracker")], "only the address's verification link");
}

#[tokio::test]
async fn the_email_test_command_reaches_the_smtp_server() {
    let mut sink = SmtpSink::start();
    let data = tempfile::tempdir().unwrap();
    // A data folder, as `tracker serve` or `tracker users add` leave it (other commands refuse a folder without one).
    drop(Tracker::open(&Config { data_dir: data.path().to_path_buf(), ..Config::default() }).unwrap());
    let tracker = |smtp: Option<&str>| {
        let mut command = Command::new(tracker_bin());
        command.arg("--data-dir").arg(data.path()).args(["email", "test", "--to", "ops@example.com"]);
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("TRACKER_") && k != "TRACKER_BIN") {
            command.env_remove(key);
        }
        if let Some(url) = smtp {
            command.env("TRACKER_SMTP_URL", url);
        }
        command.output().unwrap()
    };
    let unconfigured = tracker(None);
    assert!(!unconfigured.status.success());
    let error = String::from_utf8_lossy(&unconfigured.stderr);
    assert!(error.contains("email is not configured: set smtp_url"), "{error}");

    let sent = tracker(Some(&sink.url()));
    assert!(sent.status.success(), "{}", String::from_utf8_lossy(&sent.stderr));
    let config = Config { data_dir: data.path().to_path_buf(), smtp_url: Some(sink.url()), ..Config::default() };
    let messages = sink.received(&Tracker::open(&config).unwrap()).await;
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert_eq!(messages[0]["to"], json!(["ops@example.com"]));
    assert_eq!(messages[0]["from"], "tracker@localhost");
    assert_eq!(messages[0]["subject"], "tracker test message");
}
