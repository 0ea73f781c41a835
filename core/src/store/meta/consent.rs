//! The consent log behind the metadata boundary: visitors' analytics/marketing choices, written by ingest (the
//! SQLite writer inside its batch's transaction, the cluster's sink for a batch at a time), read by ingest for
//! a visit's latest choice and by the privacy panel. The session key is the script's session id: consent is
//! given before any visit may exist.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::WebsiteId;
use crate::privacy::{ConsentData, ConsentLog, ConsentRecord, ConsentType};

/// The consent log: entries are only ever added (and go with their site or a visitor's erasure).
pub trait ConsentStore {
    /// Stores choices in one transaction and answers the sites they were stored for: a site deleted since
    /// its hits were accepted stores nothing (and is not in the answer).
    fn insert_consents(&self, records: &[ConsentRecord]) -> Result<HashSet<WebsiteId>>;
    /// The latest analytics choice of each of `visits` (site, session key) that made one.
    fn latest_analytics_choices(&self, visits: &[(WebsiteId, String)]) -> Result<HashMap<(WebsiteId, String), bool>>;
    /// A page of a site's choices, newest first.
    fn consent_page(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<Vec<ConsentLog>>;
    /// Every choice of a site made under any of `keys` (one visitor's session ids), oldest first.
    fn visitor_consents(&self, site: WebsiteId, keys: &[String]) -> Result<Vec<ConsentLog>>;
    /// Deletes every choice of a site made under any of `keys` (a visitor's erasure); how many went.
    fn delete_visitor_consents(&self, site: WebsiteId, keys: &[String]) -> Result<u64>;
}

/// A log entry as both engines read it (id, ts, ip, session key, analytics, marketing).
fn log_of(id: i64, ts: i64, ip_address: Option<String>, session_id: String, data: ConsentData) -> ConsentLog {
    ConsentLog { id, consent_type: ConsentType::of(data), timestamp: ts, ip_address, session_id, consent_data: data }
}

/// A SQLite row of `id, ts, ip_address, session_key, analytics, marketing` as a log entry.
fn sqlite_log(r: &rusqlite::Row) -> rusqlite::Result<ConsentLog> {
    let data = ConsentData { analytics: r.get(4)?, marketing: r.get(5)? };
    Ok(log_of(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, data))
}

/// A PostgreSQL row of `id, ts, ip_address, session_key, analytics, marketing` as a log entry.
fn pg_log(r: &postgres::Row) -> ConsentLog {
    let data = ConsentData { analytics: r.get(4), marketing: r.get(5) };
    log_of(r.get(0), r.get(1), r.get(2), r.get(3), data)
}

/// Stores a consent choice on an open SQLite connection (the writer's transaction).
pub(crate) fn insert_consent(tx: &Connection, record: &ConsentRecord) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO consent_logs (website_id, session_key, ts, consent_type, ip_address, analytics, marketing)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        record.website_id,
        record.session_key,
        record.ts,
        ConsentType::of(record.data).as_str(),
        record.ip_address,
        record.data.analytics,
        record.data.marketing,
    ])?;
    Ok(())
}

/// The visit's latest analytics choice on an open SQLite connection, `None` when it never chose (the writer
/// decides what that allows).
pub(crate) fn latest_analytics_choice(
    tx: &Connection,
    site: WebsiteId,
    session_key: &str,
) -> rusqlite::Result<Option<bool>> {
    tx.prepare_cached(
        "SELECT analytics FROM consent_logs WHERE website_id = ?1 AND session_key = ?2
         ORDER BY id DESC LIMIT 1",
    )?
    .query_row(params![site, session_key], |r| r.get(0))
    .optional()
}

impl ConsentStore for SqliteMeta {
    fn insert_consents(&self, records: &[ConsentRecord]) -> Result<HashSet<WebsiteId>> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let mut stored = HashSet::new();
            for record in records {
                let exists: bool =
                    tx.query_row("SELECT EXISTS (SELECT 1 FROM websites WHERE id = ?1)", [record.website_id], |r| {
                        r.get(0)
                    })?;
                if exists {
                    insert_consent(&tx, record)?;
                    stored.insert(record.website_id);
                }
            }
            tx.commit()?;
            Ok(stored)
        })
    }

    fn latest_analytics_choices(&self, visits: &[(WebsiteId, String)]) -> Result<HashMap<(WebsiteId, String), bool>> {
        self.db.read(|conn| {
            let mut choices = HashMap::new();
            for (site, key) in visits {
                if let Some(choice) = latest_analytics_choice(conn, *site, key)? {
                    choices.insert((*site, key.clone()), choice);
                }
            }
            Ok(choices)
        })
    }

    fn consent_page(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<Vec<ConsentLog>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, ts, ip_address, session_key, analytics, marketing FROM consent_logs
                 WHERE website_id = ?1 ORDER BY ts DESC, id DESC LIMIT ?2 OFFSET ?3",
            )?;
            let rows = stmt.query_map(params![site, limit, offset], sqlite_log)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn visitor_consents(&self, site: WebsiteId, keys: &[String]) -> Result<Vec<ConsentLog>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, ts, ip_address, session_key, analytics, marketing FROM consent_logs
                 WHERE website_id = ?1 AND session_key = ?2 ORDER BY ts, id",
            )?;
            let mut logs = Vec::new();
            for key in keys {
                let rows = stmt.query_map(params![site, key], sqlite_log)?;
                logs.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
            }
            logs.sort_by_key(|log| (log.timestamp, log.id));
            Ok(logs)
        })
    }

    fn delete_visitor_consents(&self, site: WebsiteId, keys: &[String]) -> Result<u64> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let mut deleted = 0;
            for key in keys {
                deleted += tx.execute(
                    "DELETE FROM consent_logs WHERE website_id = ?1 AND session_key = ?2",
                    params![site, key],
                )? as u64;
            }
            tx.commit()?;
            Ok(deleted)
        })
    }
}

