//! Issue 36: API keys through the real daemon: created from a sign-in, listed, used as a bearer on the JSON
//! API within their scope, revoked; bad input 400, the cap on keys 409. (What a key must never do is in
//! security/api_keys.rs.)

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::util::TestServer;

#[tokio::test]
async fn a_key_is_created_listed_used_within_its_scope_and_revoked() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    server.create_site(&token, "Blog", "light").await;

    let created = server.post("/api/user/api-keys", &token, json!({"name": "Grafana", "scope": "read"})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let read = created.json["secret"].as_str().unwrap().to_string();
    assert_eq!(created.json["name"], "Grafana");
    assert_eq!(created.json["scope"], "read");
    assert!(created.json["createdAt"].as_str().unwrap().ends_with('Z'), "{}", created.text);
    assert!(created.json["lastUsedAt"].is_null(), "{}", created.text);
    let write = server.post("/api/user/api-keys", &token, json!({"name": "CI", "scope": "write"})).await;
    assert_eq!(write.status, StatusCode::CREATED, "{}", write.text);
    let write_id = write.json["id"].as_i64().unwrap();
    let write = write.json["secret"].as_str().unwrap().to_string();

    // GET routes with either key; a write route with the write key only.
    let sites = server.get("/api/websites", &read).await;
    assert_eq!(sites.status, StatusCode::OK, "{}", sites.text);
    assert_eq!(sites.json[0]["name"], "Blog");
    let body = json!({"name": "Shop", "domain": "shop.example.com"});
    let refused = server.post("/api/websites", &read, body.clone()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert!(refused.error_message().contains("read-only"), "{}", refused.text);
    let made = server.post("/api/websites", &write, body).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let overview = server.get(&format!("/api/dashboard/overview?website_id={}&range=7d", made.json["id"]), &read).await;
    assert_eq!(overview.status, StatusCode::OK, "{}", overview.text);

    // The list: newest first, names, scopes, prefixes, the last use; no secret.
    let listed = server.get("/api/user/api-keys", &token).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let keys = listed.json.as_array().unwrap();
    assert_eq!(keys.len(), 2);
    assert_eq!((keys[0]["name"].as_str(), keys[0]["scope"].as_str()), (Some("CI"), Some("write")));
    assert_eq!((keys[1]["name"].as_str(), keys[1]["scope"].as_str()), (Some("Grafana"), Some("read")));
    assert!(keys.iter().all(|key| key.get("secret").is_none()), "{}", listed.text);
    assert_eq!(keys[1]["prefix"].as_str().unwrap(), &read[..10]);
    assert!(keys[1]["lastUsedAt"].is_string(), "used: {}", listed.text);

    let revoked = server.delete(&format!("/api/user/api-keys/{write_id}"), &token).await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert_eq!(server.get("/api/websites", &write).await.status, StatusCode::UNAUTHORIZED);
    let again = server.delete(&format!("/api/user/api-keys/{write_id}"), &token).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.text);
    assert_eq!(server.get("/api/user/api-keys", &token).await.json.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn bad_names_and_scopes_are_400_and_the_51st_key_is_409() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let long = "x".repeat(101);
    let bad = [
        json!({"name": "", "scope": "read"}),
        json!({"name": "   ", "scope": "read"}),
        json!({"name": "line\nbreak", "scope": "read"}),
        json!({"name": "nul\u{0}", "scope": "write"}),
        json!({"name": long, "scope": "read"}),
        json!({"name": "ok", "scope": "admin"}),
        json!({"name": "ok"}),
        json!({"scope": "read"}),
        json!({"name": 7, "scope": "read"}),
        json!({"name": "ok", "scope": "read", "extra": true}),
    ];
    for body in bad {
        let answer = server.post("/api/user/api-keys", &token, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}: {}", answer.text);
        answer.error_message();
    }
    let not_json = server
        .client
        .post(server.url("/api/user/api-keys"))
        .bearer_auth(&token)
        .header("content-type", "text/plain")
        .body(r#"{"name":"x","scope":"read"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let garbage_id = server.call(Method::DELETE, "/api/user/api-keys/abc", Some(&token), None).await;
    assert_eq!(garbage_id.status, StatusCode::NOT_FOUND, "{}", garbage_id.text);
    assert_eq!(server.call(Method::GET, "/api/user/api-keys", None, None).await.status, StatusCode::UNAUTHORIZED);

    for n in 0..50 {
        let answer =
            server.post("/api/user/api-keys", &token, json!({"name": format!("key {n}"), "scope": "read"})).await;
        assert_eq!(answer.status, StatusCode::CREATED, "key {n}: {}", answer.text);
    }
    let over = server.post("/api/user/api-keys", &token, json!({"name": "one too many", "scope": "read"})).await;
    assert_eq!(over.status, StatusCode::CONFLICT, "{}", over.text);
    assert!(over.error_message().contains("50"), "{}", over.text);
}

/// The robustness sweep (robustness.rs) with keys instead of a sign-in: every operation of the contract, with
/// a read key and a write key, answers below 500 and every refusal is the JSON error.
#[tokio::test]
async fn every_route_answers_a_key_without_a_5xx() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Swept", "professional").await;
    let mut keys = Vec::new();
    for scope in ["read", "write"] {
        let created = server.post("/api/user/api-keys", &token, json!({"name": scope, "scope": scope})).await;
        keys.push(created.json["secret"].as_str().unwrap().to_string());
    }
    let own = site["id"].to_string();
    for (method, route) in crate::robustness::routes() {
        let method: Method = method.parse().unwrap();
        // Not the site's own id on a DELETE: the write key would delete it before the other routes run.
        let id = if method == Method::DELETE { "-1" } else { own.as_str() };
        let path = route.replace("{id}", id).replace("{q}", "x");
        for key in &keys {
            let response = server
                .client
                .request(method.clone(), server.url(&path))
                .bearer_auth(key)
                .header("content-type", "application/json")
                .body("{")
                .send()
                .await
                .unwrap();
            let status = response.status();
            let answer = crate::util::answer(response).await;
            assert!(status.as_u16() < 500, "{method} {path}: {status} {}", answer.text);
            if !status.is_success() && !path.starts_with("/tracking/") {
                answer.error_message();
            }
        }
    }
}
