//! Filters on the reads that list rows (exports, through the API and `tracker export`; the recent activity)
//! through a real daemon: the site of `filters::seeded`, each read holding only what the filter admits.

use reqwest::StatusCode;
use serde_json::Value;

use crate::cli::Cli;
use crate::filters::{enc, seeded};

/// The (type, path) of each row of a JSON lines export.
fn lines(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(|line| {
            let row: Value = serde_json::from_str(line).unwrap();
            (row["type"].as_str().unwrap().to_string(), row["path"].as_str().unwrap().to_string())
        })
        .collect()
}

fn rows(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected.iter().map(|(kind, path)| (kind.to_string(), path.to_string())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_hold_only_the_rows_the_filters_admit() {
    let (server, token, id) = seeded().await;
    let firefox = enc(r#"[["is","visit:browser",["Firefox"]]]"#);
    let answer = server.get(&format!("/api/websites/{id}/export?format=jsonl&filters={firefox}"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(lines(&answer.text), rows(&[("pageview", "/blog/post"), ("pageview", "/pricing")]));

    // An event condition keeps the rows passing it, of every visit; the type still applies.
    let pricing = enc(r#"[["is","event:page",["/pricing"]]]"#);
    let answer = server.get(&format!("/api/websites/{id}/export?format=jsonl&filters={pricing}"), &token).await;
    assert_eq!(
        lines(&answer.text),
        rows(&[("pageview", "/pricing"), ("custom", "/pricing"), ("pageview", "/pricing")]),
        "{}",
        answer.text
    );
    let answer =
        server.get(&format!("/api/websites/{id}/export?format=jsonl&type=events&filters={pricing}"), &token).await;
    assert_eq!(lines(&answer.text), rows(&[("custom", "/pricing")]), "{}", answer.text);

    // The per-type export: the newest rows the filter admits, as CSV.
    let blog = enc(r#"[["contains","event:page",["/blog"]]]"#);
    let answer = server.get(&format!("/api/export/pageviews?website_id={id}&filters={blog}"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let paths: Vec<String> =
        csv::Reader::from_reader(answer.text.as_bytes()).records().map(|r| r.unwrap()[4].to_string()).collect();
    assert_eq!(paths, ["/blog/other", "/blog/post"], "newest first");

    // `tracker export --filters` writes the same rows from the daemon's database.
    let data = server.dir.path().join("data");
    let cli_rows = tokio::task::spawn_blocking(move || {
        let cli = Cli::new(&data);
        let site = id.to_string();
        let firefox = r#"[["is","visit:browser",["Firefox"]]]"#;
        let rows = cli.ok(&["export", "--site", &site, "--format", "jsonl", "--filters", firefox]);
        let refused = cli.fails(&["export", "--site", &site, "--filters", r#"[["is","visit:planet",["x"]]]"#]);
        (rows, refused)
    })
    .await
    .unwrap();
    assert_eq!(lines(&cli_rows.0), rows(&[("pageview", "/blog/post"), ("pageview", "/pricing")]));
    assert!(cli_rows.1.contains("--filters") && cli_rows.1.contains("visit:planet"), "{}", cli_rows.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recent_activity_lists_only_what_the_filters_admit() {
    let (server, token, id) = seeded().await;
    let listed = |answer: crate::util::Answer| -> Vec<(String, String)> {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer
            .json
            .as_array()
            .unwrap()
            .iter()
            // The page without its query (the tagged visit's landing URL keeps its utm_ parameters).
            .map(|a| {
                let url = a["url"].as_str().unwrap();
                (a["type"].as_str().unwrap().to_string(), url.split('?').next().unwrap().to_string())
            })
            .collect()
    };
    let firefox = enc(r#"[["is","visit:browser",["Firefox"]]]"#);
    let path = format!("/api/dashboard/recent-activity?website_id={id}&limit=50&filters={firefox}");
    assert_eq!(
        listed(server.get(&path, &token).await),
        rows(&[("pageview", "https://shop.example/pricing"), ("pageview", "https://shop.example/blog/post")]),
        "newest first"
    );
    let clicks = enc(r#"[["is","event:name",["button_click"]]]"#);
    let path = format!("/api/dashboard/recent-activity?website_id={id}&filters={clicks}");
    assert_eq!(listed(server.get(&path, &token).await), rows(&[("custom", "https://shop.example/pricing")]));
    let all = listed(server.get(&format!("/api/dashboard/recent-activity?website_id={id}&limit=50"), &token).await);
    assert_eq!(all.len(), 6, "{all:?}");
}
