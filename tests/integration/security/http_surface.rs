//! The review's low findings on the HTTP surface: framing and content policy headers, the Host header in
//! cached scripts, the opt-in domain check, and 404 (not 405) for unknown API paths.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::util::{BROWSER_UA, TestServer};

#[tokio::test]
async fn dashboard_answers_carry_content_policy_and_framing_headers() {
    let server = TestServer::start().await;
    let page = server.client.get(server.url("/websites")).send().await.unwrap();
    let headers = page.headers();
    let csp = headers["content-security-policy"].to_str().unwrap();
    for directive in ["default-src 'self'", "frame-ancestors 'none'", "object-src 'none'"] {
        assert!(csp.contains(directive), "{csp}");
    }
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(headers.contains_key("referrer-policy"));
}

#[tokio::test]
async fn host_header_is_not_reflected_into_cached_scripts() {
    let server = TestServer::start().await;
    let (token, _) = server.register("a@example.com").await;
    let key = server.create_site(&token, "Site", "light").await["trackingKey"].as_str().unwrap().to_string();
    let script = server
        .client
        .get(server.url(&format!("/tracking/{key}.js")))
        .header("host", "evil.example.net")
        .send()
        .await
        .unwrap();
    assert_eq!(script.status(), StatusCode::OK);
    // Varies by Host (and, since scripts are compressed on the wire, by Accept-Encoding).
    let vary = script.headers()["vary"].to_str().unwrap().to_string();
    assert!(vary.split(',').any(|v| v.trim() == "Host"), "Vary: {vary}");
    let body = script.text().await.unwrap();
    assert!(!body.contains("evil.example.net"), "the Host header reached the script");
    assert!(body.contains("http://127.0.0.1:"), "the listen address stands in");
}

#[tokio::test]
async fn domain_only_sites_refuse_hits_from_other_domains() {
    let server = TestServer::start().await;
    let (token, _) = server.register("a@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string());
    let set = server.put(&format!("/api/websites/{id}"), &token, json!({"domainOnly": true})).await;
    assert_eq!(set.json["domainOnly"], true, "{}", set.text);
    let hit = |url: &str| {
        let body = json!({"tracking_key": key, "session_id": "session-0001", "url": url}).to_string();
        server.client.post(server.url("/api/track")).header("user-agent", BROWSER_UA).body(body).send()
    };
    let foreign = hit("https://shop.example.com.evil.net/").await.unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    assert_eq!(hit("https://www.shop.example.com/cart").await.unwrap().status(), StatusCode::ACCEPTED);
    assert_eq!(hit("https://shop.example.com/").await.unwrap().status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn unknown_api_paths_answer_404_whatever_the_method() {
    let server = TestServer::start().await;
    let (token, _) = server.register("a@example.com").await;
    for method in [Method::GET, Method::POST, Method::PUT, Method::DELETE, Method::OPTIONS, Method::PATCH] {
        for path in ["/api/nope", "/api/websites/1/nope", "/api", "/api/track/nope"] {
            let answer = server.call(method.clone(), path, Some(&token), None).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{method} {path}: {}", answer.text);
            answer.error_message();
        }
    }
}

/// The replay player page (issue 34, item 15) is the one document with a policy of its own: a recorded page's
/// images, fonts and stylesheets may load from anywhere, scripts only from the daemon, connections nowhere; only
/// the dashboard may frame it, and its requests name no referrer.
#[tokio::test]
async fn replay_player_page_loads_remote_assets_but_scripts_only_from_the_daemon() {
    let server = TestServer::start().await;
    let page = server.client.get(server.url("/replay-player")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let headers = page.headers().clone();
    let csp = headers["content-security-policy"].to_str().unwrap();
    for directive in [
        "default-src 'none'",
        "script-src 'self';",
        "img-src 'self' data: blob: http: https:",
        "font-src 'self' data: http: https:",
        "connect-src 'none'",
        "frame-ancestors 'self'",
    ] {
        assert!(csp.contains(directive), "{csp}");
    }
    assert!(!csp.contains("frame-ancestors 'none'"), "the dashboard's policy replaced the page's: {csp}");
    assert_eq!(headers["x-frame-options"], "SAMEORIGIN");
    assert_eq!(headers["referrer-policy"], "no-referrer");
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = page.text().await.unwrap();
    assert!(html.contains("<script src=\"/assets/replayPlayer-"), "the page names its hashed script: {html}");
}
