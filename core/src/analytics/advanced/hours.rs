//! Advanced Analytics' stored hours: the segment and per-page visit counts of each finished hour, counted once
//! from the raw rows and summed on read, the current hours counted live; forgotten when their rows change.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::types::Value;
use rusqlite::{Connection, params, params_from_iter};

use super::{Segment, TOP_PAGES, TopPage, rated_pages};
use crate::analytics::intent::SourceType;
use crate::analytics::overview::{percent, top_values};
use crate::analytics::stored_hours::SETTLED_MS;
use crate::analytics::{Dimension, TimeRange};
use crate::error::Result;
use crate::events::{Filters, admitted_visit_condition};
use crate::model::{Millis, WebsiteId};

/// Hour and day in ms.
pub(super) const HOUR_MS: Millis = 3_600_000;
pub(super) const DAY_MS: Millis = 86_400_000;

/// Visits and converted visits.
pub(crate) type Counts = (i64, i64);

/// Counts per segment: (group, segment name).
pub(crate) type SegmentCounts = HashMap<(&'static str, String), Counts>;

/// What the visits that started in some hours did: segment and page counts (a page counts a visit once).
#[derive(Debug, Default, Clone, PartialEq)]
struct VisitFigures {
    segments: HashMap<(&'static str, String), Counts>,
    pages: HashMap<String, Counts>,
}

impl VisitFigures {
    fn add(&mut self, other: &VisitFigures) {
        for (key, (n, c)) in &other.segments {
            let entry = self.segments.entry(key.clone()).or_default();
            entry.0 += n;
            entry.1 += c;
        }
        for (page, (n, c)) in &other.pages {
            let entry = self.pages.entry(page.clone()).or_default();
            entry.0 += n;
            entry.1 += c;
        }
    }
}

/// One hour's figures, its visits, and the latest activity of those visits (an hour is stored only once all
/// of them have ended).
#[derive(Debug, Default)]
struct Hour {
    visits: i64,
    last_seen: Millis,
    figures: VisitFigures,
}

/// The segment label of a device as stored ("mobile" is "Mobile", "" is "Unknown Device").
pub(crate) fn device_label(device: &str) -> String {
    match device {
        "" => "Unknown Device".to_string(),
        d => {
            let mut c = d.chars();
            c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
        }
    }
}

/// Counts the visits that started in `[from, to)` per hour that `filters` admit, from the raw rows: by visitor
/// type (new, or returning: the visitor hash had an earlier visit of any kind that UTC day), source type and
/// device, and per page the visits that viewed it; each with how many of them converted.
fn count_hours(
    conn: &Connection,
    site: WebsiteId,
    from: Millis,
    to: Millis,
    filters: &Filters,
) -> Result<BTreeMap<Millis, Hour>> {
    let mut hours: BTreeMap<Millis, Hour> = BTreeMap::new();
    if from >= to {
        return Ok(hours);
    }
    let day = |ms: Millis| ms.div_euclid(DAY_MS);
    // Visitors of the first day seen before `from` (the covering start index, no row reads).
    let mut seen: HashSet<(i64, i64)> = HashSet::new();
    {
        let mut stmt = conn.prepare_cached(
            "SELECT visitor_hash FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3",
        )?;
        let mut q = stmt.query(params![site, day(from) * DAY_MS, from])?;
        while let Some(r) = q.next()? {
            seen.insert((day(from), r.get(0)?));
        }
    }
    let mut visits: HashMap<i64, (Millis, bool)> = HashMap::new();
    let mut latest = from;
    {
        // Every visit is read, so that one not admitted still makes its visitor's later visits returning.
        let (admitted, values) = admitted_visit_condition(filters, 3);
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT s.id, s.visitor_hash, s.first_seen, s.last_seen, s.is_converted, s.referrer_host, s.utm_source,
                    s.utm_medium, s.utm_campaign, s.device, {admitted}
             FROM sessions s WHERE s.website_id = ?1 AND s.first_seen >= ?2 AND s.first_seen < ?3
             ORDER BY s.first_seen, s.id",
        ))?;
        let bound = [Value::from(site), Value::from(from), Value::from(to)];
        let mut q = stmt.query(params_from_iter(bound.iter().chain(&values)))?;
        while let Some(r) = q.next()? {
            let (id, hash, first_seen, last_seen, converted): (i64, i64, Millis, Millis, bool) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?);
            let returning = !seen.insert((day(first_seen), hash));
            if !r.get::<_, bool>(10)? {
                continue;
            }
            let source = SourceType::classify(
                &r.get::<_, String>(5)?,
                &r.get::<_, String>(6)?,
                &r.get::<_, String>(7)?,
                &r.get::<_, String>(8)?,
            );
            let device = device_label(&r.get::<_, String>(9)?);
            let visitor = if returning { "Returning Visitors" } else { "New Visitors" };
            let hour_start = first_seen.div_euclid(HOUR_MS) * HOUR_MS;
            let hour = hours.entry(hour_start).or_default();
            hour.visits += 1;
            hour.last_seen = hour.last_seen.max(last_seen);
            for key in [("visitor", visitor.to_string()), ("source", source.label().to_string()), ("device", device)] {
                let entry = hour.figures.segments.entry(key).or_default();
                entry.0 += 1;
                entry.1 += converted as i64;
            }
            visits.insert(id, (hour_start, converted));
            latest = latest.max(last_seen);
        }
    }
    if visits.is_empty() {
        return Ok(hours);
    }
    // A visit's page views lie between its first and last activity: one pass over the site's page views of
    // that span, keeping those of the visits above.
    let mut viewed: HashSet<(i64, String)> = HashSet::new();
    let mut stmt = conn.prepare_cached(
        "SELECT session_id, path FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts <= ?3 AND kind = 'pageview'",
    )?;
    let mut q = stmt.query(params![site, from, latest])?;
    while let Some(r) = q.next()? {
        let id: i64 = r.get(0)?;
        let Some(&(hour_start, converted)) = visits.get(&id) else { continue };
        let path: String = r.get(1)?;
        if viewed.insert((id, path.clone())) {
            let hour = hours.get_mut(&hour_start).expect("every visit's hour is counted");
            let entry = hour.figures.pages.entry(path).or_default();
            entry.0 += 1;
            entry.1 += converted as i64;
        }
    }
    Ok(hours)
}

