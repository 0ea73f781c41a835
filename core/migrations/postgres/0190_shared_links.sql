-- Issue 37, as SQLite's 0032: share links, each showing one site's dashboard read-only to whoever holds its slug
-- (128 random bits), optionally behind an argon2id password, with fixed filters (Stats API v2 JSON) and, for
-- embeds, the exact origins allowed to frame it (a JSON array). The site's deletion takes its links.
CREATE TABLE shared_links (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id      BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    slug            TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    password_hash   TEXT,
    filters         TEXT NOT NULL DEFAULT '[]',
    embed           BOOLEAN NOT NULL DEFAULT FALSE,
    allowed_origins TEXT NOT NULL DEFAULT '[]',
    created_at      BIGINT NOT NULL
);
CREATE INDEX shared_links_website ON shared_links (website_id);
