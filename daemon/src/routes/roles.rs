//! Which role each route needs on the site it names (issue 37), declared once, in [`ROUTE_ROLES`], keyed by
//! method and the path as the API contract writes it. The `user` filter (`routes/mod.rs`) reads it for every
//! request and hands the handler a `Caller` holding the role; the handler's one check of the site
//! (`Websites::access`, through `site_json` or `websites.get`) then answers 404 to a caller with no role on the
//! site and 403 to one whose role is below. A new route adds one line here: the role-matrix test
//! (`tests/integration/roles.rs`) calls every route of the contract with every role and fails for a route
//! missing from this table; a route missing from it needs `owner` meanwhile, so a forgotten line shuts the door
//! rather than leaving it open.

use tracker_core::model::Role;
use warp::http::Method;

/// What a route asks of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Needs {
    /// Nobody in particular: sign-in and sign-up, visitors' hits, the contract, the ticketed stream.
    Public,
    /// A signed-in account, for itself or across the sites it may read (a site it names is read as a viewer).
    Account,
    /// At least this role on the site the call names (by path, query, body or an object of the site).
    Site(Role),
}

use Needs::{Account, Public, Site};
use Role::{Admin, Editor, Owner, Viewer};

/// Every route of the daemon's API with what it needs: method, path as in the contract, need.
pub(crate) const ROUTE_ROLES: &[(&str, &str, Needs)] = &[
    // Signing in and out, sign-up, visitors' hits and the contract.
    ("POST", "/api/login", Public),
    ("POST", "/api/logout", Public),
    ("POST", "/api/refresh", Public),
    ("POST", "/api/register", Public),
    ("GET", "/api/registration", Public),
    ("POST", "/api/track", Public),
    ("GET", "/api/track/config", Public),
    ("POST", "/api/interactions", Public),
    ("POST", "/api/replay", Public),
    ("GET", "/api/openapi.json", Public),
    ("GET", "/api/dashboard/live", Public),
    // The account itself.
    ("GET", "/api/user", Account),
    ("DELETE", "/api/user/account", Account),
    ("GET", "/api/user/api-keys", Account),
    ("POST", "/api/user/api-keys", Account),
    ("DELETE", "/api/user/api-keys/{id}", Account),
    ("PUT", "/api/user/email", Account),
    ("POST", "/api/user/email/verification", Account),
    ("POST", "/api/user/email/verify", Account),
    ("GET", "/api/user/export", Account),
    ("PUT", "/api/user/notifications", Account),
    ("PUT", "/api/user/password", Account),
    ("PUT", "/api/user/profile", Account),
    ("PUT", "/api/user/security", Account),
    ("GET", "/api/user/settings", Account),
    ("POST", "/api/user/two-factor/disable", Account),
    ("POST", "/api/user/two-factor/enable", Account),
    ("POST", "/api/user/two-factor/setup", Account),
    ("GET", "/api/user/invitations", Account),
    ("POST", "/api/user/invitations/{id}/accept", Account),
    ("POST", "/api/dashboard/live/ticket", Account),
    // Across the sites the account may read (one named is read as a viewer).
    ("GET", "/api/websites", Account),
    ("POST", "/api/websites", Account),
    ("GET", "/api/dashboard/sites", Account),
    ("GET", "/api/analytics/customer-journeys", Account),
    ("GET", "/api/analytics/journeys", Account),
    ("GET", "/api/analytics/live-visitors", Account),
    ("GET", "/api/funnels", Account),
    ("POST", "/api/v2/query", Account),
    // A site's settings and the site itself.
    ("GET", "/api/websites/{id}", Site(Viewer)),
    ("PUT", "/api/websites/{id}", Site(Admin)),
    ("DELETE", "/api/websites/{id}", Site(Owner)),
    ("POST", "/api/websites/{id}/owner", Site(Owner)),
    ("GET", "/api/websites/{id}/members", Site(Admin)),
    ("POST", "/api/websites/{id}/members", Site(Admin)),
    ("PUT", "/api/websites/{id}/members/{memberId}", Site(Admin)),
    ("DELETE", "/api/websites/{id}/members/{memberId}", Site(Admin)),
    ("DELETE", "/api/websites/{id}/invitations/{invitationId}", Site(Admin)),
    // The caller's own emails of a site: any role chooses its own.
    ("GET", "/api/websites/{id}/members/me/notifications", Site(Viewer)),
    ("PUT", "/api/websites/{id}/members/me/notifications", Site(Viewer)),
    // A site's figures: everything a viewer reads.
    ("GET", "/api/dashboard/overview", Site(Viewer)),
    ("GET", "/api/dashboard/recent-activity", Site(Viewer)),
    ("GET", "/api/dashboard/timeseries", Site(Viewer)),
    ("GET", "/api/websites/{id}/breakdown/{dimension}", Site(Viewer)),
    ("GET", "/api/websites/{id}/conversions", Site(Viewer)),
    ("GET", "/api/websites/{id}/countries", Site(Viewer)),
    ("GET", "/api/websites/{id}/referrers", Site(Viewer)),
    ("GET", "/api/websites/{id}/revenue/{dimension}", Site(Viewer)),
    ("GET", "/api/websites/{id}/traffic-sources", Site(Viewer)),
    ("GET", "/api/websites/{id}/events/summary", Site(Viewer)),
    ("GET", "/api/websites/{id}/events/property-keys", Site(Viewer)),
    ("GET", "/api/websites/{id}/export", Site(Viewer)),
    ("GET", "/api/websites/{id}/identified-visitors", Site(Viewer)),
    ("GET", "/api/websites/{id}/session-replays", Site(Viewer)),
    ("GET", "/api/websites/{id}/session-replays/stats", Site(Viewer)),
    ("GET", "/api/replays/{id}", Site(Viewer)),
    ("GET", "/api/replays/{id}/events", Site(Viewer)),
    ("GET", "/api/analytics/advanced", Site(Viewer)),
    ("GET", "/api/analytics/ai-intent", Site(Viewer)),
    ("GET", "/api/analytics/heatmap", Site(Viewer)),
    ("GET", "/api/analytics/heatmap/page", Site(Viewer)),
    ("GET", "/api/analytics/urls", Site(Viewer)),
    ("GET", "/api/analytics/sessions/{id}", Site(Viewer)),
    ("GET", "/api/analytics/sessions/{id}/journey", Site(Viewer)),
    ("GET", "/api/export/{kind}", Site(Viewer)),
    ("GET", "/api/funnels/{id}", Site(Viewer)),
    ("GET", "/api/funnels/{id}/drop-offs", Site(Viewer)),
    ("GET", "/api/privacy/settings", Site(Viewer)),
    ("GET", "/api/privacy/retention", Site(Viewer)),
    ("GET", "/api/privacy/consent-logs", Site(Viewer)),
    ("GET", "/api/privacy/audit-logs", Site(Viewer)),
    ("GET", "/api/privacy/export-data", Site(Viewer)),
    ("GET", "/api/privacy/visitor-data", Site(Viewer)),
    ("GET", "/api/websites/{id}/event-definitions", Site(Viewer)),
    ("GET", "/api/websites/{id}/organizations", Site(Viewer)),
    // What an editor changes: definitions, funnels, organizations.
    ("POST", "/api/websites/{id}/event-definitions", Site(Editor)),
    ("PUT", "/api/websites/{id}/event-definitions/{definitionId}", Site(Editor)),
    ("DELETE", "/api/websites/{id}/event-definitions/{definitionId}", Site(Editor)),
    ("PUT", "/api/websites/{id}/organizations/{orgId}", Site(Editor)),
    ("POST", "/api/funnels", Site(Editor)),
    ("PUT", "/api/funnels/{id}", Site(Editor)),
    ("DELETE", "/api/funnels/{id}", Site(Editor)),
    // What an admin changes: privacy settings and retention, and deletes data.
    ("PUT", "/api/privacy/settings", Site(Admin)),
    ("PUT", "/api/privacy/retention", Site(Admin)),
    ("POST", "/api/privacy/delete-data", Site(Admin)),
    ("POST", "/api/privacy/delete-visitor", Site(Admin)),
    // Annotations: read by every member, written by editors and up; saved segments read by every member.
    ("GET", "/api/websites/{id}/annotations", Site(Viewer)),
    ("POST", "/api/websites/{id}/annotations", Site(Editor)),
    ("PUT", "/api/websites/{id}/annotations/{annotationId}", Site(Editor)),
    ("DELETE", "/api/websites/{id}/annotations/{annotationId}", Site(Editor)),
    ("GET", "/api/websites/{id}/segments", Site(Viewer)),
    // Any member keeps personal segments; `Segments` refuses a viewer the shared ones (issue 36).
    ("POST", "/api/websites/{id}/segments", Site(Viewer)),
    ("PUT", "/api/websites/{id}/segments/{segmentId}", Site(Viewer)),
    ("DELETE", "/api/websites/{id}/segments/{segmentId}", Site(Viewer)),
    // Importing another tool's history: admins and up.
    ("POST", "/api/websites/{id}/imports", Site(Admin)),
    // Share links: made and ended by admins and up; what a link opens needs the link, not an account.
    ("GET", "/api/websites/{id}/shared-links", Site(Admin)),
    ("POST", "/api/websites/{id}/shared-links", Site(Admin)),
    ("DELETE", "/api/websites/{id}/shared-links/{linkId}", Site(Admin)),
    ("GET", "/api/share/{slug}", Public),
    ("POST", "/api/share/{slug}/session", Public),
    ("GET", "/api/share/{slug}/overview", Public),
    ("GET", "/api/share/{slug}/timeseries", Public),
    ("GET", "/api/share/{slug}/breakdown/{dimension}", Public),
    ("GET", "/api/share/{slug}/traffic-sources", Public),
    ("GET", "/api/share/{slug}/referrers", Public),
    ("GET", "/api/share/{slug}/countries", Public),
    // The other tools' tracking endpoints: visitors' hits, as /api/track.
    ("POST", "/api/event", Public),
    ("POST", "/api/send", Public),
    ("GET", "/goatcounter/{trackingKey}/count", Public),
    ("POST", "/goatcounter/{trackingKey}/count", Public),
];

