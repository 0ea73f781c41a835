//! Email reports and alerts for a site's members (issue 37) against a real SMTP server (aiosmtpd, as
//! `email.rs` runs it): a member who asked for the site's report and alerts gets them, one who did not and one
//! removed do not, each once; the owner's still follow the account's switches. The choice is the member's own,
//! through `/api/websites/{id}/members/me/notifications`.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tracker_core::email::{RunReport, week_start};

use crate::email::{
    SmtpSink, burst, message_to, owner_with_site, register_verified, run_due, server_mailing, views_at,
};
use crate::util::TestServer;

const DAY: i64 = 86_400_000;
const WEEK: i64 = 7 * DAY;

/// Makes the verified account `token` (address `email`) a member of `site` with `role`: the owner invites it
/// (the invitation is mailed), and it accepts from its invitations (its address is confirmed).
async fn join(server: &TestServer, sink: &mut SmtpSink, owner: &str, site: i64, email: &str, token: &str, role: &str) {
    let invited =
        server.post(&format!("/api/websites/{site}/members"), owner, json!({"email": email, "role": role})).await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    assert_eq!(invited.json["emailed"], true, "{}", invited.text);
    let mailed = sink.received(&server.tracker).await;
    assert!(message_to(&mailed, email)["subject"].as_str().is_some());
    let id = invited.json["id"].as_i64().unwrap();
    let accepted = server.post(&format!("/api/user/invitations/{id}/accept"), token, json!({})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
}

fn recipients(messages: &[Value]) -> Vec<String> {
    let mut to: Vec<String> = messages.iter().map(|m| m["to"][0].as_str().unwrap().to_string()).collect();
    to.sort();
    to
}

#[tokio::test]
async fn members_who_asked_get_the_sites_report_and_alert_and_the_others_nothing() {
    let mut sink = SmtpSink::start();
    let server = server_mailing(&sink).await;
    let (alice, shop, site) =
        owner_with_site(&server, &mut sink, "alice@example.com", "Shop", "shop.example.com").await;
    let on = server.put("/api/user/notifications", &alice, json!({"realTimeAlerts": true})).await;
    assert_eq!(on.json["realTimeAlerts"], true, "{}", on.text);
    let bob = register_verified(&server, &mut sink, "bob@example.com").await;
    let carol = register_verified(&server, &mut sink, "carol@example.com").await;
    let dave = register_verified(&server, &mut sink, "dave@example.com").await;
    let eve = register_verified(&server, &mut sink, "eve@example.com").await;
    join(&server, &mut sink, &alice, site, "bob@example.com", &bob, "viewer").await;
    join(&server, &mut sink, &alice, site, "carol@example.com", &carol, "editor").await;
    join(&server, &mut sink, &alice, site, "dave@example.com", &dave, "admin").await;

    // Each member's own choice, both off at first; the owner's are the account's switches.
    let mine = format!("/api/websites/{site}/members/me/notifications");
    let fresh = server.get(&mine, &carol).await;
    assert_eq!(fresh.json, json!({"reports": false, "alerts": false, "followsAccount": false}), "{}", fresh.text);
    let owner = server.get(&mine, &alice).await;
    assert_eq!(owner.json, json!({"reports": true, "alerts": true, "followsAccount": true}), "{}", owner.text);
    let chosen = server.put(&mine, &bob, json!({"reports": true, "alerts": true})).await;
    assert_eq!(chosen.json, json!({"reports": true, "alerts": true, "followsAccount": false}), "{}", chosen.text);
    let half = server.put(&mine, &dave, json!({"alerts": true})).await;
    assert_eq!(half.json, json!({"reports": false, "alerts": true, "followsAccount": false}), "{}", half.text);
    let half = server.put(&mine, &dave, json!({"reports": true})).await;
    assert_eq!(half.json, json!({"reports": true, "alerts": true, "followsAccount": false}), "{}", half.text);
    // Bad input is a 400, the owner's choice is the account's (409), a stranger finds no site (404).
    for body in [json!({"reports": "yes"}), json!({"weekly": true})] {
        let bad = server.put(&mine, &bob, body).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
        assert!(bad.json["error"]["message"].is_string(), "{}", bad.text);
    }
    let owners = server.put(&mine, &alice, json!({"reports": false})).await;
    assert_eq!(owners.status, StatusCode::CONFLICT, "{}", owners.text);
    for answer in [server.get(&mine, &eve).await, server.put(&mine, &eve, json!({"reports": true})).await] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    }
    // Dave asked for both, then is removed: he gets neither.
    let removed = server
        .delete(
            &format!("/api/websites/{site}/members/{}", member_id(&server, &alice, site, "dave@example.com").await),
            &alice,
        )
        .await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text);
    assert_eq!(server.get(&mine, &dave).await.status, StatusCode::NOT_FOUND);

    // The week two weeks back had page views: Monday's run sends its report to Alice and Bob, once each.
    let week = week_start(chrono::Utc::now().timestamp_millis()) - 2 * WEEK;
    views_at(&server, &shop, week + 2 * DAY, &[("203.0.113.1", "s1", "/", ""), ("203.0.113.2", "s2", "/a", "")]).await;
    let monday = week + WEEK + 3_600_000;
    assert_eq!(run_due(&server.tracker, monday).await, RunReport { reports_sent: 2, alerts_sent: 0, refused: 0 });
    assert_eq!(run_due(&server.tracker, monday + 300_000).await, RunReport::default());
    let reports = sink.received(&server.tracker).await;
    assert_eq!(recipients(&reports), ["alice@example.com", "bob@example.com"], "{reports:#?}");
    let bobs = message_to(&reports, "bob@example.com");
    assert_eq!(bobs["subject"], message_to(&reports, "alice@example.com")["subject"]);
    let text = bobs["text"].as_str().unwrap();
    assert!(text.contains("you asked for this site's weekly report"), "{text}");
    assert!(message_to(&reports, "alice@example.com")["text"].as_str().unwrap().contains("Weekly Reports are on"));

    // A spike now: the alert goes to Alice and Bob, each once, and the chart is marked once.
    let now = chrono::Utc::now().timestamp_millis();
    burst(&server, &shop, now - 600_000, 60, "/launch").await;
    assert_eq!(run_due(&server.tracker, now).await, RunReport { reports_sent: 0, alerts_sent: 2, refused: 0 });
    assert_eq!(run_due(&server.tracker, now + 300_000).await, RunReport::default());
    let alerts = sink.received(&server.tracker).await;
    assert_eq!(recipients(&alerts), ["alice@example.com", "bob@example.com"], "{alerts:#?}");
    let text = message_to(&alerts, "bob@example.com")["text"].as_str().unwrap();
    assert!(text.contains("you asked for this site's traffic alerts"), "{text}");
    let marks = server.get(&format!("/api/websites/{site}/annotations"), &alice).await;
    assert_eq!(marks.json.as_array().map(Vec::len), Some(1), "{}", marks.text);
}

/// The account id of a member of `site` by its address, from the members' list.
async fn member_id(server: &TestServer, owner: &str, site: i64, email: &str) -> i64 {
    let team = server.get(&format!("/api/websites/{site}/members"), owner).await;
    let members = team.json["members"].as_array().unwrap();
    members.iter().find(|m| m["email"] == email).unwrap()["memberId"].as_i64().unwrap()
}
