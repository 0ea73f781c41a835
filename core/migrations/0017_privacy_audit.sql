-- Issue 14: the privacy actions taken on a site (settings and retention changes, deletions, exports, a
-- visitor's access or erasure request), with who took them and when, for the privacy panel's Audit Logs.
-- actor is the account's email at the time (or 'cli' for the command line), so the entry still says who
-- after the account is gone; detail is a JSON object (changed fields, counts), never a visitor's data.
CREATE TABLE privacy_audit (
    id         INTEGER PRIMARY KEY,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    ts         INTEGER NOT NULL,
    user_id    INTEGER REFERENCES users(id) ON DELETE SET NULL,
    actor      TEXT NOT NULL,
    action     TEXT NOT NULL,
    detail     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX privacy_audit_site_ts ON privacy_audit(website_id, ts, id);
