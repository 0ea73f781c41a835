//! The read side: one module per question the dashboard asks, answered from rollups where possible.

mod breakdown;
mod dimension;
mod live;
mod overview;
mod range;

pub use breakdown::{CountryCount, ReferrerCount};
pub use dimension::{Dimension, DimensionCount};
pub use live::ActiveSession;
pub use overview::{Overview, OverviewMetrics, PageViews, PreviousMetrics, Totals};
pub use range::{Grain, TimeRange};

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
