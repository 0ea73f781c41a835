//! Revenue through HTTP: the dashboard's `GET /api/websites/{id}/revenue/{dimension}` (sums per value and
//! currency, bad input a 400, another account's site a 404) and the Stats API's `total_revenue` as Plausible
//! shows money, on four visits whose sums are known.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::TestServer;

/// A site `shop.example` with four visitors (one browser each): from Google, a purchase of 10.25 EUR; from
/// Google, a purchase without a value; direct, a purchase of 5.10 EUR and a plan of 3 USD; direct, nothing.
/// Answers the server, the owner's sign-in and the site's id.
async fn shop() -> (TestServer, String, i64) {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "professional").await;
    let id = site["id"].as_i64().unwrap();
    let renamed = server.put(&format!("/api/websites/{id}"), &token, json!({"domain": "shop.example"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    let key = site["trackingKey"].as_str().unwrap();
    let agent = |n: u32| {
        format!(
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/13{n}.0.0.0 Safari/537.36"
        )
    };
    let purchase =
        |name: &str, props: Value| json!({"event": "conversion", "event_name": name, "event_properties": props});
    let visits: [(&str, u32, &str, Vec<Value>); 4] = [
        (
            "rev-google-1",
            1,
            "https://www.google.com/",
            vec![purchase("purchase", json!({"value": 10.25, "currency": "EUR"}))],
        ),
        ("rev-google-2", 2, "https://www.google.com/", vec![purchase("purchase", json!({}))]),
        (
            "rev-direct-3",
            3,
            "",
            vec![
                purchase("purchase", json!({"value": "5.10", "currency": "eur"})),
                purchase("plan", json!({"value": 3, "currency": "USD"})),
            ],
        ),
        ("rev-direct-4", 4, "", vec![]),
    ];
    for (session, n, referrer, events) in visits {
        let mut hits = vec![json!({"referrer": referrer})];
        hits.extend(events);
        for extra in hits {
            let mut body = json!({"tracking_key": key, "session_id": session, "url": "https://shop.example/"});
            body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            let request = server.client.post(server.url("/api/track")).header("user-agent", agent(n)).json(&body);
            let answer = crate::util::answer(request.send().await.expect("track")).await;
            assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        }
    }
    (server, token, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revenue_by_source_and_goal_sums_each_currency() {
    let (server, token, site) = shop().await;
    let by_source = server.get(&format!("/api/websites/{site}/revenue/source?range=7d"), &token).await;
    assert_eq!(by_source.status, StatusCode::OK, "{}", by_source.text);
    assert_eq!(
        by_source.json,
        json!({"dimension": "source", "rows": [
            {"value": "Google", "currency": "EUR", "amount": 10.25, "conversions": 1},
            {"value": "", "currency": "EUR", "amount": 5.1, "conversions": 1},
            {"value": "", "currency": "USD", "amount": 3.0, "conversions": 1},
        ]})
    );
    let filters = urlencoding(r#"[["is","visit:source",["Direct / None"]]]"#);
    let by_goal = server.get(&format!("/api/websites/{site}/revenue/goal?range=7d&filters={filters}"), &token).await;
    assert_eq!(by_goal.status, StatusCode::OK, "{}", by_goal.text);
    let goals: Vec<(&str, f64)> = by_goal.json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["value"].as_str().unwrap(), r["amount"].as_f64().unwrap()))
        .collect();
    assert_eq!(goals, vec![("purchase", 5.1), ("plan", 3.0)]);

    for (path, says) in [
        ("revenue/planet?range=7d", "dimension"),
        ("revenue/source?range=7d&limit=0", "limit"),
        ("revenue/source?range=fortnight", "range"),
        ("revenue/source?filters=%5B1%5D", "filter"),
    ] {
        let answer = server.get(&format!("/api/websites/{site}/{path}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}: {}", answer.text);
        assert!(answer.error_message().to_lowercase().contains(says), "{path}: {}", answer.text);
    }
    let (stranger, _) = server.register("stranger@example.com").await;
    let theirs = server.get(&format!("/api/websites/{site}/revenue/source"), &stranger).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
    assert!(theirs.json["error"]["message"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn total_revenue_is_plausibles_money_or_null_with_its_warning() {
    let (server, token, _) = shop().await;
    let ask = |body: Value| {
        let (server, token) = (&server, token.clone());
        async move {
            let mut body = body;
            body["site_id"] = json!("shop.example");
            body["date_range"] = json!("7d");
            let answer = server.post("/api/v2/query", &token, body).await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
            answer.json
        }
    };
    let euros = ask(json!({"metrics": ["total_revenue"], "filters": [["is", "event:goal", ["purchase"]]]})).await;
    assert_eq!(
        euros["results"][0]["metrics"][0],
        json!({"short": "€15.3", "long": "€15.35", "value": 15.35, "currency": "EUR"}),
        "{euros}"
    );
    assert!(euros["meta"].get("metric_warnings").is_none(), "{euros}");

    let by_source = ask(json!({"metrics": ["visitors", "total_revenue"], "dimensions": ["visit:source"],
        "filters": [["is", "event:goal", ["purchase"]]]}))
    .await;
    let values: Vec<(Value, Value)> = by_source["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["dimensions"][0].clone(), r["metrics"][1]["value"].clone()))
        .collect();
    assert_eq!(values, vec![(json!("Google"), json!(10.25)), (json!("Direct / None"), json!(5.1))], "{by_source}");

    // Euros and dollars are not added up, unless each goal is a row of its own.
    let mixed = ask(json!({"metrics": ["total_revenue"]})).await;
    assert_eq!(mixed["results"][0]["metrics"][0], Value::Null, "{mixed}");
    assert_eq!(mixed["meta"]["metric_warnings"]["total_revenue"]["code"], "no_single_revenue_currency");
    let per_goal = ask(
        json!({"metrics": ["total_revenue"], "dimensions": ["event:goal"], "order_by": [["total_revenue", "asc"]]}),
    )
    .await;
    let goals: Vec<(Value, Value)> = per_goal["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["dimensions"][0].clone(), r["metrics"][0]["long"].clone()))
        .collect();
    assert_eq!(goals, vec![(json!("plan"), json!("$3.00")), (json!("purchase"), json!("€15.35"))], "{per_goal}");
}

/// `raw` percent-encoded for a query string.
fn urlencoding(raw: &str) -> String {
    raw.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
