//! The traffic-spike rule and its alert. A site spikes when its page views of the last hour reach both
//! [`SPIKE_MIN_PAGE_VIEWS`] and [`SPIKE_FACTOR`] times the median of the same hour on each of the 7 days
//! before; the median, not the mean, so one earlier spike does not raise the bar for a week. Counted from the
//! raw page views (indexed by site and time), so the window is the last 60 minutes, not the last whole hour.

use std::fmt::Write;

use super::escape;
use crate::error::Result;
use crate::events::Events;
use crate::model::{Millis, WebsiteId};

/// The window compared.
pub const SPIKE_WINDOW_MS: Millis = 3_600_000;
/// How many times the usual traffic makes a spike.
pub const SPIKE_FACTOR: i64 = 3;
/// Fewest page views in the window that can be a spike (so 4 views against a usual 1 is not news).
pub const SPIKE_MIN_PAGE_VIEWS: i64 = 50;
/// After an alert, the site's next one waits this long.
pub const SPIKE_QUIET_MS: Millis = 6 * 3_600_000;

/// Most pages an alert lists.
const TOP_PAGES: i64 = 5;

/// A spike found at `at`: the window's page views against the usual ones.
#[derive(Debug, Clone, PartialEq)]
pub struct Spike {
    pub site_id: WebsiteId,
    pub site_name: String,
    pub domain: String,
    /// End of the window (the run's clock).
    pub at: Millis,
    pub page_views: i64,
    /// Median page views of the same window on the 7 days before.
    pub usual: i64,
    /// The window's most viewed pages.
    pub top_pages: Vec<(String, i64)>,
}

impl Spike {
    /// Checks the rule for a site at `now`; `None` when its traffic is not a spike.
    pub(crate) fn check(
        figures: &Events,
        site: WebsiteId,
        site_name: &str,
        domain: &str,
        now: Millis,
    ) -> Result<Option<Spike>> {
        // The window, then the same window on each of the 7 days before.
        let windows: Vec<(Millis, Millis)> =
            (0..=7).map(|days| now - days * 86_400_000).map(|end| (end - SPIKE_WINDOW_MS, end)).collect();
        let counts = figures.page_views_in(site, &windows, SPIKE_MIN_PAGE_VIEWS)?;
        let page_views = counts[0];
        if page_views < SPIKE_MIN_PAGE_VIEWS {
            return Ok(None);
        }
        let mut before = counts[1..].to_vec();
        before.sort_unstable();
        let usual = before[3];
        if page_views < SPIKE_FACTOR * usual {
            return Ok(None);
        }
        let top_pages = figures.top_pages(site, now - SPIKE_WINDOW_MS, now, TOP_PAGES)?;
        Ok(Some(Spike {
            site_id: site,
            site_name: site_name.to_string(),
            domain: domain.to_string(),
            at: now,
            page_views,
            usual,
            top_pages,
        }))
    }

    /// "Traffic spike on Shop: 120 page views in the last hour".
    pub fn subject(&self) -> String {
        format!("Traffic spike on {}: {} page views in the last hour", self.site_name, self.page_views)
    }

    /// The plain-text part, closed by `footer` (why the recipient gets it).
    pub fn text(&self, dashboard: &str, footer: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "Traffic spike on {} ({})\n", self.site_name, self.domain);
        let _ = writeln!(out, "{} page views in the hour to {}.", self.page_views, time(self.at));
        let _ = writeln!(out, "Usually about {} in that hour (median of the 7 days before).\n", self.usual);
        let _ = writeln!(out, "Most viewed pages in that hour");
        for (page, views) in &self.top_pages {
            let _ = writeln!(out, "  {page}: {views}");
        }
        let _ = writeln!(out, "\nWatch it live: {dashboard}");
        let _ = writeln!(out, "\n{footer}");
        out
    }

    /// The HTML part, every value escaped.
    pub fn html(&self, dashboard: &str, footer: &str) -> String {
        let mut out = String::new();
        super::html_start(&mut out, &format!("Traffic spike on {}", self.site_name), &self.domain);
        let _ = write!(
            out,
            "<p><b>{}</b> page views in the hour to {}.<br>Usually about {} in that hour (median of the 7 days before).</p>\
             <h3>Most viewed pages in that hour</h3><table cellpadding=\"4\" style=\"border-collapse:collapse\">",
            self.page_views,
            escape(&time(self.at)),
            self.usual
        );
        for (page, views) in &self.top_pages {
            let _ = write!(out, "<tr><td>{}</td><td><b>{views}</b></td></tr>", escape(page));
        }
        out.push_str("</table>");
        super::html_end(&mut out, "Watch it live", dashboard, footer);
        out
    }
}

/// "2026-11-23 14:05 UTC".
fn time(ms: Millis) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().format("%Y-%m-%d %H:%M UTC").to_string()
}
