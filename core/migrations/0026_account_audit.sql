-- Issue 33: what was done to an account's sign-in rather than to one of its sites (privacy_audit keeps those):
-- two-factor turned on or off by its owner, or reset by the operator (`tracker users 2fa-reset`). actor is the
-- account's email at the time, or 'cli'; detail is a JSON object. The entries go with the account.
CREATE TABLE account_audit (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    ts      INTEGER NOT NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL,
    detail  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX account_audit_user_ts ON account_audit(user_id, ts, id);
