//! Conversion funnels (/api/funnels) and customer journeys (/api/analytics/customer-journeys, /journeys)
//! over visits sent through the real ingest path, with figures known by construction.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{assert_not_found, owner_with_site};
use crate::util::{Answer, TestServer};

const ORIGIN: &str = "https://shop.example.com";

async fn view(server: &TestServer, key: &str, session: &str, path: &str, ts: Option<i64>) {
    let mut body = json!({"tracking_key": key, "session_id": session, "url": format!("{ORIGIN}{path}")});
    if let Some(ts) = ts {
        body["timestamp"] = json!(ts);
    }
    let answer = server.track(body).await;
    assert!(answer.status.is_success(), "{}", answer.text);
}

async fn convert(server: &TestServer, key: &str, session: &str, path: &str, ts: Option<i64>) {
    let mut body = json!({"tracking_key": key, "session_id": session, "url": format!("{ORIGIN}{path}"),
        "event": "conversion", "event_name": "purchase", "event_properties": {"value": 25}});
    if let Some(ts) = ts {
        body["timestamp"] = json!(ts);
    }
    let answer = server.track(body).await;
    assert!(answer.status.is_success(), "{}", answer.text);
}

/// 100 visits land on /, 60 of them go on to a product, 30 of those to /checkout and 12 of those buy on
/// /success. Visits that skip a step or take steps out of order must not count past the gap.
async fn seed_shop(server: &TestServer, key: &str) {
    let mut tasks = Vec::new();
    for i in 0..100 {
        tasks.push(async move {
            let s = format!("visit-{i:03}");
            view(server, key, &s, "/", None).await;
            if i < 60 {
                view(server, key, &s, &format!("/product/{i}"), None).await;
            } else if i < 70 {
                // Skips the product: never reaches step 2, so not step 3 either.
                view(server, key, &s, "/checkout", None).await;
            }
            if i < 30 {
                view(server, key, &s, "/checkout", None).await;
            } else if i < 36 {
                // Buys without the checkout page: stops at step 2.
                view(server, key, &s, "/success", None).await;
                convert(server, key, &s, "/success", None).await;
            }
            if i < 12 {
                view(server, key, &s, "/success", None).await;
                convert(server, key, &s, "/success", None).await;
            }
        });
    }
    let mut strays = Vec::new();
    for i in 0..5 {
        strays.push(async move {
            // No landing page: counts nowhere.
            let s = format!("direct-{i}");
            view(server, key, &s, "/product/9", None).await;
            view(server, key, &s, "/checkout", None).await;
        });
    }
    futures_util::future::join(futures_util::future::join_all(tasks), futures_util::future::join_all(strays)).await;
}

fn shop_funnel(site: i64) -> Value {
    json!({"name": "Checkout", "websiteId": site, "steps": [
        {"name": "Landing Page", "url": "/"},
        {"name": "Product Page", "url": "/product/*"},
        {"name": "Checkout", "url": "/checkout"},
        {"name": "Purchase", "url": "/success", "eventName": "purchase"},
    ]})
}

fn step_counts(funnel: &Value) -> Vec<u64> {
    funnel["steps"].as_array().unwrap().iter().map(|s| s["visitors"].as_u64().unwrap()).collect()
}

