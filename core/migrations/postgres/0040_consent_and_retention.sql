-- The consent log and retention days in cluster mode (issue 18), as SQLite's migrations 0002 and 0003 keep
-- them. Retention days join the privacy settings' row (a site without one has the defaults, core's
-- `Retention::default`, which these column defaults repeat).
ALTER TABLE privacy_settings
    ADD COLUMN retention_pageviews   BIGINT NOT NULL DEFAULT 90,
    ADD COLUMN retention_events      BIGINT NOT NULL DEFAULT 90,
    ADD COLUMN retention_sessions    BIGINT NOT NULL DEFAULT 90,
    ADD COLUMN retention_heatmaps    BIGINT NOT NULL DEFAULT 30,
    ADD COLUMN retention_recordings  BIGINT NOT NULL DEFAULT 30,
    ADD COLUMN retention_conversions BIGINT NOT NULL DEFAULT 365;

-- Consent choices of visitors, written by every daemon's ingest and read by each for a visit's latest choice.
-- session_key is the script's session id (consent is given before any visit may exist); ip_address is
-- anonymised unless the site's owner turned anonymizeIPs off. Entries go with their site.
CREATE TABLE consent_logs (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id   BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_key  TEXT NOT NULL,
    ts           BIGINT NOT NULL,
    consent_type TEXT NOT NULL CHECK (consent_type IN ('accepted', 'declined', 'partial')),
    ip_address   TEXT,
    analytics    BOOLEAN NOT NULL,
    marketing    BOOLEAN NOT NULL
);
CREATE INDEX consent_logs_site_ts ON consent_logs (website_id, ts, id);
CREATE INDEX consent_logs_session ON consent_logs (website_id, session_key, id);
