//! Issue 36 in cluster mode: two daemons share PostgreSQL. A key made on one works on the other, its hourly
//! limit is counted across both (not per daemon), and revoking it, or deleting its account, on one daemon
//! refuses it on the other at once. On the harness cluster (tests/cluster/cluster.sh).

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::cluster::{Corner, cluster_keys, harness};
use crate::util::TestServer;

/// A daemon of `corner` whose keys may make 3 requests an hour.
async fn daemon(corner: &Corner) -> TestServer {
    let (postgres_url, ch, name) = (corner.postgres_url(), corner.ch.clone(), corner.name.clone());
    TestServer::start_with(move |config| {
        config.postgres_url = Some(postgres_url);
        config.clickhouse_url = Some(ch);
        config.clickhouse_database = Some(name);
        config.api_key_requests_per_hour = 3;
        cluster_keys(config);
    })
    .await
}

#[tokio::test]
async fn a_keys_limit_and_revocation_hold_across_daemons() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (daemon(&corner).await, daemon(&corner).await);
    let (token, _) = a.register("owner@example.com").await;
    let mut secrets = Vec::new();
    for name in ["limited", "revoked"] {
        let created = a.post("/api/user/api-keys", &token, json!({"name": name, "scope": "read"})).await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
        secrets.push((created.json["secret"].as_str().unwrap().to_string(), created.json["id"].as_i64().unwrap()));
    }
    let (limited, _) = &secrets[0];
    // Three requests spread over both daemons use up the hour; the fourth is refused wherever it goes.
    for server in [&a, &b, &a] {
        assert_eq!(server.get("/api/websites", limited).await.status, StatusCode::OK);
    }
    for server in [&b, &a] {
        let refused = server.get("/api/websites", limited).await;
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{}", refused.text);
        assert!(refused.headers.contains_key("retry-after"));
    }

    let (revoked, revoked_id) = &secrets[1];
    assert_eq!(b.get("/api/websites", revoked).await.status, StatusCode::OK);
    let answer = a.delete(&format!("/api/user/api-keys/{revoked_id}"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(b.get("/api/websites", revoked).await.status, StatusCode::UNAUTHORIZED, "revoked on a, refused on b");

    let another = a.post("/api/user/api-keys", &token, json!({"name": "outlives nothing", "scope": "write"})).await;
    let another = another.json["secret"].as_str().unwrap().to_string();
    assert_eq!(b.get("/api/websites", &another).await.status, StatusCode::OK);
    let deleted = a.call(Method::DELETE, "/api/user/account", Some(&token), Some(json!({"password": "secret1"}))).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(b.get("/api/websites", &another).await.status, StatusCode::UNAUTHORIZED, "account deleted on a");
}
