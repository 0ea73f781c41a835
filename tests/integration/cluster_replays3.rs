//! Heatmaps on a cluster end to end (issue 18): the corpus and recent visits' interactions bodies (clicks,
//! moves, submits, form fields, scroll depths) sent to a SQLite daemon and round-robin to two cluster daemons,
//! every heatmap read compared JSON-equal, another account's site answering 404 as a missing one, and a site's
//! deletion leaving no interaction row on either shard. Without the harness's env the test returns at once.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tracker_core::cluster::clickhouse::Node;

use crate::capture_util::visitor_post;
use crate::cluster::{
    Corner, CorpusHit, Setup, USER_AGENTS, address, corpus, harness, read, send_corpus_hit, start_early_in_the_hour,
};
use crate::util::TestServer;

/// Sends an interactions body of visitor `visitor` on `path` from that visitor's browser and address.
pub(crate) async fn send_interactions(server: &TestServer, key: &str, visitor: u8, path: &str, mut body: Value) {
    body["tracking_key"] = json!(key);
    body["session_id"] = json!(format!("visitor-{visitor:04}"));
    body["url"] = json!(format!("https://shop.example.com{path}"));
    let agent = USER_AGENTS[visitor as usize % USER_AGENTS.len()];
    let headers = [("user-agent", agent), ("x-forwarded-for", &address(visitor))];
    let answer = visitor_post(server, "/api/interactions", body.to_string().into_bytes(), &headers).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
}

/// The n-th interactions body of a recent visit: clicks with and without offsets, moves, form fields (some
/// left empty, some forms submitted) and a scroll depth raised by later bodies of the same page view.
fn interactions_body(visitor: u8, n: u8) -> Value {
    let (v, n64) = (visitor as i64, n as i64);
    let mut body = json!({
        "viewport": {"w": 1280, "h": 800},
        "page": {"w": 640 + 320 * (v % 3), "h": 3000 + 500 * n64},
        "clicks": [
            {"x": 40 + 7 * v, "y": 100 + 13 * n64, "selector": "main > button.buy", "ox": 0.25, "oy": 0.5},
            {"x": 300 + v, "y": 900 + v * n64, "selector": (["nav > a", "#hero .cta", ""][visitor as usize % 3])},
        ],
        "moves": [{"x": 10 + v, "y": 20 + n64}, {"x": 30 + n64, "y": 40 + v}],
        "fields": [
            {"event": "focus", "form": "#signup", "field": "#email", "filled": false},
            {"event": "change", "form": "#signup", "field": (["#email", "#name"][(visitor + n) as usize % 2]),
             "filled": !visitor.is_multiple_of(3)},
        ],
        "scrollDepth": (15 * (v % 4) + 20 * n64).min(100),
    });
    if visitor % 4 == 1 && n == 1 {
        body["submits"] = json!([{"selector": "#signup"}]);
    }
    body
}

/// The recent visits: two page views 35 minutes ago, an event 10 minutes ago, then bodies on each page, each hit
/// and body of a visit through the daemon `daemon(i)` picks for its turn. Bodies are timed on arrival, which
/// differs between the engines by milliseconds: the last page's time runs from 35 minutes ago to a body, so it is
/// the 30 minutes a page is timed at most on both. The page views are a millisecond apart: page views of one time
/// are ordered by SQLite's row ids, which the cluster does not have.
async fn send_recent_visits<'a>(daemon: impl Fn(usize) -> &'a TestServer, key: &str) {
    let mut turn = 0;
    for visitor in 60..76u8 {
        let now = tracker_core::model::now_ms();
        let (first, then) = (format!("/p{}", visitor % 3), "/checkout".to_string());
        let url = |page: &str| format!("https://shop.example.com{page}");
        let hits = [
            (now - 35 * 60_000, json!({"url": url(&first)})),
            (now - 35 * 60_000 + 1, json!({"url": url(&then)})),
            (now - 10 * 60_000, json!({"url": url(&then), "event": "custom", "event_name": "play"})),
        ];
        for (ts, body) in hits {
            send_corpus_hit(daemon(turn), key, &CorpusHit { visitor, ts, body }).await;
            turn += 1;
        }
        for (page, bodies) in [(first, 2), (then, 1)] {
            for n in 0..bodies {
                send_interactions(daemon(turn), key, visitor, &page, interactions_body(visitor, n)).await;
                turn += 1;
            }
        }
    }
}

