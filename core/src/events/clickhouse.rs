//! The events store of cluster mode: hits on the sharded ClickHouse (`cluster/`), with the metadata each read
//! needs beside them (recordings, known organizations, event definitions, imports) read from PostgreSQL through
//! the metadata boundary and handed to the ClickHouse query, never joined in SQL. Every read of a site's events
//! first waits for any privacy deletion of that site still under way (`Cluster::settle`, `cluster::privacy_jobs`):
//! a read added here must do so too.

mod filtered;

use std::io::Write;

use super::filtered::totals_and_top_pages;
use super::{
    Erasure, ExportRows, Filters, HistoryImports, IntentReads, PageData, PathReads, TrafficReads, Upkeep, VisitReads,
};
use crate::analytics::advanced::TOP_PAGES;
use crate::analytics::funnels::StepPattern;
use crate::analytics::intent_cache::IntentModels;
use crate::analytics::journeys::{CustomerJourneys, JourneyFilter, JourneyPaths};
use crate::analytics::{
    ActiveSession, ActivityEvent, Advanced, AiIntent, Conversions, CountryCount, Dimension, DimensionCount,
    EventSummary, Heatmap, IdentifiedVisitor, LiveVisitors, OrganizationSummary, Overview, PageRendering,
    ReferrerCount, ReplayDetail, ReplayEvents, ReplayFilter, ReplayStats, ReplaySummary, SessionJourney, SiteMetric,
    SitePeriods, StreamSession, TimeRange, Timeseries, Totals, TrafficSource,
};
use crate::cluster::Cluster;
use crate::cluster::advanced::AdvancedVisits;
use crate::cluster::imports::ClusterImports;
use crate::cluster::replays::AdmittedVisits;
use crate::error::{Error, Result};
use crate::export::{ExportFormat, ExportQuery};
use crate::import::{ImportRecord, ImportedHistory, Parsed, Source};
use crate::model::{Millis, UserId, WebsiteId, now_ms};
use crate::privacy::{DataType, DeletionJob, DeletionReport, Privacy, RetentionReport, Right, VisitorDeletion};
use crate::store::funnels::DropOffVisit;
use crate::store::meta::{KnownOrganization, Meta};
use crate::warm::WarmReport;

/// The cluster's engine: ClickHouse's shards and PostgreSQL's metadata.
pub(crate) struct ClickHouseEvents {
    cluster: Cluster,
    meta: Meta,
    /// For the site's privacy settings, which say whether a visitor's data may be read or erased.
    privacy: Privacy,
    imports: ClusterImports,
    /// The intent models this daemon fitted on ClickHouse (each daemon fits its own).
    intent_models: IntentModels,
}

impl ClickHouseEvents {
    pub(crate) fn new(cluster: Cluster, meta: Meta, privacy: Privacy) -> ClickHouseEvents {
        let imports = ClusterImports::new(cluster.pg.clone(), cluster.events.clone());
        ClickHouseEvents { cluster, meta, privacy, imports, intent_models: IntentModels::default() }
    }

    fn known(&self, site: WebsiteId) -> Result<Vec<KnownOrganization>> {
        self.meta.known_organizations(site)
    }

    /// Waits for any privacy deletion of the site of a recording (`Cluster::settle`): a deletion of everything
    /// takes the recordings of the visits it empties.
    fn settle_replay(&self, owner: UserId, replay: i64) -> Result<()> {
        match self.meta.owned_replay(owner, replay)? {
            Some(row) => self.cluster.settle(&[row.website_id]),
            None => Ok(()),
        }
    }
}

impl TrafficReads for ClickHouseEvents {
    fn overview(&self, site: WebsiteId, range: TimeRange) -> Result<Overview> {
        self.cluster.settle(&[site])?;
        let overview = self.cluster.events.overview(site, range)?;
        Ok(Overview { imported: self.imports.imported_within(site, range.start, range.end)?, ..overview })
    }

    fn totals(&self, site: WebsiteId, range: TimeRange) -> Result<Totals> {
        self.cluster.settle(&[site])?;
        self.cluster.events.totals(site, range)
    }

    fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        self.cluster.settle(&[site])?;
        self.cluster.events.timeseries(site, range)
    }

    fn recent_activity(&self, site: WebsiteId, limit: i64) -> Result<Vec<ActivityEvent>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.recent_activity(site, limit, "")
    }

    /// A site whose privacy deletion is pending has no row until its job is done (`Cluster::settled_of`).
    fn site_periods(&self, sites: &[WebsiteId], metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        let sites = self.cluster.settled_of(sites)?;
        self.cluster.events.site_periods(&self.cluster.site_zones(&sites)?, metric, now)
    }

    fn referrers(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<ReferrerCount>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.referrers(site, range)
    }

    fn traffic_sources(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<TrafficSource>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.traffic_sources(site, range)
    }

    fn breakdown(&self, site: WebsiteId, range: TimeRange, dim: Dimension, limit: i64) -> Result<Vec<DimensionCount>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.breakdown(site, range, dim, limit)
    }

    fn countries(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<CountryCount>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.countries(site, range)
    }

    fn conversions(&self, site: WebsiteId, range: TimeRange) -> Result<Conversions> {
        self.cluster.settle(&[site])?;
        self.cluster.events.conversions(site, range)
    }

    fn events_summary(&self, site: WebsiteId, range: TimeRange) -> Result<EventSummary> {
        self.cluster.settle(&[site])?;
        // In id order, as SQLite reads its definitions.
        let mut definitions: Vec<(i64, String)> =
            self.meta.definitions(site)?.into_iter().map(|d| (d.id, d.name)).collect();
        definitions.sort_unstable();
        self.cluster.events.events_summary(site, range, definitions)
    }

    /// All windows in one query.
    fn page_views_in(&self, site: WebsiteId, windows: &[(Millis, Millis)], _enough: i64) -> Result<Vec<i64>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.page_views_in(site, windows)
    }

    fn top_pages(&self, site: WebsiteId, start: Millis, end: Millis, limit: i64) -> Result<Vec<(String, i64)>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.top_pages(site, start, end, limit)
    }

    fn first_data(&self, site: WebsiteId) -> Result<Option<Millis>> {
        self.cluster.settle(&[site])?;
        // The rolled-up hours, the imported days and the hits not rolled up yet; -1 where a table has none
        // (18.16's min of no rows is 0).
        let db = self.cluster.events.database();
        let first = |sql: String| -> Result<Option<Millis>> {
            let value: Millis = self.cluster.events.nodes()[0].query_value(&sql)?;
            Ok((value >= 0).then_some(value))
        };
        let firsts = [
            first(format!(
                "SELECT if(count() = 0, -1, min(hour)) FROM {db}.rollup_hours WHERE website_id = {site} AND dim = ''"
            ))?,
            first(format!("SELECT if(count() = 0, -1, min(hour)) FROM {db}.imported_hours WHERE website_id = {site}"))?,
            first(format!("SELECT if(count() = 0, -1, min(ts)) FROM {db}.hits WHERE website_id = {site}"))?,
        ];
        Ok(firsts.into_iter().flatten().min())
    }
}

impl VisitReads for ClickHouseEvents {
    /// Looked for in the sites no privacy deletion is pending for, then (waiting for their jobs) in the others:
    /// only a session of a site being deleted from waits.
    fn session_site(&self, sites: &[WebsiteId], session: i64) -> Result<WebsiteId> {
        let settled = self.cluster.settled_of(sites)?;
        match self.cluster.events.session_site(&settled, session) {
            Err(Error::NotFound(_)) if settled.len() < sites.len() => {
                let pending: Vec<WebsiteId> = sites.iter().copied().filter(|site| !settled.contains(site)).collect();
                self.cluster.settle(&pending)?;
                self.cluster.events.session_site(&pending, session)
            }
            found => found,
        }
    }

    fn stream_session(&self, site: WebsiteId, session: i64) -> Result<StreamSession> {
        self.cluster.settle(&[site])?;
        self.cluster.events.stream_session(site, session)
    }

    fn session_journey(&self, site: WebsiteId, session: i64) -> Result<SessionJourney> {
        self.cluster.settle(&[site])?;
        self.cluster.events.session_journey(site, session)
    }

