//! The ClickHouse sink's tests on the cluster harness: acknowledged hits on their visitor's shard, a failing
//! shard failing its batch, consent choices and visits shared between daemons.

use tokio::sync::oneshot;

use super::*;
use crate::cluster::testing::{TestCluster, fresh};
use std::sync::mpsc::SyncSender;

use crate::ingest::writer::{WriterHandle, spawn_sink};

/// Two hours ago, on a whole second: live hits (visits idle for a day are pruned).
fn t0() -> i64 {
    (now_ms() - 2 * 3_600_000) / 1000 * 1000
}

fn hit(site: WebsiteId, visitor: u8, ts: i64, path: &str) -> Hit {
    Hit {
        website_id: site,
        session_key: format!("session-{visitor:04}"),
        ts,
        kind: Some(EventKind::Pageview),
        url: format!("https://example.com{path}"),
        path: path.into(),
        visitor_seed: [visitor; 32],
        ..Hit::default()
    }
}

/// A daemon's writer thread with the ClickHouse sink; the queue closes before the thread is joined.
struct Daemon {
    queue: SyncSender<Queued>,
    _writer: WriterHandle,
}

/// A daemon's sink over `events`, and the metrics it reports to.
fn sink(cluster: &TestCluster, events: Events) -> (ClickHouseSink, Metrics) {
    let dir = tempfile::tempdir().unwrap();
    let metrics = Metrics::new(&dir.path().join("none.sqlite"), 10_000);
    let sink = ClickHouseSink::new(
        events,
        IngestState::new(cluster.pg(), crate::cluster::testing::SALT_KEY),
        cluster.meta(),
        LiveHub::default(),
        metrics.clone(),
    );
    (sink, metrics)
}

fn writer(cluster: &TestCluster, events: Events) -> Daemon {
    let (sink, metrics) = sink(cluster, events);
    let (queue, handle) = spawn_sink(sink, metrics, 10_000, 500).unwrap();
    Daemon { queue, _writer: handle }
}

/// Queues every hit, then waits for each answer.
fn send(queue: &SyncSender<Queued>, hits: Vec<Hit>) -> Vec<std::result::Result<(), JobError>> {
    let answers: Vec<_> = hits
        .into_iter()
        .map(|hit| {
            let (done, answer) = oneshot::channel();
            queue.send(Queued { job: Job::Hit(Box::new(hit)), done }).unwrap();
            answer
        })
        .collect();
    answers.into_iter().map(|a| a.blocking_recv().unwrap()).collect()
}

#[test]
fn acknowledged_hits_are_on_their_visitors_shard_and_a_visit_stays_on_one() {
    let Some(cluster) = fresh() else { return };
    cluster.add_site(1);
    let t0 = t0();
    let daemon = writer(&cluster, cluster.events());
    let hits: Vec<Hit> =
        (0..200u32).map(|i| hit(1, (i % 50) as u8, t0 + i64::from(i) * 1000, &format!("/p{}", i % 7))).collect();
    let answers = send(&daemon.queue, hits);
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");

    let events = cluster.events();
    let on = [cluster.local_rows(0, "1"), cluster.local_rows(1, "1")];
    assert_eq!(on[0] + on[1], 200, "every acknowledged hit is stored once: {on:?}");
    assert!(on[0] > 0 && on[1] > 0, "both shards hold rows: {on:?}");
    for (i, node) in events.nodes().iter().enumerate() {
        let misplaced: u64 = node
            .query_value(&format!("SELECT count() FROM {}.hits_local WHERE visitor % 2 != {i}", cluster.database))
            .unwrap();
        assert_eq!(misplaced, 0, "shard {i} holds only its visitors' rows");
    }
    // 50 visitors, each one visit (all within 30 minutes), read through the Distributed table.
    let visits: Vec<Vec<String>> = events.nodes()[0]
        .query(&format!(
            "SELECT uniqExact(visit_id), uniqExact(visitor), uniqExact(session_key) FROM {}.hits",
            cluster.database
        ))
        .unwrap();
    assert_eq!(visits, [["50", "50", "50"]]);
}

