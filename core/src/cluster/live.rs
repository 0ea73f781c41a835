//! Who is on a site right now, read from ClickHouse: the live stream's active sessions and the visitor
//! stream's summary, with the meaning SQLite's `sessions` rows give them (a visit's place, device and address
//! are its first hit's; its entry and exit pages its first and latest page views').

use chrono_tz::Tz;

use super::clickhouse::join;
use super::events::Events;
use crate::analytics::{
    ACTIVE_NOW_MS, ACTIVE_WINDOW_MS, ActiveSession, CurrentActivity, LIVE_LIMIT, LivePage, LiveVisitors, STREAM_LIMIT,
    StreamSession, TOP_PAGES, TimeRange, Totals, activity_text,
};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms};

/// The columns of each visit of `sites` seen since `since` that `admitted` keeps (a read's filters as a
/// condition on hits, `" AND ..."`, or nothing), one row per visit (`{cols}` of the outer query pick from them).
fn active_visits(db: &str, sites: &[WebsiteId], since: Millis, admitted: &str) -> String {
    visit_summaries(db, sites, &format!("ts >= {since}{admitted}"), &format!("last >= {since}"))
}

/// The columns of each visit of `sites` with a hit matching `picked`, kept when `having` holds, one row per
/// visit as SQLite's `sessions` row gives it. A visit's rows are on one shard, so the visits are found on each
/// shard locally (`hits_local` in the IN) and their whole rows read.
pub(super) fn visit_summaries(db: &str, sites: &[WebsiteId], picked: &str, having: &str) -> String {
    let sites = sites.iter().map(WebsiteId::to_string).collect::<Vec<_>>().join(",");
    format!(
        "SELECT visit_id, any(website_id) AS site, any(session_key) AS session_key, any(visitor) AS visitor,
                argMin(ip_address, ts) AS ip_address, min(ts) AS first, max(ts) AS last,
                countIf(kind = 'pageview') AS page_views,
                if(page_views > 0, argMinIf(path, ts, kind = 'pageview'), argMin(path, ts)) AS entry_page,
                if(page_views > 0, argMaxIf(path, ts, kind = 'pageview'), argMin(path, ts)) AS exit_page,
                argMin(country, ts) AS country, argMin(region, ts) AS region, argMin(city, ts) AS city,
                argMin(device, ts) AS device, argMin(browser, ts) AS browser, argMin(os, ts) AS os,
                argMin(utm_source, ts) AS utm_source, argMin(referrer, ts) AS referrer,
                countIf(kind = 'conversion') > 0 AS converted,
                sumIf(ifNull(value, 0), kind = 'conversion') AS conversion_value,
                countIf(kind NOT IN ('identify', 'consent', 'touch')) > 0 AS has_activity,
                argMaxIf(kind, ts, kind NOT IN ('identify', 'consent', 'touch')) AS latest_kind,
                argMaxIf(name, ts, kind NOT IN ('identify', 'consent', 'touch')) AS latest_name
         FROM {db}.hits
         WHERE website_id IN ({sites}) AND kind != 'consent' AND visit_id IN (
            SELECT visit_id FROM {db}.hits_local WHERE website_id IN ({sites}) AND visit_id != 0 AND {picked})
         GROUP BY visit_id
         HAVING {having}"
    )
}

/// The columns of a visit the stream lists, from `visit_summaries`, in the order `stream_session` reads them.
pub(super) const STREAM_COLUMNS: &str = "visit_id, site, country, region, city, device, browser, os, first, last,
    converted, conversion_value, page_views, entry_page, exit_page, utm_source, referrer, has_activity,
    latest_kind, latest_name";

fn number<T: std::str::FromStr>(field: &str) -> Result<T> {
    field.parse().map_err(|_| Error::Internal(format!("ClickHouse: unexpected number {field:?}")))
}