impl ConsentStore for PgMeta {
    fn insert_consents(&self, records: &[ConsentRecord]) -> Result<HashSet<WebsiteId>> {
        if records.is_empty() {
            return Ok(HashSet::new());
        }
        let mut sites = Vec::with_capacity(records.len());
        let mut keys = Vec::with_capacity(records.len());
        let mut times = Vec::with_capacity(records.len());
        let mut types = Vec::with_capacity(records.len());
        let mut addresses = Vec::with_capacity(records.len());
        let mut analytics = Vec::with_capacity(records.len());
        let mut marketing = Vec::with_capacity(records.len());
        for record in records {
            sites.push(record.website_id);
            keys.push(record.session_key.as_str());
            times.push(record.ts);
            types.push(ConsentType::of(record.data).as_str());
            addresses.push(record.ip_address.as_deref());
            analytics.push(record.data.analytics);
            marketing.push(record.data.marketing);
        }
        self.pg.with(|c| {
            // One statement for the batch, in the batch's order (the ids order a visit's choices). A site that
            // is gone is skipped rather than failing the others' choices on its foreign key.
            let rows = c.query(
                "INSERT INTO consent_logs (website_id, session_key, ts, consent_type, ip_address, analytics, marketing)
                 SELECT w, k, t, y, a, n, m
                 FROM unnest($1::BIGINT[], $2::TEXT[], $3::BIGINT[], $4::TEXT[], $5::TEXT[], $6::BOOLEAN[],
                             $7::BOOLEAN[]) WITH ORDINALITY AS b(w, k, t, y, a, n, m, i)
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = w)
                 ORDER BY i
                 RETURNING website_id",
                &[&sites, &keys, &times, &types, &addresses, &analytics, &marketing],
            )?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn latest_analytics_choices(&self, visits: &[(WebsiteId, String)]) -> Result<HashMap<(WebsiteId, String), bool>> {
        if visits.is_empty() {
            return Ok(HashMap::new());
        }
        let sites: Vec<WebsiteId> = visits.iter().map(|(site, _)| *site).collect();
        let keys: Vec<&str> = visits.iter().map(|(_, key)| key.as_str()).collect();
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT DISTINCT ON (l.website_id, l.session_key) l.website_id, l.session_key, l.analytics
                 FROM consent_logs l
                 JOIN unnest($1::BIGINT[], $2::TEXT[]) AS v(w, k) ON l.website_id = v.w AND l.session_key = v.k
                 ORDER BY l.website_id, l.session_key, l.id DESC",
                &[&sites, &keys],
            )?;
            Ok(rows.iter().map(|r| ((r.get(0), r.get(1)), r.get(2))).collect())
        })
    }

    fn consent_page(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<Vec<ConsentLog>> {
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT id, ts, ip_address, session_key, analytics, marketing FROM consent_logs
                 WHERE website_id = $1 ORDER BY ts DESC, id DESC LIMIT $2 OFFSET $3",
                &[&site, &limit, &offset],
            )?;
            Ok(rows.iter().map(pg_log).collect())
        })
    }

    fn visitor_consents(&self, site: WebsiteId, keys: &[String]) -> Result<Vec<ConsentLog>> {
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT id, ts, ip_address, session_key, analytics, marketing FROM consent_logs
                 WHERE website_id = $1 AND session_key = ANY($2) ORDER BY ts, id",
                &[&site, &keys],
            )?;
            Ok(rows.iter().map(pg_log).collect())
        })
    }

    fn delete_visitor_consents(&self, site: WebsiteId, keys: &[String]) -> Result<u64> {
        self.pg.with(|c| {
            Ok(c.execute("DELETE FROM consent_logs WHERE website_id = $1 AND session_key = ANY($2)", &[&site, &keys])?)
        })
    }
}
