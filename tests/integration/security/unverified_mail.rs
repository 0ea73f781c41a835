//! Finding 4 of issue 33: any account could make the operator's SMTP send attacker-worded mail (a site named
//! like a phishing subject, a traffic spike) to any address, with addresses such as `x@@example.com` accepted
//! and sites (each a subject line) made without end. Addresses are checked strictly now, the websites of an
//! account are capped (`max_sites_per_account`, default 100) through the API and the CLI alike, and no report
//! or alert goes to an address until its owner follows the link mailed to it: at sign-up (with email
//! configured) and after every change. The link's token is kept only as a hash, works once, for 24 hours, for
//! the address it was mailed to, and travels after `#` so that no server log sees it.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tracker_core::Config;
use tracker_core::email::{RunReport, week_start};

use crate::cli::Cli;
use crate::email::{SmtpSink, burst, run_due, server_mailing, views_at};
use crate::util::TestServer;

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;
const WEEK: i64 = 7 * DAY;
const SUBJECT: &str = "Confirm your email address for tracker";

/// The token of the one verification mail to `to` among `messages`, checking what the mail says and holds.
fn link_token(messages: &[Value], to: &str) -> String {
    let mails: Vec<&Value> = messages.iter().filter(|m| m["to"] == json!([to])).collect();
    assert_eq!(mails.len(), 1, "one verification mail to {to}: {messages:#?}");
    assert_eq!(mails[0]["subject"], SUBJECT, "{:#?}", mails[0]);
    let text = mails[0]["text"].as_str().unwrap();
    let start = text.find("https://stats.example.com/verify-email#token=").unwrap_or_else(|| panic!("{text}"));
    let token: String =
        text[start..].split_once("#token=").unwrap().1.chars().take_while(|c| !c.is_whitespace()).collect();
    assert_eq!(token.len(), 43, "256 random bits: {token}");
    token
}

/// Follows a link: posts its token as the dashboard's /verify-email page does, signed in or not.
async fn follow(server: &TestServer, token: &str) -> crate::util::Answer {
    server.call(Method::POST, "/api/user/email/verify", None, Some(json!({"token": token}))).await
}

async fn verified(server: &TestServer, token: &str) -> bool {
    let me = server.get("/api/user", token).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    let settings = server.get("/api/user/settings", token).await;
    assert_eq!(settings.json["profile"]["emailVerified"], me.json["emailVerified"], "{}", settings.text);
    me.json["emailVerified"].as_bool().unwrap_or_else(|| panic!("no emailVerified: {}", me.text))
}

