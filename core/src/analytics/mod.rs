//! The read side: one module per question the dashboard asks, answered from rollups where possible.

mod breakdown;
mod events;
pub mod heatmap;
mod live;
mod organizations;
mod overview;
mod range;
pub mod replays;

pub use breakdown::{CountryCount, ReferrerCount};
pub use events::{EventCount, EventSummary};
pub use heatmap::{Heatmap, page_path};
pub use live::ActiveSession;
pub use organizations::OrganizationSummary;
pub use overview::{Overview, OverviewMetrics, PageViews, PreviousMetrics};
pub use range::{Grain, TimeRange};
pub use replays::{MAX_REPLAYS, ReplaySummary};

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
