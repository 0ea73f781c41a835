//! A site's data deleted on the owner's request in cluster mode (`POST /api/privacy/delete-data`): its page
//! views, other events or everything, counted as SQLite's `Privacy::delete_data` reports them in the request,
//! then deleted on every shard's local tables (awaited mutations) by a deletion job (`privacy_jobs`), which also
//! deletes what goes with them in PostgreSQL and rebuilds the rollups. Called by `Tracker::delete_data`.

use super::Cluster;
use super::ingest_state::IngestState;
use super::privacy_jobs::Work;
use super::visits::{DAY_MS, int};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms};
use crate::privacy::{DataType, DeletionReport};
use crate::store::meta::Metadata;

/// The hits a deletion removes, as a condition on `kind` (fixed text).
fn kinds(data: DataType) -> &'static str {
    match data {
        DataType::Pageviews => "kind = 'pageview'",
        // Touches (heatmap data keeping a visit alive) are no events: SQLite keeps no row for them.
        DataType::Events => "kind NOT IN ('pageview', 'touch')",
        DataType::All => "1",
    }
}

/// The rows that go (touches are no rows of SQLite's, and stay unless their visit goes).
fn deleted_rows(data: DataType, before: Option<Millis>) -> String {
    format!("({}) AND kind != 'touch' AND ts < {}", kinds(data), before.unwrap_or(i64::MAX))
}

impl Cluster {
    /// Deletes a site's data of one type, only rows before `before` when given; callers check ownership. Answers
    /// at once with SQLite's counts: hits by kind, and the visits left without any hit (for `all` without a
    /// cut-off, every visit); the rows go by a job (`privacy_jobs`), and no read of the site answers before it is
    /// done. A deletion without a cut-off cuts at the answer's time, so hits taken after it stay, as on SQLite.
    /// `rollup_rows` counts the cluster's own rollup keys (`Events::rollup_keys`) as they are at the answer: the
    /// site's (for `all` without a cut-off, deleted), or those of the hours the job rebuilds (their count after
    /// the rebuild is not known yet). A shard that does not answer is `Unavailable` with nothing left to do.
    pub fn delete_data(&self, site: WebsiteId, data: DataType, before: Option<Millis>) -> Result<DeletionReport> {
        // An earlier deletion's rows are not counted again.
        self.settle(&[site])?;
        let whole_site = data == DataType::All && before.is_none();
        let before = if whole_site { None } else { Some(before.unwrap_or_else(now_ms)) };
        let (mut report, span) = self.count_deletion(site, data, before)?;
        if whole_site {
            report.rollup_rows = self.events.rollup_keys(site, None)?;
        } else if report.pageviews + report.events == 0 {
            return Ok(report);
        } else if let Some(hours) = span {
            report.rollup_rows = self.events.rollup_keys(site, Some(hours))?;
        }
        self.enqueue_privacy_deletion(&Work::Data { site, data, before, span })?;
        Ok(report)
    }

    /// What a deletion of `data` before `before` (`None`: the whole site) removes on every shard, as SQLite
    /// counts it, and the whole days whose rollups it changes: from the start of the first visit that loses a
    /// row to the day of the last row deleted (as SQLite's deletion finds them).
    fn count_deletion(
        &self,
        site: WebsiteId,
        data: DataType,
        before: Option<Millis>,
    ) -> Result<(DeletionReport, Option<(Millis, Millis)>)> {
        let db = self.events.database();
        let whole_site = data == DataType::All && before.is_none();
        let deleted = deleted_rows(data, before);
        let condition = format!("website_id = {site} AND {deleted}");
        let mut report = DeletionReport::default();
        let (mut first, mut last) = (Millis::MAX, Millis::MIN);
        for node in self.events.nodes() {
            // The rows' counts and span, and the start of the first visit losing one (not needed when the site's
            // rollups go whole).
            let rows = node.query(&format!(
                "SELECT countIf(kind = 'pageview'), countIf(kind != 'pageview'), count(), min(ts), max(ts),
                    (SELECT min(ts) FROM {db}.hits_local WHERE website_id = {site} AND visit_id != 0 AND visit_id IN
                        (SELECT visit_id FROM {db}.hits_local WHERE {condition} AND visit_id != 0 AND {}))
                 FROM {db}.hits_local WHERE {condition}",
                if whole_site { "0" } else { "1" }
            ))?;
            let row = rows.first().ok_or_else(|| Error::Internal("ClickHouse: no deletion count".into()))?;
            report.pageviews += int(row, 0)? as u64;
            report.events += int(row, 1)? as u64;
            if int(row, 2)? > 0 {
                let visits_start = if int(row, 5)? == 0 { Millis::MAX } else { int(row, 5)? };
                first = first.min(int(row, 3)?).min(visits_start);
                last = last.max(int(row, 4)?);
            }
            // A visit's hits are all on one shard.
            let emptied = format!(
                "{db}.hits_local WHERE website_id = {site} AND visit_id != 0 GROUP BY visit_id HAVING {}",
                emptied(data, &deleted, whole_site)
            );
            report.sessions +=
                node.query_value::<u64>(&format!("SELECT count() FROM (SELECT visit_id FROM {emptied})"))?;
        }
        let span = (first <= last).then(|| (first.div_euclid(DAY_MS) * DAY_MS, (last.div_euclid(DAY_MS) + 1) * DAY_MS));
        Ok((report, span))
    }

