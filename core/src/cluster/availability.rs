//! What a daemon in cluster mode serves: the one list of API routes whose storage is PostgreSQL and ClickHouse
//! (every route of the API today). A route added without its cluster path answers 503 "... is not available in
//! cluster mode yet" rather than reading or writing the daemon's own SQLite, which no other daemon sees.

/// Routes served in cluster mode, as (method, path pattern); `*` matches one path segment.
const AVAILABLE: &[(&str, &str)] = &[
    ("POST", "/api/track"),
    ("POST", "/api/interactions"),
    ("POST", "/api/replay"),
    ("GET", "/api/websites/*/session-replays"),
    ("GET", "/api/websites/*/session-replays/stats"),
    ("GET", "/api/replays/*"),
    ("GET", "/api/replays/*/events"),
    ("GET", "/api/track/config"),
    ("POST", "/api/register"),
    ("GET", "/api/registration"),
    ("POST", "/api/login"),
    ("POST", "/api/logout"),
    ("POST", "/api/refresh"),
    ("GET", "/api/user"),
    ("GET", "/api/user/settings"),
    ("PUT", "/api/user/profile"),
    ("PUT", "/api/user/notifications"),
    ("PUT", "/api/user/security"),
    ("PUT", "/api/user/password"),
    ("PUT", "/api/user/email"),
    ("POST", "/api/user/email/verification"),
    ("POST", "/api/user/email/verify"),
    ("GET", "/api/user/export"),
    ("POST", "/api/user/two-factor/setup"),
    ("POST", "/api/user/two-factor/enable"),
    ("POST", "/api/user/two-factor/disable"),
    ("DELETE", "/api/user/account"),
    ("GET", "/api/websites"),
    ("POST", "/api/websites"),
    ("GET", "/api/websites/*"),
    ("PUT", "/api/websites/*"),
    ("DELETE", "/api/websites/*"),
    ("GET", "/api/websites/*/event-definitions"),
    ("POST", "/api/websites/*/event-definitions"),
    ("PUT", "/api/websites/*/event-definitions/*"),
    ("DELETE", "/api/websites/*/event-definitions/*"),
    ("GET", "/api/dashboard/overview"),
    ("GET", "/api/dashboard/timeseries"),
    ("GET", "/api/dashboard/recent-activity"),
    ("GET", "/api/dashboard/sites"),
    ("GET", "/api/websites/*/referrers"),
    ("GET", "/api/websites/*/traffic-sources"),
    ("GET", "/api/websites/*/breakdown/*"),
    ("GET", "/api/websites/*/countries"),
    ("GET", "/api/websites/*/conversions"),
    ("GET", "/api/websites/*/events/summary"),
    ("GET", "/api/websites/*/organizations"),
    ("PUT", "/api/websites/*/organizations/*"),
    ("GET", "/api/websites/*/identified-visitors"),
    ("GET", "/api/analytics/urls"),
    ("GET", "/api/analytics/heatmap"),
    ("GET", "/api/analytics/heatmap/page"),
    ("POST", "/api/dashboard/live/ticket"),
    ("GET", "/api/dashboard/live"),
    ("GET", "/api/analytics/live-visitors"),
    ("GET", "/api/analytics/sessions/*"),
    ("GET", "/api/analytics/journeys"),
    ("GET", "/api/analytics/customer-journeys"),
    ("GET", "/api/analytics/advanced"),
    ("GET", "/api/analytics/ai-intent"),
    ("GET", "/api/analytics/sessions/*/journey"),
    ("GET", "/api/privacy/settings"),
    ("PUT", "/api/privacy/settings"),
    ("GET", "/api/privacy/retention"),
    ("PUT", "/api/privacy/retention"),
    ("GET", "/api/privacy/consent-logs"),
    ("GET", "/api/privacy/visitor-data"),
    ("POST", "/api/privacy/delete-visitor"),
    ("POST", "/api/privacy/delete-data"),
    ("GET", "/api/privacy/export-data"),
    ("GET", "/api/websites/*/export"),
    ("GET", "/api/export/*"),
    // Every audited action is written to it in cluster mode.
    ("GET", "/api/privacy/audit-logs"),
    ("GET", "/api/funnels"),
    ("POST", "/api/funnels"),
    ("GET", "/api/funnels/*"),
    ("PUT", "/api/funnels/*"),
    ("DELETE", "/api/funnels/*"),
    ("GET", "/api/funnels/*/drop-offs"),
    ("GET", "/api/openapi.json"),
];

/// The features of a route not on the list, by path prefix, first match wins: what the 503 names.
const UNAVAILABLE: &[(&str, &str)] = &[
    ("/api/websites/*/", "this report"),
    ("/api/analytics/", "this report"),
    ("/api/dashboard/", "this report"),
    ("/api/privacy/", "this privacy request"),
];

