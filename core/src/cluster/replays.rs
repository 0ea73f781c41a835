//! Session recordings read in cluster mode: the recordings in PostgreSQL (`ReplayStore`) with their visits'
//! facts (device, country, page views, organization) from ClickHouse, as SQLite's list joins its sessions.

use std::collections::{HashMap, HashSet};

use super::Cluster;
use super::clickhouse::quote;
use super::events::Events;
use super::visits::{int, text};
use crate::analytics::page_snapshot::{MAX_RECORDINGS, PageRendering, latest_snapshot};
use crate::analytics::replays::{
    REPLAY_QUIET_MS, ReplaySession, duration_seconds, is_complete, replay_organization, screen_resolution,
};
use crate::analytics::{MAX_REPLAYS, ReplayDetail, ReplayFilter, ReplayStats, ReplaySummary, TimeRange};
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, WebsiteId, now_ms};
use crate::store::meta::{KnownOrganization, Metadata, ReplayOrder, ReplayQuery, ReplayRow, ReplayTotals};

/// Recordings read from PostgreSQL at a time, their visit ids sent to ClickHouse in one `IN` list: a bounded
/// query (about 20 KiB of ids, well below ClickHouse's 256 KiB) however many recordings a site holds.
#[cfg(not(test))]
const REPLAY_PAGE: i64 = 1_000;
/// Small in core tests, so that a test site's recordings span several pages.
#[cfg(test)]
const REPLAY_PAGE: i64 = 3;

/// Which of a site's visits (by id) a read's filters admit: the recordings of the others are left out.
pub(crate) type AdmittedVisits<'a> = dyn Fn(&[i64]) -> Result<HashSet<i64>> + 'a;

/// What the list shows of a recording's visit, as SQLite's `sessions` row gives it: its first hit's values,
/// its page views and the first organization its hits came from.
#[derive(Debug, Clone, Default)]
struct ReplayVisit {
    /// The session key, or `key~id` once a later visit of the key has replaced this one (as SQLite renames it).
    session_id: String,
    device: String,
    browser: String,
    os: String,
    country: String,
    ip_address: String,
    page_views: i64,
    screen: String,
    /// 0 when none of its hits came from a known network.
    organization_asn: i64,
}

impl Events {
    /// The visits of a site's recordings, by visit id.
    fn replay_visits(&self, site: WebsiteId, visits: &[i64]) -> Result<HashMap<i64, ReplayVisit>> {
        if visits.is_empty() {
            return Ok(HashMap::new());
        }
        let (db, node) = (self.database(), &self.nodes()[0]);
        let ids: Vec<String> = visits.iter().map(i64::to_string).collect();
        let rows = node.query(&format!(
            "SELECT visit_id, any(session_key), argMin(device, ts), argMin(browser, ts), argMin(os, ts),
                argMin(country, ts), argMin(ip_address, ts), countIf(kind = 'pageview'), argMin(screen, ts),
                argMinIf(organization_asn, ts, organization_asn != 0)
             FROM {db}.hits WHERE website_id = {site} AND visit_id IN ({}) GROUP BY visit_id",
            ids.join(", ")
        ))?;
        let mut found = HashMap::with_capacity(rows.len());
        for row in &rows {
            let visit = ReplayVisit {
                session_id: text(row, 1)?,
                device: text(row, 2)?,
                browser: text(row, 3)?,
                os: text(row, 4)?,
                country: text(row, 5)?,
                ip_address: text(row, 6)?,
                page_views: int(row, 7)?,
                screen: text(row, 8)?,
                organization_asn: int(row, 9)?,
            };
            found.insert(int(row, 0)?, visit);
        }
        // The latest visit of each key keeps the key; SQLite renames the earlier ones `key~id`.
        let keys: HashSet<String> = found.values().map(|v| quote(&v.session_id)).collect();
        let latest = node.query(&format!(
            "SELECT session_key, argMax(visit_id, ts) FROM {db}.hits
             WHERE website_id = {site} AND session_key IN ({}) GROUP BY session_key",
            keys.into_iter().collect::<Vec<_>>().join(", ")
        ))?;
        let latest: HashMap<String, i64> =
            latest.iter().map(|row| Ok((text(row, 0)?, int(row, 1)?))).collect::<Result<_>>()?;
        for (id, visit) in &mut found {
            if latest.get(&visit.session_id).is_some_and(|current| current != id) {
                visit.session_id = format!("{}~{id}", visit.session_id);
            }
        }
        Ok(found)
    }

