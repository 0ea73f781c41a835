//! Per-hour aggregates of the visits that started in each hour, behind the funnels and journeys reads:
//! funnel step counts, journey totals by class, and path tallies. Hours whose visits are all over are kept
//! in `visit_hours` / `funnel_hours` (migration 0012); the other hours of a range are computed from the raw
//! events on each read, which also stores those that have settled. Called by the funnel store and
//! `journeys.rs`; whatever changes stored visits calls [`invalidate`].
//!
//! Why hours: a 30-day read at 10M events rescanned about 3M events; now it sums 720 small rows and scans
//! only the last hour or two. Why computed on read rather than at ingest: the writer's hot path stays as it
//! was (it only checks whether a hit is late), and a new or edited funnel is simply missing its rows.

use std::collections::{BTreeSet, HashMap};

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};

use super::TimeRange;
use super::funnels::StepPattern;
use super::stored_hours::SETTLED_MS;
pub use super::visit_paths::SiteJourneys;
use super::visit_paths::{PathHour, encode_paths};
use crate::db::Db;
use crate::error::Result;
use crate::events::Filters;
use crate::events::admitted_visit_condition;
use crate::model::{Millis, WebsiteId};

pub const HOUR_MS: Millis = 3_600_000;
/// A visit idle this long is over (the ingest writer's visit timeout).
pub const VISIT_IDLE_MS: Millis = 30 * 60 * 1000;
/// Pages of a path kept; a longer path ends in [`MORE_PAGES`].
pub const PATH_DEPTH: usize = 5;
/// The last element of a path cut at [`PATH_DEPTH`] pages.
pub const MORE_PAGES: &str = "…";

/// Journeys of one class: how many, and their summed durations (whole seconds each) and touchpoints.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ClassTotals {
    pub visits: u64,
    pub duration_s: i64,
    pub touchpoints: u64,
    /// Of the visits, those with a conversion.
    pub conversions: u64,
}

impl ClassTotals {
    /// Adds another set of journeys.
    pub fn add(&mut self, other: ClassTotals) {
        self.visits += other.visits;
        self.duration_s += other.duration_s;
        self.touchpoints += other.touchpoints;
        self.conversions += other.conversions;
    }
}

/// Journey totals of some visits: completed with a conversion, completed without, and not over yet.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct JourneyTotals {
    pub converted: ClassTotals,
    pub abandoned: ClassTotals,
    pub active: ClassTotals,
}

impl JourneyTotals {
    /// Adds another set of journeys.
    pub fn add(&mut self, other: &JourneyTotals) {
        self.converted.add(other.converted);
        self.abandoned.add(other.abandoned);
        self.active.add(other.active);
    }
}

/// A common path: its pages (cut with [`MORE_PAGES`]), the visits that took it and those that converted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathCount {
    pub pages: Vec<String>,
    pub sessions: u64,
    pub conversions: u64,
}

/// A condition on the stored visit row `s` with its values, numbered from ?4: the visits a read's filters
/// admit (`events::admitted_visit_condition`).
type VisitCondition = (String, Vec<Value>);

/// The condition of the visits `filters` admit, none without filters (every visit, as the stored hours count).
fn admitted(filters: &Filters) -> Option<VisitCondition> {
    (!filters.is_empty()).then(|| admitted_visit_condition(filters, 3))
}

/// One visit as the aggregates need it.
struct Visit {
    first_seen: Millis,
    last_seen: Millis,
    touchpoints: u64,
    converted: bool,
    /// Page views, custom events and conversions: (ts, id, kind, name, path).
    events: Vec<(Millis, i64, String, String, String)>,
}

/// What one hour's visits add up to.
#[derive(Default)]
struct Hour {
    funnels: Vec<Vec<u64>>,
    journeys: JourneyTotals,
    /// Path key (pages joined by '\n') to (visits, converted visits).
    paths: HashMap<String, (u64, u64)>,
    /// Every visit of the hour was last seen [`SETTLED_MS`] before now (checked with the hour's end).
    settled: bool,
}

fn hour_of(ms: Millis) -> i64 {
    ms.div_euclid(HOUR_MS)
}

/// The hours of a range, first and one past the last.
fn hours_of(range: TimeRange) -> (i64, i64) {
    (hour_of(range.start), hour_of(range.end - 1) + 1)
}

