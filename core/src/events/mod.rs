//! The events side of the storage boundary: every read, export, erasure and upkeep step over tracked hits, as one
//! `EventStore` that SQLite (`sqlite.rs`) and the cluster's ClickHouse (`clickhouse.rs`) each implement in full.
//!
//! `Tracker::open` chooses the engine once; routes, the CLI and the services beside this one (funnels, email)
//! call `tracker.events`, never an engine. A method one engine lacks does not compile, so nothing answers from
//! the wrong database. The traits are split by area so that a reviewer reads one question on both engines
//! together; `EventStore` gathers them as `store::meta::Metadata` gathers the metadata aggregates.
//!
//! Engines take the site lists the caller resolved (who may read what is decided above this line, by the
//! metadata); metadata an engine needs beside its events (an account's recordings, known organizations, event
//! definitions) is read by the cluster's engine through the metadata boundary, and by SQLite's in the same query,
//! since one database holds both.

mod clickhouse;
#[cfg(test)]
mod conformance;
pub mod filtered;
pub mod filters;
pub mod revenue;
mod sqlite;

pub(crate) use clickhouse::ClickHouseEvents;
pub(crate) use sqlite::SqliteEvents;
pub(crate) use sqlite::admitted_visit_condition;

pub use filtered::{BreakdownBy, FilteredReads};
pub use filters::Filters;
pub use revenue::{RevenueRow, RevenueSum};

use std::io::Write;
use std::sync::Arc;

use crate::analytics::funnels::StepPattern;
use crate::analytics::journeys::{CustomerJourneys, JourneyFilter, JourneyPaths};
use crate::analytics::{
    ActiveSession, ActivityEvent, Advanced, AiIntent, Conversions, CountryCount, Dimension, DimensionCount,
    EventSummary, Heatmap, IdentifiedVisitor, LiveVisitors, OrganizationSummary, Overview, PageRendering, Period,
    ReferrerCount, ReplayDetail, ReplayEvents, ReplayFilter, ReplayStats, ReplaySummary, SessionJourney, SiteMetric,
    SitePeriods, StreamSession, TimeRange, Timeseries, Totals, TrafficSource,
};
use crate::error::Result;
use crate::export::{ExportFormat, ExportQuery};
use crate::import::{ImportRecord, ImportedHistory, Parsed, Source};
use crate::model::{Millis, UserId, WebsiteId};
use crate::privacy::{DataType, DeletionJob, DeletionReport, RetentionReport, VisitorDeletion};
use crate::store::funnels::DropOffVisit;
use crate::store::meta::KnownOrganization;
use crate::warm::WarmReport;

/// The events store a tracker reads and erases through, shared by its services.
pub type Events = Arc<dyn EventStore>;

/// Everything the product asks of its tracked hits, on either engine.
pub trait EventStore:
    TrafficReads
    + FilteredReads
    + VisitReads
    + PathReads
    + IntentReads
    + PageData
    + ExportRows
    + Erasure
    + HistoryImports
    + Upkeep
    + Send
    + Sync
{
}

impl<T> EventStore for T where
    T: TrafficReads
        + FilteredReads
        + VisitReads
        + PathReads
        + IntentReads
        + PageData
        + ExportRows
        + Erasure
        + HistoryImports
        + Upkeep
        + Send
        + Sync
{
}

