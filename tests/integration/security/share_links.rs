//! Issue 37, as an attacker would try share links: slugs are 128 random bits; a share session opens its own
//! link's aggregate reads and nothing else (every owner route answers it 401, another link's reads too); a link
//! reaches its own site only whatever the query says; wrong passwords are limited like logins; only an embed
//! link's page may be framed, and only by its origins.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::share_links::{anonymous, seeded};
use crate::util::TestServer;

async fn link(server: &TestServer, token: &str, site: i64, body: serde_json::Value) -> serde_json::Value {
    let answer = server.post(&format!("/api/websites/{site}/shared-links"), token, body).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    answer.json
}

#[tokio::test]
async fn slugs_are_128_random_bits_each() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Blog", "light").await["id"].as_i64().unwrap();
    let mut seen = std::collections::HashSet::new();
    for i in 0..20 {
        let slug = link(&server, &token, site, json!({"name": format!("link {i}")})).await["slug"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(URL_SAFE_NO_PAD.decode(&slug).unwrap().len(), 16, "{slug}");
        assert!(seen.insert(slug), "slugs repeat");
    }
    // Nothing near a slug opens anything.
    let slug = seen.iter().next().unwrap().clone();
    let mut near = slug.clone().into_bytes();
    near[0] = if near[0] == b'A' { b'B' } else { b'A' };
    let near = String::from_utf8(near).unwrap();
    for path in
        [format!("/api/share/{near}"), format!("/api/share/{}/overview", &slug[..21]), "/api/share/1".to_string()]
    {
        assert_eq!(anonymous(&server, &path).await.status, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_share_session_opens_its_own_links_reads_and_nothing_else() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = seeded(&server, &token).await;
    let other_site = server.create_site(&token, "Other", "light").await["id"].as_i64().unwrap();
    let locked = link(&server, &token, site, json!({"name": "Client", "password": "letmein1"})).await;
    let slug = locked["slug"].as_str().unwrap();
    let other = link(&server, &token, other_site, json!({"name": "Other", "password": "letmein1"})).await;
    let other_slug = other["slug"].as_str().unwrap();

    let without = anonymous(&server, &format!("/api/share/{slug}/overview")).await;
    assert_eq!(without.status, StatusCode::UNAUTHORIZED, "{}", without.text);
    without.error_message();
    let session = server
        .call(Method::POST, &format!("/api/share/{slug}/session"), None, Some(json!({"password": "letmein1"})))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.text);
    let share = session.json["token"].as_str().unwrap().to_string();
    assert_eq!(server.get(&format!("/api/share/{slug}/overview"), &share).await.status, StatusCode::OK);

    // Every owner route, and the other link's reads, answer the share token 401.
    let owner_routes = [
        (Method::GET, "/api/websites".to_string()),
        (Method::GET, format!("/api/websites/{site}")),
        (Method::DELETE, format!("/api/websites/{site}")),
        (Method::GET, format!("/api/websites/{site}/shared-links")),
        (Method::POST, format!("/api/websites/{site}/shared-links")),
        (Method::GET, format!("/api/dashboard/overview?website_id={site}")),
        (Method::GET, format!("/api/websites/{site}/identified-visitors")),
        (Method::GET, format!("/api/websites/{site}/export?format=csv")),
        (Method::GET, format!("/api/websites/{site}/session-replays")),
        (Method::GET, "/api/user/settings".to_string()),
        (Method::GET, "/api/user/api-keys".to_string()),
        (Method::POST, "/api/dashboard/live/ticket".to_string()),
        (Method::GET, "/api/user".to_string()),
    ];
    for (method, path) in owner_routes {
        let body = (method == Method::POST).then(|| json!({"name": "x"}));
        let answer = server.call(method.clone(), &path, Some(&share), body).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{method} {path}: {}", answer.text);
    }
    let crossed = server.get(&format!("/api/share/{other_slug}/overview"), &share).await;
    assert_eq!(crossed.status, StatusCode::UNAUTHORIZED, "{}", crossed.text);
    // An owner's access token is no share token either.
    let owner_on_share = server.get(&format!("/api/share/{other_slug}/overview"), &token).await;
    assert_eq!(owner_on_share.status, StatusCode::UNAUTHORIZED, "{}", owner_on_share.text);

    // No query reaches another site: a site id in the query is not a parameter of the share reads.
    let mine = server.get(&format!("/api/share/{slug}/overview?range=7d"), &share).await;
    let steered = server.get(&format!("/api/share/{slug}/overview?range=7d&website_id={other_site}"), &share).await;
    assert_eq!(steered.json, mine.json);
    assert_eq!(mine.json["metrics"]["pageViews"], 5, "{}", mine.text);
    // Only aggregate reads exist under /api/share.
    for path in ["identified-visitors", "replays", "export?format=csv", "visitors", "conversions", "settings"] {
        let answer = server.get(&format!("/api/share/{slug}/{path}"), &share).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {}", answer.text);
    }

    // Deleting the link ends the session at once.
    server.delete(&format!("/api/websites/{site}/shared-links/{}", locked["id"]), &token).await;
    assert_eq!(server.get(&format!("/api/share/{slug}/overview"), &share).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn wrong_share_passwords_are_limited_like_logins() {
    let server = TestServer::start_with(|config| config.login_attempts_per_minute = 3).await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Blog", "light").await["id"].as_i64().unwrap();
    let slug = link(&server, &token, site, json!({"name": "Client", "password": "letmein1"})).await["slug"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/share/{slug}/session");
    for _ in 0..3 {
        let wrong = server.call(Method::POST, &path, None, Some(json!({"password": "guess"}))).await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.text);
        wrong.error_message();
    }
    let limited = server.call(Method::POST, &path, None, Some(json!({"password": "letmein1"}))).await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS, "{}", limited.text);
    limited.error_message();
}

#[tokio::test]
async fn only_an_embed_links_page_may_be_framed_and_only_by_its_origins() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Blog", "light").await["id"].as_i64().unwrap();
    let embed = link(
        &server,
        &token,
        site,
        json!({"name": "Embed", "embed": true, "allowedOrigins": ["http://127.0.0.1:8123", "https://Intranet.example"]}),
    )
    .await;
    let plain = link(&server, &token, site, json!({"name": "Plain"})).await;

    let page = anonymous(&server, &format!("/share/{}?embed=true", embed["slug"].as_str().unwrap())).await;
    assert_eq!(page.status, StatusCode::OK);
    let policy = page.headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors http://127.0.0.1:8123 https://intranet.example;"), "{policy}");
    assert!(!policy.contains("'none'; object") || policy.contains("object-src 'none'"), "{policy}");
    assert!(page.headers.get("x-frame-options").is_none(), "{:?}", page.headers);
    assert!(page.text.contains("<div id=\"root\""), "the dashboard's page");

    // Every other answer keeps framing denied: a plain link's page, an unknown slug, the embed link's API.
    let unknown = format!("/share/{}", "A".repeat(22));
    for (path, status) in [
        (format!("/share/{}", plain["slug"].as_str().unwrap()), StatusCode::OK),
        (unknown, StatusCode::NOT_FOUND),
        (format!("/api/share/{}", embed["slug"].as_str().unwrap()), StatusCode::OK),
        ("/dashboard".to_string(), StatusCode::OK),
    ] {
        let answer = anonymous(&server, &path).await;
        assert_eq!(answer.status, status, "{path}");
        let policy = answer.headers["content-security-policy"].to_str().unwrap();
        assert!(policy.contains("frame-ancestors 'none'"), "{path}: {policy}");
        assert_eq!(answer.headers["x-frame-options"], "DENY", "{path}");
    }
}
