-- Account and site ids are never reused (AUTOINCREMENT): a token or link naming a deleted account or site
-- must never reach the next one created. SQLite cannot add AUTOINCREMENT in place, so both tables are
-- rebuilt (migrations run with foreign keys off, so dropping the old tables cascades nowhere).
-- Sign-ins become sessions (token families): each refresh rotates the token, a reused one revokes its
-- session, and access tokens name their session and the account's token version. Tokens issued before this
-- migration carry neither, so everyone signs in once more.

CREATE TABLE users_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    -- Raised by a password change: every access token issued before it stops working.
    token_version INTEGER NOT NULL DEFAULT 0
);
INSERT INTO users_new (id, email, password_hash, created_at) SELECT id, email, password_hash, created_at FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;

CREATE TABLE websites_new (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    domain         TEXT NOT NULL,
    tracking_key   TEXT NOT NULL UNIQUE,
    tracking_level TEXT NOT NULL DEFAULT 'light'
                   CHECK (tracking_level IN ('light', 'enhanced', 'professional')),
    created_at     INTEGER NOT NULL,
    -- Opt-in: accept hits only for pages on the site's domain and its subdomains.
    domain_only    INTEGER NOT NULL DEFAULT 0 CHECK (domain_only IN (0, 1))
);
INSERT INTO websites_new (id, user_id, name, domain, tracking_key, tracking_level, created_at)
    SELECT id, user_id, name, domain, tracking_key, tracking_level, created_at FROM websites;
DROP TABLE websites;
ALTER TABLE websites_new RENAME TO websites;
CREATE INDEX websites_user ON websites(user_id);

DROP TABLE refresh_tokens;

-- One row per sign-in: the family of refresh tokens it rotates through.
CREATE TABLE auth_sessions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    -- Set by logout, a password change, or the reuse of an already rotated refresh token.
    revoked_at   INTEGER
);
CREATE INDEX auth_sessions_user ON auth_sessions(user_id);

-- Every refresh token ever handed out, by hash; `used_at` is set when it was rotated into its successor.
CREATE TABLE refresh_tokens (
    token_hash BLOB PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    used_at    INTEGER
) WITHOUT ROWID;
CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