/// A site of the account named like a phishing subject, with Real-time Alerts on: its tracking key.
async fn phishing_site(server: &TestServer, token: &str) -> String {
    let body = json!({"name": "Your account is locked, sign in at evil.example", "domain": "evil.example.com"});
    let site = server.post("/api/websites", token, body).await;
    assert_eq!(site.status, StatusCode::CREATED, "{}", site.text);
    let on = server.put("/api/user/notifications", token, json!({"realTimeAlerts": true})).await;
    assert_eq!(on.json["realTimeAlerts"], true, "{}", on.text);
    site.json["trackingKey"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_new_account_gets_no_report_or_alert_until_the_link_mailed_to_it_is_followed() {
    let mut sink = SmtpSink::start();
    let server = server_mailing(&sink).await;
    let (token, _) = server.register("victim@example.com").await;
    let link = link_token(&sink.received(&server.tracker).await, "victim@example.com");
    assert!(!verified(&server, &token).await, "a new account is unverified");
    let key = phishing_site(&server, &token).await;

    // Last week's Monday 06:00: the week before it had page views (a report is due) and the last ten minutes
    // had 60 (a spike).
    let monday = week_start(chrono::Utc::now().timestamp_millis()) - WEEK + 6 * HOUR;
    views_at(&server, &key, monday - 5 * DAY + 3 * HOUR, &[("203.0.113.1", "w1", "/", "")]).await;
    burst(&server, &key, monday - 10 * 60_000, 60, "/login").await;
    assert_eq!(run_due(&server.tracker, monday).await, RunReport::default(), "nothing to an unverified address");
    assert!(sink.received(&server.tracker).await.is_empty());

    let confirmed = follow(&server, &link).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    assert_eq!(confirmed.json, json!({"email": "victim@example.com", "emailVerified": true}));
    assert!(verified(&server, &token).await);
    let sent = run_due(&server.tracker, monday + 60_000).await;
    assert_eq!(sent, RunReport { reports_sent: 1, alerts_sent: 1, refused: 0 });
    let messages = sink.received(&server.tracker).await;
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(messages.iter().all(|m| m["to"] == json!(["victim@example.com"])), "{messages:#?}");

    // The link works once.
    let again = follow(&server, &link).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "{}", again.text);
    assert!(again.error_message().contains("not valid"), "{}", again.text);
}

#[tokio::test]
async fn a_changed_address_is_unverified_again_and_an_old_link_cannot_verify_it() {
    let mut sink = SmtpSink::start();
    let server = server_mailing(&sink).await;
    let (token, _) = server.register("ann@example.com").await;
    let first = link_token(&sink.received(&server.tracker).await, "ann@example.com");
    let key = phishing_site(&server, &token).await;
    // Alerts only: a week boundary between the runs below would make a report due too.
    let off = server.put("/api/user/notifications", &token, json!({"weeklyReports": false})).await;
    assert_eq!(off.json["weeklyReports"], false, "{}", off.text);
    let change = |to: &str| json!({"newEmail": to, "currentPassword": "secret1"});

    // Changed before the first link was followed: that link cannot verify the new address.
    let changed = server.put("/api/user/email", &token, change("bob@example.com")).await;
    assert_eq!(changed.json, json!({"email": "bob@example.com", "emailVerified": false}), "{}", changed.text);
    let second = link_token(&sink.received(&server.tracker).await, "bob@example.com");
    let stale = follow(&server, &first).await;
    assert_eq!(stale.status, StatusCode::BAD_REQUEST, "{}", stale.text);
    assert!(stale.error_message().contains("not valid"), "{}", stale.text);
    assert!(!verified(&server, &token).await);
    assert_eq!(follow(&server, &second).await.json["email"], "bob@example.com");
    assert!(verified(&server, &token).await);

    let now = chrono::Utc::now().timestamp_millis() - DAY;
    burst(&server, &key, now - 10 * 60_000, 60, "/").await;
    assert_eq!(run_due(&server.tracker, now).await.alerts_sent, 1, "a verified address gets its alert");

    // A verified address changed is unverified again, and the link that verified the old one does nothing.
    let changed = server.put("/api/user/email", &token, change("carol@example.com")).await;
    assert_eq!(changed.json["emailVerified"], false, "{}", changed.text);
    assert!(!verified(&server, &token).await);
    assert_eq!(follow(&server, &second).await.status, StatusCode::BAD_REQUEST);
    let later = now + 7 * HOUR;
    burst(&server, &key, later - 10 * 60_000, 60, "/").await;
    assert_eq!(run_due(&server.tracker, later).await, RunReport::default(), "nothing to the unverified address");
    let messages = sink.received(&server.tracker).await;
    let alerts: Vec<&Value> = messages.iter().filter(|m| m["subject"] != SUBJECT).collect();
    assert_eq!(alerts.len(), 1, "{messages:#?}");
    assert_eq!(alerts[0]["to"], json!(["bob@example.com"]));
    let third = link_token(&messages, "carol@example.com");
    assert_eq!(follow(&server, &third).await.status, StatusCode::OK);
    assert_eq!(run_due(&server.tracker, later + 60_000).await.alerts_sent, 1);
    let messages = sink.received(&server.tracker).await;
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert_eq!(messages[0]["to"], json!(["carol@example.com"]));
}

#[tokio::test]
async fn a_bad_or_expired_link_is_a_400_and_no_stored_value_is_a_usable_link() {
    let mut sink = SmtpSink::start();
    let server = server_mailing(&sink).await;
    let (token, _) = server.register("dana@example.com").await;
    let link = link_token(&sink.received(&server.tracker).await, "dana@example.com");

    // The database holds the link's hash, never the token (nor its base64 bytes).
    let data = server.dir.path().join("data");
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            assert!(!bytes.windows(link.len()).any(|w| w == link.as_bytes()), "the token in {}", path.display());
        }
    }

    for bad in [json!({"token": "nonsense"}), json!({"token": ""}), json!({"token": "x".repeat(5000)}), json!({})] {
        let answer = server.call(Method::POST, "/api/user/email/verify", None, Some(bad.clone())).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    let mut forged = link.clone();
    forged.replace_range(..1, if link.starts_with('A') { "B" } else { "A" });
    assert_eq!(follow(&server, &forged).await.status, StatusCode::BAD_REQUEST);

    // A day later the link has expired (its stored expiry moved back, as the clock would move on).
    let db = rusqlite::Connection::open(data.join("tracker.db")).unwrap();
    db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
    let moved = db
        .execute("UPDATE users SET email_token_expires_at = email_token_expires_at - 86400001 WHERE email = 'dana@example.com'", [])
        .unwrap();
    assert_eq!(moved, 1);
    let expired = follow(&server, &link).await;
    assert_eq!(expired.status, StatusCode::BAD_REQUEST, "{}", expired.text);
    assert!(expired.error_message().contains("expired"), "{}", expired.text);
    assert!(!verified(&server, &token).await);

    // A new link replaces it; five an hour (the sign-up's counted), then 429.
    let server = &server;
    let resend = move |token: String| async move {
        server.call(Method::POST, "/api/user/email/verification", Some(&token), None).await
    };
    for _ in 0..4 {
        let sent = resend(token.clone()).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    }
    let limited = resend(token.clone()).await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS, "{}", limited.text);
    let messages = sink.received(&server.tracker).await;
    assert_eq!(messages.len(), 4, "{messages:#?}");
    let latest = link_token(&messages[3..], "dana@example.com");
    assert_eq!(follow(server, &link_token(&messages[..1], "dana@example.com")).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(follow(server, &latest).await.status, StatusCode::OK);
    let done = resend(token.clone()).await;
    assert_eq!(done.status, StatusCode::CONFLICT, "{}", done.text);
    assert!(done.error_message().contains("already verified"), "{}", done.text);

    // The link's page is the dashboard's.
    let page = server.client.get(server.url("/verify-email")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
}

#[tokio::test]
async fn without_email_configured_nothing_is_mailed_and_an_account_stays_unverified() {
    let server = TestServer::start().await;
    let (token, _) = server.register("quiet@example.com").await;
    assert!(!verified(&server, &token).await);
    let resend = server.call(Method::POST, "/api/user/email/verification", Some(&token), None).await;
    assert_eq!(resend.status, StatusCode::BAD_REQUEST, "{}", resend.text);
    assert!(resend.error_message().contains("not configured"), "{}", resend.text);
    // An account the operator made is verified on their word.
    server.tracker.auth.create_user("staff@example.com", "secret1").unwrap();
    let login = server
        .call(Method::POST, "/api/login", None, Some(json!({"email": "staff@example.com", "password": "secret1"})))
        .await;
    let staff = login.json["accessToken"].as_str().unwrap().to_string();
    assert!(verified(&server, &staff).await);
}

#[tokio::test]
async fn an_address_with_two_at_signs_is_refused() {
    let server = TestServer::start().await;
    for bad in ["x@@example.com", "x@y@example.com", "x..y@example.com", "x@exa_mple.com"] {
        let body = json!({"email": bad, "password": "secret1"});
        let answer = server.call(Method::POST, "/api/register", None, Some(body)).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        assert_eq!(answer.error_message(), "please enter a valid email address");
    }
    let (token, _) = server.register("real@example.com").await;
    let change = json!({"newEmail": "x@@example.com", "currentPassword": "secret1"});
    let answer = server.put("/api/user/email", &token, change).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
    let cli = Cli::new(&server.dir.path().join("data"));
    let error = cli.fails(&["users", "add", "x@@example.com", "--password", "secret1"]);
    assert!(error.contains("valid email address"), "{error}");
}

#[tokio::test]
async fn websites_per_account_are_capped_through_the_api_and_the_cli() {
    assert_eq!(Config::default().max_sites_per_account, 100);
    let server = TestServer::start_with(|config| config.max_sites_per_account = 3).await;
    let (token, _) = server.register("many@example.com").await;
    let mut ids = Vec::new();
    for n in 0..3 {
        ids.push(server.create_site(&token, &format!("Site{n}"), "light").await["id"].clone());
    }
    let body = json!({"name": "Fourth", "domain": "fourth.example.com"});
    let refused = server.post("/api/websites", &token, body.clone()).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert!(refused.error_message().contains("at most 3 websites"), "{}", refused.text);

    let cli = Cli::new(&server.dir.path().join("data"));
    let args = ["sites", "add", "--name", "Fourth", "--domain", "fourth.example.com", "--owner", "many@example.com"];
    let out = cli.command(&args).env("TRACKER_MAX_SITES_PER_ACCOUNT", "3").output().unwrap();
    assert!(!out.status.success());
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("at most 3 websites"), "{error}");
    assert_eq!(server.get("/api/websites", &token).await.json.as_array().unwrap().len(), 3);

    // Another account has its own allowance, and a deleted site frees a place.
    let (other, _) = server.register("other@example.com").await;
    server.create_site(&other, "Theirs", "light").await;
    let deleted = server.delete(&format!("/api/websites/{}", ids[0]), &token).await;
    assert!(deleted.status.is_success(), "{}", deleted.text);
    let again = server.post("/api/websites", &token, body).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
}
