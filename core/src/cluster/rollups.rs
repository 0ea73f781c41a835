//! ClickHouse's rollups, the cluster's counterpart of SQLite's `rollup_hours`: per site, hour, dimension and
//! value, the counters SQLite's rebuild counts (`privacy::deletion::rebuild_rollups`), each shard's computed from
//! its own hits once an hour is closed. Reads take a range's closed hours from here and its open hours from the
//! hits, so a year's overview sums a few thousand rows instead of grouping millions of hits into visits.
//!
//! Each site's rows are keyed by its local hours (issue 36): `hour` is the UTC millisecond its local hour starts
//! (a UTC half hour in India), and a visitor counts once per local day. A shard's mark is a UTC hour; in a zone
//! it stands for every local hour before the one holding it (`local_span`), so a roll-up step of UTC hours
//! keys whole local hours in every zone and consecutive steps tile. A changed timezone rebuilds the site's
//! rows (`Cluster::rekey_site`).
//!
//! Closed hours are rolled up by one daemon at a time (serve's periodic job, under a PostgreSQL advisory lock)
//! and rebuilt, under the same lock, for the days a deletion touched. Retention keeps them, as SQLite keeps its
//! own, so history stays on the dashboard after its hits expire.

use std::time::{Duration, Instant};

use chrono_tz::Tz;

use super::Cluster;
use super::events::Events;
use super::local_hours::{hour_sql, local_span};
use super::pg::Pg;
use super::visits::{DAY_MS, first_visits_in, int, sites_condition, visits_in};
use crate::analytics::{Dimension, Totals, local_time};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

pub(super) const HOUR_MS: Millis = 3_600_000;

/// How old an hour must be before it is rolled up. Live hits are timed at most a day before they arrive
/// (`accept_timestamp`), and a visit's start is found from hits up to two days before a range
/// (`visits::EARLIER_HITS_MS`): after three days no hit can still be added to an hour's page views, start a
/// visit in it or join a visit that started in it, unless that visit has lasted days (a robot's): the sink
/// notes such a visit (`note_stale_visits`) and the next roll-up recomputes its site's rollups from its start.
pub(super) const CLOSED_AFTER_MS: Millis = 3 * DAY_MS;

/// How long a visit must have lasted (from its start to a hit the sink stores) before the sink notes it as
/// one whose rolled-up hour may lack its later hits. A hit arrives at most a day after its time, and an hour is
/// rolled up three days after it ends: a visit whose start is rolled up has lasted over two days.
const OUTGROWN_AFTER_MS: Millis = CLOSED_AFTER_MS - DAY_MS;

/// Hours rolled up per statement: a month of a shard's hits grouped into visits at a time, and the shard's
/// mark moved after each, so a first roll-up of a year is resumable and bounded in memory.
const STEP_MS: Millis = 30 * DAY_MS;

/// How long a read keeps using the mark it read. An older mark is still a true one (marks only grow): it only
/// leaves more of a range to the hits.
const MARK_TTL: Duration = Duration::from_secs(10);

/// The advisory lock held while rollups are written: a roll-up and a deletion's rebuild must not compute the
/// same hours at once (each inserts the difference to what it read). Its first key is this constant, its second
/// the hash of the metadata's schema: advisory locks are the database's, and clusters whose metadata shares a
/// PostgreSQL database in schemas of their own (the tests' do) have rollups of their own.
const ROLLUP_LOCK: i32 = 0x726f_6c6c;

/// The columns of a rollup row, in the tables' order.
pub(super) const COLUMNS: &str =
    "website_id, dim, hour, value, pageviews, visits, visitors, events, conversions, bounces, duration_s";

/// A half-open span of time in milliseconds.
pub(super) type Span = (Millis, Millis);

