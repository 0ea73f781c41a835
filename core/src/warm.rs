//! Warming of the stored per-hour aggregates: counts, in the background, the settled hours that the funnels,
//! journeys, Advanced Analytics and heatmap reads would otherwise count on their first call.
//!
//! Those reads store an hour once its visits are over and count only the hours they lack; at ten million events
//! a 90-day read with nothing stored takes tens of seconds (after an upgrade, a deletion or retention run, or a
//! funnel edit). The daemon calls [`Tracker::warm_stored_hours`] shortly after start and then periodically, so
//! a person opening those screens finds the hours stored. In cluster mode the same job rolls up ClickHouse's
//! closed hours (`cluster::rollups`).

use crate::error::Result;
use crate::tracker::Tracker;

/// The longest range the screens read: warming covers it.
pub(crate) const WARMED_RANGE: &str = "90d";

/// What one warming pass did.
#[derive(Debug, Default, PartialEq)]
pub struct WarmReport {
    pub sites: usize,
    /// Sites whose reads failed (logged by the caller; the next pass tries again).
    pub failed: usize,
}

impl Tracker {
    /// Runs the funnels, journeys and Advanced Analytics reads of the last 90 days for every site, which
    /// stores the settled hours they lack, and stores the heatmap's page and point hours and its whole point days
    /// (SQLite's `Upkeep::warm`). A site that fails is counted and skipped. In cluster mode, rolls up the closed
    /// hours into ClickHouse's rollups instead (one daemon at a time), and reports no site.
    pub fn warm_stored_hours(&self) -> Result<WarmReport> {
        self.events.warm()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{EventKind, Hit};
    use crate::model::now_ms;
    use crate::testing::{rows, send};

    fn stored(tracker: &Tracker) -> (i64, i64, i64, i64) {
        let heatmap = (rows(tracker, "page_hours_stored"), rows(tracker, "point_days_stored"));
        (rows(tracker, "visit_hours"), rows(tracker, "advanced_hours"), heatmap.0, heatmap.1)
    }

    /// Before any read, a warming pass stores the settled hours of every site for both kinds of reads.
    #[test]
    fn a_warming_pass_stores_the_settled_hours_before_any_read() {
        let crate::testing::OneSite { dir: _dir, tracker, site, .. } = crate::testing::one_site();
        // One visit an hour over the two days before the last six hours: every hour of them has settled.
        let now = now_ms();
        send(
            &tracker,
            (0..48i64).map(|h| Hit {
                website_id: site,
                session_key: format!("visit-{h}"),
                ts: now - (6 + h) * 3_600_000,
                kind: Some(EventKind::Pageview),
                url: "https://s.example.com/".into(),
                path: "/".into(),
                ..Hit::default()
            }),
        );
        assert_eq!(stored(&tracker), (0, 0, 0, 0), "no read has stored an hour yet");
        let report = tracker.warm_stored_hours().unwrap();
        assert_eq!(report, WarmReport { sites: 1, failed: 0 });
        let (journey_hours, advanced_hours, page_hours, point_days) = stored(&tracker);
        assert!(
            journey_hours >= 48 && advanced_hours >= 48 && page_hours >= 48,
            "stored {journey_hours}, {advanced_hours} and {page_hours} hours"
        );
        // The heatmap's whole days too (the 90 days' past ones, their hours all settled).
        assert!(point_days >= 88, "stored {point_days} heatmap days");
    }
}
