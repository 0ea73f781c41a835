-- `tracker migrate --to-cluster` (issue 18): where a copy of a SQLite data folder into this cluster stands, so
-- an interrupted copy carries on where it stopped instead of starting again or storing rows twice.
--
-- The data folder copied in (its database file's path): accounts, websites and the other metadata go in one
-- transaction with this row, so they are either all here or not at all.
CREATE TABLE migrated_from (
    source      TEXT PRIMARY KEY,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT
);

-- Each site's events: those timed at or before copied_through are on the shards (a resumed copy first deletes
-- the site's rows after it, which an interrupted chunk may have left), then the anonymous page counts.
CREATE TABLE migrated_sites (
    source         TEXT NOT NULL REFERENCES migrated_from(source) ON DELETE CASCADE,
    website_id     BIGINT NOT NULL,
    copied_through BIGINT NOT NULL,
    events_done    BOOLEAN NOT NULL DEFAULT FALSE,
    done           BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (source, website_id)
);
