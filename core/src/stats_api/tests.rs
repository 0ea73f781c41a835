//! The Stats API's query checks: bad fields named, Plausible's named ranges, conversion-rate needs.

use chrono::NaiveDate;
use chrono_tz::Tz;

use super::*;

fn parse(body: Value) -> Result<StatsQuery> {
    StatsQuery::parse(&body, 1_764_300_000_000, chrono_tz::Tz::UTC, || Ok(None))
}

fn message(body: Value) -> String {
    match parse(body) {
        Err(Error::Invalid(m)) => m,
        other => panic!("should be refused: {other:?}"),
    }
}

#[test]
fn bad_queries_name_the_field() {
    let site = |extra: Value| {
        let mut body = json!({"site_id": "a.example", "metrics": ["visitors"], "date_range": "7d"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    assert!(message(json!({"metrics": ["visitors"], "date_range": "7d"})).contains("site_id"));
    assert!(message(site(json!({"metrics": ["visitorz"]}))).contains("metrics: unknown metric \"visitorz\""));
    let time = "metrics: Metric `time_on_page` can only be queried with event:page filters or dimensions.";
    assert_eq!(message(site(json!({"metrics": ["visits", "time_on_page"]}))), time);
    assert!(parse(site(json!({"metrics": ["time_on_page"], "dimensions": ["time", "event:page"]}))).is_ok());
    let on_page_by_source =
        json!({"metrics": ["time_on_page"], "dimensions": ["visit:source"], "filters": [["is", "event:page", ["/"]]]});
    assert!(parse(site(on_page_by_source)).is_ok(), "a page's time per visit source");
    let scroll = "metrics: Metric `scroll_depth` can only be queried with event:page filters or dimensions.";
    assert_eq!(message(site(json!({"metrics": ["scroll_depth"]}))), scroll);
    let deep_page = json!([["not", ["is", "event:page", ["/"]]]]);
    assert_eq!(message(site(json!({"metrics": ["scroll_depth"], "filters": deep_page}))), scroll, "top level only");
    assert!(parse(site(json!({"metrics": ["scroll_depth"], "filters": [["is", "event:page", ["/"]]]}))).is_ok());
    assert!(parse(site(json!({"metrics": ["scroll_depth"], "dimensions": ["event:page", "time:day"]}))).is_ok());
    let by_source =
        json!({"metrics": ["scroll_depth"], "dimensions": ["visit:source"], "filters": [["is", "event:page", ["/"]]]});
    assert!(parse(site(by_source)).is_ok(), "a page's scroll depth per visit source");
    assert!(message(site(json!({"metrics": ["conversion_rate"]}))).contains("needs an event:goal"));
    let goal_in_group = json!([["or", [["is", "event:goal", ["a"]], ["is", "event:page", ["/"]]]]]);
    assert!(message(site(json!({"metrics": ["conversion_rate"], "filters": goal_in_group}))).contains("apart"));
    assert!(parse(site(json!({"metrics": ["group_conversion_rate"], "dimensions": ["event:goal"]}))).is_ok());
    assert!(message(site(json!({"date_range": "fortnight"}))).contains("date_range"));
    assert!(message(site(json!({"date_range": ["2026-02-01", "2026-01-01"]}))).contains("after"));
    assert!(message(site(json!({"dimensions": ["visit:planet"]}))).contains("dimensions: unknown filter dimension"));
    assert!(message(site(json!({"filters": [["is", "visit:planet", ["x"]]]}))).starts_with("filters:"));
    assert!(message(site(json!({"order_by": [["pageviews", "desc"]]}))).contains("order_by"));
    assert!(message(site(json!({"pagination": {"limit": 0}}))).contains("pagination.limit"));
    assert!(message(site(json!({"metrics": ["percentage"]}))).contains("percentage"));
    assert!(message(site(json!({"metrics": ["bounce_rate"], "dimensions": ["event:page"]}))).contains("visit's"));
    assert!(message(site(json!({"dimensions": ["event:page", "visit:source"]}))).contains("not both"));
    assert!(message(site(json!({"dimensions": ["time:day", "time:hour"]}))).contains("one time"));
    assert!(message(site(json!({"colour": 1}))).contains("unknown field \"colour\""));
}

#[test]
fn named_ranges_are_plausibles() {
    let range = |name: &str| parse(json!({"site_id": "a", "metrics": ["visits"], "date_range": name})).unwrap().range;
    // 2025-11-28 03:20 UTC.
    let day = |s: &str| {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap().and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis()
    };
    assert_eq!((range("6mo").start, range("6mo").end), (day("2025-06-01"), day("2025-11-29")));
    assert_eq!(range("12mo").start, day("2024-12-01"));
    assert_eq!(range("91d").start, day("2025-08-30"));
    assert_eq!(range("day").grain, Grain::Hour);
    assert_eq!(time_label(day("2025-11-27") + 13 * 3_600_000, TimeUnit::Hour, Tz::UTC), "2025-11-27 13:00:00");
    assert_eq!(time_label(day("2025-11-27"), TimeUnit::Week, Tz::UTC), "2025-11-24");
    assert_eq!(labels(range("month"), TimeUnit::Month), ["2025-11-01"]);
}

#[test]
fn dates_are_the_sites_local_days() {
    let india: Tz = "Asia/Kolkata".parse().unwrap();
    let query = |range: Value| {
        let body = json!({"site_id": "a", "metrics": ["visits"], "date_range": range});
        StatsQuery::parse(&body, 1_764_300_000_000, india, || Ok(None)).unwrap()
    };
    let at = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap().timestamp_millis();
    // 2025-11-28 03:20 UTC is 08:50 in India: its today began at 18:30 UTC the day before.
    let today = query(json!("day"));
    assert_eq!((today.range.start, today.range.end), (at("2025-11-27T18:30:00Z"), at("2025-11-28T18:30:00Z")));
    assert_eq!(today.echo["date_range"], json!(["2025-11-28T00:00:00+05:30", "2025-11-28T23:59:59+05:30"]));
    let pair = query(json!(["2025-11-01", "2025-11-02"]));
    assert_eq!((pair.range.start, pair.range.end), (at("2025-10-31T18:30:00Z"), at("2025-11-02T18:30:00Z")));
    assert_eq!(time_label(at("2025-11-27T18:30:00Z"), TimeUnit::Hour, india), "2025-11-28 00:00:00");
    assert_eq!(time_label(at("2025-11-27T18:30:00Z"), TimeUnit::Day, india), "2025-11-28");
    assert_eq!(labels(pair.range, TimeUnit::Day), ["2025-11-01", "2025-11-02"]);
}
