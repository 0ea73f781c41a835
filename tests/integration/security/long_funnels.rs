//! Finding 5 of issue 33, "Cluster funnels of 13 or more steps fail": each step's SQL named the step before
//! twice, ClickHouse 18.16 inlined the names ("AST is too big"), the create answered 500 after storing the
//! funnel, and the account's funnel list answered 500 from then on. A funnel of the most steps allowed is
//! counted on the cluster as on SQLite; a create whose figures fail stores nothing, and one funnel whose
//! figures fail does not fail the list.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tracker_core::ingest::{Client, Hit, Submitted, TrackRequest};
use tracker_core::store::funnels::MAX_STEPS;

use crate::cluster::{Corner, harness};
use crate::util::{BROWSER_UA, TestServer};

/// Steps /s1 to /sN.
fn steps(n: usize) -> Value {
    (1..=n).map(|i| json!({"name": format!("Step {i}"), "url": format!("/s{i}")})).collect()
}

/// The visits both engines get: visitor v views /s1 to /sv in order (with /other between), so step n is
/// reached by the visitors from n on; two more skip or repeat a step.
fn visits() -> Vec<(String, Vec<String>)> {
    let mut visits: Vec<(String, Vec<String>)> = (1..=MAX_STEPS)
        .map(|v| (format!("long-funnel-{v:02}"), (1..=v).flat_map(|s| [format!("/s{s}"), "/other".into()]).collect()))
        .collect();
    visits.push(("long-funnel-skip".into(), ["/s1", "/s3", "/s2", "/s4"].map(String::from).to_vec()));
    visits.push(("long-funnel-repeat".into(), ["/s1", "/s1", "/s2", "/s2", "/s3"].map(String::from).to_vec()));
    visits
}

/// A site on `server` with [`visits`] tracked (each visit's hits in order, the visits side by side).
async fn site_with_visits(server: &TestServer, email: &str) -> (String, Value) {
    let (token, _) = server.register(email).await;
    let site = server.create_site(&token, "Long", "light").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    let sends = visits().into_iter().map(|(session, pages)| {
        let key = key.clone();
        async move {
            for page in pages {
                let answer = server.pageview(&key, &session, &page).await;
                assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
            }
        }
    });
    futures_util::future::join_all(sends).await;
    (token, site["id"].clone())
}

/// A funnel's figures as comparable JSON: its steps' and totals' figures.
fn figures(funnel: &Value) -> Value {
    let steps: Vec<Value> = funnel["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| json!([s["visitors"], s["conversions"], s["conversionRate"], s["dropOffRate"]]))
        .collect();
    json!({"steps": steps, "total": [funnel["totalVisitors"], funnel["totalConversions"], funnel["conversionRate"]]})
}

#[tokio::test]
async fn long_funnel_of_the_most_steps_is_counted_on_the_cluster_as_on_sqlite() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (cluster, sqlite) = (corner.daemon().await, TestServer::start().await);
    let (cluster_token, cluster_site) = site_with_visits(&cluster, "long-cluster@example.com").await;
    let (sqlite_token, sqlite_site) = site_with_visits(&sqlite, "long-sqlite@example.com").await;

    let mut expected = Vec::new();
    for n in [12, 13, MAX_STEPS] {
        let body = |site: &Value| json!({"name": format!("{n} steps"), "websiteId": site, "steps": steps(n)});
        let on_sqlite = sqlite.post("/api/funnels", &sqlite_token, body(&sqlite_site)).await;
        assert_eq!(on_sqlite.status, StatusCode::CREATED, "{}", on_sqlite.text);
        let on_cluster = cluster.post("/api/funnels", &cluster_token, body(&cluster_site)).await;
        assert_eq!(on_cluster.status, StatusCode::CREATED, "{n} steps: {}", on_cluster.text);
        assert_eq!(figures(&on_cluster.json), figures(&on_sqlite.json), "{n} steps");
        expected.push(figures(&on_sqlite.json));
    }
    // The hits reach the last step of the longest funnel.
    assert_eq!(expected[2]["total"][1], 1, "{}", expected[2]);
    assert_eq!(expected[2]["steps"][2][0], MAX_STEPS as u64 - 1, "the skip visit stops at step 2: {}", expected[2]);

    for range in ["1d", "7d"] {
        let list = cluster.get(&format!("/api/funnels?range={range}"), &cluster_token).await;
        assert_eq!(list.status, StatusCode::OK, "{}", list.text);
        let on_sqlite = sqlite.get(&format!("/api/funnels?range={range}"), &sqlite_token).await;
        let all = |answer: &Value| answer.as_array().unwrap().iter().map(figures).collect::<Vec<_>>();
        assert_eq!(all(&list.json), all(&on_sqlite.json), "{range}");
        let longest = list.json[0]["id"].as_i64().unwrap();
        let drop_offs = cluster.get(&format!("/api/funnels/{longest}/drop-offs?range={range}"), &cluster_token).await;
        assert_eq!(drop_offs.status, StatusCode::OK, "{}", drop_offs.text);
        assert_eq!(drop_offs.json["steps"].as_array().unwrap().len(), MAX_STEPS - 1);
    }
    let too_many = cluster
        .post(
            "/api/funnels",
            &cluster_token,
            json!({"name": "x", "websiteId": cluster_site, "steps": steps(MAX_STEPS + 1)}),
        )
        .await;
    assert_eq!(too_many.status, StatusCode::BAD_REQUEST, "{}", too_many.text);
    assert_eq!(too_many.error_message(), "A funnel can have at most 20 steps");
    cluster.stop().await;
    sqlite.stop().await;
}

