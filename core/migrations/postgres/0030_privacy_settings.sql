-- Privacy settings and the privacy audit log in cluster mode (issue 18), as SQLite's migrations 0002, 0009 and
-- 0017 keep them. A site without a settings row has the defaults (core's `PrivacySettings::default`, which
-- these column defaults repeat). Both go with their site. Retention days are not here yet: their job runs on
-- the events, and the cluster's retention is not wired.
CREATE TABLE privacy_settings (
    website_id              BIGINT PRIMARY KEY REFERENCES websites(id) ON DELETE CASCADE,
    gdpr_compliant          BOOLEAN NOT NULL DEFAULT TRUE,
    cookie_consent          BOOLEAN NOT NULL DEFAULT FALSE,
    anonymize_ips           BOOLEAN NOT NULL DEFAULT TRUE,
    respect_do_not_track    BOOLEAN NOT NULL DEFAULT TRUE,
    data_subject_rights     BOOLEAN NOT NULL DEFAULT TRUE,
    data_portability        BOOLEAN NOT NULL DEFAULT TRUE,
    data_deletion           BOOLEAN NOT NULL DEFAULT TRUE,
    data_retention_days     BIGINT NOT NULL DEFAULT 90,
    data_processing_basis   TEXT NOT NULL DEFAULT 'consent',
    consent_message         TEXT NOT NULL DEFAULT 'We use privacy-friendly analytics to improve this site.',
    privacy_policy_url      TEXT NOT NULL DEFAULT '',
    -- NULL follows the site's tracking level (masked on professional sites).
    recording_mask_all_text BOOLEAN,
    updated_at              BIGINT NOT NULL DEFAULT 0
);

-- actor is the account's email at the time (or 'cli'), so an entry still says who after the account is gone;
-- detail is a JSON object (changed fields, counts), never a visitor's data.
CREATE TABLE privacy_audit (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    ts         BIGINT NOT NULL,
    user_id    BIGINT REFERENCES users(id) ON DELETE SET NULL,
    actor      TEXT NOT NULL,
    action     TEXT NOT NULL,
    detail     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX privacy_audit_site_ts ON privacy_audit (website_id, ts, id);