impl Cluster {
    /// Rolls up every hour closed by `now` that a shard has not rolled up yet (all sites), unless another daemon
    /// is doing so (`None`); the mark every shard has reached. A failed run is carried on by the next: what a
    /// statement stores is the difference to what the shard holds, so repeating it adds nothing.
    pub fn roll_up(&self, now: Millis) -> Result<Option<Millis>> {
        let target = (now - CLOSED_AFTER_MS).div_euclid(HOUR_MS) * HOUR_MS;
        let (pg, events) = (&self.pg, &self.events);
        locked(pg, false, || {
            roll_up_holding_lock(pg, events, target, now)?;
            reroll_stale_visits(pg, events)?;
            Ok(target)
        })
    }

    /// Rolls up every hour before `before` (an hour's start) on every shard, closed or not, waiting for a
    /// roll-up running elsewhere: what retention does before it deletes hits younger than the closed hours, so
    /// their figures stay on the dashboard as SQLite's do. Hits stored later in those hours are not read (the
    /// rollups answer for them), so `before` must be past the hours still receiving hits. Answers the mark
    /// every shard has reached, which may be later.
    pub(super) fn roll_up_before(&self, before: Millis, now: Millis) -> Result<Millis> {
        let (pg, events) = (&self.pg, &self.events);
        locked(pg, true, || roll_up_holding_lock(pg, events, before, now))?;
        events.rolled_up_through()
    }

    /// Recomputes a site's rollups of the hours in [from, to) that are rolled up (on each shard, those before
    /// its mark) from the hits left: after a deletion, as SQLite's `rebuild_rollups` does in the deletion's
    /// transaction. Waits for a roll-up running elsewhere to finish. Returns the rollup keys of the rebuilt
    /// hours afterwards (see `Events::rollup_keys`), the cluster's count of the rows it rebuilt.
    pub fn rebuild_rollups(&self, site: WebsiteId, from: Millis, to: Millis) -> Result<u64> {
        rebuild(&self.pg, &self.events, site, from, to)
    }

    /// The timezone a site's rollups are keyed by: its metadata's.
    pub fn site_zone(&self, site: WebsiteId) -> Result<Tz> {
        zone_of(&self.pg, site)
    }

    /// Each of `sites` with the timezone its rollups are keyed by, in one query (UTC for a site no longer there).
    pub fn site_zones(&self, sites: &[WebsiteId]) -> Result<Vec<(WebsiteId, Tz)>> {
        let named: std::collections::HashMap<WebsiteId, String> = self.pg.with(|c| {
            Ok(c.query("SELECT id, timezone FROM websites WHERE id = ANY($1)", &[&sites])?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect())
        })?;
        Ok(sites.iter().map(|site| (*site, named.get(site).map_or(Tz::UTC, |name| local_time::zone(name)))).collect())
    }

    /// Keys every rolled-up hour of a site by the timezone its metadata now holds, after a change: its rollups
    /// recomputed from a day before its first hit on, the old zone's rows taken to zero by the difference. Rows
    /// older than that (hours whose hits retention deleted) stay as they were keyed: their figures are not
    /// lost, only their hours are the old zone's.
    pub fn rekey_site(&self, site: WebsiteId) -> Result<()> {
        let (pg, events) = (&self.pg, &self.events);
        locked(pg, true, || {
            let Some(first) = events.first_hit(site)? else { return Ok(()) };
            rebuild_holding_lock(events, site, zone_of(pg, site)?, first - DAY_MS, Millis::MAX).map(|_| ())
        })?;
        Ok(())
    }
}

