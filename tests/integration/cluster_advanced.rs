//! The Advanced Analytics screen on a cluster end to end (issue 18): the journeys corpus (identify() calls
//! included) sent to a SQLite daemon and round-robin to two cluster daemons; the overview figures and the intent
//! scores read from every daemon JSON-equal to SQLite's, and another account's site answering 404.
//! Without the harness's env the test returns at once.

use reqwest::StatusCode;
use serde_json::Value;

use crate::cluster::{Setup, harness};
use crate::cluster_journeys::setup;

/// An answer with what differs by fit and engine taken out: when and how fast the model was fitted, and
/// SQLite's retired visit keys (`key~id`) as sent.
fn comparable(mut answer: Value) -> Value {
    if answer["model"].is_object() {
        answer["model"]["fittedAt"] = Value::Null;
        answer["model"]["fitMs"] = Value::Null;
    }
    if let Some(sessions) = answer["topIntentSessions"].as_array_mut() {
        for session in sessions {
            let key = session["sessionId"].as_str().unwrap().to_string();
            session["sessionId"] = key.rsplit_once('~').map_or(key.clone(), |(key, _)| key.to_string()).into();
        }
    }
    answer
}

#[tokio::test]
async fn the_advanced_screen_and_intent_scores_answer_as_sqlite_on_the_same_hits() {
    let Some((pg, ch)) = harness() else { return };
    let Setup { corner: _corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } = setup(pg, ch).await;

    let mut scored = 0;
    for range in ["1d", "7d", "30d"] {
        // Refitted on every read (each daemon keeps its own model), so all four fits see the same visits.
        for (route, query) in [("advanced", ""), ("ai-intent", "&refit=true")] {
            let path = |site: &Value| format!("/api/analytics/{route}?website_id={site}&time_range={range}{query}");
            // The periods move on the hour: a comparison that straddled one is made again.
            loop {
                let hour = tracker_core::model::now_ms() / 3_600_000;
                let expected = sqlite.get(&path(&sqlite_site["id"]), &sqlite_token).await;
                let got = [a.get(&path(&site["id"]), &token).await, b.get(&path(&site["id"]), &token).await];
                if tracker_core::model::now_ms() / 3_600_000 != hour {
                    continue;
                }
                assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
                let expected = comparable(expected.json);
                scored += expected["summary"]["totalAnalyzed"].as_i64().unwrap_or(0);
                for (name, answer) in ["A", "B"].iter().zip(got) {
                    assert_eq!(answer.status, StatusCode::OK, "daemon {name}: {}", answer.text);
                    assert_eq!(comparable(answer.json), expected, "daemon {name}: {}", path(&site["id"]));
                }
                break;
            }
        }
    }
    assert!(scored > 50, "the corpus's visits are scored: {scored}");

    // Another account's site is a 404, as a site id that is not a number; a bad range a 400; as on SQLite.
    let (stranger, _) = b.register("stranger@example.com").await;
    let (sqlite_stranger, _) = sqlite.register("stranger@example.com").await;
    for (path, status) in [
        (format!("/api/analytics/advanced?website_id={}", site["id"]), StatusCode::NOT_FOUND),
        (format!("/api/analytics/ai-intent?website_id={}", site["id"]), StatusCode::NOT_FOUND),
        ("/api/analytics/advanced?website_id=abc".to_string(), StatusCode::NOT_FOUND),
    ] {
        let sqlite_path = path.replace(&site["id"].to_string(), &sqlite_site["id"].to_string());
        let expected = sqlite.get(&sqlite_path, &sqlite_stranger).await;
        assert_eq!(expected.status, status, "SQLite {sqlite_path}: {}", expected.text);
        for server in [&a, &b] {
            let answer = server.get(&path, &stranger).await;
            assert_eq!(answer.status, status, "{path}: {}", answer.text);
            assert_eq!(answer.json, expected.json, "{path}");
        }
    }
    let bad_range = format!("/api/analytics/ai-intent?website_id={}&time_range=2w", site["id"]);
    assert_eq!(a.get(&bad_range, &token).await.status, StatusCode::BAD_REQUEST);
}
