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

/// The one organization of a site, after a visit from `COMPANY_IP`.
async fn visited_org(server: &TestServer, token: &str, site: i64, key: &str, session: &str) -> serde_json::Value {
    let xff = [("x-forwarded-for", COMPANY_IP)];
    assert_eq!(track_with(server, page(key, session), &xff).await.status, StatusCode::ACCEPTED);
    let list = server.get(&format!("/api/websites/{site}/organizations"), token).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    list.json[0].clone()
}

#[tokio::test]
async fn owners_supply_domain_industry_and_size_and_visits_keep_them() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "orgedit@example.com", "professional").await;
    let org = visited_org(&server, &token, site, &key, "org-edit-0001").await;
    // Nothing is guessed from the network's name, even for a well-known one.
    assert_eq!((&org["domain"], &org["industry"], &org["size"]), (&json!(null), &json!(null), &json!(null)), "{org}");
    let path = format!("/api/websites/{site}/organizations/{}", org["id"]);
    let edited = server
        .put(
            &path,
            &token,
            json!({"domain": " https://Example-Corp.com/ ", "industry": "Retail", "size": "Enterprise"}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    assert_eq!(
        (&edited.json["domain"], &edited.json["industry"], &edited.json["size"]),
        (&json!("example-corp.com"), &json!("Retail"), &json!("enterprise"))
    );
    assert_eq!(edited.json["organizationName"], org["organizationName"]);

    // A later visit counts, and leaves what the owner said alone.
    let again = visited_org(&server, &token, site, &key, "org-edit-0002").await;
    assert_eq!(again["sessionCount"], 2);
    assert_eq!(
        (&again["domain"], &again["industry"], &again["size"]),
        (&json!("example-corp.com"), &json!("Retail"), &json!("enterprise")),
        "{again}"
    );

    // Only the fields sent change; "" clears.
    let cleared = server.put(&path, &token, json!({"industry": ""})).await;
    assert_eq!((&cleared.json["industry"], &cleared.json["domain"]), (&json!(null), &json!("example-corp.com")));

    for bad in [
        json!({"size": "huge"}),
        json!({"domain": "javascript:alert(1)"}),
        json!({"domain": "example.com/path"}),
        json!({"domain": "localhost"}),
        json!({"industry": "x".repeat(101)}),
        json!({"industry": "a\nb"}),
        json!({"confidence": 100}),
        json!({"size": 3}),
        json!("x"),
    ] {
        let answer = server.put(&path, &token, bad.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let not_json = server
        .client
        .put(server.url(&path))
        .bearer_auth(&token)
        .header("content-type", "text/plain")
        .body("{\"size\":\"small\"}")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let list = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!(list.json[0]["size"], "enterprise", "refused edits change nothing");
    assert_not_found(
        &server.put(&format!("/api/websites/{site}/organizations/999999"), &token, json!({"size": "small"})).await,
        "missing org",
    );
}

#[tokio::test]
async fn organization_edits_are_owner_only() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "orgeditowner@example.com", "professional").await;
    let org = visited_org(&server, &token, site, &key, "org-own-0001").await;
    let (intruder, _) = server.register("orgeditintruder@example.com").await;
    let own_site = server.create_site(&intruder, "Mine", "professional").await["id"].as_i64().unwrap();
    for path in [
        format!("/api/websites/{site}/organizations/{}", org["id"]),
        format!("/api/websites/{own_site}/organizations/{}", org["id"]),
    ] {
        assert_not_found(
            &server.put(&path, &intruder, json!({"size": "small", "domain": "evil.example"})).await,
            &path,
        );
    }
    let list = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!((&list.json[0]["size"], &list.json[0]["domain"]), (&json!(null), &json!(null)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orgs_import_sets_known_organizations_by_asn_or_name() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "orgimport@example.com", "professional").await;
    let org = visited_org(&server, &token, site, &key, "org-import-0001").await;
    let name = org["organizationName"].as_str().unwrap().to_uppercase();
    let data = server.dir.path().join("data");
    let run = |file: &str, body: &str| {
        let path = server.dir.path().join(file);
        std::fs::write(&path, body).unwrap();
        std::process::Command::new(crate::util::tracker_bin())
            .args(["--data-dir", data.to_str().unwrap(), "orgs", "import", "--site", &site.to_string(), "--json"])
            .arg(&path)
            .output()
            .unwrap()
    };
    // A bad row anywhere: an error naming its line, and nothing written.
    let bad =
        run("bad.csv", &format!("name,domain,size\n\"{name}\",acme.example,enterprise\nOther,acme.example,huge\n"));
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 3"), "{}", String::from_utf8_lossy(&bad.stderr));
    let list = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!(list.json[0]["domain"], json!(null));

    let by_name = run(
        "by-name.csv",
        &format!(
            "name,domain,industry,size\n\"{name}\",acme.example,Software,enterprise\nNobody Ltd,nobody.example,,small\n"
        ),
    );
    assert!(by_name.status.success(), "{}", String::from_utf8_lossy(&by_name.stderr));
    let report: serde_json::Value = serde_json::from_slice(&by_name.stdout).unwrap();
    assert_eq!(report, json!({"rows": 2, "updated": 1, "unmatched": ["Nobody Ltd"]}));
    let list = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!(
        (&list.json[0]["domain"], &list.json[0]["industry"], &list.json[0]["size"]),
        (&json!("acme.example"), &json!("Software"), &json!("enterprise"))
    );

    // By ASN, with only a size column: the other values stay.
    let by_asn = run("by-asn.csv", "asn,size\nAS15169,large\n");
    assert!(by_asn.status.success(), "{}", String::from_utf8_lossy(&by_asn.stderr));
    let list = server.get(&format!("/api/websites/{site}/organizations"), &token).await;
    assert_eq!((&list.json[0]["domain"], &list.json[0]["size"]), (&json!("acme.example"), &json!("large")));
    server.stop().await;
}