#[tokio::test]
async fn funnel_figures_are_known_by_construction() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "funnels@example.com", "professional").await;
    seed_shop(&server, &key).await;

    let created = server.post("/api/funnels", &token, shop_funnel(site)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(step_counts(&created.json), [100, 60, 30, 12]);
    assert_eq!(created.json["status"], "active");
    assert_eq!(created.json["website"]["name"], "Shop");
    assert_eq!(created.json["websiteId"], site);
    assert_eq!(created.json["totalVisitors"], 100);
    assert_eq!(created.json["totalConversions"], 12);
    assert_eq!(created.json["overallConversionRate"], 12.0);
    assert_eq!(created.json["conversionRate"], 12.0);
    assert!(created.json["createdAt"].as_str().unwrap().ends_with('Z'));
    let steps = created.json["steps"].as_array().unwrap();
    assert_eq!(steps[0]["conversions"], 60);
    assert_eq!(steps[0]["conversionRate"], 60.0);
    assert_eq!(steps[0]["dropOffRate"], 40.0);
    assert_eq!(steps[2]["conversions"], 12);
    assert_eq!(steps[2]["conversionRate"], 40.0);
    assert_eq!(steps[3]["eventName"], "purchase");
    assert_eq!(steps[3]["conversions"], 12);
    assert!(steps[0]["eventName"].is_null());

    // Page-view steps count the 5 visits that skipped the landing page and the 6 that bought without a
    // checkout: 65 saw a product, 18 of them /success afterwards.
    let pages_only = server
        .post(
            "/api/funnels",
            &token,
            json!({"name": "Product to success", "websiteId": site.to_string(), "steps": [
                {"name": "Product", "url": "/product/*"}, {"name": "Success", "url": "/success"}]}),
        )
        .await;
    assert_eq!(pages_only.status, StatusCode::CREATED, "{}", pages_only.text);
    assert_eq!(step_counts(&pages_only.json), [65, 18]);

    let list = server.get("/api/funnels", &token).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let list = list.json.as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["name"], "Product to success", "newest first");
    assert_eq!(step_counts(&list[1]), [100, 60, 30, 12]);
    for range in ["1d", "7d", "90d"] {
        let answer = server.get(&format!("/api/funnels?range={range}&website_id={site}"), &token).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert_eq!(step_counts(&answer.json[1]), [100, 60, 30, 12], "{range}");
    }
    let bad = server.get("/api/funnels?range=2d", &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.error_message(), "range must be 1d, 7d, 30d or 90d");

    server.stop().await;
}

/// The visits that stopped at each step are those of the construction (100 → 60 → 30 → 12), newest
/// first, each with a session the visitor stream opens; limits and another user's ids are refused.
#[tokio::test]
async fn drop_offs_list_the_visits_that_stopped_at_each_step() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "dropoffs@example.com", "professional").await;
    let (bob, _, _) = owner_with_site(&server, "bob-dropoffs@example.com", "light").await;
    seed_shop(&server, &key).await;
    let id = server.post("/api/funnels", &token, shop_funnel(site)).await.json["id"].as_i64().unwrap();

    let all = server.get(&format!("/api/funnels/{id}/drop-offs?range=7d&limit=100"), &token).await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.text);
    assert_eq!(all.json["funnelId"], id);
    let steps = all.json["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3, "no drop-off list for the last step");
    let sessions = |n: usize| -> Vec<String> {
        let mut keys: Vec<String> = steps[n]["visits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["sessionId"].as_str().unwrap().to_string())
            .collect();
        keys.sort();
        keys
    };
    let expected = |range: std::ops::Range<usize>| -> Vec<String> { range.map(|i| format!("visit-{i:03}")).collect() };
    assert_eq!((steps[0]["step"].as_u64(), steps[0]["droppedOff"].as_u64()), (Some(1), Some(40)));
    assert_eq!(sessions(0), expected(60..100), "landed and never saw a product");
    assert_eq!(steps[1]["droppedOff"], 30);
    assert_eq!(sessions(1), expected(30..60), "saw a product, no checkout");
    assert_eq!(steps[2]["droppedOff"], 18);
    assert_eq!(sessions(2), expected(12..30), "checked out, no purchase");
    let newest: Vec<&str> =
        steps[0]["visits"].as_array().unwrap().iter().map(|v| v["startedAt"].as_str().unwrap()).collect();
    assert!(newest.windows(2).all(|w| w[0] >= w[1]), "newest first: {newest:?}");

    let limited = server.get(&format!("/api/funnels/{id}/drop-offs?limit=5"), &token).await;
    assert_eq!(limited.status, StatusCode::OK, "{}", limited.text);
    assert_eq!(limited.json["steps"][0]["visits"].as_array().unwrap().len(), 5);
    assert_eq!(limited.json["steps"][0]["droppedOff"], 40);

    // A listed visit opens as a stream session (its detail panel), for its owner only.
    let visit = &steps[2]["visits"][0];
    let session = server.get(&format!("/api/analytics/sessions/{}?website_id={site}", visit["id"]), &token).await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.text);
    assert_eq!(session.json["id"], visit["id"]);
    assert_eq!(session.json["pageViewCount"], visit["pageViews"]);
    assert_eq!(session.json["exitPage"], "/checkout");
    assert_not_found(&server.get(&format!("/api/analytics/sessions/{}", visit["id"]), &bob).await, "foreign session");
    assert_not_found(&server.get("/api/analytics/sessions/abc", &token).await, "not a session id");

    for (query, message) in [
        ("limit=0", "limit must be a whole number from 1 to 100"),
        ("limit=101", "limit must be a whole number from 1 to 100"),
        ("limit=x", "limit must be a whole number from 1 to 100"),
        ("range=2d", "range must be 1d, 7d, 30d or 90d"),
    ] {
        let bad = server.get(&format!("/api/funnels/{id}/drop-offs?{query}"), &token).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(bad.error_message(), message);
    }
    assert_not_found(&server.get(&format!("/api/funnels/{id}/drop-offs"), &bob).await, "foreign funnel");
    assert_not_found(&server.get("/api/funnels/99999/drop-offs", &token).await, "missing funnel");
    server.stop().await;
}

