//! The dashboard's Import (`POST /api/websites/{id}/imports?from=...`) through the real daemon: each tool's
//! sample export uploaded as the file the tool writes (Plausible's zip, Umami's CSV, GoatCounter's gzip)
//! answers the CLI's JSON report and shows in the dashboard; a file over the limit is 413 (announced or
//! streamed), a file the importer cannot read 400 with its message, another user's site 404.

use std::io::Write;

use reqwest::StatusCode;

use crate::imports::recent_copy;
use crate::util::{Answer, TestServer, answer};

async fn upload(server: &TestServer, site: i64, token: &str, query: &str, body: Vec<u8>) -> Answer {
    let request = server
        .client
        .post(server.url(&format!("/api/websites/{site}/imports?{query}")))
        .bearer_auth(token)
        .header("content-type", "application/octet-stream")
        .body(body);
    answer(request.send().await.expect("request")).await
}

async fn site(server: &TestServer, email: &str) -> (i64, String) {
    let (token, _) = server.register(email).await;
    let site = server.create_site(&token, "Imported", "light").await;
    (site["id"].as_i64().unwrap(), token)
}

async fn pageviews(server: &TestServer, site: i64, token: &str) -> i64 {
    let overview = server.get(&format!("/api/dashboard/overview?website_id={site}&range=7d"), token).await;
    overview.json["metrics"]["pageViews"].as_i64().unwrap_or_else(|| panic!("{}", overview.text))
}