    /// The first organization (ASN, 0 when none) each of a site's visits came from.
    fn visit_organizations(&self, site: WebsiteId, visits: &[i64]) -> Result<HashMap<i64, i64>> {
        if visits.is_empty() {
            return Ok(HashMap::new());
        }
        let ids: Vec<String> = visits.iter().map(i64::to_string).collect();
        let rows = self.nodes()[0].query(&format!(
            "SELECT visit_id, argMinIf(organization_asn, ts, organization_asn != 0) FROM {}.hits
             WHERE website_id = {site} AND visit_id IN ({}) GROUP BY visit_id",
            self.database(),
            ids.join(", ")
        ))?;
        rows.iter().map(|row| Ok((int(row, 0)?, int(row, 1)?))).collect()
    }

    /// Those of a site's `visits` with a page view of `path`.
    fn visits_viewing(&self, site: WebsiteId, path: &str, visits: &[i64]) -> Result<HashSet<i64>> {
        if visits.is_empty() {
            return Ok(HashSet::new());
        }
        let ids: Vec<String> = visits.iter().map(i64::to_string).collect();
        let rows = self.nodes()[0].query(&format!(
            "SELECT DISTINCT visit_id FROM {}.hits
             WHERE website_id = {site} AND kind = 'pageview' AND path = {} AND visit_id IN ({})",
            self.database(),
            quote(path),
            ids.join(", ")
        ))?;
        rows.iter().map(|row| int(row, 0)).collect()
    }
}

/// A recording of the list with its visit (empty facts when none of its visit's hits is left).
fn summary(row: ReplayRow, visit: ReplayVisit, known: &[KnownOrganization], now: Millis) -> ReplaySummary {
    let organization = known
        .iter()
        .find(|o| visit.organization_asn != 0 && o.asn == visit.organization_asn)
        .map(|o| replay_organization(o.name.clone(), o.industry.clone(), o.size.clone()));
    ReplaySummary {
        id: row.id,
        session_id: visit.session_id,
        start_time: row.started_at,
        duration: duration_seconds(row.started_at, row.ended_at),
        file_size: row.byte_size,
        screen_resolution: screen_resolution(row.screen, visit.screen),
        is_complete: is_complete(row.is_final, row.last_chunk_at, now),
        click_count: row.click_count,
        session: ReplaySession {
            device_type: visit.device,
            browser: visit.browser,
            os: visit.os,
            country: visit.country,
            ip_address: (!visit.ip_address.is_empty()).then_some(visit.ip_address),
            page_view_count: visit.page_views,
        },
        organization,
    }
}

impl Cluster {
    /// `GET /api/analytics/heatmap/page` in cluster mode: SQLite's choice (the site's recordings whose visit
    /// viewed the page, latest chunk first) of recordings in PostgreSQL and page views in ClickHouse.
    /// The recordings are read a page at a time until enough viewed the page.
    pub fn page_snapshot(&self, meta: &dyn Metadata, site: WebsiteId, path: &str) -> Result<PageRendering> {
        let mut replays = Vec::new();
        let mut after: Option<ReplayRow> = None;
        while replays.len() < MAX_RECORDINGS {
            let page =
                meta.replays_page(site, &ReplayQuery::all(), ReplayOrder::LatestChunk, after.as_ref(), REPLAY_PAGE)?;
            let visits: Vec<i64> = page.iter().map(|row| row.visit).collect();
            let viewed = self.events.visits_viewing(site, path, &visits)?;
            replays.extend(page.iter().filter(|row| viewed.contains(&row.visit)).map(|row| row.id));
            if (page.len() as i64) < REPLAY_PAGE {
                break;
            }
            after = page.into_iter().last();
        }
        latest_snapshot(meta, replays, path)
    }

