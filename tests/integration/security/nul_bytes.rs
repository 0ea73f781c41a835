//! Finding 7 of issue 33: a NUL byte was a 500 on the cluster (PostgreSQL refuses U+0000 in text), from the
//! unauthenticated /api/track and /api/login too, logged as a bare "db error". Control characters are now
//! refused at validation with a 400 and the JSON error, on SQLite and on the cluster alike. Each string of a
//! valid body of every call that stores what it is given is laced in turn with NUL, then with ESC.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::cluster::{Corner, harness};
use crate::util::{Answer, BROWSER_UA, TestServer, answer};

/// Fields whose value is parsed rather than stored as sent: a URL's NUL or ESC is percent-encoded by the
/// parser (`%00`), so the call may succeed without a control character reaching storage.
const PARSED: &[&str] = &["url", "referrer", "privacyPolicyUrl"];

/// A valid body of each call that stores its strings: (method, path, signed in, body).
fn examples(site: &Value) -> Vec<(Method, String, bool, Value)> {
    let id = site["id"].as_i64().unwrap();
    let key = site["trackingKey"].as_str().unwrap();
    vec![
        (Method::POST, "/api/login".into(), false, json!({"email": "owner@example.com", "password": "secret1"})),
        (Method::POST, "/api/register".into(), false, json!({"email": "new@example.com", "password": "secret1"})),
        (
            Method::POST,
            "/api/track".into(),
            false,
            json!({"tracking_key": key, "session_id": "visitor-0001", "url": "https://robust.example.com/a",
                "referrer": "https://ref.example.com/", "event": "custom", "event_name": "signup",
                "screen": "1920x1080", "event_properties": {"plan": "pro"}}),
        ),
        (Method::POST, "/api/websites".into(), true, json!({"name": "Laced", "domain": "laced.example.com"})),
        (Method::PUT, format!("/api/websites/{id}"), true, json!({"name": "Renamed", "domain": "robust.example.com"})),
        (Method::PUT, "/api/user/profile".into(), true, json!({"name": "Ann", "company": "Acme", "timezone": "UTC"})),
        (
            Method::PUT,
            "/api/user/email".into(),
            true,
            json!({"newEmail": "moved@example.com", "currentPassword": "secret1"}),
        ),
        (
            Method::PUT,
            "/api/privacy/settings".into(),
            true,
            json!({"websiteId": id, "consentMessage": "We count visits.",
                "privacyPolicyUrl": "https://robust.example.com/privacy"}),
        ),
        (
            Method::POST,
            format!("/api/websites/{id}/event-definitions"),
            true,
            json!({"name": "signup", "displayName": "Sign up", "description": "A new account", "eventType": "custom"}),
        ),
        (
            Method::POST,
            "/api/funnels".into(),
            true,
            json!({"name": "Checkout", "websiteId": id,
                "steps": [{"name": "Cart", "url": "/cart"}, {"name": "Paid", "url": "/paid", "eventName": "paid"}]}),
        ),
        (
            Method::POST,
            "/api/privacy/delete-visitor".into(),
            true,
            json!({"websiteId": id, "visitorId": "visitor-0001"}),
        ),
    ]
}

/// Every copy of `body` with one string (at any depth, keys of objects included) laced with `bad`, and the
/// name of the field laced.
fn laced(body: &Value, bad: char) -> Vec<(String, Value)> {
    fn walk(value: &Value, bad: char, field: &str, out: &mut Vec<(String, Value)>, rebuild: &dyn Fn(Value) -> Value) {
        match value {
            Value::String(s) => out.push((field.to_string(), rebuild(Value::String(format!("{s}{bad}x"))))),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let rebuild_item = |new: Value| {
                        let mut copy = items.clone();
                        copy[i] = new;
                        rebuild(Value::Array(copy))
                    };
                    walk(item, bad, field, out, &rebuild_item);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let rebuild_item = |new: Value| {
                        let mut copy = map.clone();
                        copy.insert(key.clone(), new);
                        rebuild(Value::Object(copy))
                    };
                    walk(item, bad, key, out, &rebuild_item);
                }
                // A laced key (event properties' keys are stored as sent).
                if field == "event_properties" {
                    let mut copy = serde_json::Map::new();
                    for (key, item) in map {
                        copy.insert(format!("{key}{bad}x"), item.clone());
                    }
                    out.push((format!("{field} key"), rebuild(Value::Object(copy))));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(body, bad, "", &mut out, &|v| v);
    out
}

async fn send(server: &TestServer, method: &Method, path: &str, token: Option<&str>, body: &Value) -> Answer {
    if path == "/api/track" {
        let response = server
            .client
            .post(server.url(path))
            .header("user-agent", BROWSER_UA)
            .header("content-type", "text/plain")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        return answer(response).await;
    }
    server.call(method.clone(), path, token, Some(body.clone())).await
}

/// Sends every laced body; answers what went wrong, one line per call (empty when all were refused well).
async fn sweep(server: &TestServer) -> Vec<String> {
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Robust", "professional").await;
    let mut wrong = Vec::new();
    let mut sent = 0;
    for (method, path, signed_in, body) in examples(&site) {
        for bad in ['\u{0}', '\u{1b}'] {
            for (field, laced) in laced(&body, bad) {
                let answer = send(server, &method, &path, signed_in.then_some(token.as_str()), &laced).await;
                sent += 1;
                let what = format!("{method} {path} with {:?} in {field}: {} {}", bad, answer.status, answer.text);
                if answer.status.is_server_error() {
                    wrong.push(what);
                } else if answer.status.is_client_error() {
                    if answer.json["error"]["message"].as_str().is_none_or(str::is_empty) {
                        wrong.push(format!("{what} (not a JSON error)"));
                    }
                } else if !PARSED.contains(&field.as_str()) {
                    wrong.push(format!("{what} (accepted)"));
                }
            }
        }
    }
    assert!(sent > 60, "the sweep sent {sent} requests");
    // The daemon is still well after all that.
    assert_eq!(server.get("/api/websites", &token).await.status, StatusCode::OK);
    wrong
}

#[tokio::test]
async fn control_characters_are_refused_with_a_400_on_sqlite() {
    let server = TestServer::start().await;
    let wrong = sweep(&server).await;
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every operation of the contract with NUL (and ESC) in each path and query parameter, signed in, on the
/// cluster (the SQLite daemon gets `%00` from `robustness`); answers what went wrong.
async fn sweep_paths(server: &TestServer) -> Vec<String> {
    let (token, _) = server.register("paths@example.com").await;
    let site = server.create_site(&token, "Paths", "professional").await;
    let own = site["id"].to_string();
    let mut wrong = Vec::new();
    for (method, route) in crate::robustness::routes() {
        // Logging out with the bearer alone is valid and would end the sweep's own sign-in.
        if route == "/api/logout" {
            continue;
        }
        let method: Method = method.parse().unwrap();
        for q in ["a%00b", "a%1Bb"] {
            let id = if method == Method::DELETE { q } else { own.as_str() };
            let path = route.replace("{id}", id).replace("{q}", q);
            let response = server
                .client
                .request(method.clone(), server.url(&path))
                .header("user-agent", BROWSER_UA)
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            let answer = answer(response).await;
            if answer.status.is_server_error() {
                wrong.push(format!("{method} {path}: {} {}", answer.status, answer.text));
            }
        }
    }
    wrong
}

#[tokio::test]
async fn a_nul_byte_is_never_a_500_on_the_cluster() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let server = corner.daemon().await;
    let mut wrong = sweep(&server).await;
    wrong.extend(sweep_paths(&server).await);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