/// Plausible's export folder as the zip its Export button downloads.
fn plausible_zip() -> Vec<u8> {
    let tmp = tempfile::tempdir().unwrap();
    let folder = recent_copy("plausible", tmp.path());
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for entry in std::fs::read_dir(&folder).unwrap() {
        let entry = entry.unwrap();
        zip.start_file(entry.file_name().to_string_lossy(), options).unwrap();
        zip.write_all(&std::fs::read(entry.path()).unwrap()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

#[tokio::test]
async fn each_tools_file_uploads_and_answers_the_import_report() {
    let server = TestServer::start().await;
    let tmp = tempfile::tempdir().unwrap();

    let (plausible, token) = site(&server, "upload-plausible@example.com").await;
    let report =
        upload(&server, plausible, &token, "from=plausible&name=Plausible%20export.zip", plausible_zip()).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert_eq!((report.json["pageviews"].as_i64(), report.json["visits"].as_i64()), (Some(180), Some(85)));
    assert_eq!(report.json["fileName"], "Plausible export.zip");
    assert_eq!(pageviews(&server, plausible, &token).await, 180);
    // The same file again would count its days twice: 409 with the earlier import named.
    let again = upload(&server, plausible, &token, "from=plausible", plausible_zip()).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert!(again.error_message().contains("Plausible export.zip"), "{}", again.text);

    let (umami, token) = site(&server, "upload-umami@example.com").await;
    let csv = std::fs::read(recent_copy("umami-events.csv", tmp.path())).unwrap();
    let report = upload(&server, umami, &token, "from=umami&name=events.csv", csv).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    let expected = report.json["pageviews"].as_i64().unwrap();
    assert!(expected > 0 && report.json["rows"].as_u64() > Some(0), "{}", report.text);
    assert_eq!(pageviews(&server, umami, &token).await, expected);

    let (goat, token) = site(&server, "upload-goat@example.com").await;
    let gz = gzip(&std::fs::read(recent_copy("goatcounter-export.csv", tmp.path())).unwrap());
    let report = upload(&server, goat, &token, "from=goatcounter&name=export.csv.gz", gz).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert!(report.json["ignored"].as_u64() > Some(0), "the export's bots are left out: {}", report.text);
    assert_eq!(pageviews(&server, goat, &token).await, report.json["pageviews"].as_i64().unwrap());
    // Nothing of the uploads is left in the data folder.
    let left: Vec<_> = std::fs::read_dir(server.dir.path().join("data"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.starts_with("import-upload-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    server.stop().await;
}

#[tokio::test]
async fn too_large_bad_files_and_other_users_sites_are_refused() {
    let server = TestServer::start_with(|c| c.import_max_bytes = 1_000).await;
    let (site_id, token) = site(&server, "upload-refused@example.com").await;
    let big = vec![b'x'; 5_000];

    let announced = upload(&server, site_id, &token, "from=umami", big.clone()).await;
    assert_eq!(announced.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", announced.text);
    assert!(announced.error_message().contains("import_max_bytes"), "{}", announced.text);
    // Sent in chunks without a length: refused while reading.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = big.chunks(500).map(|c| Ok(c.to_vec())).collect();
    let streamed = server
        .client
        .post(server.url(&format!("/api/websites/{site_id}/imports?from=umami")))
        .bearer_auth(&token)
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(chunks)))
        .send()
        .await
        .expect("request");
    let streamed = answer(streamed).await;
    assert_eq!(streamed.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", streamed.text);

    let goatcounter_csv = "2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,\
                           Screen size,Location,FirstVisit,Date\n/,Home,false,,Chrome 120,Windows 10,a-1,0,,,,DE,true,\
                           2025-03-01T10:00:00Z\n";
    let wrong_tool = upload(&server, site_id, &token, "from=umami", goatcounter_csv.into()).await;
    assert_eq!(wrong_tool.status, StatusCode::BAD_REQUEST, "{}", wrong_tool.text);
    assert!(wrong_tool.error_message().contains("is not a Umami export: missing column"), "{}", wrong_tool.text);
    let no_tool = upload(&server, site_id, &token, "from=matomo", goatcounter_csv.into()).await;
    assert_eq!(no_tool.status, StatusCode::BAD_REQUEST, "{}", no_tool.text);
    let empty = upload(&server, site_id, &token, "from=goatcounter", Vec::new()).await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST, "{}", empty.text);

    let (other_token, _) = server.register("upload-other@example.com").await;
    let theirs = upload(&server, site_id, &other_token, "from=goatcounter", goatcounter_csv.into()).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.text);
    assert!(server.tracker.imports.list(site_id).unwrap().is_empty());
    let none = upload(&server, 999_999, &token, "from=goatcounter", goatcounter_csv.into()).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND, "{}", none.text);
    assert!(!none.error_message().is_empty());
    server.stop().await;
}

/// `member` gzipped `count` times over, as one file: gzip's members are read one after another, so the file
/// expands to `count` times the member's size while being `count` times its (tiny) compressed size.
fn gzip_members(first: &[u8], member: &[u8], count: usize) -> Vec<u8> {
    let one = gzip(member);
    let mut file = gzip(first);
    for _ in 0..count {
        file.extend_from_slice(&one);
    }
    file
}

/// The bound a bomb's refusal names, in MiB.
fn bound_mib(message: &str) -> u64 {
    let after = message.split("expands to more than ").nth(1).unwrap_or_else(|| panic!("{message}"));
    after.split(" MiB").next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{message}"))
}

/// A compressed bomb (a small upload expanding to gigabytes) is refused with a 413 saying so, once what it
/// expanded to passes a bound of its size, not after the whole expansion has been read. The bombs expand to
/// empty lines, which the CSV reader skips without holding them, so that the unbounded reading they test
/// against costs time, not this machine's memory. Real exports compress 5 to 30 times.
#[tokio::test]
async fn compressed_bombs_are_refused_before_they_expand_past_a_bound() {
    let server = TestServer::start().await;
    let (site_id, token) = site(&server, "upload-bomb@example.com").await;
    let header = "2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,\
                  Location,FirstVisit,Date\n";
    // 1 GiB of empty lines in about 1 MB of gzip.
    let lines = vec![b'\n'; 8 << 20];
    let gz = gzip_members(header.as_bytes(), &lines, 128);
    assert!(gz.len() < 2 << 20, "{}", gz.len());
    // Refused at the bound (200 times the gzip's size, as the message says), not after the gigabyte: before
    // the bound, this request outlived the client's timeout while the daemon read on.
    let refused = upload(&server, site_id, &token, "from=goatcounter&name=export.csv.gz", gz).await;
    assert_eq!(refused.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", refused.text);
    assert!(bound_mib(&refused.error_message()) < 1024, "{}", refused.text);

    // Plausible's zip with a table that deflates 1024 to 1.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("imported_visitors_20250101_20250131.csv", options).unwrap();
    zip.write_all(b"date,visitors,pageviews,bounces,visits,visit_duration\n").unwrap();
    for _ in 0..8 {
        zip.write_all(&lines).unwrap();
    }
    let zip = zip.finish().unwrap().into_inner();
    assert!(zip.len() < 1 << 20, "{}", zip.len());
    let refused = upload(&server, site_id, &token, "from=plausible&name=export.zip", zip).await;
    assert_eq!(refused.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", refused.text);
    assert!(bound_mib(&refused.error_message()) < 1024, "{}", refused.text);
    assert!(server.tracker.imports.list(site_id).unwrap().is_empty(), "nothing imported");
    server.stop().await;
}

/// GoatCounter's `UserAgent` column (the header, in exports of GoatCounter versions that stored it; blank
/// since) is read by tracker's own user-agent parser, so an imported visit's browser, system and device class
/// are what a tracked hit of that browser gets: a Samsung tablet is a tablet, where its `System` column
/// ("Android 13") alone makes it a phone. A row without one keeps its `Browser` and `System` columns.
#[tokio::test]
async fn goatcounter_user_agents_are_parsed_as_tracked_ones() {
    let server = TestServer::start().await;
    let (site_id, token) = site(&server, "upload-agents@example.com").await;
    let tablet = "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) \
                  SamsungBrowser/23.0 Chrome/115.0.0.0 Safari/537.36";
    let day = chrono::Utc::now().date_naive() - chrono::Days::new(1);
    let csv = format!(
        "2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,Location,\
         FirstVisit,Date\n\
         /,Home,false,\"{tablet}\",Samsung Internet 23,Android 13,a-1,0,,,\"1920,1200,2\",DE,true,{day}T10:00:00Z\n\
         /,Home,false,,Firefox 133,Linux,a-2,0,,,\"1920,1080,1\",DE,true,{day}T11:00:00Z\n"
    );
    let report = upload(&server, site_id, &token, "from=goatcounter&name=export.csv", csv.into_bytes()).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    let tracked = tracker_core::ingest::enrich::Enricher::new().unwrap().user_agent(tablet);
    assert_eq!(
        (tracked.browser.as_str(), tracked.os.as_str(), tracked.device.as_str()),
        ("Samsung Internet", "Android", "tablet")
    );
    let visits: Vec<(String, String, String)> = server
        .tracker
        .db()
        .read(|c| {
            let mut stmt =
                c.prepare("SELECT browser, os, device FROM sessions WHERE website_id = ?1 ORDER BY first_seen")?;
            let rows = stmt.query_map([site_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .unwrap();
    let expected = [("Samsung Internet", "Android", "tablet"), ("Firefox", "Linux", "desktop")]
        .map(|(b, o, d)| (b.to_string(), o.to_string(), d.to_string()));
    assert_eq!(visits, expected);
    server.stop().await;
}