    /// A deletion job's work (`privacy_jobs`): deletes the rows of `data` before `before` on every shard with
    /// what goes with them, and rebuilds the rollups of `span` from the hits left (for `all` without a cut-off,
    /// deletes the site's rollups, heatmap data, recordings, open visits and imported history, as on SQLite).
    /// Repeatable after a failure part way.
    pub(super) fn erase_data(
        &self,
        meta: &dyn Metadata,
        site: WebsiteId,
        data: DataType,
        before: Option<Millis>,
        span: Option<(Millis, Millis)>,
    ) -> Result<()> {
        if data == DataType::All && before.is_none() {
            // The site's heatmap data and rollups go with everything else (even when it has no hit left).
            self.events.delete_site(site)?;
            // Its recordings go with their visits, as SQLite's go with its emptied sessions.
            meta.delete_replays_before(site, Millis::MAX)?;
            // Its open visits are gone: a later hit starts a new one, as on SQLite.
            IngestState::forget_site(&self.pg, site)?;
            // Imported history went with its rows, and may be imported again, as on SQLite.
            self.pg.with(|c| Ok(c.execute("DELETE FROM imports WHERE website_id = $1", &[&site]).map(drop)?))?;
            return Ok(());
        }
        self.delete_rows(meta, site, data, &deleted_rows(data, before))?;
        if let Some((from, to)) = span {
            self.rebuild_rollups(site, from, to)?;
        }
        Ok(())
    }

    /// Deletes a site's rows matching `deleted` on every shard, with the visits it empties whole (their touches,
    /// and for `all` their heatmap data and recordings, as SQLite's cascade from their sessions takes them);
    /// the visits it cuts keep their span. The emptied visits are listed on their shard first (in
    /// `deletion_marks_local`), so the awaited mutation deletes a fixed set rather than re-reading the hits it
    /// changes part by part, and finds it again after a restart.
    fn delete_rows(&self, meta: &dyn Metadata, site: WebsiteId, data: DataType, deleted: &str) -> Result<()> {
        let db = self.events.database();
        // Unique enough: two deletions of one site would have to start in the same nanosecond.
        let deletion = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(|e| Error::Internal(e.to_string()))?
            .as_nanos() as u64;
        let marked = format!("SELECT visit_id FROM {db}.deletion_marks_local WHERE deletion = {deletion}");
        let recent = crate::model::now_ms() - 2 * DAY_MS;
        let (mut recorded, mut open) = (Vec::new(), Vec::new());
        for node in self.events.nodes() {
            node.execute(&format!(
                "INSERT INTO {db}.deletion_marks_local
                 SELECT {deletion}, visit_id, countIf(kind = 'touch' AND name != '{SPAN}') > 0, max(ts)
                 FROM {db}.hits_local WHERE website_id = {site} AND visit_id != 0
                 GROUP BY visit_id HAVING {}",
                emptied(data, deleted, false)
            ))?;
            // Recordings and open visits are few beside the visits: they are looked up by id and key.
            for row in node.query(&format!("{marked} AND touched"))? {
                recorded.push(int(&row, 0)?);
            }
            open.extend(
                node.query(&format!(
                    "SELECT DISTINCT session_key FROM {db}.hits_local
                     WHERE website_id = {site} AND visit_id IN ({marked} AND last >= {recent})"
                ))?
                .into_iter()
                .filter_map(|row| row.into_iter().next()),
            );
            node.execute(&span_touches_sql(db, site, deleted))?;
        }
        let gone = format!("website_id = {site} AND visit_id IN ({marked})");
        self.events.delete_where(&format!("website_id = {site} AND ({deleted} OR visit_id IN ({marked}))"))?;
        if data == DataType::All {
            self.events.delete_interactions_where(&gone)?;
            for visits in recorded.chunks(10_000) {
                meta.delete_visit_replays(site, visits)?;
            }
        }
        IngestState::forget_visits(&self.pg, site, &open)?;
        for node in self.events.nodes() {
            // Done with: not awaited, nothing reads a finished deletion's marks.
            node.execute(&format!("ALTER TABLE {db}.deletion_marks_local DELETE WHERE deletion = {deletion}"))?;
        }
        Ok(())
    }
}