/// The dashboard's figures of one site over a range: cards, chart, top lists, conversions (and email's).
pub trait TrafficReads {
    /// The Dashboard's cards over a range, with the previous period's and any imported history's.
    fn overview(&self, site: WebsiteId, range: TimeRange) -> Result<Overview>;
    /// The totals of a range (visits, events and the rest).
    fn totals(&self, site: WebsiteId, range: TimeRange) -> Result<Totals>;
    /// Visitors and page views per bucket of a range.
    fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries>;
    /// The newest page views and events.
    fn recent_activity(&self, site: WebsiteId, limit: i64) -> Result<Vec<ActivityEvent>>;
    /// A metric of each of `sites` today, yesterday, over 7 and 30 days.
    fn site_periods(&self, sites: &[WebsiteId], metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>>;
    /// Visits by referring host.
    fn referrers(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<ReferrerCount>>;
    /// Visits by traffic source.
    fn traffic_sources(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<TrafficSource>>;
    /// The most frequent values of a dimension.
    fn breakdown(&self, site: WebsiteId, range: TimeRange, dim: Dimension, limit: i64) -> Result<Vec<DimensionCount>>;
    /// Visits by country.
    fn countries(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<CountryCount>>;
    /// The conversions of a range and its conversion rate.
    fn conversions(&self, site: WebsiteId, range: TimeRange) -> Result<Conversions>;
    /// Event totals of a range with the site's definitions (in id order).
    fn events_summary(&self, site: WebsiteId, range: TimeRange) -> Result<EventSummary>;
    /// Page views in each of `windows` (start inclusive, end exclusive, not overlapping); an engine that
    /// counts window by window may stop after the first when it is below `enough` (the spike rule's question).
    fn page_views_in(&self, site: WebsiteId, windows: &[(Millis, Millis)], enough: i64) -> Result<Vec<i64>>;
    /// The `limit` most viewed pages from `start` to `end`, most views first, then by path.
    fn top_pages(&self, site: WebsiteId, start: Millis, end: Millis, limit: i64) -> Result<Vec<(String, i64)>>;
    /// The time of the site's first data, tracked or imported (to the day at least); `None` when it has none.
    fn first_data(&self, site: WebsiteId) -> Result<Option<Millis>>;
}

/// Visits one at a time and as they happen: the stream, a visit's journey, organizations and identified people.
pub trait VisitReads {
    /// The site among `sites` of a visit; `NotFound` for a missing visit and for one of another site alike.
    fn session_site(&self, sites: &[WebsiteId], session: i64) -> Result<WebsiteId>;
    /// One visit as the stream lists it.
    fn stream_session(&self, site: WebsiteId, session: i64) -> Result<StreamSession>;
    /// One visit's page-by-page journey.
    fn session_journey(&self, site: WebsiteId, session: i64) -> Result<SessionJourney>;
    /// The live stream's visits (seen in the last five minutes).
    fn active_sessions(&self, site: WebsiteId) -> Result<Vec<ActiveSession>>;
    /// The visitor stream's live summary over `sites`, its active visits those `filters` admit (the day's
    /// figures are the sites' whatever the filters: `live_visitors_where` counts them under filters).
    fn live_visitors(&self, sites: &[WebsiteId], filters: &Filters) -> Result<LiveVisitors>;
    /// The site's organizations, most visits first.
    fn organizations(&self, site: WebsiteId) -> Result<Vec<OrganizationSummary>>;
    /// One organization as the list shows it, from what the owner knows of it.
    fn organization(&self, site: WebsiteId, known: KnownOrganization) -> Result<OrganizationSummary>;
    /// The site's identified visitors, highest lead score first.
    fn identified_visitors(&self, site: WebsiteId) -> Result<Vec<IdentifiedVisitor>>;
}

/// Sequences of pages and events: journeys and funnels, each of the visits `filters` admit (every visit
/// started in the range when there is none).
pub trait PathReads {
    /// The most common paths through `sites` over a range.
    fn journey_paths(&self, sites: &[WebsiteId], range: TimeRange, filters: &Filters) -> Result<JourneyPaths>;
    /// The customer journeys of `sites`, scored by each site's intent model, in a number of queries that does
    /// not grow with the number of sites.
    fn customer_journeys(
        &self,
        sites: &[WebsiteId],
        range: TimeRange,
        filters: &Filters,
        filter: JourneyFilter,
        now: Millis,
    ) -> Result<CustomerJourneys>;
    /// Per funnel (id, steps) of one site, the visitors reaching each step over a range, in their order.
    fn funnel_counts(
        &self,
        site: WebsiteId,
        funnels: &[(i64, Vec<StepPattern>)],
        range: TimeRange,
        filters: &Filters,
    ) -> Result<Vec<Vec<u64>>>;
    /// Per step but the last, the newest visits (at most `limit`) that reached it and not the next one, each
    /// with its recording when one exists; `dropped` is each step's count, as the funnel's figures have it.
    fn funnel_drop_offs(
        &self,
        site: WebsiteId,
        steps: &[StepPattern],
        range: TimeRange,
        filters: &Filters,
        limit: usize,
        dropped: &[u64],
    ) -> Result<Vec<Vec<DropOffVisit>>>;
}

/// The intent model's screens: Advanced Analytics and AI intent (the model fitted per site and cached).
pub trait IntentReads {
    /// The Advanced Analytics screen's figures of a range, of the visits `filters` admit (every visit
    /// condition holds and, with event conditions, one of the visit's events passes them all): cards and top
    /// pages as the filtered overview counts them, segments, page conversion rates, intent scores and the
    /// visitors on the site now of the admitted visits.
    fn advanced(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Advanced>;
    /// Intent scores of a range's visits that `filters` admit and what to do about them; `refit` fits the
    /// site's model (always of all its visits) again first.
    fn ai_intent(&self, site: WebsiteId, range: TimeRange, filters: &Filters, refit: bool) -> Result<AiIntent>;
}

/// What happened on pages: heatmaps, the page under them, and recordings.
pub trait PageData {
    /// The pages viewed over the last 90 days and those with heatmap data.
    fn page_urls(&self, site: WebsiteId) -> Result<Vec<String>>;
    /// The heatmap of a page over a range.
    fn heatmap(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<Heatmap>;
    /// The page under a heatmap, from the site's latest recording that viewed it.
    fn page_snapshot(&self, site: WebsiteId, path: &str) -> Result<PageRendering>;
    /// The site's recordings with activity in a range that pass a filter, of visits `filters` admit, newest
    /// first.
    fn replays(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
        limit: i64,
    ) -> Result<Vec<ReplaySummary>>;
    /// The Session Replays cards of a range, over the recordings of visits `filters` admit.
    fn replay_stats(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
    ) -> Result<ReplayStats>;
    /// One recording of one of `owner`'s sites (another user's is not found, as a missing one).
    fn replay(&self, owner: UserId, replay: i64) -> Result<ReplayDetail>;
    /// A recording's events, read a chunk at a time.
    fn replay_events(&self, owner: UserId, replay: i64) -> Result<ReplayEvents>;
}

/// Rows out: the data exports and the privacy export's visits (callers check ownership first).
pub trait ExportRows {
    /// How many rows `query` writes, when the engine counts ahead of writing (for a progress bar); `None` when
    /// it does not (the cluster's shards are not counted twice).
    fn export_row_count(&self, query: &ExportQuery) -> Result<Option<u64>>;
    /// Writes the rows of `query` in `format`, calling `progress` with the running count where the engine
    /// pages; returns the number of rows written.
    fn write_export(
        &self,
        query: &ExportQuery,
        format: ExportFormat,
        out: &mut dyn Write,
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64>;
    /// Writes a site's visits as the privacy export's JSON array; returns how many.
    fn export_sessions(&self, site: WebsiteId, out: &mut dyn Write) -> Result<u64>;
}

/// Erasure and retention (callers check ownership first). Each finishes on every shard before it answers, but
/// the deletions the cluster leaves to a deletion job: a site's, and (counted in the request) a site's data and a
/// visitor's, whose site's reads wait for the job.
pub trait Erasure {
    /// Everything stored about one visitor of a site; refused unless the site's settings allow access.
    fn visitor_data(&self, site: WebsiteId, visitor: &str) -> Result<serde_json::Value>;
    /// Erases one visitor of a site; refused unless the site's settings allow erasure.
    fn delete_visitor(&self, site: WebsiteId, visitor: &str) -> Result<VisitorDeletion>;
    /// Deletes a site's data of one type, only rows before `before` when given.
    fn delete_data(&self, site: WebsiteId, data: DataType, before: Option<Millis>) -> Result<DeletionReport>;
    /// Deletes every event of `sites`, or leaves a durable job that will (the cluster: see
    /// `cluster::deletion_jobs`), before their metadata goes. Nothing where the metadata's deletion takes the
    /// events with it.
    fn delete_sites(&self, sites: &[WebsiteId]) -> Result<()>;
    /// Waits until no deletion of `sites`' data or visitors is under way (`Unavailable` when one waits for a
    /// retry or takes long); at once where deletions finish in their request.
    fn settle(&self, sites: &[WebsiteId]) -> Result<()>;
    /// For a read of several sites at once: `sites` without those a deletion of whose data is under way (they
    /// are left out rather than waited for); one site is settled as `settle` does. All of them where deletions
    /// finish in their request.
    fn settled_of(&self, sites: &[WebsiteId]) -> Result<Vec<WebsiteId>>;
    /// Applies every site's retention days as if it were `now` (an empty report when another daemon of a
    /// cluster is applying them).
    fn apply_retention_at(&self, now: Millis) -> Result<RetentionReport>;
}

/// Other tools' history, parsed by `import/` and stored here.
pub trait HistoryImports {
    /// The site's import lock, held until the answer is dropped (a second import into the site is refused
    /// meanwhile; the lock goes with its holder however that ends, so a killed import blocks nothing).
    fn lock_imports(&self, site: WebsiteId) -> Result<Box<dyn std::any::Any>>;
    /// Records an import of `days` (after undoing interrupted ones and refusing days already imported) and
    /// stores its staged rows in batches of `batch`; its id, with (page views, visits).
    fn store_import(
        &self,
        site: WebsiteId,
        source: Source,
        file_name: &str,
        parsed: &Parsed,
        days: (Millis, Millis),
        batch: usize,
    ) -> Result<(i64, (i64, i64))>;
    /// A site's complete imports, oldest first.
    fn imports(&self, site: WebsiteId) -> Result<Vec<ImportRecord>>;
    /// The imported history of `site` within `[start, end)`, for the overview's marker.
    fn imported_within(&self, site: WebsiteId, start: Millis, end: Millis) -> Result<Option<ImportedHistory>>;
}

/// Keeping the stored aggregates ready and saying whether the store can be written.
pub trait Upkeep {
    /// The background warming pass (serve's periodic job): stores what the slow reads would count on first use.
    fn warm(&self) -> Result<WarmReport>;
    /// Recomputes a site's aggregates of [from, to) from its hits, for hits written after those hours were
    /// aggregated (`tracker demo`'s history). Nothing where the writer keeps them as it writes.
    fn rebuild_rollups(&self, site: WebsiteId, from: Millis, to: Millis) -> Result<()>;
    /// Whether hits can be written now; `Unavailable` says what is not so.
    fn ready(&self) -> Result<()>;
    /// The timezone whose local days and hours this store keys a site's aggregates by, so its ranges are resolved
    /// in it: the site's own on SQLite; UTC on the cluster, whose rollups do not follow sites' timezones yet.
    fn site_zone(&self, site: WebsiteId) -> Result<chrono_tz::Tz>;
    /// Keys a site's aggregates by the timezone its settings now hold, after a change: every rollup of the site
    /// counted again from its raw rows (nothing where the store keys by UTC whatever the site's timezone).
    fn timezone_changed(&self, site: WebsiteId) -> Result<()>;
    /// Runs the deletion jobs due by `at` (ms) that no other daemon holds; answers how many finished. None
    /// where deletions finish in their request.
    fn run_deletions_due_by(&self, at: Millis) -> Result<usize>;
    /// The deletions still under way in the background, oldest first.
    fn deletion_jobs(&self) -> Result<Vec<DeletionJob>>;
}

impl dyn EventStore {
    /// The local days a period covers in the site's timezone (as the store keys it): `all` runs from the site's
    /// first data to today.
    pub fn range_of(&self, site: WebsiteId, period: Period, now: Millis) -> Result<TimeRange> {
        period.resolve(self.site_zone(site)?, now, || self.first_data(site))
    }
}

/// SQLite's engine over `db`, as `Tracker::open` builds it, for tests that hold a database of their own.
#[cfg(test)]
pub(crate) fn sqlite_engine(db: &crate::db::Db, meta: crate::store::meta::Meta) -> Events {
    let privacy = crate::privacy::Privacy::new(db.clone(), meta.clone());
    Arc::new(SqliteEvents::new(db.clone(), meta, crate::analytics::Analytics::new(db.clone()), privacy))
}

/// The cluster's engine over a test's corner of the harness (`db` only holds what the privacy service
/// caches), as `Tracker::open` builds it.
#[cfg(test)]
pub(crate) fn clickhouse_engine(cluster: &crate::cluster::testing::TestCluster, db: &crate::db::Db) -> Events {
    let meta = cluster.meta();
    let stores = crate::cluster::Cluster { pg: Arc::new(cluster.pg()), events: Arc::new(cluster.events()) };
    Arc::new(ClickHouseEvents::new(stores, meta.clone(), crate::privacy::Privacy::new(db.clone(), meta)))
}
