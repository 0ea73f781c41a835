//! Finding 4 of issue 33 (in part): any account could make the operator's SMTP send attacker-worded mail, with
//! addresses such as `x@@example.com` accepted and sites (each a subject line) made without end. Addresses
//! are checked strictly now, and the websites of an account are capped (`max_sites_per_account`, default 100)
//! through the API and the CLI alike. Verifying an address by a link before mail goes to it is not done yet.

use reqwest::{Method, StatusCode};
use serde_json::json;
use tracker_core::Config;

use crate::cli::Cli;
use crate::util::TestServer;

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
