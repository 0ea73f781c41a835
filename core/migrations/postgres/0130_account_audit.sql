-- The account audit log of SQLite's migration 0026: two-factor turned on or off by the account's owner, or reset
-- by the operator (`tracker users 2fa-reset`); actor is the account's email at the time, or 'cli'.
CREATE TABLE account_audit (
    id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    ts      BIGINT NOT NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL,
    detail  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX account_audit_user_ts ON account_audit (user_id, ts, id);