/// Each hit row holds its visit's source named at ingest and its user agent's versions (issue 34 item 4,
/// issue 36), as SQLite's visit row does.
#[test]
fn hits_carry_the_named_source_and_the_versions() {
    let Some(cluster) = fresh() else { return };
    cluster.add_site(1);
    let t0 = t0();
    let daemon = writer(&cluster, cluster.events());
    let tagged = |visitor, host: &str, tag: &str| Hit {
        referrer_host: host.into(),
        utm: crate::ingest::Utm { source: tag.into(), ..Default::default() },
        browser: "Chrome".into(),
        browser_version: "118".into(),
        os: "macOS".into(),
        os_version: "10.15".into(),
        ..hit(1, visitor, t0 + i64::from(visitor) * 1000, "/")
    };
    let hits =
        vec![tagged(1, "t.co", ""), tagged(2, "", "LinkedIn"), tagged(3, "news.example.org", ""), tagged(4, "", "")];
    assert!(send(&daemon.queue, hits).iter().all(Result::is_ok));
    let rows: Vec<Vec<String>> = cluster.events().nodes()[0]
        .query(&format!(
            "SELECT source, browser_version, os_version FROM {}.hits ORDER BY session_key",
            cluster.database
        ))
        .unwrap();
    let want = [
        ["Twitter", "118", "10.15"],
        ["LinkedIn", "118", "10.15"],
        ["news.example.org", "118", "10.15"],
        ["", "118", "10.15"],
    ];
    assert_eq!(rows, want);
}

#[test]
fn a_failing_shard_fails_every_hit_of_the_batch_with_503() {
    let Some(cluster) = fresh() else { return };
    cluster.add_site(1);
    let t0 = t0();
    // Shard 2 is unreachable: nothing listens on port 1.
    let urls = [cluster.ch_urls[0].clone(), "http://127.0.0.1:1".to_string()];
    let (mut sink, _) = sink(&cluster, cluster.events().with_nodes(&urls));
    // One batch of visitors on both shards, handed to the sink as the writer hands it: through the writer
    // thread, a busy machine let it take the first hit alone, whose shard may be the reachable one.
    let (batch, answers): (Vec<Queued>, Vec<_>) = (0..40)
        .map(|i| {
            let (done, answer) = oneshot::channel();
            (Queued { job: Job::Hit(Box::new(hit(1, i, t0 + i64::from(i), "/"))), done }, answer)
        })
        .unzip();
    sink.commit_batch(batch);
    let answers: Vec<_> = answers.into_iter().map(|a| a.blocking_recv().unwrap()).collect();
    assert!(answers.iter().all(|a| matches!(a, Err(JobError::Unavailable(_)))), "{answers:?}");
    let error = crate::ingest::outcome_of(answers.into_iter().next().unwrap());
    assert!(matches!(error, Err(Error::Unavailable(_))), "{error:?}");
}

/// Queues jobs, then waits for each answer.
fn send_jobs(queue: &SyncSender<Queued>, jobs: Vec<Job>) -> Vec<std::result::Result<(), JobError>> {
    let answers: Vec<_> = jobs
        .into_iter()
        .map(|job| {
            let (done, answer) = oneshot::channel();
            queue.send(Queued { job, done }).unwrap();
            answer
        })
        .collect();
    answers.into_iter().map(|a| a.blocking_recv().unwrap()).collect()
}

/// Visitor `visitor`'s analytics choice on `site`.
fn choice(site: WebsiteId, visitor: u8, ts: i64, analytics: bool) -> Job {
    Job::Consent(Box::new(ConsentRecord {
        website_id: site,
        session_key: format!("session-{visitor:04}"),
        ts,
        ip_address: Some("198.51.100.0".into()),
        data: crate::privacy::ConsentData { analytics, marketing: false },
    }))
}

