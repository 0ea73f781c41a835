//! The intent model's visit features read from ClickHouse: visits grouped from their hits as `visits.rs` finds
//! them, each visit's hits in time order, and the same `analytics::intent` code turning them into features
//! and fitting the model on them.

use std::collections::HashMap;
use std::time::Instant;

use super::events::Events;
use super::visits::{DAY_MS, int, text, visit_rows, visits_sql};
use crate::analytics::intent::{
    FINISHED_AFTER_MS, HISTORY_MS, IntentModel, SessionFeatures, SourceType, TRAIN_LIMIT, VisitRow, fit_features,
    visit_features,
};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// The intent model of a site fitted on its finished visits of the last [`HISTORY_MS`] in ClickHouse, as
    /// `intent::fit` fits it on SQLite's.
    pub fn fit_intent(&self, site: WebsiteId, now: Millis) -> Result<IntentModel> {
        Ok(self.fit_intents(&[site], now)?.remove(&site).unwrap_or_else(|| fit_features(&[], now, Instant::now())))
    }

    /// The intent model of each of `sites`, as `fit_intent` fits one, from one read of all their visits (the
    /// same few queries however many sites: the customer journeys of an account with hundreds).
    pub fn fit_intents(&self, sites: &[WebsiteId], now: Millis) -> Result<HashMap<WebsiteId, IntentModel>> {
        let started = Instant::now();
        let finished = Some(now - FINISHED_AFTER_MS);
        let mut history = self.intent_features_of(sites, now - HISTORY_MS, now, TRAIN_LIMIT, finished, "")?;
        Ok(sites
            .iter()
            .map(|&site| (site, fit_features(&history.remove(&site).unwrap_or_default(), now, started)))
            .collect())
    }

    /// The features of a site's visits that started in [from, to), most recent first, at most `limit`, as
    /// `intent::load_features` loads SQLite's; `finished_before`: only visits idle since then or converted.
    pub fn intent_features(
        &self,
        site: WebsiteId,
        from: Millis,
        to: Millis,
        limit: i64,
        finished_before: Option<Millis>,
        admitted: &str,
    ) -> Result<Vec<SessionFeatures>> {
        Ok(self
            .intent_features_of(&[site], from, to, limit, finished_before, admitted)?
            .remove(&site)
            .unwrap_or_default())
    }

    /// `intent_features` of each of `sites` (at most `limit` visits each), read for all of them at once, of the
    /// visits `admitted` keeps (`" AND <test>"` of a hit row, or nothing; a visit is returning after an earlier
    /// one of any kind).
    fn intent_features_of(
        &self,
        sites: &[WebsiteId],
        from: Millis,
        to: Millis,
        limit: i64,
        finished_before: Option<Millis>,
        admitted: &str,
    ) -> Result<HashMap<WebsiteId, Vec<SessionFeatures>>> {
        if sites.is_empty() {
            return Ok(HashMap::new());
        }
        let db = self.database();
        let node = &self.nodes()[0];
        let finished = match finished_before {
            Some(before) => format!("WHERE last < {before} OR is_converted"),
            None => String::new(),
        };
        // A visit's source and organization as SQLite's session row keeps them: the first hit's referrer and
        // campaign, converted on any conversion, linked to an organization by any of its hits. Each site's
        // newest `limit` visits (`LIMIT ... BY`), in the order SQLite loads them.
        let visits = node.query(&format!(
            "SELECT website_id, visit_id, session_key, toInt64(visitor), start, last, is_converted, referrer_host,
                    utm_source, utm_medium, utm_campaign, has_organization
             FROM (
                SELECT website_id, visit_id, argMin(session_key, ts) AS session_key, any(visitor) AS visitor,
                       min(ts) AS start, max(ts) AS last, countIf(kind = 'conversion') > 0 AS is_converted,
                       argMin(referrer_host, ts) AS referrer_host, argMin(utm_source, ts) AS utm_source,
                       argMin(utm_medium, ts) AS utm_medium, argMin(utm_campaign, ts) AS utm_campaign,
                       max(organization_asn != 0) AS has_organization
                FROM {db}.hits
                WHERE {}{admitted}
                GROUP BY website_id, visit_id
                HAVING start >= {from} AND start < {to}
             )
             {finished}
             ORDER BY website_id, start DESC, session_key
             LIMIT {limit} BY website_id",
            visit_rows(db, sites, from, to)
        ))?;
        let mut rows: Vec<(WebsiteId, VisitRow)> = Vec::with_capacity(visits.len());
        for r in &visits {
            let row = VisitRow {
                id: int(r, 1)?,
                key: text(r, 2)?,
                hash: int(r, 3)?,
                first_seen: int(r, 4)?,
                last_seen: int(r, 5)?,
                converted: int(r, 6)? != 0,
                source: SourceType::classify(&text(r, 7)?, &text(r, 8)?, &text(r, 9)?, &text(r, 10)?),
                organization: int(r, 11)? != 0,
            };
            rows.push((int(r, 0)?, row));
        }
        // Per site: the earliest start, the latest start and the latest activity among its visits.
        let mut spans: HashMap<WebsiteId, (Millis, Millis, Millis)> = HashMap::new();
        for (site, row) in &rows {
            let span = spans.entry(*site).or_insert((row.first_seen, row.first_seen, row.last_seen));
            *span = (span.0.min(row.first_seen), span.1.max(row.first_seen), span.2.max(row.last_seen));
        }
        if spans.is_empty() {
            return Ok(HashMap::new());
        }
        let (earliest, latest_start) =
            spans.values().fold((Millis::MAX, Millis::MIN), |(e, l), s| (e.min(s.0), l.max(s.1)));
        // Each visitor's first visit start per site and day, from the earliest visit's day: a visit is returning
        // when the visitor had an earlier one that day (the visitor hash changes daily).
        let day_start = earliest.div_euclid(DAY_MS) * DAY_MS;
        let mut first_of_day: HashMap<(WebsiteId, i64, i64), Millis> = HashMap::new();
        for r in node.query(&format!(
            "SELECT website_id, toInt64(visitor), intDiv(start, {DAY_MS}), min(start) FROM ({})
             GROUP BY website_id, visitor, intDiv(start, {DAY_MS})",
            visits_sql(db, &spans.keys().copied().collect::<Vec<_>>(), day_start, latest_start + 1)
        ))? {
            first_of_day.insert((int(&r, 0)?, int(&r, 1)?, int(&r, 2)?), int(&r, 3)?);
        }
        // The hits of a site's visits lie between its earliest start and its latest activity: one read of each
        // site's hits in its span, in time order, those of other visits skipped (as SQLite's loader does).
        let mut site_ids: Vec<WebsiteId> = spans.keys().copied().collect();
        site_ids.sort_unstable();
        let in_span = |end: bool| {
            site_ids
                .iter()
                .map(|site| {
                    let (earliest, _, latest) = spans[site];
                    if end {
                        format!("(website_id = {site} AND ts >= {earliest} AND ts <= {latest})")
                    } else {
                        format!("(website_id = {site} AND ts >= {earliest})")
                    }
                })
                .collect::<Vec<_>>()
                .join(" OR ")
        };
        let index: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, (_, r))| (r.id, i)).collect();
        let mut visit_hits: Vec<Vec<(Millis, String, String)>> = vec![Vec::new(); rows.len()];
        for r in node.query(&format!(
            "SELECT visit_id, ts, kind, path FROM {db}.hits
             WHERE ({}) AND visit_id != 0 AND kind != 'touch'
             ORDER BY ts",
            in_span(true)
        ))? {
            if let Some(&i) = index.get(&int(&r, 0)?) {
                visit_hits[i].push((int(&r, 1)?, text(&r, 2)?, text(&r, 3)?));
            }
        }
        let mut reports: Vec<Vec<ScrollReport>> = vec![Vec::new(); rows.len()];
        for r in node.query(&format!(
            "SELECT visit_id, ts, path, depth FROM {db}.interactions
             WHERE ({}) AND kind = 'scroll' AND visit_id != 0",
            in_span(false)
        ))? {
            if let Some(&i) = index.get(&int(&r, 0)?) {
                reports[i].push((int(&r, 1)?, text(&r, 2)?, int(&r, 3)?));
            }
        }
        let mut out: HashMap<WebsiteId, Vec<SessionFeatures>> = HashMap::new();
        for (((site, row), hits), reports) in rows.into_iter().zip(visit_hits).zip(reports) {
            let day = row.first_seen.div_euclid(DAY_MS);
            let first_today = first_of_day.get(&(site, row.hash, day)).copied().unwrap_or(row.first_seen);
            let returning = first_today < row.first_seen;
            let depths = page_view_depths(&hits, reports);
            let features = visit_features(row, hits, returning, |_, cutoff| Ok(deepest_before(&depths, cutoff)))?;
            out.entry(site).or_default().push(features);
        }
        Ok(out)
    }
}

