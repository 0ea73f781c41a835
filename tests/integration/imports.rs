//! `tracker import`: the real binary imports each tool's sample export (tests/fixtures/import, written to the
//! tools' documented columns) into the data folder of a running daemon, whose dashboard API then shows the
//! imported history, marked as imported; a second run, a bad row and the wrong tool are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::util::{TestServer, tracker_bin};

const DAY_MS: i64 = 86_400_000;

/// The fixtures' two days, moved to three and two days ago so the dashboard's 7-day range holds them.
pub(crate) fn shifted_days() -> [(String, String); 2] {
    let today = chrono::Utc::now().timestamp_millis().div_euclid(DAY_MS) * DAY_MS;
    let day = |back: i64| chrono::DateTime::from_timestamp_millis(today - back * DAY_MS).unwrap().date_naive();
    [("2024-03-01".into(), day(3).to_string()), ("2024-03-02".into(), day(2).to_string())]
}

/// A fixture file or folder copied into `into` with its dates (in contents and names) moved to recent days.
pub(crate) fn recent_copy(fixture: &str, into: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/import").join(fixture);
    let shift = |s: &str| {
        shifted_days().iter().fold(s.to_string(), |s, (old, new)| {
            s.replace(old.as_str(), new).replace(&old.replace('-', ""), &new.replace('-', ""))
        })
    };
    let to = into.join(fixture);
    if from.is_dir() {
        std::fs::create_dir_all(&to).unwrap();
        for entry in std::fs::read_dir(&from).unwrap() {
            let entry = entry.unwrap();
            let name = shift(&entry.file_name().to_string_lossy());
            std::fs::write(to.join(name), shift(&std::fs::read_to_string(entry.path()).unwrap())).unwrap();
        }
    } else {
        std::fs::write(&to, shift(&std::fs::read_to_string(&from).unwrap())).unwrap();
    }
    to
}

/// Runs `tracker import` on the daemon's data folder while the daemon runs.
pub(crate) fn import(server: &TestServer, site: &str, from: &str, file: &Path, extra: &[&str]) -> Output {
    let mut command = Command::new(tracker_bin());
    command.arg("--data-dir").arg(server.dir.path().join("data"));
    command.args(["import", "--site", site, "--from", from]).args(extra).arg(file);
    for (key, _) in std::env::vars() {
        if key.starts_with("TRACKER_") && key != "TRACKER_BIN" {
            command.env_remove(key);
        }
    }
    command.stdin(Stdio::null()).output().expect("run tracker")
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A site to import into: its id as the CLI takes it, and a token of its owner.
async fn site(server: &TestServer, email: &str) -> (String, String) {
    let (token, _) = server.register(email).await;
    let site = server.create_site(&token, "Imported", "light").await;
    let id = site["id"].as_i64().map(|i| i.to_string()).unwrap_or_else(|| site["id"].as_str().unwrap().to_string());
    (id, token)
}

/// The dashboard's answers over the last 7 days: the overview and the given breakdowns as {value: count}.
async fn dashboard(server: &TestServer, site: &str, token: &str) -> (Value, Value) {
    let overview = server.get(&format!("/api/dashboard/overview?website_id={site}&range=7d"), token).await;
    assert!(overview.status.is_success(), "{}", overview.text);
    let mut breakdowns = serde_json::Map::new();
    for dim in ["page", "referrer", "source", "country", "device", "browser", "utm_source"] {
        let answer = server.get(&format!("/api/websites/{site}/breakdown/{dim}?range=7d&limit=100"), token).await;
        assert!(answer.status.is_success(), "{dim}: {}", answer.text);
        let rows: serde_json::Map<String, Value> = answer.json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["value"].as_str().unwrap().to_string(), r["count"].clone()))
            .collect();
        breakdowns.insert(dim.into(), Value::Object(rows));
    }
    (overview.json, Value::Object(breakdowns))
}

