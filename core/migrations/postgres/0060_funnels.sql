-- Conversion funnels in cluster mode (issue 18), as SQLite's migration 0011 keeps them: a named, ordered list
-- of steps on one site. Their figures are counted from ClickHouse's hits on read, so nothing here changes at
-- ingest, and SQLite's stored hourly counts (funnel_hours) have no counterpart.
CREATE TABLE funnels (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    website_id BIGINT NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX funnels_site ON funnels (website_id);

-- position: 0-based order of the step in its funnel. url: a path pattern where `*` matches any run of
-- characters; event_name: when set, the step is that custom event or conversion on a matching path.
CREATE TABLE funnel_steps (
    funnel_id  BIGINT NOT NULL REFERENCES funnels(id) ON DELETE CASCADE,
    position   BIGINT NOT NULL,
    name       TEXT NOT NULL,
    url        TEXT NOT NULL,
    event_name TEXT,
    PRIMARY KEY (funnel_id, position)
);