/// Reads the visits that started in hours [from, to) of a site, with their events in order, and adds each
/// to its hour. `funnels`: the step patterns whose counts are wanted.
fn compute(
    conn: &Connection,
    site: WebsiteId,
    funnels: &[Vec<StepPattern>],
    from: i64,
    to: i64,
    now: Millis,
    admitted: Option<&VisitCondition>,
) -> Result<HashMap<i64, Hour>> {
    let mut hours: HashMap<i64, Hour> = HashMap::new();
    for h in from..to {
        let settled = (h + 1) * HOUR_MS <= now - SETTLED_MS;
        hours.insert(
            h,
            Hour { funnels: funnels.iter().map(|s| vec![0; s.len()]).collect(), settled, ..Hour::default() },
        );
    }
    let mut visits = load_visits(conn, site, from * HOUR_MS, to * HOUR_MS, admitted)?;
    for visit in visits.values_mut() {
        let Some(hour) = hours.get_mut(&hour_of(visit.first_seen)) else { continue };
        add_visit(hour, visit, funnels, now);
    }
    Ok(hours)
}

/// The visits of a site that started in [from, to) (milliseconds), by session id, with their page views,
/// custom events and conversions (in no order yet); only those `admitted` keeps when given.
fn load_visits(
    conn: &Connection,
    site: WebsiteId,
    from: Millis,
    to: Millis,
    admitted: Option<&VisitCondition>,
) -> Result<HashMap<i64, Visit>> {
    // Sessions by their start (the covering index), each with its events through the session index.
    let (condition, values) = admitted.map_or(("1", &[][..]), |(sql, values)| (sql.as_str(), values.as_slice()));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT s.id, s.first_seen, s.last_seen, s.page_views + s.events, s.is_converted, e.ts, e.id, e.kind,
            e.name, e.path
         FROM sessions s LEFT JOIN events e ON e.session_id = s.id AND e.kind IN ('pageview', 'custom', 'conversion')
         WHERE s.website_id = ?1 AND s.first_seen >= ?2 AND s.first_seen < ?3 AND {condition}"
    ))?;
    let bound = [Value::from(site), Value::from(from), Value::from(to)];
    let mut rows = stmt.query(params_from_iter(bound.iter().chain(values)))?;
    let mut visits: HashMap<i64, Visit> = HashMap::new();
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        if let std::collections::hash_map::Entry::Vacant(slot) = visits.entry(id) {
            slot.insert(Visit {
                first_seen: r.get(1)?,
                last_seen: r.get(2)?,
                touchpoints: r.get::<_, i64>(3)? as u64,
                converted: r.get(4)?,
                events: Vec::new(),
            });
        }
        if let Some(ts) = r.get::<_, Option<Millis>>(5)?
            && let Some(visit) = visits.get_mut(&id)
        {
            visit.events.push((ts, r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?));
        }
    }
    Ok(visits)
}

/// How many steps of a funnel a visit reached in order (its events sorted).
fn reached(steps: &[StepPattern], visit: &Visit) -> usize {
    let mut at = 0;
    for (_, _, kind, name, path) in &visit.events {
        if at < steps.len() && steps[at].matches(kind, name, path) {
            at += 1;
        }
    }
    at
}

/// A visit that reached a funnel step and not the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DropOff {
    pub session: i64,
    pub first_seen: Millis,
}

/// Per step n but the last (index 0 = step 1), the newest visits started in `range` that `filters` admit and
/// that reached step n and not n+1, at most `limit` each. `dropped[n]`: how many there are in all (from the counts), so the scan
/// back through the range stops as soon as every step has what it can have.
pub fn drop_offs(
    conn: &Connection,
    site: WebsiteId,
    steps: &[StepPattern],
    range: TimeRange,
    filters: &Filters,
    limit: usize,
    dropped: &[u64],
) -> Result<Vec<Vec<DropOff>>> {
    let admitted = admitted(filters);
    let wanted: Vec<usize> = (0..steps.len().saturating_sub(1))
        .map(|n| (dropped.get(n).copied().unwrap_or(0) as usize).min(limit))
        .collect();
    let mut out: Vec<Vec<DropOff>> = wanted.iter().map(|_| Vec::new()).collect();
    let (from, to) = hours_of(range);
    let mut end = to;
    while end > from && out.iter().zip(&wanted).any(|(got, want)| got.len() < *want) {
        let start = (end - RUN_HOURS).max(from);
        let mut visits: Vec<(i64, Visit)> =
            load_visits(conn, site, start * HOUR_MS, end * HOUR_MS, admitted.as_ref())?.into_iter().collect();
        visits.sort_unstable_by(|a, b| b.1.first_seen.cmp(&a.1.first_seen).then(b.0.cmp(&a.0)));
        for (id, mut visit) in visits {
            visit.events.sort_unstable_by_key(|e| (e.0, e.1));
            let at = reached(steps, &visit);
            // Reached step `at` (1-based) and not the next: listed under index at - 1.
            if at >= 1 && at <= out.len() && out[at - 1].len() < wanted[at - 1] {
                out[at - 1].push(DropOff { session: id, first_seen: visit.first_seen });
            }
        }
        end = start;
    }
    Ok(out)
}