#[tokio::test]
async fn plausible_export_shows_in_every_widget_marked_imported_and_only_once() {
    let server = TestServer::start().await;
    let (site, token) = site(&server, "plausible-import@example.com").await;
    let tmp = tempfile::tempdir().unwrap();
    let export = recent_copy("plausible", tmp.path());

    let out = import(&server, &site, "plausible", &export, &["--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["pageviews"].as_i64(), report["visits"].as_i64()), (Some(180), Some(85)), "{report}");

    let (overview, b) = dashboard(&server, &site, &token).await;
    let m = &overview["metrics"];
    assert_eq!((m["pageViews"].as_i64(), m["totalVisitors"].as_i64()), (Some(180), Some(70)), "{overview}");
    // 30 bounces of 85 visits; 5,100 s over 85 visits.
    assert_eq!((m["bounceRate"].as_f64(), m["avgSessionDuration"].as_f64()), (Some(35.3), Some(60.0)));
    let days = shifted_days();
    assert_eq!(
        overview["imported"],
        serde_json::json!({"sources": ["plausible"], "from": days[0].1, "to": days[1].1}),
        "the overview marks the imported days"
    );
    assert_eq!(overview["topPages"][0], serde_json::json!({"url": "/", "views": 110}));
    assert_eq!(b["page"], serde_json::json!({"/": 110, "/pricing": 40, "/blog/hello": 30}));
    assert_eq!(
        b["referrer"],
        serde_json::json!({"google.com": 30, "": 24, "news.ycombinator.com": 25, "Newsletter": 6})
    );
    assert_eq!(b["utm_source"], serde_json::json!({"": 79, "newsletter": 6}));
    // Sources as tracked visits get them: Plausible's Google from google.com is Google, its tag as tagged.
    assert_eq!(b["source"], serde_json::json!({"Google": 30, "": 24, "Hacker News": 25, "newsletter": 6}));
    assert_eq!(b["country"], serde_json::json!({"US": 50, "DE": 35}));
    assert_eq!(b["device"], serde_json::json!({"desktop": 63, "mobile": 12, "tablet": 10}));
    assert_eq!(b["browser"], serde_json::json!({"Chrome": 30, "Firefox": 20, "Safari": 35}));

    // The same export again would count its days twice: refused, and nothing changes.
    let again = import(&server, &site, "plausible", &export, &[]);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("already has history imported from plausible"), "{}", stderr(&again));
    let (overview_after, _) = dashboard(&server, &site, &token).await;
    assert_eq!(overview_after["metrics"]["pageViews"].as_i64(), Some(180));
    server.stop().await;
}

#[tokio::test]
async fn umami_and_goatcounter_hits_become_visits_and_events() {
    let server = TestServer::start().await;
    let (umami_site, token) = site(&server, "umami-import@example.com").await;
    let tmp = tempfile::tempdir().unwrap();
    let out = import(&server, &umami_site, "umami", &recent_copy("umami-events.csv", tmp.path()), &[]);
    assert!(out.status.success(), "{}", stderr(&out));

    let (overview, b) = dashboard(&server, &umami_site, &token).await;
    let m = &overview["metrics"];
    assert_eq!((m["pageViews"].as_i64(), m["totalVisitors"].as_i64()), (Some(5), Some(3)), "{overview}");
    assert_eq!(overview["imported"]["sources"], serde_json::json!(["umami"]));
    assert_eq!(b["page"], serde_json::json!({"/": 2, "/pricing": 2, "/blog/hello": 1}));
    // The second page's referrer is the site itself: navigation, not a referral.
    assert_eq!(b["referrer"], serde_json::json!({"": 2, "google.com": 1}));
    assert_eq!(b["utm_source"], serde_json::json!({"": 2, "newsletter": 1}));
    assert_eq!(b["country"], serde_json::json!({"US": 2, "DE": 1}));
    assert_eq!(b["device"], serde_json::json!({"desktop": 2, "mobile": 1}));
    assert_eq!(b["browser"], serde_json::json!({"Chrome": 1, "Firefox": 1, "Safari": 1}));
    // Raw events exist too: the visitor stream (recent activity) reads them.
    let activity = server.get(&format!("/api/dashboard/recent-activity?website_id={umami_site}"), &token).await;
    assert!(activity.text.contains("/blog/hello"), "{}", activity.text);
    // The export's website id is recorded (issue 38): Umami's script still naming it reaches this site.
    let website = server.get(&format!("/api/websites/{umami_site}"), &token).await;
    assert_eq!(website.json["umamiWebsiteId"], "5e1f7f1a-43c4-4bd6-a3a1-ef5a1d6a1a01", "{}", website.text);
    let send = serde_json::json!({"type": "event", "payload": {"website": "5e1f7f1a-43c4-4bd6-a3a1-ef5a1d6a1a01", "url": "/after-switch"}});
    let sent = server.client.post(server.url("/api/send")).header("user-agent", crate::util::BROWSER_UA).json(&send);
    assert_eq!(sent.send().await.unwrap().status(), reqwest::StatusCode::OK);

    let goat_site = server.create_site(&token, "Goat", "light").await["id"].to_string().replace('"', "");
    let out =
        import(&server, &goat_site, "goatcounter", &recent_copy("goatcounter-export.csv", tmp.path()), &["--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["rows"].as_i64(), report["ignored"].as_i64()), (Some(4), Some(1)), "the bot row is left out");
    let (overview, b) = dashboard(&server, &goat_site, &token).await;
    let m = &overview["metrics"];
    assert_eq!((m["pageViews"].as_i64(), m["totalVisitors"].as_i64()), (Some(3), Some(2)), "{overview}");
    assert_eq!(b["page"], serde_json::json!({"/": 2, "/docs": 1}));
    assert_eq!(b["referrer"], serde_json::json!({"google.com": 1, "Hacker News": 1}));
    assert_eq!(b["source"], serde_json::json!({"Google": 1, "Hacker News": 1}));
    assert_eq!(b["country"], serde_json::json!({"NL": 1, "US": 1}));
    assert_eq!(b["device"], serde_json::json!({"desktop": 1, "mobile": 1}));
    server.stop().await;
}

#[tokio::test]
async fn bad_rows_and_the_wrong_tool_are_reported_and_nothing_is_written() {
    let server = TestServer::start().await;
    let (site, token) = site(&server, "bad-import@example.com").await;
    let tmp = tempfile::tempdir().unwrap();
    let umami = recent_copy("umami-events.csv", tmp.path());

    let wrong = import(&server, &site, "goatcounter", &umami, &[]);
    assert!(!wrong.status.success());
    assert!(
        stderr(&wrong).contains("not a GoatCounter export: missing columns path, event, session, date"),
        "{}",
        stderr(&wrong)
    );
    let no_visitors = import(&server, &site, "plausible", &umami, &[]);
    assert!(stderr(&no_visitors).contains("not a Plausible CSV export"), "{}", stderr(&no_visitors));

    // Line 3 has a bad time, line 5 a field too many.
    let text = std::fs::read_to_string(&umami).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let day = &shifted_days()[0].1;
    lines[2] = lines[2].replace(&format!("{day} 10:02:00"), "yesterday");
    lines[4].push_str(",extra");
    let bad = tmp.path().join("bad.csv");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let out = import(&server, &site, "umami", &bad, &[]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("2 rows could not be read, nothing was imported"), "{err}");
    assert!(err.contains("bad.csv line 3: created_at: not a time: 'yesterday'"), "{err}");
    assert!(err.contains("bad.csv line 5: 37 fields where the header has 36"), "{err}");
    let (overview, _) = dashboard(&server, &site, &token).await;
    assert_eq!(overview["metrics"]["pageViews"].as_i64(), Some(0));
    assert_eq!(overview["imported"], Value::Null);

    let skipped = import(&server, &site, "umami", &bad, &["--skip-bad-rows"]);
    assert!(skipped.status.success(), "{}", stderr(&skipped));
    assert!(stderr(&skipped).contains("skipped bad.csv line 3"), "{}", stderr(&skipped));
    let (overview, _) = dashboard(&server, &site, &token).await;
    assert_eq!(overview["metrics"]["pageViews"].as_i64(), Some(3), "the three readable page views of five");
    server.stop().await;
}