/// The `name` of the touch rows that keep the span of a visit a deletion cut (a visit's heatmap data and
/// recordings touch it with an empty name): they hold no data a visit could be kept for.
const SPAN: &str = "span";

/// The HAVING condition on a visit's hits that says it is left without any (SQLite deletes its session): it loses
/// some to `deleted` and keeps none; unless `all` goes, a visit holding heatmap data or a recording (touches)
/// stays, as on SQLite. Every visit goes with the whole site.
fn emptied(data: DataType, deleted: &str, whole_site: bool) -> String {
    if whole_site {
        return "1".to_string();
    }
    let kept = if data == DataType::All {
        String::new()
    } else {
        format!(" AND countIf(kind = 'touch' AND name != '{SPAN}') = 0")
    };
    format!("countIf({deleted}) > 0 AND countIf({deleted}) = countIf(kind != 'touch'){kept}")
}

/// The statement, run on one shard, that keeps the span of each of a site's visits that loses some of its
/// rows to `kinds` and keeps others: a `touch` copy of its first and last rows where those go, as SQLite keeps
/// a visit's first and last seen times on its session row. A copy keeps what that row holds (its visit's
/// source, place and device) but nothing of the deleted hit itself (its page, name, properties or value).
fn span_touches_sql(db: &str, site: WebsiteId, deleted: &str) -> String {
    let visits = format!("SELECT visit_id FROM {db}.hits_local WHERE website_id = {site} AND visit_id != 0");
    format!(
        "INSERT INTO {db}.hits_local ({HIT_COLUMNS})
         SELECT month, website_id, ts, visit_id, visitor, session_key, 'touch', '{SPAN}', '', '', referrer, referrer_host,
                utm_source, utm_medium, utm_campaign, utm_term, utm_content, '', NULL, '', screen, country, region,
                city, device, browser, os, ip_address, organization_asn, organization, source, browser_version,
                os_version
         FROM {db}.hits_local
         WHERE website_id = {site} AND ({deleted})
           AND visit_id IN ({visits} GROUP BY visit_id HAVING countIf({deleted}) < countIf(kind != 'touch'))
           AND ((visit_id, ts) IN (SELECT visit_id, min(ts) FROM {db}.hits_local WHERE website_id = {site} GROUP BY visit_id)
             OR (visit_id, ts) IN (SELECT visit_id, max(ts) FROM {db}.hits_local WHERE website_id = {site} GROUP BY visit_id))"
    )
}

