//! Exports of a site's page views, events and visits in cluster mode (`Export::write`'s and
//! `Privacy::export_sessions`' rows, columns and formats): each shard's rows read as its answer arrives, ordered by
//! time, and merged into one stream, so an export of any size holds a row per shard. Called by
//! `Tracker::write_export` and `Tracker::export_sessions`.

use std::io::Write;
use std::iter::Peekable;

use super::clickhouse::RowStream;
use super::events::Events;
use super::visits::{float, int, text};
use crate::error::{Error, Result};
use crate::export::{ExportFormat, ExportKind, ExportQuery, ExportRow, Sink, json_error};
use crate::model::{Millis, WebsiteId, iso};
use crate::privacy::portability::SessionRow;

/// The hits an export holds, as a condition on `kind` (fixed text): identify hits carry visitor traits and are
/// never exported, as on SQLite; touches only kept a visit alive and are no hit a visitor sent.
fn kinds(kind: ExportKind) -> &'static str {
    match kind {
        ExportKind::Pageviews => "kind = 'pageview'",
        ExportKind::Events => "kind NOT IN ('pageview', 'identify', 'touch')",
        ExportKind::All => "kind NOT IN ('identify', 'touch')",
    }
}

/// A visit's session id as SQLite names it: its key, or `key~id` once a later visit of the key has replaced it
/// (the id here is the cluster's visit id). `latest_visit` comes from `latest_visits` (0, the join's default, when
/// the key has no row there).
const SESSION_ID: &str = "if(latest_visit = 0 OR latest_visit = visit_id, session_key,
    concat(session_key, '~', toString(visit_id))) AS session_id";

/// Each session key's latest visit of a site, read through the Distributed table: a key's visits on other days
/// may be on another shard.
fn latest_visits(db: &str, site: WebsiteId) -> String {
    format!(
        "SELECT session_key, argMax(visit_id, ts) AS latest_visit FROM {db}.hits
         WHERE website_id = {site} AND visit_id != 0 GROUP BY session_key"
    )
}

/// An exported row (its first column is the time).
fn export_row(row: &[String]) -> Result<ExportRow> {
    let ts = int(row, 0)?;
    Ok(ExportRow {
        timestamp: iso(ts),
        kind: text(row, 1)?,
        name: text(row, 2)?,
        url: text(row, 3)?,
        path: text(row, 4)?,
        referrer: text(row, 5)?,
        session_id: text(row, 6)?,
        country: text(row, 7)?,
        device: text(row, 8)?,
        browser: text(row, 9)?,
        os: text(row, 10)?,
        utm_source: text(row, 11)?,
        utm_medium: text(row, 12)?,
        utm_campaign: text(row, 13)?,
        properties_raw: text(row, 14)?,
        properties: None,
    })
}

impl Events {
    /// Writes the rows of `query` to `out` in `format`, as SQLite's `Export::write` does; returns the number of
    /// rows written. A visit's dimensions (country, device, browser, system, campaign) are those of its first
    /// hit, as SQLite keeps them on the visit; anonymous page counts (visit 0) are not rows, as on SQLite.
    /// `admitted` is the events engine's condition of the rows the query's filters admit (`" AND ..."` over a
    /// shard's hit rows, empty without filters).
    pub fn write_export<W: Write>(
        &self,
        query: &ExportQuery,
        admitted: &str,
        format: ExportFormat,
        out: W,
    ) -> Result<u64> {
        // Only the bounds given: i64::MIN would not read back as an Int64 literal.
        let since = query.since.map(|t| format!(" AND ts >= {t}")).unwrap_or_default();
        let until = query.until.map(|t| format!(" AND ts < {t}")).unwrap_or_default();
        let (db, site) = (self.database(), query.site);
        let order = if query.newest_first { "DESC" } else { "ASC" };
        let limit = query.limit.map(|n| format!("LIMIT {n}")).unwrap_or_default();
        let sql = format!(
            "SELECT ts, kind, name, url, path, referrer, {SESSION_ID}, v_country, v_device, v_browser, v_os,
                    v_utm_source, v_utm_medium, v_utm_campaign, properties
             FROM (SELECT *
                   FROM (SELECT visit_id, ts, kind, name, url, path, referrer, session_key, properties
                         FROM {db}.hits_local
                         WHERE website_id = {site} AND visit_id != 0{since}{until} AND {}{admitted})
                   ANY LEFT JOIN
                        (SELECT visit_id, argMin(country, ts) AS v_country, argMin(device, ts) AS v_device,
                                argMin(browser, ts) AS v_browser, argMin(os, ts) AS v_os,
                                argMin(utm_source, ts) AS v_utm_source, argMin(utm_medium, ts) AS v_utm_medium,
                                argMin(utm_campaign, ts) AS v_utm_campaign
                         FROM {db}.hits_local WHERE website_id = {site} AND visit_id != 0 GROUP BY visit_id)
                   USING visit_id)
             ANY LEFT JOIN ({}) USING session_key
             ORDER BY ts {order}, visit_id {order} {limit}",
            kinds(query.kind),
            latest_visits(db, site)
        );
        let mut sink = Sink::start(format, out)?;
        let written = self.merged(&sql, query.newest_first, query.limit, |row| sink.row(export_row(row)?))?;
        sink.finish()?;
        Ok(written)
    }

