//! Part 2's journeys (paths and customer journeys), sessions and identified visitors on a cluster end to end (issue 18): the corpus with
//! identify() calls added, sent to a SQLite daemon and round-robin to two cluster daemons of a professional
//! site, every read compared JSON-equal (ids aside), and another account's ids answering 404, bad ones 400.
//! Without the harness's env the test returns at once.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::{CorpusHit, Setup, corpus, harness, read};

/// The traits of the identify() calls added to the corpus: a company, a company name with an industry, a
/// number, traits that name no company, and none at all.
fn traits(visitor: u8) -> Option<Value> {
    match visitor % 6 {
        0 => Some(json!({"company": "Acme", "industry": "Retail"})),
        1 => Some(json!({"companyName": "Beta Ltd", "industry": "Finance"})),
        2 => Some(json!({"company": 42})),
        3 => Some(json!({"email": "someone@example.com"})),
        4 => None,
        _ => Some(json!({"company": "", "companyName": "Gamma"})),
    }
}

/// The corpus with an identify() call 30 seconds into the first visit of every other visitor.
fn corpus_with_identities(now: i64) -> Vec<CorpusHit> {
    let mut hits = corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start);
    let mut identities = Vec::new();
    for visitor in (0..30u8).step_by(2) {
        let Some(first) = hits.iter().find(|h| h.visitor == visitor) else { continue };
        let mut body = json!({"url": "https://shop.example.com/account", "event": "identify"});
        if let Some(traits) = traits(visitor / 2) {
            body["event_properties"] = traits;
        }
        identities.push(CorpusHit { visitor, ts: first.ts + 30_000, body });
    }
    hits.extend(identities.into_iter().filter(|h| h.ts <= now));
    hits.sort_by_key(|h| h.ts);
    hits
}

/// Two cluster daemons and a SQLite one, each with the owner's professional site, given the corpus with
/// identities.
pub(crate) async fn setup(pg: String, ch: String) -> Setup {
    Setup::start(pg, ch, "professional", &corpus_with_identities(tracker_core::model::now_ms())).await
}