/// The columns of `hits_local`, in order.
const HIT_COLUMNS: &str = "month, website_id, ts, visit_id, visitor, session_key, kind, name, url, path, referrer,
    referrer_host, utm_source, utm_medium, utm_campaign, utm_term, utm_content, properties, value, currency, screen,
    country, region, city, device, browser, os, ip_address, organization_asn, organization, source, browser_version,
    os_version";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::events::{HitRow, InteractionRow, month_of};
    use crate::cluster::testing::fresh;

    const SITE: WebsiteId = 7;
    const OTHER: WebsiteId = 8;
    /// 2026-11-10, 12:00 UTC.
    const T: i64 = 1_794_312_000_000;

    fn hit(site: WebsiteId, visit_id: i64, visitor: u64, ts: i64, kind: &'static str) -> HitRow {
        HitRow {
            month: month_of(ts),
            website_id: site,
            ts,
            visit_id,
            visitor,
            session_key: format!("key-{visit_id}"),
            kind,
            path: "/".into(),
            ..HitRow::default()
        }
    }

    #[test]
    fn a_deletion_counts_as_sqlite_and_deletes_nothing_until_every_shard_answers() {
        let Some(test) = fresh() else { return };
        test.add_site(SITE);
        test.add_site(OTHER);
        // Visit 1 (shard 0) has only page views, visit 2 (shard 1) a page view and an event, visit 3 (shard 1)
        // only an event; the other site's visit 4 must stay.
        test.events()
            .insert(&[
                hit(SITE, 1, 2, T, "pageview"),
                hit(SITE, 1, 2, T + 1, "pageview"),
                hit(SITE, 2, 3, T + 2, "pageview"),
                hit(SITE, 2, 3, T + 3, "custom"),
                hit(SITE, 3, 5, T + 4, "conversion"),
                hit(OTHER, 4, 2, T + 5, "pageview"),
            ])
            .unwrap();
        let cluster = |events: crate::cluster::events::Events| Cluster {
            pg: std::sync::Arc::new(test.pg()),
            events: std::sync::Arc::new(events),
        };
        let rows = |condition: &str| (0..2).map(|s| test.local_rows(s, condition)).sum::<u64>();

        let down = cluster(test.events().with_nodes(&[test.ch_urls[0].clone(), "http://127.0.0.1:9".into()]));
        let refused = down.delete_data(SITE, DataType::Pageviews, None);
        assert!(matches!(refused, Err(Error::Unavailable(_))), "{refused:?}");
        assert_eq!(rows("1"), 6, "nothing deleted");

        let up = cluster(test.events());
        // Nothing is rolled up here: no rollup row to rebuild or delete (rollups.rs tests those).
        let report = up.delete_data(SITE, DataType::Pageviews, None).unwrap();
        assert_eq!(report, DeletionReport { pageviews: 3, events: 0, sessions: 1, rollup_rows: 0 });
        up.settle(&[SITE]).unwrap();
        assert_eq!(rows(&format!("website_id = {SITE} AND kind != 'touch'")), 2);
        // Visit 2 keeps its span (its first row went): a touch at that time, without the page.
        assert_eq!(
            rows(&format!("website_id = {SITE} AND kind = 'touch' AND visit_id = 2 AND ts = {} AND path = ''", T + 2)),
            1
        );
        assert_eq!(rows(&format!("website_id = {SITE} AND kind = 'touch'")), 1, "emptied visits keep no touch");
        let report = up.delete_data(SITE, DataType::All, None).unwrap();
        assert_eq!(report, DeletionReport { pageviews: 0, events: 2, sessions: 2, rollup_rows: 0 });
        up.settle(&[SITE]).unwrap();
        assert_eq!(rows(&format!("website_id = {SITE}")), 0);
        assert_eq!(rows(&format!("website_id = {OTHER}")), 1, "the other site is intact");
    }
    /// A deletion of everything before a time takes the visits it empties whole (their touches and heatmap
    /// data, as SQLite's cascade from their sessions), keeps a visit of heatmap data alone, and keeps the span of
    /// a visit it cuts; the counts are SQLite's.
    #[test]
    fn a_deletion_before_a_time_takes_the_visits_it_empties_whole() {
        let Some(test) = fresh() else { return };
        test.add_site(SITE);
        let touch = |visit_id, ts| HitRow { path: String::new(), ..hit(SITE, visit_id, 4, ts, "touch") };
        // Visit 10 has a page view and heatmap data, visit 11 heatmap data alone, visit 12 a page view either
        // side of the cut, visit 13 one after it.
        test.events()
            .insert(&[
                hit(SITE, 10, 4, T, "pageview"),
                touch(10, T + 200),
                touch(11, T),
                hit(SITE, 12, 4, T + 1, "pageview"),
                hit(SITE, 12, 4, T + 100, "custom"),
                hit(SITE, 13, 4, T + 100, "pageview"),
            ])
            .unwrap();
        let point = |visit_id| InteractionRow {
            month: month_of(T),
            website_id: SITE,
            ts: T,
            visit_id,
            visitor: 4,
            session_key: format!("key-{visit_id}"),
            path: "/".into(),
            kind: "click",
            ..InteractionRow::default()
        };
        test.events().insert_interactions(&[point(10), point(11)]).unwrap();
        let cluster = Cluster { pg: std::sync::Arc::new(test.pg()), events: std::sync::Arc::new(test.events()) };
        let report = cluster.delete_data(SITE, DataType::All, Some(T + 50)).unwrap();
        cluster.settle(&[SITE]).unwrap();
        assert_eq!(report, DeletionReport { pageviews: 2, events: 0, sessions: 1, rollup_rows: 0 });
        let rows = |condition: &str| (0..2).map(|s| test.local_rows(s, condition)).sum::<u64>();
        assert_eq!(rows("visit_id = 10"), 0, "the emptied visit goes whole");
        assert_eq!(rows("visit_id = 11 AND kind = 'touch'"), 1, "heatmap data alone stays");
        assert_eq!(rows("visit_id = 12 AND kind = 'custom'"), 1);
        assert_eq!(rows(&format!("visit_id = 12 AND kind = 'touch' AND ts = {}", T + 1)), 1, "its span stays");
        assert_eq!(rows("visit_id = 13"), 1);
        let points = |visit_id: i64| -> u64 {
            test.events().nodes()[0]
                .query_value(&format!(
                    "SELECT count() FROM {}.interactions WHERE visit_id = {visit_id}",
                    test.events().database()
                ))
                .unwrap()
        };
        assert_eq!((points(10), points(11)), (0, 1), "the emptied visit's heatmap data goes with it");
    }
}
