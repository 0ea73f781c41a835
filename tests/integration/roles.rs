//! The role matrix (issue 37), generated from the API contract: every operation of GET /api/openapi.json is in
//! the daemon's table of roles (`tracker_daemon::route_roles`, a route missing from it fails here), and every
//! operation on a site is called by its owner, an admin, an editor, a viewer, a stranger and a bogus token, each
//! answer as the matrix in API.md says: the bogus token 401, the stranger 404 (never 403: a site one has no role
//! on does not exist for one), a role below the route's 403 with the JSON error, the route's role and above
//! through (any answer but 401, 403 or the stranger's 404).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::capture_util::{count, gzip, rrweb_events, track_with, upload_chunk};
use crate::util::{Answer, TestServer};

/// The roles in rank order, with the name the table gives each.
const ROLES: [&str; 4] = ["viewer", "editor", "admin", "owner"];

/// The accounts of the matrix: a site's owner, three members and someone with no role on it.
struct Team {
    owner: String,
    admin: String,
    editor: String,
    viewer: String,
    stranger: String,
    viewer_id: i64,
}

/// One site and one of everything a route may name on it.
struct Fixture {
    site: i64,
    definition: i64,
    funnel: i64,
    replay: i64,
    session: i64,
    organization: i64,
    invitation: i64,
    annotation: i64,
    segment: i64,
    /// The viewer's personal segment: what a viewer may change (the shared `segment` needs an editor).
    viewer_segment: i64,
    link: i64,
}

impl Team {
    async fn new(server: &TestServer) -> Team {
        let mut tokens = Vec::new();
        for who in ["owner", "admin", "editor", "viewer", "stranger"] {
            tokens.push(server.register(&format!("{who}@example.com")).await);
        }
        let viewer_id = tokens[3].1["user"]["id"].as_i64().expect("the account's id");
        let mut tokens = tokens.into_iter().map(|(token, _)| token);
        let mut next = || tokens.next().unwrap();
        Team { owner: next(), admin: next(), editor: next(), viewer: next(), stranger: next(), viewer_id }
    }

    fn token(&self, role: &str) -> &str {
        match role {
            "owner" => &self.owner,
            "admin" => &self.admin,
            "editor" => &self.editor,
            "viewer" => &self.viewer,
            _ => &self.stranger,
        }
    }
}