/// The table as text, for the role-matrix test and API.md: (method, path, "public" | "account" | a role name).
pub fn route_roles() -> Vec<(&'static str, &'static str, &'static str)> {
    let name = |needs: Needs| match needs {
        Public => "public",
        Account => "account",
        Site(role) => role.as_str(),
    };
    ROUTE_ROLES.iter().map(|(method, path, needs)| (*method, *path, name(*needs))).collect()
}

/// What a request needs, from its method and path (below or with /api). HEAD reads as GET. A path segment
/// `{...}` of a pattern stands for any one segment; of several matching patterns the one with the most
/// literal segments wins. A route that is not in the table needs the owner.
pub(crate) fn needs(method: &Method, path: &str) -> Needs {
    let method = if method == Method::HEAD { "GET" } else { method.as_str() };
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let segments = segments.strip_prefix(&["api"][..]).unwrap_or(&segments);
    ROUTE_ROLES
        .iter()
        .filter(|(m, _, _)| *m == method)
        .filter_map(|(_, pattern, needs)| literal_matches(pattern, segments).map(|literals| (literals, *needs)))
        .max_by_key(|(literals, _)| *literals)
        .map_or(Site(Owner), |(_, needs)| needs)
}

/// The role a request needs on the site it names: a read of the account's own or shared sites needs a viewer.
pub(crate) fn site_role(method: &Method, path: &str) -> Role {
    match needs(method, path) {
        Site(role) => role,
        Public | Account => Viewer,
    }
}

