-- Per-site privacy settings and retention (spec part 2 §3). A site without a row uses the defaults.
CREATE TABLE privacy_settings (
    website_id             INTEGER PRIMARY KEY REFERENCES websites(id) ON DELETE CASCADE,
    gdpr_compliant         INTEGER NOT NULL DEFAULT 1,
    cookie_consent         INTEGER NOT NULL DEFAULT 0,
    anonymize_ips          INTEGER NOT NULL DEFAULT 1,
    respect_do_not_track   INTEGER NOT NULL DEFAULT 1,
    data_subject_rights    INTEGER NOT NULL DEFAULT 1,
    data_portability       INTEGER NOT NULL DEFAULT 1,
    data_deletion          INTEGER NOT NULL DEFAULT 1,
    data_retention_days    INTEGER NOT NULL DEFAULT 90,
    data_processing_basis  TEXT NOT NULL DEFAULT 'consent',
    consent_message        TEXT NOT NULL DEFAULT 'We use privacy-friendly analytics to improve this site.',
    privacy_policy_url     TEXT NOT NULL DEFAULT '',
    retention_pageviews    INTEGER NOT NULL DEFAULT 90,
    retention_events       INTEGER NOT NULL DEFAULT 90,
    retention_sessions     INTEGER NOT NULL DEFAULT 90,
    retention_heatmaps     INTEGER NOT NULL DEFAULT 30,
    retention_recordings   INTEGER NOT NULL DEFAULT 30,
    retention_conversions  INTEGER NOT NULL DEFAULT 365,
    updated_at             INTEGER NOT NULL DEFAULT 0
);
