//! The read side: one module per question the dashboard asks, answered from rollups where possible.

mod activity;
mod breakdown;
mod conversions;
mod dimension;
mod events;
pub mod heatmap;
mod identified;
mod live;
mod organizations;
mod overview;
mod range;
pub mod replays;
mod sites;
mod timeseries;
mod traffic_sources;

pub use activity::{ACTIVITY_MAX, ActivityEvent};
pub use breakdown::{CountryCount, ReferrerCount};
pub use conversions::{Conversion, Conversions};
pub(crate) use dimension::VisitDims;
pub use dimension::{Dimension, DimensionCount};
pub use events::{EventCount, EventSummary};
pub use heatmap::{Heatmap, page_path};
pub use identified::IdentifiedVisitor;
pub use live::ActiveSession;
pub use organizations::OrganizationSummary;
pub use overview::{Overview, OverviewMetrics, PageViews, PreviousMetrics, Totals};
pub use range::{Grain, TimeRange};
pub use replays::{MAX_REPLAYS, ReplayEvents, ReplayFilter, ReplaySummary};
pub use sites::{SiteMetric, SitePeriods};
pub use timeseries::{TimePoint, Timeseries};
pub use traffic_sources::TrafficSource;

use crate::db::Db;

/// Analytics queries over one database.
#[derive(Clone)]
pub struct Analytics {
    db: Db,
}

impl Analytics {
    pub(crate) fn new(db: Db) -> Analytics {
        Analytics { db }
    }
}