/// The feature a request names when cluster mode does not serve it yet, `None` when it is served (or is not an
/// API route at all, which answers as it would anyway). HEAD is taken as GET, and CORS preflights pass.
pub fn unavailable_feature(method: &str, path: &str) -> Option<&'static str> {
    let method = if method == "HEAD" { "GET" } else { method };
    if method == "OPTIONS" || !path.starts_with("/api/") {
        return None;
    }
    let path = path.trim_end_matches('/');
    if AVAILABLE.iter().any(|(m, pattern)| *m == method && matches(pattern, path, false)) {
        return None;
    }
    UNAVAILABLE.iter().find(|(prefix, _)| matches(prefix, path, true)).map(|(_, feature)| *feature)
}

/// Whether `path` matches `pattern` segment by segment (`*` is any one segment); with `prefix`, `path` may go
/// on past the pattern, and a pattern ending in `/` needs at least one more segment.
fn matches(pattern: &str, path: &str, prefix: bool) -> bool {
    let needs_more = pattern.ends_with('/');
    let pattern: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    let path: Vec<&str> = path.split('/').collect();
    if path.len() < pattern.len()
        || (!prefix && path.len() != pattern.len())
        || (needs_more && path.len() == pattern.len())
    {
        return false;
    }
    pattern.iter().zip(&path).all(|(p, s)| *p == "*" || p == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moved_routes_are_served_and_the_rest_are_named() {
        for (method, path) in [
            ("POST", "/api/track"),
            ("POST", "/api/login"),
            ("GET", "/api/websites"),
            ("HEAD", "/api/websites/12"),
            ("PUT", "/api/websites/12"),
            ("DELETE", "/api/websites/12"),
            ("DELETE", "/api/user/account"),
            ("PUT", "/api/user/email"),
            ("POST", "/api/user/email/verification"),
            ("POST", "/api/user/email/verify"),
            ("GET", "/api/user/export"),
            ("DELETE", "/api/websites/12/event-definitions/3"),
            ("GET", "/api/dashboard/overview"),
            ("GET", "/api/dashboard/timeseries"),
            ("GET", "/api/dashboard/recent-activity"),
            ("GET", "/api/dashboard/sites"),
            ("GET", "/api/websites/12/referrers"),
            ("GET", "/api/websites/12/traffic-sources"),
            ("GET", "/api/websites/12/breakdown/browser"),
            ("GET", "/api/websites/12/countries"),
            ("GET", "/api/websites/12/conversions"),
            ("GET", "/api/websites/12/events/summary"),
            ("GET", "/api/websites/12/organizations"),
            ("PUT", "/api/websites/12/organizations/7"),
            ("GET", "/api/websites/12/identified-visitors"),
            ("GET", "/api/analytics/urls"),
            ("GET", "/api/analytics/heatmap"),
            ("GET", "/api/analytics/heatmap/page"),
            ("POST", "/api/dashboard/live/ticket"),
            ("GET", "/api/dashboard/live"),
            ("GET", "/api/analytics/live-visitors"),
            ("GET", "/api/analytics/sessions/5"),
            ("GET", "/api/analytics/journeys"),
            ("GET", "/api/analytics/customer-journeys"),
            ("GET", "/api/analytics/advanced"),
            ("GET", "/api/analytics/ai-intent"),
            ("GET", "/api/analytics/sessions/5/journey"),
            ("GET", "/api/privacy/settings"),
            ("PUT", "/api/privacy/settings"),
            ("GET", "/api/privacy/audit-logs"),
            ("GET", "/api/privacy/retention"),
            ("PUT", "/api/privacy/retention"),
            ("GET", "/api/privacy/consent-logs"),
            ("GET", "/api/funnels"),
            ("POST", "/api/funnels"),
            ("PUT", "/api/funnels/4"),
            ("DELETE", "/api/funnels/4"),
            ("GET", "/api/funnels/4/drop-offs"),
            ("GET", "/api/privacy/visitor-data"),
            ("POST", "/api/privacy/delete-visitor"),
            ("POST", "/api/privacy/delete-data"),
            ("GET", "/api/privacy/export-data"),
            ("GET", "/api/websites/12/export"),
            ("GET", "/api/export/pageviews"),
            ("GET", "/api/export/touches"),
            ("POST", "/api/interactions"),
            ("POST", "/api/replay"),
            ("GET", "/api/websites/12/session-replays"),
            ("GET", "/api/websites/12/session-replays/stats"),
            ("GET", "/api/replays/3"),
            ("GET", "/api/replays/3/events"),
            ("GET", "/health"),
            ("OPTIONS", "/api/funnels"),
        ] {
            assert_eq!(unavailable_feature(method, path), None, "{method} {path}");
        }
        for (method, path, feature) in [
            ("GET", "/api/websites/12/breakdown", "this report"),
            ("GET", "/api/dashboard/journeys", "this report"),
            ("POST", "/api/privacy/retention", "this privacy request"),
            ("GET", "/api/privacy/delete-visitor", "this privacy request"),
        ] {
            assert_eq!(unavailable_feature(method, path), Some(feature), "{method} {path}");
        }
    }
}
