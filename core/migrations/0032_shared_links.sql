-- Issue 37: share links. A link shows one site's dashboard read-only to whoever holds its slug (128 random bits,
-- base64url): optionally behind a password (argon2id, as account passwords), always with its fixed filters (the
-- Stats API v2 JSON, checked when the link is made), and, when `embed` is set, framable by the listed origins
-- (a JSON array of exact origins). Ids are never reused (AUTOINCREMENT): a share session names its link by id, and
-- a deleted link's id must never open the next one. Deleting the site deletes its links (ON DELETE CASCADE).
CREATE TABLE shared_links (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    website_id      INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    slug            TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    password_hash   TEXT,
    filters         TEXT NOT NULL DEFAULT '[]',
    embed           INTEGER NOT NULL DEFAULT 0 CHECK (embed IN (0, 1)),
    allowed_origins TEXT NOT NULL DEFAULT '[]',
    created_at      INTEGER NOT NULL
);
CREATE INDEX shared_links_website ON shared_links(website_id);
