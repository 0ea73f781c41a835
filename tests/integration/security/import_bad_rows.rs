//! Finding 11 of issue 33, "Imports keep every bad row in memory": a 2.5 MB gzip of bad rows took 1.68 GB, each
//! bad row kept with its file name and reason. An import now counts bad rows and keeps the first 20; without
//! `--skip-bad-rows` it stops reading at the first 10 and names them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::util::{TestServer, tracker_bin};

/// Bad rows in the generated export: kept whole (about 160 bytes each with their file name and reason), they
/// need more than 800 MB, well past the cap [`capped_import`] runs the CLI under.
const BAD_ROWS: usize = 5_000_000;

/// A gzipped GoatCounter export of two readable page views (yesterday) and then [`BAD_ROWS`] rows of one
/// field each (the header has 14); a few hundred KB on disk.
fn export_of_bad_rows(dir: &Path) -> PathBuf {
    let day = (chrono::Utc::now() - chrono::Duration::days(1)).format("%Y-%m-%d");
    let path = dir.join("goatcounter-bad.csv.gz");
    let mut gz = flate2::write::GzEncoder::new(std::fs::File::create(&path).unwrap(), flate2::Compression::best());
    writeln!(gz, "2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,Location,FirstVisit,Date").unwrap();
    for (i, page) in ["/", "/docs"].iter().enumerate() {
        writeln!(gz, "{page},T,false,,Chrome 122,Windows 10,s-1,0,,,\"1920,1080,1\",NL,true,{day}T08:0{i}:00Z")
            .unwrap();
    }
    let block = "x\n".repeat(100_000);
    for _ in 0..BAD_ROWS / 100_000 {
        gz.write_all(block.as_bytes()).unwrap();
    }
    gz.finish().unwrap();
    path
}

/// Runs `tracker import` on the daemon's data folder with the process's data segment capped at 512 MiB
/// (`ulimit -d`): an import that kept every bad row fails its allocation and aborts.
fn capped_import(server: &TestServer, site: &str, file: &Path, extra: &[&str]) -> Output {
    let mut command = Command::new("sh");
    command.args(["-c", "ulimit -d 524288 && exec \"$@\"", "sh"]).arg(tracker_bin());
    command.arg("--data-dir").arg(server.dir.path().join("data"));
    command.args(["import", "--site", site, "--from", "goatcounter"]).args(extra).arg(file);
    for (key, _) in std::env::vars() {
        if key.starts_with("TRACKER_") {
            command.env_remove(key);
        }
    }
    command.stdin(Stdio::null()).output().expect("run tracker")
}

#[tokio::test]
async fn import_of_millions_of_bad_rows_stops_early_or_keeps_only_the_first() {
    let server = TestServer::start().await;
    let (token, _) = server.register("bad-rows@example.com").await;
    let site = server.create_site(&token, "Bad", "light").await;
    let site = site["id"].as_i64().map(|i| i.to_string()).unwrap_or_else(|| site["id"].as_str().unwrap().into());
    let dir = tempfile::tempdir().unwrap();
    let file = export_of_bad_rows(dir.path());
    assert!(std::fs::metadata(&file).unwrap().len() < 2_000_000);

    let refused = capped_import(&server, &site, &file, &[]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(stderr.contains("stopped at the first 10 rows that could not be read, nothing was imported"), "{stderr}");
    assert!(stderr.contains("goatcounter-bad.csv.gz line 4: 1 fields where the header has 14"), "{stderr}");
    assert!(stderr.contains("line 13:") && !stderr.contains("line 14:"), "the first ten are named: {stderr}");
    assert!(stderr.len() < 4_000, "{stderr}");

    let skipped = capped_import(&server, &site, &file, &["--skip-bad-rows", "--json"]);
    assert!(skipped.status.success(), "{}", String::from_utf8_lossy(&skipped.stderr));
    let report: Value = serde_json::from_slice(&skipped.stdout).unwrap();
    assert_eq!((report["rows"].as_u64(), report["badRows"].as_u64()), (Some(2), Some(BAD_ROWS as u64)), "{report}");
    let first = report["firstBadRows"].as_array().unwrap();
    assert_eq!(first.len(), 20, "{report}");
    assert_eq!((first[0]["line"].as_u64(), first[19]["line"].as_u64()), (Some(4), Some(23)));
    server.stop().await;
}