#[tokio::test]
async fn funnels_are_edited_paused_and_deleted() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "edit@example.com", "light").await;
    view(&server, &key, "visit-a-01", "/", None).await;
    view(&server, &key, "visit-a-01", "/pricing", None).await;
    let created = server.post("/api/funnels", &token, shop_funnel(site)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let id = created.json["id"].as_i64().unwrap();
    assert_eq!(step_counts(&created.json), [1, 0, 0, 0]);

    let paused = server.put(&format!("/api/funnels/{id}"), &token, json!({"status": "paused"})).await;
    assert_eq!(paused.status, StatusCode::OK, "{}", paused.text);
    assert_eq!(paused.json["status"], "paused");
    assert_eq!(paused.json["name"], "Checkout", "absent fields keep their values");
    assert_eq!(paused.json["steps"].as_array().unwrap().len(), 4);
    assert_eq!((paused.json["figuresPending"].clone(), step_counts(&paused.json)), (json!(false), vec![1, 0, 0, 0]));

    let edited = server
        .put(
            &format!("/api/funnels/{id}"),
            &token,
            json!({"name": " Pricing ", "status": "active", "steps": [
                {"name": "Home", "url": "/"}, {"name": "Pricing", "url": "https://shop.example.com/pricing/"}]}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    assert_eq!(edited.json["name"], "Pricing");
    assert_eq!(edited.json["status"], "active");
    assert_eq!(edited.json["steps"][1]["url"], "/pricing/");
    // New steps answer at once with their figures pending; the next read counts them.
    assert_eq!(edited.json["figuresPending"], true);
    assert_eq!(step_counts(&edited.json), [0, 0]);
    let read = server.get(&format!("/api/funnels/{id}"), &token).await;
    assert_eq!(read.json["figuresPending"], false);
    assert_eq!(step_counts(&read.json), [1, 1]);
    // An edit that keeps the steps and site keeps the stored figures and answers with them.
    let renamed = server.put(&format!("/api/funnels/{id}"), &token, json!({"name": "Pricing page"})).await;
    assert_eq!(renamed.json["figuresPending"], false);
    assert_eq!(step_counts(&renamed.json), [1, 1]);

    let bad = server.put(&format!("/api/funnels/{id}"), &token, json!({"status": "archived"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.error_message(), "status must be active or paused");

    let deleted = server.delete(&format!("/api/funnels/{id}"), &token).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_not_found(&server.get(&format!("/api/funnels/{id}"), &token).await, "deleted funnel");
    assert_not_found(&server.delete(&format!("/api/funnels/{id}"), &token).await, "deleted twice");

    // Deleting the website takes its funnels with it.
    server.post("/api/funnels", &token, shop_funnel(site)).await;
    assert_eq!(server.delete(&format!("/api/websites/{site}"), &token).await.status, StatusCode::NO_CONTENT);
    assert_eq!(server.get("/api/funnels", &token).await.json, json!([]));
    server.stop().await;
}

#[tokio::test]
async fn funnel_validation_uses_the_spec_messages() {
    let server = TestServer::start().await;
    let (token, site, _) = owner_with_site(&server, "valid@example.com", "light").await;
    let two = json!([{"name": "A", "url": "/"}, {"name": "B", "url": "/b"}]);
    let cases = [
        (json!({"websiteId": site, "steps": two}), "Funnel name is required"),
        (json!({"name": "  ", "websiteId": site, "steps": two}), "Funnel name is required"),
        (json!({"name": "F", "steps": two}), "Website is required"),
        (json!({"name": "F", "websiteId": "", "steps": two}), "Website is required"),
        (json!({"name": "F", "websiteId": site}), "At least 2 steps are required"),
        (
            json!({"name": "F", "websiteId": site, "steps": [{"name": "A", "url": "/"}]}),
            "At least 2 steps are required",
        ),
        (
            json!({"name": "F", "websiteId": site, "steps": [{"name": "A", "url": "/"}, {"name": "", "url": "/b"}]}),
            "Step name is required",
        ),
        (
            json!({"name": "F", "websiteId": site, "steps": [{"name": "A", "url": "/"}, {"name": "B"}]}),
            "URL is required",
        ),
        (
            json!({"name": "F", "websiteId": site, "steps": [{"name": "A", "url": "/"}, {"name": "B", "url": " "}]}),
            "URL is required",
        ),
    ];
    for (body, message) in cases {
        let answer = server.post("/api/funnels", &token, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}: {}", answer.text);
        assert_eq!(answer.error_message(), message, "{body}");
    }
    let created = server.post("/api/funnels", &token, json!({"name": "F", "websiteId": site, "steps": two})).await;
    assert_eq!(created.status, StatusCode::CREATED);
    let id = created.json["id"].as_i64().unwrap();
    let one_step =
        server.put(&format!("/api/funnels/{id}"), &token, json!({"steps": [{"name": "A", "url": "/"}]})).await;
    assert_eq!(one_step.error_message(), "At least 2 steps are required");
    let blank = server.put(&format!("/api/funnels/{id}"), &token, json!({"name": ""})).await;
    assert_eq!(blank.error_message(), "Funnel name is required");
    let not_json = server.call(reqwest::Method::POST, "/api/funnels", Some(&token), None).await;
    assert!(not_json.status.is_client_error());
    not_json.error_message();
    server.stop().await;
}

#[tokio::test]
async fn another_users_funnels_and_sites_are_not_found() {
    let server = TestServer::start().await;
    let (alice, alice_site, _) = owner_with_site(&server, "alice@example.com", "light").await;
    let (bob, bob_site, _) = owner_with_site(&server, "bob@example.com", "light").await;
    let created = server.post("/api/funnels", &alice, shop_funnel(alice_site)).await;
    let id = created.json["id"].as_i64().unwrap();
    let bobs = server.post("/api/funnels", &bob, shop_funnel(bob_site)).await;
    let bob_id = bobs.json["id"].as_i64().unwrap();

    let path = format!("/api/funnels/{id}");
    assert_not_found(&server.get(&path, &bob).await, "GET foreign funnel");
    assert_not_found(&server.put(&path, &bob, json!({"name": "mine"})).await, "PUT foreign funnel");
    assert_not_found(&server.delete(&path, &bob).await, "DELETE foreign funnel");
    assert_not_found(&server.post("/api/funnels", &bob, shop_funnel(alice_site)).await, "foreign site in body");
    assert_not_found(
        &server.put(&format!("/api/funnels/{bob_id}"), &bob, json!({"websiteId": alice_site})).await,
        "moving a funnel to a foreign site",
    );
    assert_not_found(&server.get(&format!("/api/funnels?website_id={alice_site}"), &bob).await, "foreign site filter");
    assert_not_found(&server.get("/api/funnels/99999", &bob).await, "missing funnel");

    let list = server.get("/api/funnels", &bob).await.json;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["id"], bob_id);
    let alices = server.get(&path, &alice).await;
    assert_eq!(alices.status, StatusCode::OK);
    assert_eq!(alices.json["name"], "Checkout", "untouched by bob's attempts");
    assert_eq!(alices.json["websiteId"], alice_site);

    for route in ["/api/analytics/customer-journeys", "/api/analytics/journeys"] {
        assert_not_found(&server.get(&format!("{route}?website_id={alice_site}"), &bob).await, route);
    }
    server.stop().await;
}

/// The summary's figures, the averages and rate to three decimals.
fn summary(answer: &Answer) -> (u64, String, String, String) {
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let s = &answer.json["summary"];
    let f = |name: &str| format!("{:.3}", s[name].as_f64().unwrap());
    (s["totalJourneys"].as_u64().unwrap(), f("averageDuration"), f("averageTouchpoints"), f("conversionRate"))
}

fn figures(total: u64, duration: f64, touchpoints: f64, rate: f64) -> (u64, String, String, String) {
    (total, format!("{duration:.3}"), format!("{touchpoints:.3}"), format!("{rate:.3}"))
}

#[tokio::test]
async fn customer_journeys_honour_period_and_filter() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "journeys@example.com", "light").await;
    let hour = 3_600_000;
    let earlier = chrono::Utc::now().timestamp_millis() - 2 * hour;
    // Converted two hours ago: /, 60 s, /product, 30 s, /success with a purchase 10 s later.
    view(&server, &key, "buyer-0001", "/", Some(earlier)).await;
    view(&server, &key, "buyer-0001", "/product", Some(earlier + 60_000)).await;
    view(&server, &key, "buyer-0001", "/success", Some(earlier + 90_000)).await;
    convert(&server, &key, "buyer-0001", "/success", Some(earlier + 100_000)).await;
    // Abandoned two hours ago: / then /pricing 20 s later.
    view(&server, &key, "leaver-001", "/", Some(earlier)).await;
    view(&server, &key, "leaver-001", "/pricing", Some(earlier + 20_000)).await;
    // Active now: one page.
    view(&server, &key, "browser-01", "/", None).await;

    let base = format!("/api/analytics/customer-journeys?website_id={site}&period=");
    let all = server.get(&format!("{base}7d&filter=all"), &token).await;
    assert_eq!(summary(&all), figures(3, 40.0, 7.0 / 3.0, 100.0 / 3.0));
    let journeys = all.json["journeys"].as_array().unwrap();
    assert_eq!(journeys[0]["sessionId"], "browser-01", "newest first");
    let buyer = journeys.iter().find(|j| j["sessionId"] == "buyer-0001").unwrap();
    assert_eq!(buyer["touchpoints"], 4);
    assert_eq!(buyer["conversionEvents"], 1);
    assert_eq!(buyer["totalDuration"], 100);
    assert_eq!(buyer["isCompleted"], true);
    assert_eq!(buyer["visitorInfo"]["source"], "Direct");
    assert_eq!(buyer["visitorInfo"]["location"], "Unknown Location");
    let steps: Vec<(String, i64, String)> = buyer["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["page"].as_str().unwrap().into(),
                s["duration"].as_i64().unwrap(),
                s["eventType"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            ("/".into(), 60, "pageview".into()),
            ("/product".into(), 30, "pageview".into()),
            ("/success".into(), 10, "pageview".into()),
            ("/success".into(), 0, "conversion".into()),
        ]
    );
    // The intent model's score (core test journeys::tests::journey_scores_are_the_intent_models checks the
    // values): the buyer viewed more, for longer, than the leaver.
    let score = buyer["journeyScore"].as_u64().unwrap();
    let leaver = journeys.iter().find(|j| j["sessionId"] == "leaver-001").unwrap();
    assert!(score <= 100 && score > leaver["journeyScore"].as_u64().unwrap(), "{score}");
    let browser = &journeys[0];
    assert_eq!(browser["isCompleted"], false);
    assert_eq!(browser["conversionEvents"], 0);

    let converted = server.get(&format!("{base}7d&filter=converted"), &token).await;
    assert_eq!(summary(&converted), figures(1, 100.0, 4.0, 100.0));
    assert_eq!(converted.json["journeys"][0]["sessionId"], "buyer-0001");
    let abandoned = server.get(&format!("{base}7d&filter=abandoned"), &token).await;
    assert_eq!(summary(&abandoned), figures(1, 20.0, 2.0, 0.0));
    assert_eq!(abandoned.json["journeys"][0]["sessionId"], "leaver-001");
    let active = server.get(&format!("{base}1d&filter=active"), &token).await;
    assert_eq!(summary(&active), figures(1, 0.0, 1.0, 0.0));
    assert_eq!(active.json["journeys"][0]["sessionId"], "browser-01");

    // Without a website id the journeys span all of the user's sites; default period and filter.
    let spanning = server.get("/api/analytics/customer-journeys", &token).await;
    assert_eq!(summary(&spanning).0, 3);

    for (query, message) in [
        ("period=2d", "period must be 1d, 7d, 30d or 90d"),
        ("filter=high", "filter must be all, converted, abandoned or active"),
    ] {
        let bad = server.get(&format!("/api/analytics/customer-journeys?{query}"), &token).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(bad.error_message(), message);
    }

    // The most common paths: three one-visit paths, the buyer's converting.
    let paths = server.get(&format!("/api/analytics/journeys?period=7d&website_id={site}"), &token).await;
    assert_eq!(paths.status, StatusCode::OK, "{}", paths.text);
    assert_eq!(paths.json["totalSessions"], 3);
    let paths = paths.json["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 3);
    let bought = paths.iter().find(|p| p["pages"] == json!(["/", "/product", "/success"])).unwrap();
    assert_eq!((bought["sessions"].as_u64(), bought["conversionRate"].as_f64()), (Some(1), Some(100.0)));
    server.stop().await;
}

#[tokio::test]
async fn journey_paths_rank_the_common_sequences() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "paths@example.com", "light").await;
    let mut tasks = Vec::new();
    for i in 0..9 {
        let key = key.clone();
        let server = &server;
        tasks.push(async move {
            let s = format!("visit-v{i}");
            let pages: &[&str] = match i {
                0..=4 => &["/", "/pricing", "/pricing", "/signup"],
                5..=7 => &["/blog", "/"],
                _ => &["/a", "/b", "/c", "/d", "/e", "/f", "/g"],
            };
            for page in pages {
                view(server, &key, &s, page, None).await;
            }
            if i < 2 {
                convert(server, &key, &s, "/signup", None).await;
            }
        });
    }
    futures_util::future::join_all(tasks).await;
    let answer = server.get(&format!("/api/analytics/journeys?website_id={site}"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let paths = answer.json["paths"].as_array().unwrap();
    assert_eq!(paths[0]["pages"], json!(["/", "/pricing", "/signup"]), "repeats folded");
    assert_eq!(paths[0]["sessions"], 5);
    assert_eq!(paths[0]["conversions"], 2);
    assert_eq!(paths[0]["conversionRate"], 40.0);
    assert_eq!(paths[1]["pages"], json!(["/blog", "/"]));
    assert_eq!(paths[1]["sessions"], 3);
    assert_eq!(paths[2]["pages"], json!(["/a", "/b", "/c", "/d", "/e", "…"]), "long paths cut at 5 pages");
    server.stop().await;
}
