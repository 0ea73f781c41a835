//! Issue 37: share links through the real daemon: an owner creates, lists and deletes them; a link's reads answer
//! exactly as the owner's routes for the same range and filters, with the link's filters always ANDed in; a
//! deleted link or site ends the page and the reads at once. (What a share credential must never reach is in
//! security/share_links.rs.)

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::util::{Answer, TestServer};

const FIREFOX_UA: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/// Percent-encodes a query value (everything but letters and digits).
pub(crate) fn enc(raw: &str) -> String {
    raw.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

/// A site with three visits: Chrome on / and /pricing, Firefox on /blog/post and /pricing, Chrome on /blog/other.
pub(crate) async fn seeded(server: &TestServer, token: &str) -> i64 {
    let site = server.create_site(token, "Shop", "professional").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    let hits = [
        ("session-one", "/", crate::util::BROWSER_UA),
        ("session-one", "/pricing", crate::util::BROWSER_UA),
        ("session-two", "/blog/post", FIREFOX_UA),
        ("session-two", "/pricing", FIREFOX_UA),
        ("session-three", "/blog/other", crate::util::BROWSER_UA),
    ];
    for (session, path, agent) in hits {
        let body = json!({"tracking_key": key, "session_id": session, "url": format!("https://shop.example{path}")});
        let request = server.client.post(server.url("/api/track")).header("user-agent", agent).json(&body);
        let answer = crate::util::answer(request.send().await.expect("track")).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    site["id"].as_i64().unwrap()
}

/// A GET without credentials.
pub(crate) async fn anonymous(server: &TestServer, path: &str) -> Answer {
    server.call(Method::GET, path, None, None).await
}

/// Each share read and the owner's route it mirrors, for a query (without `?`).
fn mirrored(slug: &str, site: i64, query: &str) -> Vec<(String, String)> {
    vec![
        (format!("/api/share/{slug}/overview?{query}"), format!("/api/dashboard/overview?website_id={site}&{query}")),
        (
            format!("/api/share/{slug}/timeseries?{query}"),
            format!("/api/dashboard/timeseries?website_id={site}&{query}"),
        ),
        (format!("/api/share/{slug}/breakdown/page?{query}"), format!("/api/websites/{site}/breakdown/page?{query}")),
        (
            format!("/api/share/{slug}/breakdown/browser?limit=5&{query}"),
            format!("/api/websites/{site}/breakdown/browser?limit=5&{query}"),
        ),
        (format!("/api/share/{slug}/traffic-sources?{query}"), format!("/api/websites/{site}/traffic-sources?{query}")),
        (format!("/api/share/{slug}/referrers?{query}"), format!("/api/websites/{site}/referrers?{query}")),
        (format!("/api/share/{slug}/countries?{query}"), format!("/api/websites/{site}/countries?{query}")),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_are_created_listed_read_as_the_owner_reads_and_deleted_at_once() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = seeded(&server, &token).await;

    let open = server.post(&format!("/api/websites/{site}/shared-links"), &token, json!({"name": "Public"})).await;
    assert_eq!(open.status, StatusCode::CREATED, "{}", open.text);
    let slug = open.json["slug"].as_str().unwrap().to_string();
    assert_eq!(URL_SAFE_NO_PAD.decode(&slug).unwrap().len(), 16, "128 bits: {slug}");
    assert_eq!(open.json["url"], format!("{}/share/{slug}", server.base));
    assert_eq!(open.json["passwordRequired"], false);
    let chrome = r#"[["is","visit:browser",["Chrome"]]]"#;
    let fixed = server
        .post(
            &format!("/api/websites/{site}/shared-links"),
            &token,
            json!({"name": "Chrome only", "filters": serde_json::from_str::<Value>(chrome).unwrap(), "password": "letmein1"}),
        )
        .await;
    assert_eq!(fixed.status, StatusCode::CREATED, "{}", fixed.text);
    let fixed_slug = fixed.json["slug"].as_str().unwrap().to_string();

    let listed = server.get(&format!("/api/websites/{site}/shared-links"), &token).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let links = listed.json.as_array().unwrap();
    assert_eq!(links.len(), 2);
    assert_eq!((links[0]["name"].as_str(), links[0]["passwordRequired"].as_bool()), (Some("Chrome only"), Some(true)));
    assert_eq!((links[1]["name"].as_str(), links[1]["passwordRequired"].as_bool()), (Some("Public"), Some(false)));
    assert!(!listed.text.contains("argon2") && !listed.text.contains("letmein1"), "{}", listed.text);
    assert!(links.iter().all(|l| l.get("password").is_none() && l.get("passwordHash").is_none()));

    // What the page shows of itself, without any credential.
    let info = anonymous(&server, &format!("/api/share/{slug}")).await;
    assert_eq!(info.status, StatusCode::OK, "{}", info.text);
    assert_eq!((info.json["siteName"].as_str(), info.json["linkName"].as_str()), (Some("Shop"), Some("Public")));
    assert_eq!(info.json["passwordRequired"], false);

    // An open link's reads are the owner's, for the same range, comparison and filters.
    let firefox = enc(r#"[["is","visit:browser",["Firefox"]]]"#);
    for query in ["range=7d", "range=7d&compare=previous_period", &format!("range=7d&filters={firefox}")] {
        for (shared, owned) in mirrored(&slug, site, query) {
            let (shared_answer, owned_answer) = (anonymous(&server, &shared).await, server.get(&owned, &token).await);
            assert_eq!(shared_answer.status, StatusCode::OK, "{shared}: {}", shared_answer.text);
            assert_eq!(owned_answer.status, StatusCode::OK, "{owned}: {}", owned_answer.text);
            assert_eq!(shared_answer.json, owned_answer.json, "{shared} vs {owned}");
        }
    }
    let overview = anonymous(&server, &format!("/api/share/{slug}/overview?range=7d")).await;
    assert_eq!(overview.json["metrics"]["pageViews"], 5, "{}", overview.text);

    // A link's filters hold on every read, and a visitor's own filters narrow them, never replace them.
    let session = server
        .call(Method::POST, &format!("/api/share/{fixed_slug}/session"), None, Some(json!({"password": "letmein1"})))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.text);
    let share_token = session.json["token"].as_str().unwrap().to_string();
    let both = enc(r#"[["is","visit:browser",["Chrome"]],["is","visit:browser",["Firefox"]]]"#);
    for (visitor, owner_filters) in [("", enc(chrome)), (firefox.as_str(), both.clone()), ("%5B%5D", enc(chrome))] {
        let query = if visitor.is_empty() { "range=7d".to_string() } else { format!("range=7d&filters={visitor}") };
        for (shared, _) in mirrored(&fixed_slug, site, &query) {
            let owned = mirrored(&fixed_slug, site, &format!("range=7d&filters={owner_filters}"))
                .into_iter()
                .find(|(s, _)| s.split('?').next() == shared.split('?').next())
                .unwrap()
                .1;
            let (shared_answer, owned_answer) =
                (server.get(&shared, &share_token).await, server.get(&owned, &token).await);
            assert_eq!(shared_answer.status, StatusCode::OK, "{shared}: {}", shared_answer.text);
            assert_eq!(shared_answer.json, owned_answer.json, "{shared} vs {owned}");
        }
    }
    let chrome_only = server.get(&format!("/api/share/{fixed_slug}/overview?range=7d"), &share_token).await;
    assert_eq!(chrome_only.json["metrics"]["pageViews"], 3, "{}", chrome_only.text);
    let widened =
        server.get(&format!("/api/share/{fixed_slug}/overview?range=7d&filters={firefox}"), &share_token).await;
    assert_eq!(widened.json["metrics"]["pageViews"], 0, "the visitor's filter narrows: {}", widened.text);

    // Deleting a link ends its page and reads at once; deleting the site ends the rest.
    let deleted = server.delete(&format!("/api/websites/{site}/shared-links/{}", open.json["id"]), &token).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(anonymous(&server, &format!("/api/share/{slug}/overview")).await.status, StatusCode::NOT_FOUND);
    assert_eq!(anonymous(&server, &format!("/api/share/{slug}")).await.status, StatusCode::NOT_FOUND);
    assert_eq!(anonymous(&server, &format!("/share/{slug}")).await.status, StatusCode::NOT_FOUND);
    let again = server.delete(&format!("/api/websites/{site}/shared-links/{}", open.json["id"]), &token).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.text);
    assert_eq!(anonymous(&server, &format!("/share/{fixed_slug}")).await.status, StatusCode::OK);
    assert_eq!(server.delete(&format!("/api/websites/{site}"), &token).await.status, StatusCode::NO_CONTENT);
    let gone = server.get(&format!("/api/share/{fixed_slug}/overview"), &share_token).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
    assert_eq!(anonymous(&server, &format!("/share/{fixed_slug}")).await.status, StatusCode::NOT_FOUND);
    server.stop().await;
}

#[tokio::test]
async fn bad_links_are_400_and_another_users_site_is_404() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Blog", "light").await["id"].as_i64().unwrap();
    let path = format!("/api/websites/{site}/shared-links");
    for body in [
        json!({"name": ""}),
        json!({"name": "x".repeat(101)}),
        json!({"name": "ok", "password": "short"}),
        json!({"name": "ok", "filters": [["is", "visit:nonsense", ["x"]]]}),
        json!({"name": "ok", "filters": "not json"}),
        json!({"name": "ok", "embed": true}),
        json!({"name": "ok", "embed": true, "allowedOrigins": ["https://*.example.com"]}),
        json!({"name": "ok", "embed": true, "allowedOrigins": ["https://example.com/path"]}),
        json!({"name": "ok", "embed": true, "allowedOrigins": ["https://a.example; script-src *"]}),
        json!({"name": "ok", "embed": true, "allowedOrigins": (0..11).map(|i| format!("https://a{i}.example")).collect::<Vec<_>>()}),
        json!({"name": "ok", "allowedOrigins": ["https://example.com"]}),
        json!({"name": "ok", "extra": 1}),
    ] {
        let answer = server.post(&path, &token, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}: {}", answer.text);
        answer.error_message();
    }
    let (stranger, _) = server.register("stranger@example.com").await;
    for answer in [
        server.get(&path, &stranger).await,
        server.post(&path, &stranger, json!({"name": "mine now"})).await,
        server.delete(&format!("{path}/1"), &stranger).await,
    ] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    }
    assert_eq!(server.get(&path, &token).await.json, json!([]));
}