/// Invites `email` to `site` with `role` as its owner and accepts with the link's token as `token`'s account.
pub(crate) async fn join(server: &TestServer, owner: &str, site: i64, email: &str, role: &str, token: &str) {
    let invited =
        server.post(&format!("/api/websites/{site}/members"), owner, json!({"email": email, "role": role})).await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    let link = invited.json["link"].as_str().expect("the link, without email configured");
    let secret = link.split("token=").nth(1).expect("the link's token");
    let id = invited.json["id"].as_i64().unwrap();
    let accepted = server.post(&format!("/api/user/invitations/{id}/accept"), token, json!({"token": secret})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
    assert_eq!(accepted.json["role"], role, "{}", accepted.text);
}

impl Fixture {
    /// A professional site of the team's owner with the three members, a definition, a funnel, a visit from an
    /// organization with its recording, and an open invitation.
    async fn new(server: &TestServer, team: &Team, n: usize) -> Fixture {
        let created = server.create_site(&team.owner, &format!("Matrix{n}"), "professional").await;
        let (site, key) = (created["id"].as_i64().unwrap(), created["trackingKey"].as_str().unwrap().to_string());
        for (role, token) in [("admin", &team.admin), ("editor", &team.editor), ("viewer", &team.viewer)] {
            join(server, &team.owner, site, &format!("{role}@example.com"), role, token).await;
        }
        let definition = json!({"name": "buy_click", "displayName": "Buy", "eventType": "click", "selector": "#buy"});
        let definition = server.post(&format!("/api/websites/{site}/event-definitions"), &team.owner, definition).await;
        assert_eq!(definition.status, StatusCode::CREATED, "{}", definition.text);
        let funnel = server.post("/api/funnels", &team.owner, funnel_body(site)).await;
        assert_eq!(funnel.status, StatusCode::CREATED, "{}", funnel.text);
        let visit = format!("matrix-visit-{n}");
        let page = json!({"tracking_key": key, "session_id": visit, "url": format!("https://matrix{n}.example.com/")});
        // An address the offline ASN data maps to a company: the visit makes an organization.
        assert_eq!(track_with(server, page, &[("x-forwarded-for", "8.8.8.8")]).await.status, StatusCode::ACCEPTED);
        let chunk = gzip(rrweb_events(1_000, 5, 1).to_string().as_bytes());
        assert_eq!(upload_chunk(server, &key, &visit, 0, chunk, "").await.status, StatusCode::ACCEPTED);
        let invitation = server
            .post(
                &format!("/api/websites/{site}/members"),
                &team.owner,
                json!({"email": "later@example.com", "role": "viewer"}),
            )
            .await;
        assert_eq!(invitation.status, StatusCode::CREATED, "{}", invitation.text);
        let annotation =
            server.post(&format!("/api/websites/{site}/annotations"), &team.owner, annotation_body()).await;
        assert_eq!(annotation.status, StatusCode::CREATED, "{}", annotation.text);
        let segment = server.post(&format!("/api/websites/{site}/segments"), &team.owner, segment_body()).await;
        assert_eq!(segment.status, StatusCode::CREATED, "{}", segment.text);
        let mine = json!({"name": "Mine", "filters": [["is", "visit:os", ["Linux"]]], "personal": true});
        let viewer_segment = server.post(&format!("/api/websites/{site}/segments"), &team.viewer, mine).await;
        assert_eq!(viewer_segment.status, StatusCode::CREATED, "{}", viewer_segment.text);
        let link =
            server.post(&format!("/api/websites/{site}/shared-links"), &team.owner, json!({"name": "Board"})).await;
        assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
        Fixture {
            site,
            definition: definition.json["id"].as_i64().unwrap(),
            funnel: funnel.json["id"].as_i64().unwrap(),
            replay: count(server, "SELECT id FROM replays WHERE website_id = ?1", site),
            session: count(server, "SELECT id FROM sessions WHERE website_id = ?1", site),
            organization: count(server, "SELECT MIN(id) FROM organizations WHERE website_id = ?1", site),
            invitation: invitation.json["id"].as_i64().unwrap(),
            annotation: annotation.json["id"].as_i64().unwrap(),
            segment: segment.json["id"].as_i64().unwrap(),
            viewer_segment: viewer_segment.json["id"].as_i64().unwrap(),
            link: link.json["id"].as_i64().unwrap(),
        }
    }

    /// The path of an operation with its parameters filled in for this site, and a body that would pass, as
    /// `role` calls it (a viewer changes its own segment).
    fn request(
        &self,
        team: &Team,
        role: &str,
        method: &str,
        pattern: &str,
        operation: &Value,
    ) -> (String, Option<Value>) {
        let segment = if role == "viewer" { self.viewer_segment } else { self.segment };
        let site = self.site;
        let id = if pattern.starts_with("/api/funnels/") {
            self.funnel
        } else if pattern.starts_with("/api/replays/") {
            self.replay
        } else if pattern.starts_with("/api/analytics/sessions/") {
            self.session
        } else {
            site
        };
        let mut path = pattern
            .replace("{id}", &id.to_string())
            .replace("{definitionId}", &self.definition.to_string())
            .replace("{orgId}", &self.organization.to_string())
            .replace("{memberId}", &team.viewer_id.to_string())
            .replace("{invitationId}", &self.invitation.to_string())
            .replace("{annotationId}", &self.annotation.to_string())
            .replace("{segmentId}", &segment.to_string())
            .replace("{linkId}", &self.link.to_string())
            .replace("{dimension}", "page")
            .replace("{kind}", "pageviews");
        assert!(!path.contains('{'), "{method} {pattern}: a path parameter this test cannot fill");
        let mut query = vec![format!("website_id={site}")];
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            let name = parameter["name"].as_str().unwrap();
            if parameter["in"] == "query" && parameter["required"] == true && name != "website_id" {
                query.push(format!("{name}={}", sample(name)));
            }
        }
        if pattern == "/api/analytics/heatmap" || pattern == "/api/analytics/heatmap/page" {
            query.push("url=https://matrix.example.com/".into());
        }
        if pattern == "/api/privacy/export-data" {
            query.push("data_type=sessions".into());
        }
        if pattern == "/api/privacy/visitor-data" {
            query.push("visitor_id=nobody".into());
        }
        path = format!("{path}?{}", query.join("&"));
        let body = match (method, pattern) {
            ("PUT", "/api/websites/{id}") => Some(json!({"name": "Renamed"})),
            ("POST", "/api/websites/{id}/members") => Some(json!({"email": "new@example.com", "role": "viewer"})),
            ("PUT", "/api/websites/{id}/members/{memberId}") => Some(json!({"role": "editor"})),
            // The owner's emails follow the account (409): a member's choice goes through.
            ("PUT", "/api/websites/{id}/members/me/notifications") => Some(json!({"alerts": true})),
            // A viewer cannot be made the owner (409): the owner's call goes through without handing the site over.
            ("POST", "/api/websites/{id}/owner") => Some(json!({"memberId": team.viewer_id})),
            ("POST", "/api/websites/{id}/event-definitions") => {
                Some(json!({"name": "signup", "displayName": "Signup", "eventType": "click", "selector": "#signup"}))
            }
            ("PUT", "/api/websites/{id}/event-definitions/{definitionId}") => Some(json!({"displayName": "Buy now"})),
            ("PUT", "/api/websites/{id}/organizations/{orgId}") => Some(json!({"size": "small"})),
            ("POST", "/api/funnels") => Some(funnel_body(site)),
            ("PUT", "/api/funnels/{id}") => Some(json!({"status": "paused"})),
            ("POST", "/api/websites/{id}/annotations") | ("PUT", "/api/websites/{id}/annotations/{annotationId}") => {
                Some(annotation_body())
            }
            // Personal: any member saves one (a shared one needs an editor, annotations.rs tests).
            ("POST", "/api/websites/{id}/segments") => {
                Some(json!({"name": "Other", "filters": [["is", "visit:os", ["Linux"]]], "personal": true}))
            }
            ("PUT", "/api/websites/{id}/segments/{segmentId}") => Some(segment_body()),
            ("POST", "/api/websites/{id}/shared-links") => Some(json!({"name": "Clients"})),
            ("PUT", "/api/privacy/settings") => Some(json!({"websiteId": site, "dataRetentionDays": 12})),
            ("PUT", "/api/privacy/retention") => Some(json!({"websiteId": site, "heatmaps": 7})),
            ("POST", "/api/privacy/delete-data") => Some(json!({"websiteId": site, "dataType": "events"})),
            ("POST", "/api/privacy/delete-visitor") => Some(json!({"websiteId": site, "visitorId": "nobody"})),
            (_, _) if method != "GET" => Some(json!({})),
            _ => None,
        };
        (path, body)
    }
}