fn add_visit(hour: &mut Hour, visit: &mut Visit, funnels: &[Vec<StepPattern>], now: Millis) {
    visit.events.sort_unstable_by_key(|e| (e.0, e.1));
    if visit.last_seen >= now - SETTLED_MS {
        hour.settled = false;
    }
    let class = ClassTotals {
        visits: 1,
        duration_s: (visit.last_seen - visit.first_seen) / 1000,
        touchpoints: visit.touchpoints,
        conversions: u64::from(visit.converted),
    };
    if visit.last_seen >= now - VISIT_IDLE_MS {
        hour.journeys.active.add(class);
    } else if visit.converted {
        hour.journeys.converted.add(class);
    } else {
        hour.journeys.abandoned.add(class);
    }
    // Funnels: each event advances the visit by at most one step of each funnel.
    for (f, steps) in funnels.iter().enumerate() {
        for count in hour.funnels[f].iter_mut().take(reached(steps, visit)) {
            *count += 1;
        }
    }
    // Paths: page views in order, repeats in a row folded, cut after PATH_DEPTH pages.
    let mut pages: Vec<&str> = Vec::new();
    let mut cut = false;
    for (_, _, kind, _, path) in &visit.events {
        if kind != "pageview" || pages.last() == Some(&path.as_str()) {
            continue;
        }
        if pages.len() == PATH_DEPTH {
            cut = true;
            break;
        }
        pages.push(path);
    }
    if !pages.is_empty() {
        if cut {
            pages.push(MORE_PAGES);
        }
        let tally = hour.paths.entry(pages.join("\n")).or_default();
        tally.0 += 1;
        tally.1 += u64::from(visit.converted);
    }
}

/// The site's generation: bumped by every [`invalidate`].
fn generation(conn: &Connection, site: WebsiteId) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT generation FROM visit_hours_generation WHERE website_id = ?1")?
        .query_row([site], |r| r.get(0))
        .optional()?
        .unwrap_or(0))
}

/// Forgets the stored hours of a site's visits that started in [from, to) (milliseconds; `None` for no
/// bound), in the caller's transaction. Every writer of visits or events calls it for what it changed.
pub fn invalidate(
    conn: &Connection,
    site: WebsiteId,
    from: Option<Millis>,
    to: Option<Millis>,
) -> rusqlite::Result<()> {
    let from = from.map_or(i64::MIN, hour_of);
    let to = to.map_or(i64::MAX, |to| hour_of(to - 1) + 1);
    conn.prepare_cached("DELETE FROM visit_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3")?
        .execute(params![site, from, to])?;
    conn.prepare_cached(
        "DELETE FROM funnel_hours WHERE funnel_id IN (SELECT id FROM funnels WHERE website_id = ?1)
           AND hour >= ?2 AND hour < ?3",
    )?
    .execute(params![site, from, to])?;
    bump(conn, site)
}

/// Bumps the site's generation, so that reads computed before it store nothing.
pub fn bump(conn: &Connection, site: WebsiteId) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO visit_hours_generation (website_id, generation) VALUES (?1, 1)
         ON CONFLICT (website_id) DO UPDATE SET generation = generation + 1",
    )?
    .execute([site])?;
    Ok(())
}

/// Most hours one scan covers: a cold read of 90 days holds one day of visits in memory at a time.
const RUN_HOURS: i64 = 24;

/// Contiguous runs of missing hours, so each run is one indexed scan.
fn runs(missing: &BTreeSet<i64>) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for &h in missing {
        match out.last_mut() {
            Some(run) if run.1 == h && run.1 - run.0 < RUN_HOURS => run.1 = h + 1,
            _ => out.push((h, h + 1)),
        }
    }
    out
}

