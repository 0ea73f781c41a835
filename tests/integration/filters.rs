//! Filters on the dashboard's reads through a real daemon: three visits tracked over HTTP, the same filter read
//! on every read that takes it (cards, chart, breakdowns, sources, referrers, countries) agreeing, breakdowns by
//! dimensions no rollup holds, and bad filters refused with the JSON error.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::TestServer;

const FIREFOX_UA: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/// Percent-encodes a query value (everything but letters and digits).
pub(crate) fn enc(raw: &str) -> String {
    raw.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

async fn get_json(server: &TestServer, token: &str, path: &str) -> Value {
    let answer = server.get(path, token).await;
    assert_eq!(answer.status, StatusCode::OK, "GET {path}: {}", answer.text);
    answer.json
}

/// A site with three visits by two visitors (one browser each):
/// 1. Chrome, from Hacker News: /, /pricing, a button_click there with button=signup;
/// 2. Firefox, tagged utm_source=newsletter, utm_medium=email: /blog/post, /pricing;
/// 3. Chrome again, direct: /blog/other.
pub(crate) async fn seeded() -> (TestServer, String, i64) {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "professional").await;
    let id = site["id"].as_i64().unwrap();
    let key = site["trackingKey"].as_str().unwrap().to_string();
    let hits = [
        ("session-one", "https://shop.example/", json!({"referrer": "https://news.ycombinator.com/item?id=1"})),
        ("session-one", "https://shop.example/pricing", json!({})),
        (
            "session-one",
            "https://shop.example/pricing",
            json!({"event": "custom", "event_name": "button_click", "event_properties": {"button": "signup"}}),
        ),
        ("session-two", "https://shop.example/blog/post?utm_source=newsletter&utm_medium=email", json!({})),
        ("session-two", "https://shop.example/pricing", json!({})),
        ("session-three", "https://shop.example/blog/other", json!({})),
    ];
    for (session, url, extra) in hits {
        let mut body = json!({"tracking_key": key, "session_id": session, "url": url});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let mut request = server.client.post(server.url("/api/track")).json(&body);
        if session == "session-two" {
            request = request.header("user-agent", FIREFOX_UA);
        } else {
            request = request.header("user-agent", crate::util::BROWSER_UA);
        }
        let answer = crate::util::answer(request.send().await.expect("track")).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "track {body}: {}", answer.text);
    }
    (server, token, id)
}

