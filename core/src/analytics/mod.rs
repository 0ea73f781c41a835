//! The read side: one module per question the dashboard asks, answered from rollups where possible.

mod activity;
pub(crate) mod advanced;
mod breakdown;
mod conversions;
mod dimension;
mod events;
pub mod funnels;
pub mod heatmap;
mod identified;
pub mod intent;
pub mod intent_cache;
pub mod journeys;
mod live;
pub mod local_time;
mod organizations;
mod overview;
mod page_hours;
pub mod page_snapshot;
mod point_hours;
mod range;
pub mod replays;
mod session_journey;
mod sites;
pub mod stored_hours;
mod timeseries;
mod traffic_sources;
pub mod visit_hours;
mod visit_paths;

pub(crate) use activity::check_activity_limit;
pub use activity::{ACTIVITY_MAX, ActivityEvent};
pub use advanced::{Advanced, AiIntent};
pub(crate) use breakdown::BREAKDOWN_LIMIT;
pub use breakdown::{CountryCount, ReferrerCount};
pub(crate) use conversions::CONVERSIONS_LIMIT;
pub use conversions::{Conversion, Conversions};
pub(crate) use dimension::VisitDims;
pub use dimension::{Dimension, DimensionCount};
pub use events::{DefinitionTriggers, EventCount, EventSummary};
pub use heatmap::{Heatmap, page_path};
pub(crate) use heatmap::{MAX_URLS, URL_DAYS};
pub use identified::{IDENTIFIED_LIMIT, IdentifiedVisitor};
pub(crate) use live::{ACTIVE_NOW_MS, ACTIVE_WINDOW_MS, LIVE_LIMIT, TOP_PAGES, activity_text};
pub use live::{ActiveSession, CurrentActivity, LivePage, LiveVisitors, STREAM_LIMIT, StreamSession};
pub(crate) use organizations::MAX_ORGANIZATIONS;
pub use organizations::{OrganizationSummary, OrganizationVisits};
pub(crate) use overview::percent;
pub use overview::{Overview, OverviewMetrics, PageViews, PreviousMetrics, Totals};
pub use page_snapshot::{PageRendering, PageSnapshot};
pub use range::{Compare, Grain, MAX_DAYS, Period, TimeRange};
pub use replays::{MAX_REPLAYS, ReplayDetail, ReplayEvents, ReplayFilter, ReplayStats, ReplaySummary};
pub use session_journey::{JOURNEY_MAX_HITS, JourneyEvent, JourneyStep, SessionJourney};
pub use sites::{SiteMetric, SitePeriods};
pub(crate) use stored_hours::forget_stored_hours;
pub use timeseries::{TimePoint, Timeseries};
pub(crate) use traffic_sources::SOURCES_LIMIT;
pub use traffic_sources::TrafficSource;

use crate::db::Db;

/// Analytics queries over one database.
#[derive(Clone)]
pub struct Analytics {
    db: Db,
    /// Each site's intent model, fitted on first use and refitted when stale.
    pub(crate) intent_models: intent_cache::IntentModels,
}

impl Analytics {
    pub(crate) fn new(db: Db) -> Analytics {
        Analytics { db, intent_models: intent_cache::IntentModels::default() }
    }
}
