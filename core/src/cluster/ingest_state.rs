//! What the ingest writers of several daemons must agree on: the daily salt of the visitor hash, derived from the
//! configured `visitor_salt_key` (never stored), and the visit each hit belongs to (the 30-minute idle rule),
//! kept in PostgreSQL (migration 0010). Called by the ClickHouse sink once per batch; SQLite mode keeps both in
//! the writer's memory instead.

use std::collections::{HashMap, HashSet};

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::pg::Pg;
use crate::error::Result;
use crate::ingest::writer::{SESSION_TIMEOUT_MS, visitor_hash};
use crate::model::{Millis, WebsiteId};

const DAY_MS: i64 = 86_400_000;

/// Open visits idle for longer than this are deleted by `prune`; a hit after it starts a new visit anyway.
const FORGET_VISITS_AFTER_MS: Millis = DAY_MS;

/// A run of hits of one (site, session key) in a batch with no gap over the idle timeout: one visit's worth.
#[derive(Debug, Clone)]
pub struct Segment {
    pub website_id: WebsiteId,
    pub session_key: String,
    pub first: Millis,
    pub last: Millis,
    /// The visitor seed of the run's first hit (address and user agent, hashed; never stored).
    pub seed: [u8; 32],
}

/// The visit a segment was found to belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisitOf {
    pub visit_id: i64,
    /// The visit's visitor hash (from the salt of the day it started).
    pub visitor: i64,
    /// When the visit started (its earliest hit so far, this segment's included).
    pub start: Millis,
}

/// The salt of the visitor hash for UTC day `day` (days since 1970-01-01): HMAC-SHA256 of the day under the
/// configured key, cut to 16 bytes. Every daemon with the key gets the same salt without asking anyone, and
/// nothing per day is stored, so a copy of the databases holds nothing to try addresses against.
pub fn day_salt(key: &[u8], day: i64) -> [u8; 16] {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(b"tracker visitor salt v1\0");
    mac.update(&day.to_le_bytes());
    let digest = mac.finalize().into_bytes();
    digest[..16].try_into().expect("a SHA-256 digest is 32 bytes")
}

/// The shared ingest state, through a PostgreSQL pool.
pub struct IngestState {
    pg: Pg,
    /// The configured `visitor_salt_key`.
    salt_key: Vec<u8>,
    /// The UTC day `prune` last ran.
    pruned_day: i64,
}

impl IngestState {
    /// The state in the database `pg` points at (its migrations applied by `Pg::open`), hashing visitors with
    /// salts derived from `salt_key`.
    pub fn new(pg: Pg, salt_key: &[u8]) -> IngestState {
        IngestState { pg, salt_key: salt_key.to_vec(), pruned_day: i64::MIN }
    }

    /// The salt of the UTC day holding `ts` (see `day_salt`).
    pub fn salt(&self, ts: Millis) -> [u8; 16] {
        day_salt(&self.salt_key, ts.div_euclid(DAY_MS))
    }

    /// The pool, for the notices a batch sends.
    pub fn pg(&self) -> &Pg {
        &self.pg
    }

