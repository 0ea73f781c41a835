//! The read side: one module per question the dashboard asks, answered from rollups where possible.

mod activity;
mod breakdown;
mod conversions;
mod identified;
mod live;
mod overview;
mod range;
mod sites;
mod sources;
mod timeseries;

pub use activity::{Activity, MAX_ACTIVITY_LIMIT};
pub use breakdown::{CountryCount, ReferrerCount};
pub use conversions::{Conversion, Conversions};
pub use identified::IdentifiedVisitor;
pub use live::ActiveSession;
pub use overview::{Overview, OverviewMetrics, PageViews, PreviousMetrics};
pub use range::{Grain, TimeRange};
pub use sites::{SiteMetric, SitePeriods};
pub use sources::{DIRECT, TrafficSource};
pub use timeseries::{Timeseries, TimeseriesPoint};

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
