//! One figure, every screen that shows it: active visitors on the Dashboard, the Analytics Dashboard, Live
//! Visitors, the Visitor Stream, Advanced Analytics and `tracker live` / `tracker stats`, and the range's
//! visitors and visits on the overview and `tracker stats`, read after the same hits and compared (issue 34:
//! the Visitor Stream said 2 active visitors beside 6 listed sessions while /live said 6).

use reqwest::StatusCode;

use crate::cli::Cli;
use crate::util::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_screen_counts_the_same_active_visitors_and_visitors() {
    let server = TestServer::start().await;
    let (token, _) = server.register("figures@example.com").await;
    let site = server.create_site(&token, "Figures", "professional").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string());
    // Five tabs of one browser on one address (one visitor hash, five visits), as an office behind one address
    // or a person with several tabs looks to a cookieless tracker.
    for (session, path) in [
        ("tab-one-1", "/"),
        ("tab-two-2", "/pricing"),
        ("tab-three-3", "/docs"),
        ("tab-four-4", "/"),
        ("tab-five-5", "/blog"),
    ] {
        let answer = server.pageview(&key, session, path).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    let get = |path: String| {
        let server = &server;
        let token = &token;
        async move {
            let answer = server.get(&path, token).await;
            assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.text);
            answer.json
        }
    };
    let overview = get(format!("/api/dashboard/overview?website_id={id}&range=1d")).await;
    let stream = get(format!("/api/analytics/live-visitors?website_id={id}")).await;
    let advanced = get(format!("/api/analytics/advanced?website_id={id}&time_range=1d")).await;
    let data = server.dir.path().join("data");
    let site_arg = id.to_string();
    let (cli_live, cli_stats) = tokio::task::spawn_blocking(move || {
        let cli = Cli::new(&data);
        (cli.json(&["live", "--site", &site_arg, "--once"]), cli.json(&["stats", "--site", &site_arg, "--range", "1d"]))
    })
    .await
    .unwrap();

    let listed = stream["recentSessions"].as_array().unwrap().len() as i64;
    let active: Vec<(&str, i64)> = vec![
        ("Dashboard / Analytics Dashboard activeSessions", overview["metrics"]["activeSessions"].as_i64().unwrap()),
        ("Visitor Stream totalActiveVisitors", stream["totalActiveVisitors"].as_i64().unwrap()),
        ("Visitor Stream sessions listed", listed),
        (
            "Visitor Stream top pages' visitors",
            stream["topPages"].as_array().unwrap().iter().map(|p| p["visitors"].as_i64().unwrap()).sum(),
        ),
        ("Advanced Analytics activeVisitors", advanced["realTimeMetrics"]["activeVisitors"].as_i64().unwrap()),
        ("tracker live sessions", cli_live.as_array().unwrap().len() as i64),
        ("tracker stats activeSessions", cli_stats["activeSessions"].as_i64().unwrap()),
    ];
    assert!(active.iter().all(|(_, n)| *n == 5), "active visitors differ between screens: {active:?}");

    // The range's visitors and page views: the overview's cards and tracker stats.
    let metrics = &overview["metrics"];
    assert_eq!(metrics["totalVisitors"], cli_stats["visitors"], "visitors: {overview} against {cli_stats}");
    assert_eq!(metrics["pageViews"], cli_stats["pageViews"], "page views: {overview} against {cli_stats}");
    assert_eq!(cli_stats["visits"], 5, "{cli_stats}");
    assert_eq!(cli_stats["visitors"], 1, "one browser on one address is one visitor: {cli_stats}");
    server.stop().await;
}