#[tokio::test]
async fn journeys_sessions_and_identified_visitors_answer_as_sqlite_on_the_same_hits() {
    let Some((pg, ch)) = harness() else { return };
    let Setup { corner: _corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } = setup(pg, ch).await;

    let identified = |id: &Value| format!("/api/websites/{id}/identified-visitors");
    let expected = read(&sqlite, &sqlite_token, &identified(&sqlite_site["id"])).await;
    // The corpus reaches what the list must get right: traits, a numeric company, a company's network.
    let names: Vec<&str> = expected.as_array().unwrap().iter().map(|v| v["companyName"].as_str().unwrap()).collect();
    for name in ["Acme", "Beta Ltd", "42", "Gamma", "Google LLC"] {
        assert!(names.contains(&name), "{name} in {expected}");
    }
    for (name, server) in [("A", &a), ("B", &b)] {
        assert_eq!(read(server, &token, &identified(&site["id"])).await, expected, "daemon {name}");
    }

    // The identified visits, listed in the same order by both, pair each SQLite session with its cluster visit:
    // each is read alone, with and without its site named, and its journey.
    let (sqlite_list, list) = (
        sqlite.get(&identified(&sqlite_site["id"]), &sqlite_token).await.json,
        a.get(&identified(&site["id"]), &token).await.json,
    );
    let pairs: Vec<(i64, i64)> = sqlite_list
        .as_array()
        .unwrap()
        .iter()
        .zip(list.as_array().unwrap())
        .map(|(s, c)| (s["id"].as_i64().unwrap(), c["id"].as_i64().unwrap()))
        .collect();
    assert!(pairs.len() >= 10, "{pairs:?}");
    let mut steps_with_events = 0;
    for &(sqlite_id, id) in &pairs {
        for (suffix, query) in [("", String::new()), ("/journey", String::new()), ("", "?website_id={site}".into())] {
            let path = |id: i64, site: &Value| {
                format!("/api/analytics/sessions/{id}{suffix}{}", query.replace("{site}", &site.to_string()))
            };
            let mut expected = read(&sqlite, &sqlite_token, &path(sqlite_id, &sqlite_site["id"])).await;
            expected["sessionId"] = Value::Null;
            if suffix == "/journey" {
                let steps = expected["steps"].as_array().unwrap();
                steps_with_events += steps.iter().filter(|s| !s["events"].as_array().unwrap().is_empty()).count();
            }
            for (name, server) in [("A", &a), ("B", &b)] {
                let mut got = read(server, &token, &path(id, &site["id"])).await;
                got["sessionId"] = Value::Null;
                assert_eq!(got, expected, "daemon {name}: {}", path(id, &site["id"]));
            }
        }
    }
    assert!(steps_with_events > 5, "the journeys show events: {steps_with_events}");

    // The most common paths, of the site and of all the owner's sites, over each period. The periods move on
    // the hour: a comparison that straddled one is made again.
    let mut paths_seen = 0;
    for period in ["1d", "7d", "30d", "90d"] {
        for of_site in [true, false] {
            let path = |site: &Value| match of_site {
                true => format!("/api/analytics/journeys?period={period}&website_id={site}"),
                false => format!("/api/analytics/journeys?period={period}"),
            };
            loop {
                let hour = tracker_core::model::now_ms() / 3_600_000;
                let expected = read(&sqlite, &sqlite_token, &path(&sqlite_site["id"])).await;
                let got = [read(&a, &token, &path(&site["id"])).await, read(&b, &token, &path(&site["id"])).await];
                if tracker_core::model::now_ms() / 3_600_000 != hour {
                    continue;
                }
                paths_seen += expected["paths"].as_array().unwrap().len();
                assert_eq!(got[0], expected, "daemon A: {}", path(&site["id"]));
                assert_eq!(got[1], expected, "daemon B: {}", path(&site["id"]));
                break;
            }
        }
    }
    assert!(paths_seen > 20, "{paths_seen}");

    // The customer journeys of each period and filter, of the site and of all the owner's sites; a visit
    // replaced by a later one of its key is `key~id` on SQLite, the key as sent on the cluster.
    let plain = |mut answer: Value| {
        for journey in answer["journeys"].as_array_mut().unwrap() {
            let key = journey["sessionId"].as_str().unwrap().to_string();
            journey["sessionId"] = key.split('~').next().unwrap().into();
        }
        answer
    };
    let mut listed = 0;
    for period in ["1d", "7d", "30d"] {
        for filter in ["all", "converted", "abandoned", "active"] {
            for of_site in [true, false] {
                let path = |site: &Value| match of_site {
                    true => {
                        format!("/api/analytics/customer-journeys?period={period}&filter={filter}&website_id={site}")
                    }
                    false => format!("/api/analytics/customer-journeys?period={period}&filter={filter}"),
                };
                loop {
                    let hour = tracker_core::model::now_ms() / 3_600_000;
                    let expected = plain(read(&sqlite, &sqlite_token, &path(&sqlite_site["id"])).await);
                    let got = [read(&a, &token, &path(&site["id"])).await, read(&b, &token, &path(&site["id"])).await];
                    if tracker_core::model::now_ms() / 3_600_000 != hour {
                        continue;
                    }
                    listed += expected["journeys"].as_array().unwrap().len();
                    assert_eq!(plain(got[0].clone()), expected, "daemon A: {}", path(&site["id"]));
                    assert_eq!(plain(got[1].clone()), expected, "daemon B: {}", path(&site["id"]));
                    break;
                }
            }
        }
    }
    assert!(listed > 50, "{listed}");

    // Another account's site or session is a 404, a visit named with another site too; a site id that is not a
    // number a 400, a session id that is not one a 404; as on SQLite.
    let (stranger, _) = b.register("stranger@example.com").await;
    let (sqlite_stranger, _) = sqlite.register("stranger@example.com").await;
    let theirs = b.create_site(&stranger, "Theirs", "professional").await;
    let sqlite_theirs = sqlite.create_site(&sqlite_stranger, "Theirs", "professional").await;
    let (sqlite_id, id) = pairs[0];
    let cases = [
        (identified(&site["id"]), identified(&sqlite_site["id"]), true, StatusCode::NOT_FOUND),
        (
            format!("/api/analytics/sessions/{id}"),
            format!("/api/analytics/sessions/{sqlite_id}"),
            true,
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/analytics/sessions/{id}/journey"),
            format!("/api/analytics/sessions/{sqlite_id}/journey"),
            true,
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/analytics/sessions/{id}?website_id={}", theirs["id"]),
            format!("/api/analytics/sessions/{sqlite_id}?website_id={}", sqlite_theirs["id"]),
            false,
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/analytics/sessions/{id}/journey?website_id=abc"),
            format!("/api/analytics/sessions/{sqlite_id}/journey?website_id=abc"),
            false,
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/analytics/journeys?website_id={}", site["id"]),
            format!("/api/analytics/journeys?website_id={}", sqlite_site["id"]),
            true,
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/analytics/customer-journeys?website_id={}", site["id"]),
            format!("/api/analytics/customer-journeys?website_id={}", sqlite_site["id"]),
            true,
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/analytics/customer-journeys?filter=lost".into(),
            "/api/analytics/customer-journeys?filter=lost".into(),
            false,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/analytics/journeys?period=2w".into(),
            "/api/analytics/journeys?period=2w".into(),
            false,
            StatusCode::BAD_REQUEST,
        ),
        ("/api/analytics/sessions/abc".into(), "/api/analytics/sessions/abc".into(), false, StatusCode::NOT_FOUND),
        (
            "/api/analytics/sessions/0/journey".into(),
            "/api/analytics/sessions/0/journey".into(),
            false,
            StatusCode::NOT_FOUND,
        ),
    ];
    for (path, sqlite_path, as_stranger, status) in cases {
        let (token, sqlite_token) = if as_stranger { (&stranger, &sqlite_stranger) } else { (&token, &sqlite_token) };
        let expected = sqlite.get(&sqlite_path, sqlite_token).await;
        assert_eq!(expected.status, status, "SQLite {sqlite_path}: {}", expected.text);
        for server in [&a, &b] {
            let answer = server.get(&path, token).await;
            assert_eq!(answer.status, status, "{path}: {}", answer.text);
            assert_eq!(answer.json, expected.json, "{path}");
        }
    }
}
