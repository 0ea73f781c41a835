//! A visitor's copy of their data with heatmap data on a cluster (issue 18): the same visit, its clicks, moves,
//! submits, form fields and scroll reports sent to a SQLite daemon and round-robin to two cluster daemons; the
//! copies' interactions, form fields and scroll depths answer as on SQLite. Without the harness's env
//! (tests/cluster/cluster.sh) the test returns at once.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::{CorpusHit, Setup, harness};
use crate::cluster_privacy::without_ids;
use crate::cluster_replays3::send_interactions;
use crate::util::TestServer;

/// An interactions body of the known visitor: clicks, a submit and form-field events at the browser's times from
/// `at` (a second apart), two moves and a scroll depth (both timed on arrival).
fn body(at: i64, n: i64, depth: i64) -> Value {
    json!({
        "viewport": {"w": 1280, "h": 800},
        "page": {"w": 1280, "h": 3000 + 100 * n},
        "clicks": [
            {"x": 40 + n, "y": 100, "selector": "main > button.buy", "ox": 0.25, "oy": 0.5, "t": at},
            {"x": 300, "y": 900 + n, "t": at + 1_000},
        ],
        "moves": [{"x": 10, "y": 20 + n}, {"x": 30 + n, "y": 40}],
        "submits": [{"selector": "#signup", "t": at + 4_000}],
        "fields": [
            {"event": "focus", "form": "#signup", "field": "#email", "t": at + 2_000},
            {"event": "change", "form": "#signup", "field": "#email", "filled": n % 2 == 0, "t": at + 3_000},
        ],
        "scrollDepth": depth,
    })
}

/// A copy with the times of what each engine stamps on arrival set aside (moves, scroll depths, a visit's last
/// time), after checking each is within seconds of SQLite's: the engines got each body milliseconds apart.
fn arrival_times_set_aside(mut copy: Value, expected: &Value) -> Value {
    let close = |got: &Value, want: &Value| {
        let ms = |v: &Value| chrono::DateTime::parse_from_rfc3339(v.as_str().unwrap()).unwrap().timestamp_millis();
        assert!((ms(got) - ms(want)).abs() < 10_000, "{got} against {want}");
    };
    for (list, field, stamped_on_arrival) in [
        ("sessions", "lastSeen", (|_: &Value| true) as fn(&Value) -> bool),
        ("interactions", "timestamp", |row: &Value| row["type"] == "move"),
        ("scrollDepths", "timestamp", |_: &Value| true),
    ] {
        let (rows, want) = (copy[list].as_array_mut().unwrap(), expected[list].as_array().unwrap());
        assert_eq!(rows.len(), want.len(), "{list}");
        for (row, want) in rows.iter_mut().zip(want) {
            if stamped_on_arrival(row) {
                close(&row[field], &want[field]);
                row[field] = want[field].clone();
            }
        }
    }
    copy
}

#[tokio::test]
async fn a_visitors_copy_lists_their_heatmap_data_as_on_sqlite() {
    let Some((pg, ch)) = harness() else { return };
    let now = tracker_core::model::now_ms();
    let page = |path: &str| json!({"url": format!("https://shop.example.com{path}")});
    // Visitor 80 views the home page and the pricing page; visitor 81 (not asked for) the home page.
    let hits = [
        CorpusHit { visitor: 80, ts: now - 20 * 60_000, body: page("/") },
        CorpusHit { visitor: 81, ts: now - 20 * 60_000 + 81, body: page("/") },
        CorpusHit { visitor: 80, ts: now - 15 * 60_000, body: page("/pricing") },
    ];
    let Setup { corner: _corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } =
        Setup::start(pg, ch, "professional", &hits).await;
    let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
    let mut turn = 0;
    let mut both = async |visitor: u8, path: &str, body: Value| {
        let daemon: &TestServer = if turn % 2 == 0 { &a } else { &b };
        turn += 1;
        send_interactions(daemon, key, visitor, path, body.clone()).await;
        send_interactions(&sqlite, sqlite_key, visitor, path, body).await;
    };
    // Two reports on the pricing page's view: it keeps the deeper (the first) at the later's time.
    both(80, "/pricing", body(now - 14 * 60_000, 0, 70)).await;
    both(80, "/pricing", body(now - 13 * 60_000, 1, 40)).await;
    both(81, "/", body(now - 12 * 60_000, 2, 90)).await;
    // Back on the home page: a new page view whose report is its own, the earlier one's kept.
    both(80, "/", body(now - 11 * 60_000, 3, 20)).await;
    let view = CorpusHit { visitor: 80, ts: tracker_core::model::now_ms(), body: page("/") };
    crate::cluster::send_corpus_hit(&b, key, &view).await;
    crate::cluster::send_corpus_hit(&sqlite, sqlite_key, &view).await;
    both(80, "/", body(now - 10 * 60_000, 4, 55)).await;

    let copy = |site: &Value| format!("/api/privacy/visitor-data?website_id={site}&visitor_id=visitor-0080");
    let expected = sqlite.get(&copy(&sqlite_site["id"]), &sqlite_token).await;
    assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
    let expected = without_ids(expected.json);
    // Four bodies of the visitor: 5 points and 2 field events each; one depth per page view.
    assert_eq!(expected["interactions"].as_array().unwrap().len(), 20, "{expected}");
    assert_eq!(expected["formFields"].as_array().unwrap().len(), 8, "{expected}");
    let depths: Vec<(&Value, &Value)> =
        expected["scrollDepths"].as_array().unwrap().iter().map(|d| (&d["path"], &d["depth"])).collect();
    assert_eq!(depths, [(&json!("/pricing"), &json!(70)), (&json!("/"), &json!(20)), (&json!("/"), &json!(55))]);
    for (name, server) in [("A", &a), ("B", &b)] {
        let got = server.get(&copy(&site["id"]), &token).await;
        assert_eq!(got.status, StatusCode::OK, "{name}: {}", got.text);
        let got = arrival_times_set_aside(without_ids(got.json), &expected);
        for list in ["sessions", "events", "interactions", "formFields", "scrollDepths", "recordings", "consentLogs"] {
            assert_eq!(got[list], expected[list], "daemon {name}: {list}");
        }
        assert_eq!(got, expected, "daemon {name}");
    }
}