#[test]
fn consent_choices_are_shared_and_decide_what_each_daemon_keeps() {
    let Some(cluster) = fresh() else { return };
    let t0 = t0();
    let meta = cluster.meta();
    let settings = crate::settings::Settings::new(crate::Config::default());
    let owner = crate::auth::Auth::new(meta.clone(), b"a test signing secret of 32 bytes or more", settings, None)
        .create_user("owner@example.com", "secret1")
        .unwrap();
    let new =
        crate::store::websites::NewWebsite { name: "C".into(), domain: "c.example.com".into(), tracking_level: None };
    let site = crate::store::websites::Websites::new(meta.clone()).create(owner.id, new).unwrap().id;
    let (a, b) = (writer(&cluster, cluster.events()), writer(&cluster, cluster.events()));
    let on_consent_site = |visitor: u8, ts: i64, path: &str, kind: EventKind| {
        let mut hit = hit(site, visitor, ts, path);
        hit.kind = Some(kind);
        hit.consent_required = true;
        Job::Hit(Box::new(hit))
    };

    // Visitor 1 accepts through A, visitor 2 declines through A; a choice for a deleted site is not found.
    let answers = send_jobs(&a.queue, vec![choice(site, 1, t0, true), choice(site, 2, t0, false)]);
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
    // A choice and hits of a site that does not exist (or was deleted through another daemon after this
    // one cached it) are not found, tracked or anonymous.
    let mut anonymous_gone = hit(site + 1_000, 6, t0, "/gone");
    anonymous_gone.consent_required = true;
    let gone = send_jobs(
        &a.queue,
        vec![
            choice(site + 1_000, 1, t0, true),
            Job::Hit(Box::new(hit(site + 1_000, 5, t0, "/gone"))),
            Job::Hit(Box::new(anonymous_gone)),
        ],
    );
    assert!(gone.iter().all(|answer| matches!(answer, Err(JobError::SiteGone))), "{gone:?}");
    // B takes their hits, and those of visitor 3, who never chose, on the site that requires consent; on
    // a site that does not, visitor 4 declines and views a page in the same batch.
    let answers = send_jobs(
        &b.queue,
        vec![
            on_consent_site(1, t0 + 1_000, "/in-full", EventKind::Pageview),
            on_consent_site(1, t0 + 2_000, "/in-full", EventKind::Custom),
            on_consent_site(2, t0 + 1_000, "/declined", EventKind::Pageview),
            on_consent_site(2, t0 + 2_000, "/declined", EventKind::Conversion),
            on_consent_site(3, t0 + 1_000, "/unasked", EventKind::Pageview),
            on_consent_site(3, t0 + 2_000, "/unasked", EventKind::Custom),
            choice(site, 4, t0 + 500, false),
            Job::Hit(Box::new(hit(site, 4, t0 + 1_000, "/declined-here"))),
        ],
    );
    assert!(answers.iter().all(Result::is_ok), "2xx for each: {answers:?}");

    let rows = |condition: &str| cluster.local_rows(0, condition) + cluster.local_rows(1, condition);
    assert_eq!(rows("session_key = 'session-0001' AND visit_id != 0"), 2, "the consenting visit in full");
    // Without consent: page views as anonymous counts, nothing else.
    let anonymous = "visit_id = 0 AND visitor = 0 AND session_key = '' AND ip_address = '' AND kind = 'pageview'";
    for path in ["/declined", "/unasked", "/declined-here"] {
        assert_eq!(rows(&format!("path = '{path}'")), 1, "{path}");
        assert_eq!(rows(&format!("path = '{path}' AND {anonymous}")), 1, "{path}");
    }
    assert_eq!(rows("1"), 5);
    // The log holds the site's three choices, newest first, whichever daemon took them.
    let logged: Vec<_> = meta.consent_page(site, 0, 100).unwrap().into_iter().map(|l| l.session_id).collect();
    assert_eq!(logged, ["session-0004", "session-0002", "session-0001"]);

    // Heatmap data is kept for the consenting visit, in its visit, and dropped (still 2xx) for the others.
    let interactions = |visitor: u8, path: &str| {
        let mut visit = hit(site, visitor, t0 + 3_000, path);
        visit.consent_required = true;
        Job::Interactions(Box::new(Interactions {
            visit,
            viewport: (1280, 800),
            page: (1280, 2000),
            points: vec![crate::ingest::interactions::Point {
                kind: crate::ingest::interactions::PointKind::Click,
                x: 10,
                y: 20,
                ts: t0 + 3_000,
                selector: "#buy".into(),
                offset: Some((0.5, 0.25)),
            }],
            fields: vec![crate::ingest::interactions::FieldEvent {
                kind: crate::ingest::interactions::FieldKind::Change,
                form: "#order".into(),
                field: "#email".into(),
                filled: true,
                ts: t0 + 3_000,
            }],
            scroll_depth: Some(50),
        }))
    };
    let answers = send_jobs(&a.queue, vec![interactions(1, "/in-full"), interactions(2, "/declined")]);
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
    let stored = |shard: usize, condition: &str| -> u64 {
        cluster.events().nodes()[shard]
            .query_value(&format!("SELECT count() FROM {}.interactions_local WHERE {condition}", cluster.database))
            .unwrap()
    };
    let visit: Vec<Vec<String>> = cluster.events().nodes()[0]
        .query(&format!(
            "SELECT DISTINCT visit_id, visitor FROM {}.hits WHERE session_key = 'session-0001'",
            cluster.database
        ))
        .unwrap();
    let [row] = &visit[..] else { panic!("one visit: {visit:?}") };
    let (visit_id, visitor) = (&row[0], &row[1]);
    let shard = cluster.events().shard_of(visitor.parse().unwrap());
    let in_visit = format!("visit_id = {visit_id} AND visitor = {visitor} AND path = '/in-full'");
    assert_eq!(stored(shard, &in_visit), 3, "a click, a field change and a scroll depth on the visitor's shard");
    assert_eq!(stored(shard, &format!("{in_visit} AND kind = 'click' AND x = 10 AND offset_y = 0.25")), 1);
    assert_eq!(stored(shard, &format!("{in_visit} AND kind = 'change' AND field = '#email' AND filled = 1")), 1);
    assert_eq!(stored(shard, &format!("{in_visit} AND kind = 'scroll' AND depth = 50")), 1);
    assert_eq!(stored(0, "1") + stored(1, "1"), 3, "nothing of the declining visit");

    // Recordings are kept as heatmap data is: in PostgreSQL for the consenting visit (a repeated chunk
    // changes nothing), dropped (still 2xx) for the declining one; a chunk past the recording's limit is
    // refused (413) and touches nothing.
    let chunk = |visitor: u8, seq: i64, bytes: usize| {
        let mut visit = hit(site, visitor, t0 + 4_000, "/in-full");
        visit.consent_required = true;
        let stats = crate::ingest::replay::ChunkStats {
            events: 3,
            clicks: 1,
            first_ts: Some(t0 + 3_500),
            last_ts: Some(t0 + 3_900),
            screen: Some("1280x720".into()),
            inflated: 4_000,
        };
        Job::Replay(Box::new(ReplayChunk { visit, seq, data: vec![7; bytes], is_final: false, stats }))
    };
    let answers = send_jobs(&a.queue, vec![chunk(1, 0, 1_000), chunk(1, 0, 1_000), chunk(2, 0, 1_000)]);
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
    let in_pg = |sql: &str| -> i64 { cluster.pg().with(|c| Ok(c.query_one(sql, &[])?.get(0))).unwrap() };
    assert_eq!(in_pg("SELECT count(*) FROM replay_chunks"), 1, "one chunk of the consenting visit");
    assert_eq!(
        in_pg(&format!(
            "SELECT byte_size + click_count + event_count FROM replays WHERE visit_id = {visit_id}
             AND started_at = {} AND ended_at = {} AND screen = '1280x720'",
            t0 + 3_500,
            t0 + 3_900
        )),
        1_004
    );
    let touches = || cluster.local_rows(shard, &format!("visit_id = {visit_id} AND kind = 'touch'"));
    let touched = touches();
    let too_large = chunk(1, 1, crate::ingest::replay::MAX_RECORDING_BYTES as usize);
    let refused = send_jobs(&a.queue, vec![too_large]);
    assert!(matches!(refused[..], [Err(JobError::Refused(Error::TooLarge(_)))]), "{refused:?}");
    assert_eq!(in_pg("SELECT count(*) FROM replay_chunks"), 1);
    assert_eq!(touches(), touched, "a refused chunk keeps no visit alive");
}

