//! Email reports and alerts in cluster mode: `tracker email run` on the cluster sends the weekly report and
//! the traffic-spike alert SQLite sends for the same hits (sent round-robin to two cluster daemons), and
//! however many daemons run the schedule at once, each email goes out once; `tracker email report` and
//! `tracker email test` send from the cluster what they send from a data folder.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};
use tracker_core::analytics::TimeRange;
use tracker_core::email::{RunReport, week_start};
use tracker_core::{Config, Tracker};

use crate::cli::Cli;
use crate::cluster::{Corner, CorpusHit, Setup, corpus, harness, send_corpus_hit};
use crate::email::{SmtpSink, register_verified, run_due};
use crate::util::TestServer;

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const WEEK: i64 = 7 * 24 * HOUR;
const PUBLIC_URL: &str = "https://stats.example.com";

/// The corpus of the last 24 hours and a spike on top of it: 60 page views of /launch in the last 10 minutes,
/// each its own visitor, in time order.
fn hits_with_a_spike(now: i64) -> Vec<CorpusHit> {
    let mut hits = corpus(now, TimeRange::parse("24h", now).unwrap().start);
    for i in 0..60u8 {
        let body = json!({"url": "https://shop.example.com/launch"});
        hits.push(CorpusHit { visitor: 100 + i, ts: now - 10 * MINUTE + i as i64 * 1000, body });
    }
    hits.sort_by_key(|hit| hit.ts);
    hits
}