    /// Calls `each` with the pages of a site's recordings that `query` keeps and `admitted` admits (their
    /// visits' ids to those the read's filters admit), newest first, each recording with whether its visit is of
    /// an organization its owner set to enterprise (`enterprise`: their ASNs; none asked when empty), until
    /// `each` answers false or no recording is left.
    fn kept_pages(
        &self,
        meta: &dyn Metadata,
        enterprise: &HashSet<i64>,
        site: WebsiteId,
        query: &ReplayQuery,
        admitted: Option<&AdmittedVisits>,
        mut each: impl FnMut(Vec<(ReplayRow, bool)>) -> bool,
    ) -> Result<()> {
        let mut after: Option<ReplayRow> = None;
        loop {
            let page = meta.replays_page(site, query, ReplayOrder::Created, after.as_ref(), REPLAY_PAGE)?;
            let full = page.len() as i64 == REPLAY_PAGE;
            after = page.last().cloned();
            let visits: Vec<i64> = page.iter().map(|r| r.visit).collect();
            let kept = match admitted {
                Some(admitted) => Some(admitted(&visits)?),
                None => None,
            };
            let organizations = match enterprise.is_empty() {
                true => HashMap::new(),
                false => self.events.visit_organizations(site, &visits)?,
            };
            let page = page
                .into_iter()
                .filter(|row| kept.as_ref().is_none_or(|kept| kept.contains(&row.visit)))
                .map(|row| {
                    let of_enterprise = organizations.get(&row.visit).is_some_and(|asn| enterprise.contains(asn));
                    (row, of_enterprise)
                })
                .collect();
            if !each(page) || !full {
                return Ok(());
            }
        }
    }

