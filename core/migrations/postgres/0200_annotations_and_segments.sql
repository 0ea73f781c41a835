-- Issues 37 and 36, as SQLite's 0033: annotations (a dated note on a site's chart) and saved segments (named
-- Stats API v2 filters). The site's deletion takes both; the writer's account going empties `created_by`.
CREATE TABLE annotations (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    day        TEXT NOT NULL,
    text       TEXT NOT NULL,
    source     TEXT NOT NULL CHECK (source IN ('user', 'cli', 'spike')),
    created_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX annotations_site_day ON annotations (website_id, day);

CREATE TABLE saved_segments (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    filters    TEXT NOT NULL,
    created_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (website_id, name)
);
