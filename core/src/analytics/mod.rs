//! The read side: one module per question the dashboard asks, answered from rollups where possible.

mod activity;
mod breakdown;
mod conversions;
mod dimension;
mod identified;
mod live;
mod overview;
mod range;
mod sites;
mod timeseries;
mod traffic_sources;

pub use activity::{ACTIVITY_MAX, ActivityEvent};
pub use breakdown::{CountryCount, ReferrerCount};
pub use conversions::{Conversion, Conversions};
pub use dimension::{Dimension, DimensionCount};
pub use identified::IdentifiedVisitor;
pub use live::ActiveSession;
pub use overview::{Overview, OverviewMetrics, PageViews, PreviousMetrics, Totals};
pub use range::{Grain, TimeRange};
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
