//! Names the sources of what the shards stored before sources were named at ingest (schema step `sources`), as
//! SQLite's writer does for its own (`ingest::writer::stored_sources`): each hit's `source` from its
//! utm_source and referring host, and the `source` values of the rollups and imported rollups (a utm_source or
//! a host each) by the list's names. Run by the ClickHouse sink's start, on each shard that has not recorded
//! it done, under the rollups' lock (a roll-up must not read hits or rollups half renamed); each part records
//! itself done, so a daemon stopped half way carries on from the part it was in.

use super::clickhouse::{Node, quote};
use super::events::Events;
use super::pg::Pg;
use super::rollups::{COLUMNS, locked};
use crate::analytics::Dimension;
use crate::error::Result;
use crate::ingest::sources::{name_stored_value, source_of};

/// Values named per statement: each up to 200 characters, twice, well below ClickHouse's 256 KiB query size.
const VALUES_PER_STATEMENT: usize = 250;

/// Names every shard's stored sources that are not named yet.
pub(crate) fn name_stored(pg: &Pg, events: &Events) -> Result<()> {
    let db = events.database();
    let pending = |node: &Node, part: &str| -> Result<bool> {
        let done: u64 = node.query_value(&format!(
            "SELECT count() FROM {db}.schema_migrations WHERE name = {}",
            quote(&format!("sources_named_{part}"))
        ))?;
        Ok(done == 0)
    };
    let done = |node: &Node, part: &str| {
        node.execute(&format!(
            "INSERT INTO {db}.schema_migrations (name) VALUES ({})",
            quote(&format!("sources_named_{part}"))
        ))
    };
    // Most starts: every part of every shard done, and no lock taken.
    let mut any = false;
    for node in events.nodes() {
        any |= pending(node, "imports")?;
    }
    if !any {
        return Ok(());
    }
    locked(pg, true, || {
        for node in events.nodes() {
            if pending(node, "hits")? {
                name_hits(events, node)?;
                done(node, "hits")?;
            }
            if pending(node, "rollups")? {
                rename_rollups(db, node)?;
                done(node, "rollups")?;
            }
            if pending(node, "imports")? {
                rename_imports(events, node)?;
                done(node, "imports")?;
            }
        }
        events.forget_mark();
        Ok(())
    })?;
    Ok(())
}

/// Sets `source` on the shard's hits stored without one, in awaited mutations: a tag names the visit when it
/// has one, else its referring host (`source_of`).
fn name_hits(events: &Events, node: &Node) -> Result<()> {
    let db = events.database();
    let unnamed = "source = '' AND (utm_source != '' OR referrer_host != '')";
    for (column, other_empty) in [("utm_source", "1"), ("referrer_host", "utm_source = ''")] {
        let values: Vec<String> = node
            .query(&format!("SELECT DISTINCT {column} FROM {db}.hits_local WHERE {unnamed} AND {column} != ''"))?
            .into_iter()
            .filter_map(|row| row.into_iter().next())
            .collect();
        for chunk in values.chunks(VALUES_PER_STATEMENT) {
            let names: Vec<String> = chunk
                .iter()
                .map(|v| if column == "utm_source" { source_of(v, "") } else { source_of("", v) })
                .map(|name| quote(&name))
                .collect();
            let values: Vec<String> = chunk.iter().map(|v| quote(v)).collect();
            let (values, names) = (values.join(", "), names.join(", "));
            node.execute(&format!(
                "ALTER TABLE {db}.hits_local UPDATE source = transform({column}, [{values}], [{names}], '')
                 WHERE {unnamed} AND {other_empty} AND {column} IN ({values})"
            ))?;
        }
    }
    events.await_mutations(node, "hits_local")
}

/// Renames the shard's `source` rollup values to their names: a row of the name and a row taking the value back
/// to zero, which the summing table merges away (reads leave out sums of zero meanwhile).
fn rename_rollups(db: &str, node: &Node) -> Result<()> {
    let renames = renames(node, &format!("{db}.rollup_hours_local"))?;
    let counters = "pageviews, visits, visitors, events, conversions, bounces, duration_s";
    let negated = "-pageviews, -visits, -visitors, -events, -conversions, -bounces, -duration_s";
    for chunk in renames.chunks(VALUES_PER_STATEMENT) {
        let (olds, news) = lists(chunk);
        let rows = format!("FROM {db}.rollup_hours_local WHERE dim = {} AND value IN ({olds})", source_dim());
        node.execute(&format!(
            "INSERT INTO {db}.rollup_hours_local ({COLUMNS})
             SELECT website_id, dim, hour, transform(value, [{olds}], [{news}], value), {counters} {rows}
             UNION ALL SELECT website_id, dim, hour, value, {negated} {rows}"
        ))?;
    }
    Ok(())
}

/// Renames the shard's imported `source` values to their names: copies under the name, then the old rows
/// deleted (an awaited mutation).
fn rename_imports(events: &Events, node: &Node) -> Result<()> {
    let db = events.database();
    let renames = renames(node, &format!("{db}.imported_hours_local"))?;
    let columns = "import_id, website_id, dim, hour, value, pageviews, visits, visitors, events, conversions, bounces,
        duration_s";
    for chunk in renames.chunks(VALUES_PER_STATEMENT) {
        let (olds, news) = lists(chunk);
        let rows = format!("dim = {} AND value IN ({olds})", source_dim());
        node.execute(&format!(
            "INSERT INTO {db}.imported_hours_local ({columns})
             SELECT import_id, website_id, dim, hour, transform(value, [{olds}], [{news}], value), pageviews, visits,
                visitors, events, conversions, bounces, duration_s
             FROM {db}.imported_hours_local WHERE {rows}"
        ))?;
        node.execute(&format!("ALTER TABLE {db}.imported_hours_local DELETE WHERE {rows}"))?;
    }
    events.await_mutations(node, "imported_hours_local")
}

