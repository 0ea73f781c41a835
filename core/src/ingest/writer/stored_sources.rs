//! Names the sources of what SQLite stored before sources were named at ingest (migration 0029): each visit's
//! `source` from its utm_source and referring host, and the `source` values of the rollups and imported rollups
//! (a utm_source or a host each), by the list's names (`ingest::sources`). Run once, by the writer's start-up,
//! while `sources_to_name` holds its row; one transaction, so a crash leaves it to do again, whole.

use rusqlite::{Connection, params};

use crate::analytics::Dimension;
use crate::error::Result;
use crate::ingest::sources::{name_stored_value, source_of};

/// The visits stored before 0029 that have a source to name: every visit stored since has one when it has a
/// utm_source or a referrer.
const UNNAMED: &str = "source = '' AND (utm_source <> '' OR referrer_host <> '')";

/// Names the stored sources if migration 0029 left that to do; quick otherwise.
pub(crate) fn name_stored_sources(conn: &mut Connection) -> Result<()> {
    let pending: bool = conn.query_row("SELECT EXISTS (SELECT 1 FROM sources_to_name)", [], |r| r.get(0))?;
    if !pending {
        return Ok(());
    }
    let tx = conn.transaction()?;
    name_visits(&tx)?;
    for table in &ROLLUP_TABLES {
        rename_values(&tx, table)?;
    }
    tx.execute("DELETE FROM sources_to_name", [])?;
    tx.execute_batch("DROP TABLE temp.source_names; DROP TABLE temp.source_renames;")?;
    tx.commit()?;
    Ok(())
}

/// Sets each unnamed visit's source, one name per distinct (utm_source, referring host) in one pass.
fn name_visits(tx: &Connection) -> Result<()> {
    tx.execute_batch(
        "CREATE TEMP TABLE source_names (utm_source TEXT NOT NULL, referrer_host TEXT NOT NULL, source TEXT NOT NULL,
            PRIMARY KEY (utm_source, referrer_host))",
    )?;
    let pairs: Vec<(String, String)> = tx
        .prepare(&format!("SELECT DISTINCT utm_source, referrer_host FROM sessions WHERE {UNNAMED}"))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut insert = tx.prepare("INSERT INTO temp.source_names VALUES (?1, ?2, ?3)")?;
    for (utm_source, host) in &pairs {
        insert.execute(params![utm_source, host, source_of(utm_source, host)])?;
    }
    tx.execute(
        &format!(
            "UPDATE sessions SET source = (SELECT n.source FROM temp.source_names n
                WHERE n.utm_source = sessions.utm_source AND n.referrer_host = sessions.referrer_host)
             WHERE {UNNAMED}"
        ),
        [],
    )?;
    Ok(())
}

/// A rollup table holding `source` values: its key columns besides `value`, and its counters.
struct RollupTable {
    name: &'static str,
    keys: &'static [&'static str],
    counters: &'static [&'static str],
}

const ROLLUP_TABLES: [RollupTable; 3] = [
    RollupTable { name: "rollup_hours", keys: &["website_id", "dim", "bucket"], counters: &COUNTERS },
    RollupTable { name: "rollup_days", keys: &["website_id", "dim", "bucket"], counters: &COUNTERS },
    RollupTable {
        name: "imported_rollups",
        keys: &["import_id", "website_id", "dim", "bucket"],
        counters: &["pageviews", "visits", "visitors", "events", "bounces", "duration_s"],
    },
];

const COUNTERS: [&str; 7] = ["pageviews", "visits", "visitors", "events", "conversions", "bounces", "duration_s"];