    fn active_sessions(&self, site: WebsiteId) -> Result<Vec<ActiveSession>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.active_sessions(site)
    }

    /// Of several sites, those whose privacy deletion is pending are left out until it is done.
    fn live_visitors(&self, sites: &[WebsiteId], filters: &Filters) -> Result<LiveVisitors> {
        let sites = &self.cluster.settled_of(sites)?;
        let now = now_ms();
        let active = TimeRange {
            start: now - crate::analytics::ACTIVE_WINDOW_MS,
            end: now,
            grain: crate::analytics::Grain::Hour,
            tz: chrono_tz::Tz::UTC,
        };
        self.cluster
            .events
            .live_visitors(&self.cluster.site_zones(sites)?, &self.admitted_visits_of(sites, active, filters))
    }

    fn organizations(&self, site: WebsiteId) -> Result<Vec<OrganizationSummary>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.organizations(site, self.known(site)?)
    }

    fn organization(&self, site: WebsiteId, known: KnownOrganization) -> Result<OrganizationSummary> {
        self.cluster.settle(&[site])?;
        self.cluster.events.organization(site, known)
    }

    fn identified_visitors(&self, site: WebsiteId) -> Result<Vec<IdentifiedVisitor>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.identified_visitors(site, self.known(site)?)
    }
}

impl PathReads for ClickHouseEvents {
    /// Of several sites, those whose privacy deletion is pending are left out until it is done.
    fn journey_paths(&self, sites: &[WebsiteId], range: TimeRange, filters: &Filters) -> Result<JourneyPaths> {
        let sites = &self.cluster.settled_of(sites)?;
        self.cluster.events.journey_paths(sites, range, &self.admitted_visits_of(sites, range, filters))
    }

    /// The models missing from this daemon's cache are fitted in one read of all their sites, not one per site.
    fn customer_journeys(
        &self,
        sites: &[WebsiteId],
        range: TimeRange,
        filters: &Filters,
        filter: JourneyFilter,
        now: Millis,
    ) -> Result<CustomerJourneys> {
        let sites = &self.cluster.settled_of(sites)?;
        let events = &self.cluster.events;
        let models = self.intent_models.cached_all(sites, |stale, now| events.fit_intents(stale, now))?;
        let admitted = self.admitted_visits_of(sites, range, filters);
        events.customer_journeys(sites, range, &admitted, filter, now, &models)
    }

    fn funnel_counts(
        &self,
        site: WebsiteId,
        funnels: &[(i64, Vec<StepPattern>)],
        range: TimeRange,
        filters: &Filters,
    ) -> Result<Vec<Vec<u64>>> {
        self.cluster.settle(&[site])?;
        let admitted = self.admitted_visits_of(&[site], range, filters);
        funnels.iter().map(|(_, steps)| self.cluster.events.funnel_counts(site, steps, range, &admitted)).collect()
    }

    fn funnel_drop_offs(
        &self,
        site: WebsiteId,
        steps: &[StepPattern],
        range: TimeRange,
        filters: &Filters,
        limit: usize,
        _dropped: &[u64],
    ) -> Result<Vec<Vec<DropOffVisit>>> {
        self.cluster.settle(&[site])?;
        let admitted = self.admitted_visits_of(&[site], range, filters);
        let mut found = self.cluster.events.funnel_drop_offs(site, steps, range, &admitted, limit)?;
        // A visit's recording is in PostgreSQL: its id is the drop-off's `replayId`, as SQLite joins it.
        let visits: Vec<i64> = found.iter().flatten().map(|v| v.id).collect();
        let replays: std::collections::HashMap<i64, i64> =
            self.meta.visit_replays(site, &visits)?.into_iter().map(|r| (r.visit, r.id)).collect();
        for visit in found.iter_mut().flatten() {
            visit.replay_id = replays.get(&visit.id).copied();
        }
        Ok(found)
    }
}

