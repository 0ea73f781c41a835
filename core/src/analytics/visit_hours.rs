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

/// Journey totals and path tallies of the visits of one site that started in `range`.
pub struct SiteJourneys {
    pub totals: JourneyTotals,
    /// Path tallies, one per hour.
    paths: Vec<PathHour>,
}

/// One hour's path tallies (see [`encode_paths`]); the keys of a stored hour are read only when needed.
struct PathHour {
    site: WebsiteId,
    hour: i64,
    records: Vec<u8>,
    keys: Option<Vec<u8>>,
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

/// 64-bit FNV-1a: a stable hash of a path key (stored, so it must not change between releases).
fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// An hour's path tallies as two blobs: records (a u32 count n, then n records of hash u64, visits u32,
/// converted u32, most visits first) and keys (the n keys in the same order, each a u32 length and its UTF-8
/// bytes). A read scans the fixed-size records and reads keys for the few winners only.
fn encode_paths(paths: &HashMap<String, (u64, u64)>) -> (Vec<u8>, Vec<u8>) {
    let mut list: Vec<(&String, &(u64, u64))> = paths.iter().collect();
    list.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(b.0)));
    let mut records = Vec::with_capacity(4 + list.len() * 16);
    records.extend((list.len() as u32).to_le_bytes());
    let mut keys = Vec::with_capacity(list.len() * 32);
    for (key, (sessions, conversions)) in &list {
        records.extend(fnv(key).to_le_bytes());
        records.extend((*sessions as u32).to_le_bytes());
        records.extend((*conversions as u32).to_le_bytes());
        keys.extend((key.len() as u32).to_le_bytes());
        keys.extend(key.as_bytes());
    }
    (records, keys)
}

