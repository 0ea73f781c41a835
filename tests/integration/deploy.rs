//! The deployment files in examples/deploy: the systemd unit passes `systemd-analyze verify`, the Dockerfile
//! builds (where a Docker daemon answers), the sample tracker.toml loads, the cluster's files agree with each
//! other (its ClickHouse files also run under every cluster test: tests/cluster/cluster.sh), and the live stream
//! tells nginx not to buffer it.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::StatusCode;
use serde_json::json;
use tracker_core::Config;
use tracker_core::cluster::ClusterConfig;

use crate::util::{TestServer, tracker_bin};

fn deploy_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/deploy")
}

/// Whether `program` runs here; prints why the test is skipped when it does not.
fn available(program: &str, args: &[&str], test: &str) -> bool {
    let works = Command::new(program).args(args).output().is_ok_and(|out| out.status.success());
    if !works {
        println!("{test}: skipped, `{program} {}` does not work on this machine", args.join(" "));
    }
    works
}

/// `systemd-analyze verify` output about `unit`: empty when systemd accepts every line of it.
fn verify(unit: &Path) -> String {
    let out = Command::new("systemd-analyze").args(["verify", "--man=no"]).arg(unit).output().expect("systemd-analyze");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // Unknown keys and bad values are only warnings (exit status 0): they count as failures here.
    if out.status.success() { text.lines().filter(|l| l.contains(unit.to_str().unwrap())).collect() } else { text }
}

#[test]
fn systemd_unit_passes_systemd_analyze_verify() {
    if !available("systemd-analyze", &["--version"], "systemd_unit_passes_systemd_analyze_verify") {
        return;
    }
    let unit = std::fs::read_to_string(deploy_dir().join("tracker.service")).unwrap();
    assert!(unit.contains("ExecStart=/usr/local/bin/tracker serve"), "the unit starts the daemon");
    for hardening in ["DynamicUser=yes", "StateDirectory=tracker", "ProtectSystem=strict", "NoNewPrivileges=yes"] {
        assert!(unit.contains(hardening), "the unit sets {hardening}");
    }
    // verify checks that ExecStart's program exists: point it at the binary this test run built.
    let dir = tempfile::tempdir().unwrap();
    let installed = unit.replace("/usr/local/bin/tracker", tracker_bin().to_str().unwrap());
    let path = dir.path().join("tracker.service");
    std::fs::write(&path, &installed).unwrap();
    assert_eq!(verify(&path), "", "systemd-analyze verify complains about the unit");
    // The check can fail: a misspelt value is reported.
    std::fs::write(&path, installed.replace("ProtectSystem=strict", "ProtectSystem=strictly")).unwrap();
    let complaint = verify(&path);
    assert!(complaint.contains("protect system"), "no complaint about a bad value: {complaint:?}");
}

/// A release build inside Docker takes longer than the whole test command may: it runs only when asked for
/// with TRACKER_TEST_DOCKER=1, where a Docker daemon answers.
#[test]
fn dockerfile_builds_where_docker_runs() {
    if std::env::var_os("TRACKER_TEST_DOCKER").is_none() {
        eprintln!("dockerfile_builds_where_docker_runs: skipped (set TRACKER_TEST_DOCKER=1 to build the image)");
        return;
    }
    if !available("docker", &["info"], "dockerfile_builds_where_docker_runs") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let status = Command::new("docker")
        .args(["build", "-q", "-f", "examples/deploy/Dockerfile", "-t", "tracker-deploy-test", "."])
        .current_dir(&root)
        .status()
        .expect("docker build");
    assert!(status.success(), "docker build of examples/deploy/Dockerfile failed");
    let user = Command::new("docker")
        .args(["image", "inspect", "-f", "{{.Config.User}}", "tracker-deploy-test"])
        .output()
        .expect("docker image inspect");
    assert_eq!(String::from_utf8_lossy(&user.stdout).trim(), "nonroot:nonroot", "the image runs as non-root");
}

#[test]
fn sample_config_loads_and_trusts_only_the_local_proxy() {
    let config = Config::load(Some(&deploy_dir().join("tracker.toml")), std::iter::empty::<(String, String)>())
        .expect("examples/deploy/tracker.toml loads");
    assert_eq!(config.public_url.as_deref(), Some("https://stats.example.com"));
    assert!(config.is_trusted_proxy("127.0.0.1".parse().unwrap()));
    assert!(!config.is_trusted_proxy("203.0.113.7".parse().unwrap()), "a visitor's address is not a proxy");
    // The proxy configs pass X-Forwarded-For on to the address tracker listens on.
    let nginx = std::fs::read_to_string(deploy_dir().join("nginx.conf")).unwrap();
    assert!(nginx.contains("$proxy_add_x_forwarded_for") && nginx.contains(&format!("http://{}", config.addr)));
    let caddy = std::fs::read_to_string(deploy_dir().join("Caddyfile")).unwrap();
    assert!(caddy.contains(&format!("reverse_proxy {}", config.addr)));
}

