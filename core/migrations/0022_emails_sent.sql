-- Issue 17 part 4: the weekly reports and traffic alerts sent (or refused for good by the mail server), so a
-- restart never sends one again and alerts keep their quiet period. period is what the email is about:
-- the week's start for a report, the end of the hour window for an alert (Unix milliseconds).
CREATE TABLE emails_sent (
    kind       TEXT NOT NULL CHECK (kind IN ('weekly_report', 'spike_alert')),
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    period     INTEGER NOT NULL,
    sent_at    INTEGER NOT NULL,
    -- 'sent', or 'refused' when the server answered with a permanent error (not retried).
    outcome    TEXT NOT NULL DEFAULT 'sent' CHECK (outcome IN ('sent', 'refused')),
    PRIMARY KEY (kind, website_id, user_id, period)
) WITHOUT ROWID;
CREATE INDEX emails_sent_site_kind ON emails_sent(website_id, kind, sent_at);
