-- Conversion funnels: a named, ordered list of steps on one site. Counts are computed from the raw events
-- on read (they need order within a visit), so nothing here changes at ingest.
CREATE TABLE funnels (
    id         INTEGER PRIMARY KEY,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX funnels_site ON funnels(website_id);

-- position: 0-based order of the step in its funnel. url: a path pattern where `*` matches any run of
-- characters; event_name: when set, the step is that custom event or conversion on a matching path.
CREATE TABLE funnel_steps (
    funnel_id  INTEGER NOT NULL REFERENCES funnels(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    url        TEXT NOT NULL,
    event_name TEXT,
    PRIMARY KEY (funnel_id, position)
) WITHOUT ROWID;
