//! The Journeys screen's reads from ClickHouse. The most common paths (`/api/analytics/journeys`): each visit's
//! page views gathered with `groupArray` in time order, folded and cut in SQL as SQLite's `visit_hours` tallies
//! them, counted per path on the shards, ranked here as SQLite ranks them. The customer journeys
//! (`/customer-journeys`): totals by class counted on the shards, the newest visits listed with their steps and
//! scored by the same intent code as SQLite's.

use std::collections::HashMap;
use std::sync::Arc;

use super::clickhouse::{join, quote};
use super::events::Events;
use super::intent::{ScrollReport, deepest_before, page_view_depths};
use super::visits::{DAY_MS, int, sites_condition, text, visit_rows, visits_sql};
use crate::analytics::TimeRange;
use crate::analytics::intent::{IntentModel, SourceType, VisitRow, visit_features};
use crate::analytics::journeys::{
    CustomerJourney, CustomerJourneys, JOURNEY_IDLE_MS, JOURNEY_LIST_LIMIT, JourneyFilter, JourneyPath, JourneyPaths,
    JourneySummary, MORE_PAGES, PATH_DEPTH, TOP_PATHS, VisitorInfo, or, source, steps_of,
};
use crate::analytics::visit_hours::{ClassTotals, HOUR_MS, JourneyTotals};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// `GET /api/analytics/journeys` in cluster mode over `sites` (the caller's, checked by the caller), as
    /// SQLite's `Analytics::journey_paths` answers it: the visits that started in the range's hours (SQLite
    /// tallies whole hours), each with its page views in order, repeats in a row folded and cut after
    /// [`PATH_DEPTH`] pages; the [`TOP_PATHS`] taken most, ties by their pages. Only the visits `admitted`
    /// keeps (a read's filters as a condition on hits, `" AND ..."`, or nothing).
    pub fn journey_paths(&self, sites: &[WebsiteId], range: TimeRange, admitted: &str) -> Result<JourneyPaths> {
        if sites.is_empty() {
            return Ok(JourneyPaths { total_sessions: 0, paths: Vec::new() });
        }
        let from = range.start.div_euclid(HOUR_MS) * HOUR_MS;
        let to = ((range.end - 1).div_euclid(HOUR_MS) + 1) * HOUR_MS;
        // Page views in (time, path) order: hits of one visit in the same millisecond have no other order here.
        // A path holds no line break (it is a URL's path), so the joined pages are the path's key.
        let rows = self.nodes()[0].query(&format!(
            "SELECT arrayStringConcat(pages, '\\n') AS key, count() AS sessions, countIf(converted) AS conversions
             FROM (
                SELECT website_id, visit_id, min(ts) AS start, countIf(kind = 'conversion') > 0 AS converted,
                       arrayMap(v -> v.2, arraySort(groupArrayIf((ts, path), kind = 'pageview'))) AS views,
                       arrayFilter((p, i) -> i = 1 OR p != views[i - 1], views, arrayEnumerate(views)) AS folded,
                       if(length(folded) > {PATH_DEPTH},
                          arrayPushBack(arraySlice(folded, 1, {PATH_DEPTH}), {more}), folded) AS pages
                FROM {db}.hits
                WHERE {rows}{admitted}
                GROUP BY website_id, visit_id
                HAVING start >= {from} AND start < {to} AND length(views) > 0
             )
             GROUP BY key",
            more = quote(MORE_PAGES),
            db = self.database(),
            rows = visit_rows(self.database(), sites, from, to),
        ))?;
        let mut tallies: HashMap<String, (u64, u64)> = HashMap::new();
        for row in &rows {
            tallies.insert(text(row, 0)?, (int(row, 1)? as u64, int(row, 2)? as u64));
        }
        let total_sessions = tallies.values().map(|t| t.0).sum();
        let mut paths: Vec<JourneyPath> = tallies
            .into_iter()
            .map(|(key, (sessions, conversions))| JourneyPath {
                pages: key.split('\n').map(str::to_string).collect(),
                sessions,
                conversions,
                conversion_rate: conversions as f64 * 100.0 / sessions.max(1) as f64,
            })
            .collect();
        paths.sort_by(|a, b| b.sessions.cmp(&a.sessions).then_with(|| a.pages.cmp(&b.pages)));
        paths.truncate(TOP_PATHS);
        Ok(JourneyPaths { total_sessions, paths })
    }
}

