//! No input makes a handler fail with a 5xx or a non-JSON error: garbage ids, queries and bodies on every
//! route of the API, with and without a valid token.

use reqwest::Method;

use crate::cluster::{Corner, harness};
use crate::util::{BROWSER_UA, TestServer};

/// Operations of the contract the sweep leaves out, with why.
const SKIPPED: &[(&str, &str)] = &[
    // A valid id and token open a stream that never ends; its refusals are tested in dashboard.rs.
    ("GET", "/api/dashboard/live"),
];

/// Every operation of the API contract (GET /api/openapi.json, built from the route annotations) plus the
/// per-site tracking script: `{id}` where a website id goes (path ids and `website_id`), `{q}` for every other
/// path and query parameter. A route missing from the contract fails `contract::every_route_is_in_the_contract`.
pub(crate) fn routes() -> Vec<(String, String)> {
    let document = serde_json::to_value(tracker_daemon::openapi()).expect("the document serialises");
    let mut routes = vec![("GET".to_string(), "/tracking/{q}.js".to_string())];
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("operations") {
            let method = method.to_uppercase();
            if SKIPPED.contains(&(method.as_str(), path.as_str())) {
                continue;
            }
            let mut route = path.clone();
            let mut query = Vec::new();
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = parameter["name"].as_str().expect("parameter name");
                let value = if name == "id" || name == "website_id" { "{id}" } else { "{q}" };
                match parameter["in"].as_str() {
                    Some("path") => route = route.replace(&format!("{{{name}}}"), value),
                    _ => query.push(format!("{name}={value}")),
                }
            }
            if !query.is_empty() {
                route = format!("{route}?{}", query.join("&"));
            }
            routes.push((method, route));
        }
    }
    routes
}

const IDS: &[&str] = &["-1", "0", "99999999999999999999", "abc", "%00", "1.5", "%27%20OR%201%3D1"];
const QUERIES: &[&str] = &[
    "",
    "7d",
    "-1",
    "%FF%FE",
    "1%27--",
    "99999999999",
    "csv",
    "json",
    "%00",
    // A filter that is JSON but not a filter.
    "%5B%5B%22or%22%2C%5B%5B%22is%22%5D%5D%5D%5D",
];
const BODIES: &[&str] =
    &["", "{", "null", "[]", "\"x\"", "{\"email\":[1]}", "{\"name\":{},\"domain\":7}", "{\"tracking_key\":null}"];

#[tokio::test]
async fn garbage_never_causes_a_5xx() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Robust", "professional").await;
    let own = site["id"].to_string();
    let mut checked = 0;
    let routes = routes();
    assert!(routes.len() > 40, "the contract lists the API's operations");
    for (method, route) in &routes {
        let method: Method = method.parse().unwrap();
        // A DELETE with the site's own id is a valid request that deletes it; only garbage ids there.
        let own_id = (method != Method::DELETE).then_some(own.as_str());
        for id in IDS.iter().copied().chain(own_id) {
            for (q, body) in QUERIES.iter().zip(BODIES.iter().cycle()) {
                let path = route.replace("{id}", id).replace("{q}", q);
                for auth in [Some(token.as_str()), None] {
                    let mut request =
                        server.client.request(method.clone(), server.url(&path)).header("user-agent", BROWSER_UA);
                    if let Some(token) = auth {
                        request = request.bearer_auth(token);
                    }
                    let response = request.body(body.to_string()).send().await.expect("the server answers");
                    let status = response.status();
                    let answer = crate::util::answer(response).await;
                    assert!(status.as_u16() < 500, "{method} {path} body {body:?}: {status} {}", answer.text);
                    let is_script = path.starts_with("/tracking/") && status.is_success();
                    let is_export = path.contains("/export") && status.is_success();
                    if !status.is_success() {
                        answer.error_message();
                    } else if !is_script && !is_export && status.as_u16() != 204 {
                        assert!(!answer.json.is_null(), "{method} {path}: a JSON body, got {}", answer.text);
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000);
    // Whatever was thrown at it, the account and its site are intact.
    let list = server.get("/api/websites", &token).await;
    assert_eq!(list.json.as_array().map(Vec::len), Some(1), "{}", list.text);
}

/// Requests the chaos benchmark sends that name no operation of the API: a path past a route's end, an
/// unknown report, a route's path with another method. `{id}` is the caller's own site.
const NOT_OPERATIONS: &[(&str, &str)] = &[
    ("GET", "/api/websites/{id}/not-a-report"),
    ("GET", "/api/dashboard/overview/%ff?website_id={id}&range=7d"),
    ("GET", "/api/websites/{id}/organizations/extra/segments/here"),
    ("POST", "/api/websites/{id}/event-definitions/%ff"),
    ("GET", "/api/analytics/heatmap%00?website_id={id}"),
    ("GET", "/api/privacy/delete-visitor%2F..%2F..%2Fetc%2Fpasswd"),
    ("GET", "/api/dashboard/overview;jsessionid=chaos?website_id={id}&range=7d"),
    ("POST", "/api/dashboard/timeseries?website_id={id}&range=7d"),
    ("PUT", "/api/analytics/advanced?website_id={id}&time_range=7d"),
    ("DELETE", "/api/dashboard/recent-activity?website_id={id}"),
    ("PATCH", "/api/websites/{id}/countries?range=7d"),
    ("GET", "/api/no-such-route"),
];

/// Found by the chaos benchmark on a 2-daemon cluster (issue 33): cluster mode's guard answered 503 "this
/// report is not available in cluster mode yet" to any API path it did not list, where SQLite answers 404 or
/// 405 (437 of 8,000 hostile requests). A request that names no operation answers on the cluster what it
/// answers on SQLite, never a 5xx.
#[tokio::test]
async fn a_request_naming_no_operation_answers_on_the_cluster_as_on_sqlite() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (cluster, sqlite) = (corner.daemon().await, TestServer::start().await);
    let mut differ = Vec::new();
    let mut owners = Vec::new();
    for server in [&sqlite, &cluster] {
        let (token, _) = server.register("owner@example.com").await;
        let site = server.create_site(&token, "Robust", "professional").await;
        owners.push((token, site["id"].to_string()));
    }
    for (method, path) in NOT_OPERATIONS {
        let method: Method = method.parse().unwrap();
        let mut statuses = Vec::new();
        for (server, (token, id)) in [&sqlite, &cluster].into_iter().zip(&owners) {
            let response = server
                .client
                .request(method.clone(), server.url(&path.replace("{id}", id)))
                .header("user-agent", BROWSER_UA)
                .bearer_auth(token)
                .send()
                .await
                .expect("the server answers");
            let status = response.status();
            let answer = crate::util::answer(response).await;
            answer.error_message();
            statuses.push((status, answer.text));
        }
        if statuses[0].0 != statuses[1].0 || statuses[1].0.is_server_error() {
            differ.push(format!("{method} {path}: SQLite {:?}, cluster {:?}", statuses[0], statuses[1]));
        }
    }
    assert!(differ.is_empty(), "{differ:#?}");
}