/// Page views three hours ago (settled: their figures are stored), one visit per path list.
async fn old_views(server: &TestServer, key: &str, visits: &[&[&str]]) {
    let site = server.tracker.ingest.site(key).unwrap();
    let ts = tracker_core::model::now_ms() - 3 * 3_600_000;
    let mut commits = Vec::new();
    for (v, pages) in visits.iter().enumerate() {
        for (i, path) in pages.iter().enumerate() {
            let request: TrackRequest = serde_json::from_value(json!({"tracking_key": key,
                "session_id": format!("settled-{v}"), "url": format!("https://long.example.com{path}")}))
            .unwrap();
            let hit = Hit::from_request(request, &site, ts + (v * 100 + i) as i64 * 1000).unwrap();
            let client =
                Client { ip: "198.18.0.9".parse().unwrap(), user_agent: BROWSER_UA.into(), do_not_track: false };
            match server.tracker.ingest.track_hit(hit, &client).unwrap() {
                Submitted::Queued(commit) => commits.push(commit),
                Submitted::Ignored => panic!("hit ignored"),
            }
        }
    }
    for commit in commits {
        commit.wait().await.unwrap();
    }
}

#[tokio::test]
async fn long_funnel_whose_figures_fail_is_not_stored_and_does_not_fail_the_list() {
    let server = TestServer::start().await;
    let (token, _) = server.register("failing-funnel@example.com").await;
    let site = server.create_site(&token, "Long", "light").await;
    old_views(&server, site["trackingKey"].as_str().unwrap(), &[&["/s1", "/s2"], &["/s1"]]).await;
    let create = |name: &str| json!({"name": name, "websiteId": site["id"], "steps": steps(2)});
    let fine = server.post("/api/funnels", &token, create("Fine")).await;
    assert_eq!(fine.status, StatusCode::CREATED, "{}", fine.text);
    assert_eq!(figures(&fine.json)["total"], json!([2, 1, 50.0]));

    // Storing the figures of a funnel named Broken fails, as a full disk or a broken table would.
    server
        .tracker
        .db()
        .write(|c| {
            Ok(c.execute_batch(
                "CREATE TRIGGER fail_broken BEFORE INSERT ON funnel_hours
                   WHEN (SELECT name FROM funnels WHERE id = NEW.funnel_id) = 'Broken'
                 BEGIN SELECT RAISE(ABORT, 'figures failed'); END",
            )?)
        })
        .unwrap();
    let broken = server.post("/api/funnels", &token, create("Broken")).await;
    assert!(broken.status.is_server_error(), "{}: {}", broken.status, broken.text);
    let list = server.get("/api/funnels?range=7d", &token).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let names: Vec<&str> = list.json.as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Fine"], "the failed create stored nothing");

    // A stored funnel whose figures come to fail (renamed, then its steps edited so they are counted again)
    // is listed with its figures pending; the others keep theirs.
    let later = server.post("/api/funnels", &token, create("Later")).await;
    assert_eq!(later.status, StatusCode::CREATED, "{}", later.text);
    let id = later.json["id"].as_i64().unwrap();
    let renamed = server.put(&format!("/api/funnels/{id}"), &token, json!({"name": "Broken", "steps": steps(3)})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    let list = server.get("/api/funnels?range=7d", &token).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let by_name = |name: &str| list.json.as_array().unwrap().iter().find(|f| f["name"] == name).unwrap().clone();
    assert_eq!(by_name("Broken")["figuresPending"], true, "{}", list.text);
    assert_eq!(
        (by_name("Fine")["figuresPending"].clone(), figures(&by_name("Fine"))["total"].clone()),
        (json!(false), json!([2, 1, 50.0]))
    );
    server.stop().await;
}
