//! No input makes a handler fail with a 5xx or a non-JSON error: garbage ids, queries and bodies on every
//! route of the API, with and without a valid token.

use reqwest::Method;

use crate::util::{BROWSER_UA, TestServer};

/// Paths with `{id}` where a website id goes; the test substitutes valid, foreign and garbage ids.
const ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/register"),
    ("POST", "/api/login"),
    ("POST", "/api/refresh"),
    ("GET", "/api/user"),
    ("PUT", "/api/user/password"),
    ("GET", "/api/websites"),
    ("POST", "/api/websites"),
    ("GET", "/api/websites/{id}"),
    ("PUT", "/api/websites/{id}"),
    ("DELETE", "/api/websites/{id}"),
    ("GET", "/api/dashboard/overview?website_id={id}&range={q}"),
    ("GET", "/api/dashboard/timeseries?website_id={id}&range={q}"),
    ("GET", "/api/dashboard/recent-activity?website_id={id}&limit={q}"),
    ("GET", "/api/dashboard/sites?metric={q}"),
    ("GET", "/api/websites/{id}/referrers?range={q}"),
    ("GET", "/api/websites/{id}/countries?range={q}"),
    ("GET", "/api/websites/{id}/conversions?range={q}"),
    ("GET", "/api/websites/{id}/identified-visitors"),
    ("GET", "/api/websites/{id}/traffic-sources?range={q}"),
    ("GET", "/api/websites/{id}/export?format={q}"),
    ("POST", "/api/track"),
    ("GET", "/api/track/config?tracking_key={q}"),
    ("GET", "/tracking/{q}.js"),
    ("GET", "/api/privacy/settings?website_id={id}"),
    ("PUT", "/api/privacy/settings"),
    ("GET", "/api/privacy/retention?website_id={id}"),
    ("PUT", "/api/privacy/retention"),
    ("GET", "/api/privacy/consent-logs?website_id={id}"),
    ("POST", "/api/interactions"),
    ("POST", "/api/replay?tracking_key={q}&session_id={q}&seq={q}"),
    ("GET", "/api/websites/{id}/session-replays?limit={q}&time_range={q}"),
    ("GET", "/api/replays/{id}/events"),
    ("GET", "/api/websites/{id}/session-replays?limit=100&filter={q}&range={q}"),
    ("GET", "/api/websites/{id}/event-definitions"),
    ("POST", "/api/websites/{id}/event-definitions"),
    ("GET", "/api/websites/{id}/events/summary?timeRange={q}"),
    ("GET", "/api/websites/{id}/organizations"),
    ("GET", "/api/analytics/urls?website_id={id}"),
    ("GET", "/api/analytics/heatmap?website_id={id}&url={q}&time_range={q}"),
    ("GET", "/api/export/pageviews?website_id={id}"),
    ("GET", "/api/export/{q}?website_id={id}"),
    ("POST", "/api/privacy/delete-data"),
    ("GET", "/api/analytics/advanced?website_id={id}&time_range={q}"),
    ("GET", "/api/analytics/ai-intent?website_id={id}&time_range={q}&refit={q}"),
    ("PUT", "/api/websites/{id}/event-definitions/{q}"),
    ("DELETE", "/api/websites/{id}/event-definitions/{q}"),
    ("PUT", "/api/websites/{id}/organizations/{q}"),
    ("GET", "/api/export/events?website_id={id}&range={q}&format={q}"),
    ("GET", "/api/funnels?website_id={id}&range={q}"),
    ("POST", "/api/funnels"),
    ("GET", "/api/funnels/{id}?range={q}"),
    ("PUT", "/api/funnels/{id}"),
    ("DELETE", "/api/funnels/{id}"),
    ("GET", "/api/analytics/customer-journeys?website_id={id}&period={q}&filter={q}"),
    ("GET", "/api/analytics/journeys?website_id={id}&period={q}"),
    ("GET", "/api/analytics/live-visitors?website_id={id}"),
    ("GET", "/api/analytics/live-visitors?website_id={q}"),
    ("GET", "/api/analytics/sessions/{id}/journey?website_id={q}"),
    ("GET", "/api/analytics/sessions/{q}/journey?website_id={id}"),
    ("GET", "/api/user/settings"),
    ("PUT", "/api/user/profile"),
    ("PUT", "/api/user/notifications"),
    ("PUT", "/api/user/security"),
    ("PUT", "/api/user/email"),
    ("GET", "/api/user/export"),
    ("POST", "/api/user/two-factor/setup"),
    ("POST", "/api/user/two-factor/enable"),
    ("POST", "/api/user/two-factor/disable"),
    ("GET", "/api/privacy/export-data?website_id={id}&data_type={q}"),
    ("GET", "/api/privacy/audit-logs?website_id={id}&offset={q}&limit={q}"),
    ("GET", "/api/privacy/consent-logs?website_id={id}&offset={q}&limit={q}"),
    ("GET", "/api/privacy/visitor-data?website_id={id}&visitor_id={q}"),
    ("POST", "/api/privacy/delete-visitor"),
];

const IDS: &[&str] = &["-1", "0", "99999999999999999999", "abc", "%00", "1.5", "%27%20OR%201%3D1"];
const QUERIES: &[&str] = &["", "7d", "-1", "%FF%FE", "1%27--", "99999999999", "csv", "json", "%00"];
const BODIES: &[&str] =
    &["", "{", "null", "[]", "\"x\"", "{\"email\":[1]}", "{\"name\":{},\"domain\":7}", "{\"tracking_key\":null}"];

#[tokio::test]
async fn garbage_never_causes_a_5xx() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Robust", "professional").await;
    let own = site["id"].to_string();
    let mut checked = 0;
    for (method, route) in ROUTES {
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
