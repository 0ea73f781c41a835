//! Filters on the reads of whole visits through a real daemon (funnels and their drop-offs, journey paths,
//! customer journeys, the session replays list and cards, the visitor stream, Advanced Analytics and its intent
//! scores): two recorded visits tracked over HTTP, each read keeping the visits a filter admits; a bad filter is a 400 with the JSON error and another
//! user's site a 404 on every one of them.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{assert_not_found, gzip, owner_with_site, rrweb_events, upload_chunk};
use crate::filters::enc;
use crate::util::TestServer;

/// An owner's site with two recorded visits: "blog-visit" views /blog/post then /pricing, "home-visit" views /
/// then /pricing. Answers the server, the owner's token and the site.
async fn seeded() -> (TestServer, String, i64) {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "filters@example.com", "enhanced").await;
    for (session, pages) in [("blog-visit", ["/blog/post", "/pricing"]), ("home-visit", ["/", "/pricing"])] {
        for page in pages {
            let answer = server.pageview(&key, session, page).await;
            assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        }
        let start = chrono::Utc::now().timestamp_millis() - 30_000;
        let chunk = gzip(rrweb_events(start, 10, 1).to_string().as_bytes());
        let answer = upload_chunk(&server, &key, session, 0, chunk, "").await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    (server, token, site)
}

async fn get_ok(server: &TestServer, token: &str, path: &str) -> Value {
    let answer = server.get(path, token).await;
    assert_eq!(answer.status, StatusCode::OK, "GET {path}: {}", answer.text);
    answer.json
}

/// The visits reaching each step of a funnel.
fn steps(funnel: &Value) -> Vec<u64> {
    funnel["steps"].as_array().unwrap().iter().map(|s| s["visitors"].as_u64().unwrap()).collect()
}