#[test]
fn cluster_sample_is_two_daemons_behind_the_proxy_on_the_shards_clickhouse_knows() {
    let dir = deploy_dir().join("cluster");
    let config = Config::load(Some(&dir.join("tracker.toml")), std::iter::empty::<(String, String)>())
        .expect("examples/deploy/cluster/tracker.toml loads");
    let cluster = ClusterConfig::of(&config).unwrap().expect("the sample configures a cluster");
    // The keys cluster mode requires come from files, the same on every daemon.
    assert!(config.jwt_secret_file.is_some() && config.visitor_salt_key_file.is_some(), "{config:?}");
    assert!(config.is_trusted_proxy("10.0.0.10".parse().unwrap()));
    assert!(!config.is_trusted_proxy("203.0.113.7".parse().unwrap()));
    // The proxy sends to this daemon and one more.
    let nginx = std::fs::read_to_string(dir.join("nginx.conf")).unwrap();
    let upstreams: Vec<&str> =
        nginx.lines().filter_map(|l| l.trim().strip_prefix("server ")).filter(|l| *l != "{").collect();
    assert_eq!(upstreams.len(), 2, "{upstreams:?}");
    assert!(upstreams[0].starts_with(&format!("{} ", config.addr)), "{upstreams:?}");
    // ClickHouse's remote_servers names the cluster and its shards in clickhouse_url's order, as the user the
    // URLs sign in as.
    let remote = std::fs::read_to_string(dir.join("clickhouse/config.d/tracker.xml")).unwrap();
    assert!(remote.contains(&format!("<{}>", cluster.clickhouse_cluster)), "{remote}");
    let shards: Vec<String> =
        remote.lines().filter_map(|l| l.split("<host>").nth(1)?.split("</host>").next().map(str::to_string)).collect();
    let hosts: Vec<String> = cluster
        .clickhouse_urls
        .iter()
        .map(|u| reqwest::Url::parse(u).unwrap().host_str().unwrap().to_string())
        .collect();
    assert_eq!(shards, hosts);
    let users = std::fs::read_to_string(dir.join("clickhouse/users.d/tracker.xml")).unwrap();
    for url in &cluster.clickhouse_urls {
        let user = reqwest::Url::parse(url).unwrap().username().to_string();
        assert!(remote.contains(&format!("<user>{user}</user>")) && users.contains(&format!("<{user}>")), "{url}");
    }
}

#[tokio::test]
async fn live_stream_turns_proxy_buffering_off() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Live", "light").await;
    let ticket = server.post("/api/dashboard/live/ticket", &token, json!({})).await;
    let ticket = ticket.json["ticket"].as_str().expect("a stream ticket").to_string();
    let url = server.url(&format!("/api/dashboard/live?website_id={}&ticket={ticket}", site["id"]));
    let response = server.client.get(url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers().get("x-accel-buffering").map(|v| v.to_str().unwrap()), Some("no"));
    drop(response);
    server.stop().await;
}

/// The cluster harness runs the shards on the deploy files' small-server settings (tests/cluster/cluster.sh
/// copies them): no query or thread log written, the memory caps of a 2-4 GB server, and no part log although
/// the harness's base config names one, as Debian's may.
#[tokio::test]
async fn the_cluster_harness_runs_the_small_server_settings_of_the_deploy_files() {
    let Some((_, ch)) = crate::cluster::harness() else { return };
    for url in ch.split(',') {
        let node = tracker_core::cluster::clickhouse::Node::new(url);
        let settings = node
            .query(
                "SELECT name, value FROM system.settings WHERE name IN ('log_queries', 'log_query_threads',
                 'max_memory_usage', 'max_memory_usage_for_all_queries') ORDER BY name",
            )
            .unwrap();
        let expected = [
            ["log_queries", "0"],
            ["log_query_threads", "0"],
            ["max_memory_usage", "1000000000"],
            ["max_memory_usage_for_all_queries", "1500000000"],
        ];
        assert_eq!(settings, expected.map(|pair| pair.map(str::to_string).to_vec()), "{url}");
        let logs: u64 = node
            .query_value(
                "SELECT count() FROM system.tables WHERE database = 'system'
                 AND name IN ('part_log', 'trace_log', 'metric_log', 'text_log', 'query_thread_log')",
            )
            .unwrap();
        assert_eq!(logs, 0, "{url}");
    }
}