    /// `GET /api/websites/{id}/session-replays` in cluster mode, as `Analytics::replays` lists them: read from
    /// PostgreSQL, a page at a time for the enterprise filter or the read's filters (`admitted`) until the list
    /// is full.
    #[allow(clippy::too_many_arguments)]
    pub fn replays(
        &self,
        meta: &dyn Metadata,
        known: &[KnownOrganization],
        site: WebsiteId,
        range: TimeRange,
        admitted: Option<&AdmittedVisits>,
        filter: ReplayFilter,
        limit: i64,
    ) -> Result<Vec<ReplaySummary>> {
        let now = now_ms();
        let limit = limit.clamp(1, MAX_REPLAYS);
        let query = replay_query(range, filter, now);
        let enterprise = enterprise_asns(known);
        let only_enterprise = filter == ReplayFilter::Enterprise;
        let rows = if only_enterprise && enterprise.is_empty() {
            Vec::new()
        } else if only_enterprise || admitted.is_some() {
            let mut rows = Vec::new();
            let asked = if only_enterprise { enterprise } else { HashSet::new() };
            self.kept_pages(meta, &asked, site, &query, admitted, |page| {
                let kept = page.into_iter().filter(|(_, of_enterprise)| !only_enterprise || *of_enterprise);
                rows.extend(kept.map(|(row, _)| row));
                rows.len() < limit as usize
            })?;
            rows.truncate(limit as usize);
            rows
        } else {
            meta.replays_page(site, &query, ReplayOrder::Created, None, limit)?
        };
        let visits = self.events.replay_visits(site, &rows.iter().map(|r| r.visit).collect::<Vec<_>>())?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let visit = visits.get(&row.visit).cloned().unwrap_or_default();
                summary(row, visit, known, now)
            })
            .collect())
    }

    /// `GET /api/websites/{id}/session-replays/stats` in cluster mode, as `Analytics::replay_stats` counts them
    /// (the average of whole seconds, as SQLite divides integers): PostgreSQL counts the recordings, and only
    /// when the site has enterprise organizations, or the read has filters (`admitted`), are they read a page at
    /// a time to ask ClickHouse which are.
    pub fn replay_stats(
        &self,
        meta: &dyn Metadata,
        known: &[KnownOrganization],
        site: WebsiteId,
        range: TimeRange,
        admitted: Option<&AdmittedVisits>,
        filter: ReplayFilter,
    ) -> Result<ReplayStats> {
        let now = now_ms();
        let query = replay_query(range, filter, now);
        let enterprise = enterprise_asns(known);
        let only_enterprise = filter == ReplayFilter::Enterprise;
        let (totals, of_enterprise) = if only_enterprise && enterprise.is_empty() {
            (ReplayTotals::default(), 0)
        } else if enterprise.is_empty() && admitted.is_none() {
            (meta.replay_totals(site, &query)?, 0)
        } else if only_enterprise || admitted.is_some() {
            let (mut totals, mut of_enterprise) = (ReplayTotals::default(), 0);
            self.kept_pages(meta, &enterprise, site, &query, admitted, |page| {
                for (row, enterprise) in page.into_iter().filter(|(_, of)| !only_enterprise || *of) {
                    totals.count += 1;
                    totals.complete += i64::from(is_complete(row.is_final, row.last_chunk_at, now));
                    totals.seconds += duration_seconds(row.started_at, row.ended_at);
                    of_enterprise += i64::from(enterprise);
                }
                true
            })?;
            (totals, of_enterprise)
        } else {
            let mut of_enterprise = 0;
            self.kept_pages(meta, &enterprise, site, &query, None, |page| {
                of_enterprise += page.iter().filter(|(_, of_enterprise)| *of_enterprise).count() as i64;
                true
            })?;
            (meta.replay_totals(site, &query)?, of_enterprise)
        };
        let ReplayTotals { count, complete, seconds } = totals;
        Ok(ReplayStats {
            total: count,
            complete,
            average_duration: if count == 0 { 0.0 } else { seconds as f64 / count as f64 },
            enterprise: of_enterprise,
        })
    }

    /// `GET /api/replays/{id}` in cluster mode: one recording of one of `owner`'s sites as the list shows it,
    /// with `known_of` giving its site's organizations; another user's is `NotFound` like a missing one.
    pub fn replay(
        &self,
        meta: &dyn Metadata,
        owner: UserId,
        replay: i64,
        known_of: impl FnOnce(WebsiteId) -> Result<Vec<KnownOrganization>>,
    ) -> Result<ReplayDetail> {
        let row = meta.owned_replay(owner, replay)?.ok_or(Error::NotFound("replay"))?;
        let site = row.website_id;
        let known = known_of(site)?;
        let mut visits = self.events.replay_visits(site, &[row.visit])?;
        let visit = visits.remove(&row.visit).unwrap_or_default();
        Ok(ReplayDetail { website_id: site, replay: summary(row, visit, &known, now_ms()) })
    }
}

/// The recordings of `range` that `filter`'s completion keeps, as complete as they are at `now`.
fn replay_query(range: TimeRange, filter: ReplayFilter, now: Millis) -> ReplayQuery {
    let complete = match filter {
        ReplayFilter::Complete => Some(true),
        ReplayFilter::Incomplete => Some(false),
        ReplayFilter::All | ReplayFilter::Enterprise => None,
    };
    ReplayQuery { from: range.start, to: range.end, complete, quiet_since: now - REPLAY_QUIET_MS }
}

/// The ASNs of the organizations the site's owner set to enterprise.
fn enterprise_asns(known: &[KnownOrganization]) -> HashSet<i64> {
    known.iter().filter(|o| o.size == "enterprise").map(|o| o.asn).collect()
}