/// The timezones of the sites not in UTC, each with its sites: a roll-up keys each zone's sites by its hours.
fn zones(pg: &Pg) -> Result<Vec<(Tz, Vec<WebsiteId>)>> {
    let rows: Vec<(WebsiteId, String)> = pg.with(|c| {
        Ok(c.query("SELECT id, timezone FROM websites WHERE timezone <> 'UTC' ORDER BY timezone, id", &[])?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    })?;
    let mut zones: Vec<(Tz, Vec<WebsiteId>)> = Vec::new();
    for (site, name) in rows {
        let tz = local_time::zone(&name);
        match zones.iter_mut().find(|(zone, _)| *zone == tz) {
            Some((_, sites)) => sites.push(site),
            None => zones.push((tz, vec![site])),
        }
    }
    zones.retain(|(tz, _)| *tz != Tz::UTC);
    Ok(zones)
}

/// The timezone a site's rollups are keyed by: its metadata's (UTC for a site no longer there).
pub(super) fn zone_of(pg: &Pg, site: WebsiteId) -> Result<Tz> {
    let name: Option<String> =
        pg.with(|c| Ok(c.query_opt("SELECT timezone FROM websites WHERE id = $1", &[&site])?.map(|r| r.get(0))))?;
    Ok(name.map_or(Tz::UTC, |name| local_time::zone(&name)))
}

/// Brings every shard's mark to `target` (an hour's start) by rolling up its hours before it, by a caller
/// holding the rollups' lock; a shard already there is left alone. Each step is one statement for the sites in
/// UTC and one per other timezone a site has.
fn roll_up_holding_lock(pg: &Pg, events: &Events, target: Millis, now: Millis) -> Result<()> {
    let db = events.database();
    let marks = events.shard_marks()?;
    let zones = zones(pg)?;
    let in_utc = match zones.iter().flat_map(|(_, sites)| sites).copied().collect::<Vec<_>>() {
        zoned if zoned.is_empty() => "1".to_string(),
        zoned => format!("NOT ({})", sites_condition(&zoned)),
    };
    for (shard, node) in events.nodes().iter().enumerate() {
        let mut from = marks[shard];
        if from >= target {
            continue;
        }
        if from == 0 {
            // Never rolled up: from the shard's first hit (none: nothing to do before the target; an
            // empty table's min is 0 in ClickHouse, not NULL).
            let rows = node.query(&format!("SELECT count(), min(ts) FROM {db}.hits_local"))?;
            let row = rows.first().map(Vec::as_slice).unwrap_or_default();
            let first = if int(row, 0)? == 0 { target } else { int(row, 1)?.min(target) };
            from = first.div_euclid(HOUR_MS) * HOUR_MS;
            if from >= target {
                node.execute(&format!(
                    "INSERT INTO {db}.rollup_marks_local (shard, through, at) VALUES ({shard}, {target}, {now})"
                ))?;
            }
        }
        while from < target {
            let to = (from + STEP_MS).min(target);
            node.execute(&difference_sql(db, &in_utc, Tz::UTC, from, to))?;
            for (tz, sites) in &zones {
                node.execute(&difference_sql(db, &sites_condition(sites), *tz, from, to))?;
            }
            node.execute(&format!(
                "INSERT INTO {db}.rollup_marks_local (shard, through, at) VALUES ({shard}, {to}, {now})"
            ))?;
            from = to;
        }
    }
    events.forget_mark();
    Ok(())
}

/// `Cluster::rebuild_rollups` on a pool and an events store.
pub(super) fn rebuild(pg: &Pg, events: &Events, site: WebsiteId, from: Millis, to: Millis) -> Result<u64> {
    let keys = locked(pg, true, || {
        let (from, rebuilt_to) = rebuild_holding_lock(events, site, zone_of(pg, site)?, from, to)?;
        // Counted under the lock, before a roll-up elsewhere adds later hours. A shard holds no rollup of an
        // hour past its own mark, so the hours up to the furthest mark are each shard's rebuilt hours.
        if rebuilt_to > from { events.rollup_keys(site, Some((from, rebuilt_to))) } else { Ok(0) }
    })?;
    Ok(keys.unwrap_or(0))
}

/// `rebuild`, by a caller holding the rollups' lock, keying the site by `tz`; the span of (local) hours it
/// rebuilt on some shard (empty when none: every shard's mark is before `from`).
fn rebuild_holding_lock(events: &Events, site: WebsiteId, tz: Tz, from: Millis, to: Millis) -> Result<Span> {
    let from = from.div_euclid(HOUR_MS) * HOUR_MS;
    let marks = events.shard_marks()?;
    let mut rebuilt_to = from;
    for (node, mark) in events.nodes().iter().zip(marks) {
        let mut start = from;
        while start < to.min(mark) {
            let end = (start + STEP_MS).min(to).min(mark);
            node.execute(&difference_sql(events.database(), &format!("website_id = {site}"), tz, start, end))?;
            start = end;
        }
        rebuilt_to = rebuilt_to.max(to.min(mark));
    }
    Ok(local_span(tz, from, rebuilt_to))
}

/// Whether a visit that started at `start` and has a hit at `latest` may have outgrown its rolled-up hour.
pub(super) fn outgrown(start: Millis, latest: Millis) -> bool {
    latest - start > OUTGROWN_AFTER_MS
}

/// Notes, per site, the earliest start of the visits of `visits` (site, start) whose rolled-up hours lack
/// some of their stored hits (migration 0090); the next roll-up recomputes the site's rollups from there. Rare:
/// most batches have none, and send nothing.
pub(super) fn note_stale_visits(pg: &Pg, visits: &[(WebsiteId, Millis)]) -> Result<()> {
    let mut earliest: std::collections::BTreeMap<WebsiteId, Millis> = std::collections::BTreeMap::new();
    for (site, start) in visits {
        let from = earliest.entry(*site).or_insert(*start);
        *from = (*from).min(*start);
    }
    if earliest.is_empty() {
        return Ok(());
    }
    let (sites, starts): (Vec<WebsiteId>, Vec<Millis>) = earliest.into_iter().unzip();
    pg.with(|c| {
        c.execute(
            "INSERT INTO rollup_stale_visits AS s (website_id, from_ms, note)
             SELECT w, f, nextval('rollup_stale_notes') FROM unnest($1::BIGINT[], $2::BIGINT[]) AS n(w, f)
             ON CONFLICT (website_id) DO UPDATE SET from_ms = least(s.from_ms, excluded.from_ms), note = excluded.note",
            &[&sites, &starts],
        )?;
        Ok(())
    })
}

/// Recomputes, holding the rollups' lock, the rollups of each site noted by `note_stale_visits` from its
/// note's hour on, then deletes the notes it acted on (a note a batch renewed meanwhile stays for the next run:
/// that batch's hits may have been stored after they were read).
fn reroll_stale_visits(pg: &Pg, events: &Events) -> Result<()> {
    let notes: Vec<(WebsiteId, Millis, Millis)> = pg.with(|c| {
        Ok(c.query("SELECT website_id, from_ms, note FROM rollup_stale_visits", &[])?
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    })?;
    for (site, from, note) in notes {
        rebuild_holding_lock(events, site, zone_of(pg, site)?, from, Millis::MAX)?;
        pg.with(|c| {
            c.execute("DELETE FROM rollup_stale_visits WHERE website_id = $1 AND note = $2", &[&site, &note])?;
            Ok(())
        })?;
    }
    Ok(())
}

/// Runs `f` holding the rollups' advisory lock: `None` without running it when another daemon holds it and
/// `wait` is false.
pub(super) fn locked<T>(pg: &Pg, wait: bool, f: impl FnOnce() -> Result<T>) -> Result<Option<T>> {
    pg.with(|lock| {
        if wait {
            lock.execute("SELECT pg_advisory_lock($1, hashtext(current_schema()))", &[&ROLLUP_LOCK])?;
        } else if !lock
            .query_one("SELECT pg_try_advisory_lock($1, hashtext(current_schema()))", &[&ROLLUP_LOCK])?
            .get::<_, bool>(0)
        {
            return Ok(None);
        }
        let done = f();
        // Let go even after a failure, so the next run (here or on another daemon) can take it.
        let unlocked = lock.execute("SELECT pg_advisory_unlock($1, hashtext(current_schema()))", &[&ROLLUP_LOCK]);
        let done = done?;
        unlocked?;
        Ok(Some(done))
    })
}

/// The statement, run on one shard, that brings its rollups of the sites of `sites` (a condition on
/// `website_id`, sites of the zone `tz`) over the local hours a roll-up of the UTC hours [from, to) keys
/// (`local_span`) to what its hits give: the rows its hits give, minus the rows it holds, summed per key and
/// inserted where they differ.
fn difference_sql(db: &str, sites: &str, tz: Tz, from: Millis, to: Millis) -> String {
    let (from, to) = local_span(tz, from, to);
    let held = format!(
        "SELECT website_id, dim, hour, value, -pageviews, -visits, -visitors, -events, -conversions, -bounces,
                -duration_s
         FROM {db}.rollup_hours_local WHERE {sites} AND hour >= {from} AND hour < {to}"
    );
    format!(
        "INSERT INTO {db}.rollup_hours_local ({COLUMNS})
         SELECT website_id, dim, hour, value, sum(pageviews) AS p, sum(visits) AS v, sum(visitors) AS u,
                sum(events) AS e, sum(conversions) AS c, sum(bounces) AS b, sum(duration_s) AS d
         FROM ({} UNION ALL {held})
         GROUP BY website_id, dim, hour, value
         HAVING p != 0 OR v != 0 OR u != 0 OR e != 0 OR c != 0 OR b != 0 OR d != 0",
        rows_sql(db, sites, tz, from, to)
    )
}

/// The rollup rows a shard's hits give over the hours of [from, to), with the meanings of SQLite's rebuild
/// (and its writer): visits, bounces, visit time and visits with a conversion in the hour their visit started,
/// under their first hit's dimensions; a visitor once a day, in the hour of their first visit that day; page
/// views, events and conversions in the hour they happened, pages and event names as values. Hours and days are
/// the local ones of `tz`.
fn rows_sql(db: &str, sites: &str, tz: Tz, from: Millis, to: Millis) -> String {
    let hour = |column: &str| hour_sql(tz, column, from, to);
    let in_range = format!("{sites} AND ts >= {from} AND ts < {to}");
    // One pass over the visits for every per-visit row: each visit fans out to its (dim, value) pairs.
    let mut pairs = vec!["('', '')".to_string(), "('converted', '')".to_string()];
    for dim in Dimension::PER_VISIT {
        let value = super::visits::visit_dimension(dim).expect("per-visit dimensions have a visit value");
        pairs.push(format!("('{}', {value})", dim.as_str()));
    }
    let zero = "toInt64(0)";
    [
        format!(
            "SELECT website_id, tupleElement(pair, 1) AS dim, {} AS hour, tupleElement(pair, 2) AS value,
                    {zero} AS pageviews, toInt64(count()) AS visits, {zero} AS visitors, {zero} AS events,
                    {zero} AS conversions, toInt64(sumIf(page_views = 1, dim = '')) AS bounces,
                    toInt64(sumIf(intDiv(last - start, 1000), dim = '')) AS duration_s
             FROM (SELECT website_id, start, last, page_views, conversions AS converted, arrayJoin([{}]) AS pair
                   FROM ({}))
             WHERE tupleElement(pair, 1) != 'converted' OR converted > 0
             GROUP BY website_id, dim, hour, value",
            hour("start"),
            pairs.join(", "),
            visits_in(db, "hits_local", sites, from, to)
        ),
        format!(
            "SELECT website_id, '', {} AS hour, '', {zero}, {zero}, toInt64(count()), {zero}, {zero}, {zero}, {zero}
             FROM ({}) WHERE first >= {from}
             GROUP BY website_id, hour",
            hour("first"),
            first_visits_in(db, "hits_local", sites, tz, from, to)
        ),
        format!(
            "SELECT website_id, '', {} AS hour, '', toInt64(countIf(kind = 'pageview')), {zero}, {zero},
                    toInt64(countIf(kind IN ('custom', 'outbound', 'download'))), toInt64(countIf(kind = 'conversion')),
                    {zero}, {zero}
             FROM {db}.hits_local WHERE {in_range} GROUP BY website_id, hour",
            hour("ts")
        ),
        format!(
            "SELECT website_id, '{}', {} AS hour, path, toInt64(count()), {zero}, {zero}, {zero}, {zero}, {zero}, {zero}
             FROM {db}.hits_local WHERE {in_range} AND kind = 'pageview' GROUP BY website_id, hour, path",
            Dimension::Page.as_str(),
            hour("ts")
        ),
        format!(
            "SELECT website_id, 'event', {} AS hour, {EVENT_NAME} AS event_name, {zero}, {zero}, {zero},
                    toInt64(countIf(kind != 'conversion')), toInt64(countIf(kind = 'conversion')), {zero}, {zero}
             FROM {db}.hits_local WHERE {in_range} AND kind IN ('custom', 'outbound', 'download', 'conversion')
             GROUP BY website_id, hour, event_name",
            hour("ts")
        ),
    ]
    .join(" UNION ALL ")
}

/// An event's name in the events summary and the `event` rollups: its name, or for an unnamed custom event,
/// outbound link or download its kind (as SQLite's writer names them).
pub(super) const EVENT_NAME: &str = "if(kind != 'conversion' AND name = '', kind, name)";

impl Events {
    /// Every hour before this is rolled up on every shard (0: none yet), as read at most `MARK_TTL` ago.
    pub(super) fn rolled_up_through(&self) -> Result<Millis> {
        if let Some((read, mark)) = *self.mark.lock().unwrap_or_else(|e| e.into_inner())
            && read.elapsed() < MARK_TTL
        {
            return Ok(mark);
        }
        let mark = self.shard_marks()?.into_iter().min().unwrap_or(0);
        *self.mark.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), mark));
        Ok(mark)
    }

    /// A site's rollup keys, over the hours of `hours` or all of them: its distinct (dim, hour, value) with a
    /// counter that is not zero, summed over the shards. The table takes difference inserts (and sums them at
    /// merges), so its raw rows are no count of what it holds.
    pub(super) fn rollup_keys(&self, site: WebsiteId, hours: Option<Span>) -> Result<u64> {
        let within = hours.map(|(from, to)| format!(" AND hour >= {from} AND hour < {to}")).unwrap_or_default();
        self.nodes()[0].query_value(&format!(
            "SELECT count() FROM (
                SELECT sum(pageviews) AS p, sum(visits) AS v, sum(visitors) AS u, sum(events) AS e,
                       sum(conversions) AS c, sum(bounces) AS b, sum(duration_s) AS d
                FROM {}.rollup_hours WHERE website_id = {site}{within}
                GROUP BY dim, hour, value
                HAVING p != 0 OR v != 0 OR u != 0 OR e != 0 OR c != 0 OR b != 0 OR d != 0)",
            self.database()
        ))
    }

    /// The time of a site's first hit on any shard (`None` when it has none).
    fn first_hit(&self, site: WebsiteId) -> Result<Option<Millis>> {
        let rows = self.nodes()[0]
            .query(&format!("SELECT count(), min(ts) FROM {}.hits WHERE website_id = {site}", self.database()))?;
        let row = rows.first().map(Vec::as_slice).unwrap_or_default();
        // An empty table's min is 0 in ClickHouse, not NULL.
        Ok(if int(row, 0)? > 0 { Some(int(row, 1)?) } else { None })
    }

    /// Drops the mark read last (after a roll-up moved it).
    pub(super) fn forget_mark(&self) {
        *self.mark.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Each shard's mark, in shard order: every hour before it is rolled up there (0: none).
    fn shard_marks(&self) -> Result<Vec<Millis>> {
        let mut marks = vec![0; self.nodes().len()];
        let rows = self.nodes()[0]
            .query(&format!("SELECT shard, max(through) FROM {}.rollup_marks GROUP BY shard", self.database()))?;
        for row in rows {
            if let Some(mark) = marks.get_mut(int(&row, 0)? as usize) {
                *mark = int(&row, 1)?;
            }
        }
        Ok(marks)
    }

    /// The part of [from, to) read from the rollups of a site keyed by `tz` (its whole local hours before the
    /// mark's) and the part read from the hits; either may be `None`. A range that does not start on a local hour
    /// is read from the hits alone.
    pub(super) fn split(&self, tz: Tz, from: Millis, to: Millis) -> Result<(Option<Span>, Option<Span>)> {
        if from != local_time::hour_start(tz, from) || from >= to {
            return Ok((None, (from < to).then_some((from, to))));
        }
        let mark = local_span(tz, 0, self.rolled_up_through()?.div_euclid(HOUR_MS) * HOUR_MS).1;
        let rolled = (from < mark).then_some((from, to.min(mark)));
        let live = (mark < to).then_some((from.max(mark), to));
        Ok((rolled, live))
    }

    /// The totals of `sites` together over the hours of `tables` (see `hour_tables`).
    pub(super) fn rolled_totals(&self, sites: &[WebsiteId], tables: &[(&str, Span)]) -> Result<Totals> {
        let sites = super::visits::sites_condition(sites);
        let parts: Vec<String> = tables
            .iter()
            .map(|(table, (from, to))| {
                format!(
                    "SELECT pageviews, visits, visitors, events, conversions, bounces, duration_s FROM {}.{table}
                     WHERE {sites} AND dim = '' AND hour >= {from} AND hour < {to}",
                    self.database()
                )
            })
            .collect();
        let rows = self.nodes()[0].query(&format!(
            "SELECT sum(pageviews), sum(visits), sum(visitors), sum(events), sum(conversions), sum(bounces),
                    sum(duration_s)
             FROM ({})",
            parts.join(" UNION ALL ")
        ))?;
        let row = rows.first().map(Vec::as_slice).unwrap_or_default();
        Ok(Totals {
            pageviews: int(row, 0)?,
            visits: int(row, 1)?,
            visitors: int(row, 2)?,
            events: int(row, 3)?,
            conversions: int(row, 4)?,
            bounces: int(row, 5)?,
            duration_s: int(row, 6)?,
        })
    }

    /// SQL of `(value, n)` rows of one rollup dimension over the rolled-up hours of `span`: `counter` summed per
    /// value, without the values a rebuild took to zero (no order, no limit; a caller adds the hits' rows and
    /// orders).
    pub(super) fn rolled_values_sql(
        &self,
        site: WebsiteId,
        dim: &str,
        counter: &str,
        (table, (from, to)): (&str, Span),
    ) -> String {
        format!(
            "SELECT value, sum({counter}) AS n FROM {}.{table}
             WHERE website_id = {site} AND dim = {} AND hour >= {from} AND hour < {to}
             GROUP BY value HAVING n != 0",
            self.database(),
            super::clickhouse::quote(dim)
        )
    }
}