impl Events {
    /// The live stream's list in cluster mode: sessions of a site seen in the last five minutes, most recent
    /// first, as SQLite's `Analytics::active_sessions` lists them.
    pub fn active_sessions(&self, site: WebsiteId) -> Result<Vec<ActiveSession>> {
        let since = now_ms() - ACTIVE_WINDOW_MS;
        let rows = self.nodes()[0].query(&format!(
            "SELECT visit_id, session_key, ip_address, last, exit_page, country, device, browser
             FROM ({}) ORDER BY last DESC, visit_id DESC LIMIT {LIVE_LIMIT}",
            active_visits(self.database(), &[site], since, "")
        ))?;
        rows.into_iter()
            .map(|row| match row.as_slice() {
                [id, session, ip, last, page, country, device, browser] => Ok(ActiveSession {
                    id: number(id)?,
                    session_id: session.clone(),
                    ip_address: (!ip.is_empty()).then(|| ip.clone()),
                    last_seen: number(last)?,
                    current_page: page.clone(),
                    country: country.clone(),
                    device: device.clone(),
                    browser: browser.clone(),
                }),
                _ => Err(Error::Internal("ClickHouse: unexpected active session row".into())),
            })
            .collect()
    }

    /// `GET /api/analytics/live-visitors` in cluster mode, as SQLite's `Analytics::live_visitors` answers it:
    /// today's new visitors and conversions are the overview's totals of each site's local day (`zones`: each
    /// site's zone). Only the active visits `admitted` keeps are counted and listed (the day's figures are the
    /// sites').
    pub fn live_visitors(&self, zones: &[(WebsiteId, Tz)], admitted: &str) -> Result<LiveVisitors> {
        let mut live = LiveVisitors::default();
        if zones.is_empty() {
            return Ok(live);
        }
        let sites: Vec<WebsiteId> = zones.iter().map(|(site, _)| *site).collect();
        let now = now_ms();
        let since = now - ACTIVE_WINDOW_MS;
        let (node, visits) = (&self.nodes()[0], active_visits(self.database(), &sites, since, admitted));
        // The sites' day totals and the three lists, at once: a fixed number of queries per zone however many
        // sites the caller has (each reads them all, grouped), so one account's many sites cost another tenant
        // nothing more.
        let day_totals = || {
            let mut names: Vec<Tz> = zones.iter().map(|(_, tz)| *tz).collect();
            names.sort_by_key(|tz| tz.name());
            names.dedup();
            let mut totals = Totals::default();
            for tz in names {
                let zoned: Vec<WebsiteId> = zones.iter().filter(|(_, z)| *z == tz).map(|(site, _)| *site).collect();
                totals = totals + self.totals_of(&zoned, TimeRange::parse_in("today", now, tz)?)?;
            }
            Ok(totals)
        };
        // Active visitors are active visits, one row each (see `LiveVisitors::total_active_visitors`).
        let active = || node.query_value::<i64>(&format!("SELECT count() FROM ({visits})"));
        let pages = || {
            node.query(&format!(
                "SELECT exit_page, count() AS n FROM ({visits})
                 GROUP BY exit_page ORDER BY n DESC, exit_page LIMIT {TOP_PAGES}"
            ))
        };
        let sessions = || {
            node.query(&format!(
                "SELECT {STREAM_COLUMNS} FROM ({visits}) ORDER BY last DESC, visit_id DESC LIMIT {STREAM_LIMIT}"
            ))
        };
        let ((totals, active), (pages, sessions)) = join(|| join(day_totals, active), || join(pages, sessions))?;
        live.new_visitors_today = totals.visitors;
        live.conversions_today = totals.conversions;
        live.total_active_visitors = active;
        let mut pages: Vec<LivePage> = pages
            .into_iter()
            .map(|row| match row.as_slice() {
                [page, visitors] => Ok(LivePage { page: page.clone(), visitors: number(visitors)? }),
                _ => Err(Error::Internal("ClickHouse: unexpected live page row".into())),
            })
            .collect::<Result<_>>()?;
        pages.sort_by(|a, b| b.visitors.cmp(&a.visitors).then_with(|| a.page.cmp(&b.page)));
        live.top_pages = pages;
        live.recent_sessions = sessions.into_iter().map(|row| stream_session(&row, now)).collect::<Result<_>>()?;
        Ok(live)
    }
}

