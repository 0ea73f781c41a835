//! The API contract: the OpenAPI 3.1 document built from the routes' `#[utoipa::path]` annotations and the
//! request and response types themselves, served at `GET /api/openapi.json` and printed by `tracker openapi`.
//! The dashboard's TypeScript types, the robustness sweep, the load generator's chaos table and the
//! Schemathesis run are all generated from or checked against it (ARCHITECTURE.md, "The API contract").

use std::sync::OnceLock;

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes::{
    advanced, analytics, annotations, api_keys, auth, compat, dashboard, events, export, funnels, journeys, openapi,
    stats_api,
};
use crate::routes::{imports, members, share, shared_links, visitor_stream, websites};
use crate::routes::{
    organizations, privacy, privacy_data, privacy_delete, replays, reports, revenue, segments, track, user,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "tracker", description = "Self-hosted website analytics: the daemon's JSON API. Every error \
        answer is `{\"error\":{\"message\":...}}`; 5xx answers say only \"internal server error\"."),
    paths(
        openapi::document,
        auth::register, auth::registration, auth::login, auth::refresh, auth::logout, auth::current_user,
        auth::change_password, auth::delete_account,
        websites::list, websites::create, websites::get, websites::update, websites::delete,
        imports::upload,
        dashboard::overview, dashboard::live, dashboard::referrers, dashboard::countries, dashboard::breakdown,
        dashboard::ticket,
        reports::timeseries, reports::recent_activity, reports::site_periods, reports::conversions,
        reports::identified_visitors, reports::traffic_sources, revenue::revenue,
        analytics::urls, analytics::heatmap, analytics::page,
        advanced::advanced, advanced::ai_intent,
        events::list, events::create, events::update, events::delete, events::summary, events::property_keys,
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
        compat::plausible_event, compat::umami_send, compat::goatcounter_count,
        compat::goatcounter_beacon,
        user::settings, user::profile, user::notifications, user::security, user::email, user::export,
        user::resend_email_link, user::confirm_email, user::two_factor_setup, user::enable, user::disable,
        api_keys::list, api_keys::create, api_keys::revoke,
        members::list, members::invite, members::set_role, members::remove, members::withdraw, members::pending,
        members::accept, members::hand_over, members::emails, members::set_emails,
        shared_links::list, shared_links::create, shared_links::delete,
        share::info, share::session, share::overview, share::timeseries, share::breakdown, share::traffic_sources,
        share::referrers, share::countries,
        stats_api::query,
        annotations::list, annotations::create, annotations::update, annotations::delete,
        segments::list, segments::create, segments::update, segments::delete,
        visitor_stream::live_visitors, visitor_stream::journey, visitor_stream::session,
    ),
    // Types no operation names in JSON: the live stream's sessions travel inside its events.
    components(schemas(tracker_core::analytics::ActiveSession)),
    modifiers(&BearerAuth),
)]
struct ApiDoc;

/// Declares the `bearer` and `share` schemes the operations' `security(...)` refer to.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "The access token from /api/login, /api/register or /api/refresh, or an API key (`trk_...`, from \
                 POST /api/user/api-keys) within its scope",
            ))
            .build();
        components.add_security_scheme("bearer", SecurityScheme::Http(scheme));
        let share = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "A share token from POST /api/share/{slug}/session: opens that password link's reads, nothing else \
                 (a link without a password needs none)",
            ))
            .build();
        components.add_security_scheme("share", SecurityScheme::Http(share));
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