impl Events {
    /// `GET /api/analytics/customer-journeys` in cluster mode over `sites` (the caller's, checked by the
    /// caller), as SQLite's `Analytics::customer_journeys` answers it: totals of every visit that started in the
    /// range by class (over and converted, over without, not over), and the newest [`JOURNEY_LIST_LIMIT`] of the
    /// filter's visits with their steps, each scored by its site's model in `models`; of the visits `admitted`
    /// keeps (as in `journey_paths`).
    pub fn customer_journeys(
        &self,
        sites: &[WebsiteId],
        range: TimeRange,
        admitted: &str,
        filter: JourneyFilter,
        now: Millis,
        models: &HashMap<WebsiteId, Arc<IntentModel>>,
    ) -> Result<CustomerJourneys> {
        let empty = CustomerJourneys { summary: JourneySummary::of(ClassTotals::default()), journeys: Vec::new() };
        if sites.is_empty() {
            return Ok(empty);
        }
        let (db, node) = (self.database(), &self.nodes()[0]);
        let (from, to, cut) = (range.start, range.end, now - JOURNEY_IDLE_MS);
        // A visit as SQLite's session row keeps it: the first hit's dimensions; its events are what the writer
        // counts as such (every hit but page views, touches and consent choices).
        let visits = format!(
            "SELECT website_id, visit_id, argMin(session_key, ts) AS session_key, toInt64(any(visitor)) AS visitor,
                    min(ts) AS start, max(ts) AS last, countIf(kind = 'pageview') AS page_views,
                    countIf(kind NOT IN ('pageview', 'touch', 'consent')) AS events,
                    countIf(kind = 'conversion') > 0 AS converted,
                    argMin(city, ts) AS city, argMin(region, ts) AS region, argMin(country, ts) AS country,
                    argMin(device, ts) AS device, argMin(browser, ts) AS browser, argMin(utm_source, ts) AS utm_source,
                    argMin(referrer_host, ts) AS referrer_host, argMin(utm_medium, ts) AS utm_medium,
                    argMin(utm_campaign, ts) AS utm_campaign, max(organization_asn != 0) AS organization
             FROM {db}.hits
             WHERE {rows}{admitted}
             GROUP BY website_id, visit_id
             HAVING start >= {from} AND start < {to}",
            rows = visit_rows(db, sites, from, to),
        );
        let condition = match filter {
            JourneyFilter::All => "1".to_string(),
            JourneyFilter::Converted => format!("last < {cut} AND converted"),
            JourneyFilter::Abandoned => format!("last < {cut} AND NOT converted"),
            JourneyFilter::Active => format!("last >= {cut}"),
        };
        let (classes, listed) = join(
            || {
                node.query(&format!(
                    "SELECT last >= {cut} AS active, converted, count(), sum(intDiv(last - start, 1000)),
                            sum(page_views + events)
                     FROM ({visits}) GROUP BY active, converted"
                ))
            },
            || {
                node.query(&format!(
                    "SELECT visit_id, session_key, website_id, start, last, page_views, events, converted, city, region,
                            country, device, browser, utm_source, referrer_host, utm_medium, utm_campaign,
                            organization, visitor
                     FROM ({visits}) WHERE {condition}
                     ORDER BY start DESC, visit_id DESC LIMIT {JOURNEY_LIST_LIMIT}"
                ))
            },
        )?;
        let mut totals = JourneyTotals::default();
        for row in &classes {
            let (active, converted) = (int(row, 0)? != 0, int(row, 1)? != 0);
            let class = ClassTotals {
                visits: int(row, 2)? as u64,
                duration_s: int(row, 3)?,
                touchpoints: int(row, 4)? as u64,
                conversions: if converted { int(row, 2)? as u64 } else { 0 },
            };
            match (active, converted) {
                (true, _) => totals.active.add(class),
                (false, true) => totals.converted.add(class),
                (false, false) => totals.abandoned.add(class),
            }
        }
        let summary = JourneySummary::of(filter.totals(&totals));
        if listed.is_empty() {
            return Ok(CustomerJourneys { summary, ..empty });
        }
        let mut visits: Vec<(VisitRow, CustomerJourney)> = Vec::with_capacity(listed.len());
        for r in &listed {
            let (first_seen, last_seen) = (int(r, 3)?, int(r, 4)?);
            let place: Vec<String> =
                [text(r, 8)?, text(r, 9)?, text(r, 10)?].into_iter().filter(|p| !p.is_empty()).collect();
            let row = VisitRow {
                id: int(r, 0)?,
                key: text(r, 1)?,
                hash: int(r, 18)?,
                first_seen,
                last_seen,
                converted: int(r, 7)? != 0,
                source: SourceType::classify(&text(r, 14)?, &text(r, 13)?, &text(r, 15)?, &text(r, 16)?),
                organization: int(r, 17)? != 0,
            };
            let journey = CustomerJourney {
                session_id: row.key.clone(),
                website_id: int(r, 2)?,
                started_at: first_seen,
                touchpoints: (int(r, 5)? + int(r, 6)?) as u64,
                conversion_events: 0,
                total_duration: (last_seen - first_seen) / 1000,
                journey_score: 0,
                is_completed: last_seen < cut,
                visitor_info: VisitorInfo {
                    location: if place.is_empty() { "Unknown Location".into() } else { place.join(", ") },
                    device: or(text(r, 11)?, "Desktop"),
                    browser: or(text(r, 12)?, "Unknown"),
                    source: source(text(r, 13)?, text(r, 14)?),
                },
                steps: Vec::new(),
            };
            visits.push((row, journey));
        }
        // The listed visits' hits, scroll reports, and their visitors' first visits of each day they started on.
        let ids = visits.iter().map(|(v, _)| v.id.to_string()).collect::<Vec<_>>().join(", ");
        let sites_sql = sites_condition(sites);
        let earliest = visits.iter().map(|(v, _)| v.first_seen).min().unwrap_or(from);
        let latest = visits.iter().map(|(v, _)| v.first_seen).max().unwrap_or(from);
        let (hits, (scrolls, firsts)) = join(
            || {
                node.query(&format!(
                    "SELECT visit_id, ts, kind, name, path FROM {db}.hits
                     WHERE {sites_sql} AND visit_id IN ({ids}) AND kind NOT IN ('touch', 'consent') ORDER BY ts"
                ))
            },
            || {
                join(
                    || {
                        node.query(&format!(
                            "SELECT visit_id, ts, path, depth FROM {db}.interactions
                             WHERE {sites_sql} AND kind = 'scroll' AND visit_id IN ({ids})"
                        ))
                    },
                    || {
                        node.query(&format!(
                            "SELECT website_id, toInt64(visitor), intDiv(start, {DAY_MS}), min(start) FROM ({})
                             GROUP BY website_id, visitor, intDiv(start, {DAY_MS})",
                            visits_sql(db, sites, earliest.div_euclid(DAY_MS) * DAY_MS, latest + 1)
                        ))
                    },
                )
            },
        )?;
        let mut events: HashMap<i64, Vec<(Millis, String, String, String)>> = HashMap::new();
        for r in &hits {
            events.entry(int(r, 0)?).or_default().push((int(r, 1)?, text(r, 2)?, text(r, 3)?, text(r, 4)?));
        }
        let mut reports: HashMap<i64, Vec<ScrollReport>> = HashMap::new();
        for r in &scrolls {
            reports.entry(int(r, 0)?).or_default().push((int(r, 1)?, text(r, 2)?, int(r, 3)?));
        }
        let mut first_of_day: HashMap<(WebsiteId, i64, i64), Millis> = HashMap::new();
        for r in &firsts {
            first_of_day.insert((int(r, 0)?, int(r, 1)?, int(r, 2)?), int(r, 3)?);
        }
        let mut journeys = Vec::with_capacity(visits.len());
        for (visit, mut journey) in visits {
            let hits = events.remove(&visit.id).unwrap_or_default();
            journey.steps = steps_of(&hits, visit.last_seen);
            journey.conversion_events = hits.iter().filter(|e| e.1 == "conversion").count() as u64;
            let day = visit.first_seen.div_euclid(DAY_MS);
            let returning =
                first_of_day.get(&(journey.website_id, visit.hash, day)).is_some_and(|first| *first < visit.first_seen);
            let hits: Vec<_> = hits.into_iter().map(|(ts, kind, _, path)| (ts, kind, path)).collect();
            let depths = page_view_depths(&hits, reports.remove(&visit.id).unwrap_or_default());
            let features = visit_features(visit, hits, returning, |_, cutoff| Ok(deepest_before(&depths, cutoff)))?;
            if let Some(model) = models.get(&journey.website_id) {
                journey.journey_score = model.score(&features).score.clamp(0, 100) as u8;
            }
            journeys.push(journey);
        }
        Ok(CustomerJourneys { summary, journeys })
    }
}

