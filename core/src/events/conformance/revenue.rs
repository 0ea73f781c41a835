//! `filtered_revenue` on every engine: the values conversions carry, summed to the cent per currency and per
//! group of a visit's or an event's dimension, among what a filter admits.

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::TimeRange;
use crate::events::filtered::{BreakdownBy, CountOf, GroupBy, Rank};
use crate::events::filters::Filters;
use crate::events::{RevenueRow, RevenueSum};
use crate::ingest::EventKind::{Conversion as Purchase, Pageview};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;

/// Stores, from 40 minutes before `now`, five minutes apart:
/// 1. google.com, DE: /a, a purchase of 10.25 EUR;
/// 2. direct, FR: /p, a purchase of 5.10 EUR, then a plan of 3 USD;
/// 3. google.com, DE: /, a purchase without a value;
/// 4. direct, US: /a, a purchase of 0.125 EUR (13 cents: a half cent rounds up on both engines).
fn seeded(engine: &Engine, now: Millis) {
    let base = (now - 40 * MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, referrer_host, country, hits| Visit {
        visitor,
        start: base + visitor as Millis * 5 * MINUTE,
        referrer_host,
        utm_source: "",
        country,
        device: "desktop",
        hits,
    };
    let visits = [
        visit(1, "google.com", "DE", &[(0, Pageview, "", "/a"), (10, Purchase, "purchase", "/a")]),
        visit(2, "", "FR", &[(0, Pageview, "", "/p"), (10, Purchase, "purchase", "/p"), (20, Purchase, "plan", "/p")]),
        visit(3, "google.com", "DE", &[(0, Pageview, "", "/"), (5, Purchase, "purchase", "/")]),
        visit(4, "", "US", &[(0, Pageview, "", "/a"), (10, Purchase, "purchase", "/a")]),
    ];
    let mut hits = hits_of(engine.site, &visits);
    for hit in hits.iter_mut().filter(|h| h.kind == Some(Purchase)) {
        let visitor = &hit.session_key[hit.session_key.len() - 1..];
        (hit.value, hit.currency) = match (visitor, hit.name.as_str()) {
            ("1", _) => (Some(10.25), Some("EUR".into())),
            ("2", "purchase") => (Some(5.10), Some("EUR".into())),
            ("2", _) => (Some(3.0), Some("USD".into())),
            ("3", _) => (None, None),
            _ => (Some(0.125), Some("EUR".into())),
        };
    }
    engine.store(hits);
}

fn sums(rows: &[(&[&str], &str, i64, i64)]) -> Vec<RevenueSum> {
    rows.iter()
        .map(|(keys, currency, cents, conversions)| RevenueSum {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            currency: currency.to_string(),
            cents: *cents,
            conversions: *conversions,
        })
        .collect()
}

#[test]
fn every_engine_sums_the_values_of_conversions_per_currency_and_group() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    let filters = |raw: &str| Filters::parse(Some(raw)).unwrap();
    let group = |dims: &[&str]| {
        let fields = dims.iter().map(|d| crate::events::filters::Field::parse(d).unwrap()).collect();
        GroupBy::new(fields, false, Rank::Count(CountOf::Events)).unwrap()
    };
    for engine in engines() {
        seeded(&engine, now);
        let events = &*engine.events;
        let revenue = |raw: &str, dims: &[&str]| {
            events.filtered_revenue(engine.site, range, &filters(raw), &group(dims), 100).unwrap()
        };
        let name = engine.name;
        assert_eq!(revenue("[]", &[]), sums(&[(&[], "EUR", 1548, 3), (&[], "USD", 300, 1)]), "{name}: totals");
        assert_eq!(
            revenue("[]", &["visit:source"]),
            sums(&[(&["Google"], "EUR", 1025, 1), (&[""], "EUR", 523, 2), (&[""], "USD", 300, 1)]),
            "{name}: by source"
        );
        assert_eq!(
            revenue("[]", &["event:goal"]),
            sums(&[(&["purchase"], "EUR", 1548, 3), (&["plan"], "USD", 300, 1)]),
            "{name}: by goal"
        );
        assert_eq!(
            revenue(r#"[["is","visit:country",["FR"]]]"#, &["event:goal"]),
            sums(&[(&["purchase"], "EUR", 510, 1), (&["plan"], "USD", 300, 1)]),
            "{name}: by goal in France"
        );
        // An event condition keeps the visits holding such an event and, of them, the admitted conversions.
        assert_eq!(
            revenue(r#"[["is","event:goal",["plan"]]]"#, &["visit:country"]),
            sums(&[(&["FR"], "USD", 300, 1)]),
            "{name}: plans by country"
        );
        assert_eq!(
            revenue(r#"[["is","event:page",["/a"]]]"#, &[]),
            sums(&[(&[], "EUR", 1038, 2)]),
            "{name}: conversions on /a"
        );
        assert_eq!(
            revenue(r#"[["is","visit:country",["DE"]]]"#, &["visit:country"]),
            sums(&[(&["DE"], "EUR", 1025, 1)])
        );
        assert_eq!(revenue(r#"[["is","visit:city",["Nowhere"]]]"#, &[]), sums(&[]), "{name}: nothing admitted");

        let by = BreakdownBy::parse("source").unwrap();
        let rows = events.revenue_where(engine.site, range, &Filters::none(), &by, 2).unwrap();
        let row = |value: &str, currency: &str, amount, conversions| RevenueRow {
            value: value.into(),
            currency: currency.into(),
            amount,
            conversions,
        };
        assert_eq!(rows, vec![row("Google", "EUR", 10.25, 1), row("", "EUR", 5.23, 2)], "{name}: the panel's rows");
    }
}
