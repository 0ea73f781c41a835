//! /api/websites: CRUD, validation, tracking keys, deletion with data, and isolation between users.

use reqwest::StatusCode;
use serde_json::json;

use crate::util::TestServer;

#[tokio::test]
async fn create_list_update_delete() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await;
    assert_eq!(site["name"], "Shop");
    assert_eq!(site["trackingLevel"], "light");
    let key = site["trackingKey"].as_str().unwrap();
    assert!(key.len() >= 20 && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    assert_eq!(site["scriptUrl"], format!("{}/tracking/{key}.js", server.base));
    assert!(site["createdAt"].as_str().unwrap().ends_with('Z'));

    let default_level =
        server.post("/api/websites", &token, json!({"name": "Blog", "domain": "blog.example.com"})).await;
    assert_eq!(default_level.json["trackingLevel"], "light");
    assert_ne!(default_level.json["trackingKey"], site["trackingKey"], "keys are unique");

    let list = server.get("/api/websites", &token).await;
    assert_eq!(list.json.as_array().unwrap().len(), 2);

    let id = site["id"].as_i64().unwrap();
    let updated = server
        .put(&format!("/api/websites/{id}"), &token, json!({"name": "Store", "domain": "https://store.example.com"}))
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.text);
    assert_eq!(updated.json["name"], "Store");
    assert_eq!(updated.json["trackingKey"], site["trackingKey"]);
    let level = server.put(&format!("/api/websites/{id}"), &token, json!({"trackingLevel": "professional"})).await;
    assert_eq!(level.json["trackingLevel"], "professional");
    assert_eq!(level.json["name"], "Store");

    let deleted = server.delete(&format!("/api/websites/{id}"), &token).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(server.get(&format!("/api/websites/{id}"), &token).await.status, StatusCode::NOT_FOUND);
    assert_eq!(server.get("/api/websites", &token).await.json.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn invalid_websites_are_rejected_and_nothing_is_stored() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let cases = [
        (json!({"name": "", "domain": "a.com"}), "Website name is required"),
        (json!({"name": "   ", "domain": "a.com"}), "Website name is required"),
        (json!({"name": "A", "domain": ""}), "Domain is required"),
        (json!({"name": "A", "domain": "not a url"}), "Please enter a valid URL"),
        (json!({"name": "A", "domain": "ftp://a.com"}), "Please enter a valid URL"),
        (json!({"name": "A", "domain": "a.com", "trackingLevel": "ultra"}), "trackingLevel"),
        (json!({"name": "x".repeat(101), "domain": "a.com"}), "at most 100"),
    ];
    for (body, message) in cases {
        let answer = server.post("/api/websites", &token, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(answer.error_message().contains(message), "{body}: {}", answer.text);
    }
    let not_json = server
        .client
        .post(server.url("/api/websites"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::BAD_REQUEST);
    let untyped = server.client.post(server.url("/api/websites")).bearer_auth(&token).body("{}").send().await.unwrap();
    assert_eq!(untyped.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(server.get("/api/websites", &token).await.json.as_array().unwrap().is_empty());

    let site = server.create_site(&token, "Keep", "light").await;
    let id = site["id"].as_i64().unwrap();
    let bad_update = server.put(&format!("/api/websites/{id}"), &token, json!({"domain": "::"})).await;
    assert_eq!(bad_update.status, StatusCode::BAD_REQUEST);
    assert_eq!(server.get(&format!("/api/websites/{id}"), &token).await.json["domain"], "keep.example.com");
}

#[tokio::test]
async fn another_users_site_is_not_found_on_every_route() {
    let server = TestServer::start().await;
    let (alice, _) = server.register("alice@example.com").await;
    let (bob, _) = server.register("bob@example.com").await;
    let site = server.create_site(&alice, "Alice", "light").await;
    let id = site["id"].as_i64().unwrap();
    let missing = 999_999;
    for target in [id, missing] {
        let answers = [
            server.get(&format!("/api/websites/{target}"), &bob).await,
            server.put(&format!("/api/websites/{target}"), &bob, json!({"name": "Mine"})).await,
            server.delete(&format!("/api/websites/{target}"), &bob).await,
            server.get(&format!("/api/dashboard/overview?website_id={target}"), &bob).await,
            server.get(&format!("/api/websites/{target}/referrers"), &bob).await,
            server.get(&format!("/api/websites/{target}/countries"), &bob).await,
            server.get(&format!("/api/dashboard/live?website_id={target}&token={bob}"), &bob).await,
        ];
        for answer in answers {
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
            assert_eq!(answer.error_message(), "website not found");
        }
    }
    assert!(server.get("/api/websites", &bob).await.json.as_array().unwrap().is_empty());
    let still = server.get(&format!("/api/websites/{id}"), &alice).await;
    assert_eq!(still.json["name"], "Alice", "bob changed nothing");
}

#[tokio::test]
async fn deleting_a_site_deletes_its_data() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Gone", "light").await;
    let key = site["trackingKey"].as_str().unwrap();
    assert_eq!(server.pageview(key, "session-0001", "/").await.status, StatusCode::ACCEPTED);
    let id = site["id"].as_i64().unwrap();
    server.delete(&format!("/api/websites/{id}"), &token).await;
    let counts = server
        .tracker
        .db()
        .read(|conn| {
            let count = |table: &str| -> rusqlite::Result<i64> {
                conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            };
            Ok((count("events")?, count("sessions")?, count("rollup_days")?, count("rollup_hours")?))
        })
        .unwrap();
    assert_eq!(counts, (0, 0, 0, 0));
    let gone = server.pageview(key, "session-0001", "/").await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "the tracking key died with the site");
}
