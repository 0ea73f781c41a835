//! The API contract: the OpenAPI 3.1 document built from the routes' `#[utoipa::path]` annotations and the
//! request and response types themselves, served at `GET /api/openapi.json` and printed by `tracker openapi`.
//! The dashboard's TypeScript types, the robustness sweep, the load generator's chaos table and the
//! Schemathesis run are all generated from or checked against it (ARCHITECTURE.md, "The API contract").

use std::sync::OnceLock;

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes::{advanced, analytics, auth, dashboard, events, export, funnels, journeys, openapi};
use crate::routes::{organizations, privacy, privacy_data, privacy_delete, replays, reports, track, user};
use crate::routes::{visitor_stream, websites};

#[derive(OpenApi)]
#[openapi(
    info(title = "tracker", description = "Self-hosted website analytics: the daemon's JSON API. Every error \
        answer is `{\"error\":{\"message\":...}}`; 5xx answers say only \"internal server error\"."),
    paths(
        openapi::document,
        auth::register, auth::registration, auth::login, auth::refresh, auth::logout, auth::current_user,
        auth::change_password, auth::delete_account,
        websites::list, websites::create, websites::get, websites::update, websites::delete,
        dashboard::overview, dashboard::live, dashboard::referrers, dashboard::countries, dashboard::breakdown,
        dashboard::ticket,
        reports::timeseries, reports::recent_activity, reports::site_periods, reports::conversions,
        reports::identified_visitors, reports::traffic_sources,
        analytics::urls, analytics::heatmap, analytics::page,
        advanced::advanced, advanced::ai_intent,
        events::list, events::create, events::update, events::delete, events::summary,
        export::site_export, export::type_export,
        funnels::list, funnels::create, funnels::get, funnels::update, funnels::delete, funnels::drop_offs,
        journeys::customer_journeys, journeys::journey_paths,
        organizations::list, organizations::update,
        privacy::settings, privacy::update_settings, privacy::retention, privacy::update_retention,
        privacy::consent_logs,
        privacy_data::export_data, privacy_data::audit, privacy_data::visitor_data, privacy_data::delete_visitor,
        privacy_delete::delete_data,
        replays::upload_chunk, replays::list, replays::stats, replays::events, replays::one,
        track::track, track::interactions, track::config,
        user::settings, user::profile, user::notifications, user::security, user::email, user::export,
        user::two_factor_setup, user::enable, user::disable,
        visitor_stream::live_visitors, visitor_stream::journey, visitor_stream::session,
    ),
    // Types no operation names in JSON: the live stream's sessions travel inside its events.
    components(schemas(tracker_core::analytics::ActiveSession)),
    modifiers(&BearerAuth),
)]
struct ApiDoc;

/// Declares the `bearer` scheme the operations' `security(("bearer" = []))` refer to.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("JWT")
            .description(Some("The access token from /api/login, /api/register or /api/refresh"))
            .build();
        components.add_security_scheme("bearer", SecurityScheme::Http(scheme));
    }
}

/// The OpenAPI document of the API.
pub fn openapi() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document as pretty JSON with a final newline, built once (the form committed and served).
pub fn openapi_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let mut json = openapi().to_pretty_json().expect("the OpenAPI document serialises");
        json.push('\n');
        json
    })
}

/// Whether `method` and `path` name an operation of the document (HEAD as GET; a `{parameter}` stands for any
/// one non-empty segment). Cluster mode's guard asks it, so that a path or method the API does not have
/// answers 404 or 405 there as on SQLite instead of the guard's 503.
pub(crate) fn is_operation(method: &str, path: &str) -> bool {
    static OPERATIONS: OnceLock<Vec<(String, Vec<String>)>> = OnceLock::new();
    let operations = OPERATIONS.get_or_init(|| {
        let document = serde_json::to_value(openapi()).expect("the OpenAPI document serialises");
        let paths = document["paths"].as_object().cloned().unwrap_or_default();
        paths
            .iter()
            .flat_map(|(path, item)| {
                let segments: Vec<String> = path.split('/').map(str::to_string).collect();
                let methods: Vec<String> =
                    item.as_object().into_iter().flatten().map(|(m, _)| m.to_uppercase()).collect();
                methods.into_iter().map(move |m| (m, segments.clone()))
            })
            .collect()
    });
    let method = if method == "HEAD" { "GET" } else { method };
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    operations.iter().any(|(m, pattern)| {
        m == method
            && pattern.len() == segments.len()
            && pattern.iter().zip(&segments).all(|(p, s)| p == s || (p.starts_with('{') && !s.is_empty()))
    })
}