/// Stores the settled hours computed by a read, unless the site's generation moved since its snapshot.
fn store(
    db: &Db,
    site: WebsiteId,
    seen_generation: i64,
    funnel_ids: &[i64],
    computed: &HashMap<i64, Hour>,
) -> Result<()> {
    if !computed.values().any(|h| h.settled) {
        return Ok(());
    }
    db.write(|conn| {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        if generation(&tx, site)? != seen_generation {
            return Ok(());
        }
        {
            let mut journeys = tx.prepare_cached(
                "INSERT OR IGNORE INTO visit_hours (website_id, hour, converted, converted_duration_s,
                    converted_touchpoints, abandoned, abandoned_duration_s, abandoned_touchpoints, paths, path_keys)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            let mut funnel =
                tx.prepare_cached("INSERT OR REPLACE INTO funnel_hours (funnel_id, hour, counts) VALUES (?1, ?2, ?3)")?;
            for (&h, hour) in computed.iter().filter(|(_, h)| h.settled) {
                let (c, a) = (hour.journeys.converted, hour.journeys.abandoned);
                let (records, keys) = encode_paths(&hour.paths);
                journeys.execute(params![
                    site,
                    h,
                    c.visits as i64,
                    c.duration_s,
                    c.touchpoints as i64,
                    a.visits as i64,
                    a.duration_s,
                    a.touchpoints as i64,
                    records,
                    keys,
                ])?;
                for (&id, counts) in funnel_ids.iter().zip(&hour.funnels) {
                    funnel.execute(params![id, h, encode_counts(counts)])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    })
}

fn encode_counts(counts: &[u64]) -> Vec<u8> {
    counts.iter().flat_map(|&c| (c.min(u32::MAX as u64) as u32).to_le_bytes()).collect()
}

fn decode_counts(blob: &[u8], into: &mut [u64]) {
    for (slot, chunk) in into.iter_mut().zip(blob.chunks_exact(4)) {
        *slot += u64::from(u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]));
    }
}

/// For each funnel (id, steps) of one site, the visits that started in `range` and reached each step in
/// order: stored hours summed, the others computed (and stored when settled).
pub fn funnel_counts(
    db: &Db,
    site: WebsiteId,
    funnels: &[(i64, Vec<StepPattern>)],
    range: TimeRange,
    now: Millis,
) -> Result<Vec<Vec<u64>>> {
    let mut totals: Vec<Vec<u64>> = funnels.iter().map(|(_, steps)| vec![0; steps.len()]).collect();
    if funnels.is_empty() {
        return Ok(totals);
    }
    let (from, to) = hours_of(range);
    let (seen, computed) = db.read(|conn| {
        let tx = conn.unchecked_transaction()?;
        let seen = generation(&tx, site)?;
        let mut missing: BTreeSet<i64> = BTreeSet::new();
        let mut stmt = tx.prepare_cached(
            "SELECT hour, counts FROM funnel_hours WHERE funnel_id = ?1 AND hour >= ?2 AND hour < ?3 ORDER BY hour",
        )?;
        let mut per_funnel: Vec<Vec<(i64, Vec<u8>)>> = Vec::with_capacity(funnels.len());
        for (id, _) in funnels {
            let rows = stmt
                .query_map(params![id, from, to], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let present: BTreeSet<i64> = rows.iter().map(|r| r.0).collect();
            missing.extend((from..to).filter(|h| !present.contains(h)));
            per_funnel.push(rows);
        }
        drop(stmt);
        // An hour missing for one funnel is computed for all of them (the scan is the cost, not the steps).
        for ((rows, total), _) in per_funnel.iter().zip(totals.iter_mut()).zip(funnels) {
            for (h, blob) in rows {
                if !missing.contains(h) {
                    decode_counts(blob, total);
                }
            }
        }
        let patterns: Vec<Vec<StepPattern>> = funnels.iter().map(|(_, s)| s.clone()).collect();
        let mut computed = HashMap::new();
        for (a, b) in runs(&missing) {
            computed.extend(compute(&tx, site, &patterns, a, b, now, None)?);
        }
        Ok((seen, computed))
    })?;
    for hour in computed.values() {
        for (total, counts) in totals.iter_mut().zip(&hour.funnels) {
            for (t, c) in total.iter_mut().zip(counts) {
                *t += c;
            }
        }
    }
    let ids: Vec<i64> = funnels.iter().map(|(id, _)| *id).collect();
    store(db, site, seen, &ids, &computed)?;
    Ok(totals)
}

/// The journeys of one site over `range`: stored hours read, the others computed (and stored when settled).
/// `with_paths`: whether the path tallies are wanted (the summary alone does not read them).
pub fn site_journeys(
    db: &Db,
    site: WebsiteId,
    range: TimeRange,
    now: Millis,
    with_paths: bool,
) -> Result<SiteJourneys> {
    let (from, to) = hours_of(range);
    let mut out = SiteJourneys { totals: JourneyTotals::default(), paths: Vec::new() };
    let (seen, computed) = db.read(|conn| {
        let tx = conn.unchecked_transaction()?;
        let seen = generation(&tx, site)?;
        let sql = if with_paths {
            "SELECT hour, converted, converted_duration_s, converted_touchpoints, abandoned, abandoned_duration_s,
                abandoned_touchpoints, paths
             FROM visit_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3"
        } else {
            "SELECT hour, converted, converted_duration_s, converted_touchpoints, abandoned, abandoned_duration_s,
                abandoned_touchpoints, NULL
             FROM visit_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3"
        };
        let mut stmt = tx.prepare_cached(sql)?;
        let mut rows = stmt.query(params![site, from, to])?;
        let mut present = BTreeSet::new();
        while let Some(r) = rows.next()? {
            present.insert(r.get::<_, i64>(0)?);
            let class = |i: usize, converted: bool| -> rusqlite::Result<ClassTotals> {
                let visits = r.get::<_, i64>(i)? as u64;
                Ok(ClassTotals {
                    visits,
                    duration_s: r.get(i + 1)?,
                    touchpoints: r.get::<_, i64>(i + 2)? as u64,
                    conversions: if converted { visits } else { 0 },
                })
            };
            out.totals.converted.add(class(1, true)?);
            out.totals.abandoned.add(class(4, false)?);
            if with_paths {
                out.paths.push(PathHour { site, hour: r.get(0)?, records: r.get(7)?, keys: None });
            }
        }
        drop(rows);
        drop(stmt);
        let missing: BTreeSet<i64> = (from..to).filter(|h| !present.contains(h)).collect();
        let mut computed = HashMap::new();
        for (a, b) in runs(&missing) {
            computed.extend(compute(&tx, site, &[], a, b, now, None)?);
        }
        Ok((seen, computed))
    })?;
    for hour in computed.values() {
        out.totals.add(&hour.journeys);
        if with_paths && !hour.paths.is_empty() {
            let (records, keys) = encode_paths(&hour.paths);
            out.paths.push(PathHour { site, hour: 0, records, keys: Some(keys) });
        }
    }
    store(db, site, seen, &[], &computed)?;
    Ok(out)
}

/// Funnel counts, journey totals, every path (most visits first) and the visits with a page view.
pub type RawAnswer = (Vec<Vec<u64>>, JourneyTotals, Vec<PathCount>, u64);

/// The uncached answer: the same aggregates computed from the raw events of the whole range in one scan, of
/// the visits `filters` admit. Filtered reads answer with it (no stored hour holds a filter's
/// visits); tests compare the stored path with it.
pub fn raw(
    conn: &Connection,
    site: WebsiteId,
    funnels: &[Vec<StepPattern>],
    range: TimeRange,
    now: Millis,
    filters: &Filters,
) -> Result<RawAnswer> {
    let (from, to) = hours_of(range);
    let hours = compute(conn, site, funnels, from, to, now, admitted(filters).as_ref())?;
    let mut counts: Vec<Vec<u64>> = funnels.iter().map(|s| vec![0; s.len()]).collect();
    let mut totals = JourneyTotals::default();
    let mut paths: HashMap<String, (u64, u64)> = HashMap::new();
    for hour in hours.values() {
        for (total, c) in counts.iter_mut().zip(&hour.funnels) {
            for (t, c) in total.iter_mut().zip(c) {
                *t += c;
            }
        }
        totals.add(&hour.journeys);
        for (key, (s, c)) in &hour.paths {
            let tally = paths.entry(key.clone()).or_default();
            tally.0 += s;
            tally.1 += c;
        }
    }
    let visits = paths.values().map(|t| t.0).sum();
    let mut list: Vec<PathCount> = paths
        .into_iter()
        .map(|(key, (sessions, conversions))| PathCount {
            pages: key.split('\n').map(str::to_string).collect(),
            sessions,
            conversions,
        })
        .collect();
    list.sort_by(|a, b| b.sessions.cmp(&a.sessions).then_with(|| a.pages.cmp(&b.pages)));
    Ok((counts, totals, list, visits))
}

#[cfg(test)]
#[path = "visit_hours_tests.rs"]
mod tests;