impl IntentReads for ClickHouseEvents {
    fn advanced(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Advanced> {
        self.cluster.settle(&[site])?;
        let events = &self.cluster.events;
        let model = self.intent_models.cached(site, false, |now| events.fit_intent(site, now))?;
        let now = now_ms();
        // The visitors on the site now: the admitted visits active in the last minutes.
        let active = TimeRange {
            start: now - crate::analytics::ACTIVE_WINDOW_MS,
            end: now,
            grain: crate::analytics::Grain::Hour,
            tz: range.tz,
        };
        let admitted = AdvancedVisits {
            of_range: self.admitted_visit_test_of(&[site], range, filters),
            active: self.admitted_visit_test_of(&[site], active, filters),
        };
        let traffic = || match filters.is_empty() {
            true => events.totals_and_top_pages(site, range),
            false => totals_and_top_pages(self, site, range, filters, TOP_PAGES),
        };
        events.advanced(site, range, &model, now, &admitted, traffic)
    }

    fn ai_intent(&self, site: WebsiteId, range: TimeRange, filters: &Filters, refit: bool) -> Result<AiIntent> {
        self.cluster.settle(&[site])?;
        let events = &self.cluster.events;
        let model = self.intent_models.cached(site, refit, |now| events.fit_intent(site, now))?;
        events.ai_intent(site, range, &model, self.admitted_visit_test_of(&[site], range, filters).as_deref())
    }
}

impl PageData for ClickHouseEvents {
    fn page_urls(&self, site: WebsiteId) -> Result<Vec<String>> {
        self.cluster.settle(&[site])?;
        self.cluster.events.page_urls(site, self.site_zone(site)?, now_ms())
    }

    fn heatmap(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<Heatmap> {
        self.cluster.settle(&[site])?;
        self.cluster.events.heatmap(site, path, range)
    }

    fn page_snapshot(&self, site: WebsiteId, path: &str) -> Result<PageRendering> {
        self.cluster.settle(&[site])?;
        self.cluster.page_snapshot(self.meta.as_ref(), site, path)
    }

    fn replays(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
        limit: i64,
    ) -> Result<Vec<ReplaySummary>> {
        self.cluster.settle(&[site])?;
        let admitted = |visits: &[i64]| self.admitted_among(site, visits, filters);
        let admitted = (!filters.is_empty()).then_some(&admitted as &AdmittedVisits);
        self.cluster.replays(self.meta.as_ref(), &self.known(site)?, site, range, admitted, filter, limit)
    }

    fn replay_stats(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
    ) -> Result<ReplayStats> {
        self.cluster.settle(&[site])?;
        let admitted = |visits: &[i64]| self.admitted_among(site, visits, filters);
        let admitted = (!filters.is_empty()).then_some(&admitted as &AdmittedVisits);
        self.cluster.replay_stats(self.meta.as_ref(), &self.known(site)?, site, range, admitted, filter)
    }

    fn replay(&self, owner: UserId, replay: i64) -> Result<ReplayDetail> {
        self.settle_replay(owner, replay)?;
        self.cluster.replay(self.meta.as_ref(), owner, replay, |site| self.known(site))
    }

    fn replay_events(&self, owner: UserId, replay: i64) -> Result<ReplayEvents> {
        self.settle_replay(owner, replay)?;
        ReplayEvents::of(self.meta.clone(), owner, replay)
    }
}

impl ExportRows for ClickHouseEvents {
    fn export_row_count(&self, query: &ExportQuery) -> Result<Option<u64>> {
        self.cluster.settle(&[query.site])?;
        Ok(None)
    }

    /// From every shard at once, so no running count.
    fn write_export(
        &self,
        query: &ExportQuery,
        format: ExportFormat,
        out: &mut dyn Write,
        _progress: &mut dyn FnMut(u64),
    ) -> Result<u64> {
        self.cluster.settle(&[query.site])?;
        let db = self.cluster.events.database();
        let admitted = filtered::admitted_hit_condition(db, query.site, &query.filters, query.since);
        self.cluster.events.write_export(query, &admitted, format, out)
    }

    fn export_sessions(&self, site: WebsiteId, out: &mut dyn Write) -> Result<u64> {
        self.cluster.settle(&[site])?;
        self.cluster.events.export_sessions(site, out)
    }
}

impl Erasure for ClickHouseEvents {
    fn visitor_data(&self, site: WebsiteId, visitor: &str) -> Result<serde_json::Value> {
        self.privacy.check_right(site, Right::Access)?;
        self.cluster.settle(&[site])?;
        self.cluster.visitor_data(self.meta.as_ref(), site, visitor)
    }

