-- Issue 36, as SQLite's 0030: API keys, scoped `read` or `write`, kept only as the SHA-256 of their secret (256
-- random bits) with a short non-secret prefix to recognise them; the account's deletion takes its keys.
CREATE TABLE api_keys (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    scope        TEXT NOT NULL CHECK (scope IN ('read', 'write')),
    secret_hash  BYTEA NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX api_keys_user ON api_keys (user_id);
