//! The events store on a single machine: SQLite's `events`, `sessions` and their rollups in the data folder,
//! the same database as the metadata (so its reads join the two where the cluster's read them apart).

mod filtered;

pub(crate) use filtered::admitted_visit_condition;

use std::io::Write;

use rusqlite::{OptionalExtension, params};

use super::filtered::totals_and_top_pages;
use super::{
    Erasure, ExportRows, Filters, HistoryImports, IntentReads, PageData, PathReads, TrafficReads, Upkeep, VisitReads,
};
use crate::analytics::advanced::TOP_PAGES;
use crate::analytics::funnels::StepPattern;
use crate::analytics::journeys::{CustomerJourneys, JourneyFilter, JourneyPaths};
use crate::analytics::{
    ActiveSession, ActivityEvent, Advanced, AiIntent, Analytics, Conversions, CountryCount, Dimension, DimensionCount,
    EventSummary, Heatmap, IdentifiedVisitor, LiveVisitors, OrganizationSummary, Overview, PageRendering,
    ReferrerCount, ReplayDetail, ReplayEvents, ReplayFilter, ReplayStats, ReplaySummary, SessionJourney, SiteMetric,
    SitePeriods, StreamSession, TimeRange, Timeseries, Totals, TrafficSource, visit_hours,
};
use crate::db::{self, Db};
use crate::error::{Error, Result};
use crate::export::{Export, ExportFormat, ExportQuery};
use crate::import::{self, ImportRecord, ImportedHistory, Parsed, Source};
use crate::model::{Millis, UserId, WebsiteId, now_ms};
use crate::privacy::{DataType, DeletionJob, DeletionReport, Privacy, RetentionReport, VisitorDeletion};
use crate::store::funnels::DropOffVisit;
use crate::store::meta::{KnownOrganization, Meta};
use crate::warm::{WARMED_RANGE, WarmReport};

/// SQLite's engine: the analytics, privacy and export services over the data folder's database.
pub(crate) struct SqliteEvents {
    db: Db,
    meta: Meta,
    analytics: Analytics,
    privacy: Privacy,
    export: Export,
}

impl SqliteEvents {
    pub(crate) fn new(db: Db, meta: Meta, analytics: Analytics, privacy: Privacy) -> SqliteEvents {
        SqliteEvents { export: Export::new(db.clone()), db, meta, analytics, privacy }
    }
}

impl TrafficReads for SqliteEvents {
    fn overview(&self, site: WebsiteId, range: TimeRange) -> Result<Overview> {
        self.analytics.overview(site, range)
    }

    fn totals(&self, site: WebsiteId, range: TimeRange) -> Result<Totals> {
        self.analytics.totals(site, range)
    }

    fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        self.analytics.timeseries(site, range)
    }

    fn recent_activity(&self, site: WebsiteId, limit: i64) -> Result<Vec<ActivityEvent>> {
        self.analytics.recent_activity(site, limit)
    }

    fn site_periods(&self, sites: &[WebsiteId], metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        self.analytics.site_periods(sites, metric, now)
    }

    fn referrers(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<ReferrerCount>> {
        self.analytics.referrers(site, range)
    }

    fn traffic_sources(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<TrafficSource>> {
        self.analytics.traffic_sources(site, range)
    }

    fn breakdown(&self, site: WebsiteId, range: TimeRange, dim: Dimension, limit: i64) -> Result<Vec<DimensionCount>> {
        self.analytics.breakdown(site, range, dim, limit)
    }

    fn countries(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<CountryCount>> {
        self.analytics.countries(site, range)
    }

    fn conversions(&self, site: WebsiteId, range: TimeRange) -> Result<Conversions> {
        self.analytics.conversions(site, range)
    }

    fn events_summary(&self, site: WebsiteId, range: TimeRange) -> Result<EventSummary> {
        self.analytics.events_summary(site, range)
    }

    /// Each window is an indexed count here, and most sites most of the time stop after the first.
    fn page_views_in(&self, site: WebsiteId, windows: &[(Millis, Millis)], enough: i64) -> Result<Vec<i64>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT COUNT(*) FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3 AND kind = 'pageview'",
            )?;
            let mut counts = Vec::with_capacity(windows.len());
            for (start, end) in windows {
                let count: i64 = stmt.query_row(params![site, start, end], |r| r.get(0))?;
                counts.push(count);
                if counts.len() == 1 && count < enough {
                    break;
                }
            }
            Ok(counts)
        })
    }

    fn top_pages(&self, site: WebsiteId, start: Millis, end: Millis, limit: i64) -> Result<Vec<(String, i64)>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT path, COUNT(*) AS n FROM events
                 WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3 AND kind = 'pageview'
                 GROUP BY path ORDER BY n DESC, path LIMIT ?4",
            )?;
            let rows = stmt.query_map(params![site, start, end, limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn first_data(&self, site: WebsiteId) -> Result<Option<Millis>> {
        // The daily rollups hold tracked and imported days alike; the key's order finds the first at once.
        self.db.read(|conn| {
            Ok(conn.query_row(
                "SELECT MIN(bucket) * 1000 FROM rollup_days WHERE website_id = ?1 AND dim = ''",
                [site],
                |r| r.get(0),
            )?)
        })
    }
}

impl VisitReads for SqliteEvents {
    fn session_site(&self, sites: &[WebsiteId], session: i64) -> Result<WebsiteId> {
        let site = self.analytics.session_site(session)?;
        // A visit of a site not among `sites` answers exactly as a missing one.
        sites.contains(&site).then_some(site).ok_or(Error::NotFound("session"))
    }

    fn stream_session(&self, site: WebsiteId, session: i64) -> Result<StreamSession> {
        self.analytics.stream_session(site, session)
    }

    fn session_journey(&self, site: WebsiteId, session: i64) -> Result<SessionJourney> {
        self.analytics.session_journey(site, session)
    }

    fn active_sessions(&self, site: WebsiteId) -> Result<Vec<ActiveSession>> {
        self.analytics.active_sessions(site)
    }

    fn live_visitors(&self, sites: &[WebsiteId], filters: &Filters) -> Result<LiveVisitors> {
        self.analytics.live_visitors(sites, filters)
    }

    fn organizations(&self, site: WebsiteId) -> Result<Vec<OrganizationSummary>> {
        self.analytics.organizations(site)
    }

    fn organization(&self, site: WebsiteId, known: KnownOrganization) -> Result<OrganizationSummary> {
        self.analytics.organization(site, known.id)
    }

    fn identified_visitors(&self, site: WebsiteId) -> Result<Vec<IdentifiedVisitor>> {
        self.analytics.identified_visitors(site)
    }
}

impl PathReads for SqliteEvents {
    fn journey_paths(&self, sites: &[WebsiteId], range: TimeRange, filters: &Filters) -> Result<JourneyPaths> {
        self.analytics.journey_paths(sites, range, filters)
    }

    fn customer_journeys(
        &self,
        sites: &[WebsiteId],
        range: TimeRange,
        filters: &Filters,
        filter: JourneyFilter,
        now: Millis,
    ) -> Result<CustomerJourneys> {
        self.analytics.customer_journeys(sites, range, filters, filter, now)
    }

    /// Counted through the stored hours: settled hours are summed, the others computed (and stored). A filtered
    /// funnel is counted from the visits the filters admit (no stored hour holds a filter's visits).
    fn funnel_counts(
        &self,
        site: WebsiteId,
        funnels: &[(i64, Vec<StepPattern>)],
        range: TimeRange,
        filters: &Filters,
    ) -> Result<Vec<Vec<u64>>> {
        if filters.is_empty() {
            return visit_hours::funnel_counts(&self.db, site, funnels, range, now_ms());
        }
        let patterns: Vec<Vec<StepPattern>> = funnels.iter().map(|(_, steps)| steps.clone()).collect();
        self.db.read(|conn| Ok(visit_hours::raw(conn, site, &patterns, range, now_ms(), filters)?.0))
    }

    fn funnel_drop_offs(
        &self,
        site: WebsiteId,
        steps: &[StepPattern],
        range: TimeRange,
        filters: &Filters,
        limit: usize,
        dropped: &[u64],
    ) -> Result<Vec<Vec<DropOffVisit>>> {
        self.db.read(|conn| {
            let found = visit_hours::drop_offs(conn, site, steps, range, filters, limit, dropped)?;
            let mut visit = conn.prepare_cached(
                "SELECT s.session_key, s.first_seen, s.last_seen, s.page_views, s.exit_page, s.country, s.device, r.id
                 FROM sessions s LEFT JOIN replays r ON r.session_id = s.id WHERE s.id = ?1",
            )?;
            let mut steps = Vec::with_capacity(found.len());
            for visits in found {
                let visits = visits
                    .into_iter()
                    .filter_map(|d| {
                        visit
                            .query_row([d.session], |r| {
                                let (first, last): (Millis, Millis) = (r.get(1)?, r.get(2)?);
                                Ok(DropOffVisit {
                                    id: d.session,
                                    session_id: r.get(0)?,
                                    started_at: first,
                                    duration: (last - first) / 1000,
                                    page_views: r.get(3)?,
                                    exit_page: r.get(4)?,
                                    country: r.get(5)?,
                                    device: r.get(6)?,
                                    replay_id: r.get(7)?,
                                })
                            })
                            .optional()
                            .transpose()
                    })
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                steps.push(visits);
            }
            Ok(steps)
        })
    }
}

impl IntentReads for SqliteEvents {
    /// Through the stored hours without a filter; counted from the raw rows of the admitted visits with one.
    fn advanced(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Advanced> {
        if filters.is_empty() {
            return self.analytics.advanced(site, range);
        }
        let (totals, pages) = totals_and_top_pages(self, site, range, filters, TOP_PAGES)?;
        self.analytics.advanced_admitted(site, range, filters, totals, pages)
    }

    /// Through the stored scores without a filter; the admitted visits scored live with one.
    fn ai_intent(&self, site: WebsiteId, range: TimeRange, filters: &Filters, refit: bool) -> Result<AiIntent> {
        if filters.is_empty() {
            return self.analytics.ai_intent(site, range, refit);
        }
        self.analytics.ai_intent_admitted(site, range, filters, refit)
    }
}

impl PageData for SqliteEvents {
    fn page_urls(&self, site: WebsiteId) -> Result<Vec<String>> {
        self.analytics.page_urls(site)
    }

    fn heatmap(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<Heatmap> {
        self.analytics.heatmap(site, path, range)
    }

    fn page_snapshot(&self, site: WebsiteId, path: &str) -> Result<PageRendering> {
        self.analytics.page_snapshot(site, path)
    }

    fn replays(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
        limit: i64,
    ) -> Result<Vec<ReplaySummary>> {
        self.analytics.replays(site, range, filters, filter, limit)
    }

    fn replay_stats(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
    ) -> Result<ReplayStats> {
        self.analytics.replay_stats(site, range, filters, filter)
    }

    fn replay(&self, owner: UserId, replay: i64) -> Result<ReplayDetail> {
        self.analytics.replay(owner, replay)
    }

    fn replay_events(&self, owner: UserId, replay: i64) -> Result<ReplayEvents> {
        self.analytics.replay_events(owner, replay)
    }
}

impl ExportRows for SqliteEvents {
    fn export_row_count(&self, query: &ExportQuery) -> Result<Option<u64>> {
        self.export.count(query, filtered::admitted_event_condition).map(Some)
    }

    fn write_export(
        &self,
        query: &ExportQuery,
        format: ExportFormat,
        out: &mut dyn Write,
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64> {
        self.export.write(query, filtered::admitted_event_condition, format, out, progress)
    }

    fn export_sessions(&self, site: WebsiteId, out: &mut dyn Write) -> Result<u64> {
        self.privacy.export_sessions(site, out)
    }
}

impl Erasure for SqliteEvents {
    fn visitor_data(&self, site: WebsiteId, visitor: &str) -> Result<serde_json::Value> {
        self.privacy.visitor_data(site, visitor)
    }

    fn delete_visitor(&self, site: WebsiteId, visitor: &str) -> Result<VisitorDeletion> {
        self.privacy.delete_visitor(site, visitor)
    }

    fn delete_data(&self, site: WebsiteId, data: DataType, before: Option<Millis>) -> Result<DeletionReport> {
        self.privacy.delete_data(site, data, before)
    }

    /// The events go with their site's row, in the metadata's own deletion (one database, one transaction).
    fn delete_sites(&self, _sites: &[WebsiteId]) -> Result<()> {
        Ok(())
    }

    /// Deletions finish in their request.
    fn settle(&self, _sites: &[WebsiteId]) -> Result<()> {
        Ok(())
    }

    fn settled_of(&self, sites: &[WebsiteId]) -> Result<Vec<WebsiteId>> {
        Ok(sites.to_vec())
    }

    fn apply_retention_at(&self, now: Millis) -> Result<RetentionReport> {
        self.privacy.apply_retention_at(now)
    }
}

impl HistoryImports for SqliteEvents {
    /// An exclusive lock on `import-{site}.lock` in the data folder.
    fn lock_imports(&self, site: WebsiteId) -> Result<Box<dyn std::any::Any>> {
        Ok(Box::new(import::sqlite::lock(&self.db, site)?))
    }

    fn store_import(
        &self,
        site: WebsiteId,
        source: Source,
        file_name: &str,
        parsed: &Parsed,
        days: (Millis, Millis),
        batch: usize,
    ) -> Result<(i64, (i64, i64))> {
        import::sqlite::store(&self.db, site, source, file_name, parsed, days, batch)
    }

    fn imports(&self, site: WebsiteId) -> Result<Vec<ImportRecord>> {
        import::sqlite::list(&self.db, site)
    }

    fn imported_within(&self, site: WebsiteId, start: Millis, end: Millis) -> Result<Option<ImportedHistory>> {
        self.db.read(|conn| import::sqlite::imported_within(conn, site, start, end))
    }
}

impl Upkeep for SqliteEvents {
    /// Runs the funnels, journeys and Advanced Analytics reads of the last 90 days for every site, which
    /// stores the settled hours they lack, and stores the heatmap's page and point hours and its whole point days.
    /// A site that fails is counted and skipped.
    fn warm(&self) -> Result<WarmReport> {
        let sites: Vec<(UserId, WebsiteId)> = self.db.read(|conn| {
            let mut stmt = conn.prepare("SELECT user_id, id FROM websites ORDER BY user_id, id")?;
            Ok(stmt.query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?)
        })?;
        let mut report = WarmReport::default();
        for (user, site) in sites {
            let range = TimeRange::parse(WARMED_RANGE, now_ms())?;
            let warmed = self
                .meta
                .funnels(user, Some(site), None)
                .and_then(|rows| {
                    let funnels: Vec<(i64, Vec<StepPattern>)> =
                        rows.iter().map(|row| (row.id, row.steps.iter().map(StepPattern::of).collect())).collect();
                    self.funnel_counts(site, &funnels, range, &Filters::none())
                })
                .and_then(|_| self.analytics.journey_paths(&[site], range, &Filters::none()))
                .and_then(|_| self.analytics.advanced(site, range))
                .and_then(|_| self.analytics.store_page_hours(site, range));
            report.sites += 1;
            if let Err(e) = warmed {
                tracing::warn!(website_id = site, error = %e, "warming the stored hours failed");
                report.failed += 1;
            }
        }
        Ok(report)
    }

    /// The writer keeps the rollups as it writes.
    fn rebuild_rollups(&self, _site: WebsiteId, _from: Millis, _to: Millis) -> Result<()> {
        Ok(())
    }

    fn site_zone(&self, site: WebsiteId) -> Result<chrono_tz::Tz> {
        self.db.read(|conn| Ok(crate::privacy::deletion::site_zone(conn, site)?))
    }

    /// Rebuilds every rollup of the site in one write transaction, which reads the timezone the writer's batches
    /// read: a batch before it is counted again, one after it keys by the new zone.
    fn timezone_changed(&self, site: WebsiteId) -> Result<()> {
        self.db.write(|conn| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            crate::privacy::deletion::rekey_rollups(&tx, site)?;
            tx.commit()?;
            Ok(())
        })
    }

    /// When the database's write lock can be taken within 2 seconds, on a connection of its own: the shared
    /// one may be held by a long deletion, which is not unreadiness.
    fn ready(&self) -> Result<()> {
        let unwritable = |e: Error| Error::Unavailable(format!("the database is not writable: {e}"));
        let conn = db::connect(self.db.path()).map_err(unwritable)?;
        conn.busy_timeout(std::time::Duration::from_secs(2)).map_err(|e| unwritable(e.into()))?;
        conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;").map_err(|e| unwritable(e.into()))?;
        Ok(())
    }

    /// A site's deletion finishes in its request: no job is left.
    fn run_deletions_due_by(&self, _at: Millis) -> Result<usize> {
        Ok(0)
    }

    fn deletion_jobs(&self) -> Result<Vec<DeletionJob>> {
        Ok(Vec::new())
    }
}