/// `tracker email ARGS` on the data folder `data` with the settings `env`: how it ended.
async fn email_cli(data: &Path, env: &[(&'static str, String)], args: &[&str]) -> Output {
    let (cli, env) = (Cli::new(data), env.to_vec());
    let args: Vec<String> = ["email"].iter().chain(args).map(|arg| arg.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        cli.command(&args).envs(env).output().unwrap()
    })
    .await
    .unwrap()
}

/// `tracker email run --now NOW --json` on the data folder `data` with the settings `env`; its report.
async fn email_run(data: &Path, env: &[(&'static str, String)], now: i64) -> Value {
    let now = chrono::DateTime::from_timestamp_millis(now).unwrap().to_rfc3339();
    let out = email_cli(data, env, &["run", "--now", &now, "--json"]).await;
    assert!(out.status.success(), "tracker email run: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A SQLite tracker of its own that sends the sink's marker message (the sink's `received` needs one).
async fn marker_sender(sink: &SmtpSink, dir: &Path) -> Tracker {
    let config = Config { data_dir: dir.to_path_buf(), smtp_url: Some(sink.url()), ..Config::default() };
    tokio::task::spawn_blocking(move || Tracker::open(&config)).await.unwrap().unwrap()
}

/// Subject, text and HTML of each message, the site's id in its dashboard links set aside, by subject.
fn comparable_messages(messages: &[Value], site: &Value) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = messages
        .iter()
        .map(|m| {
            assert_eq!(m["to"], json!(["owner@example.com"]), "{m}");
            let (_, subject, text, html) = comparable_message(m, site);
            (subject, text, html)
        })
        .collect();
    out.sort();
    out
}

/// Recipients, subject, text and HTML of a message, the site's id in its dashboard links set aside (each store
/// numbers its sites its own way).
fn comparable_message(message: &Value, site: &Value) -> (Value, String, String, String) {
    let id = format!("website={}&", site["id"]);
    let part = |name: &str| message[name].as_str().unwrap().replace(&id, "website=ID&");
    (message["to"].clone(), part("subject"), part("text"), part("html"))
}

#[tokio::test]
async fn the_cluster_sends_the_weekly_report_and_the_spike_alert_sqlite_sends_for_the_same_hits() {
    let Some((pg, ch)) = harness() else { return };
    let mut sink = SmtpSink::start();
    let now = tracker_core::model::now_ms();
    let setup = Setup::start(pg, ch, "light", &hits_with_a_spike(now)).await;
    for (server, token) in [(&setup.a, &setup.token), (&setup.sqlite, &setup.sqlite_token)] {
        vouch(server, "owner@example.com").await;
        let on = server.put("/api/user/notifications", token, json!({"realTimeAlerts": true})).await;
        assert_eq!(on.json["realTimeAlerts"], true, "{}", on.text);
    }
    let mail = vec![("TRACKER_SMTP_URL", sink.url()), ("TRACKER_PUBLIC_URL", PUBLIC_URL.to_string())];
    let cluster_env: Vec<_> = setup.corner.env().into_iter().chain(mail.clone()).collect();
    let (cluster_data, marker_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let marker = marker_sender(&sink, marker_dir.path()).await;
    // Now: the spike's alert. Monday after this week: this week's report (the corpus's hits) against the week
    // before (the hits of the corpus before Monday, if any).
    let monday = week_start(now) + WEEK + 6 * HOUR;

    let sqlite_data = setup.sqlite.dir.path().join("data");
    let sqlite_runs = [email_run(&sqlite_data, &mail, now).await, email_run(&sqlite_data, &mail, monday).await];
    let sqlite_messages = sink.received(&marker).await;
    let cluster_runs = [
        email_run(cluster_data.path(), &cluster_env, now).await,
        email_run(cluster_data.path(), &cluster_env, monday).await,
    ];
    let cluster_messages = sink.received(&marker).await;

    // What SQLite sends is what the test must see: the alert, then the report.
    assert_eq!(sqlite_runs[0]["alertsSent"], 1, "{sqlite_runs:?}");
    assert_eq!(sqlite_runs[1]["reportsSent"], 1, "{sqlite_runs:?}");
    let expected = comparable_messages(&sqlite_messages, &setup.sqlite_site);
    assert!(expected.iter().any(|(subject, ..)| subject.starts_with("Traffic spike on Shop: ")), "{expected:#?}");
    assert!(expected.iter().any(|(subject, ..)| subject.starts_with("Weekly report for Shop: ")), "{expected:#?}");
    let alert = &expected.iter().find(|(subject, ..)| subject.starts_with("Traffic spike")).unwrap().1;
    assert!(alert.lines().any(|l| l == "  /launch: 60"), "{alert}");
    assert_eq!(cluster_runs, sqlite_runs);
    assert_eq!(comparable_messages(&cluster_messages, &setup.site), expected);

    // Both engines mark the spike on the site's chart once, in the same words (issue 37).
    let marks = |answer: crate::util::Answer| -> Vec<(Value, Value, Value)> {
        let list = answer.json.as_array().unwrap_or_else(|| panic!("a list: {}", answer.text)).clone();
        list.iter().map(|a| (a["date"].clone(), a["text"].clone(), a["source"].clone())).collect()
    };
    let path = |site: &Value| format!("/api/websites/{}/annotations", site["id"]);
    let sqlite_marks = marks(setup.sqlite.get(&path(&setup.sqlite_site), &setup.sqlite_token).await);
    assert_eq!(sqlite_marks.len(), 1, "{sqlite_marks:?}");
    assert_eq!(sqlite_marks[0].2, "spike");
    assert!(sqlite_marks[0].1.as_str().unwrap().starts_with("Traffic spike: "), "{sqlite_marks:?}");
    assert_eq!(marks(setup.a.get(&path(&setup.site), &setup.token).await), sqlite_marks);
}

/// Counts an account's address as confirmed on the operator's word (these tests are about what is sent, and
/// the Setup's accounts sign up where email is not configured, so no link was mailed).
async fn vouch(server: &TestServer, email: &str) {
    let tracker = server.tracker.clone();
    let email = email.to_string();
    tokio::task::spawn_blocking(move || tracker.auth.vouch_for_email(tracker.auth.find_user(&email)?.id))
        .await
        .unwrap()
        .unwrap();
}

/// The count a report's text part gives on the line starting with `label` ("Page views: 12 (previous ...").
fn figure(text: &str, label: &str) -> i64 {
    let line = text.lines().find_map(|l| l.strip_prefix(label)).unwrap_or_else(|| panic!("no {label:?} in {text}"));
    line.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{label:?}: {line}"))
}

#[tokio::test]
async fn the_report_and_test_commands_send_from_the_cluster_what_they_send_from_a_data_folder() {
    let Some((pg, ch)) = harness() else { return };
    let mut sink = SmtpSink::start();
    let now = tracker_core::model::now_ms();
    let hits = corpus(now, TimeRange::parse("24h", now).unwrap().start);
    let setup = Setup::start(pg, ch, "light", &hits).await;
    let mail = vec![("TRACKER_SMTP_URL", sink.url()), ("TRACKER_PUBLIC_URL", PUBLIC_URL.to_string())];
    let cluster_env: Vec<_> = setup.corner.env().into_iter().chain(mail.clone()).collect();
    let (cluster_data, marker_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let marker = marker_sender(&sink, marker_dir.path()).await;
    let sqlite_data = setup.sqlite.dir.path().join("data");
    // A day of the week holding most of the corpus (should its day cross a Monday, the rest is the week before,
    // which the report compares with).
    let middle = chrono::DateTime::from_timestamp_millis(hits[hits.len() / 2].ts).unwrap();
    let week = middle.format("%Y-%m-%d").to_string();
    let next_week = (middle + chrono::Duration::days(7)).format("%Y-%m-%d").to_string();

    let (mut sent, mut refusals) = (Vec::new(), Vec::new());
    for (data, env, site) in
        [(sqlite_data.as_path(), &mail, &setup.sqlite_site), (cluster_data.path(), &cluster_env, &setup.site)]
    {
        // A site that is not there: by id and by domain. Before the others, so that a message it sent by
        // mistake would be among those compared below.
        let mut refused = Vec::new();
        for missing in ["999999", "nowhere.example.com"] {
            let out = email_cli(data, env, &["report", "--site", missing, "--to", "ops@example.com"]).await;
            refused.push((out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()));
        }
        refusals.push(refused);
        let id = site["id"].to_string();
        for args in [
            vec!["report", "--site", &id, "--to", "ops@example.com", "--week", &week],
            // Compared with that week.
            vec!["report", "--site", &id, "--to", "ops@example.com", "--week", &next_week],
            // By domain, and last week (the default).
            vec!["report", "--site", "shop.example.com", "--to", "ops@example.com"],
            vec!["test", "--to", "ops@example.com"],
        ] {
            let out = email_cli(data, env, &args).await;
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(String::from_utf8_lossy(&out.stdout), "sent\n", "{args:?}");
        }
        let messages = sink.received(&marker).await;
        sent.push(messages.iter().map(|m| comparable_message(m, site)).collect::<Vec<_>>());
    }

    // What the data folder sends is what the test must see: the week's report with its figures, the next
    // week's with them as the week before, last week's, and the test message, each to the address given.
    let expected = &sent[0];
    assert_eq!(expected.len(), 4, "{expected:#?}");
    assert!(expected.iter().all(|(to, ..)| *to == json!(["ops@example.com"])), "{expected:#?}");
    let (_, subject, text, _) = &expected[0];
    let (visitors, page_views) = (figure(text, "Visitors: "), figure(text, "Page views: "));
    assert!(subject.starts_with(&format!("Weekly report for Shop: {visitors} visitors")), "{subject}");
    assert!(visitors > 0 && page_views > 0, "{text}");
    assert!(!text.contains("none this week"), "top pages and sources: {text}");
    let next = &expected[1].2;
    assert!(next.contains(&format!("\nVisitors: 0 (previous week {visitors}, -100%)")), "{next}");
    assert!(next.contains(&format!("\nPage views: 0 (previous week {page_views}, -100%)")), "{next}");
    assert!(expected[2].1.starts_with("Weekly report for Shop: "), "{expected:#?}");
    assert_eq!(expected[3].1, "tracker test message");
    assert_eq!(sent[1], *expected);

    // The same clear error on both: exit code and message.
    for ((code, stderr), missing) in refusals[0].iter().zip(["999999", "nowhere.example.com"]) {
        assert_eq!(*code, Some(1), "{stderr}");
        assert!(stderr.starts_with(&format!("error: unknown site '{missing}'")), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert_eq!(refusals[1], refusals[0]);
}

/// A daemon of `corner` mailing to `sink`.
async fn mailing_daemon(corner: &Corner, sink: &SmtpSink) -> TestServer {
    let (postgres_url, ch, name, smtp) = (corner.postgres_url(), corner.ch.clone(), corner.name.clone(), sink.url());
    TestServer::start_with(move |config| {
        config.postgres_url = Some(postgres_url);
        config.clickhouse_url = Some(ch);
        config.clickhouse_database = Some(name);
        config.smtp_url = Some(smtp);
        config.public_url = Some(PUBLIC_URL.into());
        crate::cluster::cluster_keys(config);
    })
    .await
}

#[tokio::test]
async fn daemons_running_the_schedule_at_the_same_time_send_each_email_once() {
    let Some((pg, ch)) = harness() else { return };
    let mut sink = SmtpSink::start();
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (mailing_daemon(&corner, &sink).await, mailing_daemon(&corner, &sink).await);
    let token = register_verified(&a, &mut sink, "owner@example.com").await;
    let site = a.create_site(&token, "Shop", "light").await;
    let on = b.put("/api/user/notifications", &token, json!({"realTimeAlerts": true})).await;
    assert_eq!(on.json["realTimeAlerts"], true, "{}", on.text);
    let now = tracker_core::model::now_ms();
    let key = site["trackingKey"].as_str().unwrap();
    for (i, hit) in hits_with_a_spike(now).iter().enumerate() {
        send_corpus_hit(if i % 2 == 0 { &a } else { &b }, key, hit).await;
    }

    // Four runs at once, two on each daemon, each at its own clock a second apart (alerts are keyed by their
    // clock, so only the quiet period keeps the later ones out); then four at Monday's clock for the report.
    let monday = week_start(now) + WEEK + 6 * HOUR;
    let mut sent = RunReport::default();
    for at in [now, monday] {
        let runs =
            [(&a, at), (&b, at + 1_000), (&a, at + 2_000), (&b, at + 3_000)].map(|(d, t)| run_due(&d.tracker, t));
        for report in futures_util::future::join_all(runs).await {
            sent.reports_sent += report.reports_sent;
            sent.alerts_sent += report.alerts_sent;
            sent.refused += report.refused;
        }
    }
    // And the command from cron on top: nothing is left to send.
    let cli_data = tempfile::tempdir().unwrap();
    let mail = vec![("TRACKER_SMTP_URL", sink.url())];
    let env: Vec<_> = corner.env().into_iter().chain(mail).collect();
    let again = email_run(cli_data.path(), &env, monday + 4_000).await;
    assert_eq!(again, json!({"reportsSent": 0, "alertsSent": 0, "refused": 0}));

    assert_eq!(sent, RunReport { reports_sent: 1, alerts_sent: 1, refused: 0 });
    let messages = sink.received(&a.tracker).await;
    let subjects: Vec<&str> = messages.iter().map(|m| m["subject"].as_str().unwrap()).collect();
    assert_eq!(subjects.len(), 2, "{subjects:?}");
    assert!(subjects.iter().any(|s| s.starts_with("Traffic spike on Shop: ")), "{subjects:?}");
    assert!(subjects.iter().any(|s| s.starts_with("Weekly report for Shop: ")), "{subjects:?}");
}
