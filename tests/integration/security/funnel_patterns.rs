//! Finding 10 of issue 33, "Funnel patterns backtrack": against a crafted step pattern (`/*aaa…ab`) each long
//! path cost about a million comparisons (the matcher went back to its star at every character), for every
//! event of the range and again after every edit: 5.2 s for 5,000 long paths. Patterns now match in time
//! linear in the path and the pattern, and a step's path pattern is at most 500 characters.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use tracker_core::ingest::{Client, Hit, Submitted, TrackRequest};

use crate::util::{BROWSER_UA, TestServer};

/// A path of nearly ingest's greatest length (its URL within 2,000 characters) that the crafted pattern almost
/// matches everywhere.
fn long_path() -> String {
    format!("/{}", "a".repeat(1970))
}

/// `visits` visits two hours ago, each `views` page views of [`long_path`], then one of the same path ending
/// in `b`, then /done; and one visit of long paths only.
async fn seed(server: &TestServer, key: &str, visits: usize, views: usize) {
    let site = server.tracker.ingest.site(key).unwrap();
    let start = tracker_core::model::now_ms() - 2 * 3_600_000;
    let hit = |session: String, path: &str, ts: i64| {
        let request: TrackRequest = serde_json::from_value(
            json!({"tracking_key": key, "session_id": session, "url": format!("https://p.example.com{path}")}),
        )
        .unwrap();
        Hit::from_request(request, &site, ts).unwrap()
    };
    let client = Client { ip: "198.18.0.9".parse().unwrap(), user_agent: BROWSER_UA.into(), do_not_track: false };
    let ending_in_b = format!("/{}b", "a".repeat(1969));
    for v in 0..=visits {
        let mut paths = vec![long_path(); views];
        if v < visits {
            paths.extend([ending_in_b.clone(), "/done".into()]);
        }
        let mut commits = Vec::new();
        for (i, path) in paths.iter().enumerate() {
            match server.tracker.ingest.track_hit(hit(format!("pattern-{v}"), path, start + i as i64), &client).unwrap()
            {
                Submitted::Queued(commit) => commits.push(commit),
                Submitted::Ignored => panic!("hit ignored"),
            }
        }
        for commit in commits {
            commit.wait().await.unwrap();
        }
    }
}

fn funnel(site: &Value, first_step: &str) -> Value {
    json!({"name": first_step.chars().take(20).collect::<String>(), "websiteId": site["id"],
        "steps": [{"name": "Long", "url": first_step}, {"name": "Done", "url": "/done"}]})
}

fn figures(funnel: &Value) -> Vec<u64> {
    funnel["steps"].as_array().unwrap().iter().map(|s| s["visitors"].as_u64().unwrap()).collect()
}

#[tokio::test]
async fn funnel_pattern_of_many_near_matches_is_counted_in_linear_time() {
    let server = TestServer::start().await;
    let (token, _) = server.register("patterns@example.com").await;
    let site = server.create_site(&token, "Patterns", "light").await;
    // 40,000 long page views: a backtracking matcher makes about 2,000 × 500 comparisons of each (4·10^10 in
    // all, minutes even optimised); a linear one about 2,500.
    let (visits, views) = (200, 200);
    seed(&server, site["trackingKey"].as_str().unwrap(), visits, views).await;

    let crafted = format!("/*{}b", "a".repeat(497));
    assert_eq!(crafted.len(), 500);
    let created =
        tokio::time::timeout(Duration::from_secs(20), server.post("/api/funnels", &token, funnel(&site, &crafted)))
            .await
            .expect("the crafted pattern's figures are counted at once, not by backtracking through every path");
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(figures(&created.json), [visits as u64, visits as u64]);
    // The same answer as a plain pattern of the same pages.
    let plain = server.post("/api/funnels", &token, funnel(&site, "/*b")).await;
    assert_eq!(figures(&plain.json), figures(&created.json));
    let list = tokio::time::timeout(Duration::from_secs(20), server.get("/api/funnels?range=7d", &token))
        .await
        .expect("the list is counted at once too");
    assert_eq!(list.json.as_array().unwrap().iter().map(figures).collect::<Vec<_>>(), vec![figures(&created.json); 2]);
    server.stop().await;
}

#[tokio::test]
async fn funnel_pattern_longer_than_500_characters_is_refused() {
    let server = TestServer::start().await;
    let (token, _) = server.register("long-patterns@example.com").await;
    let site = server.create_site(&token, "Patterns", "light").await;
    let too_long = format!("/*{}b", "a".repeat(498));
    let refused = server.post("/api/funnels", &token, funnel(&site, &too_long)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.text);
    assert_eq!(refused.error_message(), "URL path must be at most 500 characters");
    // A full URL keeps only its path, which is what is measured.
    let url = format!("https://p.example.com/checkout?{}", "q".repeat(1500));
    let kept = server.post("/api/funnels", &token, funnel(&site, &url)).await;
    assert_eq!(kept.status, StatusCode::CREATED, "{}", kept.text);
    let id = kept.json["id"].as_i64().unwrap();
    let edit = json!({"steps": [{"name": "Long", "url": too_long}, {"name": "Done", "url": "/done"}]});
    let refused = server.put(&format!("/api/funnels/{id}"), &token, edit).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.text);
    server.stop().await;
}
