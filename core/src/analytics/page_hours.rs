//! The heatmap's Page Performance figures (visits that viewed a page, their conversions, entries and bounces,
//! time on page) per page and hour, of the visits that started in the hour. Hours whose visits are all over
//! are kept in `page_hours` (migration 0019); the other hours of a range are counted from the raw rows on each
//! read, which also stores the settled ones. Called by `heatmap.rs` and the warming pass; whatever changes raw
//! visits or events forgets hours through `forget_stored_hours`.
//!
//! Why: counting from the raw rows ran a window over every page view of the range (7 days at 10M events:
//! p95 3.0 s; 90 days did not finish). Now a read sums one page's stored hours and counts the open ones.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::{Connection, params};

use super::TimeRange;
use super::stored_hours::SETTLED_MS;
use super::visit_hours::HOUR_MS;
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// Time on a page is capped at the visit timeout (Page Performance's and the Stats API's `time_on_page`).
pub(crate) const MAX_TIME_ON_PAGE_MS: i64 = 30 * 60 * 1000;

/// One page's figures over some visits.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PageFigures {
    /// Visits that viewed the page, and those of them that converted.
    pub viewers: i64,
    pub converted: i64,
    /// Visits that entered on the page, and those of them with one page view at most.
    pub entries: i64,
    pub bounces: i64,
    /// Page views of the page with a time on page (until the visit's next page view, else its last activity,
    /// when that is later), and their summed times in ms, each capped at 30 minutes.
    pub timed_views: i64,
    pub time_ms: i64,
}

impl PageFigures {
    fn add(&mut self, other: &PageFigures) {
        self.viewers += other.viewers;
        self.converted += other.converted;
        self.entries += other.entries;
        self.bounces += other.bounces;
        self.timed_views += other.timed_views;
        self.time_ms += other.time_ms;
    }
}

/// One hour's figures per page, and the latest activity of its visits (stored only once all have ended).
#[derive(Default)]
struct Hour {
    pages: HashMap<String, PageFigures>,
    last_seen: Millis,
}

/// One visit: its hour, last activity, whether it converted, and its page views as (ts, id, path).
struct Visit {
    hour: Millis,
    last_seen: Millis,
    converted: bool,
    views: Vec<(Millis, i64, String)>,
}

/// Counts the visits of a site that started in `[from, to)` per hour, from the raw rows.
fn count_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<BTreeMap<Millis, Hour>> {
    let mut hours: BTreeMap<Millis, Hour> = BTreeMap::new();
    let mut visits: HashMap<i64, Visit> = HashMap::new();
    let mut latest = from;
    {
        let mut stmt = conn.prepare_cached(
            "SELECT id, first_seen, last_seen, is_converted, entry_page, page_views FROM sessions
             WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3",
        )?;
        let mut q = stmt.query(params![site, from, to])?;
        while let Some(r) = q.next()? {
            let (id, first_seen, last_seen, converted): (i64, Millis, Millis, bool) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            let (entry_page, page_views): (String, i64) = (r.get(4)?, r.get(5)?);
            let hour_start = first_seen.div_euclid(HOUR_MS) * HOUR_MS;
            let hour = hours.entry(hour_start).or_default();
            hour.last_seen = hour.last_seen.max(last_seen);
            let entry = hour.pages.entry(entry_page).or_default();
            entry.entries += 1;
            entry.bounces += i64::from(page_views <= 1);
            visits.insert(id, Visit { hour: hour_start, last_seen, converted, views: Vec::new() });
            latest = latest.max(last_seen);
        }
    }
    if visits.is_empty() {
        return Ok(hours);
    }
    // A visit's page views lie between its first and last activity: one pass over the site's page views of
    // that span, keeping those of the visits above.
    let mut stmt = conn.prepare_cached(
        "SELECT session_id, id, ts, path FROM events
         WHERE website_id = ?1 AND ts >= ?2 AND ts <= ?3 AND kind = 'pageview'",
    )?;
    let mut q = stmt.query(params![site, from, latest])?;
    while let Some(r) = q.next()? {
        if let Some(visit) = visits.get_mut(&r.get(0)?) {
            visit.views.push((r.get(2)?, r.get(1)?, r.get(3)?));
        }
    }
    for visit in visits.values_mut() {
        visit.views.sort_unstable();
        let hour = hours.get_mut(&visit.hour).expect("every visit's hour is counted");
        let mut viewed: HashSet<&str> = HashSet::new();
        for (i, (ts, _, path)) in visit.views.iter().enumerate() {
            let page = hour.pages.entry(path.clone()).or_default();
            if viewed.insert(path) {
                page.viewers += 1;
                page.converted += i64::from(visit.converted);
            }
            let end = visit.views.get(i + 1).map_or(visit.last_seen, |next| next.0);
            if end > *ts {
                page.timed_views += 1;
                page.time_ms += (end - ts).min(MAX_TIME_ON_PAGE_MS);
            }
        }
    }
    Ok(hours)
}

