//! `tracker demo` on the cluster: the same seeded traffic a data folder gets goes through the cluster's ingest,
//! and the days the cluster had already rolled up are rebuilt, so `tracker stats` prints the same figures.

use serde_json::Value;

use crate::cli::Cli;
use crate::cluster::{Corner, harness};

#[tokio::test]
async fn demo_traffic_on_the_cluster_gives_a_data_folders_figures() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let env = corner.env();
    tokio::task::spawn_blocking(move || {
        let dir = tempfile::tempdir().unwrap();
        let (folder, node) = (Cli::new(&dir.path().join("folder")), Cli::new(&dir.path().join("node")));
        let run = |cli: &Cli, on_cluster: bool, args: &[&str]| -> Value {
            let mut command = cli.command(args);
            command.arg("--json");
            if on_cluster {
                command.envs(env.clone());
            }
            let out = command.output().unwrap();
            assert!(out.status.success(), "tracker {args:?}: {}", String::from_utf8_lossy(&out.stderr));
            serde_json::from_slice(&out.stdout).unwrap()
        };
        for (cli, on_cluster) in [(&folder, false), (&node, true)] {
            run(cli, on_cluster, &["users", "add", "demo@example.com", "--password", "secret1"]);
            let owner = ["--owner", "demo@example.com"];
            run(
                cli,
                on_cluster,
                &[&["sites", "add", "--name", "Shop", "--domain", "shop.example.com"][..], &owner].concat(),
            );
        }
        // The cluster rolls up its closed hours (a retention run does so first): six days of demo history land
        // in hours already rolled up, which the demo must rebuild.
        run(&node, true, &["retention", "run"]);
        let demo = ["demo", "--site", "shop.example.com", "--events", "3000", "--days", "6", "--seed", "5"];
        let (expected, got) = (run(&folder, false, &demo), run(&node, true, &demo));
        assert_eq!(got["events"], expected["events"]);
        assert_eq!(got["sessions"], expected["sessions"]);

        let stats = ["stats", "--site", "shop.example.com", "--range", "7d"];
        let (mut expected, mut got) = (run(&folder, false, &stats), run(&node, true, &stats));
        assert!(expected["pageViews"].as_u64().is_some_and(|n| n > 1000), "{expected}");
        // The two runs are seconds apart: a visitor whose hits straddle midnight by less than that counts on
        // another day (visitors are counted once a day), and the range ends at another instant.
        let visitors = |stats: &Value| stats["visitors"].as_f64().unwrap();
        assert!((visitors(&got) - visitors(&expected)).abs() <= visitors(&expected) * 0.01, "{got} {expected}");
        for stats in [&mut expected, &mut got] {
            for field in ["websiteId", "visitors", "from", "to", "activeSessions"] {
                stats[field] = Value::Null;
            }
        }
        assert_eq!(got, expected);
    })
    .await
    .unwrap();
}