    /// A site's visits, oldest first, as SQLite's `Privacy::export_sessions` writes them (a JSON array; no
    /// address and no traits); returns how many. A visit is its hits' aggregate, as in `Cluster::visitor_data`.
    pub fn export_sessions<W: Write>(&self, site: WebsiteId, mut out: W) -> Result<u64> {
        let db = self.database();
        let sql = format!(
            "SELECT first_ts, visit_id, {SESSION_ID}, last_ts, entry, exit, pageviews, events, country, device,
                    browser, os, referrer, utm_source, utm_medium, utm_campaign, converted, conversion_value
             FROM (SELECT min(ts) AS first_ts, visit_id, any(session_key) AS session_key, max(ts) AS last_ts,
                      if(countIf(kind = 'pageview') > 0, argMinIf(path, ts, kind = 'pageview'), argMin(path, ts))
                          AS entry,
                      if(countIf(kind = 'pageview') > 0, argMaxIf(path, ts, kind = 'pageview'), argMin(path, ts))
                          AS exit,
                      countIf(kind = 'pageview') AS pageviews, countIf(kind NOT IN ('pageview', 'touch')) AS events,
                      argMin(country, ts) AS country, argMin(device, ts) AS device, argMin(browser, ts) AS browser,
                      argMin(os, ts) AS os, argMin(referrer, ts) AS referrer, argMin(utm_source, ts) AS utm_source,
                      argMin(utm_medium, ts) AS utm_medium, argMin(utm_campaign, ts) AS utm_campaign,
                      countIf(kind = 'conversion') > 0 AS converted,
                      sumIf(ifNull(value, 0), kind = 'conversion') AS conversion_value
                   FROM {db}.hits_local WHERE website_id = {site} AND visit_id != 0 GROUP BY visit_id)
             ANY LEFT JOIN ({}) USING session_key
             ORDER BY first_ts, visit_id",
            latest_visits(db, site)
        );
        out.write_all(b"[")?;
        let mut first = true;
        let written = self.merged(&sql, false, None, |row| {
            let session = SessionRow {
                session_id: text(row, 2)?,
                first_seen: iso(int(row, 0)?),
                last_seen: iso(int(row, 3)?),
                entry_page: text(row, 4)?,
                exit_page: text(row, 5)?,
                page_views: int(row, 6)?,
                events: int(row, 7)?,
                country: text(row, 8)?,
                device: text(row, 9)?,
                browser: text(row, 10)?,
                os: text(row, 11)?,
                referrer: text(row, 12)?,
                utm_source: text(row, 13)?,
                utm_medium: text(row, 14)?,
                utm_campaign: text(row, 15)?,
                is_converted: int(row, 16)? == 1,
                conversion_value: float(row, 17)?,
            };
            out.write_all(if first { b"\n" } else { b",\n" })?;
            first = false;
            serde_json::to_writer(&mut out, &session).map_err(json_error)
        })?;
        out.write_all(if written == 0 { b"]" } else { b"\n]" })?;
        Ok(written)
    }

    /// Runs `sql` (ordered by its first column, a time) on every shard's local tables and hands `row` the rows
    /// of all shards in that order (newest first when `newest_first`), at most `limit`, each read as its shard's
    /// answer arrives; returns how many. A shard that does not answer is `Unavailable`.
    fn merged(
        &self,
        sql: &str,
        newest_first: bool,
        limit: Option<u64>,
        mut row: impl FnMut(&[String]) -> Result<()>,
    ) -> Result<u64> {
        let mut shards: Vec<Peekable<RowStream>> =
            self.nodes().iter().map(|node| node.query_rows(sql).map(Iterator::peekable)).collect::<Result<_>>()?;
        let mut written = 0u64;
        while limit.is_none_or(|limit| written < limit) {
            // The shard whose next row comes first in the order.
            let mut next: Option<(usize, Millis)> = None;
            for (i, shard) in shards.iter_mut().enumerate() {
                let ts = match shard.peek() {
                    None => continue,
                    Some(Err(_)) => {
                        return Err(shard
                            .next()
                            .and_then(|r| r.err())
                            .unwrap_or(Error::Internal("ClickHouse: lost row".into())));
                    }
                    Some(Ok(row)) => int(row, 0)?,
                };
                let before = match next {
                    None => true,
                    Some((_, best)) => {
                        if newest_first {
                            ts > best
                        } else {
                            ts < best
                        }
                    }
                };
                if before {
                    next = Some((i, ts));
                }
            }
            let Some((i, _)) = next else { break };
            if let Some(Ok(next_row)) = shards[i].next() {
                row(&next_row)?;
                written += 1;
            }
        }
        Ok(written)
    }
}
