-- Per-hour aggregates of the visits that started in each hour, for the funnels and journeys reads
-- (core/src/analytics/visit_hours.rs). Only hours whose visits are all over are stored; a read computes the
-- missing ones from the raw events and stores those that are settled. Whatever changes a stored hour's visits
-- (late hits, deletions, retention, imports, funnel edits) deletes its rows and bumps the site's generation,
-- so a read that computed from an older snapshot does not store what it computed.

-- Journey totals by class, and the hour's path tallies (encoded blobs, see visit_hours.rs: the fixed-size
-- records a read scans, and the path keys it reads for the winners only).
CREATE TABLE visit_hours (
    id                    INTEGER PRIMARY KEY,
    website_id            INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    hour                  INTEGER NOT NULL,
    converted             INTEGER NOT NULL,
    converted_duration_s  INTEGER NOT NULL,
    converted_touchpoints INTEGER NOT NULL,
    abandoned             INTEGER NOT NULL,
    abandoned_duration_s  INTEGER NOT NULL,
    abandoned_touchpoints INTEGER NOT NULL,
    paths                 BLOB NOT NULL,
    path_keys             BLOB NOT NULL,
    UNIQUE (website_id, hour)
);

-- Visits reaching each step of a funnel (u32 little-endian per step), by the hour the visits started.
CREATE TABLE funnel_hours (
    funnel_id INTEGER NOT NULL REFERENCES funnels(id) ON DELETE CASCADE,
    hour      INTEGER NOT NULL,
    counts    BLOB NOT NULL,
    PRIMARY KEY (funnel_id, hour)
) WITHOUT ROWID;

CREATE TABLE visit_hours_generation (
    website_id INTEGER PRIMARY KEY REFERENCES websites(id) ON DELETE CASCADE,
    generation INTEGER NOT NULL
);
