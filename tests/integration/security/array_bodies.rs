//! Issue 36's loose end: serde reads a struct from a JSON array too (its fields by position), so `["a@b.c",
//! "secret1"]` registered an account and `["Shop", "shop.example.com"]` made a site. Every route taking a JSON
//! body refuses any body that is not an object, in the one body filter, with a 400 and the JSON error, and
//! nothing happens.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::util::{BROWSER_UA, TestServer};

fn refused(answer: &crate::util::Answer, what: &str) {
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{what}: {}", answer.text);
    let message = answer.json["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("JSON object"), "{what}: {}", answer.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_a_json_object_is_a_400_on_every_json_route() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string());

    // Bodies that would pass as objects, written as arrays of their fields in order.
    let signed_out: [(&str, Value); 2] = [
        ("/api/register", json!(["new@example.com", "secret1"])),
        ("/api/login", json!(["owner@example.com", "secret1"])),
    ];
    for (path, body) in signed_out {
        refused(&server.call(Method::POST, path, None, Some(body)).await, path);
    }
    let signed_in: [(Method, String, Value); 5] = [
        (Method::POST, "/api/websites".into(), json!(["Other", "other.example.com", "light"])),
        (Method::PUT, format!("/api/websites/{id}"), json!(["Renamed"])),
        (Method::POST, format!("/api/websites/{id}/segments"), json!(["Team", [["is", "visit:os", ["Linux"]]]])),
        (Method::POST, format!("/api/websites/{id}/annotations"), json!(["2026-11-20", "Release"])),
        (Method::POST, "/api/v2/query".into(), json!(["shop.example.com", ["visitors"], "7d"])),
    ];
    for (method, path, body) in signed_in {
        refused(&server.call(method.clone(), &path, Some(&token), Some(body)).await, &format!("{method} {path}"));
    }
    // Scalars, and arrays on the visitors' routes (sent as text/plain beacons).
    for body in [json!("x"), json!(1), json!(null), json!([])] {
        refused(&server.call(Method::POST, "/api/websites", Some(&token), Some(body.clone())).await, &body.to_string());
    }
    for (path, body) in [
        ("/api/track", json!([key, "session-0001", "https://shop.example.com/"])),
        ("/api/event", json!(["pageview", "https://shop.example.com/", "shop.example.com"])),
    ] {
        let sent = server.client.post(server.url(path)).header("user-agent", BROWSER_UA).body(body.to_string());
        refused(&crate::util::answer(sent.send().await.unwrap()).await, path);
    }

    // Nothing happened: no account, one site under its own name, no segment, no hit.
    let login = json!({"email": "new@example.com", "password": "secret1"});
    assert_eq!(server.call(Method::POST, "/api/login", None, Some(login)).await.status, StatusCode::UNAUTHORIZED);
    let sites = server.get("/api/websites", &token).await.json;
    let names: Vec<&str> = sites.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Shop"]);
    assert_eq!(server.get(&format!("/api/websites/{id}/segments"), &token).await.json, json!([]));
    let overview = server.get(&format!("/api/dashboard/overview?website_id={id}&range=7d"), &token).await.json;
    assert_eq!(overview["metrics"]["pageViews"], 0, "{overview}");
    // An object still passes, with whitespace before it.
    let spaced = server.client.post(server.url("/api/track")).header("user-agent", BROWSER_UA).body(format!(
        " \n{}",
        json!({"tracking_key": key, "session_id": "session-0001", "url": "https://shop.example.com/"})
    ));
    assert_eq!(spaced.send().await.unwrap().status(), StatusCode::ACCEPTED);
}
