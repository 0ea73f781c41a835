//! The API contract covers every route: each path pattern written in daemon/src/routes/*.rs (and each path
//! of the document) is tried with every method against the real daemon, and every (method, path) that the
//! daemon routes must be an operation of GET /api/openapi.json. A route built in a way the scan does not
//! read fails the test too, so a route cannot slip past it.

use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::util::TestServer;

const METHODS: &[Method] = &[Method::GET, Method::POST, Method::PUT, Method::PATCH, Method::DELETE];

/// Routes the daemon serves outside the JSON API on purpose (scripts and the dashboard), as the scan sees them.
const NOT_API: &[&str] = &["/api/tracking/{}", "/api/tracking.js", "/api/tracer.js"];

/// The path patterns written in the route files: `warp::path!(...)` arguments after the file's
/// `warp::path("...")` prefix, with every non-literal segment as `{}`. Panics on a `warp::path` it cannot read.
fn source_patterns() -> BTreeSet<String> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../daemon/src/routes");
    let mut patterns = BTreeSet::new();
    for entry in std::fs::read_dir(folder).expect("daemon/src/routes") {
        let path = entry.expect("a route file").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "mod.rs" || !name.ends_with(".rs") {
            continue; // mod.rs adds the `/api` prefix and holds no route of its own
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let mut prefix = String::new();
        let mut understood = 0;
        for (at, _) in source.match_indices("warp::path(\"") {
            let rest = &source[at + "warp::path(\"".len()..];
            prefix = format!("/{}", &rest[..rest.find('"').unwrap()]);
            understood += 1;
        }
        for (at, _) in source.match_indices("warp::path!(") {
            let rest = &source[at + "warp::path!(".len()..];
            let args = &rest[..rest.find(')').unwrap()];
            let segments: Vec<String> = args
                .split('/')
                .map(|s| s.trim())
                .map(|s| if s.starts_with('"') { s.trim_matches('"').to_string() } else { "{}".to_string() })
                .collect();
            patterns.insert(format!("/api{prefix}/{}", segments.join("/")));
            understood += 1;
        }
        let written = source.matches("warp::path").count() - source.matches("warp::path::").count();
        assert_eq!(
            written, understood,
            "{name}: a route path written other than as warp::path!(...) or a warp::path(\"prefix\"); \
             write it as warp::path!(...) so this test (and the contract) can see it"
        );
    }
    patterns
}

#[tokio::test]
async fn every_route_is_in_the_contract() {
    let server = TestServer::start().await;
    let (token, _) = server.register("contract@example.com").await;
    let site = server.create_site(&token, "Contract", "professional").await;
    let id = site["id"].to_string();
    let document = server.client.get(server.url("/api/openapi.json")).send().await.unwrap();
    assert_eq!(document.status(), StatusCode::OK);
    let document: Value = document.json().await.unwrap();
    let mut documented = BTreeSet::new();
    let mut patterns = source_patterns();
    for (path, item) in document["paths"].as_object().expect("paths") {
        let pattern = path.split('/').map(|s| if s.starts_with('{') { "{}" } else { s }).collect::<Vec<_>>().join("/");
        for method in item.as_object().unwrap().keys() {
            documented.insert((method.to_uppercase(), pattern.clone()));
        }
        patterns.insert(pattern);
    }
    assert!(patterns.len() > 35, "the scan found the route files: {patterns:?}");
    let mut missing = Vec::new();
    for pattern in patterns.iter().filter(|p| !NOT_API.contains(&p.as_str())) {
        let path = pattern.replace("{}", &id);
        for method in METHODS {
            // No body and no content type: a route that exists answers (400, 401, 404 for the id, 415, ...)
            // before it changes anything; one that does not is warp's bare "not found" or a 405.
            let response =
                server.client.request(method.clone(), server.url(&path)).bearer_auth(&token).send().await.unwrap();
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            let routed = status != StatusCode::METHOD_NOT_ALLOWED
                && !(status == StatusCode::NOT_FOUND && body["error"]["message"] == "not found");
            if routed && !documented.contains(&(method.to_string(), pattern.clone())) {
                missing.push(format!("{method} {pattern} ({status})"));
            }
        }
    }
    assert!(missing.is_empty(), "routes the daemon serves but GET /api/openapi.json does not list: {missing:?}");
}
