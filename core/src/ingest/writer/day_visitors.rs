//! The writer's memory of the visitors each site has counted per day, so "is this visit's visitor new today"
//! is a set lookup rather than a random write into an on-disk dedup table.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, params};

use crate::model::WebsiteId;

/// A site's local day: its number (days since 1970-01-01 in local dates) and its span in UTC ms.
#[derive(Debug, Clone, Copy)]
pub(super) struct LocalDay {
    pub number: i64,
    pub start: i64,
    pub end: i64,
}

/// Visitor hashes counted per site and local day (the site's timezone). A day is loaded, the first time it is needed, from the
/// sessions that began on it (each keeps its visitor hash and start), so restarts agree with what is stored.
/// Call `first_visit` before storing the visit's session, or the load would already find it.
///
/// Only a site's newest day and the one before are kept: hits arrive in time order but for stragglers
/// (queued offline, or sent around midnight). An older day is asked of the sessions each time, so an import of
/// a year of history holds two days in memory, not a year.
#[derive(Default)]
pub(super) struct DayVisitors {
    days: HashMap<(WebsiteId, i64), HashSet<i64>>,
    newest: HashMap<WebsiteId, i64>,
}

impl DayVisitors {
    /// Counts `visitor` on the local day `local`: true the first time.
    pub fn first_visit(
        &mut self,
        tx: &Connection,
        site: WebsiteId,
        local: LocalDay,
        visitor: i64,
    ) -> rusqlite::Result<bool> {
        let day = local.number;
        let newest = self.newest.entry(site).or_insert(day);
        if day > *newest {
            *newest = day;
            self.days.retain(|(other, kept), _| *other != site || *kept >= day - 1);
        } else if day < *newest - 1 {
            return Ok(!stored(tx, site, local, visitor)?);
        }
        let counted = match self.days.entry((site, day)) {
            Entry::Occupied(day) => day.into_mut(),
            Entry::Vacant(slot) => slot.insert(load(tx, site, local)?),
        };
        Ok(counted.insert(visitor))
    }

    /// Forgets the days before `oldest`: the visitor hash's salt changes daily, so they are never added to.
    pub fn forget_before(&mut self, oldest: i64) {
        self.days.retain(|(_, day), _| *day >= oldest);
        self.newest.retain(|_, day| *day >= oldest);
    }

    /// Forgets everything: after a rolled-back write, whose visitors the sets may hold, and after another
    /// connection deleted sessions (a visitor whose data was deleted counts again, as the rebuilt rollups do).
    pub fn clear(&mut self) {
        self.days.clear();
        self.newest.clear();
    }
}

/// Whether a session of `visitor` began on the local day.
fn stored(tx: &Connection, site: WebsiteId, day: LocalDay, visitor: i64) -> rusqlite::Result<bool> {
    tx.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM sessions
           WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3 AND visitor_hash = ?4)",
    )?
    .query_row(params![site, day.start, day.end, visitor], |r| r.get(0))
}

