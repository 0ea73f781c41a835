//! The copy of a seeded data folder into the cluster harness, whole and interrupted.

use std::sync::Arc;

#[test]
fn two_factor_accounts_are_counted_unless_the_cluster_signs_with_the_folders_secret() {
    let fixture = crate::testing::one_site();
    let (db, folder) = (fixture.tracker.db(), fixture.dir.path());
    let folder_secret = std::fs::read(folder.join("secret.key")).unwrap();
    let other = b"another secret of at least 32 bytes!".as_slice();
    assert_eq!(super::two_factor_broken_by_copy(db, folder, Some(other)).unwrap(), 0, "nobody has it on");
    db.write(|conn| Ok(conn.execute("UPDATE users SET totp_enabled = 1", [])?)).unwrap();
    assert_eq!(super::two_factor_broken_by_copy(db, folder, Some(other)).unwrap(), 1);
    assert_eq!(super::two_factor_broken_by_copy(db, folder, None).unwrap(), 1);
    assert_eq!(super::two_factor_broken_by_copy(db, folder, Some(&folder_secret)).unwrap(), 0);
    let no_key_file = tempfile::tempdir().unwrap();
    assert_eq!(super::two_factor_broken_by_copy(db, no_key_file.path(), Some(other)).unwrap(), 0);
}

use super::*;
use crate::analytics::{Dimension, TimeRange};
use crate::cluster::imports::ClusterImports;
use crate::cluster::seeded::{assert_every_read_equal, comparable_funnel, funnel_input, seeded_bodies, seeded_hits};
use crate::cluster::testing::{TestCluster, fresh, store_all_in_sqlite};
use crate::events::Filters;
use crate::import::{ImportOptions, Source};
use crate::ingest::replay::ChunkStats;
use crate::ingest::{Hit, ReplayChunk};
use crate::store::funnels::Funnels;
use crate::store::websites::{NewWebsite, Websites};
use crate::testing::{OneSite, one_site};

fn open(cluster: &TestCluster) -> Cluster {
    Cluster { pg: Arc::new(cluster.pg()), events: Arc::new(cluster.events()) }
}

