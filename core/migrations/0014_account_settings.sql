-- The Settings screen (spec part 2 §3, REAL.md): an account's profile, notification preferences and security
-- settings, the sign-ins recorded while login notifications are on, and two-factor authentication (TOTP).

ALTER TABLE users ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN company TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE users ADD COLUMN email_alerts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN weekly_reports INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN real_time_alerts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN marketing_emails INTEGER NOT NULL DEFAULT 0;
-- Minutes without any request after which a sign-in ends (5 to 480).
ALTER TABLE users ADD COLUMN session_timeout INTEGER NOT NULL DEFAULT 30;
ALTER TABLE users ADD COLUMN login_notifications INTEGER NOT NULL DEFAULT 1;
-- The TOTP secret: pending while totp_enabled is 0 (enrolment not confirmed by a code yet).
ALTER TABLE users ADD COLUMN totp_secret BLOB;
ALTER TABLE users ADD COLUMN totp_enabled INTEGER NOT NULL DEFAULT 0;
-- The last 30-second step a code was accepted for: a code seen once is never accepted again.
ALTER TABLE users ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0;

-- Single-use recovery codes, by SHA-256.
CREATE TABLE recovery_codes (
    user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash BLOB NOT NULL,
    used_at   INTEGER,
    PRIMARY KEY (user_id, code_hash)
) WITHOUT ROWID;

-- Sign-ins while login notifications are on: when, from which (anonymised) address, which browser.
CREATE TABLE sign_ins (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at         INTEGER NOT NULL,
    ip_address TEXT NOT NULL,
    browser    TEXT NOT NULL
);
CREATE INDEX sign_ins_user ON sign_ins(user_id, at);
