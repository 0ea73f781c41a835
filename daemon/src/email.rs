//! The email scheduler: every few minutes, sends the weekly reports and traffic alerts that are due
//! (`tracker_core::email`). `tracker serve` runs it beside the daemon; what was sent is remembered in the
//! database (PostgreSQL in cluster mode, where every daemon runs it and each email is claimed by one), so a
//! restart neither loses nor repeats a report.

use std::time::Duration;

use tracker_core::Tracker;
use tracker_core::model::now_ms;

/// Time between runs: alerts are at most this late; a weekly report goes out in the first run of Monday.
const EVERY: Duration = Duration::from_secs(300);
/// The first run waits this long after start, so a daemon that restarts in a loop does not hammer the server.
const FIRST_AFTER: Duration = Duration::from_secs(60);

/// Runs [`tracker_core::email::Email::run_due`] on the wall clock forever (without `smtp_url` each run is a
/// settings read; the URL is re-read each time, so a reload applies).
pub async fn email_schedule(tracker: Tracker) {
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + FIRST_AFTER, EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if !tracker.email.is_configured() {
            continue;
        }
        let worker = tracker.clone();
        match tokio::task::spawn_blocking(move || worker.email.run_due(now_ms())).await {
            Ok(Ok(report)) if report != Default::default() => {
                tracing::info!(
                    reports = report.reports_sent,
                    alerts = report.alerts_sent,
                    refused = report.refused,
                    "emails sent"
                );
            }
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "sending emails failed; the next run tries again"),
            Err(e) => tracing::error!(error = %e, "email task failed"),
        }
    }
}
