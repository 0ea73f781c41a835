//! What a parser reads goes first into a private temporary SQLite file (deleted when closed), not into
//! memory: rows of any number are held in pages on disk, and read back sorted (hits by visit) or summed (daily
//! aggregates by day, dimension and value) by SQLite's own sorter, which spills to disk too.

use rusqlite::{Connection, params};

use super::store::SESSION_TIMEOUT_MS;
use super::{DAY_MS, DayRow, ImportedHit};
use crate::analytics::Dimension;
use crate::error::Result;
use crate::model::Millis;

/// The staged rows of one import, with the first and last day they cover.
pub(crate) struct Staging {
    pub conn: Connection,
    days: Option<(Millis, Millis)>,
    /// A failed insert (disk full...), reported after the parse: it is no bad row of the file.
    error: Option<rusqlite::Error>,
}

const HIT_COLUMNS: &str = "visit, visitor, ts, event, url, path, referrer, referrer_host, country, region, city, \
                           device, browser, os, utm_source, utm_medium, utm_campaign, screen";

impl Staging {
    pub fn new() -> Result<Staging> {
        // "" opens a private on-disk temporary database; nothing here needs to survive a crash.
        let conn = Connection::open("")?;
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
             CREATE TABLE hits ({HIT_COLUMNS});
             CREATE TABLE days (day, dim, value, pageviews, visits, visitors, events, bounces, duration_s);
             BEGIN;"
        ))?;
        Ok(Staging { conn, days: None, error: None })
    }

    fn saw(&mut self, day: Millis) {
        self.days = Some(match self.days {
            None => (day, day),
            Some((a, b)) => (a.min(day), b.max(day)),
        });
    }

    fn keep(&mut self, result: rusqlite::Result<usize>) {
        if let Err(e) = result
            && self.error.is_none()
        {
            self.error = Some(e);
        }
    }

    /// Stages one hit of a per-hit export.
    pub fn hit(&mut self, h: ImportedHit) {
        self.saw(h.ts.div_euclid(DAY_MS) * DAY_MS);
        let result = self
            .conn
            .prepare_cached(&format!(
                "INSERT INTO hits ({HIT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, \
                 ?15, ?16, ?17, ?18)"
            ))
            .and_then(|mut s| {
                s.execute(params![
                    h.visit,
                    h.visitor,
                    h.ts,
                    h.event,
                    h.url,
                    h.path,
                    h.referrer,
                    h.referrer_host,
                    h.country,
                    h.region,
                    h.city,
                    h.device,
                    h.browser,
                    h.os,
                    h.utm_source,
                    h.utm_medium,
                    h.utm_campaign,
                    h.screen
                ])
            });
        self.keep(result);
    }

    /// Stages one daily aggregate row (rows of the same day, dimension and value are summed on reading).
    pub fn day(&mut self, r: DayRow) {
        self.saw(r.day);
        let result = self.conn.prepare_cached("INSERT INTO days VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)").and_then(
            |mut s| {
                s.execute(params![
                    r.day,
                    r.dim,
                    r.value,
                    r.pageviews,
                    r.visits,
                    r.visitors,
                    r.events,
                    r.bounces,
                    r.duration_s
                ])
            },
        );
        self.keep(result);
    }

    /// Ends the parse: the first insert error if any, else the first and last day staged.
    pub fn finish(&mut self) -> Result<Option<(Millis, Millis)>> {
        if let Some(e) = self.error.take() {
            return Err(e.into());
        }
        self.conn.execute_batch("COMMIT")?;
        Ok(self.days)
    }

    /// Every day (ms of its UTC midnight) the staged rows hold data on, in order.
    pub fn days(&self) -> Result<Vec<Millis>> {
        let mut stmt = self.conn.prepare(
            "SELECT day FROM days UNION SELECT (ts - ((ts % 86400000) + 86400000) % 86400000) FROM hits ORDER BY 1",
        )?;
        let days = stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        Ok(days)
    }

    /// Whether daily aggregates (Plausible) were staged rather than hits.
    pub fn has_days(&self) -> Result<bool> {
        Ok(self.conn.query_row("SELECT EXISTS (SELECT 1 FROM days)", [], |r| r.get(0))?)
    }

    /// The staged hits cut into visits (by the source's visit and time, a source visit cut where it idles past
    /// the timeout, as tracked visits end), given to `each` about `batch` hits at a time and then once more with
    /// the rest, which may be none, and `last` true.
    pub fn each_visit_batch(
        &self,
        batch: usize,
        mut each: impl FnMut(&[Vec<ImportedHit>], bool) -> Result<()>,
    ) -> Result<()> {
        let mut visit: Vec<ImportedHit> = Vec::new();
        let mut pending: Vec<Vec<ImportedHit>> = Vec::new();
        let mut pending_hits = 0;
        self.each_hit(|hit| {
            if visit.last().is_some_and(|last| last.visit != hit.visit || hit.ts - last.ts > SESSION_TIMEOUT_MS) {
                pending_hits += visit.len();
                pending.push(std::mem::take(&mut visit));
                if pending_hits >= batch {
                    each(&pending, false)?;
                    pending.clear();
                    pending_hits = 0;
                }
            }
            visit.push(hit);
            Ok(())
        })?;
        if !visit.is_empty() {
            pending.push(visit);
        }
        each(&pending, true)
    }

    /// Every staged hit, by visit and time (file order among equal times), one at a time.
    pub fn each_hit(&self, mut each: impl FnMut(ImportedHit) -> Result<()>) -> Result<()> {
        let mut stmt = self.conn.prepare(&format!("SELECT {HIT_COLUMNS} FROM hits ORDER BY visit, ts, rowid"))?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            each(ImportedHit {
                visit: r.get(0)?,
                visitor: r.get(1)?,
                ts: r.get(2)?,
                event: r.get(3)?,
                url: r.get(4)?,
                path: r.get(5)?,
                referrer: r.get(6)?,
                referrer_host: r.get(7)?,
                country: r.get(8)?,
                region: r.get(9)?,
                city: r.get(10)?,
                device: r.get(11)?,
                browser: r.get(12)?,
                os: r.get(13)?,
                utm_source: r.get(14)?,
                utm_medium: r.get(15)?,
                utm_campaign: r.get(16)?,
                screen: r.get(17)?,
            })?;
        }
        Ok(())
    }

    /// Every staged daily aggregate summed by day, dimension and value, one at a time.
    pub fn each_day(&self, mut each: impl FnMut(DayRow) -> Result<()>) -> Result<()> {
        let mut stmt = self.conn.prepare(
            "SELECT day, dim, value, SUM(pageviews), SUM(visits), SUM(visitors), SUM(events), SUM(bounces),
                SUM(duration_s) FROM days GROUP BY day, dim, value ORDER BY day, dim, value",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let dim: String = r.get(1)?;
            each(DayRow {
                day: r.get(0)?,
                dim: static_dim(&dim),
                value: r.get(2)?,
                pageviews: r.get(3)?,
                visits: r.get(4)?,
                visitors: r.get(5)?,
                events: r.get(6)?,
                bounces: r.get(7)?,
                duration_s: r.get(8)?,
            })?;
        }
        Ok(())
    }
}

/// The rollup dimension a staged name stands for (the Plausible parser writes only these).
fn static_dim(name: &str) -> &'static str {
    [
        "",
        "event",
        Dimension::Page.as_str(),
        Dimension::Referrer.as_str(),
        Dimension::UtmSource.as_str(),
        Dimension::Source.as_str(),
        Dimension::Country.as_str(),
        Dimension::Device.as_str(),
        Dimension::Browser.as_str(),
        Dimension::Os.as_str(),
    ]
    .into_iter()
    .find(|d| *d == name)
    .unwrap_or("")
}
