//! Issues 37 and 36 through the real daemon: annotations (written, listed by range, changed, deleted; on the
//! time series; a write API key may write them, a read key may not) and saved segments; bad input is a 400
//! with the JSON error, another user's site or another site's id a 404, a full site a 409. The traffic-spike
//! alert's own annotation is checked with the alert, in email.rs.

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::filters::enc;
use crate::util::TestServer;

fn day(days_ago: i64) -> String {
    (Utc::now() - Duration::days(days_ago)).format("%Y-%m-%d").to_string()
}

fn texts(list: &Value) -> Vec<&str> {
    list.as_array().expect("a list").iter().map(|a| a["text"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn annotations_are_written_listed_by_range_changed_and_deleted() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await["id"].as_i64().unwrap();
    let other_site = server.create_site(&token, "Blog", "light").await["id"].as_i64().unwrap();
    let base = format!("/api/websites/{site}/annotations");

    let created = server.post(&base, &token, json!({"date": day(2), "text": "  Release 2.0 "})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(created.json["text"], "Release 2.0");
    assert_eq!(created.json["date"], day(2));
    assert_eq!(created.json["source"], "user");
    assert_eq!(created.json["createdBy"], "owner@example.com");
    assert!(created.json["createdAt"].as_str().unwrap().ends_with('Z'), "{}", created.text);
    let id = created.json["id"].as_i64().unwrap();
    let old = server.post(&base, &token, json!({"date": day(60), "text": "Old campaign"})).await;
    assert_eq!(old.status, StatusCode::CREATED, "{}", old.text);
    let elsewhere = server
        .post(&format!("/api/websites/{other_site}/annotations"), &token, json!({"date": day(1), "text": "Blog post"}))
        .await;
    let elsewhere = elsewhere.json["id"].as_i64().unwrap();

    // By range, by custom days, all by default; oldest day first; only this site's.
    assert_eq!(texts(&server.get(&base, &token).await.json), ["Old campaign", "Release 2.0"]);
    assert_eq!(texts(&server.get(&format!("{base}?range=7d"), &token).await.json), ["Release 2.0"]);
    let custom = server.get(&format!("{base}?from={}&to={}", day(61), day(59)), &token).await;
    assert_eq!(texts(&custom.json), ["Old campaign"], "{}", custom.text);

    let changed = server.put(&format!("{base}/{id}"), &token, json!({"date": day(3), "text": "Release 2.0.1"})).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(
        (changed.json["date"].as_str(), changed.json["text"].as_str()),
        (Some(day(3).as_str()), Some("Release 2.0.1"))
    );
    let gone = server.delete(&format!("{base}/{id}"), &token).await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.text);
    assert_eq!(server.delete(&format!("{base}/{id}"), &token).await.status, StatusCode::NOT_FOUND);
    assert_eq!(texts(&server.get(&base, &token).await.json), ["Old campaign"]);

    // Another site's annotation through this site is not found, and stays.
    let through = server.put(&format!("{base}/{elsewhere}"), &token, json!({"date": day(1), "text": "Taken"})).await;
    assert_eq!(through.status, StatusCode::NOT_FOUND, "{}", through.text);
    assert_eq!(server.delete(&format!("{base}/{elsewhere}"), &token).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        texts(&server.get(&format!("/api/websites/{other_site}/annotations"), &token).await.json),
        ["Blog post"]
    );

    // Bad input: a 400 with the JSON error, nothing stored.
    let bad_bodies = [
        json!({"date": "2026-13-01", "text": "x"}),
        json!({"date": "20.11.2026", "text": "x"}),
        json!({"date": day(1), "text": "   "}),
        json!({"date": day(1), "text": "two\nlines"}),
        json!({"date": day(1), "text": "x".repeat(281)}),
        json!({"date": day(1)}),
        json!({"date": day(1), "text": "x", "color": "red"}),
        json!("Release"),
    ];
    for body in bad_bodies {
        let refused = server.post(&base, &token, body.clone()).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{body}: {}", refused.text);
        assert!(!refused.error_message().is_empty());
    }
    for query in ["range=fortnight", &format!("from={}&to={}", day(1), day(3)), "from=2026-01-01", "from=x&to=y"] {
        let refused = server.get(&format!("{base}?{query}"), &token).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{query}: {}", refused.text);
        assert!(!refused.error_message().is_empty());
    }
    assert_eq!(texts(&server.get(&base, &token).await.json), ["Old campaign"]);

    // Another user: the site is not found on every route, and nothing of it changes.
    let (stranger, _) = server.register("stranger@example.com").await;
    let old = old.json["id"].as_i64().unwrap();
    for answer in [
        server.get(&base, &stranger).await,
        server.post(&base, &stranger, json!({"date": day(1), "text": "Mine now"})).await,
        server.put(&format!("{base}/{old}"), &stranger, json!({"date": day(1), "text": "Mine now"})).await,
        server.delete(&format!("{base}/{old}"), &stranger).await,
    ] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    assert_eq!(texts(&server.get(&base, &token).await.json), ["Old campaign"]);
}

#[tokio::test]
async fn the_time_series_carries_its_ranges_annotations() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await["id"].as_i64().unwrap();
    let base = format!("/api/websites/{site}/annotations");
    let recent = server.post(&base, &token, json!({"date": day(1), "text": "Launch"})).await;
    server.post(&base, &token, json!({"date": day(40), "text": "Too old for 7 days"})).await;

    let series = server.get(&format!("/api/dashboard/timeseries?website_id={site}&range=7d"), &token).await;
    assert_eq!(series.status, StatusCode::OK, "{}", series.text);
    assert_eq!(series.json["annotations"], json!([{"id": recent.json["id"], "date": day(1), "text": "Launch"}]));
    let days = series.json["points"].as_array().unwrap();
    assert!(days.iter().any(|p| p["date"] == day(1)), "the marked day is one of the chart's: {}", series.text);
    let longer = server.get(&format!("/api/dashboard/timeseries?website_id={site}&range=90d"), &token).await;
    assert_eq!(texts(&longer.json["annotations"]), ["Too old for 7 days", "Launch"]);
    let none = server.get(&format!("/api/dashboard/timeseries?website_id={site}&range=today"), &token).await;
    assert_eq!(none.json["annotations"], json!([]), "{}", none.text);
}

#[tokio::test]
async fn a_write_api_key_may_annotate_and_a_read_key_may_only_list() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await["id"].as_i64().unwrap();
    let key = |scope: &'static str| {
        let server = &server;
        let token = token.clone();
        async move {
            let made = server.post("/api/user/api-keys", &token, json!({"name": scope, "scope": scope})).await;
            made.json["secret"].as_str().unwrap().to_string()
        }
    };
    let (read, write) = (key("read").await, key("write").await);
    let base = format!("/api/websites/{site}/annotations");

    let deployed = server.post(&base, &write, json!({"date": day(0), "text": "Deploy v42"})).await;
    assert_eq!(deployed.status, StatusCode::CREATED, "{}", deployed.text);
    assert_eq!(deployed.json["createdBy"], "owner@example.com");
    let id = deployed.json["id"].as_i64().unwrap();
    let refused = server.post(&base, &read, json!({"date": day(0), "text": "Deploy v43"})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert!(!refused.error_message().is_empty());
    let refused = server.put(&format!("{base}/{id}"), &read, json!({"date": day(0), "text": "Changed"})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert_eq!(server.delete(&format!("{base}/{id}"), &read).await.status, StatusCode::FORBIDDEN);
    assert_eq!(texts(&server.get(&base, &read).await.json), ["Deploy v42"]);
}

#[tokio::test]
async fn a_site_keeps_at_most_1000_annotations() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await["id"].as_i64().unwrap();
    let tracker = server.tracker.clone();
    tokio::task::spawn_blocking(move || {
        let note = tracker_core::store::annotations::AnnotationRequest { date: "2026-01-01".into(), text: "n".into() };
        for _ in 0..999 {
            tracker.annotations.create(site, None, &note).unwrap();
        }
    })
    .await
    .unwrap();
    let base = format!("/api/websites/{site}/annotations");
    let last = server.post(&base, &token, json!({"date": day(0), "text": "The thousandth"})).await;
    assert_eq!(last.status, StatusCode::CREATED, "{}", last.text);
    let over = server.post(&base, &token, json!({"date": day(0), "text": "One too many"})).await;
    assert_eq!(over.status, StatusCode::CONFLICT, "{}", over.text);
    assert!(over.error_message().contains("at most 1000"), "{}", over.text);
}

