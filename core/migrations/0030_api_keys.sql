-- Issue 36: API keys. Long-lived credentials an account creates for scripts and integrations, scoped `read` or
-- `write`. Only the SHA-256 of each secret is kept (the secret has 256 random bits), so a copy of this file
-- opens nothing; `prefix` is the secret's first characters, enough to recognise a key in a list and no more.
-- Ids are never reused (AUTOINCREMENT): a revoked key's id must never name the next one. The account's
-- deletion takes its keys (ON DELETE CASCADE).
CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    scope        TEXT NOT NULL CHECK (scope IN ('read', 'write')),
    secret_hash  BLOB NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER
);
CREATE INDEX api_keys_user ON api_keys(user_id);