/// Rows of the test's interactions table on each shard (its local table) where `condition`.
fn shard_interactions(corner: &Corner, condition: &str) -> Vec<u64> {
    (corner.ch.split(','))
        .map(|url| {
            Node::new(url)
                .query_value(&format!("SELECT count() FROM {}.interactions_local WHERE {condition}", corner.name))
                .unwrap()
        })
        .collect()
}

#[tokio::test]
async fn heatmaps_answer_as_sqlite_on_the_same_interactions_and_go_with_their_site() {
    let Some((pg, ch)) = harness() else { return };
    start_early_in_the_hour().await;
    let now = tracker_core::model::now_ms();
    let hits = corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start);
    let Setup { corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } =
        Setup::start(pg, ch, "enhanced", &hits).await;
    let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
    send_recent_visits(|turn| if turn % 2 == 0 { &a } else { &b }, key).await;
    send_recent_visits(|_| &sqlite, sqlite_key).await;

    let urls = |id: &Value| format!("/api/analytics/urls?website_id={id}");
    let expected = read(&sqlite, &sqlite_token, &urls(&sqlite_site["id"])).await;
    assert!(expected.as_array().unwrap().contains(&json!("/checkout")), "{expected}");
    for (name, server) in [("A", &a), ("B", &b)] {
        assert_eq!(read(server, &token, &urls(&site["id"])).await, expected, "daemon {name}");
    }
    let heatmap = |id: &Value, path: &str, range: &str| {
        format!("/api/analytics/heatmap?website_id={id}&url=https%3A%2F%2Fshop.example.com{path}&time_range={range}")
    };
    for range in ["24h", "7d"] {
        for path in ["/p0", "/p1", "/p2", "/checkout", "/nothing"] {
            let expected = read(&sqlite, &sqlite_token, &heatmap(&sqlite_site["id"], path, range)).await;
            if path != "/nothing" {
                assert!(!expected["clicks"].as_array().unwrap().is_empty(), "{path}: {expected}");
                assert!(!expected["scrollDepth"].as_array().unwrap().is_empty(), "{path}: {expected}");
                assert!(!expected["formInteractions"].as_array().unwrap().is_empty(), "{path}: {expected}");
            }
            for (name, server) in [("A", &a), ("B", &b)] {
                let answer = read(server, &token, &heatmap(&site["id"], path, range)).await;
                assert_eq!(answer, expected, "daemon {name}, {path} over {range}");
            }
        }
    }

    // Another account's site answers 404 as a missing one; bad input is a 400.
    let (stranger, _) = b.register("stranger@example.com").await;
    let theirs = b.get(&heatmap(&site["id"], "/p1", "24h"), &stranger).await;
    let missing = b.get(&heatmap(&json!(999_999), "/p1", "24h"), &stranger).await;
    assert_eq!((theirs.status, theirs.json), (StatusCode::NOT_FOUND, missing.json));
    let bad = a.get(&format!("/api/analytics/heatmap?website_id={}&url=javascript%3Ax", site["id"]), &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);

    // The site deleted on B: no interaction row of it on either shard.
    let of_site = format!("website_id = {}", site["id"]);
    assert!(shard_interactions(&corner, &of_site).iter().all(|n| *n > 0), "rows on both shards");
    let deleted = b.delete(&format!("/api/websites/{}", site["id"]), &token).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    crate::util::wait_for("the interactions to go", std::time::Duration::from_secs(60), || async {
        (shard_interactions(&corner, &of_site) == [0, 0]).then_some(())
    })
    .await;
}