fn u32_at(blob: &[u8], at: usize) -> u32 {
    blob.get(at..at + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Record `i` of a path blob: (hash, visits, converted).
fn record(blob: &[u8], i: usize) -> (u64, u64, u64) {
    let at = 4 + i * 16;
    let hash = blob.get(at..at + 8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    (hash, u64::from(u32_at(blob, at + 8)), u64::from(u32_at(blob, at + 12)))
}

/// The records of a records blob in order: (hash, visits, converted).
fn records(blob: &[u8]) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
    let n = u32_at(blob, 0) as usize;
    blob.get(4..4 + n * 16).unwrap_or(&[]).chunks_exact(16).map(|c| {
        let word = |at: usize| u64::from(u32::from_le_bytes([c[at], c[at + 1], c[at + 2], c[at + 3]]));
        (word(0) | (word(4) << 32), word(8), word(12))
    })
}

/// Where each key of a keys blob starts.
fn key_offsets(blob: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut out = Vec::new();
    while at + 4 <= blob.len() {
        out.push(at);
        at += 4 + u32_at(blob, at) as usize;
    }
    out
}

/// The key starting at `at` of a keys blob.
fn key_at(blob: &[u8], at: usize) -> String {
    let len = u32_at(blob, at) as usize;
    blob.get(at + 4..at + 4 + len).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default()
}

/// The `top` most common paths over the hours of some sites, and the visits with at least one page view.
///
/// Exact without building a table of every path: records are sorted by visits within each hour, so the
/// paths with at least `t` visits in some hour are the candidates; their exact totals come from one probe
/// of every record; a path that is no candidate has fewer than `t` visits in every hour, so at most the sum
/// of each hour's largest count below `t`. When that bound could reach the top, `t` is lowered and the
/// rounds repeat (at `t` = 1 every path is a candidate).
/// `keys`: reads a stored hour's keys blob.
pub fn top_paths(
    journeys: &[SiteJourneys],
    top: usize,
    mut keys: impl FnMut(WebsiteId, i64) -> Result<Vec<u8>>,
) -> Result<(Vec<PathCount>, u64)> {
    let hours: Vec<&PathHour> = journeys.iter().flat_map(|j| j.paths.iter()).collect();
    let blobs: Vec<&[u8]> = hours.iter().map(|h| h.records.as_slice()).collect();
    let total: u64 = blobs.iter().map(|b| records(b).map(|r| r.1).sum::<u64>()).sum();
    // Start at half the typical hour's largest count: most hours then offer a candidate or two.
    let mut tops: Vec<u64> = blobs.iter().filter(|b| u32_at(b, 0) > 0).map(|b| record(b, 0).1).collect();
    tops.sort_unstable();
    let mut threshold: u64 = (tops.get(tops.len() / 2).copied().unwrap_or(1) / 2).max(1);
    loop {
        // Candidate hash -> (visits, converted, where its key is). The probes below are most of the work.
        let mut candidates: HashMap<u64, (u64, u64, usize, usize), foldhash::fast::FixedState> = HashMap::default();
        let mut bound = 0u64;
        for (b, blob) in blobs.iter().enumerate() {
            for (i, (hash, sessions, _)) in records(blob).enumerate() {
                if sessions < threshold {
                    bound += sessions;
                    break;
                }
                candidates.entry(hash).or_insert((0, 0, b, i));
            }
        }
        // Too few candidates while others exist: no exact answer at this threshold, so no need to count.
        if candidates.len() < top && bound > 0 && threshold > 1 {
            threshold = (threshold / 4).max(1);
            continue;
        }
        for blob in &blobs {
            for (hash, sessions, conversions) in records(blob) {
                if let Some(c) = candidates.get_mut(&hash) {
                    c.0 += sessions;
                    c.1 += conversions;
                }
            }
        }
        let mut ranked: Vec<(u64, u64, usize, usize, u64)> =
            candidates.into_iter().map(|(hash, (s, c, b, i))| (s, c, b, i, hash)).collect();
        ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
        let kth = if ranked.len() >= top { ranked.get(top.saturating_sub(1)).map_or(0, |r| r.0) } else { 0 };
        let exact = threshold <= 1 || (ranked.len() >= top && top > 0 && kth > bound) || bound == 0;
        if !exact {
            threshold = (threshold / 4).max(1);
            continue;
        }
        // Ties at the cut are broken by the pages, as the raw answer does: keys only for those in reach.
        let reach = ranked.get(top.saturating_sub(1)).map_or(0, |r| r.0);
        let mut read: HashMap<usize, (Vec<u8>, Vec<usize>)> = HashMap::new();
        let mut list: Vec<PathCount> = Vec::new();
        for (sessions, conversions, b, i, hash) in ranked.into_iter().filter(|r| r.0 >= reach) {
            let (blob, offsets) = match read.entry(b) {
                std::collections::hash_map::Entry::Occupied(known) => known.into_mut(),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    let blob = match &hours[b].keys {
                        Some(blob) => blob.clone(),
                        None => keys(hours[b].site, hours[b].hour)?,
                    };
                    let offsets = key_offsets(&blob);
                    slot.insert((blob, offsets))
                }
            };
            let key = offsets.get(i).map(|&at| key_at(blob, at)).unwrap_or_default();
            // A stored hour recomputed since its records were read: the caller reads again.
            if fnv(&key) != hash {
                return Err(crate::error::Error::Conflict("path keys changed while read".into()));
            }
            list.push(PathCount { pages: key.split('\n').map(str::to_string).collect(), sessions, conversions });
        }
        list.sort_by(|a, b| b.sessions.cmp(&a.sessions).then_with(|| a.pages.cmp(&b.pages)));
        list.truncate(top);
        return Ok((list, total));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tracker;
    use crate::analytics::journeys::JourneyFilter;
    use crate::ingest::{EventKind, Hit};
    use crate::model::{UserId, now_ms};
    use crate::privacy::DataType;
    use crate::store::funnels::{FunnelInput, StepInput};
    use crate::testing::{rows, send};

    const PAGES: [&str; 6] = ["/", "/pricing", "/signup", "/docs", "/blog", "/about"];

    fn hit(site: WebsiteId, session: &str, ts: Millis, kind: EventKind, path: &str) -> Hit {
        Hit {
            website_id: site,
            session_key: session.into(),
            ts,
            kind: Some(kind),
            name: if kind == EventKind::Pageview { String::new() } else { "signup".into() },
            url: format!("https://s.example.com{path}"),
            path: path.into(),
            ..Hit::default()
        }
    }

    fn steps(urls: &[(&str, Option<&str>)]) -> Vec<StepInput> {
        urls.iter()
            .map(|(url, event)| StepInput {
                name: Some(url.to_string()),
                url: Some(url.to_string()),
                event_name: event.map(str::to_string),
            })
            .collect()
    }

    /// The funnel, journeys and paths answers (stored hours plus live ones) equal one raw scan of the range.
    fn assert_matches_raw(tracker: &Tracker, user: UserId, site: WebsiteId, funnel: i64, what: &str) {
        let now = now_ms();
        for period in ["1d", "7d", "30d"] {
            let range = TimeRange::parse(period, now).unwrap();
            for _ in 0..2 {
                let fast = tracker.funnels.get(user, funnel, range, &Filters::none()).unwrap();
                let patterns: Vec<StepPattern> = fast
                    .steps
                    .iter()
                    .map(|s| StepPattern { url: s.url.clone(), event_name: s.event_name.clone() })
                    .collect();
                let (counts, totals, paths, visits) = tracker
                    .db()
                    .read(|c| raw(c, site, std::slice::from_ref(&patterns), range, now, &Filters::none()))
                    .unwrap();
                let fast_counts: Vec<u64> = fast.steps.iter().map(|s| s.visitors).collect();
                assert_eq!(fast_counts, counts[0], "{what}, {period}: funnel");
                for (filter, class) in [
                    (JourneyFilter::Converted, totals.converted),
                    (JourneyFilter::Abandoned, totals.abandoned),
                    (JourneyFilter::Active, totals.active),
                ] {
                    let answer =
                        tracker.analytics().customer_journeys(&[site], range, &Filters::none(), filter, now).unwrap();
                    assert_eq!(answer.summary.total_journeys, class.visits, "{what}, {period}: {filter:?}");
                    let average = if class.visits == 0 { 0.0 } else { class.duration_s as f64 / class.visits as f64 };
                    assert!((answer.summary.average_duration - average).abs() < 1e-9, "{what}, {period}: {filter:?}");
                }
                let all = tracker
                    .analytics()
                    .customer_journeys(&[site], range, &Filters::none(), JourneyFilter::All, now)
                    .unwrap();
                let everyone = totals.converted.visits + totals.abandoned.visits + totals.active.visits;
                assert_eq!(all.summary.total_journeys, everyone, "{what}, {period}");
                let fast_paths = tracker.analytics().journey_paths(&[site], range, &Filters::none()).unwrap();
                assert_eq!(fast_paths.total_sessions, visits, "{what}, {period}: visits with a page view");
                let fast_list: Vec<(Vec<String>, u64, u64)> =
                    fast_paths.paths.into_iter().map(|p| (p.pages, p.sessions, p.conversions)).collect();
                let raw_list: Vec<(Vec<String>, u64, u64)> =
                    paths.into_iter().take(10).map(|p| (p.pages, p.sessions, p.conversions)).collect();
                assert_eq!(fast_list, raw_list, "{what}, {period}: paths");
            }
        }
    }

    fn stored(tracker: &Tracker) -> (i64, i64) {
        (rows(tracker, "visit_hours"), rows(tracker, "funnel_hours"))
    }

    #[test]
    fn stored_hours_match_a_raw_scan_through_late_hits_edits_deletions_and_retention() {
        let crate::testing::OneSite { dir: _dir, tracker, user, site } = crate::testing::one_site();
        let now = now_ms();
        // 300 visits over the last 5 days (late hits, as an import or the seeder sends them), and 10 live ones.
        let mut hits = Vec::new();
        for v in 0..310i64 {
            let mut ts = if v < 300 { now - 5 * 86_400_000 + v * 1_400_000 } else { now - 10 * 60_000 };
            if v < 300 && ts > now - 2 * HOUR_MS {
                ts -= 3 * HOUR_MS;
            }
            let session = format!("visit-{v:03}");
            for step in 0..(v % 5 + 1) {
                let path = PAGES[((v * 7 + step * 3) % 6) as usize];
                let kind = if step == 3 && v % 3 == 0 { EventKind::Conversion } else { EventKind::Pageview };
                hits.push(hit(site, &session, ts, kind, path));
                ts += 40_000;
            }
        }
        send(&tracker, hits);
        let input = FunnelInput {
            name: Some("F".into()),
            website_id: Some(serde_json::json!(site)),
            steps: Some(steps(&[("/", None), ("/pricing", None), ("*", Some("signup"))])),
            status: None,
        };
        let funnel = tracker.funnels.create(user.id, input).unwrap();
        assert_matches_raw(&tracker, user.id, site, funnel, "seeded");
        let (hours, funnel_hours) = stored(&tracker);
        assert!(hours > 100 && funnel_hours > 100, "settled hours are stored: {hours} {funnel_hours}");

        // A late page view continues an old visit: its hour is recomputed.
        let old = tracker
            .db()
            .read(|c| {
                Ok(c.query_row(
                    "SELECT session_key, last_seen FROM sessions WHERE session_key = 'visit-010'",
                    [],
                    |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
                )?)
            })
            .unwrap();
        send(&tracker, vec![hit(site, &old.0, old.1 + 60_000, EventKind::Pageview, "/pricing")]);
        assert_matches_raw(&tracker, user.id, site, funnel, "late hit");

        // A funnel edit: the stored counts of the old steps are not used.
        let edit = FunnelInput { steps: Some(steps(&[("/docs", None), ("/blog", None)])), ..FunnelInput::default() };
        tracker.funnels.update(user.id, funnel, edit).unwrap();
        assert_matches_raw(&tracker, user.id, site, funnel, "funnel edit");

        // A visitor's erasure, a deletion of page views before a time, and retention.
        tracker.privacy.delete_visitor(site, "visit-015").unwrap();
        assert_matches_raw(&tracker, user.id, site, funnel, "visitor deletion");
        tracker.privacy.delete_data(site, DataType::Pageviews, Some(now - 4 * 86_400_000)).unwrap();
        assert_matches_raw(&tracker, user.id, site, funnel, "page view deletion");
        tracker.privacy.apply_retention_at(now + 87 * 86_400_000).unwrap();
        assert_matches_raw(&tracker, user.id, site, funnel, "retention");
    }

    #[test]
    fn path_blobs_round_trip_and_top_paths_are_exact() {
        // Hour 1: a popular path; hour 2: many one-visit paths whose sum beats a high threshold's bound.
        let mut h1 = HashMap::new();
        h1.insert("/".to_string(), (100, 3));
        h1.insert("/\n/a".to_string(), (2, 0));
        let mut h2 = HashMap::new();
        for i in 0..300 {
            h2.insert(format!("/x{i}"), (1, 0));
        }
        h2.insert("/\n/a".to_string(), (1, 1));
        let (records1, keys1) = encode_paths(&h1);
        assert_eq!(record(&records1, 0).1, 100);
        assert_eq!(records(&records1).map(|r| r.1).collect::<Vec<_>>(), [100, 2]);
        assert_eq!(records(&records1).next().unwrap().0, fnv("/"));
        assert_eq!(key_at(&keys1, key_offsets(&keys1)[1]), "/\n/a");
        let (records2, keys2) = encode_paths(&h2);
        let journeys = [SiteJourneys {
            totals: JourneyTotals::default(),
            paths: vec![
                // The first hour's keys are read on demand, as a stored hour's are.
                PathHour { site: 1, hour: 7, records: records1, keys: None },
                PathHour { site: 1, hour: 8, records: records2, keys: Some(keys2) },
            ],
        }];
        let stored = |site: WebsiteId, hour: i64| {
            assert_eq!((site, hour), (1, 7));
            Ok(keys1.clone())
        };
        let (top, total) = top_paths(&journeys, 2, stored).unwrap();
        assert_eq!(total, 403);
        assert_eq!(top[0], PathCount { pages: vec!["/".into()], sessions: 100, conversions: 3 });
        assert_eq!(top[1], PathCount { pages: vec!["/".into(), "/a".into()], sessions: 3, conversions: 1 });
        let (three, _) = top_paths(&journeys, 3, stored).unwrap();
        // Ties (one visit each) are broken by the pages.
        assert_eq!(three[2].pages, vec!["/x0".to_string()]);
    }
}
