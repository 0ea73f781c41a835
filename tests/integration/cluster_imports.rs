//! `tracker import` on a cluster end to end (issue 18): each tool's sample export (moved to recent days, as
//! imports.rs does) imported by the built binary into a SQLite daemon's data folder and, with the cluster's
//! settings, into a cluster of two daemons; every dashboard read of the imported days then answers JSON-equal
//! on both (Plausible's daily aggregates too), a second import of the same days is refused on the cluster too,
//! and a site's deletion leaves no imported row on either shard. Without the harness's env the tests return at once.

use std::path::Path;
use std::process::Output;

use reqwest::StatusCode;
use serde_json::Value;

use crate::cli::Cli;
use crate::cluster::{Corner, harness, part_one_paths, read, shard_rows, start_early_in_the_hour};
use crate::imports::{recent_copy, stderr};
use crate::util::TestServer;

/// Runs `tracker` with the corner's cluster settings (and a data folder of its own, which holds none of the
/// cluster's data).
async fn cluster_cli(corner: &Corner, args: Vec<String>) -> Output {
    let env = corner.env();
    tokio::task::spawn_blocking(move || {
        let data = tempfile::tempdir().unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        Cli::new(&data.path().join("data")).command(&args).envs(env).output().unwrap()
    })
    .await
    .unwrap()
}

/// `tracker import` of `file` into `site` of the cluster.
async fn import_into_cluster(corner: &Corner, site: &Value, tool: &str, file: &Path) -> Output {
    let args = ["import", "--site", &site["id"].to_string(), "--from", tool, "--json"];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(file.to_string_lossy().into_owned());
    cluster_cli(corner, args).await
}

/// `tracker import` of `file` into `site` of the SQLite daemon's data folder.
async fn import_into_sqlite(server: &TestServer, site: &Value, tool: &str, file: &Path) -> Output {
    let (site, tool, file) = (site["id"].to_string(), tool.to_string(), file.to_path_buf());
    let data = server.dir.path().join("data");
    tokio::task::spawn_blocking(move || {
        Cli::new(&data).command(&["import", "--site", &site, "--from", &tool, "--json"]).arg(&file).output().unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn imported_hits_answer_every_dashboard_read_as_on_sqlite_and_go_with_their_site() {
    let Some((pg, ch)) = harness() else { return };
    start_early_in_the_hour().await;
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    let (token, _) = a.register("owner@example.com").await;
    let (sqlite_token, _) = sqlite.register("owner@example.com").await;
    // Rolled up first: the imported days are partly before the cluster's mark, whose rollups the import rebuilds.
    let rolled = cluster_cli(&corner, vec!["retention".into(), "run".into()]).await;
    assert!(rolled.status.success(), "{}", stderr(&rolled));

    let tmp = tempfile::tempdir().unwrap();
    let mut sites = Vec::new();
    for (tool, fixture) in
        [("umami", "umami-events.csv"), ("goatcounter", "goatcounter-export.csv"), ("plausible", "plausible")]
    {
        let file = recent_copy(fixture, tmp.path());
        let site = a.create_site(&token, tool, "light").await;
        let sqlite_site = sqlite.create_site(&sqlite_token, tool, "light").await;
        let on_sqlite = import_into_sqlite(&sqlite, &sqlite_site, tool, &file).await;
        assert!(on_sqlite.status.success(), "{}", stderr(&on_sqlite));
        let on_cluster = import_into_cluster(&corner, &site, tool, &file).await;
        assert!(on_cluster.status.success(), "{tool}: {}", stderr(&on_cluster));
        let (expected, got): (Value, Value) =
            (serde_json::from_slice(&on_sqlite.stdout).unwrap(), serde_json::from_slice(&on_cluster.stdout).unwrap());
        assert_eq!(crate::cluster::comparable(got), crate::cluster::comparable(expected), "{tool}'s report");

        // The same days again are refused on the cluster as on SQLite, and nothing is added.
        let again = import_into_cluster(&corner, &site, tool, &file).await;
        assert!(!again.status.success());
        assert!(stderr(&again).contains(&format!("already has history imported from {tool}")), "{}", stderr(&again));
        sites.push((site, sqlite_site));
    }

    for (site, sqlite_site) in &sites {
        let paths = part_one_paths(site, sqlite_site, &["7d", "30d", "90d"]);
        let overview = read(&sqlite, &sqlite_token, &paths[0].1).await;
        assert!(overview["metrics"]["pageViews"].as_i64().unwrap() > 0, "{overview}");
        assert!(overview["imported"].is_object(), "{overview}");
        for (cluster_path, sqlite_path) in &paths {
            let expected = read(&sqlite, &sqlite_token, sqlite_path).await;
            for (name, server) in [("A", &a), ("B", &b)] {
                assert_eq!(read(server, &token, cluster_path).await, expected, "daemon {name}: {cluster_path}");
            }
        }
    }

    // A deleted site leaves no imported row on either shard, and its imports go with it.
    let (site, _) = &sites[0];
    let deleted = b.delete(&format!("/api/websites/{}", site["id"]), &token).await;
    assert!(deleted.status.is_success(), "{}", deleted.text);
    crate::cluster::await_no_rows(&corner, &format!("website_id = {}", site["id"])).await;
    let (other, _) = &sites[1];
    assert!(shard_rows(&corner, &format!("website_id = {}", other["id"])).iter().sum::<u64>() > 0);
    // Plausible's daily aggregates go with their site too.
    let (plausible, _) = &sites[2];
    let imported = |site: &Value| -> u64 {
        corner
            .ch
            .split(',')
            .map(|url| {
                tracker_core::cluster::clickhouse::Node::new(url)
                    .query_value::<u64>(&format!(
                        "SELECT count() FROM {}.imported_hours_local WHERE website_id = {}",
                        corner.name, site["id"]
                    ))
                    .unwrap()
            })
            .sum()
    };
    assert!(imported(plausible) > 10, "the aggregates are stored");
    let deleted = b.delete(&format!("/api/websites/{}", plausible["id"]), &token).await;
    assert!(deleted.status.is_success(), "{}", deleted.text);
    crate::util::wait_for("the aggregates to go", std::time::Duration::from_secs(60), || async {
        (imported(plausible) == 0).then_some(())
    })
    .await;
    assert_eq!(a.get(&format!("/api/dashboard/overview?website_id={}", site["id"]), &token).await.status, {
        StatusCode::NOT_FOUND
    });
}