fn annotation_body() -> Value {
    json!({"date": "2026-11-20", "text": "Release 1.2"})
}

fn segment_body() -> Value {
    json!({"name": "Germany", "filters": [["is", "visit:country", ["DE"]]]})
}

fn funnel_body(site: i64) -> Value {
    json!({"name": "Checkout", "websiteId": site, "steps": [{"name": "Home", "url": "/"}, {"name": "Buy", "url": "/buy"}]})
}

/// A value for a required query parameter, by its name.
fn sample(name: &str) -> &'static str {
    match name {
        "range" | "time_range" => "7d",
        "path" => "/",
        _ => "1",
    }
}

async fn call(server: &TestServer, method: &str, path: &str, token: &str, body: Option<Value>) -> Answer {
    server.call(method.parse::<Method>().unwrap(), path, Some(token), body).await
}

/// The operations of the contract, as (method, path, operation).
fn operations() -> Vec<(String, String, Value)> {
    let document = serde_json::to_value(tracker_daemon::openapi()).expect("the document serialises");
    let mut operations = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("operations") {
            operations.push((method.to_uppercase(), path.clone(), operation.clone()));
        }
    }
    operations
}

#[test]
fn every_operation_of_the_contract_has_its_role_in_the_table() {
    let table = tracker_daemon::route_roles();
    let missing: Vec<String> = operations()
        .into_iter()
        .filter(|(method, path, _)| !table.iter().any(|(m, p, _)| m == method && p == path))
        .map(|(method, path, _)| format!("{method} {path}"))
        .collect();
    assert!(missing.is_empty(), "routes without a role in daemon/src/routes/roles.rs: {missing:#?}");
    let stale: Vec<_> = table
        .iter()
        .filter(|(m, p, _)| !operations().iter().any(|(method, path, _)| method == m && path == p))
        .collect();
    assert!(stale.is_empty(), "lines of the role table naming no operation of the contract: {stale:#?}");
}

