//! `tracker import` on the cluster: the `imports` record in PostgreSQL (migration 0085), an export's hits on
//! the shards as tracked visits' rows (each visit on its visitor's shard, keyed `import-{id}-{n}` as SQLite's
//! sessions are), with the rollups of their days rebuilt; an interrupted import's rows deleted by the next.
//! Parsing and staging are the engine-neutral part in `crate::import`.

use std::sync::Arc;

use postgres::{Client, NoTls};

use super::clickhouse::quote;
use super::events::{Events, HitRow, month_of};
use super::pg::Pg;
use super::rollups;
use crate::error::{Error, Result};
use crate::import::{ImportRecord, ImportedHistory, ImportedHit, day_string, repeat_refused, staging::Staging, store};
use crate::model::{Millis, WebsiteId, now_ms};

const DAY_MS: Millis = 86_400_000;

/// The imports of a cluster, reached through `Imports` in cluster mode.
pub(crate) struct ClusterImports {
    pg: Arc<Pg>,
    events: Arc<Events>,
}

/// A site's import lock on the cluster: a session-level advisory lock on a connection of its own, which
/// PostgreSQL lets go when the connection ends, however the import ends.
pub(crate) struct SiteLock {
    _client: Client,
}

impl ClusterImports {
    pub fn new(pg: Arc<Pg>, events: Arc<Events>) -> ClusterImports {
        ClusterImports { pg, events }
    }

    /// Takes the site's import lock, or `Conflict` when another import into the site (from any machine) holds it.
    pub fn lock(&self, site: WebsiteId) -> Result<SiteLock> {
        let mut client = Client::connect(self.pg.url(), NoTls)
            .map_err(|e| Error::Unavailable(format!("PostgreSQL is unreachable: {e}")))?;
        let locked: bool =
            // Keyed by the schema too: advisory locks are the PostgreSQL server's, and clusters whose metadata
            // shares one server in schemas of their own would otherwise lock each other's sites of the same id.
            client
                .query_one(
                    "SELECT pg_try_advisory_lock(hashtextextended('tracker import ' || current_schema(), $1))",
                    &[&site],
                )?
                .get(0);
        if !locked {
            return Err(Error::Conflict(
                "another import into this website is running; run it again when that one has finished".into(),
            ));
        }
        Ok(SiteLock { _client: client })
    }