#[tokio::test]
async fn segments_are_saved_listed_changed_and_deleted_with_checked_filters() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await["id"].as_i64().unwrap();
    let base = format!("/api/websites/{site}/segments");
    let google = json!([["is", "visit:source", ["Google"]], ["contains", "event:page", ["/blog"]]]);

    let saved = server.post(&base, &token, json!({"name": "Google blog", "filters": google})).await;
    assert_eq!(saved.status, StatusCode::CREATED, "{}", saved.text);
    assert_eq!(saved.json["filters"], google);
    assert_eq!(saved.json["createdBy"], "owner@example.com");
    let id = saved.json["id"].as_i64().unwrap();
    let listed = server.get(&base, &token).await;
    assert_eq!(listed.json.as_array().unwrap().len(), 1, "{}", listed.text);
    assert_eq!(listed.json[0]["name"], "Google blog");
    // The saved filters are a read's `filters` as they stand.
    let encoded = enc(&listed.json[0]["filters"].to_string());
    let read =
        server.get(&format!("/api/dashboard/timeseries?website_id={site}&range=7d&filters={encoded}"), &token).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text);

    let taken =
        server.post(&base, &token, json!({"name": "Google blog", "filters": [["is", "visit:country", ["DE"]]]})).await;
    assert_eq!(taken.status, StatusCode::CONFLICT, "{}", taken.text);
    for body in [
        json!({"name": "Bad", "filters": [["is", "visit:planet", ["Mars"]]]}),
        json!({"name": "Bad", "filters": [["like", "event:page", ["/"]]]}),
        json!({"name": "Bad", "filters": []}),
        json!({"name": "Bad", "filters": "[[\"is\",\"visit:country\",[\"DE\"]]]"}),
        json!({"name": "", "filters": google}),
        json!({"name": "x".repeat(101), "filters": google}),
        json!({"name": "tab\there", "filters": google}),
        json!({"filters": google}),
    ] {
        let refused = server.post(&base, &token, body.clone()).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{body}: {}", refused.text);
        assert!(!refused.error_message().is_empty());
    }

    let germany = json!([["is", "visit:country", ["DE"]]]);
    let changed = server.put(&format!("{base}/{id}"), &token, json!({"name": "Germany", "filters": germany})).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!((&changed.json["name"], &changed.json["filters"]), (&json!("Germany"), &germany));

    let (stranger, _) = server.register("stranger@example.com").await;
    for answer in [
        server.get(&base, &stranger).await,
        server.post(&base, &stranger, json!({"name": "Mine", "filters": germany})).await,
        server.put(&format!("{base}/{id}"), &stranger, json!({"name": "Mine", "filters": germany})).await,
        server.delete(&format!("{base}/{id}"), &stranger).await,
    ] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    let other_site = server.create_site(&token, "Blog", "light").await["id"].as_i64().unwrap();
    let through = server.delete(&format!("/api/websites/{other_site}/segments/{id}"), &token).await;
    assert_eq!(through.status, StatusCode::NOT_FOUND, "{}", through.text);

    assert_eq!(server.delete(&format!("{base}/{id}"), &token).await.status, StatusCode::OK);
    assert_eq!(server.get(&base, &token).await.json, json!([]));
}

