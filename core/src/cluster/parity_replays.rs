//! Heatmaps read from ClickHouse against SQLite's on the same hits and interactions bodies, at the core: clicks
//! with and without offsets, moves, submits, form fields left filled, empty or abandoned, and scroll depths
//! raised by later reports of one page view, sent in time order between the seeded hits.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::seeded::seeded_hits;
use super::testing::{fresh, store_all_in_both};
use crate::analytics::TimeRange;
use crate::ingest::interactions::{FieldEvent, FieldKind, Interactions, Point, PointKind};
use crate::ingest::{EventKind, Hit};
use crate::model::{Millis, now_ms};
use crate::testing::one_site;

/// After some of the page views among `hits`, one to three interactions bodies of that page a few seconds apart
/// (the scripts send one as the visitor scrolls on), none after `now`.
pub(super) fn seeded_bodies(hits: &[Hit], now: Millis) -> Vec<Interactions> {
    let mut rng = StdRng::seed_from_u64(1_818_003);
    let mut bodies = Vec::new();
    for hit in hits {
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
            bodies.push(Interactions { visit, viewport: (page.0, 900), page, points, fields, scroll_depth });
        }
    }
    bodies
}

#[test]
fn heatmaps_equal_sqlites_on_the_same_hits_and_interactions() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let now = now_ms();
    let hits = seeded_hits(fixture.site, now);
    let bodies = seeded_bodies(&hits, now);
    store_all_in_both(&fixture, &cluster, hits, bodies);
    let (sqlite, events, site) = (&fixture.tracker.analytics(), cluster.events(), fixture.site);
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
