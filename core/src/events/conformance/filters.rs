//! `FilteredReads` on every engine: a corpus of filters over four visits whose every filtered figure is known by
//! construction, breakdowns by dimensions no rollup holds, and the recent activity a filter admits.

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::{Compare, DimensionCount, PageViews, TimeRange, Totals};
use crate::events::filtered::{BreakdownBy, CountOf, GroupBy, Rank};
use crate::events::filters::Filters;
use crate::ingest::EventKind::{Conversion as Purchase, Custom, Pageview};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;

/// Stores, from 40 minutes before `now`, five minutes apart:
/// 1. google.com, DE, desktop: /a, /blog/x 20 s later, a purchase there 10 s later (30 s long);
/// 2. direct, FR, mobile: /blog/y, a signup there 10 s later with plan=pro (a bounce, 10 s);
/// 3. direct, FR, mobile: / (a bounce);
/// 4. news.example, US, tablet, browser 118 on OS 10.15: /a, /c 15 s later, a signup there 10 s later with
///    plan=free (25 s).
pub(super) fn seeded(engine: &Engine, now: Millis) {
    let base = (now - 40 * MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, referrer_host, country, device, hits| Visit {
        visitor,
        start: base + visitor as Millis * 5 * MINUTE,
        referrer_host,
        utm_source: "",
        country,
        device,
        hits,
    };
    let visits = [
        visit(
            1,
            "google.com",
            "DE",
            "desktop",
            &[(0, Pageview, "", "/a"), (20, Pageview, "", "/blog/x"), (30, Purchase, "purchase", "/blog/x")],
        ),
        visit(2, "", "FR", "mobile", &[(0, Pageview, "", "/blog/y"), (10, Custom, "signup", "/blog/y")]),
        visit(3, "", "FR", "mobile", &[(0, Pageview, "", "/")]),
        visit(
            4,
            "news.example",
            "US",
            "tablet",
            &[(0, Pageview, "", "/a"), (15, Pageview, "", "/c"), (25, Custom, "signup", "/c")],
        ),
    ];
    let mut hits = hits_of(engine.site, &visits);
    for hit in hits.iter_mut().filter(|h| h.session_key.ends_with("004")) {
        (hit.browser_version, hit.os_version) = ("118".into(), "10.15".into());
    }
    for hit in hits.iter_mut().filter(|h| h.name == "signup") {
        let plan = if hit.path == "/c" { "free" } else { "pro" };
        hit.properties = Some(format!(r#"{{"plan":"{plan}","n":3}}"#));
    }
    engine.store(hits);
}

fn filters(raw: &str) -> Filters {
    Filters::parse(Some(raw)).unwrap()
}

/// (visits, visitors, page views, events, conversions, bounces, duration in seconds).
fn figures(t: Totals) -> [i64; 7] {
    [t.visits, t.visitors, t.pageviews, t.events, t.conversions, t.bounces, t.duration_s]
}

#[test]
fn every_engine_counts_what_each_filter_admits() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    // Each filter with (visits, visitors, page views, events, conversions, bounces, duration).
    let corpus: &[(&str, [i64; 7])] = &[
        ("[]", [4, 4, 6, 2, 1, 2, 65]),
        (r#"[["is","visit:country",["FR"]]]"#, [2, 2, 2, 1, 0, 2, 10]),
        (r#"[["contains","event:page",["/blog"]]]"#, [2, 2, 2, 1, 1, 1, 40]),
        (r#"[["contains","event:page",["/BLOG"],{"case_sensitive":false}]]"#, [2, 2, 2, 1, 1, 1, 40]),
        (r#"[["is","visit:country",["FR"]],["is","event:name",["signup"]]]"#, [1, 1, 0, 1, 0, 1, 10]),
        (r#"[["is_not","visit:device",["mobile"]]]"#, [2, 2, 4, 1, 1, 0, 55]),
        (r#"[["or",[["is","visit:country",["DE"]],["is","visit:device",["tablet"]]]]]"#, [2, 2, 4, 1, 1, 0, 55]),
        (r#"[["not",["is","visit:country",["FR"]]]]"#, [2, 2, 4, 1, 1, 0, 55]),
        (r#"[["is","event:props:plan",["pro"]]]"#, [1, 1, 0, 1, 0, 1, 10]),
        (r#"[["is","event:props:n",[3]]]"#, [2, 2, 0, 2, 0, 1, 35]),
        (r#"[["is","visit:entry_page",["/a"]]]"#, [2, 2, 4, 1, 1, 0, 55]),
        (r#"[["is","visit:exit_page",["/c"]]]"#, [1, 1, 2, 1, 0, 0, 25]),
        (r#"[["is","visit:referrer",["google.com"]]]"#, [1, 1, 2, 0, 1, 0, 30]),
        (r#"[["is","visit:source",["Direct / None"]]]"#, [2, 2, 2, 1, 0, 2, 10]),
        (r#"[["is","event:goal",["purchase"]]]"#, [1, 1, 0, 0, 1, 0, 30]),
        (
            r#"[["contains_not","event:page",["/blog","/c"]],["is","visit:device",["desktop","tablet"]]]"#,
            [2, 2, 2, 0, 0, 0, 55],
        ),
        (r#"[["is","visit:city",["Nowhere"]]]"#, [0, 0, 0, 0, 0, 0, 0]),
        (r#"[["is","visit:browser_version",["118"]],["contains","visit:os_version",["10."]]]"#, [1, 1, 2, 1, 0, 0, 25]),
    ];
    for engine in engines() {
        seeded(&engine, now);
        for (raw, expected) in corpus {
            let totals = engine.events.filtered_totals(engine.site, range, &filters(raw)).unwrap();
            assert_eq!(figures(totals), *expected, "{}: {raw}", engine.name);
        }
    }
}

#[test]
fn every_engine_assembles_filtered_cards_chart_and_breakdowns() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    let rows = |r: &[(&str, i64)]| -> Vec<DimensionCount> {
        r.iter().map(|(v, n)| DimensionCount { value: v.to_string(), count: *n }).collect()
    };
    for engine in engines() {
        seeded(&engine, now);
        let events = &*engine.events;
        let blog = filters(r#"[["contains","event:page",["/blog"]]]"#);
        let overview = events.overview_where(engine.site, range, &blog, None).unwrap();
        assert_eq!(
            (overview.metrics.total_visitors, overview.metrics.page_views, overview.metrics.conversions),
            (2, 2, 1),
            "{}",
            engine.name
        );
        assert_eq!(overview.metrics.bounce_rate, 50.0, "{}", engine.name);
        assert_eq!(
            overview.top_pages,
            vec![PageViews { url: "/blog/x".into(), views: 1 }, PageViews { url: "/blog/y".into(), views: 1 }],
            "{}",
            engine.name
        );
        assert_eq!(overview.imported, None);

        let bought = events.conversions_where(engine.site, range, &blog).unwrap();
        let listed: Vec<_> =
            bought.conversions.iter().map(|c| (c.goal_name.as_str(), c.value, c.currency.as_deref())).collect();
        assert_eq!(listed, [("purchase", Some(10.0), Some("EUR"))], "{}", engine.name);
        assert_eq!(bought.conversion_rate, 50.0, "{}: one of the two /blog visits bought", engine.name);

        let french = filters(r#"[["is","visit:country",["FR"]]]"#);
        let none = events.conversions_where(engine.site, range, &french).unwrap();
        assert_eq!((none.conversions.len(), none.conversion_rate), (0, 0.0), "{}", engine.name);
        let chart = events.timeseries_where(engine.site, range, &french, Some(Compare::PreviousPeriod)).unwrap();
        let earlier = chart.comparison.as_ref().expect("the compared period's points");
        assert_eq!(earlier.len(), 7, "{}", engine.name);
        assert!(
            earlier.iter().all(|p| p.visitors == 0 && p.page_views == 0),
            "{}: nothing the week before",
            engine.name
        );
        let a_year_before = events.overview_where(engine.site, range, &french, Some(Compare::YearOverYear)).unwrap();
        assert_eq!(
            (a_year_before.metrics.total_visitors, a_year_before.previous.total_visitors),
            (2, 0),
            "{}",
            engine.name
        );
        let sums = chart.points.iter().fold((0, 0), |(v, p), point| (v + point.visitors, p + point.page_views));
        assert_eq!(sums, (2, 2), "{}", engine.name);
        assert_eq!(chart.points.len(), 7, "{}", engine.name);

        let by = |name: &str| BreakdownBy::parse(name).unwrap();
        let none = Filters::none();
        let check = |f: &Filters, dim: &str, expected: &[(&str, i64)]| {
            let got = events.breakdown_where(engine.site, range, f, &by(dim), 10).unwrap();
            assert_eq!(got, rows(expected), "{}: {dim}", engine.name);
        };
        check(&french, "source", &[("", 2)]);
        check(&filters(r#"[["is_not","visit:device",["mobile"]]]"#), "page", &[("/a", 2), ("/blog/x", 1), ("/c", 1)]);
        check(&none, "prop:plan", &[("free", 1), ("pro", 1)]);
        check(&none, "entry_page", &[("/a", 2), ("/", 1), ("/blog/y", 1)]);
        check(&none, "exit_page", &[("/", 1), ("/blog/x", 1), ("/blog/y", 1), ("/c", 1)]);
        check(&none, "event", &[("signup", 2), ("purchase", 1)]);
        check(&blog, "country", &[("DE", 1), ("FR", 1)]);
        check(&none, "device", &[("mobile", 2), ("desktop", 1), ("tablet", 1)]);

        let sources = events.traffic_sources_where(engine.site, range, &french).unwrap();
        assert_eq!(sources.len(), 1, "{}", engine.name);
        assert_eq!((sources[0].source.as_str(), sources[0].visits, sources[0].percentage), ("Direct", 2, 100.0));
        let referrers = events.referrers_where(engine.site, range, &blog).unwrap();
        let referrers: Vec<_> = referrers.iter().map(|r| (r.referrer.as_str(), r.count)).collect();
        assert_eq!(referrers, [("", 1), ("google.com", 1)], "{}", engine.name);
    }
}

#[test]
fn every_engine_totals_each_group_and_bucket() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    for engine in engines() {
        seeded(&engine, now);
        let events = &*engine.events;
        let groups = |group: GroupBy, f: &Filters| -> Vec<(Vec<String>, [i64; 7])> {
            let rows = events.filtered_groups(engine.site, range, f, &group, 100).unwrap();
            rows.into_iter().map(|(keys, t)| (keys, figures(t))).collect()
        };
        let by = |dim: &str| BreakdownBy::parse(dim).unwrap().group();
        let named = |rows: &[(&[&str], [i64; 7])]| -> Vec<(Vec<String>, [i64; 7])> {
            rows.iter().map(|(keys, f)| (keys.iter().map(|k| k.to_string()).collect(), *f)).collect()
        };
        // (visits, visitors, page views, events, conversions, bounces, duration)
        assert_eq!(
            groups(by("country"), &Filters::none()),
            named(&[
                (&["FR"], [2, 2, 2, 1, 0, 2, 10]),
                (&["DE"], [1, 1, 2, 0, 1, 0, 30]),
                (&["US"], [1, 1, 2, 1, 0, 0, 25])
            ]),
            "{}",
            engine.name
        );
        assert_eq!(
            groups(by("device"), &filters(r#"[["contains","event:page",["/blog"]]]"#)),
            named(&[(&["desktop"], [1, 1, 1, 0, 1, 0, 30]), (&["mobile"], [1, 1, 1, 1, 0, 1, 10])]),
            "{}: a visit group counts only its admitted events",
            engine.name
        );
        assert_eq!(
            groups(by("page"), &Filters::none()),
            named(&[
                (&["/a"], [2, 2, 2, 0, 0, 0, 0]),
                (&["/"], [1, 1, 1, 0, 0, 0, 0]),
                (&["/blog/x"], [1, 1, 1, 0, 1, 0, 0]),
                (&["/blog/y"], [1, 1, 1, 1, 0, 0, 0]),
                (&["/c"], [1, 1, 1, 1, 0, 0, 0]),
            ]),
            "{}",
            engine.name
        );
        let two = |a: &str, b: &str, rank| {
            let field = |d: &str| BreakdownBy::parse(d).unwrap().field;
            GroupBy::new(vec![field(a), field(b)], false, rank).unwrap()
        };
        assert_eq!(
            groups(two("country", "device", Rank::Keys), &Filters::none()),
            named(&[
                (&["DE", "desktop"], [1, 1, 2, 0, 1, 0, 30]),
                (&["FR", "mobile"], [2, 2, 2, 1, 0, 2, 10]),
                (&["US", "tablet"], [1, 1, 2, 1, 0, 0, 25]),
            ]),
            "{}: two visit fields, in key order",
            engine.name
        );
        assert_eq!(
            groups(two("prop:plan", "page", Rank::Count(CountOf::AllEvents)), &Filters::none()),
            named(&[(&["free", "/c"], [1, 1, 0, 1, 0, 0, 0]), (&["pro", "/blog/y"], [1, 1, 0, 1, 0, 0, 0])]),
            "{}: two event fields, events without the property left out",
            engine.name
        );
        let buckets = groups(GroupBy::new(vec![], true, Rank::Keys).unwrap(), &Filters::none());
        let sum = buckets.iter().fold([0; 7], |mut acc, (_, t)| {
            acc.iter_mut().zip(t).for_each(|(a, b)| *a += b);
            acc
        });
        assert_eq!(sum, [4, 4, 6, 2, 1, 2, 65], "{}", engine.name);
        let day = |keys: &Vec<String>| keys[0].parse::<i64>().unwrap();
        assert!(
            buckets
                .iter()
                .all(|(k, _)| day(k) % 86_400 == 0 && (range.start / 1000..range.end / 1000).contains(&day(k)))
        );
        let by_day = groups(
            GroupBy::new(vec![BreakdownBy::parse("page").unwrap().field], true, Rank::Keys).unwrap(),
            &Filters::none(),
        );
        assert_eq!(by_day.iter().map(|(_, t)| t[2]).sum::<i64>(), 6, "{}: page views by page and day", engine.name);
    }
}

#[test]
fn every_engine_sums_the_events_a_filter_admits() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    let definitions = || Ok(vec![(1, "signup".to_string()), (2, "purchase".to_string()), (3, "never".to_string())]);
    for engine in engines() {
        seeded(&engine, now);
        let summary = |raw: &str| engine.events.events_summary_where(engine.site, range, &filters(raw), definitions);
        let counted = |s: &crate::analytics::EventSummary| {
            let top: Vec<(String, i64)> = s.top_events.iter().map(|e| (e.name.clone(), e.count)).collect();
            let triggers: Vec<(i64, i64)> = s.definition_triggers.iter().map(|d| (d.id, d.count)).collect();
            (s.total_events, s.unique_events, s.conversion_events, top, triggers)
        };
        let french = summary(r#"[["is","visit:country",["FR"]]]"#).unwrap();
        assert_eq!(
            counted(&french),
            (1, 1, 0, vec![("signup".into(), 1)], vec![(1, 1), (2, 0), (3, 0)]),
            "{}",
            engine.name
        );
        let not_mobile = summary(r#"[["is_not","visit:device",["mobile"]]]"#).unwrap();
        assert_eq!(
            counted(&not_mobile),
            (2, 2, 1, vec![("purchase".into(), 1), ("signup".into(), 1)], vec![(1, 1), (2, 1), (3, 0)]),
            "{}",
            engine.name
        );
        let pro = summary(r#"[["is","event:props:plan",["pro"]]]"#).unwrap();
        assert_eq!((pro.total_events, pro.top_events.len()), (1, 1), "{}", engine.name);
        assert_eq!(summary(r#"[["is","visit:city",["Nowhere"]]]"#).unwrap().total_events, 0, "{}", engine.name);
    }
}

#[test]
fn every_engine_lists_the_recent_activity_a_filter_admits() {
    let now = now_ms();
    for engine in engines() {
        seeded(&engine, now);
        let listed = |raw: &str, limit: i64| -> Vec<(String, String, String)> {
            let items = engine.events.recent_activity_where(engine.site, &filters(raw), limit).unwrap();
            let path = |url: &str| url.trim_start_matches("https://s.example.com").to_string();
            items.into_iter().map(|a| (a.kind, a.name, path(&a.url))).collect()
        };
        let item = |kind: &str, name: &str, path: &str| (kind.to_string(), name.to_string(), path.to_string());
        // The French visits' items, newest first, with their visit's country.
        assert_eq!(
            listed(r#"[["is","visit:country",["FR"]]]"#, 50),
            [item("pageview", "", "/"), item("custom", "signup", "/blog/y"), item("pageview", "", "/blog/y")],
            "{}",
            engine.name
        );
        let french =
            engine.events.recent_activity_where(engine.site, &filters(r#"[["is","visit:country",["FR"]]]"#), 50);
        assert!(french.unwrap().iter().all(|a| a.country == "FR"), "{}", engine.name);
        // Event conditions keep the items passing them, of every visit; the limit counts admitted items.
        assert_eq!(
            listed(r#"[["is","event:name",["signup"]]]"#, 50),
            [item("custom", "signup", "/c"), item("custom", "signup", "/blog/y")],
            "{}",
            engine.name
        );
        assert_eq!(
            listed(r#"[["is","visit:entry_page",["/a"]],["is","event:page",["/blog/x","/a"]]]"#, 2),
            [item("pageview", "", "/a"), item("conversion", "purchase", "/blog/x")],
            "{}",
            engine.name
        );
        assert!(listed(r#"[["is","visit:city",["Nowhere"]]]"#, 50).is_empty(), "{}", engine.name);
        let unfiltered = engine.events.recent_activity_where(engine.site, &Filters::none(), 50).unwrap();
        assert_eq!(unfiltered, engine.events.recent_activity(engine.site, 50).unwrap(), "{}", engine.name);
        assert!(
            engine
                .events
                .recent_activity_where(engine.site, &filters(r#"[["is","visit:country",["FR"]]]"#), 51)
                .is_err()
        );
    }
}
