//! Plausible's Stats API v2 against tracker: the example queries of Plausible's own documentation
//! (plausible/docs, src/js/apiv2-examples/*-query.json, site_id kept as `dummy.site`), sent with a read API key
//! as a Plausible client sends them, on three visits whose answers are known; and what tracker refuses, with
//! the field named.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::{BROWSER_UA, TestServer};

const FIREFOX_UA: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/// A site `dummy.site` with three visits by two visitors (Chrome on Windows, Firefox on Linux):
/// 1. Chrome: /docs/start tagged utm_medium=email, utm_source=newsletter, utm_campaign=Referral, then /pricing
///    and a Signup event with is_customer=true;
/// 2. Firefox: /blog/Hello tagged utm_medium=social, utm_source=twitter;
/// 3. Chrome again, direct: /pricing.
///
/// Answers the server, a read key's secret and the owner's sign-in.
async fn seeded() -> (TestServer, String, String) {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Dummy", "professional").await;
    let id = site["id"].as_i64().unwrap();
    let renamed = server.put(&format!("/api/websites/{id}"), &token, json!({"domain": "dummy.site"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    let key = site["trackingKey"].as_str().unwrap().to_string();
    let hits = [
        (
            "s-one-1234",
            BROWSER_UA,
            "https://dummy.site/docs/start?utm_medium=email&utm_source=newsletter&utm_campaign=Referral",
            json!({}),
        ),
        ("s-one-1234", BROWSER_UA, "https://dummy.site/pricing", json!({})),
        (
            "s-one-1234",
            BROWSER_UA,
            "https://dummy.site/pricing",
            json!({"event": "custom", "event_name": "Signup", "event_properties": {"is_customer": true}}),
        ),
        ("s-two-1234", FIREFOX_UA, "https://dummy.site/blog/Hello?utm_medium=social&utm_source=twitter", json!({})),
        ("s-three-1234", BROWSER_UA, "https://dummy.site/pricing", json!({})),
    ];
    for (session, agent, url, extra) in hits {
        let mut body = json!({"tracking_key": key, "session_id": session, "url": url});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let request = server.client.post(server.url("/api/track")).header("user-agent", agent).json(&body);
        let answer = crate::util::answer(request.send().await.expect("track")).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    let created = server.post("/api/user/api-keys", &token, json!({"name": "Looker", "scope": "read"})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    (server, created.json["secret"].as_str().unwrap().to_string(), token)
}

/// Sends a query as a Plausible client does (a bearer key, JSON); the status and body.
async fn query(server: &TestServer, key: &str, body: &Value) -> (StatusCode, Value) {
    let answer = server.post("/api/v2/query", key, body.clone()).await;
    (answer.status, answer.json)
}

fn rows(answer: &Value) -> Vec<(Value, Value)> {
    answer["results"].as_array().unwrap().iter().map(|r| (r["dimensions"].clone(), r["metrics"].clone())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plausibles_documented_queries_answer_on_tracker() {
    let (server, key, _) = seeded().await;
    let examples: Vec<(&str, Value, Value)> = vec![
        // (example, query, the results known by construction)
        (
            "aggregate",
            json!({"site_id": "dummy.site", "metrics": ["visitors", "events"], "date_range": "7d"}),
            json!([{"metrics": [2, 5], "dimensions": []}]),
        ),
        (
            "custom-date-range",
            json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": ["2024-08-01", "2024-08-15"]}),
            json!([{"metrics": [0], "dimensions": []}]),
        ),
        (
            "filtering-basics",
            json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": "7d", "filters": [
                ["contains", "event:page", ["/docs", "/pricing"]],
                ["or", [["not", ["is", "visit:utm_campaign", ["Referral"]]], ["is", "visit:country_name", ["Estonia", "United States of America"]]]]
            ]}),
            json!([{"metrics": [1], "dimensions": []}]),
        ),
        (
            "filtering-case-insensitive",
            json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": "7d",
            "filters": [["contains", "event:page", ["blog"], {"case_sensitive": false}]]}),
            json!([{"metrics": [1], "dimensions": []}]),
        ),
        (
            "country-and-city",
            json!({"site_id": "dummy.site", "metrics": ["visitors", "pageviews", "bounce_rate"], "date_range": "7d",
            "filters": [["is_not", "visit:country_name", [""]]], "dimensions": ["visit:country_name", "visit:city_name"]}),
            json!([]),
        ),
        (
            "utm",
            json!({"site_id": "dummy.site", "metrics": ["visitors", "events", "pageviews"], "date_range": "7d",
            "dimensions": ["visit:utm_medium", "visit:utm_source"]}),
            // Most visitors first, then by the values as shown.
            json!([
                {"metrics": [1, 1, 1], "dimensions": ["(not set)", "(not set)"]},
                {"metrics": [1, 3, 2], "dimensions": ["email", "newsletter"]},
                {"metrics": [1, 1, 1], "dimensions": ["social", "twitter"]},
            ]),
        ),
        (
            "pagination",
            json!({"site_id": "dummy.site", "metrics": ["visitors", "events", "pageviews"], "date_range": "7d",
            "dimensions": ["visit:utm_medium", "visit:utm_source"], "include": {"total_rows": true}, "pagination": {"limit": 3, "offset": 1}}),
            json!([
                {"metrics": [1, 3, 2], "dimensions": ["email", "newsletter"]},
                {"metrics": [1, 1, 1], "dimensions": ["social", "twitter"]},
            ]),
        ),
        (
            "imports",
            json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": "all", "dimensions": ["visit:source"], "include": {"imports": true}}),
            json!([
                {"metrics": [1], "dimensions": ["Direct / None"]},
                {"metrics": [1], "dimensions": ["Twitter"]},
                {"metrics": [1], "dimensions": ["newsletter"]},
            ]),
        ),
    ];
    for (name, body, expected) in examples {
        let (status, answer) = query(&server, &key, &body).await;
        assert_eq!(status, StatusCode::OK, "{name}: {answer}");
        assert_eq!(answer["results"], expected, "{name}: {answer}");
        assert_eq!(answer["query"]["site_id"], "dummy.site", "{name}");
        assert_eq!(answer["query"]["date_range"].as_array().map(Vec::len), Some(2), "{name}: the dates it covered");
    }

    let (_, paged) = query(&server, &key, &json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": "7d",
        "dimensions": ["visit:utm_medium", "visit:utm_source"], "include": {"total_rows": true}, "pagination": {"limit": 3, "offset": 1}})).await;
    assert_eq!(paged["meta"]["total_rows"], 3);

    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let (status, series) = query(
        &server,
        &key,
        &json!({"site_id": "dummy.site", "metrics": ["visitors", "events"], "date_range": "7d",
        "filters": [["is", "visit:os", ["GNU/Linux", "Linux"]]], "dimensions": ["time:day"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "timeseries: {series}");
    assert_eq!(rows(&series), vec![(json!([today]), json!([1, 1]))], "Firefox on Linux alone");

    let (status, labels) = query(
        &server,
        &key,
        &json!({"site_id": "dummy.site", "metrics": ["visits"], "date_range": "day",
        "dimensions": ["time:hour"], "include": {"time_labels": true}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "time-labels: {labels}");
    assert_eq!(labels["meta"]["time_labels"].as_array().unwrap().len(), 24);
    assert_eq!(
        labels["results"].as_array().unwrap().iter().map(|r| r["metrics"][0].as_i64().unwrap()).sum::<i64>(),
        3,
        "each visit in the hour it started"
    );

    let (status, props) = query(&server, &key, &json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": "7d",
        "dimensions": ["time:day", "event:props:is_customer"], "order_by": [["time:day", "asc"], ["event:props:is_customer", "desc"]]})).await;
    assert_eq!(status, StatusCode::OK, "custom-properties: {props}");
    assert_eq!(rows(&props), vec![(json!([today, "true"]), json!([1]))]);

    // The documented queries tracker does not answer yet are refused saying which field.
    for (name, body, says) in [(
        "behavioral-filters",
        json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": "all",
            "filters": [["is", "event:goal", ["Signup"]], ["has_done", ["is", "event:page", ["/pricing"]]]]}),
        "filters:",
    )] {
        let (status, answer) = query(&server, &key, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {answer}");
        assert!(answer["error"]["message"].as_str().unwrap().contains(says), "{name}: {answer}");
    }
    // Revenue without a conversion carrying a value: no rows, and Plausible's warning (revenue.rs has the sums).
    let (status, revenue) = query(
        &server,
        &key,
        &json!({"site_id": "dummy.site", "metrics": ["total_revenue"],
        "date_range": "all", "dimensions": ["event:goal"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "revenue-metrics: {revenue}");
    assert_eq!(revenue["results"], json!([]));
    assert_eq!(revenue["meta"]["metric_warnings"]["total_revenue"]["code"], "no_revenue_goals_matching");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_queries_are_a_400_naming_the_field_and_other_sites_a_404() {
    let (server, key, token) = seeded().await;
    let base = json!({"site_id": "dummy.site", "metrics": ["visitors"], "date_range": "7d"});
    let with = |extra: Value| {
        let mut body = base.clone();
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    for (body, says) in [
        (json!([1, 2]), "JSON object"),
        (with(json!({"metrics": ["visits", "bogus"]})), "metrics"),
        (with(json!({"date_range": "forever"})), "date_range"),
        (with(json!({"dimensions": ["visit:planet"]})), "dimensions"),
        (with(json!({"filters": [["is", "visit:planet", ["x"]]]})), "filters"),
        (with(json!({"order_by": [["visits", "up"]]})), "order_by"),
        (with(json!({"pagination": {"limit": -1}})), "pagination.limit"),
        (with(json!({"include": {"total_rows": "yes"}})), "include.total_rows"),
    ] {
        let (status, answer) = query(&server, &key, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(answer["error"]["message"].as_str().unwrap().contains(says), "{body}: {answer}");
    }
    // The signed-in owner may ask too; another account, or a site it does not have, is a 404.
    let (status, _) = query(&server, &token, &base).await;
    assert_eq!(status, StatusCode::OK);
    let (stranger, _) = server.register("stranger@example.com").await;
    let (status, answer) = query(&server, &stranger, &base).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    let (status, _) = query(&server, &key, &with(json!({"site_id": "other.site"}))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let unauthenticated = server.client.post(server.url("/api/v2/query")).json(&base).send().await.unwrap();
    assert_eq!(unauthenticated.status(), StatusCode::UNAUTHORIZED);
}

/// Conversion rates as Plausible defines them: four visitors (one browser each), two from Google and two direct;
/// one of each bought, and one direct visitor signed up as well.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conversion_rates_divide_by_everyone_or_by_each_group() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "professional").await;
    let renamed = server.put(&format!("/api/websites/{}", site["id"]), &token, json!({"domain": "shop.example"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    let key = site["trackingKey"].as_str().unwrap();
    let agent = |n: u32| {
        format!(
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/13{n}.0.0.0 Safari/537.36"
        )
    };
    let visits: [(&str, u32, &str, &[&str]); 4] = [
        ("conv-google-1", 1, "https://www.google.com/", &["purchase"]),
        ("conv-google-2", 2, "https://www.google.com/", &[]),
        ("conv-direct-3", 3, "", &["purchase", "signup"]),
        ("conv-direct-4", 4, "", &[]),
    ];
    for (session, n, referrer, goals) in visits {
        let mut hits = vec![json!({"referrer": referrer})];
        hits.extend(goals.iter().map(|g| json!({"event": "conversion", "event_name": g})));
        for extra in hits {
            let mut body = json!({"tracking_key": key, "session_id": session, "url": "https://shop.example/"});
            body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            let request = server.client.post(server.url("/api/track")).header("user-agent", agent(n)).json(&body);
            let answer = crate::util::answer(request.send().await.expect("track")).await;
            assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        }
    }
    let ask = |body: Value| {
        let server = &server;
        let token = token.clone();
        async move {
            let mut body = body;
            body["site_id"] = json!("shop.example");
            body["date_range"] = json!("7d");
            query(server, &token, &body).await
        }
    };
    let (status, bought) =
        ask(json!({"metrics": ["visitors", "conversion_rate"], "filters": [["is", "event:goal", ["purchase"]]]})).await;
    assert_eq!(status, StatusCode::OK, "{bought}");
    assert_eq!(rows(&bought), vec![(json!([]), json!([2, 50.0]))], "two of four visitors bought");

    let (_, goals) = ask(json!({"metrics": ["visitors", "conversion_rate"], "dimensions": ["event:goal"]})).await;
    assert_eq!(rows(&goals), vec![(json!(["purchase"]), json!([2, 50.0])), (json!(["signup"]), json!([1, 25.0]))]);

    let (_, sources) = ask(json!({"metrics": ["visitors", "group_conversion_rate", "conversion_rate"],
        "dimensions": ["visit:source"], "filters": [["is", "event:goal", ["purchase"]]]}))
    .await;
    assert_eq!(
        rows(&sources),
        vec![(json!(["Direct / None"]), json!([1, 50.0, 25.0])), (json!(["Google"]), json!([1, 50.0, 25.0]))],
        "{sources}"
    );
    let (_, signups) = ask(json!({"metrics": ["group_conversion_rate"], "dimensions": ["visit:source"],
        "filters": [["is", "event:goal", ["signup"]]]}))
    .await;
    assert_eq!(rows(&signups), vec![(json!(["Direct / None"]), json!([50.0]))], "{signups}");

    for (body, says) in [
        (json!({"metrics": ["conversion_rate"]}), "needs an event:goal filter or dimension"),
        (
            json!({"metrics": ["conversion_rate"], "filters": [["or", [["is", "event:goal", ["purchase"]], ["is", "event:page", ["/"]]]]]}),
            "apart from other dimensions",
        ),
    ] {
        let (status, answer) = ask(body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert!(answer["error"]["message"].as_str().unwrap().contains(says), "{answer}");
    }
}