/// Stores the figures of the range's hours that have ended and whose visits have all been idle for
/// [`SETTLED_MS`] (so nothing can change them but a late hit, deletion, import or retention run, which
/// forget them). A day at a time through [`store_day`](crate::analytics::stored_hours::store_day), so a deletion cannot
/// slip between count and write, and the pass stops when the write lock is not to be had.
pub(super) fn store_finished_hours(conn: &Connection, site: WebsiteId, range: TimeRange, now: Millis) -> Result<()> {
    let finished_before = now - SETTLED_MS;
    let until = range.end.min(finished_before.div_euclid(HOUR_MS) * HOUR_MS);
    if until <= range.start {
        return Ok(());
    }
    let stored = stored_hours(conn, site, range.start, until)?;
    let missing = crate::analytics::stored_hours::missing_by_day(&stored, range.start, until);
    for hours in missing.values() {
        let (first, last) = (hours[0], hours[hours.len() - 1]);
        let stored = crate::analytics::stored_hours::store_day(conn, |tx| {
            let counted = count_hours(tx, site, first, last + HOUR_MS, &Filters::none())?;
            let mut marker = tx.prepare_cached(
                "INSERT OR REPLACE INTO advanced_hours (website_id, hour, visits) VALUES (?1, ?2, ?3)",
            )?;
            let mut segment = tx.prepare_cached(
                "INSERT OR REPLACE INTO advanced_segments (website_id, hour, grp, segment, visits, converted)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let mut page = tx.prepare_cached(
                "INSERT OR REPLACE INTO advanced_pages (website_id, path, hour, visits, converted)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            let empty = Hour::default();
            for &hour in hours {
                let counts = counted.get(&hour).unwrap_or(&empty);
                if counts.last_seen >= finished_before {
                    continue;
                }
                marker.execute(params![site, hour, counts.visits])?;
                for ((group, name), (n, c)) in &counts.figures.segments {
                    segment.execute(params![site, hour, group, name, n, c])?;
                }
                for (path, (n, c)) in &counts.figures.pages {
                    page.execute(params![site, path, hour, n, c])?;
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

pub(super) fn stored_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<HashSet<Millis>> {
    let mut stmt =
        conn.prepare_cached("SELECT hour FROM advanced_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3")?;
    let hours = stmt.query_map(params![site, from, to], |r| r.get(0))?;
    Ok(hours.collect::<rusqlite::Result<_>>()?)
}

/// Forgets the stored hours of `[from, to)` (whole days in ms) after their raw rows changed: a deletion, a
/// rollup rebuild, an import, a retention run or a late hit (so on every late hit: the statements are cached).
/// The next read counts them again.
pub(crate) fn forget_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<()> {
    for statement in [
        "DELETE FROM advanced_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM advanced_segments WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM advanced_pages WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM advanced_intent WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
    ] {
        conn.prepare_cached(statement)?.execute(params![site, from, to])?;
    }
    Ok(())
}

/// The segments of the range and the visit counts of `pages`: stored hours summed, the others counted live.
fn visit_figures(conn: &Connection, site: WebsiteId, range: TimeRange, pages: &[String]) -> Result<VisitFigures> {
    let mut figures = VisitFigures::default();
    {
        let mut stmt = conn.prepare_cached(
            "SELECT grp, segment, SUM(visits), SUM(converted) FROM advanced_segments
             WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3 GROUP BY grp, segment",
        )?;
        let mut q = stmt.query(params![site, range.start, range.end])?;
        while let Some(r) = q.next()? {
            let group: String = r.get(0)?;
            let group = match group.as_str() {
                "visitor" => "visitor",
                "source" => "source",
                _ => "device",
            };
            figures.segments.insert((group, r.get(1)?), (r.get(2)?, r.get(3)?));
        }
        let mut stmt = conn.prepare_cached(
            "SELECT COALESCE(SUM(visits), 0), COALESCE(SUM(converted), 0) FROM advanced_pages
             WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4",
        )?;
        for page in pages {
            let counts = stmt.query_row(params![site, page, range.start, range.end], |r| Ok((r.get(0)?, r.get(1)?)))?;
            figures.pages.insert(page.clone(), counts);
        }
    }
    // The hours not stored (the current ones, and any whose visits are still going on), in runs.
    let stored = stored_hours(conn, site, range.start, range.end)?;
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
        for counted in count_hours(conn, site, from, hour, &Filters::none())?.values() {
            let mut live = counted.figures.clone();
            live.pages.retain(|page, _| pages.contains(page));
            figures.add(&live);
        }
    }
    Ok(figures)
}

/// The segment counts of the range's visits that `filters` admit, and the visit counts of `pages` among them,
/// counted from the raw rows of the whole range.
pub(super) fn admitted_figures(
    conn: &Connection,
    site: WebsiteId,
    range: TimeRange,
    filters: &Filters,
    pages: &[String],
) -> Result<(SegmentCounts, HashMap<String, Counts>)> {
    let mut figures = VisitFigures::default();
    for counted in count_hours(conn, site, range.start, range.end, filters)?.values() {
        figures.add(&counted.figures);
    }
    figures.pages.retain(|page, _| pages.contains(page));
    Ok((figures.segments, figures.pages))
}

/// The five most viewed pages of the range (page views, from the rollups), each with the share of the visits
/// that started in the range and viewed it that converted.
pub(super) fn top_pages(conn: &Connection, site: WebsiteId, range: TimeRange) -> Result<(Vec<TopPage>, Vec<Segment>)> {
    let pages = top_values(conn, site, range, Dimension::Page, TOP_PAGES)?;
    let urls: Vec<String> = pages.iter().map(|(url, _)| url.clone()).collect();
    let figures = visit_figures(conn, site, range, &urls)?;
    let top = rated_pages(pages, &figures.pages);
    Ok((top, segments(&figures.segments)))
}

/// Visits of the range by visitor type, source type and device, each with the share that converted, in the
/// order the screen lists them (devices by visits).
pub(crate) fn segments(counts: &HashMap<(&'static str, String), Counts>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut push = |group: &'static str, name: &str| {
        let (count, converted) = counts.get(&(group, name.to_string())).copied().unwrap_or_default();
        out.push(Segment { segment: name.to_string(), group, count, conversion_rate: percent(converted, count) });
    };
    push("visitor", "New Visitors");
    push("visitor", "Returning Visitors");
    for source in SourceType::ALL {
        push("source", source.label());
    }
    let mut devices: Vec<(String, i64)> = counts
        .iter()
        .filter(|((g, _), (n, _))| *g == "device" && *n > 0)
        .map(|((_, d), (n, _))| (d.clone(), *n))
        .collect();
    devices.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (device, _) in devices {
        push("device", &device);
    }
    out
}
