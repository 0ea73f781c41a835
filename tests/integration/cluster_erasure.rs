//! Privacy deletions and visitor erasure on the cluster answer at once (issue 39): the request counts what goes
//! and a deletion job removes the rows from both shards soon after; from the answer on no read on either daemon
//! shows the deleted data (reads of the site wait for the job, or answer 503 while it waits for a retry; reads of
//! all the owner's sites leave the site out meanwhile), and a job survives its daemon being killed. Through the real daemon on the harness (tests/cluster/cluster.sh up
//! DIR; source DIR/env).

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::{Corner, await_no_rows, harness, pageview, post_hit, shard_rows};
use crate::cluster_deletions::{METRICS_TOKEN, Relay, await_gauge, daemon};
use crate::durability::start_daemon_with;
use crate::util::{BROWSER_UA, TestServer};

/// The 24 hours' page views, visitors and conversions of a site as `server` reads them.
async fn figures(server: &TestServer, token: &str, site: &Value) -> (i64, i64, i64) {
    let answer = server.get(&format!("/api/dashboard/overview?website_id={}&range=24h", site["id"]), token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let metrics = &answer.json["metrics"];
    let figure = |name: &str| metrics[name].as_i64().unwrap_or_else(|| panic!("no {name} in {}", answer.text));
    (figure("pageViews"), figure("totalVisitors"), figure("conversions"))
}

/// Posts `body` to `path` and answers the answer with how long it took.
async fn timed_post(server: &TestServer, path: &str, token: &str, body: Value) -> (Value, Duration) {
    let started = Instant::now();
    let answer = server.post(path, token, body).await;
    assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.text);
    (answer.json, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_erasure_and_a_data_deletion_answer_at_once_and_no_daemon_reads_what_they_deleted() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (daemon(&corner, None).await, daemon(&corner, None).await);
    let (token, _) = a.register("owner@example.com").await;
    let site = a.create_site(&token, "Shop", "light").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    // Twenty visitors' page views (both shards hold some); visitor 7 also buys.
    for visitor in 0..20u8 {
        pageview(&a, &key, visitor, "/").await;
    }
    let bought = post_hit(
        &b,
        &key,
        7,
        "/checkout",
        json!({"event": "conversion", "event_name": "purchase", "event_properties": {"value": 12}}),
        false,
    )
    .await;
    assert!(bought.status.is_success(), "{}", bought.text);
    for server in [&a, &b] {
        assert_eq!(figures(server, &token, &site).await, (20, 20, 1));
    }
    let of_site = |condition: &str| format!("website_id = {} AND {condition}", site["id"]);
    assert!(shard_rows(&corner, &of_site("kind = 'pageview'")).iter().all(|n| *n > 0), "rows on both shards");

    // Visitor 7's erasure on A: SQLite's counts, answered at once; neither daemon reads the visitor from then on.
    let (erased, took) = timed_post(
        &a,
        "/api/privacy/delete-visitor",
        &token,
        json!({"websiteId": site["id"], "visitorId": "visitor-0007"}),
    )
    .await;
    assert!(took < Duration::from_secs(2), "answered in {took:?}");
    assert_eq!(erased["recordsDeleted"], 3, "a visit, its page view and its purchase: {erased}");
    for server in [&a, &b] {
        assert_eq!(figures(server, &token, &site).await, (19, 19, 0), "{}", server.base);
        let copy = server
            .get(&format!("/api/privacy/visitor-data?website_id={}&visitor_id=visitor-0007", site["id"]), &token)
            .await;
        assert_eq!(copy.status, StatusCode::NOT_FOUND, "{}", copy.text);
    }

    // Every page view, deleted on B: answered at once, and no page view is read on either daemon from then on.
    let (deleted, took) =
        timed_post(&b, "/api/privacy/delete-data", &token, json!({"websiteId": site["id"], "dataType": "pageviews"}))
            .await;
    assert!(took < Duration::from_secs(2), "answered in {took:?}");
    assert_eq!(deleted["deleted"]["pageviews"], 19, "{deleted}");
    for server in [&a, &b] {
        assert_eq!(figures(server, &token, &site).await.0, 0, "{}", server.base);
    }
    // The rows leave both shards soon after, and the jobs are done.
    await_no_rows(&corner, &of_site("session_key = 'visitor-0007'")).await;
    await_no_rows(&corner, &of_site("kind = 'pageview'")).await;
    await_gauge(&a.client, &a.base, "tracker_deletion_jobs", |n| n == 0).await;
    // A hit taken after the answer stays (the deletion cut at its time).
    pageview(&a, &key, 30, "/after").await;
    assert_eq!(figures(&b, &token, &site).await.0, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_deletion_job_cut_off_from_a_shard_outlives_its_killed_daemon_and_reads_wait_for_it() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch.clone()).await;
    // Both daemons reach shard 2 through a relay (credentials as in the harness's URL), so neither can finish the
    // job while it is cut; the first is a `tracker serve` process, to be killed.
    let second = ch.split(',').nth(1).unwrap().to_string();
    let (credentials, target) = second.rsplit_once('@').unwrap();
    let relay = Relay::to(target.to_string()).await;
    let relayed = format!("{},{credentials}@{}", ch.split(',').next().unwrap(), relay.address);
    let dir = tempfile::tempdir().unwrap();
    let mut env = corner.env();
    env.push(("TRACKER_METRICS_TOKEN", METRICS_TOKEN.into()));
    env.push(("TRACKER_CLICKHOUSE_URL", relayed.clone()));
    let (mut first, base) = start_daemon_with(&dir.path().join("data"), env.clone());
    let b = daemon(&corner, Some(relayed)).await;
    let (token, _) = b.register("owner@example.com").await;
    let site = b.create_site(&token, "Shop", "light").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    for visitor in 0..20u8 {
        pageview(&b, &key, visitor, "/").await;
        let bought = post_hit(
            &b,
            &key,
            visitor,
            "/checkout",
            json!({"event": "conversion", "event_name": "purchase", "event_properties": {"value": 1}}),
            false,
        )
        .await;
        assert!(bought.status.is_success(), "{}", bought.text);
    }
    let events = format!("website_id = {} AND kind = 'conversion'", site["id"]);
    assert!(shard_rows(&corner, &events).iter().all(|n| *n > 0), "events on both shards");

    // The events' deletion on the relayed daemon answers at once; shard 2 is cut off just after, so its job
    // fails there and waits to retry.
    let client = reqwest::Client::new();
    let started = Instant::now();
    let answer = client
        .post(format!("{base}/api/privacy/delete-data"))
        .bearer_auth(&token)
        .header("user-agent", BROWSER_UA)
        .json(&json!({"websiteId": site["id"], "dataType": "events"}))
        .send()
        .await
        .unwrap();
    relay.set_up(false);
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(started.elapsed() < Duration::from_secs(2), "answered in {:?}", started.elapsed());
    assert_eq!(answer.json::<Value>().await.unwrap()["deleted"]["events"], 20);
    await_gauge(&client, &base, "tracker_deletion_jobs_failing", |n| n == 1).await;
    assert!(shard_rows(&corner, &events)[1] > 0, "shard 2 still holds its events");
    // Neither daemon reads the site while the job waits: 503 (try again), saying why, not the events.
    let waiting = b.get(&format!("/api/dashboard/overview?website_id={}&range=24h", site["id"]), &token).await;
    assert_eq!(waiting.status, StatusCode::SERVICE_UNAVAILABLE, "{}", waiting.text);
    assert!(waiting.error_message().contains("deletion of this site's data"), "{}", waiting.text);
    let waiting = client
        .get(format!("{base}/api/dashboard/overview?website_id={}&range=24h", site["id"]))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(waiting.status(), StatusCode::SERVICE_UNAVAILABLE);
    // `tracker privacy jobs` lists it, what it deletes, and why it waits. (Once it has failed thrice it waits
    // 8 s, so the command's own runner, which reaches both shards, does not take it meanwhile.)
    crate::util::wait_for("a third failed attempt", Duration::from_secs(60), || async {
        let tracker = b.tracker.clone();
        let jobs = tokio::task::spawn_blocking(move || tracker.events.deletion_jobs()).await.unwrap().unwrap();
        jobs.first().is_some_and(|job| job.attempts >= 3 && !job.running).then_some(())
    })
    .await;
    let (cli_dir, cli_env) = (tempfile::tempdir().unwrap(), corner.env());
    let listed = tokio::task::spawn_blocking(move || {
        let cli = crate::cli::Cli::new(&cli_dir.path().join("data"));
        cli.command(&["privacy", "jobs", "--json"]).envs(cli_env).output().unwrap()
    })
    .await
    .unwrap();
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed[0]["websiteIds"], json!([site["id"]]), "{listed}");
    assert!(listed[0]["deletes"].as_str().is_some_and(|d| d.starts_with("events before")), "{listed}");
    assert!(listed[0]["lastError"].as_str().is_some_and(|e| !e.is_empty()), "{listed}");

    // Killed while the job waits; started again with the shard back, it finishes the job.
    first.kill().expect("SIGKILL");
    first.wait().unwrap();
    relay.set_up(true);
    let (mut again, base) = start_daemon_with(&dir.path().join("data"), env);
    await_gauge(&client, &base, "tracker_deletion_jobs", |n| n == 0).await;
    await_no_rows(&corner, &events).await;
    let read = b.get(&format!("/api/dashboard/overview?website_id={}&range=24h", site["id"]), &token).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text);
    let metrics = &read.json["metrics"];
    assert_eq!((metrics["pageViews"].as_i64(), metrics["conversions"].as_i64()), (Some(20), Some(0)), "{}", read.text);
    again.kill().unwrap();
    again.wait().unwrap();
}

