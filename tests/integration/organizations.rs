//! Organizations from the offline ASN data (professional sites), and identify() traits.

use reqwest::StatusCode;
use serde_json::json;

use crate::capture_util::{assert_not_found, count, owner_with_site, track_with};
use crate::util::TestServer;

/// A public address the ASN data maps to a company (Google, AS15169).
const COMPANY_IP: &str = "8.8.8.8";

fn page(key: &str, session: &str) -> serde_json::Value {
    json!({"tracking_key": key, "session_id": session, "url": "https://shop.example.com/"})
}

#[tokio::test]
async fn professional_sites_record_visiting_organizations() {
    let server = TestServer::start().await;
    assert!(
        server.tracker.ingest.enricher().organization(COMPANY_IP.parse().unwrap()).is_some(),
        "the offline ASN data maps {COMPANY_IP} to a company"
    );
    let (token, site, key) = owner_with_site(&server, "orgs@example.com", "professional").await;
    let xff = [("x-forwarded-for", COMPANY_IP)];
    for session in ["org-visit-0001", "org-visit-0002"] {
        assert_eq!(track_with(&server, page(&key, session), &xff).await.status, StatusCode::ACCEPTED);
        assert_eq!(track_with(&server, page(&key, session), &xff).await.status, StatusCode::ACCEPTED);
    }
    let list = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let orgs = list.json.as_array().unwrap();
    assert_eq!(orgs.len(), 1, "{}", list.text);
    let org = &orgs[0];
    assert_eq!(org["sessionCount"], 2, "visits, not hits");
    assert!(org["organizationName"].as_str().unwrap().to_lowercase().contains("google"), "{org}");
    for field in ["id", "domain", "industry", "size", "location", "confidence", "lastSeen"] {
        assert!(org.get(field).is_some(), "{field}");
    }
    assert_eq!(
        count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1 AND organization_id IS NOT NULL", site),
        2
    );
    // The detected organization makes both visits identified visitors, each scored on its two page views.
    let identified = server.get(&format!("/api/websites/{site}/identified-visitors"), &token).await;
    let identified = identified.json.as_array().unwrap();
    assert_eq!(identified.len(), 2, "{identified:?}");
    for visitor in identified {
        assert!(visitor["companyName"].as_str().unwrap().to_lowercase().contains("google"), "{visitor}");
        assert_eq!(visitor["leadScore"], 20);
        assert_eq!(visitor["country"], "US");
    }

    // Enhanced and light sites do not look organizations up.
    let (_, enhanced, enhanced_key) = {
        let site = server.create_site(&token, "Blog", "enhanced").await;
        (0, site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string())
    };
    assert_eq!(track_with(&server, page(&enhanced_key, "org-visit-0003"), &xff).await.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM organizations WHERE website_id = ?1", enhanced), 0);

    assert_eq!(server.delete(&format!("/api/websites/{site}"), &token).await.status, StatusCode::NO_CONTENT);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM organizations WHERE website_id = ?1", site), 0);
}

#[tokio::test]
async fn unknown_networks_make_no_organization() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "noorg@example.com", "professional").await;
    // Documentation addresses belong to no network.
    let answer = track_with(&server, page(&key, "noorg-visit-01"), &[("x-forwarded-for", "192.0.2.1")]).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED);
    let list = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(list.json, json!([]));
}

#[tokio::test]
async fn organizations_are_owner_only() {
    let server = TestServer::start().await;
    let (_, site, _) = owner_with_site(&server, "orgowner@example.com", "professional").await;
    let (other, _) = server.register("orgintruder@example.com").await;
    assert_not_found(&server.get(&format!("/api/websites/{site}/organizations"), &other).await, "orgs");
    assert_not_found(&server.get("/api/websites/31337/organizations", &other).await, "missing site");
}

#[tokio::test]
async fn identify_keeps_the_latest_traits_on_professional_sites_only() {
    let server = TestServer::start().await;
    let (token, pro, pro_key) = owner_with_site(&server, "ident@example.com", "professional").await;
    let light = server.create_site(&token, "Light", "light").await;
    let (light_id, light_key) = (light["id"].as_i64().unwrap(), light["trackingKey"].as_str().unwrap().to_string());
    let identify = |key: &str, plan: &str| {
        json!({"tracking_key": key, "session_id": "identified-visit", "url": "https://shop.example.com/",
               "event": "identify", "event_properties": {"userId": "u-42", "plan": plan}})
    };
    for key in [&pro_key, &light_key] {
        assert_eq!(server.pageview(key, "identified-visit", "/").await.status, StatusCode::ACCEPTED);
    }
    assert_eq!(server.track(identify(&pro_key, "free")).await.status, StatusCode::ACCEPTED);
    assert_eq!(server.track(identify(&pro_key, "pro")).await.status, StatusCode::ACCEPTED);
    assert_eq!(server.track(identify(&light_key, "pro")).await.status, StatusCode::ACCEPTED);
    let traits: String = server
        .tracker
        .db()
        .read(move |conn| Ok(conn.query_row("SELECT traits FROM sessions WHERE website_id = ?1", [pro], |r| r.get(0))?))
        .unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&traits).unwrap(), json!({"userId": "u-42", "plan": "pro"}));
    assert_eq!(
        count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1 AND traits IS NOT NULL", light_id),
        0
    );
    assert_eq!(
        count(&server, "SELECT COUNT(*) FROM events WHERE kind = 'identify' AND website_id = ?1", light_id),
        0,
        "dropped on light sites"
    );
    assert_eq!(count(&server, "SELECT COUNT(*) FROM events WHERE kind = 'identify' AND website_id = ?1", pro), 2);
    let bad = server
        .track(json!({"tracking_key": pro_key, "session_id": "identified-visit", "url": "https://shop.example.com/",
                      "event": "identify", "event_properties": {"nested": {"a": 1}}}))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}