/// A data folder with a day of seeded visits and their heatmap data, page views without consent on two
/// pages, a funnel and a deleted second site (its id must not come back).
fn seeded_folder(now: Millis) -> OneSite {
    let fixture = one_site();
    let mut hits = seeded_hits(fixture.site, now);
    let bodies = seeded_bodies(&hits, now);
    for (i, path) in ["/p1", "/p1", "/private"].into_iter().enumerate() {
        hits.push(Hit {
            website_id: fixture.site,
            session_key: format!("no-consent-{i}"),
            ts: now - 3_600_000 * (i as i64 + 1),
            url: format!("https://s.example.com{path}"),
            path: path.into(),
            consent_required: true,
            ..Hit::default()
        });
    }
    store_all_in_sqlite(&fixture, hits, bodies);
    // Recordings of three visits, one of two chunks.
    let visits: Vec<i64> = fixture
        .tracker
        .db()
        .read(|c| {
            let mut stmt = c.prepare("SELECT id FROM sessions WHERE website_id = ?1 ORDER BY id LIMIT 3")?;
            Ok(stmt.query_map([fixture.site], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
        })
        .unwrap();
    for (i, visit) in visits.iter().enumerate() {
        for seq in 0..=(i as i64 % 2) {
            let chunk = ReplayChunk {
                visit: Hit { website_id: fixture.site, ..Hit::default() },
                seq,
                data: vec![i as u8, seq as u8, 0x1f, 0x8b],
                is_final: seq == 1,
                stats: ChunkStats {
                    events: 3 + seq,
                    clicks: seq,
                    first_ts: Some(now - 600_000 + seq * 1_000),
                    last_ts: Some(now - 500_000 + seq * 1_000),
                    screen: Some("390x844".into()),
                    inflated: 200,
                },
            };
            assert!(fixture.tracker.privacy.meta.append_replay_chunk(*visit, &chunk, now - 400_000).unwrap());
        }
    }
    let funnel = funnel_input(fixture.site, &[("/p1", None), ("/p2", None)]);
    fixture.tracker.funnels.create(fixture.user.id, funnel).unwrap();
    let new = NewWebsite { name: "Gone".into(), domain: "gone.example.com".into(), tracking_level: None };
    let gone = fixture.tracker.websites.create(fixture.user.id, new).unwrap();
    fixture.tracker.websites.delete(fixture.user.id, gone.id).unwrap();
    fixture
}

/// Imported history in the folder: the Plausible sample export's daily aggregates into the seeded site, and
/// the Umami sample's hits into a second site (the two cover the same days, which one site refuses); the
/// second site's id.
fn import_history(fixture: &OneSite) -> WebsiteId {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/import");
    let new = NewWebsite { name: "Umami".into(), domain: "u.example.com".into(), tracking_level: None };
    let umami = fixture.tracker.websites.create(fixture.user.id, new).unwrap().id;
    for (site, source, file) in
        [(fixture.site, Source::Plausible, "plausible"), (umami, Source::Umami, "umami-events.csv")]
    {
        let options = ImportOptions::default();
        fixture.tracker.imports.import(site, source, &samples.join(file), options, &|_| {}).unwrap();
    }
    umami
}

/// The imported days of the samples (2024-03-01 and 02), with the day after.
fn imported_days_range() -> TimeRange {
    let start = 1_709_251_200_000;
    TimeRange { start, end: start + 3 * 86_400_000, grain: crate::analytics::Grain::Day, tz: chrono_tz::Tz::UTC }
}

/// Both sites' imports are listed and marked as in the folder, under the same ids, and the imported days'
/// totals, timeseries and page breakdown are the folder's (not zero); each aggregate row is stored once.
fn assert_imports_equal(fixture: &OneSite, cluster: &Cluster, umami: WebsiteId) {
    let imports = ClusterImports::new(cluster.pg.clone(), cluster.events.clone());
    let (sqlite, range) = (&fixture.tracker.analytics(), imported_days_range());
    for site in [fixture.site, umami] {
        let listed = fixture.tracker.imports.list(site).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(imports.list(site).unwrap(), listed);
        let marker = fixture.tracker.events.imported_within(site, range.start, range.end).unwrap();
        assert!(marker.is_some());
        assert_eq!(imports.imported_within(site, range.start, range.end).unwrap(), marker);
        let totals = sqlite.totals(site, range).unwrap();
        assert!(totals.pageviews > 0 && totals.visits > 0, "{totals:?}");
        assert_eq!(cluster.events.totals(site, range).unwrap(), totals, "site {site}");
        assert_eq!(cluster.events.timeseries(site, range).unwrap(), sqlite.timeseries(site, range).unwrap());
        let pages = sqlite.breakdown(site, range, Dimension::Page, 100).unwrap();
        assert_eq!(cluster.events.breakdown(site, range, Dimension::Page, 100).unwrap(), pages);
    }
    let stored: u64 = cluster.events.nodes()[0]
        .query_value(&format!("SELECT count() FROM {}.imported_hours", cluster.events.database()))
        .unwrap();
    assert_eq!(stored, count_sqlite(fixture, "imported_rollups"));
}

fn count_sqlite(fixture: &OneSite, table: &str) -> u64 {
    fixture
        .tracker
        .db()
        .read(|c| Ok(c.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get::<_, i64>(0))?))
        .unwrap() as u64
}

/// Every page's heatmap (clicks, moves, form fields, scroll depths and time on page) over a day and a week.
/// The data folder's recordings, their chunks included, are in PostgreSQL under the same visits.
fn assert_recordings_equal(fixture: &OneSite, copied: &crate::store::meta::Meta) {
    let visits: Vec<i64> = (1..10_000).collect();
    let recordings = |meta: &crate::store::meta::Meta| {
        let mut listed = Vec::new();
        for mut recording in meta.visit_replays(fixture.site, &visits).unwrap() {
            let chunks: Vec<Option<Vec<u8>>> = meta
                .replay_chunk_seqs(recording.id)
                .unwrap()
                .into_iter()
                .map(|seq| meta.replay_chunk(recording.id, seq).unwrap())
                .collect();
            recording.id = 0;
            listed.push((recording, chunks));
        }
        listed
    };
    let expected = recordings(&fixture.tracker.privacy.meta);
    assert_eq!(expected.len(), 3);
    assert_eq!(recordings(copied), expected);
}

fn assert_heatmaps_equal(fixture: &OneSite, cluster: &Cluster, now: Millis) {
    let (sqlite, site) = (&fixture.tracker.analytics(), fixture.site);
    for name in ["24h", "7d"] {
        let range = TimeRange::parse(name, now).unwrap();
        for path in ["/p0", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6"] {
            let expected = sqlite.heatmap(site, path, range).unwrap();
            assert_eq!(cluster.events.heatmap(site, path, range).unwrap(), expected, "{name} {path}");
        }
    }
    assert_eq!(cluster.events.page_urls(site, chrono_tz::Tz::UTC, now).unwrap(), sqlite.page_urls(site).unwrap());
}

#[test]
fn a_copied_data_folder_answers_every_read_as_sqlite_and_keeps_its_ids() {
    let Some(test_cluster) = fresh() else { return };
    let now = now_ms();
    let fixture = seeded_folder(now);
    // Last week's report went out from the folder: the cluster must not send it again.
    fixture
        .tracker
        .db()
        .write(|c| {
            Ok(c.execute(
                "INSERT INTO emails_sent (kind, website_id, user_id, period, sent_at)
                 VALUES ('weekly_report', ?1, ?2, 0, 0)",
                [fixture.site, fixture.user.id],
            )?)
        })
        .unwrap();
    let umami = import_history(&fixture);
    // Sharing and access: a member (an invitation accepted), an invitation pending, an API key, a share link.
    let tracker = &fixture.tracker;
    let owner = crate::model::Caller::new(fixture.user.id, crate::model::Role::Owner);
    let bob = tracker.auth.create_user("bob@example.com", "secret1").unwrap();
    let invited = tracker.members.invite(owner, fixture.site, "bob@example.com", "viewer", "http://x").unwrap();
    tracker.members.accept(bob.id, invited.invitation.id, None).unwrap();
    tracker.members.invite(owner, fixture.site, "eve@example.com", "editor", "http://x").unwrap();
    let signed_in = crate::auth::Principal {
        user: fixture.user.id,
        session: 1,
        version: 0,
        issued_at: 0,
        expires_at: i64::MAX,
        api_key: None,
    };
    tracker.auth.create_api_key(signed_in, "deploys", crate::auth::ApiKeyScope::Write).unwrap();
    let link = tracker
        .shared_links
        .create(fixture.site, crate::store::shared_links::NewLink { name: "Public".into(), ..Default::default() })
        .unwrap();
    let cluster = open(&test_cluster);
    // The cluster has rolled up hours the copied day falls in: the copy rebuilds their rollups.
    let later = now + crate::cluster::rollups::CLOSED_AFTER_MS + 86_400_000;
    assert!(cluster.roll_up(later).unwrap().is_some());
    let mut seen = Vec::new();
    let report = migrate_to_cluster(fixture.tracker.db(), &cluster, "folder-a", &mut |p| seen.push(p)).unwrap();
    let rolled_up: u64 = cluster.events.nodes()[0]
        .query_value(&format!("SELECT count() FROM {}.rollup_hours", cluster.events.database()))
        .unwrap();
    assert!(rolled_up > 50, "{rolled_up} rollup rows");

    let events = count_sqlite(&fixture, "events");
    assert_eq!((report.events, report.skipped_events, report.resumed), (events, 0, false), "{report:?}");
    assert_eq!(report.anonymous_pageviews, 3, "{report:?}");
    assert_eq!(report.recordings, 3, "{report:?}");
    assert_eq!(report.imports, 2, "{report:?}");
    let imported_days = count_sqlite(&fixture, "imported_rollups");
    assert!(imported_days > 10, "{imported_days}");
    assert_eq!(report.imported_days, imported_days, "{report:?}");
    assert_eq!(seen.last(), Some(&Progress::Events { copied: events, total: events }));
    for (table, rows) in &report.metadata {
        assert_eq!(*rows, count_sqlite(&fixture, table), "{table}");
    }
    assert!(report.metadata.contains(&("emails_sent".to_string(), 1)), "{:?}", report.metadata);
    for table in ["site_members", "site_invitations", "api_keys", "shared_links"] {
        assert!(report.metadata.contains(&(table.to_string(), 1)), "{table}: {:?}", report.metadata);
    }
    // The share link opens on the cluster by the same address, under whatever secret the cluster signs with.
    let cluster_meta = test_cluster.meta();
    let cluster_auth = crate::auth::Auth::new(
        cluster_meta.clone(),
        b"the cluster's own secret, 32 bytes+",
        tracker.settings.clone(),
        None,
    );
    let links = crate::store::shared_links::SharedLinks::new(
        cluster_meta,
        cluster_auth,
        b"the cluster's own secret, 32 bytes+",
    );
    assert_eq!(links.access(&link.slug, None).unwrap().website.id, fixture.site);
    assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);
    let range = TimeRange::parse("24h", now).unwrap();
    assert!(fixture.tracker.analytics().totals(fixture.site, range).unwrap().pageviews > 3);
    let heatmap_rows = ["heatmap_points", "form_field_events", "scroll_depths"].map(|t| count_sqlite(&fixture, t));
    assert!(heatmap_rows.iter().all(|rows| *rows > 10), "{heatmap_rows:?}");
    assert_eq!(report.heatmap_rows, heatmap_rows.iter().sum::<u64>());
    assert_heatmaps_equal(&fixture, &cluster, now);
    assert_recordings_equal(&fixture, &test_cluster.meta());
    assert_imports_equal(&fixture, &cluster, umami);

    let funnels = Funnels::new(
        test_cluster.meta(),
        crate::events::clickhouse_engine(&test_cluster, fixture.tracker.db()),
        Websites::new(test_cluster.meta()),
    );
    let listed = |f: Vec<crate::store::funnels::Funnel>| f.into_iter().map(comparable_funnel).collect::<Vec<_>>();
    let expected = listed(fixture.tracker.funnels.list(fixture.user.id, None, range, &Filters::none()).unwrap());
    assert!(expected[0].total_visitors > 0, "{expected:?}");
    assert_eq!(listed(funnels.list(fixture.user.id, None, range, &Filters::none()).unwrap()), expected);

    // Ids are kept, and none SQLite ever gave (the deleted site's included) is handed out again.
    let (key, next_site): (String, i64) = cluster
        .pg
        .with(|c| {
            let key = c.query_one("SELECT tracking_key FROM websites WHERE id = $1", &[&fixture.site])?.get(0);
            let next = c
                .query_one(
                    "INSERT INTO websites (user_id, name, domain, tracking_key, created_at)
                     VALUES ($1, 'New', 'new.example.com', 'new-key', 0) RETURNING id",
                    &[&fixture.user.id],
                )?
                .get(0);
            Ok((key, next))
        })
        .unwrap();
    let website = fixture.tracker.websites.get(fixture.user.id, fixture.site).unwrap();
    assert_eq!(key, website.tracking_key);
    assert!(next_site > fixture.site + 1, "{next_site}");

    let again = migrate_to_cluster(fixture.tracker.db(), &cluster, "folder-a", &mut |_| {});
    assert!(matches!(again, Err(Error::Conflict(_))), "{again:?}");
    let other = migrate_to_cluster(fixture.tracker.db(), &cluster, "folder-b", &mut |_| {});
    assert!(matches!(other, Err(Error::Conflict(_))), "{other:?}");
}