#[tokio::test]
async fn every_site_route_answers_each_role_as_the_matrix_says() {
    let server = TestServer::start().await;
    let team = Team::new(&server).await;
    let table = tracker_daemon::route_roles();
    let shared = Fixture::new(&server, &team, 0).await;
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (n, (method, pattern, operation)) in operations().into_iter().enumerate() {
        let needs = table.iter().find(|(m, p, _)| *m == method && *p == pattern).map(|(_, _, needs)| *needs);
        let Some(rank) = needs.and_then(|needs| ROLES.iter().position(|role| *role == needs)) else { continue };
        // A read leaves the site as it was; a change gets a site of its own for each caller, so one caller's
        // change (a member removed, the site deleted) is not the next caller's starting point.
        let reads = method == "GET";
        let bogus = {
            let (path, body) = shared.request(&team, "stranger", &method, &pattern, &operation);
            call(&server, &method, &path, "not-a-token", body).await
        };
        if bogus.status != StatusCode::UNAUTHORIZED {
            wrong.push(format!("{method} {pattern} with a bogus token: {} {}", bogus.status, bogus.text));
        }
        let mut fixture = None;
        let fresh = |k: usize| {
            let server = &server;
            let team = &team;
            async move { Fixture::new(server, team, 1000 + n * 10 + k).await }
        };
        let stranger = {
            let at = if reads { &shared } else { fixture.insert(fresh(0).await) };
            let (path, body) = at.request(&team, "stranger", &method, &pattern, &operation);
            call(&server, &method, &path, &team.stranger, body).await
        };
        if stranger.status != StatusCode::NOT_FOUND || stranger.json["error"]["message"].as_str().is_none() {
            wrong.push(format!("{method} {pattern} by a stranger: {} {}", stranger.status, stranger.text));
        }
        for (k, role) in ROLES.iter().enumerate() {
            let at = if reads { &shared } else { fixture.insert(fresh(k + 1).await) };
            let (path, body) = at.request(&team, role, &method, &pattern, &operation);
            let answer = call(&server, &method, &path, team.token(role), body).await;
            let allowed = k >= rank;
            let denied = answer.status == StatusCode::FORBIDDEN;
            let unknown = answer.status == StatusCode::NOT_FOUND && answer.json == stranger.json;
            let ok = if allowed {
                !denied && !unknown && answer.status != StatusCode::UNAUTHORIZED
            } else {
                denied && answer.json["error"]["message"].as_str().is_some()
            };
            if !ok {
                let expected = if allowed { "through" } else { "403" };
                wrong.push(format!(
                    "{method} {pattern} by {role} (expected {expected}): {} {}",
                    answer.status, answer.text
                ));
            }
            checked += 1;
        }
        if !reads {
            // The sites this route's changes were made on go, so the owner stays under the per-account cap.
            let listed = server.get("/api/websites", &team.owner).await;
            for site in listed.json.as_array().into_iter().flatten() {
                let id = site["id"].as_i64().unwrap();
                if id != shared.site && site["role"] == "owner" {
                    server.call(Method::DELETE, &format!("/api/websites/{id}"), Some(&team.owner), None).await;
                }
            }
        }
    }
    assert!(checked > 200, "{checked} calls: the contract's site routes were found");
    assert!(wrong.is_empty(), "{} answers off the matrix: {wrong:#?}", wrong.len());
}