/// Today's page views of each of the owner's sites on the Websites list, and how long the list took; a site
/// missing from the list's figures is `None`.
async fn listed_today(server: &TestServer, token: &str, sites: [&Value; 2]) -> ([Option<i64>; 2], Duration) {
    let started = Instant::now();
    let answer = server.get("/api/dashboard/sites?metric=pageviews", token).await;
    let took = started.elapsed();
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let rows = answer.json.as_array().unwrap_or_else(|| panic!("not a list: {}", answer.text));
    let today =
        |site: &Value| rows.iter().find(|row| row["websiteId"] == site["id"]).map(|row| row["today"].as_i64().unwrap());
    ([today(sites[0]), today(sites[1])], took)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reads_of_all_sites_leave_out_a_site_whose_deletion_is_pending_instead_of_waiting_for_it() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch.clone()).await;
    // The daemon reaches shard 2 for its mutations through a relay, so the job cannot finish while it is cut.
    let second = ch.split(',').nth(1).unwrap().to_string();
    let (credentials, target) = second.rsplit_once('@').unwrap();
    let relay = Relay::to(target.to_string()).await;
    let relayed = format!("{},{credentials}@{}", ch.split(',').next().unwrap(), relay.address);
    let server = daemon(&corner, Some(relayed)).await;
    let (token, _) = server.register("owner@example.com").await;
    let shop = server.create_site(&token, "Shop", "light").await;
    let blog = server.create_site(&token, "Blog", "light").await;
    for (site, visitors) in [(&shop, 0..20u8), (&blog, 20..25u8)] {
        let key = site["trackingKey"].as_str().unwrap();
        for visitor in visitors {
            pageview(&server, key, visitor, "/").await;
        }
    }
    assert_eq!(listed_today(&server, &token, [&shop, &blog]).await.0, [Some(20), Some(5)]);
    let live = server.get("/api/analytics/live-visitors", &token).await;
    assert_eq!(live.json["totalActiveVisitors"], 25, "{}", live.text);

    // The shop's page views are deleted; shard 2 is cut off just after the answer, so the job waits to retry.
    let (deleted, _) = timed_post(
        &server,
        "/api/privacy/delete-data",
        &token,
        json!({"websiteId": shop["id"], "dataType": "pageviews"}),
    )
    .await;
    relay.set_up(false);
    assert_eq!(deleted["deleted"]["pageviews"], 20, "{deleted}");
    // Whether the job is still running or already failed, the list shows no deleted page view.
    let (today, _) = listed_today(&server, &token, [&shop, &blog]).await;
    assert!(matches!(today, [None | Some(0), Some(5)]), "{today:?}");
    await_gauge(&server.client, &server.base, "tracker_deletion_jobs_failing", |n| n == 1).await;
    assert!(shard_rows(&corner, &format!("website_id = {} AND kind = 'pageview'", shop["id"]))[1] > 0);

    // While it waits, the list and the live visitors of all sites answer at once with the blog's figures and
    // leave the shop out; a read of the shop alone still answers 503 (try again).
    let (today, took) = listed_today(&server, &token, [&shop, &blog]).await;
    assert_eq!(today, [None, Some(5)]);
    assert!(took < Duration::from_secs(2), "the list took {took:?}");
    let live = server.get("/api/analytics/live-visitors", &token).await;
    assert_eq!(live.status, StatusCode::OK, "{}", live.text);
    assert_eq!(live.json["totalActiveVisitors"], 5, "{}", live.text);
    let home = crate::filters::enc(r#"[["is","visit:entry_page",["/"]]]"#);
    let filtered = server.get(&format!("/api/analytics/live-visitors?filters={home}"), &token).await;
    assert_eq!(filtered.status, StatusCode::OK, "{}", filtered.text);
    assert_eq!(filtered.json["totalActiveVisitors"], 5, "{}", filtered.text);
    let alone = server.get(&format!("/api/dashboard/overview?website_id={}&range=24h", shop["id"]), &token).await;
    assert_eq!(alone.status, StatusCode::SERVICE_UNAVAILABLE, "{}", alone.text);

    // Once the shard is back and the job done, the shop is listed again, without its deleted page views.
    relay.set_up(true);
    await_gauge(&server.client, &server.base, "tracker_deletion_jobs", |n| n == 0).await;
    assert_eq!(listed_today(&server, &token, [&shop, &blog]).await.0, [Some(0), Some(5)]);
}
