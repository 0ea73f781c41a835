//! Sharing and access across a cluster (issue 37): two daemons on one PostgreSQL and the 2-shard ClickHouse. A
//! role changed, a site handed over or a member removed on one daemon counts on the very next request at the
//! other (roles are read on every request, never cached), and a share link made on one reads on the other, its
//! password session too, and dies on both when deleted. Without the harness's env (tests/cluster/cluster.sh)
//! the tests return at once.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::cluster::{Corner, harness};
use crate::roles::join;
use crate::share_links::{anonymous, seeded};
use crate::util::{TestServer, wait_for};

/// The caller's role on `site` as `GET /api/websites` on `server` lists it.
async fn listed_role(server: &TestServer, token: &str, site: i64) -> Option<String> {
    let list = server.get("/api/websites", token).await;
    let sites = list.json.as_array().cloned().unwrap_or_default();
    sites.iter().find(|s| s["id"] == site).map(|s| s["role"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn a_role_change_hand_over_or_removal_on_one_daemon_counts_at_once_on_the_other() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (owner, _) = a.register("owner@example.com").await;
    let (member, answer) = b.register("member@example.com").await;
    let member_id = answer["user"]["id"].as_i64().unwrap();
    let site = a.create_site(&owner, "Shop", "professional").await["id"].as_i64().unwrap();
    join(&a, &owner, site, "member@example.com", "admin", &member).await;
    let settings = json!({"websiteId": site, "dataRetentionDays": 30});
    let overview = format!("/api/dashboard/overview?website_id={site}");
    assert_eq!(b.put("/api/privacy/settings", &member, settings.clone()).await.status, StatusCode::OK);

    // Lowered on a: the next request at b is a viewer's.
    let lowered = a.put(&format!("/api/websites/{site}/members/{member_id}"), &owner, json!({"role": "viewer"})).await;
    assert_eq!(lowered.status, StatusCode::OK, "{}", lowered.text);
    let refused = b.put("/api/privacy/settings", &member, settings.clone()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert_eq!(b.get(&overview, &member).await.status, StatusCode::OK);
    assert_eq!(listed_role(&b, &member, site).await.as_deref(), Some("viewer"));

    // Raised on b: the next request at a is an admin's.
    let raised = b.put(&format!("/api/websites/{site}/members/{member_id}"), &owner, json!({"role": "admin"})).await;
    assert_eq!(raised.status, StatusCode::OK, "{}", raised.text);
    assert_eq!(a.put("/api/privacy/settings", &member, settings.clone()).await.status, StatusCode::OK);

    // Handed over on b: at a the new owner deletes what only an owner may, and the old owner may not.
    let handed = b.post(&format!("/api/websites/{site}/owner"), &owner, json!({"memberId": member_id})).await;
    assert_eq!(handed.status, StatusCode::OK, "{}", handed.text);
    assert_eq!(listed_role(&a, &owner, site).await.as_deref(), Some("admin"));
    assert_eq!(listed_role(&a, &member, site).await.as_deref(), Some("owner"));
    let by_old = a.delete(&format!("/api/websites/{site}"), &owner).await;
    assert_eq!(by_old.status, StatusCode::FORBIDDEN, "{}", by_old.text);

    // The new owner removes the old one on a: at b the old owner gets 404, as a stranger.
    let owner_id = handed.json["members"].as_array().unwrap().iter().find(|m| m["email"] == "owner@example.com");
    let owner_id = owner_id.expect("the old owner, an admin now")["memberId"].as_i64().unwrap();
    let removed = a.delete(&format!("/api/websites/{site}/members/{owner_id}"), &member).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text);
    for path in [overview.clone(), format!("/api/websites/{site}")] {
        let gone = b.get(&path, &owner).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{path}: {}", gone.text);
    }
    assert_eq!(listed_role(&b, &owner, site).await, None);
    let deleted = b.delete(&format!("/api/websites/{site}"), &member).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    assert_eq!(a.get(&overview, &member).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_share_link_made_on_one_daemon_reads_on_the_other_and_dies_on_both_when_deleted() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (owner, _) = a.register("owner@example.com").await;
    let site = seeded(&a, &owner).await;
    let links = format!("/api/websites/{site}/shared-links");
    let open = a.post(&links, &owner, json!({"name": "Board"})).await;
    assert_eq!(open.status, StatusCode::CREATED, "{}", open.text);
    let slug = open.json["slug"].as_str().unwrap().to_string();
    let locked = a.post(&links, &owner, json!({"name": "Locked", "password": "letmein1"})).await;
    assert_eq!(locked.status, StatusCode::CREATED, "{}", locked.text);
    let locked_slug = locked.json["slug"].as_str().unwrap().to_string();

    // The five page views are in ClickHouse once a's reads count them; b's reads of the link then agree.
    let overview = format!("/api/share/{slug}/overview?range=7d");
    wait_for("the seeded page views", Duration::from_secs(30), || async {
        let read = anonymous(&a, &overview).await;
        (read.json["metrics"]["pageViews"] == 5).then_some(())
    })
    .await;
    for path in [format!("/api/share/{slug}"), overview.clone(), format!("/api/share/{slug}/breakdown/page?range=7d")] {
        let (on_a, on_b) = (anonymous(&a, &path).await, anonymous(&b, &path).await);
        assert_eq!(on_b.status, StatusCode::OK, "{path}: {}", on_b.text);
        assert_eq!(on_a.json, on_b.json, "{path}");
    }

    // A password session opened on b reads on a.
    let session = b
        .call(Method::POST, &format!("/api/share/{locked_slug}/session"), None, Some(json!({"password": "letmein1"})))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.text);
    let share = session.json["token"].as_str().unwrap().to_string();
    let locked_overview = format!("/api/share/{locked_slug}/overview?range=7d");
    assert_eq!(a.get(&locked_overview, &share).await.status, StatusCode::OK);

    // Deleted on b: gone on both at once; the locked one deleted on a ends its session on b.
    let deleted = b.delete(&format!("{links}/{}", open.json["id"]), &owner).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    for server in [&a, &b] {
        for path in [format!("/api/share/{slug}"), overview.clone(), format!("/share/{slug}")] {
            let gone = anonymous(server, &path).await;
            assert_eq!(gone.status, StatusCode::NOT_FOUND, "{path}: {}", gone.text);
        }
    }
    let ended = a.delete(&format!("{links}/{}", locked.json["id"]), &owner).await;
    assert_eq!(ended.status, StatusCode::OK, "{}", ended.text);
    let gone = b.get(&locked_overview, &share).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
}