#[test]
fn two_daemons_agree_on_a_visitors_visit_and_the_idle_rule_starts_a_new_one() {
    let Some(cluster) = fresh() else { return };
    cluster.add_site(1);
    let t0 = t0();
    let (first, second) = (writer(&cluster, cluster.events()), writer(&cluster, cluster.events()));
    // The same visitors' hits sent to both daemons at once, round after round.
    std::thread::scope(|s| {
        for (queue, offset) in [(&first.queue, 0), (&second.queue, 500)] {
            s.spawn(move || {
                for round in 0..10 {
                    let hits = (0..20).map(|v| hit(1, v, t0 + round * 60_000 + offset, "/")).collect();
                    assert!(send(queue, hits).iter().all(Result::is_ok));
                }
            });
        }
    });
    // Then 31 minutes of silence, and each visitor comes back: a second visit.
    let later = t0 + 9 * 60_000 + 31 * 60_000 + 1_000;
    assert!(send(&first.queue, (0..20).map(|v| hit(1, v, later, "/back")).collect()).iter().all(Result::is_ok));

    let per_visitor = cluster.events().nodes()[0]
        .query(&format!(
            "SELECT session_key, uniqExact(visit_id), uniqExactIf(visit_id, path = '/back'), count()
             FROM {}.hits GROUP BY session_key ORDER BY session_key",
            cluster.database
        ))
        .unwrap();
    assert_eq!(per_visitor.len(), 20);
    for row in per_visitor {
        assert_eq!(row[1..], ["2", "1", "21"], "{row:?}: one shared visit, then a new one after the idle gap");
    }
}
