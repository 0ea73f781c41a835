//! Team members (issue 37) as an attacker with an account would try them: a viewer raising their own role, an
//! admin making someone owner or touching the owner, an invitation taken by another account (with its id, with
//! its link), a removed or lowered member keeping what they had, a stranger learning a site exists, an API
//! key doing more than its account's role, and a site's hand-over taken by anyone but its owner.

use reqwest::StatusCode;
use serde_json::json;

use crate::roles::join;
use crate::util::TestServer;

/// A site of `owner@…` with `member@…` in `role`: (server, owner's token, member's token, member's id, site).
async fn team(role: &str) -> (TestServer, String, String, i64, i64) {
    let server = TestServer::start().await;
    let (owner, _) = server.register("owner@example.com").await;
    let (member, answer) = server.register("member@example.com").await;
    let site = server.create_site(&owner, "Shop", "professional").await["id"].as_i64().unwrap();
    join(&server, &owner, site, "member@example.com", role, &member).await;
    (server, owner, member, answer["user"]["id"].as_i64().unwrap(), site)
}

fn role_on(list: &serde_json::Value, site: i64) -> Option<String> {
    let sites = list.as_array()?;
    sites.iter().find(|s| s["id"] == site).map(|s| s["role"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn a_viewer_cannot_raise_their_own_role() {
    let (server, _, viewer, viewer_id, site) = team("viewer").await;
    for role in ["admin", "editor", "owner"] {
        let raised =
            server.put(&format!("/api/websites/{site}/members/{viewer_id}"), &viewer, json!({"role": role})).await;
        assert_eq!(raised.status, StatusCode::FORBIDDEN, "{role}: {}", raised.text);
        raised.error_message();
    }
    // Nor by inviting themselves again with a higher role, nor by changing the site.
    let invited = server
        .post(
            &format!("/api/websites/{site}/members"),
            &viewer,
            json!({"email": "member@example.com", "role": "admin"}),
        )
        .await;
    assert_eq!(invited.status, StatusCode::FORBIDDEN, "{}", invited.text);
    let renamed = server.put(&format!("/api/websites/{site}"), &viewer, json!({"name": "Mine now"})).await;
    assert_eq!(renamed.status, StatusCode::FORBIDDEN, "{}", renamed.text);
    let list = server.get("/api/websites", &viewer).await;
    assert_eq!(role_on(&list.json, site).as_deref(), Some("viewer"), "{}", list.text);
    // An admin cannot change their own role either (not even down).
    let (server, _, admin, admin_id, site) = team("admin").await;
    let lowered =
        server.put(&format!("/api/websites/{site}/members/{admin_id}"), &admin, json!({"role": "viewer"})).await;
    assert_eq!(lowered.status, StatusCode::FORBIDDEN, "{}", lowered.text);
}

#[tokio::test]
async fn an_admin_cannot_make_an_owner_nor_touch_the_owner() {
    let (server, owner, admin, _, site) = team("admin").await;
    let (other, other_answer) = server.register("other@example.com").await;
    join(&server, &owner, site, "other@example.com", "viewer", &other).await;
    let other_id = other_answer["user"]["id"].as_i64().unwrap();
    let made = server.put(&format!("/api/websites/{site}/members/{other_id}"), &admin, json!({"role": "owner"})).await;
    assert!(made.status.is_client_error(), "{}", made.text);
    made.error_message();
    let invited = server
        .post(&format!("/api/websites/{site}/members"), &admin, json!({"email": "x@example.com", "role": "owner"}))
        .await;
    assert_eq!(invited.status, StatusCode::BAD_REQUEST, "{}", invited.text);
    let owner_id = server.get(&format!("/api/websites/{site}/members"), &owner).await.json["members"][0]["memberId"]
        .as_i64()
        .unwrap();
    let demoted =
        server.put(&format!("/api/websites/{site}/members/{owner_id}"), &admin, json!({"role": "viewer"})).await;
    assert_eq!(demoted.status, StatusCode::FORBIDDEN, "{}", demoted.text);
    let removed = server.delete(&format!("/api/websites/{site}/members/{owner_id}"), &admin).await;
    assert_eq!(removed.status, StatusCode::FORBIDDEN, "{}", removed.text);
    let deleted = server.delete(&format!("/api/websites/{site}"), &admin).await;
    assert_eq!(deleted.status, StatusCode::FORBIDDEN, "{}", deleted.text);
    let members = server.get(&format!("/api/websites/{site}/members"), &owner).await;
    let roles: Vec<_> = members.json["members"].as_array().unwrap().iter().map(|m| m["role"].clone()).collect();
    assert_eq!(roles, [json!("owner"), json!("admin"), json!("viewer")], "{}", members.text);
}

#[tokio::test]
async fn an_invitation_cannot_be_accepted_by_another_account() {
    let server = TestServer::start().await;
    let (owner, _) = server.register("owner@example.com").await;
    let (invited, _) = server.register("invited@example.com").await;
    let (thief, _) = server.register("thief@example.com").await;
    let site = server.create_site(&owner, "Shop", "light").await["id"].as_i64().unwrap();
    let created = server
        .post(
            &format!("/api/websites/{site}/members"),
            &owner,
            json!({"email": "invited@example.com", "role": "editor"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let id = created.json["id"].as_i64().unwrap();
    let token = created.json["link"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    // The thief has the id and even the link: neither opens an invitation made out to another address.
    for body in [json!({}), json!({"token": token})] {
        let taken = server.post(&format!("/api/user/invitations/{id}/accept"), &thief, body).await;
        assert_eq!(taken.status, StatusCode::NOT_FOUND, "{}", taken.text);
        taken.error_message();
    }
    assert_eq!(server.get("/api/user/invitations", &thief).await.json, json!([]));
    assert_eq!(server.get(&format!("/api/websites/{site}"), &thief).await.status, StatusCode::NOT_FOUND);
    // The invited address's account, unconfirmed, needs the link's token; then the invitation is used up.
    let without = server.post(&format!("/api/user/invitations/{id}/accept"), &invited, json!({})).await;
    assert_eq!(without.status, StatusCode::NOT_FOUND, "{}", without.text);
    let accepted = server.post(&format!("/api/user/invitations/{id}/accept"), &invited, json!({"token": token})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
    assert_eq!(accepted.json["role"], "editor");
    let again = server.post(&format!("/api/user/invitations/{id}/accept"), &invited, json!({"token": token})).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "single use: {}", again.text);
    // The token is stored hashed only.
    let stored = server.dir.path().join("data").join("tracker.db");
    let bytes = std::fs::read(stored).unwrap();
    assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()), "the token in the database");
}

#[tokio::test]
async fn a_removed_or_lowered_member_loses_access_on_the_next_request() {
    let (server, owner, member, member_id, site) = team("admin").await;
    let settings = json!({"websiteId": site, "dataRetentionDays": 30});
    assert_eq!(server.put("/api/privacy/settings", &member, settings.clone()).await.status, StatusCode::OK);
    let lowered =
        server.put(&format!("/api/websites/{site}/members/{member_id}"), &owner, json!({"role": "viewer"})).await;
    assert_eq!(lowered.status, StatusCode::OK, "{}", lowered.text);
    let refused = server.put("/api/privacy/settings", &member, settings).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert_eq!(server.get(&format!("/api/dashboard/overview?website_id={site}"), &member).await.status, StatusCode::OK);
    let removed = server.delete(&format!("/api/websites/{site}/members/{member_id}"), &owner).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text);
    for path in [format!("/api/websites/{site}"), format!("/api/dashboard/overview?website_id={site}")] {
        let gone = server.get(&path, &member).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{path}: {}", gone.text);
        assert_eq!(gone.error_message(), "website not found");
    }
    assert_eq!(role_on(&server.get("/api/websites", &member).await.json, site), None);
    // Who did what is in the site's audit log.
    let log = server.get(&format!("/api/privacy/audit-logs?website_id={site}"), &owner).await;
    let actions: Vec<_> = log.json["entries"].as_array().unwrap().iter().map(|e| e["action"].clone()).collect();
    for action in ["member_invited", "member_joined", "member_role_changed", "member_removed"] {
        assert!(actions.contains(&json!(action)), "{action} in {}", log.text);
    }
}

#[tokio::test]
async fn a_stranger_gets_404_not_403_and_the_site_stays_unlisted() {
    let (server, _, _, _, site) = team("viewer").await;
    let (stranger, _) = server.register("stranger@example.com").await;
    for (path, body) in [
        (format!("/api/websites/{site}/members"), Some(json!({"email": "stranger@example.com", "role": "admin"}))),
        (format!("/api/websites/{site}"), None),
        (format!("/api/websites/{site}/members"), None),
    ] {
        let answer = match body {
            Some(body) => server.post(&path, &stranger, body).await,
            None => server.get(&path, &stranger).await,
        };
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {}", answer.text);
        assert_eq!(answer.error_message(), "website not found");
    }
    assert_eq!(server.get("/api/websites", &stranger).await.json, json!([]));
}

#[tokio::test]
async fn an_api_key_acts_with_its_accounts_role() {
    let (server, _, viewer, _, site) = team("viewer").await;
    let key = server.post("/api/user/api-keys", &viewer, json!({"name": "CI", "scope": "write"})).await;
    let key = key.json["secret"].as_str().unwrap().to_string();
    assert_eq!(server.get(&format!("/api/dashboard/overview?website_id={site}"), &key).await.status, StatusCode::OK);
    let list = server.get("/api/websites", &key).await;
    assert_eq!(role_on(&list.json, site).as_deref(), Some("viewer"), "{}", list.text);
    let settings = json!({"websiteId": site, "dataRetentionDays": 30});
    assert_eq!(server.put("/api/privacy/settings", &key, settings).await.status, StatusCode::FORBIDDEN);
}

/// A leaked `write` key of a site's owner cannot hand another account lasting access: members and invitations
/// are the account's security, for sign-ins only.
#[tokio::test]
async fn an_api_key_cannot_add_members_or_accept_invitations() {
    let (server, owner, member, member_id, site) = team("viewer").await;
    let write = |token: String| {
        let server = &server;
        async move {
            let made = server.post("/api/user/api-keys", &token, json!({"name": "CI", "scope": "write"})).await;
            made.json["secret"].as_str().unwrap().to_string()
        }
    };
    let (owners_key, members_key) = (write(owner.clone()).await, write(member.clone()).await);
    let invite = json!({"email": "attacker@example.com", "role": "admin"});
    let refused = [
        server.post(&format!("/api/websites/{site}/members"), &owners_key, invite.clone()).await,
        server.get(&format!("/api/websites/{site}/members"), &owners_key).await,
        server.put(&format!("/api/websites/{site}/members/{member_id}"), &owners_key, json!({"role": "admin"})).await,
        server.post("/api/user/invitations/1/accept", &members_key, json!({})).await,
        server.get("/api/user/invitations", &members_key).await,
    ];
    for answer in refused {
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
        assert!(answer.error_message().contains("API key"), "{}", answer.text);
    }
    // The same calls from the owner's sign-in go through.
    assert_eq!(server.post(&format!("/api/websites/{site}/members"), &owner, invite).await.status, StatusCode::CREATED);
}

/// Handing a site over (`POST /api/websites/{id}/owner`) is the owner's alone: an admin cannot take the site,
/// a stranger learns nothing, a non-admin member cannot receive it, nor can an owner's API key give it away.
/// Afterwards the new owner can delete the site and the old one, an admin now, cannot; the audit log says who.
#[tokio::test]
async fn only_the_owner_hands_a_site_over_and_then_loses_what_only_an_owner_may() {
    let (server, owner, admin, admin_id, site) = team("admin").await;
    let (editor, editor_answer) = server.register("editor@example.com").await;
    join(&server, &owner, site, "editor@example.com", "editor", &editor).await;
    let editor_id = editor_answer["user"]["id"].as_i64().unwrap();
    let (stranger, _) = server.register("stranger@example.com").await;
    let path = format!("/api/websites/{site}/owner");

    let taken = server.post(&path, &admin, json!({"memberId": admin_id})).await;
    assert_eq!(taken.status, StatusCode::FORBIDDEN, "{}", taken.text);
    taken.error_message();
    let by_editor = server.post(&path, &editor, json!({"memberId": editor_id})).await;
    assert_eq!(by_editor.status, StatusCode::FORBIDDEN, "{}", by_editor.text);
    let unknown = server.post(&path, &stranger, json!({"memberId": admin_id})).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.text);
    assert_eq!(unknown.error_message(), "website not found");
    let key = server.post("/api/user/api-keys", &owner, json!({"name": "CI", "scope": "write"})).await;
    let key = key.json["secret"].as_str().unwrap().to_string();
    let by_key = server.post(&path, &key, json!({"memberId": admin_id})).await;
    assert_eq!(by_key.status, StatusCode::FORBIDDEN, "{}", by_key.text);
    assert!(by_key.error_message().contains("API key"), "{}", by_key.text);
    let to_editor = server.post(&path, &owner, json!({"memberId": editor_id})).await;
    assert_eq!(to_editor.status, StatusCode::CONFLICT, "only an admin receives a site: {}", to_editor.text);
    let to_stranger = server.post(&path, &owner, json!({"memberId": 999_999})).await;
    assert_eq!(to_stranger.status, StatusCode::NOT_FOUND, "{}", to_stranger.text);
    let bad = server.post(&path, &owner, json!({"member": admin_id})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    assert_eq!(role_on(&server.get("/api/websites", &owner).await.json, site).as_deref(), Some("owner"));

    let handed = server.post(&path, &owner, json!({"memberId": admin_id})).await;
    assert_eq!(handed.status, StatusCode::OK, "{}", handed.text);
    let roles: Vec<_> =
        handed.json["members"].as_array().unwrap().iter().map(|m| (m["email"].clone(), m["role"].clone())).collect();
    assert_eq!(roles[0], (json!("member@example.com"), json!("owner")), "{}", handed.text);
    assert!(roles.contains(&(json!("owner@example.com"), json!("admin"))), "{}", handed.text);
    assert_eq!(role_on(&server.get("/api/websites", &owner).await.json, site).as_deref(), Some("admin"));
    assert_eq!(role_on(&server.get("/api/websites", &admin).await.json, site).as_deref(), Some("owner"));
    let back = server.post(&path, &owner, json!({"memberId": 0})).await;
    assert_eq!(back.status, StatusCode::FORBIDDEN, "the old owner cannot take it back: {}", back.text);

    let log = server.get(&format!("/api/privacy/audit-logs?website_id={site}"), &admin).await;
    let entry = log.json["entries"].as_array().unwrap().iter().find(|e| e["action"] == "owner_changed").cloned();
    let entry = entry.unwrap_or_else(|| panic!("owner_changed in {}", log.text));
    assert_eq!(entry["detail"], json!({"from": "owner@example.com", "to": "member@example.com"}), "{entry}");

    let by_old = server.delete(&format!("/api/websites/{site}"), &owner).await;
    assert_eq!(by_old.status, StatusCode::FORBIDDEN, "{}", by_old.text);
    let by_new = server.delete(&format!("/api/websites/{site}"), &admin).await;
    assert_eq!(by_new.status, StatusCode::NO_CONTENT, "{}", by_new.text);
    assert_eq!(server.get(&format!("/api/websites/{site}"), &owner).await.status, StatusCode::NOT_FOUND);
}