#[test]
fn an_interrupted_copy_carries_on_without_storing_a_row_twice() {
    let Some(test_cluster) = fresh() else { return };
    let now = now_ms();
    let fixture = seeded_folder(now);
    let umami = import_history(&fixture);
    let cluster = open(&test_cluster);
    let events = count_sqlite(&fixture, "events");
    // Interrupted after storing its third chunk of 50 and before recording it.
    let first = copy(fixture.tracker.db(), &cluster, "folder", &mut |_| {}, 50, Some(3)).unwrap();
    assert_eq!(first.events, 100, "{first:?}");
    let stored = test_cluster.local_rows(0, "1") + test_cluster.local_rows(1, "1");
    assert!(stored >= 150, "the third chunk is on the shards: {stored}");

    let mut seen = Vec::new();
    let second = copy(fixture.tracker.db(), &cluster, "folder", &mut |p| seen.push(p), 50, None).unwrap();
    assert!(second.resumed && second.metadata.is_empty(), "{second:?}");
    assert_eq!(first.events + second.events, events);
    let stored = test_cluster.local_rows(0, "visit_id != 0 AND kind != 'touch'")
        + test_cluster.local_rows(1, "visit_id != 0 AND kind != 'touch'");
    assert_eq!(stored, events, "each event once");
    assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);
    assert_heatmaps_equal(&fixture, &cluster, now);
    assert_recordings_equal(&fixture, &test_cluster.meta());
    assert_imports_equal(&fixture, &cluster, umami);

    // Interrupted in a site's last phase, after it stored the imported aggregates: the repeat stores each
    // once. The first run copied the import records; the second the aggregates.
    assert_eq!((first.imports, second.imports, first.imported_days), (2, 0, 0), "{first:?} {second:?}");
    assert_eq!(second.imported_days, count_sqlite(&fixture, "imported_rollups"));
    cluster
        .pg
        .with(|c| {
            c.execute("UPDATE migrated_sites SET done = FALSE WHERE website_id = $1", &[&fixture.site])?;
            c.execute("UPDATE migrated_from SET finished_at = NULL", &[])?;
            Ok(())
        })
        .unwrap();
    let third = copy(fixture.tracker.db(), &cluster, "folder", &mut |_| {}, 50, None).unwrap();
    assert!(third.imported_days > 0, "{third:?}");
    assert_imports_equal(&fixture, &cluster, umami);
    assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);
}