/// Renames a rollup table's `source` values to their names, adding rows that become one (google.com and
/// google are both Google) into one.
fn rename_values(tx: &Connection, table: &RollupTable) -> Result<()> {
    let dim = Dimension::Source.as_str();
    tx.execute_batch(
        "CREATE TEMP TABLE IF NOT EXISTS source_renames (old TEXT PRIMARY KEY, new TEXT NOT NULL);
         DELETE FROM temp.source_renames;",
    )?;
    let name = table.name;
    let values: Vec<String> = tx
        .prepare(&format!("SELECT DISTINCT value FROM {name} WHERE dim = ?1"))?
        .query_map([dim], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut insert = tx.prepare("INSERT INTO temp.source_renames VALUES (?1, ?2)")?;
    for value in &values {
        let named = name_stored_value(value);
        if named != *value {
            insert.execute(params![value, named])?;
        }
    }
    let keys = table.keys.join(", ");
    let t_keys: Vec<String> = table.keys.iter().map(|k| format!("t.{k}")).collect();
    let t_keys = t_keys.join(", ");
    let counters = table.counters.join(", ");
    let sums: Vec<String> = table.counters.iter().map(|c| format!("SUM(t.{c})")).collect();
    let adds: Vec<String> = table.counters.iter().map(|c| format!("{c} = {c} + excluded.{c}")).collect();
    tx.execute(
        &format!(
            "INSERT INTO {name} ({keys}, value, {counters})
             SELECT {t_keys}, n.new, {}
             FROM {name} t JOIN temp.source_renames n ON n.old = t.value
             WHERE t.dim = ?1 GROUP BY {t_keys}, n.new
             ON CONFLICT ({keys}, value) DO UPDATE SET {}",
            sums.join(", "),
            adds.join(", ")
        ),
        [dim],
    )?;
    tx.execute(
        &format!("DELETE FROM {name} WHERE dim = ?1 AND value IN (SELECT old FROM temp.source_renames)"),
        [dim],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytics::TimeRange;
    use crate::ingest::{EventKind, Hit, Utm};
    use crate::model::now_ms;
    use crate::testing::{one_site, send};

    /// Visits, rollups and imported rollups as SQLite held them before 0029 (no visit source; rollup values
    /// the utm_source, else the host) are named once, merged into one row per source, and a second start
    /// changes nothing.
    #[test]
    fn visits_and_rollups_stored_before_names_are_named_once() {
        let fixture = one_site();
        let (tracker, site) = (&fixture.tracker, fixture.site);
        let now = now_ms();
        let origins = [("google.com", ""), ("", "google"), ("t.co", ""), ("", "newsletter"), ("", "")];
        let hits = origins.iter().enumerate().map(|(n, &(host, tag))| Hit {
            website_id: site,
            session_key: format!("visit-{n:04}"),
            ts: now - 10 * 60_000 + n as i64 * 1000,
            kind: Some(EventKind::Pageview),
            url: "https://s.example.com/".into(),
            path: "/".into(),
            referrer_host: host.into(),
            utm: Utm { source: tag.into(), ..Utm::default() },
            ..Hit::default()
        });
        send(tracker, hits);
        let day = now / 86_400_000 * 86_400;
        tracker
            .db()
            .write(|c| {
                let old = "CASE WHEN utm_source = '' THEN referrer_host ELSE utm_source END";
                c.execute_batch(&format!(
                    "UPDATE sessions SET source = '';
                     DELETE FROM rollup_hours WHERE dim = 'source';
                     DELETE FROM rollup_days WHERE dim = 'source';
                     INSERT INTO rollup_hours (website_id, dim, bucket, value, visits)
                        SELECT website_id, 'source', first_seen / 3600000 * 3600 AS b, {old} AS v, COUNT(*)
                        FROM sessions WHERE true GROUP BY website_id, b, v;
                     INSERT INTO rollup_days (website_id, dim, bucket, value, visits)
                        SELECT website_id, 'source', first_seen / 86400000 * 86400 AS b, {old} AS v, COUNT(*)
                        FROM sessions WHERE true GROUP BY website_id, b, v;
                     INSERT INTO imports (id, website_id, source, file_name, rows, first_day, last_day, imported_at)
                        VALUES (1, {site}, 'plausible', 'p.zip', 2, 0, 0, 0);
                     INSERT INTO imported_rollups (import_id, website_id, dim, bucket, value, visits)
                        VALUES (1, {site}, 'source', {day}, 'twitter.com', 2), (1, {site}, 'source', {day}, 'Twitter', 1);
                     INSERT INTO sources_to_name VALUES (1);"
                ))?;
                Ok(())
            })
            .unwrap();
        let range = TimeRange::parse("24h", now).unwrap();
        let read = || -> Vec<(String, i64)> {
            let mut rows: Vec<(String, i64)> = tracker
                .events
                .traffic_sources(site, range)
                .unwrap()
                .into_iter()
                .map(|s| (s.source, s.visits))
                .collect();
            rows.sort();
            rows
        };
        assert!(read().contains(&("google.com".to_string(), 1)), "the old rows are in place: {:?}", read());

        for _ in 0..2 {
            name_stored_sources(&mut tracker.db().connect().unwrap()).unwrap();
            let expected = [("Direct", 1), ("Google", 2), ("Twitter", 1), ("newsletter", 1)];
            assert_eq!(read(), expected.map(|(s, n)| (s.to_string(), n)));
            let stored: Vec<String> = tracker
                .db()
                .read(|c| {
                    let mut stmt = c.prepare("SELECT source FROM sessions ORDER BY session_key")?;
                    Ok(stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
                })
                .unwrap();
            assert_eq!(stored, ["Google", "Google", "Twitter", "newsletter", ""]);
            let imported: Vec<(String, i64)> = tracker
                .db()
                .read(|c| {
                    let mut stmt =
                        c.prepare("SELECT value, visits FROM imported_rollups WHERE dim = 'source' ORDER BY value")?;
                    Ok(stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?)
                })
                .unwrap();
            assert_eq!(imported, [("Twitter".to_string(), 3)]);
        }
    }
}