fn load(tx: &Connection, site: WebsiteId, day: LocalDay) -> rusqlite::Result<HashSet<i64>> {
    let mut statement = tx.prepare_cached(
        "SELECT visitor_hash FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3",
    )?;
    let hashes = statement.query_map(params![site, day.start, day.end], |r| r.get(0))?;
    hashes.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY_MS: i64 = 86_400_000;

    /// The UTC day `number` as a site in UTC has it.
    fn utc(number: i64) -> LocalDay {
        LocalDay { number, start: number * DAY_MS, end: (number + 1) * DAY_MS }
    }

    fn database(dir: &tempfile::TempDir) -> Connection {
        let mut conn = crate::db::connect(&dir.path().join("t.sqlite")).unwrap();
        crate::db::migrate(&mut conn).unwrap();
        conn.execute_batch(
            "INSERT INTO users (email, password_hash, created_at) VALUES ('a@example.com', 'x', 0);
             INSERT INTO websites (user_id, name, domain, tracking_key, created_at) VALUES (1, 'A', 'a.example', 'a', 0);
             INSERT INTO websites (user_id, name, domain, tracking_key, created_at) VALUES (1, 'B', 'b.example', 'b', 0);",
        )
        .unwrap();
        conn
    }

    fn store_session(conn: &Connection, site: WebsiteId, key: &str, visitor: i64, first_seen: i64) {
        conn.execute(
            "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page, exit_page)
             VALUES (?1, ?2, ?3, ?4, ?4, '/', '/')",
            params![site, key, visitor, first_seen],
        )
        .unwrap();
    }

    #[test]
    fn a_visitor_counts_once_per_site_and_day() {
        let dir = tempfile::tempdir().unwrap();
        let conn = database(&dir);
        let mut visitors = DayVisitors::default();
        assert!(visitors.first_visit(&conn, 1, utc(20_000), 42).unwrap());
        assert!(!visitors.first_visit(&conn, 1, utc(20_000), 42).unwrap(), "same site, same day");
        assert!(visitors.first_visit(&conn, 1, utc(20_001), 42).unwrap(), "the next day");
        assert!(visitors.first_visit(&conn, 2, utc(20_000), 42).unwrap(), "another site");
    }

    /// A restart (or a clear) agrees with what is stored: the visitors of sessions that began that day, on
    /// that site, are counted already; others are not.
    #[test]
    fn a_day_is_loaded_from_the_sessions_that_began_on_it() {
        let dir = tempfile::tempdir().unwrap();
        let conn = database(&dir);
        let day = 20_000;
        store_session(&conn, 1, "s1", 7, day * DAY_MS + 5);
        store_session(&conn, 1, "s2", 8, day * DAY_MS - 1);
        store_session(&conn, 2, "s3", 9, day * DAY_MS + 5);
        let mut visitors = DayVisitors::default();
        assert!(!visitors.first_visit(&conn, 1, utc(day), 7).unwrap(), "stored that day");
        assert!(visitors.first_visit(&conn, 1, utc(day), 8).unwrap(), "its session began the day before");
        assert!(visitors.first_visit(&conn, 1, utc(day), 9).unwrap(), "stored for another site");

        visitors.clear();
        conn.execute("DELETE FROM sessions WHERE session_key = 's1'", []).unwrap();
        assert!(visitors.first_visit(&conn, 1, utc(day), 7).unwrap(), "a deleted visit's visitor counts again");
    }

    /// A year of history imported in time order keeps two days; a straggler for an older day is still
    /// counted once, from the sessions.
    #[test]
    fn only_a_sites_two_newest_days_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let conn = database(&dir);
        let mut visitors = DayVisitors::default();
        for day in 100..465 {
            assert!(visitors.first_visit(&conn, 1, utc(day), day).unwrap());
            store_session(&conn, 1, &format!("s{day}"), day, day * DAY_MS);
        }
        visitors.first_visit(&conn, 2, utc(5), 1).unwrap();
        let mut kept: Vec<_> = visitors.days.keys().copied().collect();
        kept.sort();
        assert_eq!(kept, vec![(1, 463), (1, 464), (2, 5)], "another site's days are its own");
        assert!(!visitors.first_visit(&conn, 1, utc(200), 200).unwrap(), "an old day's visitor, from the sessions");
        assert!(visitors.first_visit(&conn, 1, utc(200), 201).unwrap(), "a new visitor of an old day");
        assert_eq!(visitors.days.len(), 3, "old days are not loaded");
    }

    #[test]
    fn old_days_are_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let conn = database(&dir);
        let mut visitors = DayVisitors::default();
        visitors.first_visit(&conn, 1, utc(10), 1).unwrap();
        visitors.first_visit(&conn, 2, utc(12), 1).unwrap();
        visitors.forget_before(11);
        assert_eq!(visitors.days.keys().copied().collect::<Vec<_>>(), vec![(2, 12)], "a site without hits today");
    }
}