/// The tables of hourly counts a read of `whole` adds to its hits, each with the span of `hour` it reads: the
/// rollups over the rolled-up part (`rolled`, from `Events::split`), and the imported daily aggregates of the days
/// whose local midnight of `tz` is in the range (`imported_span`), which have no hits to be read from instead.
/// The same table may not be listed twice.
pub(super) fn hour_tables(rolled: Option<Span>, whole: Span, tz: Tz) -> Vec<(&'static str, Span)> {
    let mut tables = Vec::with_capacity(2);
    if let Some(span) = rolled {
        tables.push(("rollup_hours", span));
    }
    let imported = imported_span(tz, whole);
    if imported.0 < imported.1 {
        tables.push(("imported_hours", imported));
    }
    tables
}

/// The span of `imported_hours.hour` a read of [from, to) in `tz` takes. Imported rows are keyed by their
/// date's UTC midnight whatever the site's zone (an import stores dates; a zone change moves nothing), and
/// count on the date's local midnight, as SQLite's rebuild places them: the dates whose local midnight is in the
/// range.
pub(super) fn imported_span(tz: Tz, (from, to): Span) -> Span {
    if tz == Tz::UTC || from >= to {
        return (from, to);
    }
    let first_date = |at: Millis| {
        let date = local_time::date_of(tz, at);
        if local_time::midnight(tz, date) >= at { date } else { date + chrono::Days::new(1) }
    };
    let utc_midnight =
        |date: chrono::NaiveDate| date.and_hms_opt(0, 0, 0).expect("midnight").and_utc().timestamp_millis();
    let clamp = |at: Millis| at.clamp(-DAY_MS * 365 * 200, DAY_MS * 365 * 300);
    (utc_midnight(first_date(clamp(from))), utc_midnight(first_date(clamp(to))))
}

#[cfg(test)]
#[path = "rollups_tests.rs"]
mod tests;