/// (value, count) pairs of a breakdown.
fn rows(breakdown: &Value) -> Vec<(String, i64)> {
    breakdown["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["value"].as_str().unwrap().to_string(), r["count"].as_i64().unwrap()))
        .collect()
}

fn pairs(expected: &[(&str, i64)]) -> Vec<(String, i64)> {
    expected.iter().map(|(v, n)| (v.to_string(), *n)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_filter_gives_the_same_figures_on_every_read() {
    let (server, token, id) = seeded().await;
    // (filter, visitors, visits, page views)
    let cases = [
        (r#"[["contains","event:page",["/blog"]]]"#, 2, 2, 2),
        (r#"[["is","visit:utm_medium",["email"]]]"#, 1, 1, 2),
        (r#"[["is","visit:browser",["Firefox"]]]"#, 1, 1, 2),
        (r#"[["is_not","visit:browser",["Firefox"]]]"#, 1, 2, 3),
        (r#"[["is","event:props:button",["signup"]]]"#, 1, 1, 0),
        (r#"[["is","visit:referrer",["news.ycombinator.com"]]]"#, 1, 1, 2),
    ];
    for (raw, visitors, visits, views) in cases {
        let f = enc(raw);
        let overview =
            get_json(&server, &token, &format!("/api/dashboard/overview?website_id={id}&range=7d&filters={f}")).await;
        assert_eq!(overview["metrics"]["totalVisitors"], visitors, "{raw}: {overview}");
        assert_eq!(overview["metrics"]["pageViews"], views, "{raw}: {overview}");
        assert_eq!(overview["imported"], Value::Null);
        let chart =
            get_json(&server, &token, &format!("/api/dashboard/timeseries?website_id={id}&range=7d&filters={f}")).await;
        let points = chart["points"].as_array().unwrap();
        let sum = |k: &str| points.iter().map(|p| p[k].as_i64().unwrap()).sum::<i64>();
        assert_eq!((sum("visitors"), sum("pageViews")), (visitors, views), "{raw}: chart");
        let sources =
            get_json(&server, &token, &format!("/api/websites/{id}/traffic-sources?range=7d&filters={f}")).await;
        let source_visits: i64 = sources.as_array().unwrap().iter().map(|s| s["visits"].as_i64().unwrap()).sum();
        assert_eq!(source_visits, visits, "{raw}: sources {sources}");
        let referrers = get_json(&server, &token, &format!("/api/websites/{id}/referrers?range=7d&filters={f}")).await;
        let referrer_visits: i64 = referrers.as_array().unwrap().iter().map(|s| s["count"].as_i64().unwrap()).sum();
        assert_eq!(referrer_visits, visits, "{raw}: referrers {referrers}");
        let countries = get_json(&server, &token, &format!("/api/websites/{id}/countries?range=7d&filters={f}")).await;
        let country_visits: i64 = countries.as_array().unwrap().iter().map(|s| s["count"].as_i64().unwrap()).sum();
        assert_eq!(country_visits, visits, "{raw}: countries {countries}");
        let pages =
            get_json(&server, &token, &format!("/api/websites/{id}/breakdown/page?range=7d&limit=100&filters={f}"))
                .await;
        assert_eq!(rows(&pages).iter().map(|(_, n)| n).sum::<i64>(), views, "{raw}: pages {pages}");
        assert_eq!(pages["measure"], "pageviews");
    }
    // The Events screen's summary under a filter: only the first visit clicked the button.
    let summary = |raw: &str| format!("/api/websites/{id}/events/summary?timeRange=7d&filters={}", enc(raw));
    let clicked = get_json(&server, &token, &summary(r#"[["is","visit:referrer",["news.ycombinator.com"]]]"#)).await;
    assert_eq!(
        (clicked["totalEvents"].as_i64(), clicked["topEvents"][0]["name"].as_str()),
        (Some(1), Some("button_click"))
    );
    let email = get_json(&server, &token, &summary(r#"[["is","visit:utm_medium",["email"]]]"#)).await;
    assert_eq!((email["totalEvents"].as_i64(), email["uniqueEvents"].as_i64()), (Some(0), Some(0)), "{email}");
    let custom =
        get_json(&server, &token, &format!("/api/websites/{id}/events/summary?from=2000-01-01&to=2000-01-31")).await;
    assert_eq!(custom["totalEvents"], 0, "a custom range before any data: {custom}");
    // Without filters the same reads come from the rollups, and agree with the unfiltered raw counts.
    let overview = get_json(&server, &token, &format!("/api/dashboard/overview?website_id={id}&range=7d")).await;
    assert_eq!(
        (overview["metrics"]["totalVisitors"].as_i64(), overview["metrics"]["pageViews"].as_i64()),
        (Some(2), Some(5))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakdowns_by_dimensions_no_rollup_holds() {
    let (server, token, id) = seeded().await;
    let read = |dim: &str, filters: &str| {
        let path = format!("/api/websites/{id}/breakdown/{dim}?range=7d&filters={}", enc(filters));
        let (server, token) = (&server, &token);
        async move { get_json(server, token, &path).await }
    };
    let entry = read("entry_page", "[]").await;
    assert_eq!(rows(&entry), pairs(&[("/", 1), ("/blog/other", 1), ("/blog/post", 1)]));
    assert_eq!((entry["dimension"].as_str(), entry["measure"].as_str()), (Some("entry_page"), Some("visits")));
    assert_eq!(rows(&read("exit_page", "[]").await), pairs(&[("/pricing", 2), ("/blog/other", 1)]));
    assert_eq!(rows(&read("utm_medium", "[]").await), pairs(&[("", 2), ("email", 1)]));
    assert_eq!(rows(&read("prop%3Abutton", "[]").await), pairs(&[("signup", 1)]), "an escaped colon is a colon");
    let button = read("prop:button", "[]").await;
    assert_eq!((rows(&button), button["measure"].as_str()), (pairs(&[("signup", 1)]), Some("events")));
    assert_eq!(rows(&read("event", "[]").await), pairs(&[("button_click", 1)]));
    let blog = r#"[["contains","event:page",["/blog"]]]"#;
    assert_eq!(rows(&read("browser", blog).await), pairs(&[("Chrome", 1), ("Firefox", 1)]));
    assert_eq!(rows(&read("page", blog).await), pairs(&[("/blog/other", 1), ("/blog/post", 1)]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn property_keys_of_the_events_a_filter_admits() {
    let (server, token, id) = seeded().await;
    let keys = |filters: &str, limit: &str| {
        let path = format!("/api/websites/{id}/events/property-keys?range=7d&filters={}{limit}", enc(filters));
        let (server, token) = (&server, &token);
        async move {
            let answer = get_json(server, token, &path).await;
            let keys = answer["keys"].as_array().unwrap().iter();
            keys.map(|k| (k["key"].as_str().unwrap().to_string(), k["events"].as_i64().unwrap())).collect::<Vec<_>>()
        }
    };
    assert_eq!(keys("[]", "").await, pairs(&[("button", 1)]));
    assert_eq!(keys(r#"[["is","event:name",["button_click"]]]"#, "&limit=1").await, pairs(&[("button", 1)]));
    assert_eq!(keys(r#"[["is","visit:browser",["Firefox"]]]"#, "").await, pairs(&[]), "the second visit sent none");
    for limit in ["0", "101", "ten"] {
        let answer = server.get(&format!("/api/websites/{id}/events/property-keys?limit={limit}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "limit={limit}: {}", answer.text);
        assert!(answer.json["error"]["message"].as_str().unwrap().contains("limit"), "{}", answer.text);
    }
    let late = format!("/api/websites/{id}/events/property-keys?from=2000-02-01&to=2000-01-01");
    assert_eq!(server.get(&late, &token).await.status, StatusCode::BAD_REQUEST, "from after to");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_filters_are_a_400_and_another_users_site_a_404() {
    let (server, token, id) = seeded().await;
    let refused = [
        ("not json", "JSON array"),
        (r#"{"is":1}"#, "JSON array"),
        (r#"[["is","visit:planet",["x"]]]"#, "visit:planet"),
        (r#"[["matches","event:page",["x"]]]"#, "not supported"),
        (r#"[["or",[["is","event:page",["/"]],["is","visit:os",["Linux"]]]]]"#, "may not mix"),
        (r#"[["is","event:page",[]]]"#, "values"),
    ];
    let reads = [
        format!("/api/dashboard/overview?website_id={id}&filters="),
        format!("/api/dashboard/timeseries?website_id={id}&filters="),
        format!("/api/websites/{id}/breakdown/page?filters="),
        format!("/api/websites/{id}/traffic-sources?filters="),
        format!("/api/websites/{id}/referrers?filters="),
        format!("/api/websites/{id}/countries?filters="),
        format!("/api/websites/{id}/events/summary?filters="),
        format!("/api/websites/{id}/events/property-keys?filters="),
        format!("/api/websites/{id}/export?filters="),
        format!("/api/export/pageviews?website_id={id}&filters="),
        format!("/api/dashboard/recent-activity?website_id={id}&filters="),
    ];
    for read in &reads {
        for (raw, says) in refused {
            let answer = server.get(&format!("{read}{}", enc(raw)), &token).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{read}{raw}: {}", answer.text);
            let message = answer.json["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains(says), "{read}{raw}: {message}");
        }
    }
    let unknown = server.get(&format!("/api/websites/{id}/breakdown/planet"), &token).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST, "{}", unknown.text);
    assert!(unknown.json["error"]["message"].as_str().unwrap().contains("entry_page"));

    let (stranger, _) = server.register("stranger@example.com").await;
    let fine = enc(r#"[["is","visit:country",["DE"]]]"#);
    for read in &reads {
        let answer = server.get(&format!("{read}{fine}"), &stranger).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{read}: {}", answer.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_period_by_preset_custom_days_or_all_time() {
    let (server, token, id) = seeded().await;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let visitors = |query: String| {
        let (server, token) = (&server, &token);
        async move {
            let body = get_json(server, token, &format!("/api/dashboard/overview?website_id={id}&{query}")).await;
            body["metrics"]["totalVisitors"].as_i64().unwrap()
        }
    };
    for query in
        ["range=today".to_string(), "range=all".into(), "range=month".into(), format!("from={today}&to={today}")]
    {
        assert_eq!(visitors(query.clone()).await, 2, "{query}");
    }
    let hours =
        get_json(&server, &token, &format!("/api/dashboard/timeseries?website_id={id}&from={today}&to={today}")).await;
    assert_eq!(hours["points"].as_array().unwrap().len(), 24, "one day is read by the hour");
    let all = get_json(&server, &token, &format!("/api/dashboard/timeseries?website_id={id}&range=all")).await;
    assert_eq!(all["points"].as_array().unwrap().len(), 1, "all time starts today for a site tracked today");
    let sources =
        get_json(&server, &token, &format!("/api/websites/{id}/traffic-sources?from=2001-01-01&to=2001-12-31")).await;
    assert_eq!(sources, json!([]));

    for (query, says) in [
        (format!("from={today}"), "together"),
        ("from=2026-02-30&to=2026-03-01".to_string(), "from must be a date"),
        (format!("from={today}&to=2001-01-01"), "after"),
        ("from=1900-01-01&to=2026-01-01".to_string(), "date"),
        ("range=fortnight".to_string(), "range must be"),
    ] {
        for read in [
            format!("/api/dashboard/overview?website_id={id}&{query}"),
            format!("/api/websites/{id}/breakdown/page?{query}"),
            format!("/api/websites/{id}/conversions?{query}"),
        ] {
            let answer = server.get(&read, &token).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{read}: {}", answer.text);
            assert!(answer.json["error"]["message"].as_str().unwrap().contains(says), "{read}: {}", answer.text);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comparisons_with_the_period_before_or_a_year_earlier() {
    let (server, token, id) = seeded().await;
    let blog = enc(r#"[["contains","event:page",["/blog"]]]"#);
    for compare in ["previous_period", "year_over_year"] {
        let chart = get_json(
            &server,
            &token,
            &format!("/api/dashboard/timeseries?website_id={id}&range=28d&filters={blog}&compare={compare}"),
        )
        .await;
        let (points, earlier) = (chart["points"].as_array().unwrap(), chart["comparison"].as_array().unwrap());
        assert_eq!((points.len(), earlier.len()), (28, 28), "{compare}: one earlier point for each");
        assert!(earlier.iter().all(|p| p["visitors"] == 0), "{compare}: nothing was tracked then");
        let cards =
            get_json(&server, &token, &format!("/api/dashboard/overview?website_id={id}&range=28d&compare={compare}"))
                .await;
        assert_eq!(
            (cards["metrics"]["totalVisitors"].as_i64(), cards["previous"]["totalVisitors"].as_i64()),
            (Some(2), Some(0))
        );
        let pages = get_json(
            &server,
            &token,
            &format!("/api/websites/{id}/breakdown/page?range=28d&filters={blog}&compare={compare}"),
        )
        .await;
        let rows = pages["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "{pages}");
        assert!(rows.iter().all(|r| r["previous"] == 0 && r["count"] == 1), "{compare}: {pages}");
    }
    let plain = get_json(&server, &token, &format!("/api/dashboard/timeseries?website_id={id}")).await;
    assert!(plain.get("comparison").is_none(), "no comparison unless asked");
    let plain = get_json(&server, &token, &format!("/api/websites/{id}/breakdown/page")).await;
    assert!(plain["rows"][0].get("previous").is_none());
    for read in [
        format!("/api/dashboard/overview?website_id={id}&compare=last_week"),
        format!("/api/dashboard/timeseries?website_id={id}&compare=last_week"),
        format!("/api/websites/{id}/breakdown/page?compare=last_week"),
    ] {
        let answer = server.get(&read, &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{read}");
        assert!(answer.json["error"]["message"].as_str().unwrap().contains("compare must be"));
    }
}
