//! Data deletion, exports and the email change in cluster mode (issue 18): what SQLite answers, from PostgreSQL
//! and both shards. Without the harness's env (tests/cluster/cluster.sh) the tests return at once.

use reqwest::StatusCode;
use serde_json::json;

use crate::cluster::{Corner, harness};

#[tokio::test]
async fn an_email_changed_on_one_daemon_signs_in_on_the_other_and_a_taken_one_is_refused() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token, _) = a.register("old@example.com").await;
    b.register("taken@example.com").await;
    for (body, status) in [
        (json!({"newEmail": "new@example.com", "currentPassword": "wrong!"}), StatusCode::UNAUTHORIZED),
        (json!({"newEmail": "not-an-email", "currentPassword": "secret1"}), StatusCode::BAD_REQUEST),
        (json!({"newEmail": "taken@example.com", "currentPassword": "secret1"}), StatusCode::CONFLICT),
        (json!({"newEmail": "new@example.com"}), StatusCode::BAD_REQUEST),
    ] {
        let answer = b.put("/api/user/email", &token, body.clone()).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    let changed =
        b.put("/api/user/email", &token, json!({"newEmail": " new@example.com ", "currentPassword": "secret1"})).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.json, json!({"email": "new@example.com"}));
    let login = |email: &str| json!({"email": email, "password": "secret1"});
    let new = a.call(reqwest::Method::POST, "/api/login", None, Some(login("new@example.com"))).await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.text);
    let old = a.call(reqwest::Method::POST, "/api/login", None, Some(login("old@example.com"))).await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED, "{}", old.text);
    let user = a.get("/api/user", &token).await;
    assert_eq!(user.json["email"], "new@example.com", "{}", user.text);
}

