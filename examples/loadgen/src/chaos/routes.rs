//! The route table of the hostile requests: every route of the daemon with a well-formed request to it.

/// How a route authenticates its caller.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Auth {
    /// Visitors' and public routes.
    Public,
    /// `Authorization: Bearer` of the owner of the seeded data.
    Owner,
    /// `Authorization: Bearer` of a sacrificial account: routes that may revoke the caller's tokens.
    Sacrificial,
    /// The access token in the query (`token=`), as the live stream takes it.
    Query,
}

/// The body of a route's well-formed request.
#[derive(Clone, Copy)]
pub(super) enum Body {
    None,
    /// JSON with placeholders (see `Seeded::fill`); ids stand unquoted so they can be replaced by any JSON value.
    Json(&'static str),
    /// A gzip of rrweb events (the replay upload).
    Replay,
}

/// One route of the daemon and a well-formed request to it; the hostile variants are derived from it.
pub(super) struct Route {
    pub(super) method: &'static str,
    /// With placeholders: `{site}` the owner's site with data, `{victim}` an owner's site that mutating routes
    /// may change or delete, `{replay}` the owner's recording, `{key}` the site's tracking key.
    pub(super) path: &'static str,
    pub(super) query: &'static str,
    pub(super) body: Body,
    pub(super) auth: Auth,
}

pub(super) const fn route(
    method: &'static str,
    path: &'static str,
    query: &'static str,
    body: Body,
    auth: Auth,
) -> Route {
    Route { method, path, query, body, auth }
}

const TRACK_BODY: &str = r#"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/chaos","referrer":"https://news.ycombinator.com/","screen":"1920x1080"}"#;
/// A custom event and an identify call: every other string a visitor sends (event name, property keys and
/// values, traits).
const TRACK_EVENT_BODY: &str = r#"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/buy","event":"custom","event_name":"chaos_event","event_properties":{"plan":"pro","seats":3}}"#;
const TRACK_IDENTIFY_BODY: &str = r#"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/","event":"identify","event_properties":{"company":"Acme Corp","industry":"Software","email":"a@acme.example"}}"#;
/// Plausible's script's short keys and Umami's script's body, naming the site by its tracking key.
const PLAUSIBLE_BODY: &str = r#"{"n":"Signup","u":"https://example.com/chaos","d":"{key}","r":"https://news.ycombinator.com/","p":{"plan":"pro"}}"#;
const UMAMI_BODY: &str = r#"{"type":"event","payload":{"website":"{key}","hostname":"example.com","url":"/chaos","screen":"1920x1080","name":"chaos_event","data":{"plan":"pro"}}}"#;
pub(super) const INTERACTIONS_BODY: &str = r##"{"tracking_key":"{key}","session_id":"chaos-session-{n}","url":"https://example.com/pricing","viewport":{"w":1280,"h":800},"page":{"w":1280,"h":3000},"clicks":[{"x":10,"y":20,"selector":"#buy"}],"moves":[{"x":5,"y":6}],"submits":[{"selector":"form#signup"}],"fields":[{"form":"form#signup","field":"#email","event":"focus","filled":false}],"scrollDepth":50}"##;

/// Every route of the daemon (daemon/src/routes/*.rs and daemon/API.md), each with a well-formed request.
/// This table should become the one route list issue 13 asks for, so that the router, API.md and this
/// benchmark cannot drift apart; until then a route added to the daemon must be added here by hand.
pub(super) const ROUTES: &[Route] = &[
    // Auth
    route("POST", "/api/register", "", Body::Json(r#"{"email":"{email}","password":"chaos-password"}"#), Auth::Public),
    route(
        "POST",
        "/api/login",
        "",
        Body::Json(r#"{"email":"owner@chaos.test","password":"wrong-password"}"#),
        Auth::Public,
    ),
    route("POST", "/api/refresh", "", Body::Json(r#"{"refreshToken":"{refresh}"}"#), Auth::Public),
    route("POST", "/api/logout", "", Body::Json(r#"{"refreshToken":"{refresh}"}"#), Auth::Sacrificial),
    route("GET", "/api/registration", "", Body::None, Auth::Public),
    route("POST", "/api/dashboard/live/ticket", "", Body::None, Auth::Owner),
    route("GET", "/api/user", "", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/user/password",
        "",
        Body::Json(r#"{"currentPassword":"wrong-password","newPassword":"chaos-new-password"}"#),
        Auth::Sacrificial,
    ),
    route("DELETE", "/api/user/account", "", Body::Json(r#"{"password":"wrong-password"}"#), Auth::Sacrificial),
    // Websites
    route("GET", "/api/websites", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites",
        "",
        Body::Json(r#"{"name":"Chaos","domain":"example.org","trackingLevel":"light"}"#),
        Auth::Owner,
    ),
    route("GET", "/api/websites/{site}", "", Body::None, Auth::Owner),
    route("PUT", "/api/websites/{victim}", "", Body::Json(r#"{"name":"Victim","domain":"example.net"}"#), Auth::Owner),
    route("DELETE", "/api/websites/{victim}", "", Body::None, Auth::Owner),
    // Visitors' routes and scripts
    route("GET", "/api/track/config", "tracking_key={key}", Body::None, Auth::Public),
    route("POST", "/api/track", "", Body::Json(TRACK_BODY), Auth::Public),
    route("POST", "/api/track", "", Body::Json(TRACK_EVENT_BODY), Auth::Public),
    route("POST", "/api/track", "", Body::Json(TRACK_IDENTIFY_BODY), Auth::Public),
    route("OPTIONS", "/api/track", "", Body::None, Auth::Public),
    route("POST", "/api/interactions", "", Body::Json(INTERACTIONS_BODY), Auth::Public),
    route("OPTIONS", "/api/interactions", "", Body::None, Auth::Public),
    // The other tools' endpoints (issue 38), naming the site by tracking key.
    route("POST", "/api/event", "", Body::Json(PLAUSIBLE_BODY), Auth::Public),
    route("OPTIONS", "/api/event", "", Body::None, Auth::Public),
    route("POST", "/api/send", "", Body::Json(UMAMI_BODY), Auth::Public),
    route("OPTIONS", "/api/send", "", Body::None, Auth::Public),
    route("GET", "/goatcounter/{key}/count", "p=%2Fchaos&r=&s=1920&q=&rnd={n}", Body::None, Auth::Public),
    route("POST", "/goatcounter/{key}/count", "p=chaos-event&e=true&rnd={n}", Body::None, Auth::Public),
    // An upload that is no export of the named tool: 400 with the importer's message (a victim's site: 404).
    route("POST", "/api/websites/{victim}/imports", "from=plausible", Body::Json(r#"{"not":"a file"}"#), Auth::Owner),
    route("POST", "/api/replay", "tracking_key={key}&session_id=chaos-replay&seq={n}", Body::Replay, Auth::Public),
    route("OPTIONS", "/api/replay", "", Body::None, Auth::Public),
    route("GET", "/tracking/{key}.js", "", Body::None, Auth::Public),
    route("GET", "/tracking.js", "", Body::None, Auth::Public),
    route("GET", "/tracer.js", "", Body::None, Auth::Public),
    route("GET", "/tracking/enhanced.js", "", Body::None, Auth::Public),
    // Dashboard reads
    route("GET", "/api/dashboard/overview", "website_id={site}&range=7d", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/live", "website_id={site}&token={token}", Body::None, Auth::Query),
    route("GET", "/api/websites/{site}/referrers", "range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/countries", "range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/breakdown/browser", "range=7d&limit=5", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/timeseries", "website_id={site}&range=7d", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/recent-activity", "website_id={site}&limit=10", Body::None, Auth::Owner),
    route("GET", "/api/dashboard/sites", "metric=pageviews", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/conversions", "range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/revenue/source", "range=7d&limit=5", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/identified-visitors", "", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/traffic-sources", "range=7d", Body::None, Auth::Owner),
    // Export
    route("GET", "/api/websites/{site}/export", "format=csv&range=7d&type=all", Body::None, Auth::Owner),
    route("GET", "/api/export/pageviews", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/export/events", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/export/events", "website_id={site}&range=7d&format=json", Body::None, Auth::Owner),
    // Privacy
    route("GET", "/api/privacy/settings", "website_id={site}", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/privacy/settings",
        "",
        Body::Json(
            r#"{"websiteId":{victim},"cookieConsent":false,"consentMessage":"We count visits.","privacyPolicyUrl":"https://example.com/privacy"}"#,
        ),
        Auth::Owner,
    ),
    route("GET", "/api/privacy/retention", "website_id={site}", Body::None, Auth::Owner),
    route("PUT", "/api/privacy/retention", "", Body::Json(r#"{"websiteId":{victim},"pageviews":90}"#), Auth::Owner),
    route("GET", "/api/privacy/consent-logs", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/privacy/audit-logs", "website_id={site}&offset=0&limit=10", Body::None, Auth::Owner),
    route("GET", "/api/privacy/export-data", "website_id={site}&data_type=sessions", Body::None, Auth::Owner),
    route("GET", "/api/privacy/visitor-data", "website_id={site}&visitor_id=chaos-visitor", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/privacy/delete-visitor",
        "",
        Body::Json(r#"{"websiteId":{victim},"visitorId":"chaos-visitor-{n}"}"#),
        Auth::Owner,
    ),
    route(
        "POST",
        "/api/privacy/delete-data",
        "",
        Body::Json(r#"{"websiteId":{victim},"dataType":"all"}"#),
        Auth::Owner,
    ),
    // Funnels and journeys
    route("GET", "/api/funnels", "website_id={site}&range=7d", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/funnels",
        "",
        Body::Json(
            r#"{"name":"chaos_{n}","websiteId":{victim},"steps":[{"name":"Home","url":"/"},{"name":"Buy","url":"/buy/*","eventName":"purchase"}]}"#,
        ),
        Auth::Owner,
    ),
    // Funnel ids are the database's; on another user's funnel (most of them) the answer is 404.
    route("GET", "/api/funnels/1", "range=7d", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/funnels/1",
        "",
        Body::Json(r#"{"name":"chaos_{n}","steps":[{"name":"Home","url":"/"},{"name":"Buy","url":"/buy/*"}]}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/funnels/2", "", Body::None, Auth::Owner),
    route("GET", "/api/funnels/1/drop-offs", "range=7d&limit=5", Body::None, Auth::Owner),
    route("GET", "/api/analytics/customer-journeys", "website_id={site}&period=7d&filter=all", Body::None, Auth::Owner),
    route("GET", "/api/analytics/journeys", "website_id={site}&period=7d", Body::None, Auth::Owner),
    // Heatmaps
    route("GET", "/api/analytics/urls", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/analytics/heatmap", "website_id={site}&url=/pricing&time_range=7d", Body::None, Auth::Owner),
    route("GET", "/api/analytics/heatmap/page", "website_id={site}&url=/pricing", Body::None, Auth::Owner),
    // Advanced analytics and AI intent
    route("GET", "/api/analytics/advanced", "website_id={site}&time_range=7d", Body::None, Auth::Owner),
    route("GET", "/api/analytics/ai-intent", "website_id={site}&time_range=24h", Body::None, Auth::Owner),
    // ... of the visits a filter admits (counted from the raw visits, not the stored hours).
    route(
        "GET",
        "/api/analytics/advanced",
        "website_id={site}&time_range=30d&filters=%5B%5B%22contains%22%2C%22event%3Apage%22%2C%5B%22%2Fp%22%5D%5D%5D",
        Body::None,
        Auth::Owner,
    ),
    route(
        "GET",
        "/api/analytics/ai-intent",
        "website_id={site}&time_range=7d&filters=%5B%5B%22is_not%22%2C%22visit%3Acountry%22%2C%5B%22DE%22%5D%5D%5D",
        Body::None,
        Auth::Owner,
    ),
    // Visitor stream
    route("GET", "/api/analytics/live-visitors", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/analytics/sessions/1/journey", "website_id={site}", Body::None, Auth::Owner),
    route("GET", "/api/analytics/sessions/1", "website_id={site}", Body::None, Auth::Owner),
    // Replays
    route("GET", "/api/websites/{site}/session-replays", "limit=10&time_range=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/session-replays/stats", "filter=all&range=30d", Body::None, Auth::Owner),
    route("GET", "/api/replays/{replay}/events", "", Body::None, Auth::Owner),
    route("GET", "/api/replays/{replay}", "", Body::None, Auth::Owner),
    route(
        "GET",
        "/api/websites/{site}/session-replays",
        "limit=100&filter=enterprise&range=30d",
        Body::None,
        Auth::Owner,
    ),
    // Events
    route("GET", "/api/websites/{site}/event-definitions", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/event-definitions",
        "",
        Body::Json(
            r##"{"name":"chaos_{n}","displayName":"Chaos","description":"A click on Buy","eventType":"click","selector":"#buy"}"##,
        ),
        Auth::Owner,
    ),
    route("GET", "/api/websites/{site}/events/summary", "timeRange=7d", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/events/property-keys", "range=7d", Body::None, Auth::Owner),
    // The seeded "buy" definition is the database's first; on the victim site the id is another site's (404).
    route(
        "PUT",
        "/api/websites/{site}/event-definitions/1",
        "",
        Body::Json(r#"{"displayName":"Buy","isActive":true}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/websites/{victim}/event-definitions/1", "", Body::None, Auth::Owner),
    // Organizations
    route("GET", "/api/websites/{site}/organizations", "", Body::None, Auth::Owner),
    route("PUT", "/api/websites/{site}/organizations/1", "", Body::Json(r#"{"size":"small"}"#), Auth::Owner),
    // Account settings
    route("GET", "/api/user/settings", "", Body::None, Auth::Owner),
    route(
        "PUT",
        "/api/user/profile",
        "",
        Body::Json(r#"{"name":"Chaos","company":"","timezone":"Europe/Paris"}"#),
        Auth::Owner,
    ),
    route("PUT", "/api/user/notifications", "", Body::Json(r#"{"weeklyReports":false}"#), Auth::Owner),
    route("PUT", "/api/user/security", "", Body::Json(r#"{"sessionTimeout":480}"#), Auth::Owner),
    route(
        "PUT",
        "/api/user/email",
        "",
        Body::Json(r#"{"newEmail":"{email}","currentPassword":"wrong-password"}"#),
        Auth::Sacrificial,
    ),
    route("POST", "/api/user/email/verification", "", Body::None, Auth::Owner),
    route("POST", "/api/user/email/verify", "", Body::Json(r#"{"token":"not-a-token"}"#), Auth::Public),
    route("GET", "/api/user/export", "", Body::None, Auth::Owner),
    route("POST", "/api/user/two-factor/setup", "", Body::Json(r#"{"password":"wrong-password"}"#), Auth::Sacrificial),
    route(
        "POST",
        "/api/user/two-factor/enable",
        "",
        Body::Json(r#"{"password":"wrong-password","code":"000000"}"#),
        Auth::Sacrificial,
    ),
    route(
        "POST",
        "/api/user/two-factor/disable",
        "",
        Body::Json(r#"{"password":"wrong-password","code":"000000"}"#),
        Auth::Sacrificial,
    ),
    // API keys (a key made here is one of the account's 50; past them, creation answers 409)
    route("GET", "/api/user/api-keys", "", Body::None, Auth::Owner),
    route("POST", "/api/user/api-keys", "", Body::Json(r#"{"name":"chaos {n}","scope":"read"}"#), Auth::Sacrificial),
    route("DELETE", "/api/user/api-keys/{n}", "", Body::None, Auth::Sacrificial),
    // Annotations and saved segments (a site keeps at most 1000 and 100: past them, creation answers 409;
    // a segment's name is unique on its site, so the second run of a name answers 409 too)
    route("GET", "/api/websites/{site}/annotations", "range=30d", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/annotations",
        "",
        Body::Json(r#"{"date":"2026-11-20","text":"Chaos release {n}"}"#),
        Auth::Owner,
    ),
    route(
        "PUT",
        "/api/websites/{site}/annotations/1",
        "",
        Body::Json(r#"{"date":"2026-11-21","text":"Moved"}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/websites/{victim}/annotations/{n}", "", Body::None, Auth::Owner),
    route("GET", "/api/websites/{site}/segments", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/segments",
        "",
        Body::Json(r#"{"name":"chaos {n}","filters":[["is","visit:country",["DE"]]]}"#),
        Auth::Owner,
    ),
    route(
        "PUT",
        "/api/websites/{site}/segments/1",
        "",
        Body::Json(r#"{"name":"Germany","filters":[["contains","event:page",["/blog"]]]}"#),
        Auth::Owner,
    ),
    route("DELETE", "/api/websites/{victim}/segments/{n}", "", Body::None, Auth::Owner),
    // Team members (issue 37): invitations made out to addresses no account has; roles of account ids that are
    // no member of the site (404); the signed-in account's invitations and accepting one that is not its own.
    route("GET", "/api/websites/{site}/members", "", Body::None, Auth::Owner),
    route(
        "POST",
        "/api/websites/{site}/members",
        "",
        Body::Json(r#"{"email":"chaos{n}@example.net","role":"viewer"}"#),
        Auth::Owner,
    ),
    route("PUT", "/api/websites/{site}/members/{n}", "", Body::Json(r#"{"role":"editor"}"#), Auth::Owner),
    route("DELETE", "/api/websites/{victim}/members/{n}", "", Body::None, Auth::Owner),
    route("DELETE", "/api/websites/{victim}/invitations/{n}", "", Body::None, Auth::Owner),
    route("POST", "/api/websites/{victim}/owner", "", Body::Json(r#"{"memberId":{n}}"#), Auth::Owner),
    // The caller's own emails of a site: the owner's follow the account (409 on a change).
    route("GET", "/api/websites/{site}/members/me/notifications", "", Body::None, Auth::Owner),
    route("PUT", "/api/websites/{site}/members/me/notifications", "", Body::Json(r#"{"reports":true}"#), Auth::Owner),
    route("GET", "/api/user/invitations", "", Body::None, Auth::Owner),
    route("POST", "/api/user/invitations/{n}/accept", "", Body::Json(r#"{"token":"not-a-token"}"#), Auth::Owner),
    // Share links (issue 37): the owner's, and what a link opens (an unknown slug here: 404, never a 5xx).
    route("GET", "/api/websites/{site}/shared-links", "", Body::None, Auth::Owner),
    route("POST", "/api/websites/{victim}/shared-links", "", Body::Json(r#"{"name":"chaos {n}"}"#), Auth::Owner),
    route("DELETE", "/api/websites/{victim}/shared-links/{n}", "", Body::None, Auth::Owner),
    route("GET", "/api/share/chaos-no-such-slug-000000", "", Body::None, Auth::Public),
    route(
        "POST",
        "/api/share/chaos-no-such-slug-000000/session",
        "",
        Body::Json(r#"{"password":"guess"}"#),
        Auth::Public,
    ),
    route("GET", "/api/share/chaos-no-such-slug-000000/overview", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/timeseries", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/breakdown/browser", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/traffic-sources", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/referrers", "range=7d", Body::None, Auth::Public),
    route("GET", "/api/share/chaos-no-such-slug-000000/countries", "range=7d", Body::None, Auth::Public),
    route("GET", "/share/chaos-no-such-slug-000000", "", Body::None, Auth::Public),
    // The Stats API over the sites the chaos run creates (example.org), filtered and grouped.
    route(
        "POST",
        "/api/v2/query",
        "",
        Body::Json(
            r#"{"site_id":"example.org","metrics":["visitors","pageviews"],"date_range":"7d","dimensions":["visit:source"],"filters":[["contains","event:page",["/"]]]}"#,
        ),
        Auth::Owner,
    ),
    route("GET", "/tracking/legacy.js", "", Body::None, Auth::Public),
    // The dashboard app, its assets and the 404 page
    route("GET", "/", "", Body::None, Auth::Public),
    route("GET", "/dashboard", "", Body::None, Auth::Public),
    route("GET", "/assets/index.js", "", Body::None, Auth::Public),
    route("GET", "/no-such-page", "", Body::None, Auth::Public),
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::ROUTES;

    /// A path with its parameters blanked: `/api/websites/{site}/breakdown/browser` and the document's
    /// `/api/websites/{id}/breakdown/{dimension}` both name `/api/websites/{}/breakdown/{}` once a literal in
    /// a parameter's place is allowed.
    fn matches(template: &str, path: &str) -> bool {
        let (t, p): (Vec<_>, Vec<_>) = (template.split('/').collect(), path.split('/').collect());
        t.len() == p.len() && t.iter().zip(&p).all(|(t, p)| t.starts_with('{') || t == p)
    }

    /// The chaos table covers every operation of the API contract (GET /api/openapi.json), and lists no
    /// API route the contract does not have.
    #[test]
    fn the_route_table_covers_the_contract() {
        let document = serde_json::to_value(tracker_daemon::openapi()).expect("the document serialises");
        let mut documented = BTreeSet::new();
        for (path, item) in document["paths"].as_object().expect("paths") {
            for method in item.as_object().expect("operations").keys() {
                documented.insert((method.to_uppercase(), path.clone()));
            }
        }
        // The contract's paths: the JSON API, and the GoatCounter count endpoint its script calls.
        let api = || {
            ROUTES.iter().filter(|r| {
                (r.path.starts_with("/api/") || r.path.starts_with("/goatcounter/")) && r.method != "OPTIONS"
            })
        };
        let missing: Vec<_> = documented
            .iter()
            .filter(|(_, path)| path != "/api/openapi.json")
            .filter(|(method, path)| !api().any(|r| r.method == method && matches(path, r.path)))
            .collect();
        assert!(missing.is_empty(), "operations of the contract missing from the chaos table: {missing:?}");
        let unknown: Vec<_> = api()
            .filter(|r| !documented.iter().any(|(method, path)| r.method == method && matches(path, r.path)))
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        assert!(unknown.is_empty(), "chaos routes the contract does not list: {unknown:?}");
    }
}