/// The `source` values of a table on one shard whose name differs, with that name.
fn renames(node: &Node, table: &str) -> Result<Vec<(String, String)>> {
    Ok(node
        .query(&format!("SELECT DISTINCT value FROM {table} WHERE dim = {}", source_dim()))?
        .into_iter()
        .filter_map(|row| row.into_iter().next())
        .filter_map(|value| {
            let name = name_stored_value(&value);
            (name != value).then_some((value, name))
        })
        .collect())
}

/// The olds and the news of renames as two lists of quoted strings.
fn lists(renames: &[(String, String)]) -> (String, String) {
    let olds: Vec<String> = renames.iter().map(|(old, _)| quote(old)).collect();
    let news: Vec<String> = renames.iter().map(|(_, new)| quote(new)).collect();
    (olds.join(", "), news.join(", "))
}

fn source_dim() -> String {
    quote(Dimension::Source.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::events::{HitRow, month_of};
    use crate::cluster::testing::fresh;
    use crate::model::Millis;

    const SITE: i64 = 3;
    /// 2026-09-15 12:00 UTC.
    const TS: Millis = 1_789_473_600_000;

    /// Sums of one dimension's values over a table of every shard, those summing to zero left out.
    fn sums(events: &Events, table: &str) -> Vec<(String, i64)> {
        let mut rows: Vec<(String, i64)> = events.nodes()[0]
            .query(&format!(
                "SELECT value, sum(visits) AS v FROM {}.{table} WHERE dim = 'source' GROUP BY value HAVING v != 0
                 ORDER BY value",
                events.database()
            ))
            .unwrap()
            .into_iter()
            .map(|row| (row[0].clone(), row[1].parse().unwrap()))
            .collect();
        rows.sort();
        rows
    }

    /// What the shards held before sources were named (hits without a source, rollups and imports holding
    /// utm_sources and hosts) is named once, on every shard, and a second start changes nothing.
    #[test]
    fn hits_rollups_and_imports_stored_before_names_are_named_once() {
        let Some(test) = fresh() else { return };
        let (events, pg) = (test.events(), test.pg());
        let db = events.database().to_string();
        // Five visits as stored before: google.com, utm_source=google, t.co, utm_source=newsletter, direct;
        // visitors 0 to 4, on both shards.
        let origins = [("google.com", ""), ("", "google"), ("t.co", ""), ("", "newsletter"), ("", "")];
        let hits: Vec<HitRow> = origins
            .iter()
            .enumerate()
            .map(|(n, &(host, tag))| HitRow {
                month: month_of(TS),
                website_id: SITE,
                ts: TS + n as Millis,
                visit_id: n as i64 + 1,
                visitor: n as u64,
                session_key: format!("visitor-{n}"),
                kind: "pageview",
                path: "/".into(),
                referrer_host: host.into(),
                utm_source: tag.into(),
                ..HitRow::default()
            })
            .collect();
        events.insert(&hits).unwrap();
        for (shard, values) in [(0, "('google.com', 1), ('t.co', 1), ('', 1)"), (1, "('google', 1), ('newsletter', 1)")]
        {
            events.nodes()[shard]
                .execute(&format!(
                    "INSERT INTO {db}.rollup_hours_local (website_id, dim, hour, value, visits)
                     SELECT {SITE}, 'source', {TS}, tupleElement(v, 1), tupleElement(v, 2) FROM
                     (SELECT arrayJoin([{values}]) AS v)"
                ))
                .unwrap();
        }
        events.nodes()[1]
            .execute(&format!(
                "INSERT INTO {db}.imported_hours_local (import_id, website_id, dim, hour, value, visits)
                 VALUES (1, {SITE}, 'source', {TS}, 'Google', 5), (1, {SITE}, 'source', {TS}, 'twitter.com', 2),
                        (1, {SITE}, 'source', {TS}, 'Twitter', 1), (1, {SITE}, 'page', {TS}, '/', 9)"
            ))
            .unwrap();

        for _ in 0..2 {
            name_stored(&pg, &events).unwrap();
            let named: Vec<Vec<String>> =
                events.nodes()[0].query(&format!("SELECT visitor, source FROM {db}.hits ORDER BY visitor")).unwrap();
            let named: Vec<&str> = named.iter().map(|row| row[1].as_str()).collect();
            assert_eq!(named, ["Google", "Google", "Twitter", "newsletter", ""]);
            let rolled = [("", 1), ("Google", 2), ("Twitter", 1), ("newsletter", 1)].map(|(v, n)| (v.to_string(), n));
            assert_eq!(sums(&events, "rollup_hours"), rolled);
            assert_eq!(sums(&events, "imported_hours"), [("Google".to_string(), 5), ("Twitter".to_string(), 3)]);
            let pages: u64 = events.nodes()[1]
                .query_value(&format!("SELECT sum(visits) FROM {db}.imported_hours_local WHERE dim = 'page'"))
                .unwrap();
            assert_eq!(pages, 9, "other dimensions are left as they are");
        }
    }
}
