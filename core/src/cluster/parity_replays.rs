//! Heatmaps read from ClickHouse against SQLite's on the same hits and interactions bodies, at the core: clicks
//! with and without offsets, moves, submits, form fields left filled, empty or abandoned, and scroll depths
//! raised by later reports of one page view, sent in time order between the seeded hits.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::oneshot;

use super::ingest_state::IngestState;
use super::parity::seeded_hits;
use super::sink::ClickHouseSink;
use super::testing::{TestCluster, fresh};
use crate::analytics::TimeRange;
use crate::ingest::interactions::{FieldEvent, FieldKind, Interactions, Point, PointKind};
use crate::ingest::live::LiveHub;
use crate::ingest::writer::{Job, Queued, spawn_sink};
use crate::ingest::{EventKind, Hit, Submitted};
use crate::metrics::Metrics;
use crate::model::{Millis, now_ms};
use crate::testing::{OneSite, one_site};

/// A hit or an interactions body, stored through either engine's writer.
#[derive(Clone)]
enum Item {
    Hit(Hit),
    Body(Interactions),
}

impl Item {
    fn ts(&self) -> Millis {
        match self {
            Item::Hit(hit) => hit.ts,
            Item::Body(body) => body.visit.ts,
        }
    }

    fn job(&self) -> Job {
        match self {
            Item::Hit(hit) => Job::Hit(Box::new(hit.clone())),
            Item::Body(body) => Job::Interactions(Box::new(body.clone())),
        }
    }
}

/// The seeded hits, and after some of their page views one to three interactions bodies of that page a few
/// seconds apart (the scripts send one as the visitor scrolls on), in time order.
fn seeded_items(fixture: &OneSite, now: Millis) -> Vec<Item> {
    let mut rng = StdRng::seed_from_u64(1_818_003);
    let hits = seeded_hits(fixture.site, now);
    let mut items = Vec::new();
    for hit in &hits {
        items.push(Item::Hit(hit.clone()));
        if hit.kind != Some(EventKind::Pageview) || rng.random_range(0..3) == 0 {
            continue;
        }
        let page = (1280 + rng.random_range(0..3) * 320, 2000 + rng.random_range(0..4) * 700);
        let mut depth = rng.random_range(0..60);
        for body in 0..rng.random_range(1..=3) {
            let ts = hit.ts + 1000 + body * 2000;
            if ts > now {
                break;
            }
            let click = |rng: &mut StdRng, n: i64| {
                let selector = ["#buy", "nav > a", "", "#hero .cta"][rng.random_range(0..4)];
                Point {
                    kind: PointKind::Click,
                    x: rng.random_range(0..page.0),
                    y: rng.random_range(0..page.1),
                    ts: ts - 900 + n,
                    selector: selector.into(),
                    offset: (rng.random_range(0..3) != 0)
                        .then(|| (rng.random_range(0..=40) as f64 / 40.0, rng.random_range(0..=8) as f64 / 8.0)),
                }
            };
            let mut points: Vec<Point> = (0..rng.random_range(0..4)).map(|n| click(&mut rng, n)).collect();
            for _ in 0..rng.random_range(0..5) {
                points.push(Point {
                    kind: PointKind::Move,
                    x: rng.random_range(0..page.0),
                    y: rng.random_range(0..page.1),
                    ts,
                    selector: String::new(),
                    offset: None,
                });
            }
            let form = ["#signup", "", "#search"][rng.random_range(0..3)];
            let mut fields = Vec::new();
            for n in 0..rng.random_range(0..4) {
                let field = ["#email", "#name", "#q"][rng.random_range(0..3)];
                let kind = [FieldKind::Focus, FieldKind::Change, FieldKind::Blur][rng.random_range(0..3)];
                let filled = rng.random_range(0..2) == 0;
                fields.push(FieldEvent { kind, form: form.into(), field: field.into(), filled, ts: ts - 500 + n });
            }
            if !form.is_empty() && rng.random_range(0..3) == 0 {
                points.push(Point {
                    kind: PointKind::Submit,
                    x: 0,
                    y: 0,
                    ts: ts - 100,
                    selector: form.into(),
                    offset: None,
                });
            }
            depth = (depth + rng.random_range(0..30)).min(100);
            let visit = Hit { ts, kind: None, name: String::new(), value: None, currency: None, ..hit.clone() };
            let scroll_depth = (rng.random_range(0..4) != 0).then_some(depth);
            items.push(Item::Body(Interactions { visit, viewport: (page.0, 900), page, points, fields, scroll_depth }));
        }
    }
    items.sort_by_key(Item::ts);
    items
}

/// Stores `items` in order through SQLite's writer and through the cluster's sink.
fn store_in_both(fixture: &OneSite, cluster: &TestCluster, items: &[Item]) {
    for item in items {
        match fixture.tracker.ingest.submit_job(item.job()).unwrap() {
            Submitted::Queued(commit) => commit.wait_blocking().unwrap(),
            Submitted::Ignored => panic!("a seeded item was ignored"),
        }
    }
    let metrics = Metrics::new(&fixture.dir.path().join("none.sqlite"), 10_000);
    let sink = ClickHouseSink::new(
        cluster.events(),
        IngestState::new(cluster.pg()),
        cluster.meta(),
        LiveHub::default(),
        metrics.clone(),
    );
    let (queue, writer) = spawn_sink(sink, metrics, 10_000, 64).unwrap();
    let answers: Vec<_> = items
        .iter()
        .map(|item| {
            let (done, answer) = oneshot::channel();
            queue.send(Queued { job: item.job(), done }).unwrap();
            answer
        })
        .collect();
    for answer in answers {
        answer.blocking_recv().unwrap().unwrap();
    }
    drop(queue);
    drop(writer);
}

#[test]
fn heatmaps_equal_sqlites_on_the_same_hits_and_interactions() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let now = now_ms();
    let items = seeded_items(&fixture, now);
    store_in_both(&fixture, &cluster, &items);
    let (sqlite, events, site) = (&fixture.tracker.analytics, cluster.events(), fixture.site);
    let mut seen = (0, 0, 0, 0, 0);
    for name in ["24h", "7d"] {
        let range = TimeRange::parse(name, now).unwrap();
        for path in ["/p0", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6", "/none"] {
            let expected = sqlite.heatmap(site, path, range).unwrap();
            assert_eq!(events.heatmap(site, path, range).unwrap(), expected, "{name} {path}");
            seen.0 += expected.clicks.len();
            seen.1 += expected.mouse_movements.len();
            seen.2 += expected.form_interactions.iter().filter(|f| f.drop_offs > 0 && f.completions > 0).count();
            seen.3 += expected.scroll_depth.len();
            seen.4 += usize::from(expected.page_metrics.average_time_on_page > 0.0);
        }
    }
    assert!(seen.0 > 50 && seen.1 > 50 && seen.2 > 0 && seen.3 > 0 && seen.4 > 0, "{seen:?}");
    assert_eq!(events.page_urls(site, now).unwrap(), sqlite.page_urls(site).unwrap());
}
