//! The other tools' tracking endpoints (issue 38): Plausible's `POST /api/event`, Umami's `POST /api/send` and
//! GoatCounter's `/goatcounter/{trackingKey}/count`, sent exactly what those tools' scripts and documented
//! server-side senders send (learnt from their public source: Plausible's tracker `track.js`, `engagement.js`
//! and `networking.js`, its Events API docs; Umami's `src/tracker/index.js` and `src/app/api/send/route.ts`;
//! GoatCounter's `public/count.js` and `handlers/count.go`). What they store is read back through the Stats
//! API, and on a cluster (two daemons, hits sent round-robin) the answers are SQLite's.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::{Corner, harness};
use crate::util::{Answer, BROWSER_UA, TestServer, answer};

const BOT_UA: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/// A site per tool on `server` (enhanced, so engagement's scroll depth is kept); their tracking keys.
struct Sites {
    token: String,
    plausible: Value,
    umami: Value,
    goatcounter: Value,
}

async fn sites(server: &TestServer) -> Sites {
    let (token, _) = server.register("switcher@example.com").await;
    let plausible = server.create_site(&token, "Plaus", "enhanced").await;
    let umami = server.create_site(&token, "Umam", "light").await;
    let goatcounter = server.create_site(&token, "Goat", "light").await;
    Sites { token, plausible, umami, goatcounter }
}

fn key(site: &Value) -> &str {
    site["trackingKey"].as_str().unwrap()
}

/// POSTs `body` as text to `path` from a visitor's browser (or a server naming one in X-Forwarded-For).
async fn send(server: &TestServer, path: &str, content_type: &str, agent: &str, body: &str) -> Answer {
    let request = server
        .client
        .post(server.url(path))
        .header("user-agent", agent)
        .header("content-type", content_type)
        .header("origin", "https://visited.example")
        .header("x-forwarded-for", "8.8.8.8")
        .body(body.to_string());
    answer(request.send().await.unwrap()).await
}