#[test]
fn tracker_annotate_marks_a_day_for_deploy_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let (cli, site) = crate::cli::seeded(&dir);
    let made = cli.json(&["annotate", "shop.example.com", "--date", "2026-11-20", "--text", "Release 2.0"]);
    assert_eq!((made["date"].as_str(), made["text"].as_str()), (Some("2026-11-20"), Some("Release 2.0")), "{made}");
    assert_eq!((made["source"].as_str(), made["createdBy"].is_null()), (Some("cli"), true), "{made}");
    let today = cli.ok(&["annotate", &site.to_string(), "--text", "Deploy abc123"]);
    assert!(today.contains(&format!("on {}: Deploy abc123", day(0))), "{today}");

    let error = cli.fails(&["annotate", "shop.example.com", "--date", "20.11.2026", "--text", "x"]);
    assert!(error.contains("YYYY-MM-DD"), "{error}");
    let error = cli.fails(&["annotate", "nowhere.example.com", "--text", "x"]);
    assert!(error.contains("unknown site 'nowhere.example.com'"), "{error}");
    let error = cli.fails(&["annotate", "shop.example.com", "--text", "  "]);
    assert!(error.contains("text is required"), "{error}");

    let tracker =
        tracker_core::Tracker::open(&tracker_core::Config { data_dir: cli.data.clone(), ..Default::default() })
            .unwrap();
    let stored: Vec<String> = tracker.annotations.list(site, None).unwrap().into_iter().map(|a| a.text).collect();
    assert_eq!(stored, ["Release 2.0", "Deploy abc123"]);
}