/// How many literal segments of `pattern` (an /api path) match `segments`, if it matches at all.
fn literal_matches(pattern: &str, segments: &[&str]) -> Option<usize> {
    let pattern: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).skip(1).collect();
    if pattern.len() != segments.len() {
        return None;
    }
    let mut literals = 0;
    for (want, got) in pattern.iter().zip(segments) {
        if want.starts_with('{') && want.ends_with('}') {
            continue;
        }
        if !want.eq_ignore_ascii_case(got) {
            return None;
        }
        literals += 1;
    }
    Some(literals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_reads_its_line_and_an_unknown_one_needs_the_owner() {
        let cases = [
            (Method::GET, "/api/websites/3", Site(Viewer)),
            (Method::HEAD, "/api/websites/3", Site(Viewer)),
            (Method::PUT, "/api/websites/3", Site(Admin)),
            (Method::DELETE, "/api/websites/3", Site(Owner)),
            (Method::POST, "/api/websites/3/event-definitions", Site(Editor)),
            (Method::PUT, "/api/websites/3/members/9", Site(Admin)),
            (Method::GET, "/api/websites", Account),
            (Method::POST, "/api/login", Public),
            (Method::POST, "/api/websites/3/not-a-route", Site(Owner)),
            (Method::PATCH, "/api/websites/3", Site(Owner)),
        ];
        for (method, path, expected) in cases {
            assert_eq!(needs(&method, path), expected, "{method} {path}");
        }
    }

    #[test]
    fn each_route_is_listed_once() {
        let mut seen = std::collections::HashSet::new();
        for (method, path, _) in ROUTE_ROLES {
            assert!(seen.insert((method, path)), "{method} {path} twice");
        }
    }
}
