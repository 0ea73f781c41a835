//! The weekly report of one site: visitors, page views, top pages and top sources of a week (Monday to Sunday,
//! the site's local days as the dashboard's are) against the week before, read as the dashboard reads them
//! (SQLite's rollups, or ClickHouse's in cluster mode), and rendered as plain text and HTML. Only aggregates:
//! nothing about any one visitor. A week is named by its Monday's UTC midnight (`week_start`, the key its
//! emails are claimed by); its span is that Monday to Sunday in the site's timezone.

use std::fmt::Write;

use super::{escape, percent_change};
use crate::analytics::{Dimension, TimeRange, local_time};
use crate::error::Result;
use crate::events::Events;
use crate::model::{Millis, WebsiteId};

pub(crate) const DAY_MS: Millis = 86_400_000;
pub(crate) const WEEK_MS: Millis = 7 * DAY_MS;

/// Rows shown in each top list.
const TOP: i64 = 5;

/// Monday 00:00 UTC of the week holding `ms`.
pub fn week_start(ms: Millis) -> Millis {
    let day = ms.div_euclid(DAY_MS);
    // Day 0 (1970-01-01) was a Thursday, so day 4 was a Monday.
    (day - (day - 4).rem_euclid(7)) * DAY_MS
}

/// A figure of the week and of the week before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub current: i64,
    pub previous: i64,
}

/// One row of a top list: the value and its counts in both weeks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopRow {
    pub name: String,
    pub current: i64,
    pub previous: i64,
}

/// What the weekly report of a site says.
#[derive(Debug, Clone, PartialEq)]
pub struct WeeklyReport {
    pub site_id: WebsiteId,
    pub site_name: String,
    pub domain: String,
    /// Monday 00:00 UTC of the reported week: its name.
    pub week_start: Millis,
    /// The site's timezone, whose Monday to Sunday the week is.
    pub timezone: String,
    /// When the week ends in that zone (the next Monday's local midnight): the report is due from then.
    pub week_end: Millis,
    pub visitors: Change,
    pub page_views: Change,
    /// By page views.
    pub top_pages: Vec<TopRow>,
    /// By visits; '' is shown as Direct.
    pub top_sources: Vec<TopRow>,
}

impl WeeklyReport {
    /// Reads the report of the week named `week_start` (a Monday 00:00 UTC): that Monday to Sunday in the site's
    /// timezone.
    pub(crate) fn read(
        figures: &Events,
        site: WebsiteId,
        site_name: &str,
        domain: &str,
        week_start: Millis,
    ) -> Result<WeeklyReport> {
        let tz = figures.site_zone(site)?;
        let monday = local_time::date_of(chrono_tz::Tz::UTC, week_start);
        let week = TimeRange::of_days(monday, monday + chrono::Days::new(6), tz);
        let before = week.previous();
        let (now, then) = (figures.totals(site, week)?, figures.totals(site, before)?);
        let top = |dim: Dimension| -> Result<Vec<TopRow>> {
            let previous = figures.breakdown(site, before, dim, 1_000)?;
            Ok(figures
                .breakdown(site, week, dim, TOP)?
                .into_iter()
                .map(|row| TopRow {
                    previous: previous.iter().find(|p| p.value == row.value).map_or(0, |p| p.count),
                    name: row.value,
                    current: row.count,
                })
                .collect())
        };
        Ok(WeeklyReport {
            site_id: site,
            site_name: site_name.to_string(),
            domain: domain.to_string(),
            week_start,
            timezone: tz.name().to_string(),
            week_end: week.end,
            visitors: Change { current: now.visitors, previous: then.visitors },
            page_views: Change { current: now.pageviews, previous: then.pageviews },
            top_pages: top(Dimension::Page)?,
            top_sources: top(Dimension::Source)?
                .into_iter()
                .map(|row| TopRow { name: if row.name.is_empty() { "Direct".into() } else { row.name }, ..row })
                .collect(),
        })
    }

    /// Whether there is anything to say: a site without a page view in either week gets no email.
    pub fn is_empty(&self) -> bool {
        self.page_views.current == 0 && self.page_views.previous == 0
    }

    /// The subject line, e.g. "Weekly report for Shop: 12 visitors (+50%)".
    pub fn subject(&self) -> String {
        format!(
            "Weekly report for {}: {} visitors ({})",
            self.site_name,
            self.visitors.current,
            percent_change(self.visitors.current, self.visitors.previous)
        )
    }