    /// Which of `sites` still exist: a batch's anonymous page views (no visit, so no upsert to check it) are
    /// stored only for those, as its tracked hits are.
    pub fn existing_sites(&self, sites: &[WebsiteId]) -> Result<HashSet<WebsiteId>> {
        self.pg.with(|client| {
            let rows = client.query("SELECT id FROM websites WHERE id = ANY($1)", &[&sites])?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
    }

    /// The visit of each segment, in order, continuing the stored visit of its key when its first hit is within
    /// the idle timeout of that visit's last, starting a new one otherwise; `None` for a segment whose site no
    /// longer exists (deleted on any daemon: a deletion that has returned stores no more of its hits, whatever
    /// a daemon's site cache still holds). Segments must name distinct keys (a key's later segments go in a
    /// later call). One statement for the batch: an upsert whose conflict branch applies the idle rule to the
    /// row as stored, so two daemons racing on one key serialise on its row and agree on the visit.
    pub fn visits(&mut self, segments: &[Segment]) -> Result<Vec<Option<VisitOf>>> {
        if segments.is_empty() {
            return Ok(Vec::new());
        }
        let mut sites = Vec::with_capacity(segments.len());
        let mut keys = Vec::with_capacity(segments.len());
        let mut visitors = Vec::with_capacity(segments.len());
        let mut firsts = Vec::with_capacity(segments.len());
        let mut lasts = Vec::with_capacity(segments.len());
        for segment in segments {
            // The visitor hash the visit gets if it is new.
            let salt = self.salt(segment.first);
            sites.push(segment.website_id);
            keys.push(segment.session_key.as_str());
            visitors.push(visitor_hash(&salt, segment.website_id, &segment.seed));
            firsts.push(segment.first);
            lasts.push(segment.last);
        }
        let rows = self.pg.with(|c| {
            // Rows are locked in key order, so two daemons' batches cannot deadlock on each other.
            Ok(c.query(
                "INSERT INTO ingest_visits AS v (website_id, session_key, visit_id, visitor, first_seen, last_seen)
                 SELECT w, k, nextval('ingest_visit_ids'), h, f, l
                 FROM unnest($1::BIGINT[], $2::TEXT[], $3::BIGINT[], $4::BIGINT[], $5::BIGINT[]) AS b(w, k, h, f, l)
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = b.w)
                 ORDER BY w, k
                 ON CONFLICT (website_id, session_key) DO UPDATE SET
                    visit_id = CASE WHEN excluded.first_seen - v.last_seen > $6
                        THEN excluded.visit_id ELSE v.visit_id END,
                    visitor = CASE WHEN excluded.first_seen - v.last_seen > $6
                        THEN excluded.visitor ELSE v.visitor END,
                    first_seen = CASE WHEN excluded.first_seen - v.last_seen > $6
                        THEN excluded.first_seen ELSE least(v.first_seen, excluded.first_seen) END,
                    last_seen = CASE WHEN excluded.first_seen - v.last_seen > $6
                        THEN excluded.last_seen ELSE greatest(v.last_seen, excluded.last_seen) END
                 RETURNING website_id, session_key, visit_id, visitor, first_seen",
                &[&sites, &keys, &visitors, &firsts, &lasts, &SESSION_TIMEOUT_MS],
            )?)
        })?;
        let found: HashMap<(WebsiteId, String), VisitOf> = rows
            .iter()
            .map(|r| ((r.get(0), r.get(1)), VisitOf { visit_id: r.get(2), visitor: r.get(3), start: r.get(4) }))
            .collect();
        Ok(segments.iter().map(|s| found.get(&(s.website_id, s.session_key.clone())).copied()).collect())
    }

    /// Forgets the visits of a site's `keys` (a visitor's erasure): a later hit under one starts a new visit.
    pub fn forget_visits(pg: &Pg, site: WebsiteId, keys: &[String]) -> Result<()> {
        pg.with(|c| {
            c.execute("DELETE FROM ingest_visits WHERE website_id = $1 AND session_key = ANY($2)", &[&site, &keys])?;
            Ok(())
        })
    }

    /// Forgets every open visit of a site (all its data deleted): a later hit starts a new visit.
    pub fn forget_site(pg: &Pg, site: WebsiteId) -> Result<()> {
        pg.with(|c| {
            c.execute("DELETE FROM ingest_visits WHERE website_id = $1", &[&site])?;
            Ok(())
        })
    }

    /// Once per UTC day of `now`: deletes visits idle for a day.
    pub fn prune(&mut self, now: Millis) -> Result<()> {
        let today = now.div_euclid(DAY_MS);
        if self.pruned_day == today {
            return Ok(());
        }
        self.pg.with(|c| {
            c.execute("DELETE FROM ingest_visits WHERE last_seen < $1", &[&(now - FORGET_VISITS_AFTER_MS)])?;
            Ok(())
        })?;
        self.pruned_day = today;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_day_has_its_own_salt_from_the_key_alone() {
        let key = b"a visitor salt key of 32 bytes or more";
        assert_eq!(day_salt(key, 20_000), day_salt(key, 20_000), "every daemon with the key gets the same salt");
        assert_ne!(day_salt(key, 20_000), day_salt(key, 20_001));
        assert_ne!(day_salt(key, 20_000), day_salt(b"another key of 32 bytes or more....", 20_000));
    }
}