    /// Undoes the site's interrupted imports, refuses `days` a complete import holds data on, and records this
    /// import with its days (incomplete until `complete`); its id. Callers hold the site's lock.
    pub fn begin(
        &self,
        site: WebsiteId,
        source: &str,
        file_name: &str,
        rows: u64,
        (first_day, last_day): (Millis, Millis),
        days: &[Millis],
    ) -> Result<i64> {
        self.clear_incomplete(site)?;
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            let held = tx.query(
                "SELECT d.import_id, d.day FROM import_days d JOIN imports i ON i.id = d.import_id
                 WHERE d.website_id = $1 AND d.day = ANY($2) AND i.complete ORDER BY d.import_id, d.day",
                &[&site, &days],
            )?;
            if let Some(first) = held.first() {
                let earlier_id: i64 = first.get(0);
                let common: Vec<Millis> =
                    held.iter().filter(|r| r.get::<_, i64>(0) == earlier_id).map(|r| r.get(1)).collect();
                let earlier = tx.query_one(
                    "SELECT id, source, file_name, rows, first_day, last_day, imported_at FROM imports WHERE id = $1",
                    &[&earlier_id],
                )?;
                return Err(repeat_refused(&record(&earlier), &common));
            }
            let id: i64 = tx
                .query_one(
                    "INSERT INTO imports (website_id, source, file_name, rows, first_day, last_day, imported_at,
                        complete)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, FALSE) RETURNING id",
                    &[&site, &source, &file_name, &(rows as i64), &first_day, &last_day, &now_ms()],
                )?
                .get(0);
            tx.execute(
                "INSERT INTO import_days (import_id, website_id, day) SELECT $1, $2, unnest($3::bigint[])",
                &[&id, &site, &days],
            )?;
            tx.commit()?;
            Ok(id)
        })
    }

    /// Deletes what the site's interrupted imports stored on the shards, rebuilds their days' rollups from
    /// what remains, then forgets them.
    fn clear_incomplete(&self, site: WebsiteId) -> Result<()> {
        let incomplete: Vec<(i64, Millis, Millis)> = self.pg.with(|c| {
            Ok(c.query("SELECT id, first_day, last_day FROM imports WHERE website_id = $1 AND NOT complete", &[&site])?
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2)))
                .collect())
        })?;
        for (id, first_day, last_day) in incomplete {
            let condition = format!("website_id = {site} AND session_key LIKE {}", quote(&format!("import-{id}-%")));
            let (db, node) = (self.events.database(), &self.events.nodes()[0]);
            let stored: u64 = node.query_value(&format!("SELECT count() FROM {db}.hits WHERE {condition}"))?;
            if stored > 0 {
                self.events.delete_visits_where(&condition)?;
            }
            let aggregates: u64 =
                node.query_value(&format!("SELECT count() FROM {db}.imported_hours WHERE import_id = {id}"))?;
            if aggregates > 0 {
                self.events.delete_imported_where(&format!("import_id = {id}"))?;
            }
            rollups::rebuild(&self.pg, &self.events, site, first_day, last_day + DAY_MS)?;
            self.pg.with(|c| Ok(c.execute("DELETE FROM imports WHERE id = $1", &[&id]).map(drop)?))?;
        }
        Ok(())
    }

    /// Stores the staged hits on the shards as visits (split where idle as SQLite's import splits them), about
    /// `batch` hits per insert, rebuilds the rollups of the import's days and marks it complete; returns (page
    /// views, visits).
    pub fn store_hits(
        &self,
        site: WebsiteId,
        import: i64,
        staging: &Staging,
        (first_day, last_day): (Millis, Millis),
        batch: usize,
    ) -> Result<(i64, i64)> {
        let domain: String =
            self.pg.with(|c| Ok(c.query_one("SELECT domain FROM websites WHERE id = $1", &[&site])?.get(0)))?;
        let mut written = Written { site, import, domain, visits: 0, pageviews: 0 };
        staging.each_visit_batch(batch, |visits, _| self.insert_visits(&mut written, visits))?;
        // Imported days are usually rolled up already: their rollups get the imported visits.
        rollups::rebuild(&self.pg, &self.events, site, first_day, last_day + DAY_MS)?;
        self.complete(import)?;
        Ok((written.pageviews, written.visits))
    }

    /// Inserts `visits` (each a run of one visit's hits in time order) as hits rows, every row with its visit's
    /// first-hit dimensions (as the cluster's reads take a visit's values from its first row), with visit ids
    /// from the sequence live visits take theirs from.
    fn insert_visits(&self, written: &mut Written, visits: &[Vec<ImportedHit>]) -> Result<()> {
        if visits.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = self.pg.with(|c| {
            Ok(c.query(
                "SELECT nextval('ingest_visit_ids') FROM generate_series(1, $1::bigint)",
                &[&(visits.len() as i64)],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect())
        })?;
        let mut rows = Vec::new();
        for (visit, visit_id) in visits.iter().zip(ids) {
            let first = &visit[0];
            let session_key = format!("import-{}-{}", written.import, written.visits);
            let visitor = store::visitor_hash(written.site, &first.visitor) as u64;
            // Named as the sink names a tracked visit's, so imported visits join the same source rows.
            let source = crate::ingest::sources::source_of(&first.utm_source, &first.referrer_host);
            for hit in visit {
                let url = if hit.url.starts_with('/') {
                    format!("https://{}{}", written.domain, hit.url)
                } else {
                    hit.url.clone()
                };
                let (kind, name) = match &hit.event {
                    None => ("pageview", String::new()),
                    Some(name) => ("custom", name.clone()),
                };
                written.pageviews += (kind == "pageview") as i64;
                rows.push(HitRow {
                    month: month_of(hit.ts),
                    website_id: written.site,
                    ts: hit.ts,
                    visit_id,
                    visitor,
                    session_key: session_key.clone(),
                    kind,
                    name,
                    url,
                    path: hit.path.clone(),
                    referrer: hit.referrer.clone(),
                    referrer_host: first.referrer_host.clone(),
                    utm_source: first.utm_source.clone(),
                    utm_medium: first.utm_medium.clone(),
                    utm_campaign: first.utm_campaign.clone(),
                    screen: first.screen.clone(),
                    country: first.country.clone(),
                    region: first.region.clone(),
                    city: first.city.clone(),
                    device: first.device.clone(),
                    browser: first.browser.clone(),
                    os: first.os.clone(),
                    source: source.clone(),
                    ..HitRow::default()
                });
            }
            written.visits += 1;
        }
        self.events.insert(&rows)
    }

    /// Stores the staged daily aggregates (Plausible's) on the site's shard, `batch` rows per insert, and marks
    /// the import complete; returns (page views, visits) of the site totals, as SQLite's `store_days` does.
    pub fn store_days(&self, site: WebsiteId, import: i64, staging: &Staging, batch: usize) -> Result<(i64, i64)> {
        let (mut pageviews, mut visits) = (0, 0);
        let mut pending: Vec<ImportedHourRow> = Vec::new();
        staging.each_day(|row| {
            if row.dim.is_empty() {
                pageviews += row.pageviews;
                visits += row.visits;
            }
            pending.push(ImportedHourRow {
                import_id: import,
                website_id: site,
                dim: row.dim.to_string(),
                hour: row.day,
                value: row.value,
                pageviews: row.pageviews,
                visits: row.visits,
                visitors: row.visitors,
                events: row.events,
                conversions: 0,
                bounces: row.bounces,
                duration_s: row.duration_s,
            });
            if pending.len() >= batch {
                self.events.insert_imported(site, &pending)?;
                pending.clear();
            }
            Ok(())
        })?;
        self.events.insert_imported(site, &pending)?;
        self.complete(import)?;
        Ok((pageviews, visits))
    }

    fn complete(&self, import: i64) -> Result<()> {
        self.pg.with(|c| Ok(c.execute("UPDATE imports SET complete = TRUE WHERE id = $1", &[&import]).map(drop)?))
    }

    /// A site's complete imports, oldest first.
    pub fn list(&self, site: WebsiteId) -> Result<Vec<ImportRecord>> {
        self.pg.with(|c| {
            Ok(c.query(
                "SELECT id, source, file_name, rows, first_day, last_day, imported_at FROM imports
                 WHERE website_id = $1 AND complete ORDER BY id",
                &[&site],
            )?
            .iter()
            .map(record)
            .collect())
        })
    }

    /// The imported history of `site` within `[start, end)` (ms), for the overview's marker, as SQLite's
    /// `imported_within` gives it.
    pub fn imported_within(&self, site: WebsiteId, start: Millis, end: Millis) -> Result<Option<ImportedHistory>> {
        let rows: Vec<(String, i64, i64)> = self.pg.with(|c| {
            Ok(c.query(
                "SELECT source, MIN(GREATEST(first_day, $2::bigint)), MAX(LEAST(last_day, $3::bigint - 1)) FROM imports
                 WHERE website_id = $1 AND complete AND first_day < $3::bigint AND last_day + 86400000 > $2::bigint
                 GROUP BY source ORDER BY source",
                &[&site, &start, &end],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
        })?;
        Ok(ImportedHistory::of(rows))
    }
}

/// A row of `imported_hours_local`: one day's aggregate of a dimension value (field names are its columns).
/// Written by an import and by `tracker migrate --to-cluster`, which copies SQLite's `imported_rollups`.
#[derive(serde::Serialize)]
pub(super) struct ImportedHourRow {
    pub import_id: i64,
    pub website_id: WebsiteId,
    pub dim: String,
    /// The day's midnight, in milliseconds.
    pub hour: Millis,
    pub value: String,
    pub pageviews: i64,
    pub visits: i64,
    pub visitors: i64,
    pub events: i64,
    pub conversions: i64,
    pub bounces: i64,
    pub duration_s: i64,
}

/// What the inserts of one import have stored so far.
struct Written {
    site: WebsiteId,
    import: i64,
    domain: String,
    visits: i64,
    pageviews: i64,
}

fn record(r: &postgres::Row) -> ImportRecord {
    ImportRecord {
        id: r.get(0),
        source: r.get(1),
        file_name: r.get(2),
        rows: r.get(3),
        first_day: day_string(r.get(4)),
        last_day: day_string(r.get(5)),
        imported_at: r.get(6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::testing::fresh;

    const SITE: WebsiteId = 7;
    /// 2026-11-10, midnight UTC.
    const DAY: Millis = 1_794_268_800_000;

    /// An import interrupted part way (its record incomplete, some of its visits on a shard) is undone by the
    /// next import into the site: its rows leave both shards and its record goes, while tracked visits and a
    /// complete import stay.
    #[test]
    fn the_next_import_undoes_an_interrupted_one() {
        let Some(test) = fresh() else { return };
        test.add_site(SITE);
        let pg = test.pg();
        let record = |complete: bool| -> i64 {
            pg.with(|c| {
                Ok(c.query_one(
                    "INSERT INTO imports (website_id, source, file_name, rows, first_day, last_day, imported_at, complete)
                     VALUES ($1, 'umami', 'events.csv', 3, $2, $2, 0, $3) RETURNING id",
                    &[&SITE, &DAY, &complete],
                )?
                .get(0))
            })
            .unwrap()
        };
        let (done, interrupted) = (record(true), record(false));
        let hit = |key: String, visit_id: i64, visitor: u64| HitRow {
            month: month_of(DAY),
            website_id: SITE,
            ts: DAY + 3_600_000,
            visit_id,
            visitor,
            session_key: key,
            kind: "pageview",
            ..HitRow::default()
        };
        test.events()
            .insert(&[
                hit(format!("import-{interrupted}-0"), 1, 2),
                hit(format!("import-{interrupted}-1"), 2, 3),
                hit(format!("import-{done}-0"), 3, 2),
                hit("tracked".into(), 4, 3),
            ])
            .unwrap();
        let rows = |condition: &str| (0..2).map(|s| test.local_rows(s, condition)).sum::<u64>();
        assert_eq!(rows(&format!("session_key LIKE 'import-{interrupted}-%'")), 2);

        let imports = ClusterImports::new(Arc::new(test.pg()), Arc::new(test.events()));
        let later = DAY + 5 * DAY_MS;
        let next = imports.begin(SITE, "goatcounter", "export.csv", 1, (later, later), &[later]).unwrap();
        assert_eq!(rows(&format!("session_key LIKE 'import-{interrupted}-%'")), 0, "the interrupted rows are gone");
        assert_eq!(rows(&format!("session_key = 'import-{done}-0' OR session_key = 'tracked'")), 2);
        let ids: Vec<i64> = pg
            .with(|c| Ok(c.query("SELECT id FROM imports ORDER BY id", &[])?.iter().map(|r| r.get(0)).collect()))
            .unwrap();
        assert_eq!(ids, [done, next]);
    }

    /// A site's import lock refuses a second import into it, and only into it: not the same site id of another
    /// cluster whose metadata shares the PostgreSQL server in a schema of its own.
    #[test]
    fn the_import_lock_is_one_sites_of_one_cluster() {
        let Some(test) = fresh() else { return };
        // The other cluster's metadata: another schema of the same server (its locks need no shards).
        let (_, other_pg) = crate::cluster::testing::fresh_pg().expect("the harness is running");
        let one = ClusterImports::new(Arc::new(test.pg()), Arc::new(test.events()));
        let other = ClusterImports::new(Arc::new(other_pg), Arc::new(test.events()));
        let held = one.lock(SITE).unwrap();
        let refused = one.lock(SITE).err().expect("a second import into the site is refused");
        assert!(matches!(refused, Error::Conflict(_)), "{refused}");
        let _elsewhere = other.lock(SITE).expect("another cluster's site of the same id is its own");
        let _next = one.lock(SITE + 1).expect("another site of the cluster is free");
        drop(held);
        let _again = one.lock(SITE).expect("free once the import ends");
    }
}