/// A scroll depth report of a visit: (time, path, depth).
pub(super) type ScrollReport = (Millis, String, i64);

/// A visit's scroll depths as SQLite keeps them: each report raises the page view it belongs to (the latest
/// page view of its path at its time; none, when there is none), and a page view keeps its deepest report
/// under the time of its latest. `hits`: the visit's (time, kind, path) in time order. Returns a (time of the
/// latest report, path, deepest) row per page view, in time order.
pub(super) fn page_view_depths(hits: &[(Millis, String, String)], mut reports: Vec<ScrollReport>) -> Vec<ScrollReport> {
    reports.sort_by_key(|r| r.0);
    let mut depths: HashMap<(String, Option<Millis>), (Millis, i64)> = HashMap::new();
    for (ts, path, depth) in reports {
        let viewed = hits.iter().rev().find(|(at, kind, p)| *at <= ts && kind == "pageview" && *p == path).map(|h| h.0);
        let entry = depths.entry((path, viewed)).or_insert((ts, depth));
        *entry = (ts, entry.1.max(depth));
    }
    let mut rows: Vec<ScrollReport> = depths.into_iter().map(|((path, _), (ts, depth))| (ts, path, depth)).collect();
    rows.sort_by_key(|r| r.0);
    rows
}

/// The deepest scroll of the page views whose latest report came before `cutoff` (SQLite's
/// `MAX(depth) ... WHERE ts < cutoff`).
pub(super) fn deepest_before(depths: &[ScrollReport], cutoff: Millis) -> i64 {
    depths.iter().filter(|(ts, _, _)| *ts < cutoff).map(|d| d.2).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    //! The features behind the fit, which the events boundary does not show: the fitted model and the scores
    //! are SQLite's in events/conformance/intent_fit.rs.

    use super::*;
    use crate::cluster::seeded::intent_hits;
    use crate::cluster::testing::{fresh, in_time_order, scroll_reports, store_jobs_in_cluster};
    use crate::model::now_ms;

    #[test]
    fn a_limit_keeps_a_sites_most_recent_visits_and_no_other_sites() {
        let Some(cluster) = fresh() else { return };
        let site = 21;
        cluster.add_site(site);
        let now = now_ms();
        let hits = intent_hits(site, now);
        let reports = scroll_reports(&hits);
        store_jobs_in_cluster(&cluster, in_time_order(hits, reports));
        let events = cluster.events();

        let (from, finished) = (now - HISTORY_MS, Some(now - FINISHED_AFTER_MS));
        let all = events.intent_features(site, from, now, TRAIN_LIMIT, finished, "").unwrap();
        assert!(all.len() > 150, "{}", all.len());
        assert!(all.iter().any(|f| f.returning) && all.iter().any(|f| f.events > 0 && f.converted));
        assert!(all.iter().filter(|f| f.scroll_depth > 0).count() > 100, "scroll depths are read");
        assert_eq!(events.intent_features(site, from, now, 7, finished, "").unwrap(), all[..7].to_vec());
        assert!(events.intent_features(site + 1, from, now, TRAIN_LIMIT, None, "").unwrap().is_empty());
    }
}
