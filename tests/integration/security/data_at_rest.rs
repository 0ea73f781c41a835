//! Low findings on data at rest: the data folder and its files were readable by every local user (they hold
//! password hashes, visitor traits and the signing secret), and privacy deletions and retention left the
//! deleted rows' bytes in the write-ahead log and in free space of the database file.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use reqwest::StatusCode;
use serde_json::json;
use tracker_core::model::now_ms;

use crate::util::TestServer;

/// The permission bits of a file, in octal as `ls` and `chmod` write them.
fn mode(path: &Path) -> String {
    let metadata = std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    format!("{:o}", metadata.permissions().mode() & 0o777)
}

/// The folder is 0700 and every file in it (database, its log and index, the signing secret) 0600.
fn assert_owner_only(data: &Path) {
    assert_eq!(mode(data), "700", "data folder {}", data.display());
    let mut names = Vec::new();
    for entry in std::fs::read_dir(data).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(mode(&path), "600", "{name}");
        names.push(name);
    }
    names.sort();
    assert_eq!(names, ["secret.key", "tracker.db", "tracker.db-shm", "tracker.db-wal"]);
}

#[tokio::test]
async fn the_data_folder_and_its_files_are_readable_by_their_owner_only() {
    let fresh = TestServer::start().await;
    fresh.register("modes@example.com").await;
    assert_owner_only(&fresh.dir.path().join("data"));
    fresh.stop().await;

    // A folder made by an earlier version (or by hand) with modes open to everyone is closed on start.
    let upgraded = TestServer::start_with(|config| {
        let data = &config.data_dir;
        std::fs::create_dir_all(data).unwrap();
        std::fs::set_permissions(data, std::fs::Permissions::from_mode(0o755)).unwrap();
        // An empty file is an empty SQLite database.
        std::fs::write(data.join("tracker.db"), b"").unwrap();
        std::fs::write(data.join("secret.key"), [b'k'; 48]).unwrap();
        for file in ["tracker.db", "secret.key"] {
            std::fs::set_permissions(data.join(file), std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    })
    .await;
    upgraded.register("upgraded@example.com").await;
    assert_owner_only(&upgraded.dir.path().join("data"));
    upgraded.stop().await;
}

/// Whether any file of the folder holds `marker`.
fn files_holding(data: &Path, marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(data).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if bytes.windows(marker.len()).any(|w| w == marker.as_bytes()) {
            found.push(path.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    found
}

/// A visit with a page view, then events carrying `marker` in their URL, properties and (with `in_name`) name.
async fn marked_visit(server: &TestServer, key: &str, session: &str, marker: &str, in_name: bool) {
    let name = if in_name { format!("{marker} signup") } else { "signup".to_string() };
    let page = server.pageview(key, session, "/pricing").await;
    assert_eq!(page.status, StatusCode::ACCEPTED, "{}", page.text);
    for i in 0..3 {
        let event = server
            .track(json!({"tracking_key": key, "session_id": session,
                "url": format!("https://site.example.com/pricing?ref={marker}-{i}"),
                "event": "custom", "event_name": name,
                "event_properties": {"note": format!("{marker} {}", "x".repeat(600)), "i": i}}))
            .await;
        assert_eq!(event.status, StatusCode::ACCEPTED, "{}", event.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleted_hits_leave_no_bytes_in_the_data_folder() {
    let server = TestServer::start().await;
    let (token, _) = server.register("erase@example.com").await;
    let kept = server.create_site(&token, "Kept", "light").await;
    let erased = server.create_site(&token, "Erased", "light").await;
    let data = server.dir.path().join("data");
    for (site, n) in [(&kept, 20), (&erased, 5)] {
        let key = site["trackingKey"].as_str().unwrap();
        for i in 0..n {
            let page = server.pageview(key, &format!("plain-visit-{i:03}"), &format!("/docs/{i}")).await;
            assert_eq!(page.status, StatusCode::ACCEPTED, "{}", page.text);
        }
    }

    // A privacy deletion of a site's events: the visit and its page view stay, the events go.
    let marker = "zq7deletedmarker";
    marked_visit(&server, kept["trackingKey"].as_str().unwrap(), "marked-visit-1", marker, true).await;
    assert!(!files_holding(&data, marker).is_empty(), "the marker is written before the deletion");
    let deleted =
        server.post("/api/privacy/delete-data", &token, json!({"websiteId": kept["id"], "dataType": "events"})).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(deleted.json["deleted"]["events"], 3);
    assert_eq!(files_holding(&data, marker), Vec::<String>::new(), "after deleting events");

    // Deleting all of a site's data.
    let marker = "zq7allmarker";
    marked_visit(&server, erased["trackingKey"].as_str().unwrap(), "marked-visit-2", marker, true).await;
    let deleted =
        server.post("/api/privacy/delete-data", &token, json!({"websiteId": erased["id"], "dataType": "all"})).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(files_holding(&data, marker), Vec::<String>::new(), "after deleting all");

    // Retention: everything past its retention days goes, but for the rollups (kept by design: they hold
    // paths and event names, never queries or properties).
    let marker = "zq7retainedmarker";
    marked_visit(&server, kept["trackingKey"].as_str().unwrap(), "marked-visit-3", marker, false).await;
    let tracker = server.tracker.clone();
    let report = tokio::task::spawn_blocking(move || tracker.events.apply_retention_at(now_ms() + 400 * 86_400_000))
        .await
        .unwrap()
        .unwrap();
    assert!(report.total["events"] >= 3, "{report:?}");
    assert_eq!(files_holding(&data, marker), Vec::<String>::new(), "after retention");
    server.stop().await;
}

/// Finding (issue 16): two-factor secrets were stored in plain form, so a copy of the database alone (a
/// backup) held every account's working second factor. They are sealed with the instance secret now.
#[tokio::test]
async fn two_factor_secrets_are_not_in_the_data_folder_in_plain_form() {
    let server = TestServer::start().await;
    let (token, _) = server.register("sealed@example.com").await;
    let setup = server.post("/api/user/two-factor/setup", &token, json!({"password": "secret1"})).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text);
    let encoded = setup.json["secret"].as_str().unwrap().to_string();
    let secret = totp_rs::Secret::Encoded(encoded.clone()).to_bytes().unwrap();
    let code = totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, secret.clone(), None, "x".into())
        .unwrap()
        .generate_current()
        .unwrap();
    // Sealed, the secret still checks codes: enrolment needs one.
    let enabled =
        server.post("/api/user/two-factor/enable", &token, json!({"password": "secret1", "code": code})).await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    let data = server.dir.path().join("data");
    let mut holding = Vec::new();
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let raw = bytes.windows(secret.len()).any(|w| w == secret.as_slice());
        let text = bytes.windows(encoded.len()).any(|w| w == encoded.as_bytes());
        if raw || text {
            holding.push(path.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    assert_eq!(holding, Vec::<String>::new(), "files holding the TOTP secret");
}