    /// The plain-text part; `dashboard` is the link to the site's dashboard, `footer` why the recipient gets it.
    pub fn text(&self, dashboard: &str, footer: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "Weekly report for {} ({})", self.site_name, self.domain);
        let _ = writeln!(out, "{}, compared with the week before.\n", self.week_label());
        for (label, change) in [("Visitors", &self.visitors), ("Page views", &self.page_views)] {
            let _ = writeln!(out, "{label}: {}", figure(change.current, change.previous));
        }
        for (title, rows) in [("Top pages (page views)", &self.top_pages), ("Top sources (visits)", &self.top_sources)]
        {
            let _ = writeln!(out, "\n{title}");
            if rows.is_empty() {
                let _ = writeln!(out, "  none this week");
            }
            for row in rows {
                let _ = writeln!(out, "  {}: {}", row.name, figure(row.current, row.previous));
            }
        }
        let _ = writeln!(out, "\nOpen the dashboard: {dashboard}");
        let _ = writeln!(out, "\n{footer}");
        out
    }

    /// The HTML part: the same content, every value escaped.
    pub fn html(&self, dashboard: &str, footer: &str) -> String {
        let mut out = String::new();
        super::html_start(&mut out, &format!("Weekly report for {}", self.site_name), &self.domain);
        let _ = write!(
            out,
            "<p>{}, compared with the week before.</p><table cellpadding=\"4\" style=\"border-collapse:collapse\">",
            escape(&self.week_label())
        );
        for (label, change) in [("Visitors", &self.visitors), ("Page views", &self.page_views)] {
            let _ = write!(
                out,
                "<tr><th align=\"left\">{label}</th><td><b>{}</b></td><td style=\"color:#666\">previous week {}, {}</td></tr>",
                change.current,
                change.previous,
                percent_change(change.current, change.previous)
            );
        }
        out.push_str("</table>");
        for (title, rows) in [("Top pages (page views)", &self.top_pages), ("Top sources (visits)", &self.top_sources)]
        {
            let _ = write!(out, "<h3>{title}</h3><table cellpadding=\"4\" style=\"border-collapse:collapse\">");
            if rows.is_empty() {
                out.push_str("<tr><td>none this week</td></tr>");
            }
            for row in rows {
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td><b>{}</b></td><td style=\"color:#666\">previous week {}</td></tr>",
                    escape(&row.name),
                    row.current,
                    row.previous
                );
            }
            out.push_str("</table>");
        }
        super::html_end(&mut out, "Open the dashboard", dashboard, footer);
        out
    }

    /// "Week of 2026-11-16 to 2026-11-22 (Asia/Kolkata)": the site's local days.
    fn week_label(&self) -> String {
        let day = |ms: Millis| chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().format("%Y-%m-%d");
        format!("Week of {} to {} ({})", day(self.week_start), day(self.week_start + WEEK_MS - DAY_MS), self.timezone)
    }
}

/// "12 (previous week 8, +50%)".
fn figure(current: i64, previous: i64) -> String {
    format!("{current} (previous week {previous}, {})", percent_change(current, previous))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_start_on_monday_utc() {
        // 2026-11-23 is a Monday, 2026-11-22 a Sunday.
        let monday = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap().and_hms_opt(0, 0, 0).unwrap();
        let monday = monday.and_utc().timestamp_millis();
        assert_eq!(week_start(monday), monday);
        assert_eq!(week_start(monday + WEEK_MS - 1), monday);
        assert_eq!(week_start(monday - 1), monday - WEEK_MS);
        assert_eq!(week_start(0), -3 * DAY_MS, "1970-01-01 was a Thursday");
    }

    #[test]
    fn names_are_escaped_in_html_and_left_alone_in_text() {
        let report = WeeklyReport {
            site_id: 1,
            site_name: "<b>Shop</b> & co".into(),
            domain: "shop.example.com".into(),
            week_start: week_start(0),
            timezone: "UTC".into(),
            week_end: week_start(0) + WEEK_MS,
            visitors: Change { current: 3, previous: 2 },
            page_views: Change { current: 5, previous: 0 },
            top_pages: vec![TopRow { name: "/<script>alert(1)</script>".into(), current: 5, previous: 0 }],
            top_sources: vec![],
        };
        let html = report.html("http://x/dashboard?website=1&range=7d", super::super::WEEKLY_FOOTER);
        assert!(html.contains("&lt;b&gt;Shop&lt;/b&gt; &amp; co"), "{html}");
        assert!(html.contains("/&lt;script&gt;alert(1)&lt;/script&gt;"), "{html}");
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("website=1&amp;range=7d"), "{html}");
        let text = report.text("http://x/", super::super::WEEKLY_FOOTER);
        assert!(text.contains("Visitors: 3 (previous week 2, +50%)"), "{text}");
        assert!(text.contains("Page views: 5 (previous week 0, new)"), "{text}");
        assert_eq!(report.subject(), "Weekly report for <b>Shop</b> & co: 3 visitors (+50%)");
    }
}
