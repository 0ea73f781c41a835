//! `tracker stats` over any period and filter: all time, custom days, calendar presets and Plausible-syntax
//! filters, on a data folder the demo filled; the same figures as the dashboard's reads, and clear refusals.

use crate::cli::seeded;

#[test]
fn stats_take_any_period_and_filters() {
    let dir = tempfile::tempdir().unwrap();
    let (cli, site) = seeded(&dir);
    let site = site.to_string();
    cli.json(&["demo", "--site", "shop.example.com", "--events", "2000", "--days", "3", "--seed", "11"]);

    let week = cli.json(&["stats", "--site", &site, "--range", "7d"]);
    let all = cli.json(&["stats", "--site", &site, "--range", "all"]);
    assert_eq!(all["pageViews"], week["pageViews"], "the demo's three days are all there is");
    assert!(all["from"].as_str().unwrap() >= week["from"].as_str().unwrap(), "all time starts on the first day");
    assert_eq!(all["range"], "all");

    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let custom = cli.json(&["stats", "--site", &site, "--from", &today, "--to", &today]);
    let preset = cli.json(&["stats", "--site", &site, "--range", "today"]);
    assert_eq!(custom["pageViews"], preset["pageViews"]);
    assert_eq!(custom["range"], format!("{today}..{today}"));
    assert_eq!(custom["from"].as_str().unwrap()[..10], today);

    let home = week["breakdowns"]["page"][0].clone();
    assert_eq!(home["value"], "/");
    let filter = r#"[["is","event:page",["/"]]]"#;
    let filtered = cli.json(&["stats", "--site", &site, "--range", "7d", "--filter", filter]);
    assert_eq!(filtered["pageViews"], home["count"], "page views of / alone");
    assert_eq!(filtered["breakdowns"]["page"].as_array().unwrap().len(), 1);
    let visits: i64 = week["visits"].as_i64().unwrap();
    assert!(filtered["visits"].as_i64().unwrap() < visits, "{filtered}");

    assert!(
        cli.fails(&["stats", "--site", &site, "--filter", r#"[["is","visit:planet",["x"]]]"#]).contains("--filter")
    );
    assert!(cli.fails(&["stats", "--site", &site, "--from", &today]).contains("--to"));
    assert!(
        cli.fails(&["stats", "--site", &site, "--from", "2026-02-30", "--to", &today]).contains("from must be a date")
    );
    assert!(cli.fails(&["stats", "--site", &site, "--from", &today, "--to", "2000-01-01"]).contains("after"));
}