/// The session keys of a list of items with `sessionId`.
fn sessions(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|r| r["sessionId"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_of_whole_visits_keep_the_visits_a_filter_admits() {
    let (server, token, site) = seeded().await;
    let funnel = json!({"name": "Blog to pricing", "websiteId": site, "steps": [
        {"name": "Home", "url": "/"}, {"name": "Pricing", "url": "/pricing"},
    ]});
    let created = server.post("/api/funnels", &token, funnel).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let funnel = created.json["id"].as_i64().unwrap();
    let blog = enc(r#"[["is","visit:entry_page",["/blog/post"]]]"#);
    let pricing = enc(r#"[["is","event:page",["/pricing"]]]"#);
    let nowhere = enc(r#"[["is","visit:city",["Nowhere"]]]"#);

    // Funnels: the list, one funnel and its drop-offs.
    for (f, expected) in [("", [1, 1]), (&pricing[..], [1, 1]), (&blog[..], [0, 0])] {
        let one = get_ok(&server, &token, &format!("/api/funnels/{funnel}?range=7d&filters={f}")).await;
        assert_eq!(steps(&one), expected, "{f}: {one}");
        let list = get_ok(&server, &token, &format!("/api/funnels?website_id={site}&filters={f}")).await;
        assert_eq!(steps(&list[0]), expected, "{f}: {list}");
    }
    // Home then the blog: the home visit stops at home; the blog visit never reaches it.
    let other = json!({"name": "Home to blog", "websiteId": site, "steps": [
        {"name": "Home", "url": "/"}, {"name": "Blog", "url": "/blog/*"},
    ]});
    let other = server.post("/api/funnels", &token, other).await.json["id"].as_i64().unwrap();
    let dropped = |answer: &Value| sessions(&answer["steps"][0]["visits"]);
    let all = get_ok(&server, &token, &format!("/api/funnels/{other}/drop-offs?range=7d")).await;
    assert_eq!(dropped(&all), ["home-visit"], "{all}");
    let none = get_ok(&server, &token, &format!("/api/funnels/{other}/drop-offs?range=7d&filters={blog}")).await;
    assert_eq!(dropped(&none), Vec::<String>::new(), "{none}");
    let home = enc(r#"[["is","visit:entry_page",["/"]]]"#);
    let some = get_ok(&server, &token, &format!("/api/funnels/{other}/drop-offs?range=7d&filters={home}")).await;
    assert_eq!(dropped(&some), ["home-visit"], "{some}");

    // Journeys: the common paths and the customer journeys.
    for (f, visits) in [("", 2), (&blog[..], 1), (&nowhere[..], 0)] {
        let paths = get_ok(&server, &token, &format!("/api/analytics/journeys?website_id={site}&filters={f}")).await;
        assert_eq!(paths["totalSessions"], visits, "{f}: {paths}");
        let journeys =
            get_ok(&server, &token, &format!("/api/analytics/customer-journeys?website_id={site}&filters={f}")).await;
        assert_eq!(journeys["summary"]["totalJourneys"], visits, "{f}: {journeys}");
        assert_eq!(journeys["journeys"].as_array().unwrap().len(), visits as usize, "{f}: {journeys}");
    }
    let paths = get_ok(&server, &token, &format!("/api/analytics/journeys?website_id={site}&filters={blog}")).await;
    assert_eq!(paths["paths"][0]["pages"], json!(["/blog/post", "/pricing"]), "{paths}");

    // The session replays list and its cards.
    let replays = |f: &str| format!("/api/websites/{site}/session-replays?time_range=24h&filters={f}");
    assert_eq!(sessions(&get_ok(&server, &token, &replays("")).await), ["home-visit", "blog-visit"]);
    assert_eq!(sessions(&get_ok(&server, &token, &replays(&blog)).await), ["blog-visit"]);
    assert_eq!(sessions(&get_ok(&server, &token, &replays(&nowhere)).await), Vec::<String>::new());
    let stats = |f: &str| format!("/api/websites/{site}/session-replays/stats?time_range=24h&filters={f}");
    assert_eq!(get_ok(&server, &token, &stats(&blog)).await["total"], 1);
    assert_eq!(get_ok(&server, &token, &stats(&pricing)).await["total"], 2);

    // The visitor stream.
    for (f, active) in [("", 2), (&blog[..], 1), (&nowhere[..], 0)] {
        let live =
            get_ok(&server, &token, &format!("/api/analytics/live-visitors?website_id={site}&filters={f}")).await;
        assert_eq!(live["totalActiveVisitors"], active, "{f}: {live}");
        assert_eq!(live["recentSessions"].as_array().unwrap().len(), active as usize, "{f}: {live}");
    }

    // Advanced Analytics: its cards, top pages and visitors on the site now, and the intent scores.
    let advanced = |f: &str| format!("/api/analytics/advanced?website_id={site}&filters={f}");
    for (f, visits) in [("", 2), (&blog[..], 1), (&nowhere[..], 0)] {
        let answer = get_ok(&server, &token, &advanced(f)).await;
        assert_eq!(answer["intentAnalyzed"], visits, "{f}: {answer}");
        assert_eq!(answer["realTimeMetrics"]["activeVisitors"], visits, "{f}: {answer}");
        let intent = get_ok(&server, &token, &format!("/api/analytics/ai-intent?website_id={site}&filters={f}")).await;
        assert_eq!(intent["summary"]["totalAnalyzed"], visits, "{f}: {intent}");
        assert_eq!(intent["topIntentSessions"].as_array().unwrap().len(), visits as usize, "{f}: {intent}");
    }
    let pages = |answer: &Value| -> Vec<(String, i64)> {
        let list = answer["topPages"].as_array().unwrap();
        list.iter().map(|p| (p["url"].as_str().unwrap().to_string(), p["views"].as_i64().unwrap())).collect()
    };
    let all = get_ok(&server, &token, &advanced("")).await;
    assert_eq!(pages(&all)[0], ("/pricing".to_string(), 2), "{all}");
    assert_eq!(pages(&all).len(), 3, "{all}");
    let from_blog = get_ok(&server, &token, &advanced(&blog)).await;
    assert_eq!(pages(&from_blog), [("/blog/post".to_string(), 1), ("/pricing".to_string(), 1)], "{from_blog}");
}

/// Every read above, without its `filters`.
fn reads(site: i64, funnel: i64) -> Vec<String> {
    vec![
        format!("/api/funnels?website_id={site}"),
        format!("/api/funnels/{funnel}?range=7d"),
        format!("/api/funnels/{funnel}/drop-offs?range=7d"),
        format!("/api/analytics/journeys?website_id={site}"),
        format!("/api/analytics/customer-journeys?website_id={site}"),
        format!("/api/websites/{site}/session-replays?time_range=7d"),
        format!("/api/websites/{site}/session-replays/stats?time_range=7d"),
        format!("/api/analytics/live-visitors?website_id={site}"),
        format!("/api/analytics/advanced?website_id={site}"),
        format!("/api/analytics/ai-intent?website_id={site}"),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_filter_is_a_400_and_another_users_site_a_404_on_every_read_of_whole_visits() {
    let (server, token, site) = seeded().await;
    let funnel =
        json!({"name": "F", "websiteId": site, "steps": [{"name": "A", "url": "/"}, {"name": "B", "url": "/b"}]});
    let funnel = server.post("/api/funnels", &token, funnel).await.json["id"].as_i64().unwrap();
    for path in reads(site, funnel) {
        for bad in ["not json", r#"[["is","visit:planet",["x"]]]"#, r#"[["near","event:page",["/"]]]"#] {
            let answer = server.get(&format!("{path}&filters={}", enc(bad)), &token).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path} {bad}: {}", answer.text);
            assert!(!answer.error_message().is_empty(), "{path}");
        }
    }
    // Another owner reads none of it, with or without a filter.
    let (stranger, _) = server.register("stranger@example.com").await;
    let country = enc(r#"[["is","visit:country",["DE"]]]"#);
    for path in reads(site, funnel) {
        assert_not_found(&server.get(&path, &stranger).await, &path);
        let filtered = format!("{path}&filters={country}");
        assert_not_found(&server.get(&filtered, &stranger).await, &filtered);
    }
}