/// A personal segment through HTTP: an editor on the site saves one for itself; the owner lists only the shared
/// ones and gets a 404 changing or deleting it; a non-boolean `personal` is a 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_personal_segment_is_its_savers_alone() {
    let server = TestServer::start().await;
    let (owner, _) = server.register("owner@example.com").await;
    let (editor, _) = server.register("editor@example.com").await;
    let site = server.create_site(&owner, "Shop", "light").await["id"].as_i64().unwrap();
    crate::roles::join(&server, &owner, site, "editor@example.com", "editor", &editor).await;
    let base = format!("/api/websites/{site}/segments");
    let google = json!([["is", "visit:source", ["Google"]]]);

    let mine = server.post(&base, &editor, json!({"name": "Mine", "filters": google, "personal": true})).await;
    assert_eq!(mine.status, StatusCode::CREATED, "{}", mine.text);
    assert_eq!(mine.json["personal"], true);
    let team = server.post(&base, &editor, json!({"name": "Team", "filters": google})).await;
    assert_eq!(team.json["personal"], false, "{}", team.text);
    let names = |list: &Value| list.as_array().unwrap().iter().map(|s| s["name"].clone()).collect::<Vec<_>>();
    assert_eq!(names(&server.get(&base, &editor).await.json), vec![json!("Mine"), json!("Team")]);
    assert_eq!(names(&server.get(&base, &owner).await.json), vec![json!("Team")], "the owner sees the shared one");

    let id = mine.json["id"].as_i64().unwrap();
    let changed = server.put(&format!("{base}/{id}"), &owner, json!({"name": "Taken", "filters": google})).await;
    assert_eq!(changed.status, StatusCode::NOT_FOUND, "{}", changed.text);
    assert_eq!(server.delete(&format!("{base}/{id}"), &owner).await.status, StatusCode::NOT_FOUND);
    let bad = server.post(&base, &editor, json!({"name": "Odd", "filters": google, "personal": "yes"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    assert!(bad.json["error"]["message"].is_string());
    assert_eq!(server.delete(&format!("{base}/{id}"), &editor).await.status, StatusCode::OK);
}

/// A viewer on the site keeps segments of its own (issue 36): it saves, changes and deletes personal ones, while
/// a segment shared with the site (saving one, changing or deleting the owner's, sharing its own) is a 403 with
/// the JSON error; the owner's personal segment is a 404 to it, and a stranger gets 404 for the site.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_keeps_personal_segments_and_leaves_shared_ones_to_editors() {
    let server = TestServer::start().await;
    let (owner, _) = server.register("owner@example.com").await;
    let (viewer, _) = server.register("viewer@example.com").await;
    let (stranger, _) = server.register("stranger@example.com").await;
    let site = server.create_site(&owner, "Shop", "light").await["id"].as_i64().unwrap();
    crate::roles::join(&server, &owner, site, "viewer@example.com", "viewer", &viewer).await;
    let base = format!("/api/websites/{site}/segments");
    let google = json!([["is", "visit:source", ["Google"]]]);
    let team = server.post(&base, &owner, json!({"name": "Team", "filters": google})).await;
    let owners = server.post(&base, &owner, json!({"name": "Owner's", "filters": google, "personal": true})).await;
    let (team, owners) = (team.json["id"].as_i64().unwrap(), owners.json["id"].as_i64().unwrap());
    let forbidden = |answer: &crate::util::Answer, what: &str| {
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{what}: {}", answer.text);
        assert!(answer.json["error"]["message"].as_str().unwrap().contains("editor"), "{what}: {}", answer.text);
    };

    forbidden(&server.post(&base, &viewer, json!({"name": "Shared", "filters": google})).await, "a shared one");
    let mine = server.post(&base, &viewer, json!({"name": "Mine", "filters": google, "personal": true})).await;
    assert_eq!((mine.status, &mine.json["personal"]), (StatusCode::CREATED, &json!(true)), "{}", mine.text);
    let id = mine.json["id"].as_i64().unwrap();
    let renamed = server.put(&format!("{base}/{id}"), &viewer, json!({"name": "Mine, DE", "filters": google})).await;
    assert_eq!((renamed.status, &renamed.json["name"]), (StatusCode::OK, &json!("Mine, DE")), "{}", renamed.text);
    assert_eq!(renamed.json["personal"], true, "kept personal");
    let sharing = json!({"name": "Mine", "filters": google, "personal": false});
    forbidden(&server.put(&format!("{base}/{id}"), &viewer, sharing).await, "sharing its own");
    let rename_team = json!({"name": "Ours", "filters": google});
    forbidden(&server.put(&format!("{base}/{team}"), &viewer, rename_team).await, "changing a shared one");
    forbidden(&server.delete(&format!("{base}/{team}"), &viewer).await, "deleting a shared one");

    // The owner's personal segment does not exist for the viewer; the viewer's is the viewer's alone.
    let change = json!({"name": "Taken", "filters": google, "personal": true});
    assert_eq!(server.put(&format!("{base}/{owners}"), &viewer, change.clone()).await.status, StatusCode::NOT_FOUND);
    assert_eq!(server.delete(&format!("{base}/{owners}"), &viewer).await.status, StatusCode::NOT_FOUND);
    let names = |list: &Value| list.as_array().unwrap().iter().map(|s| s["name"].clone()).collect::<Vec<_>>();
    assert_eq!(names(&server.get(&base, &viewer).await.json), vec![json!("Team"), json!("Mine, DE")]);
    assert_eq!(names(&server.get(&base, &owner).await.json), vec![json!("Team"), json!("Owner's")]);
    let strangers = server.post(&base, &stranger, json!({"name": "X", "filters": google, "personal": true})).await;
    assert_eq!(strangers.status, StatusCode::NOT_FOUND, "{}", strangers.text);
    assert_eq!(server.put(&format!("{base}/{id}"), &stranger, change).await.status, StatusCode::NOT_FOUND);

    assert_eq!(server.delete(&format!("{base}/{id}"), &viewer).await.status, StatusCode::OK);
    assert_eq!(names(&server.get(&base, &viewer).await.json), vec![json!("Team")]);
}
