//! The writer's memory of recent visits (their session row and latest consent choice), so a hit of an
//! ongoing visit needs no lookup; emptied whenever another connection has written to the database.

use std::collections::HashMap;

use rusqlite::Connection;

use crate::analytics::VisitDims;
use crate::model::{Millis, WebsiteId};

/// Visits remembered at most (two generations of half as many). A few hundred bytes each.
const CAPACITY: usize = 40_000;

/// The session columns the writer needs to update a visit and its rollups.
pub(super) struct SessionState {
    pub id: i64,
    pub first_seen: Millis,
    pub last_seen: Millis,
    pub page_views: i64,
    pub organization: Option<i64>,
    pub dims: VisitDims,
}

/// What the writer knows of one visit, taken out of the cache to be worked on.
pub(super) struct Visit {
    /// The session key, moved in and out of the map with the entry (no copy per hit).
    key: Box<str>,
    pub known: Known,
}

/// The cached part of a visit.
#[derive(Default)]
pub(super) struct Known {
    /// The stored session row; `None`: not known here (there may be one in the database).
    pub session: Option<SessionState>,
    /// The latest analytics choice: `None` not looked up yet, `Some(None)` the visit never chose.
    pub consent: Option<Option<bool>>,
}

type Generation = HashMap<WebsiteId, HashMap<Box<str>, Known>>;

/// A two-generation cache (as the user-agent cache): new and used entries go into `hot`; when it fills it
/// becomes `cold` and the old `cold` is dropped. A visit idle long enough to fall out costs one lookup.
///
/// It mirrors rows only this writer changes, except that other connections (the CLI's deletions and
/// retention, API deletions, website deletion) may change or delete them: `sync` empties the cache when
/// `PRAGMA data_version` says another connection committed, and must run inside the writer's IMMEDIATE
/// transaction, where no other connection can commit until the batch is done.
#[derive(Default)]
pub(super) struct Visits {
    hot: Generation,
    cold: Generation,
    hot_len: usize,
    data_version: Option<i64>,
}

impl Visits {
    /// Empties the cache if another connection committed since the last call; says whether one did.
    pub fn sync(&mut self, tx: &Connection) -> rusqlite::Result<bool> {
        let version: i64 = tx.query_row("PRAGMA data_version", [], |r| r.get(0))?;
        let changed = self.data_version != Some(version);
        if changed {
            self.clear();
            self.data_version = Some(version);
        }
        Ok(changed)
    }

    /// Forgets everything (after a rolled-back write, whose changes the entries may hold).
    pub fn clear(&mut self) {
        self.hot.clear();
        self.cold.clear();
        self.hot_len = 0;
    }

    /// Takes a visit out to work on it (a blank one when unknown); give it back with `put`.
    pub fn take(&mut self, site: WebsiteId, key: &str) -> Visit {
        if let Some((key, known)) = self.hot.get_mut(&site).and_then(|visits| visits.remove_entry(key)) {
            self.hot_len -= 1;
            return Visit { key, known };
        }
        if let Some((key, known)) = self.cold.get_mut(&site).and_then(|visits| visits.remove_entry(key)) {
            return Visit { key, known };
        }
        Visit { key: key.into(), known: Known::default() }
    }

    pub fn put(&mut self, site: WebsiteId, visit: Visit) {
        if self.hot_len >= CAPACITY / 2 {
            self.cold = std::mem::take(&mut self.hot);
            self.hot_len = 0;
        }
        if self.hot.entry(site).or_default().insert(visit.key, visit.known).is_none() {
            self.hot_len += 1;
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        let count = |g: &Generation| g.values().map(HashMap::len).sum::<usize>();
        count(&self.hot) + count(&self.cold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visit(key: &str, consent: bool) -> Visit {
        Visit { key: key.into(), known: Known { session: None, consent: Some(Some(consent)) } }
    }

    #[test]
    fn stays_bounded_and_keeps_recent_visits() {
        let mut visits = Visits::default();
        for i in 0..CAPACITY * 3 {
            visits.put(1, visit(&format!("s{i}"), true));
            assert!(visits.len() <= CAPACITY);
        }
        assert_eq!(visits.take(1, &format!("s{}", CAPACITY * 3 - 1)).known.consent, Some(Some(true)));
        assert_eq!(visits.take(1, "s0").known.consent, None, "the oldest visits fell out");
    }

    #[test]
    fn visits_are_per_site() {
        let mut visits = Visits::default();
        visits.put(1, visit("same-key", false));
        assert_eq!(visits.take(2, "same-key").known.consent, None);
        assert_eq!(visits.take(1, "same-key").known.consent, Some(Some(false)));
    }

    #[test]
    fn another_connections_commit_empties_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let writer = Connection::open(&path).unwrap();
        let other = Connection::open(&path).unwrap();
        writer.execute_batch("CREATE TABLE t (x)").unwrap();
        let mut visits = Visits::default();
        visits.sync(&writer).unwrap();
        visits.put(1, visit("a", true));
        writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
        visits.sync(&writer).unwrap();
        assert_eq!(visits.len(), 1, "the writer's own commits keep it");
        other.execute("DELETE FROM t", []).unwrap();
        visits.sync(&writer).unwrap();
        assert_eq!(visits.len(), 0, "another connection's commit empties it");
    }
}