/// A row of `STREAM_COLUMNS` as the stream lists it.
pub(super) fn stream_session(row: &[String], now: Millis) -> Result<StreamSession> {
    let [
        id,
        site,
        country,
        region,
        city,
        device,
        browser,
        os,
        first,
        last,
        converted,
        value,
        page_views,
        entry,
        exit,
        utm_source,
        referrer,
        has_activity,
        kind,
        name,
    ] = row
    else {
        return Err(Error::Internal("ClickHouse: unexpected stream session row".into()));
    };
    let (first_seen, last_seen): (Millis, Millis) = (number(first)?, number(last)?);
    Ok(StreamSession {
        id: number(id)?,
        website_id: number(site)?,
        country: country.clone(),
        region: region.clone(),
        city: city.clone(),
        device_type: device.clone(),
        browser: browser.clone(),
        os: os.clone(),
        first_seen,
        last_seen,
        is_converted: converted == "1",
        conversion_value: number(value)?,
        session_duration: (last_seen - first_seen).max(0) / 1000,
        page_view_count: number(page_views)?,
        entry_page: entry.clone(),
        exit_page: exit.clone(),
        utm_source: utm_source.clone(),
        referrer: referrer.clone(),
        current_activity: CurrentActivity {
            is_active: now - last_seen < ACTIVE_NOW_MS,
            activity: if has_activity == "1" { activity_text(kind, name) } else { String::new() },
            current_page: exit.clone(),
        },
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::cluster::testing::{fresh, statements, store_in_both};
    use crate::ingest::{EventKind, Hit};
    use crate::testing::one_site;

    /// Visits of the last 20 minutes: some ended before the active window, some started before it and go on in
    /// it (3 of 16), with events, conversions, an identify call and visits whose first hit is not a page view.
    fn recent_hits(site: WebsiteId, now: Millis) -> Vec<Hit> {
        let mut hits = Vec::new();
        for visitor in 0..16u8 {
            let start = now - (20 - i64::from(visitor)) * 60_000;
            let steps: &[(EventKind, &str)] = match visitor % 4 {
                0 => &[(EventKind::Pageview, "/a"), (EventKind::Pageview, "/b")],
                1 => &[(EventKind::Custom, "/c"), (EventKind::Pageview, "/d"), (EventKind::Conversion, "/d")],
                2 => &[(EventKind::Pageview, "/a"), (EventKind::Identify, "/a"), (EventKind::Outbound, "/e")],
                _ => &[(EventKind::Custom, "/f")],
            };
            for (n, (kind, path)) in steps.iter().enumerate() {
                hits.push(Hit {
                    website_id: site,
                    session_key: format!("visitor-{visitor:03}"),
                    // Three minutes apart: the oldest visits have left the window, later ones go on in it.
                    ts: (start + n as i64 * 3 * 60_000) / 1000 * 1000,
                    kind: Some(*kind),
                    name: if *kind == EventKind::Pageview { String::new() } else { "signup".into() },
                    value: (*kind == EventKind::Conversion).then_some(12.5),
                    url: format!("https://s.example.com{path}"),
                    path: (*path).into(),
                    country: ["DE", "FR", "US"][visitor as usize % 3].into(),
                    visitor_seed: [visitor; 32],
                    ..Hit::default()
                });
            }
        }
        hits.sort_by_key(|h| h.ts);
        hits
    }

    #[test]
    fn live_lists_equal_sqlites_on_the_same_hits() {
        let Some(cluster) = fresh() else { return };
        let fixture = one_site();
        cluster.add_site(fixture.site);
        let hits = recent_hits(fixture.site, now_ms());
        store_in_both(&fixture, &cluster, hits);

        // Ids are each store's own numbering; everything else must be equal.
        let events = cluster.events();
        let mut sqlite = fixture.tracker.analytics().active_sessions(fixture.site).unwrap();
        let mut clickhouse = events.active_sessions(fixture.site).unwrap();
        assert!(sqlite.len() >= 3 && sqlite.len() < 16, "some visits are in the window, some not: {sqlite:?}");
        for list in [&mut sqlite, &mut clickhouse] {
            list.iter_mut().for_each(|s| s.id = 0);
            list.sort_by(|a, b| b.last_seen.cmp(&a.last_seen).then(a.session_id.cmp(&b.session_id)));
        }
        assert_eq!(clickhouse, sqlite);

        let mut sqlite =
            fixture.tracker.analytics().live_visitors(&[fixture.site], &crate::events::Filters::none()).unwrap();
        let mut clickhouse = events.live_visitors(&[(fixture.site, Tz::UTC)], "").unwrap();
        assert!(sqlite.conversions_today > 0 && sqlite.total_active_visitors > 0, "{sqlite:?}");
        assert!(sqlite.recent_sessions.iter().any(|s| !s.current_activity.activity.is_empty()), "{sqlite:?}");
        for live in [&mut sqlite, &mut clickhouse] {
            live.recent_sessions.iter_mut().for_each(|s| s.id = 0);
            live.recent_sessions.sort_by(|a, b| b.last_seen.cmp(&a.last_seen).then(a.entry_page.cmp(&b.entry_page)));
        }
        assert_eq!(clickhouse, sqlite);
    }

    /// Finding 6 of issue 33: the live summary of an account's sites ran a few ClickHouse queries per site
    /// (1,213 for 300 sites). Its answer over many sites is still SQLite's, in as many queries as for one site.
    #[test]
    fn live_visitors_of_many_sites_equal_sqlites_in_a_fixed_number_of_queries() {
        let Some(cluster) = fresh() else { return };
        let fixture = one_site();
        let sites = fixture.with_more_sites(11);
        let now = now_ms();
        let mut hits = Vec::new();
        for (n, &site) in sites.iter().enumerate() {
            cluster.add_site(site);
            // Each site's visits some seconds apart from the others': no two sessions tie in the stream's order.
            // Shifted 30 s back, every session is at least 30 s from the active-now (60 s) and active-window (5 min)
            // edges, so the seconds between the reads below cannot move one across an edge (they did, 60 s back).
            hits.extend(
                recent_hits(site, now - 30_000).into_iter().map(|hit| Hit { ts: hit.ts + n as i64 * 2_000, ..hit }),
            );
        }
        hits.sort_by_key(|h| h.ts);
        store_in_both(&fixture, &cluster, hits);

        let events = cluster.events();
        let plain = |mut live: LiveVisitors| {
            live.recent_sessions.iter_mut().for_each(|s| s.id = 0);
            live.recent_sessions.sort_by(|a, b| b.last_seen.cmp(&a.last_seen).then(a.website_id.cmp(&b.website_id)));
            live
        };
        let sqlite = plain(fixture.tracker.analytics().live_visitors(&sites, &crate::events::Filters::none()).unwrap());
        let sites: Vec<(WebsiteId, Tz)> = sites.into_iter().map(|site| (site, Tz::UTC)).collect();
        let one = events.live_visitors(&sites[..1], "").unwrap();
        assert!(sqlite.total_active_visitors > one.total_active_visitors && sqlite.conversions_today > 0, "{sqlite:?}");
        assert!(sqlite.recent_sessions.iter().map(|s| s.website_id).collect::<HashSet<_>>().len() > 1, "{sqlite:?}");
        let before = statements(&events);
        let all = events.live_visitors(&sites, "").unwrap();
        let for_all = statements(&events) - before;
        assert_eq!(plain(all), sqlite);

        let before = statements(&events);
        events.live_visitors(&sites[..1], "").unwrap();
        let for_one = statements(&events) - before;
        assert_eq!(for_all, for_one, "queries for {} sites and for one", sites.len());
        assert!(for_all <= 8, "{for_all} queries");
    }
}
