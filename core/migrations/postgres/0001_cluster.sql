-- Cluster mode's metadata schema, first aggregates: accounts (with their settings, two-factor secrets,
-- recovery codes and recorded sign-ins), sign-ins as sessions of rotating refresh tokens, websites and their
-- event definitions. The same constraints as SQLite's migrations 0003, 0008 and 0014:
-- * ids are never reused after a deletion (identity columns draw from sequences, which never go back, as
--   SQLite's AUTOINCREMENT), so a token or link naming a deleted account or site never reaches a new one;
-- * one account per email whatever its case (SQLite's COLLATE NOCASE; the index is on lower(email));
-- * an account's deletion cascades to its sessions, tokens, codes, sign-ins and websites.
-- Times are Unix milliseconds (BIGINT) as in SQLite, so both stores hand the same values to the services.

CREATE TABLE users (
    id                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email               TEXT NOT NULL,
    password_hash       TEXT NOT NULL,
    created_at          BIGINT NOT NULL,
    -- Raised by a password change: every access token issued before it stops working.
    token_version       BIGINT NOT NULL DEFAULT 0,
    name                TEXT NOT NULL DEFAULT '',
    company             TEXT NOT NULL DEFAULT '',
    timezone            TEXT NOT NULL DEFAULT 'UTC',
    email_alerts        BOOLEAN NOT NULL DEFAULT TRUE,
    weekly_reports      BOOLEAN NOT NULL DEFAULT TRUE,
    real_time_alerts    BOOLEAN NOT NULL DEFAULT FALSE,
    marketing_emails    BOOLEAN NOT NULL DEFAULT FALSE,
    -- Minutes without any request after which a sign-in ends (5 to 480).
    session_timeout     BIGINT NOT NULL DEFAULT 30,
    login_notifications BOOLEAN NOT NULL DEFAULT TRUE,
    -- The sealed TOTP secret: pending while totp_enabled is false (enrolment not confirmed by a code yet).
    totp_secret         BYTEA,
    totp_enabled        BOOLEAN NOT NULL DEFAULT FALSE,
    -- The last 30-second step a code was accepted for: a code seen once is never accepted again.
    totp_last_step      BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

-- One row per sign-in: the family of refresh tokens it rotates through.
CREATE TABLE auth_sessions (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    -- Set by logout, a password change, or the reuse of an already rotated refresh token.
    revoked_at   BIGINT
);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id);

-- Every refresh token of a live sign-in, by SHA-256; `used_at` is set when it was rotated into its successor.
CREATE TABLE refresh_tokens (
    token_hash BYTEA PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- Single-use recovery codes, by SHA-256.
CREATE TABLE recovery_codes (
    user_id   BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash BYTEA NOT NULL,
    used_at   BIGINT,
    PRIMARY KEY (user_id, code_hash)
);

-- Sign-ins while login notifications are on: when, from which (anonymised) address, which browser.
CREATE TABLE sign_ins (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at         BIGINT NOT NULL,
    ip_address TEXT NOT NULL,
    browser    TEXT NOT NULL
);
CREATE INDEX sign_ins_user ON sign_ins (user_id, at);

-- Websites. Their events live in ClickHouse: deleting a site there is the events store's work, not a
-- foreign key's.
CREATE TABLE websites (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    domain         TEXT NOT NULL,
    tracking_key   TEXT NOT NULL UNIQUE,
    tracking_level TEXT NOT NULL DEFAULT 'light'
                   CHECK (tracking_level IN ('light', 'enhanced', 'professional')),
    created_at     BIGINT NOT NULL,
    -- Opt-in: accept hits only for pages on the site's domain and its subdomains.
    domain_only    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX websites_user ON websites (user_id);

-- CSS-selector and named event definitions of a site; the scripts fetch the active ones with their config.
CREATE TABLE event_definitions (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id       BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    display_name     TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    event_type       TEXT NOT NULL CHECK (event_type IN ('click', 'submit', 'pageview', 'custom')),
    selector         TEXT NOT NULL DEFAULT '',
    is_conversion    BOOLEAN NOT NULL DEFAULT FALSE,
    conversion_value TEXT,
    is_active        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at       BIGINT NOT NULL,
    UNIQUE (website_id, name)
);