/// Plausible's script (text/plain, short keys) and a server-side sender (application/json, the documented
/// keys), an engagement ping, and what Plausible drops or refuses.
async fn plausible(server: &TestServer, sites: &Sites) {
    let domain = "plaus.example.com";
    let pageview = json!({"n": "pageview", "v": 27, "u": format!("https://{domain}/pricing?utm_source=news"), "d": domain,
        "r": "https://news.example.org/story", "p": {"author": "Jo"}});
    let answer = send(server, "/api/event", "text/plain", BROWSER_UA, &pageview.to_string()).await;
    assert_eq!((answer.status, answer.text.as_str()), (StatusCode::ACCEPTED, "ok"), "{answer:?}");
    assert_eq!(answer.headers["access-control-allow-origin"], "*");
    assert!(answer.headers.get("x-plausible-dropped").is_none());
    let signup = json!({"name": "Signup", "url": format!("https://{domain}/pricing"), "domain": domain,
        "props": {"plan": "pro", "nested": {"no": 1}}, "revenue": {"currency": "EUR", "amount": "49.90"}});
    let answer = send(server, "/api/event", "application/json", BROWSER_UA, &signup.to_string()).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    let engagement = json!({"n": "engagement", "sd": 80, "d": domain, "u": format!("https://{domain}/pricing?utm_source=news"),
        "p": {}, "e": 5_000, "v": 27});
    let answer = send(server, "/api/event", "text/plain", BROWSER_UA, &engagement.to_string()).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    assert!(answer.headers.get("x-plausible-dropped").is_none(), "an enhanced site keeps the scroll depth");
    // The tracking key names a site too; a domain no site has, and a bot, are dropped as Plausible drops them.
    let by_key = json!({"n": "Download", "u": format!("https://{domain}/files"), "d": key(&sites.plausible)});
    assert_eq!(
        send(server, "/api/event", "text/plain", BROWSER_UA, &by_key.to_string()).await.status,
        StatusCode::ACCEPTED
    );
    for (agent, domain) in [(BROWSER_UA, "nobody.example.net"), (BOT_UA, domain)] {
        let body = json!({"n": "pageview", "u": format!("https://{domain}/"), "d": domain});
        let answer = send(server, "/api/event", "text/plain", agent, &body.to_string()).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        assert_eq!(answer.headers["x-plausible-dropped"], "1", "{domain} {agent}");
    }
    for (bad, why) in [
        (json!({"u": "https://plaus.example.com/", "d": domain}).to_string(), "name"),
        (json!({"n": "pageview", "d": domain}).to_string(), "url"),
        ("{not json".to_string(), "JSON"),
        (json!({"n": "pageview", "u": "/", "d": "a,b,c,d,e,f,g,h,i,j,k"}).to_string(), "at most 10"),
    ] {
        let answer = send(server, "/api/event", "text/plain", BROWSER_UA, &bad).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(answer.error_message().contains(why), "{bad}: {}", answer.text);
        assert_eq!(answer.headers["access-control-allow-origin"], "*");
    }
    let huge = json!({"n": "pageview", "u": "https://plaus.example.com/", "d": domain, "p": {"x": "a".repeat(20_000)}});
    assert_eq!(
        send(server, "/api/event", "text/plain", BROWSER_UA, &huge.to_string()).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
}

/// Umami's script: its preflight, then JSON page views and events naming the site by tracking key or by the
/// Umami website id set in its settings; an identify; the answers it reads.
async fn umami(server: &TestServer, sites: &Sites) -> String {
    let preflight = server
        .client
        .request(reqwest::Method::OPTIONS, server.url("/api/send"))
        .header("origin", "https://umam.example.com")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,x-umami-cache")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let allowed = preflight.headers()["access-control-allow-headers"].to_str().unwrap().to_string();
    assert!(allowed.contains("content-type") && allowed.contains("x-umami-cache"), "{allowed}");
    let umami_id = "4fd1f1a5-bb3b-4bb7-9a0c-6f1f1e6c9a11";
    let id = sites.umami["id"].as_i64().unwrap();
    let set = server.put(&format!("/api/websites/{id}"), &sites.token, json!({"umamiWebsiteId": umami_id})).await;
    assert_eq!((set.status, set.json["umamiWebsiteId"].as_str()), (StatusCode::OK, Some(umami_id)), "{}", set.text);
    let bad = server.put(&format!("/api/websites/{id}"), &sites.token, json!({"umamiWebsiteId": "nope"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    let payload = |website: &str, url: &str, name: Option<&str>| {
        let mut payload = json!({"website": website, "screen": "1920x1080", "language": "en-US", "title": "Umam",
            "hostname": "umam.example.com", "url": url, "referrer": "https://search.example.org/?q=umam"});
        if let Some(name) = name {
            payload["name"] = json!(name);
            payload["data"] = json!({"plan": "team", "seats": 5});
        }
        payload
    };
    let mut cache = None;
    for (website, url, name) in [
        (umami_id, "https://umam.example.com/docs#install", None),
        (key(&sites.umami), "https://umam.example.com/docs", Some("signup-click")),
        (umami_id, "/blog", None),
    ] {
        let body = json!({"type": "event", "payload": payload(website, url, name)});
        let mut request = server
            .client
            .post(server.url("/api/send"))
            .header("user-agent", BROWSER_UA)
            .header("x-forwarded-for", "9.9.9.9")
            .json(&body);
        if let Some(cache) = &cache {
            request = request.header("x-umami-cache", cache);
        }
        let answer = answer(request.send().await.unwrap()).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert_eq!(answer.headers["access-control-allow-origin"], "*");
        assert!(answer.json["sessionId"].as_str().is_some_and(|s| s.len() == 36), "{}", answer.text);
        cache = Some(answer.json["cache"].as_str().expect("the script keeps `cache`").to_string());
    }
    let identify = json!({"type": "identify", "payload": {"website": umami_id, "url": "/", "hostname": "umam.example.com", "id": "user-7", "data": {"tier": "gold"}}});
    let answer = send(server, "/api/send", "application/json", BROWSER_UA, &identify.to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let bot = json!({"type": "event", "payload": payload(umami_id, "/", None)});
    let answer = send(server, "/api/send", "application/json", BOT_UA, &bot.to_string()).await;
    assert_eq!(answer.json, json!({"beep": "boop"}), "{}", answer.text);
    let unknown = json!({"type": "event", "payload": payload("00000000-0000-4000-8000-000000000000", "/", None)});
    let answer = send(server, "/api/send", "application/json", BROWSER_UA, &unknown.to_string()).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
    assert!(answer.error_message().contains("Website not found"), "{}", answer.text);
    for bad in [json!({"type": "event"}), json!({"type": "click", "payload": {"website": umami_id}}), json!([1])] {
        let answer = send(server, "/api/send", "application/json", BROWSER_UA, &bad.to_string()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    umami_id.to_string()
}

/// GoatCounter's count.js: a page view as an image (GET), an event as a beacon (POST, no body), its headless
/// guess, and what GoatCounter refuses.
async fn goatcounter(server: &TestServer, sites: &Sites) {
    let count = format!("/goatcounter/{}/count", key(&sites.goatcounter));
    let image = server
        .client
        .get(server.url(&format!("{count}?p=%2Fdocs%2Fsetup&r=https%3A%2F%2Fforum.example.net%2Ft%2F1&t=Setup&s=1280&q=%3Futm_source%3Dgc&rnd=x1y2z")))
        .header("user-agent", BROWSER_UA)
        .header("x-forwarded-for", "1.1.1.1")
        .header("referer", "https://goat.example.com/docs/setup?utm_source=gc")
        .send()
        .await
        .unwrap();
    assert_eq!(image.status(), StatusCode::OK);
    assert_eq!(image.headers()["content-type"], "image/gif");
    assert_eq!(image.bytes().await.unwrap().len(), 43);
    let beacon = server
        .client
        .post(server.url(&format!("{count}?p=signup-button&t=Sign%20up&e=true&s=1280&b=0&q=&rnd=a1b2c")))
        .header("user-agent", BROWSER_UA)
        .header("x-forwarded-for", "1.1.1.1")
        .header("content-type", "text/plain;charset=UTF-8")
        .header("referer", "https://goat.example.com/docs/setup")
        .send()
        .await
        .unwrap();
    assert_eq!(beacon.status(), StatusCode::OK);
    let headless =
        server.client.get(server.url(&format!("{count}?p=%2F&b=153&rnd=q"))).header("user-agent", BROWSER_UA);
    assert_eq!(headless.send().await.unwrap().status(), StatusCode::OK);
    for (query, status) in [("p=%2F&b=7", 400), ("b=0", 400), (&*format!("p=%2F{}", "a".repeat(2_100)), 400)] {
        let answer = answer(
            server
                .client
                .get(server.url(&format!("{count}?{query}")))
                .header("user-agent", BROWSER_UA)
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(answer.status.as_u16(), status, "{query}: {}", answer.text);
        answer.error_message();
    }
    let unknown = server.client.get(server.url("/goatcounter/no-such-key/count?p=%2F")).send().await.unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
}

/// What the Stats API says of each site: totals, pages, and events by name with their properties.
async fn read_back(server: &TestServer, sites: &Sites) -> Value {
    let mut all = serde_json::Map::new();
    for (tool, site) in [("plausible", &sites.plausible), ("umami", &sites.umami), ("goatcounter", &sites.goatcounter)]
    {
        let mut answers = Vec::new();
        for query in [
            json!({"metrics": ["visitors", "visits", "pageviews", "events"]}),
            json!({"metrics": ["pageviews"], "dimensions": ["event:page"]}),
            json!({"metrics": ["events"], "dimensions": ["event:name"]}),
            json!({"metrics": ["visitors"], "dimensions": ["visit:source", "visit:utm_source"]}),
        ] {
            let mut query = query;
            query["site_id"] = site["domain"].clone();
            query["date_range"] = json!("day");
            let answer = server.post("/api/v2/query", &sites.token, query.clone()).await;
            assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.text);
            answers.push(answer.json["results"].clone());
        }
        all.insert(tool.to_string(), Value::Array(answers));
    }
    Value::Object(all)
}

fn metrics(read: &Value, tool: &str, query: usize) -> Vec<(Value, Value)> {
    read[tool][query].as_array().unwrap().iter().map(|r| (r["dimensions"].clone(), r["metrics"].clone())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_tools_scripts_and_apis_store_on_the_right_site() {
    let server = TestServer::start().await;
    let sites = sites(&server).await;
    plausible(&server, &sites).await;
    umami(&server, &sites).await;
    goatcounter(&server, &sites).await;
    let read = read_back(&server, &sites).await;
    // One visitor per tool (the visit is named from address and user agent): Plausible's page view, its
    // conversion and its key-named event, none of the dropped ones.
    assert_eq!(metrics(&read, "plausible", 0), vec![(json!([]), json!([1, 1, 1, 3]))], "{read:#}");
    assert_eq!(metrics(&read, "plausible", 1)[0], (json!(["/pricing"]), json!([1])), "{read:#}");
    assert_eq!(metrics(&read, "plausible", 3), vec![(json!(["news", "news"]), json!([1]))], "utm_source: {read:#}");
    assert_eq!(metrics(&read, "umami", 1).len(), 2, "/docs (its #fragment dropped) and /blog: {read:#}");
    assert_eq!(metrics(&read, "goatcounter", 1)[0], (json!(["/docs/setup"]), json!([1])), "{read:#}");
    assert_eq!(
        metrics(&read, "goatcounter", 0),
        vec![(json!([]), json!([1, 1, 1, 2]))],
        "the headless hit dropped: {read:#}"
    );
    let named = |tool: &str| -> Vec<String> {
        metrics(&read, tool, 2).into_iter().map(|(d, _)| d[0].as_str().unwrap().to_string()).collect()
    };
    for (tool, event) in [
        ("plausible", "Signup"),
        ("plausible", "Download"),
        ("umami", "signup-click"),
        ("goatcounter", "signup-button"),
    ] {
        assert!(named(tool).contains(&event.to_string()), "{tool} {event}: {read:#}");
    }
    assert!(!named("plausible").contains(&"engagement".to_string()), "engagement is no custom event: {read:#}");
    // The engagement ping raised the page view's scroll depth, as our own script's interactions do.
    let depth: i64 = server
        .tracker
        .db()
        .read(|c| Ok(c.query_row("SELECT MAX(depth) FROM scroll_depths", [], |r| r.get(0))?))
        .unwrap();
    assert_eq!(depth, 80);
}

/// The same requests to two cluster daemons, alternately, answer and store as on SQLite.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_tools_endpoints_answer_alike_on_a_cluster() {
    let Some((pg, ch)) = harness() else { return };
    crate::cluster::start_early_in_the_hour().await;
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    let (on_a, on_sqlite) = (sites(&a).await, sites(&sqlite).await);
    // Each tool's requests on one daemon and the next tool's on the other: a visitor's hits reach both.
    plausible(&a, &on_a).await;
    umami(&b, &on_a).await;
    goatcounter(&a, &on_a).await;
    let follow_up = json!({"n": "pageview", "u": "https://plaus.example.com/pricing", "d": "plaus.example.com"});
    plausible(&sqlite, &on_sqlite).await;
    for server in [&b, &sqlite] {
        let answer = send(server, "/api/event", "text/plain", BROWSER_UA, &follow_up.to_string()).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED);
    }
    umami(&sqlite, &on_sqlite).await;
    goatcounter(&sqlite, &on_sqlite).await;
    let (cluster, expected) = (read_back(&b, &on_a).await, read_back(&sqlite, &on_sqlite).await);
    assert_eq!(cluster, expected);
    assert_eq!(
        metrics(&expected, "plausible", 0)[0].1[1],
        json!(1),
        "the follow-up on the other daemon is the same visit"
    );
}