fn stored_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<HashSet<Millis>> {
    let mut stmt =
        conn.prepare_cached("SELECT hour FROM page_hours_stored WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3")?;
    let hours = stmt.query_map(params![site, from, to], |r| r.get(0))?;
    Ok(hours.collect::<rusqlite::Result<_>>()?)
}

/// Stores the range's hours that ended, and whose visits were all last seen, [`SETTLED_MS`] ago and are not
/// stored yet. A day at a time through [`store_day`](super::stored_hours::store_day), so a change of the raw
/// rows (which forgets hours in its own transaction) cannot slip between count and write.
pub(crate) fn store_settled_hours(conn: &Connection, site: WebsiteId, range: TimeRange, now: Millis) -> Result<()> {
    let settled_before = now - SETTLED_MS;
    let until = range.end.min(settled_before.div_euclid(HOUR_MS) * HOUR_MS);
    if until <= range.start {
        return Ok(());
    }
    let stored = stored_hours(conn, site, range.start, until)?;
    let missing = super::stored_hours::missing_by_day(&stored, range.start.div_euclid(HOUR_MS) * HOUR_MS, until);
    for hours in missing.values() {
        let (first, last) = (hours[0], hours[hours.len() - 1]);
        let stored = super::stored_hours::store_day(conn, |tx| {
            let counted = count_hours(tx, site, first, last + HOUR_MS)?;
            let mut marker =
                tx.prepare_cached("INSERT OR REPLACE INTO page_hours_stored (website_id, hour) VALUES (?1, ?2)")?;
            let mut page = tx.prepare_cached(
                "INSERT OR REPLACE INTO page_hours
                    (website_id, path, hour, viewers, converted, entries, bounces, timed_views, time_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?;
            for &hour in hours {
                let counts = counted.get(&hour);
                if counts.is_some_and(|c| c.last_seen >= settled_before) {
                    continue;
                }
                marker.execute(params![site, hour])?;
                for (path, f) in counts.iter().flat_map(|c| &c.pages) {
                    page.execute(params![
                        site,
                        path,
                        hour,
                        f.viewers,
                        f.converted,
                        f.entries,
                        f.bounces,
                        f.timed_views,
                        f.time_ms
                    ])?;
                }
            }
            Ok(())
        })?;
        if !stored {
            break;
        }
    }
    Ok(())
}

/// Forgets the stored hours `[from, to)` (ms, hour-aligned) of a site, in the caller's transaction.
pub(crate) fn forget_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> rusqlite::Result<()> {
    for statement in [
        "DELETE FROM page_hours_stored WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM page_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
    ] {
        conn.prepare_cached(statement)?.execute(params![site, from, to])?;
    }
    Ok(())
}

/// One page's figures over the visits that started in the range: the settled hours stored first, then the
/// stored ones summed and the others counted from the raw rows, in one snapshot.
pub(crate) fn page_figures(
    conn: &Connection,
    site: WebsiteId,
    path: &str,
    range: TimeRange,
    now: Millis,
) -> Result<PageFigures> {
    store_settled_hours(conn, site, range, now)?;
    let snapshot = conn.unchecked_transaction()?;
    let mut figures = snapshot
        .prepare_cached(
            "SELECT COALESCE(SUM(viewers), 0), COALESCE(SUM(converted), 0), COALESCE(SUM(entries), 0),
                    COALESCE(SUM(bounces), 0), COALESCE(SUM(timed_views), 0), COALESCE(SUM(time_ms), 0)
             FROM page_hours WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4",
        )?
        .query_row(params![site, path, range.start, range.end], |r| {
            Ok(PageFigures {
                viewers: r.get(0)?,
                converted: r.get(1)?,
                entries: r.get(2)?,
                bounces: r.get(3)?,
                timed_views: r.get(4)?,
                time_ms: r.get(5)?,
            })
        })?;
    let stored = stored_hours(&snapshot, site, range.start, range.end)?;
    let mut hour = range.start;
    while hour < range.end {
        if stored.contains(&hour) {
            hour += HOUR_MS;
            continue;
        }
        let from = hour;
        while hour < range.end && !stored.contains(&hour) {
            hour += HOUR_MS;
        }
        for counted in count_hours(&snapshot, site, from, hour.min(range.end))?.values() {
            if let Some(page) = counted.pages.get(path) {
                figures.add(page);
            }
        }
    }
    snapshot.finish()?;
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytics::stored_hours::LATE_HIT_MS;

    const DAY_MS: Millis = 86_400_000;
    use crate::ingest::{EventKind, Hit};
    use crate::model::now_ms;
    use crate::privacy::DataType;
    use crate::testing::{OneSite, client, one_site, rows, send_from};
    use crate::tracker::Tracker;

    const PAGES: [&str; 6] = ["/", "/pricing", "/docs", "/blog", "/signup", "/about"];

    /// One page's figures straight from the raw rows, as API.md defines them.
    fn raw(conn: &Connection, site: WebsiteId, path: &str, range: TimeRange) -> PageFigures {
        let visits = "SELECT id, last_seen, is_converted FROM sessions
                      WHERE website_id = ?1 AND first_seen >= ?3 AND first_seen < ?4";
        let (viewers, converted, timed_views, time_ms) = conn
            .query_row(
                &format!(
                    "WITH v AS ({visits}),
                     pv AS (SELECT e.session_id, e.path, e.ts,
                                   LEAD(e.ts) OVER (PARTITION BY e.session_id ORDER BY e.ts, e.id) AS next_ts
                            FROM events e JOIN v ON v.id = e.session_id WHERE e.kind = 'pageview')
                     SELECT COUNT(DISTINCT pv.session_id),
                            COUNT(DISTINCT CASE WHEN v.is_converted THEN pv.session_id END),
                            COALESCE(SUM(COALESCE(pv.next_ts, v.last_seen) > pv.ts), 0),
                            COALESCE(SUM(MIN(COALESCE(pv.next_ts, v.last_seen) - pv.ts, ?5))
                                FILTER (WHERE COALESCE(pv.next_ts, v.last_seen) > pv.ts), 0)
                     FROM pv JOIN v ON v.id = pv.session_id WHERE pv.path = ?2"
                ),
                params![site, path, range.start, range.end, MAX_TIME_ON_PAGE_MS],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        let (entries, bounces) = conn
            .query_row(
                "SELECT COUNT(*), COALESCE(SUM(page_views <= 1), 0) FROM sessions
                 WHERE website_id = ?1 AND entry_page = ?2 AND first_seen >= ?3 AND first_seen < ?4",
                params![site, path, range.start, range.end],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        PageFigures { viewers, converted, entries, bounces, timed_views, time_ms }
    }

    fn assert_matches_raw(tracker: &Tracker, site: WebsiteId, what: &str) {
        let now = now_ms();
        for name in ["1d", "7d", "30d"] {
            let range = TimeRange::parse(name, now).unwrap();
            for path in PAGES {
                // Twice: the first read may store hours, the second reads them.
                for _ in 0..2 {
                    let (fast, slow) = tracker
                        .db()
                        .read(|c| Ok((page_figures(c, site, path, range, now)?, raw(c, site, path, range))))
                        .unwrap();
                    assert_eq!(fast, slow, "{what}, {name}, {path}");
                }
            }
        }
    }

    /// Four days of visits (late hits, as the seeder sends them) and some going on now: the stored hours plus
    /// the live ones equal a raw count, before and after a deletion and new late hits into stored hours.
    #[test]
    fn stored_page_hours_equal_a_raw_count() {
        let OneSite { dir: _dir, tracker, site, .. } = one_site();
        let now = now_ms();
        let visit = |v: i64, start: Millis| -> Vec<(Hit, crate::ingest::Client)> {
            let browser = client(&format!("198.18.0.{}", v % 7), "Mozilla/5.0 Chrome/1");
            let mut ts = start;
            (0..(v % 5 + 1))
                .map(|step| {
                    let kind = if step == 3 && v % 3 == 0 { EventKind::Conversion } else { EventKind::Pageview };
                    let path = PAGES[((v * 5 + step * 3) % 6) as usize];
                    let hit = Hit {
                        website_id: site,
                        session_key: format!("visit{v:04}"),
                        ts,
                        kind: Some(kind),
                        name: if kind == EventKind::Pageview { String::new() } else { "buy".into() },
                        url: format!("https://s.example.com{path}"),
                        path: path.into(),
                        ..Hit::default()
                    };
                    // Some pages read for a few seconds, some for more than the 30-minute cap.
                    ts += [4_000, 95_000, 40 * 60_000 / 2, 1_000][(v + step) as usize % 4];
                    (hit, browser.clone())
                })
                .collect()
        };
        send_from(&tracker, (0..200).flat_map(|v| visit(v, now - 4 * DAY_MS + v * 29 * 60_000)));
        send_from(&tracker, (200..210).flat_map(|v| visit(v, now - 3 * 60_000)));
        assert_matches_raw(&tracker, site, "seeded");
        let stored = rows(&tracker, "page_hours_stored");
        assert!(stored >= 4 * 24 - 3, "{stored} hours stored");

        // A deletion of the page views of the first day and a half changes visits of stored hours.
        let report = tracker.privacy.delete_data(site, DataType::Pageviews, Some(now - 60 * HOUR_MS)).unwrap();
        assert!(report.pageviews > 0);
        assert_matches_raw(&tracker, site, "after a deletion");

        // Late hits: new visits and a visit continued, in stored hours.
        send_from(&tracker, (300..320).flat_map(|v| visit(v, now - 2 * DAY_MS + (v - 300) * 7 * 60_000)));
        let continued = Hit {
            website_id: site,
            session_key: "visit0150".into(),
            ts: now - 4 * DAY_MS + 150 * 29 * 60_000 + 10 * 60_000,
            kind: Some(EventKind::Pageview),
            url: "https://s.example.com/about".into(),
            path: "/about".into(),
            ..Hit::default()
        };
        assert!(continued.ts < now - LATE_HIT_MS);
        send_from(&tracker, [(continued, client("198.18.0.3", "Mozilla/5.0 Chrome/1"))]);
        assert_matches_raw(&tracker, site, "after late hits");
    }
}
