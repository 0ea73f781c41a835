//! What the writer remembers between batches, in one place: the daily salts of the visitor hash, the recent
//! visits and the visitors counted per day. The visits and day sets mirror the database and are cleared when
//! it may have changed under them; the salts exist nowhere else.

use std::collections::HashMap;

use rand::RngCore;
use rusqlite::Connection;
use sha2::{Digest, Sha256};

use chrono::Datelike;
use chrono_tz::Tz;
use rusqlite::OptionalExtension;

use super::day_visitors::{DayVisitors, LocalDay};
use super::visits::Visits;
use crate::analytics::local_time;
use crate::model::{Millis, WebsiteId};

const DAY_MS: i64 = 86_400_000;
/// Days from 0001-01-01 (chrono's day 1) to 1970-01-01.
const EPOCH_DAYS_FROM_CE: i64 = 719_163;

/// The writer's remembered state.
#[derive(Default)]
pub(super) struct Memory {
    /// The salt of each day, made on first use. Never written anywhere: with it, the anonymised address and the
    /// user agent kept with a visit, the 256 addresses of a /24 would give the visitor's address back from its
    /// hash. A restart makes new ones (README, Privacy).
    salts: HashMap<i64, [u8; 16]>,
    pub visits: Visits,
    day_visitors: DayVisitors,
    /// The day `prune` last ran.
    pruned_day: i64,
    /// The timezones of the current batch's sites outside UTC, read in its transaction (`load_zones`).
    pub zones: HashMap<WebsiteId, Tz>,
}

impl Memory {
    /// Forgets what mirrors the database (visits, visitors counted per day), after a rollback that may have
    /// undone part of it; they are read again as needed. The salts stay: they are not stored, and a new salt
    /// would count every visitor of the day again.
    pub fn clear(&mut self) {
        self.visits.clear();
        self.day_visitors.clear();
    }

    /// Clears the mirrors if another connection committed since the last batch (it may have deleted sessions:
    /// a site's data, retention). Runs inside the writer's IMMEDIATE transaction, where no other connection
    /// can commit until the batch is done.
    pub fn sync(&mut self, tx: &Connection) -> rusqlite::Result<()> {
        if self.visits.sync(tx)? {
            self.day_visitors.clear();
        }
        Ok(())
    }

    /// The visitor hash of a new visit starting at `ts`, and whether it is the visitor's first visit to the
    /// site that day. Call it before the visit's session is stored (a first load of the day would find it).
    /// The salt is the UTC day's; "that day" is the site's local day.
    pub fn visitor(
        &mut self,
        tx: &Connection,
        site: WebsiteId,
        ts: Millis,
        seed: &[u8; 32],
    ) -> rusqlite::Result<(i64, bool)> {
        let day = ts.div_euclid(DAY_MS);
        let salt = self.salts.entry(day).or_insert_with(|| {
            let mut salt = [0u8; 16];
            rand::rng().fill_bytes(&mut salt);
            salt
        });
        let visitor = visitor_hash(salt, site, seed);
        let local = match self.zones.get(&site) {
            None => LocalDay { number: day, start: day * DAY_MS, end: (day + 1) * DAY_MS },
            Some(&tz) => {
                let date = local_time::date_of(tz, ts);
                LocalDay {
                    number: i64::from(date.num_days_from_ce()) - EPOCH_DAYS_FROM_CE,
                    start: local_time::midnight(tz, date),
                    end: local_time::midnight(tz, date + chrono::Days::new(1)),
                }
            }
        };
        Ok((visitor, self.day_visitors.first_visit(tx, site, local, visitor)?))
    }

    /// Reads the timezones of a batch's sites, in its transaction: a timezone saved and rebuilt for
    /// (`Upkeep::timezone_changed`, one write transaction) is the one every later batch keys by.
    pub fn load_zones(&mut self, tx: &Connection, sites: impl Iterator<Item = WebsiteId>) -> rusqlite::Result<()> {
        self.zones.clear();
        let mut stmt = tx.prepare_cached("SELECT timezone FROM websites WHERE id = ?1")?;
        for site in sites {
            if self.zones.contains_key(&site) {
                continue;
            }
            let name: Option<String> = stmt.query_row([site], |r| r.get(0)).optional()?;
            let tz = name.map_or(Tz::UTC, |n| local_time::zone(&n));
            if tz != Tz::UTC {
                self.zones.insert(site, tz);
            }
        }
        Ok(())
    }

    /// Once a day, drops the salts and visitor sets that serve no purpose any more: a salt older than
    /// yesterday would only let its day's hashes be matched for longer.
    pub fn prune(&mut self) {
        let today = chrono::Utc::now().timestamp_millis().div_euclid(DAY_MS);
        if self.pruned_day != today {
            self.salts.retain(|day, _| *day >= today - 1);
            // Local days run up to 14 hours ahead of UTC's or 12 behind: yesterday's is still written to.
            self.day_visitors.forget_before(today - 2);
            self.pruned_day = today;
        }
    }
}

/// The visitor hash of a visit: its day's salt, the site and the visitor seed (address and user agent).
pub(crate) fn visitor_hash(salt: &[u8; 16], site: WebsiteId, seed: &[u8; 32]) -> i64 {
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(site.to_le_bytes());
    hasher.update(seed);
    let digest = hasher.finalize();
    i64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use rusqlite::params;

    use super::*;

    /// After a rolled-back job the writer clears its memory; a visitor seen before it is still the same visitor
    /// (same hash, not counted again that day), and a new visitor is still new.
    #[test]
    fn a_visitor_stays_one_visitor_across_a_rolled_back_job() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = crate::db::connect(&dir.path().join("t.sqlite")).unwrap();
        crate::db::migrate(&mut conn).unwrap();
        conn.execute_batch(
            "INSERT INTO users (email, password_hash, created_at) VALUES ('a@example.com', 'x', 0);
             INSERT INTO websites (user_id, name, domain, tracking_key, created_at) VALUES (1, 'A', 'a.example', 'a', 0);",
        )
        .unwrap();
        let ts = 20_000 * DAY_MS + 5_000;
        let mut memory = Memory::default();
        let (first, new) = memory.visitor(&conn, 1, ts, &[7; 32]).unwrap();
        assert!(new);
        conn.execute(
            "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page, exit_page)
             VALUES (1, 'stored-visit', ?1, ?2, ?2, '/', '/')",
            params![first, ts],
        )
        .unwrap();

        // A job that made a salt for another day and counted another visitor, then was rolled back.
        memory.visitor(&conn, 1, ts + DAY_MS, &[8; 32]).unwrap();
        memory.clear();

        let (again, new) = memory.visitor(&conn, 1, ts + 60_000, &[7; 32]).unwrap();
        assert_eq!(again, first, "the day's salt was kept");
        assert!(!new, "the visitor's stored visit is found again: counted once that day");
        let (_, new) = memory.visitor(&conn, 1, ts + DAY_MS, &[8; 32]).unwrap();
        assert!(new, "the rolled-back visit was never stored: its visitor is still new");
    }
}
