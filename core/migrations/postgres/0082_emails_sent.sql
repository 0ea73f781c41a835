-- The weekly reports and traffic alerts sent (or refused for good by the mail server), as SQLite's migration
-- 0022 keeps them: period is the week's start for a report, the end of the hour window for an alert (Unix
-- milliseconds). Any daemon may run the email schedule, so a row is claimed before its email goes out and the
-- primary key lets only one daemon claim it; a claim whose sending failed for now is deleted again.
CREATE TABLE emails_sent (
    kind       TEXT NOT NULL CHECK (kind IN ('weekly_report', 'spike_alert')),
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    period     BIGINT NOT NULL,
    sent_at    BIGINT NOT NULL,
    -- 'sent', or 'refused' when the server answered with a permanent error (not retried).
    outcome    TEXT NOT NULL DEFAULT 'sent' CHECK (outcome IN ('sent', 'refused')),
    PRIMARY KEY (kind, website_id, user_id, period)
);
CREATE INDEX emails_sent_site_kind ON emails_sent (website_id, kind, period);