#[cfg(test)]
mod tests {
    //! What only the cluster's reads promise: their number of queries. Their answers are SQLite's
    //! (events/conformance/journeys.rs).

    use super::*;
    use crate::cluster::seeded::journey_hits;
    use crate::cluster::testing::{fresh, in_time_order, scroll_reports, statements, store_jobs_in_cluster};
    use crate::ingest::Hit;
    use crate::model::now_ms;

    /// Finding 6 of issue 33: the customer journeys of an account's sites fitted each site's intent model with
    /// queries of its own (four a site). The models of all the sites are fitted in one grouped read, each the
    /// model its own fit gives, and the queries of the journeys do not grow with the number of sites.
    #[test]
    fn customer_journeys_of_many_sites_take_the_queries_of_one() {
        let Some(cluster) = fresh() else { return };
        let sites: Vec<WebsiteId> = vec![11, 12, 13, 14];
        let now = now_ms();
        let mut hits = Vec::new();
        for (n, &site) in sites.iter().enumerate() {
            cluster.add_site(site);
            // Each site's hits a few hundred milliseconds off the others': no two visits start at the same time.
            hits.extend(journey_hits(site, now).into_iter().map(|hit| Hit { ts: hit.ts - n as i64 * 100, ..hit }));
        }
        hits.sort_by_key(|h| h.ts);
        let reports = scroll_reports(&hits);
        store_jobs_in_cluster(&cluster, in_time_order(hits, reports));
        let events = cluster.events();

        let before = statements(&events);
        let models = events.fit_intents(&sites, now).unwrap();
        let fit_all = statements(&events) - before;
        let before = statements(&events);
        events.fit_intents(&sites[..1], now).unwrap();
        assert_eq!(fit_all, statements(&events) - before, "a fit of {} sites and of one", sites.len());
        for &site in &sites {
            assert_eq!(models[&site].info.weights, events.fit_intent(site, now).unwrap().info.weights, "site {site}");
        }
        let models: HashMap<_, _> = models.into_iter().map(|(site, model)| (site, Arc::new(model))).collect();

        let range = TimeRange::parse("7d", now).unwrap();
        for filter in [JourneyFilter::All, JourneyFilter::Converted, JourneyFilter::Abandoned] {
            let before = statements(&events);
            let all = events.customer_journeys(&sites, range, "", filter, now, &models).unwrap();
            let for_all = statements(&events) - before;
            let listed: std::collections::HashSet<_> = all.journeys.iter().map(|j| j.website_id).collect();
            assert!(listed.len() > 1, "journeys of several sites are listed: {listed:?}");
            let before = statements(&events);
            events.customer_journeys(&sites[..1], range, "", filter, now, &models).unwrap();
            assert_eq!(
                for_all,
                statements(&events) - before,
                "{filter:?}: queries for {} sites and for one",
                sites.len()
            );
        }
    }
}