    fn delete_visitor(&self, site: WebsiteId, visitor: &str) -> Result<VisitorDeletion> {
        self.privacy.check_right(site, Right::Erasure)?;
        self.cluster.delete_visitor(self.meta.as_ref(), site, visitor)
    }

    /// Counted in the request, deleted on every shard by a deletion job (see `Cluster::delete_data`).
    fn delete_data(&self, site: WebsiteId, data: DataType, before: Option<Millis>) -> Result<DeletionReport> {
        self.cluster.delete_data(site, data, before)
    }

    /// A job in PostgreSQL, run by any daemon shortly after (see `cluster::deletion_jobs`): the request does
    /// not wait for the shards' mutations.
    fn delete_sites(&self, sites: &[WebsiteId]) -> Result<()> {
        self.cluster.enqueue_site_deletion(sites)
    }

    fn settle(&self, sites: &[WebsiteId]) -> Result<()> {
        self.cluster.settle(sites)
    }

    fn settled_of(&self, sites: &[WebsiteId]) -> Result<Vec<WebsiteId>> {
        self.cluster.settled_of(sites)
    }

    /// Each site's expired hits deleted on every shard, by one daemon at a time.
    fn apply_retention_at(&self, now: Millis) -> Result<RetentionReport> {
        match self.cluster.apply_retention(self.meta.as_ref(), now)? {
            Some(report) => Ok(report),
            None => {
                tracing::info!("retention is being applied by another daemon of the cluster");
                Ok(RetentionReport::default())
            }
        }
    }
}

impl HistoryImports for ClickHouseEvents {
    /// A PostgreSQL advisory lock of its own connection, shared by every daemon.
    fn lock_imports(&self, site: WebsiteId) -> Result<Box<dyn std::any::Any>> {
        Ok(Box::new(self.imports.lock(site)?))
    }

    fn store_import(
        &self,
        site: WebsiteId,
        source: Source,
        file_name: &str,
        parsed: &Parsed,
        (first_day, last_day): (Millis, Millis),
        batch: usize,
    ) -> Result<(i64, (i64, i64))> {
        let days = parsed.staging.days()?;
        let id = self.imports.begin(site, source.as_str(), file_name, parsed.rows, (first_day, last_day), &days)?;
        let stored = if parsed.staging.has_days()? {
            self.imports.store_days(site, id, &parsed.staging, batch)?
        } else {
            self.imports.store_hits(site, id, &parsed.staging, (first_day, last_day), batch)?
        };
        Ok((id, stored))
    }

    fn imports(&self, site: WebsiteId) -> Result<Vec<ImportRecord>> {
        self.imports.list(site)
    }

    fn imported_within(&self, site: WebsiteId, start: Millis, end: Millis) -> Result<Option<ImportedHistory>> {
        self.imports.imported_within(site, start, end)
    }
}

impl Upkeep for ClickHouseEvents {
    /// Rolls up the hours closed by now into ClickHouse's rollups (one daemon at a time); reports no site.
    fn warm(&self) -> Result<WarmReport> {
        self.cluster.roll_up(now_ms())?;
        Ok(WarmReport::default())
    }

    fn rebuild_rollups(&self, site: WebsiteId, from: Millis, to: Millis) -> Result<()> {
        self.cluster.rebuild_rollups(site, from, to).map(|_| ())
    }

    /// The site's timezone in PostgreSQL, which the roll-ups key its hours and days by.
    fn site_zone(&self, site: WebsiteId) -> Result<chrono_tz::Tz> {
        self.cluster.site_zone(site)
    }

    /// Rebuilds every rolled-up hour of the site in its new zone (`Cluster::rekey_site`); its hits and imported
    /// days are read in the zone as they are.
    fn timezone_changed(&self, site: WebsiteId) -> Result<()> {
        self.cluster.settle(&[site])?;
        self.cluster.rekey_site(site)
    }

    /// When PostgreSQL and every ClickHouse shard answer.
    fn ready(&self) -> Result<()> {
        self.cluster.ready()
    }

    fn run_deletions_due_by(&self, at: Millis) -> Result<usize> {
        self.cluster.run_deletions_due_by(at)
    }

    fn deletion_jobs(&self) -> Result<Vec<DeletionJob>> {
        self.cluster.deletion_jobs()
    }
}
