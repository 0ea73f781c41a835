//! The Advanced Analytics reads, /api/analytics/advanced and /api/analytics/ai-intent, over visits seeded
//! through `POST /api/track` (the real ingest path) with explicit timestamps and client addresses.

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{assert_not_found, owner_with_site, track_with};
use crate::util::TestServer;

/// One seeded visit: pages (path, seconds after the start), optional events and conversion.
struct Visit {
    session: String,
    ip: String,
    start: i64,
    referrer: &'static str,
    landing_query: &'static str,
    pages: Vec<(&'static str, i64)>,
    events: Vec<i64>,
    convert_at: Option<i64>,
}

async fn send(server: &TestServer, key: &str, v: &Visit) {
    let headers = [("x-forwarded-for", v.ip.as_str())];
    for (i, (path, at)) in v.pages.iter().enumerate() {
        let query = if i == 0 { v.landing_query } else { "" };
        let mut body = json!({
            "tracking_key": key, "session_id": v.session, "url": format!("https://shop.example.com{path}{query}"),
            "timestamp": v.start + at * 1000,
        });
        if i == 0 && !v.referrer.is_empty() {
            body["referrer"] = json!(v.referrer);
        }
        let answer = track_with(server, body, &headers).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    for at in &v.events {
        let body = json!({
            "tracking_key": key, "session_id": v.session, "url": "https://shop.example.com/features",
            "event": "custom", "event_name": "video_play", "timestamp": v.start + at * 1000,
        });
        assert_eq!(track_with(server, body, &headers).await.status, StatusCode::ACCEPTED);
    }
    if let Some(at) = v.convert_at {
        let body = json!({
            "tracking_key": key, "session_id": v.session, "url": "https://shop.example.com/thank-you",
            "event": "conversion", "event_name": "purchase", "event_properties": {"value": 49},
            "timestamp": v.start + at * 1000,
        });
        assert_eq!(track_with(server, body, &headers).await.status, StatusCode::ACCEPTED);
    }
}

/// Sends visits 20 at a time (each visit's hits in order).
async fn seed(server: &TestServer, key: &str, visits: &[Visit]) {
    for chunk in visits.chunks(20) {
        join_all(chunk.iter().map(|v| send(server, key, v))).await;
    }
}

/// A small deterministic generator (the test must not depend on a random seed crate).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` finished visits over the last 20 hours where conversions follow a known pattern: visits that view
/// /pricing, stay minutes and play a video convert 80% of the time; browsing visits 4%; bounces never.
fn patterned_visits(n: usize, seed: u64, engaged_rate: f64) -> Vec<Visit> {
    let now = chrono::Utc::now().timestamp_millis();
    let mut rng = Lcg(seed);
    (0..n)
        .map(|i| {
            let start = now - 20 * 3_600_000 + (i as i64) * (18 * 3_600_000 / n as i64);
            let kind = rng.next();
            let (pages, events, convert_p, referrer): (Vec<(&str, i64)>, Vec<i64>, f64, &str) = if kind < 0.3 {
                let stay = 120 + (rng.next() * 300.0) as i64;
                (
                    vec![("/", 0), ("/features", stay / 3), ("/pricing", stay / 2)],
                    vec![stay / 2 + 5],
                    engaged_rate,
                    "https://www.google.com/",
                )
            } else if kind < 0.65 {
                let stay = 20 + (rng.next() * 100.0) as i64;
                (vec![("/", 0), ("/blog/post", stay)], vec![], 0.04, "https://news.ycombinator.com/")
            } else {
                (vec![("/blog/post", 0)], vec![], 0.0, "")
            };
            let converted = rng.next() < convert_p;
            let last = pages.last().unwrap().1;
            Visit {
                session: format!("visit-{seed}-{i:05}"),
                ip: format!("198.51.{}.{}", (i / 250) % 250, i % 250 + 1),
                start,
                referrer,
                landing_query: "",
                pages,
                events,
                convert_at: converted.then_some(last + 30),
            }
        })
        .collect()
}

fn segment<'a>(advanced: &'a Value, name: &str) -> &'a Value {
    advanced["visitorSegments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["segment"] == name)
        .unwrap_or_else(|| panic!("no segment {name}: {advanced}"))
}

#[tokio::test]
async fn advanced_answers_the_ranges_real_figures() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "advanced@example.com", "professional").await;
    // The four visits must share a UTC day (returning visitors are recognised within a day): in the first
    // five minutes of a day, wait until they fit in it.
    let since_midnight = chrono::Utc::now().timestamp_millis().rem_euclid(86_400_000);
    if since_midnight < 300_000 {
        tokio::time::sleep(std::time::Duration::from_millis((300_000 - since_midnight) as u64)).await;
    }
    let now = chrono::Utc::now().timestamp_millis();
    let visit = |session: &str, ip: &str, start: i64, referrer, landing_query, pages, convert_at| Visit {
        session: session.into(),
        ip: ip.into(),
        start,
        referrer,
        landing_query,
        pages,
        events: vec![],
        convert_at,
    };
    let visits = [
        // Direct, views the pricing page and converts.
        visit("adv-visit-a", "203.0.113.10", now - 280_000, "", "", vec![("/", 0), ("/pricing", 60)], Some(120)),
        // From search, one page: a bounce.
        visit(
            "adv-visit-b",
            "203.0.113.20",
            now - 270_000,
            "https://www.google.com/search?q=x",
            "",
            vec![("/", 0)],
            None,
        ),
        // A newsletter campaign, two pages.
        visit(
            "adv-visit-c",
            "203.0.113.30",
            now - 260_000,
            "",
            "?utm_source=newsletter&utm_medium=email",
            vec![("/", 0), ("/blog", 30)],
            None,
        ),
        // The first visitor again, later the same day: a returning visitor, direct.
        visit("adv-visit-d", "203.0.113.10", now - 100_000, "", "", vec![("/", 0)], None),
    ];
    for v in &visits {
        send(&server, &key, v).await;
    }
    let answer = server.get(&format!("/api/analytics/advanced?website_id={site}&time_range=1d"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let a = &answer.json;
    assert_eq!(a["totalVisitors"], 3, "{a}");
    assert_eq!(a["conversionRate"], 25.0);
    assert_eq!(a["bounceRate"], 50.0, "two of four visits viewed one page");
    // (120 + 0 + 30 + 0) seconds over four visits.
    assert_eq!(a["averageSessionDuration"], 37.5);
    // Four visits in the last five minutes are four active visitors, as every live screen counts them; three
    // distinct visitors are new today (the returning one's first visit began today too).
    assert_eq!(a["realTimeMetrics"], json!({"activeVisitors": 4, "newVisitors": 3, "conversions": 1}));
    assert_eq!(
        a["topPages"],
        json!([
            {"url": "/", "views": 4, "conversionRate": 25.0},
            {"url": "/blog", "views": 1, "conversionRate": 0.0},
            {"url": "/pricing", "views": 1, "conversionRate": 100.0},
        ])
    );
    assert_eq!(segment(a, "New Visitors")["count"], 3);
    assert_eq!(segment(a, "New Visitors")["conversionRate"], 33.3);
    assert_eq!(segment(a, "Returning Visitors")["count"], 1);
    assert_eq!(segment(a, "Direct")["count"], 2);
    assert_eq!(segment(a, "Direct")["conversionRate"], 50.0);
    assert_eq!(segment(a, "Search")["count"], 1);
    assert_eq!(segment(a, "Campaign")["count"], 1);
    assert_eq!(segment(a, "Social")["count"], 0);
    assert_eq!(segment(a, "Desktop")["count"], 4);
    assert_eq!(segment(a, "Desktop")["group"], "device");
    assert_eq!(a["intentAnalyzed"], 4);
    assert_eq!(a["intentModel"], "prior");

    // The range is honoured: nothing before today's visits in the previous period's place.
    let week = server.get(&format!("/api/analytics/advanced?website_id={site}&time_range=7d"), &token).await;
    assert_eq!(week.json["totalVisitors"], 3, "{}", week.text);
    let default = server.get(&format!("/api/analytics/advanced?website_id={site}"), &token).await;
    assert_eq!(default.status, StatusCode::OK, "time_range defaults to 7d");

    // Another user's site is 404 like a missing one; bad parameters are 400 with the JSON error.
    let (other, _) = server.register("someone-else@example.com").await;
    for path in [
        format!("/api/analytics/advanced?website_id={site}&time_range=7d"),
        format!("/api/analytics/ai-intent?website_id={site}"),
        "/api/analytics/advanced?website_id=99999".to_string(),
        "/api/analytics/ai-intent?website_id=abc".to_string(),
    ] {
        assert_not_found(&server.get(&path, &other).await, "website");
    }
    for path in [
        "/api/analytics/advanced?time_range=7d".to_string(),
        format!("/api/analytics/advanced?website_id={site}&time_range=2w"),
        format!("/api/analytics/advanced?website_id={site}&time_range=365d"),
        "/api/analytics/ai-intent".to_string(),
        format!("/api/analytics/ai-intent?website_id={site}&time_range=1y"),
        format!("/api/analytics/ai-intent?website_id={site}&refit=maybe"),
    ] {
        let answer = server.get(&path, &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}: {}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    let anonymous =
        server.call(reqwest::Method::GET, &format!("/api/analytics/advanced?website_id={site}"), None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_intent_model_learns_the_sites_pattern_and_ranks_converters_first() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "intent@example.com", "professional").await;
    let visits = patterned_visits(500, 7, 0.8);
    let conversions = visits.iter().filter(|v| v.convert_at.is_some()).count();
    assert!(conversions >= 60, "the pattern yields enough conversions to fit ({conversions})");
    seed(&server, &key, &visits).await;

    let answer =
        server.get(&format!("/api/analytics/ai-intent?website_id={site}&time_range=24h&refit=true"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let intent = &answer.json;
    let model = &intent["model"];
    assert_eq!(model["source"], "fitted", "{model}");
    let auc = model["auc"].as_f64().unwrap();
    eprintln!(
        "held-out AUC {auc} over {} visits ({} converted); fit {} ms",
        model["heldOutSessions"], model["heldOutConversions"], model["fitMs"]
    );
    assert!(auc >= 0.8, "held-out AUC {auc}: {model}");
    assert_eq!(model["heldOutSessions"].as_i64().unwrap() + model["trainingSessions"].as_i64().unwrap(), 500);
    // Every engaged visit views /features then /pricing: both precede conversions, equally.
    let key_pages: Vec<&str> =
        model["keyPages"].as_array().unwrap().iter().map(|k| k["page"].as_str().unwrap()).collect();
    assert!(key_pages.contains(&"/pricing") && key_pages.contains(&"/features"), "{model}");
    assert!(!key_pages.contains(&"/blog/post"), "{model}");
    assert_eq!(intent["summary"]["totalAnalyzed"], 500);
    let summary = &intent["summary"];
    assert_eq!(
        summary["highIntent"].as_i64().unwrap()
            + summary["mediumIntent"].as_i64().unwrap()
            + summary["lowIntent"].as_i64().unwrap(),
        500
    );
    let patterns: i64 = intent["patterns"].as_array().unwrap().iter().map(|p| p["count"].as_i64().unwrap()).sum();
    assert_eq!(patterns, 500);
    // The list is the best scores first, each with its reasons; the best viewed the key page.
    let top = intent["topIntentSessions"].as_array().unwrap();
    assert_eq!(top.len(), 20);
    let scores: Vec<i64> = top.iter().map(|s| s["intentScore"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(scores[0] >= 60, "{scores:?}");
    assert_eq!(top[0]["category"], "high");
    assert_eq!(top[0]["pattern"], "ready_to_convert");
    assert!(["/pricing", "/features"].contains(&top[0]["keyPage"].as_str().unwrap_or("")), "{}", top[0]);
    assert!(!top[0]["raisedBy"].as_array().unwrap().is_empty(), "{}", top[0]);
    assert!(top[0]["signals"]["pageViews"].as_i64().unwrap() >= 3);
    // Recommendations cite the numbers of the model.
    let recs = intent["recommendations"].as_array().unwrap();
    let key = recs.iter().find(|r| r["id"] == "key_page").unwrap_or_else(|| panic!("{recs:?}"));
    let rate = model["keyPages"][0]["conversionRate"].as_f64().unwrap();
    assert!(key["detail"].as_str().unwrap().contains(&format!("({rate}%)")), "{key}");
    assert!(recs.iter().all(|r| !r["evidence"].as_array().unwrap().is_empty()));

    // The advanced read scores the same visits with the cached model.
    let advanced = server.get(&format!("/api/analytics/advanced?website_id={site}&time_range=1d"), &token).await;
    assert_eq!(advanced.json["intentModel"], "fitted");
    assert_eq!(advanced.json["highIntentVisitors"], summary["highIntent"], "{}", advanced.text);
}

#[tokio::test]
async fn on_a_site_converting_few_visits_the_engaged_ones_still_score_high() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "rare@example.com", "professional").await;
    // Engaged visits convert 3 times in 10, others almost never: about one visit in ten converts.
    let visits = patterned_visits(600, 11, 0.3);
    let conversions = visits.iter().filter(|v| v.convert_at.is_some()).count();
    assert!((40..=90).contains(&conversions), "{conversions}");
    seed(&server, &key, &visits).await;
    let answer =
        server.get(&format!("/api/analytics/ai-intent?website_id={site}&time_range=24h&refit=true"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let intent = &answer.json;
    assert_eq!(intent["model"]["source"], "fitted", "{}", intent["model"]);
    // A calibrated probability puts the engaged visits near 30 ("low"); their odds against the site's average
    // make them high intent, while the probability stays what the model says.
    let top = &intent["topIntentSessions"][0];
    let score = top["intentScore"].as_i64().unwrap();
    let probability = top["conversionProbability"].as_f64().unwrap();
    assert!(score >= 60 && top["category"] == "high", "{top}");
    assert!((15.0..=50.0).contains(&probability), "{top}");
    assert!(top["signals"]["pageViews"].as_i64().unwrap() >= 3, "{top}");
    let high = intent["summary"]["highIntent"].as_i64().unwrap();
    assert!(high >= 100, "most of the 180 engaged visits are high intent: {}", intent["summary"]);
    // One-page glances with no time stay very low.
    let glances = intent["patterns"].as_array().unwrap().iter().find(|p| p["pattern"] == "window_shopping").unwrap();
    assert!(glances["averageScore"].as_f64().unwrap() < 20.0, "{glances}");
    let advanced = server.get(&format!("/api/analytics/advanced?website_id={site}&time_range=1d"), &token).await;
    assert_eq!(advanced.json["highIntentVisitors"], high, "{}", advanced.text);
}

#[tokio::test]
async fn with_few_conversions_the_model_uses_priors_and_says_so() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "priors@example.com", "professional").await;
    // Engaged visits convert rarely here: a handful of conversions, too few to fit.
    let visits = patterned_visits(120, 3, 0.1);
    let conversions = visits.iter().filter(|v| v.convert_at.is_some()).count();
    assert!(conversions < 20, "{conversions}");
    seed(&server, &key, &visits).await;
    let answer = server.get(&format!("/api/analytics/ai-intent?website_id={site}&time_range=24h"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let model = &answer.json["model"];
    assert_eq!(model["source"], "prior", "{model}");
    assert!(model["auc"].is_null());
    assert_eq!(model["trainingConversions"], conversions as i64);
    assert!(model["note"].as_str().unwrap().starts_with("Prior weights"), "{model}");
    assert_eq!(model["weights"][0], json!({"feature": "pages", "weight": 1.2}));
    let recs = answer.json["recommendations"].as_array().unwrap();
    assert_eq!(recs[0]["id"], "track_conversions", "{recs:?}");
    assert!(recs[0]["detail"].as_str().unwrap().contains(&format!("{conversions} converted")), "{}", recs[0]);
    // Priors still rank engaged visits above bounces.
    let top = &answer.json["topIntentSessions"][0];
    assert!(top["signals"]["pageViews"].as_i64().unwrap() >= 3, "{top}");

    // An empty site answers zeros, not an error.
    let empty = server.create_site(&token, "Empty", "light").await;
    let answer = server.get(&format!("/api/analytics/ai-intent?website_id={}", empty["id"]), &token).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json["summary"]["totalAnalyzed"], 0);
    assert_eq!(answer.json["topIntentSessions"], json!([]));
}
