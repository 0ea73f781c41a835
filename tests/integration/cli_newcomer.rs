//! What a newcomer tripped on in the CLI (issue 34, items 7-10): one site per domain per account, snippets that
//! name the daemon's real address, a mistyped --data-dir refused, closed pipes and `--output` handled.

use std::io::Read;
use std::process::Stdio;

use reqwest::StatusCode;
use serde_json::json;

use crate::cli::{Cli, seeded, start_daemon};
use crate::util::TestServer;

#[test]
fn a_domain_typed_another_way_is_the_same_site() {
    let dir = tempfile::tempdir().unwrap();
    let (cli, _) = seeded(&dir); // shop.example.com, from the CLI
    let add = |domain: &str| {
        cli.fails(&["sites", "add", "--name", "Again", "--domain", domain, "--owner", "ops@example.com"])
    };
    for typed in ["https://shop.example.com", "HTTPS://Shop.Example.com/", "www.shop.example.com", "shop.example.com."]
    {
        let error = add(typed);
        assert!(error.contains("already have a website for shop.example.com"), "{typed}: {error}");
    }
    // Every command naming the site by its domain still finds exactly one.
    let snippet = cli.json(&["sites", "snippet", "shop.example.com"]);
    assert!(snippet["snippet"].as_str().unwrap().contains("/tracking/"), "{snippet}");
    // Another domain, and an edit onto a taken domain.
    let blog =
        cli.json(&["sites", "add", "--name", "Blog", "--domain", "blog.example.com", "--owner", "ops@example.com"]);
    let id = blog["id"].as_i64().unwrap().to_string();
    let error = cli.fails(&["sites", "edit", &id, "--domain", "https://shop.example.com/"]);
    assert!(error.contains("already have a website for shop.example.com"), "{error}");
    // A site keeps its own domain when edited.
    cli.json(&["sites", "edit", &id, "--domain", "https://blog.example.com", "--name", "The Blog"]);
    // Other accounts may track the same domain: refusing would tell them someone tracks it here.
    cli.json(&["users", "add", "other@example.com", "--password", "secret1"]);
    cli.json(&["sites", "add", "--name", "Mine", "--domain", "shop.example.com", "--owner", "other@example.com"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_answers_409_for_a_second_site_on_one_domain() {
    let server = TestServer::start().await;
    let (token, _) = server.register("dup@example.com").await;
    let first =
        server.post("/api/websites", &token, json!({"name": "Blog", "domain": "https://blog.example.com"})).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let again = server.post("/api/websites", &token, json!({"name": "Blog 2", "domain": "blog.example.com"})).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    let message = again.json["error"]["message"].as_str().unwrap();
    assert!(message.contains("blog.example.com"), "{message}");
    let (other, _) = server.register("other@example.com").await;
    let theirs = server.post("/api/websites", &other, json!({"name": "Blog", "domain": "blog.example.com"})).await;
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snippets_name_the_running_daemons_address_or_say_they_guess() {
    let dir = tempfile::tempdir().unwrap();
    let (cli, site) = seeded(&dir);
    let site = site.to_string();
    let (mut child, _stderr, addr) = start_daemon(&cli, &[]).await;
    let out = cli.output(&["sites", "snippet", &site]);
    assert!(out.status.success());
    let snippet = String::from_utf8_lossy(&out.stdout);
    assert!(snippet.contains(&format!("src=\"http://{addr}/tracking/")), "{snippet} (daemon on {addr})");
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    child.kill().unwrap();
    child.wait().unwrap();
    // No daemon answers there any more: the listen address from the configuration, said to be a guess.
    let out = cli.output(&["sites", "snippet", &site]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("http://127.0.0.1:8080/tracking/"));
    let note = String::from_utf8_lossy(&out.stderr);
    assert!(note.contains("is a guess") && note.contains("public_url"), "{note}");
    // public_url is what visitors reach: no note.
    let out = cli.command(&["sites", "snippet", &site]).env("TRACKER_PUBLIC_URL", "https://stats.example.com").output();
    let out = out.unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("https://stats.example.com/tracking/"));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_mistyped_data_dir_is_refused_and_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let (_cli, site) = seeded(&dir);
    let typo = dir.path().join("dta");
    let cli = Cli::new(&typo);
    let site = site.to_string();
    for args in [
        vec!["sites", "list"],
        vec!["users", "list"],
        vec!["stats", "--site", &site],
        vec!["export", "--site", &site],
        vec!["retention", "run"],
        vec!["live", "--site", &site, "--once"],
        vec!["backup", "--output", "copy.db"],
    ] {
        let error = cli.fails(&args);
        assert!(error.contains("no tracker database in") && error.contains("dta"), "{args:?}: {error}");
        assert!(!typo.exists(), "{args:?} created {}", typo.display());
    }
    // The commands that start a data folder still do.
    cli.json(&["users", "add", "new@example.com", "--password", "secret1"]);
    assert!(typo.join("tracker.db").exists());
}

#[test]
fn completions_into_a_closed_pipe_end_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    for shell in ["zsh", "bash", "fish"] {
        let mut child =
            cli.command(&["completions", shell]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        // The reader goes away before the script is written, as `| head -0` does.
        drop(child.stdout.take());
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = child.wait().unwrap();
        assert!(!stderr.contains("panicked"), "{shell}: {stderr}");
        assert!(status.success(), "{shell}: {status} {stderr}");
    }
    assert!(cli.ok(&["completions", "zsh"]).contains("#compdef tracker"));
}

#[test]
fn export_to_dash_is_standard_output_and_an_existing_file_needs_force() {
    let dir = tempfile::tempdir().unwrap();
    let (cli, site) = seeded(&dir);
    let site = site.to_string();
    let csv = cli.ok(&["export", "--site", &site, "--output", "-"]);
    assert!(csv.starts_with("timestamp,"), "{csv}");
    assert!(!std::path::Path::new("-").exists() && !dir.path().join("-").exists(), "a file named - was written");
    let file = dir.path().join("views.csv");
    std::fs::write(&file, "last month's export").unwrap();
    let path = file.to_str().unwrap();
    let error = cli.fails(&["export", "--site", &site, "--output", path]);
    assert!(error.contains("exists") && error.contains("--force"), "{error}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "last month's export", "kept");
    cli.ok(&["export", "--site", &site, "--output", path, "--force"]);
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("timestamp,"));
}
