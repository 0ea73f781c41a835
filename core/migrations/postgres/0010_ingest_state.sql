-- Cluster mode's ingest state (issue 18), shared by every daemon so that a visitor's hits count as one visit
-- whichever daemon takes them.
--
-- The salt of each UTC day's visitor hash. SQLite mode keeps its salts in memory only; here every daemon must
-- hash a visitor alike, so the salt lives in the database, and only for today and yesterday (older days are
-- deleted, so their hashes can no longer be matched to an address).
CREATE TABLE ingest_salts (
    day BIGINT PRIMARY KEY,
    salt BYTEA NOT NULL
);

-- Visit ids, unique across daemons.
CREATE SEQUENCE ingest_visit_ids;

-- The latest visit of each (site, session key): a hit within 30 minutes of last_seen continues it, a later one
-- starts a new visit. Rows of visits idle for a day are deleted.
CREATE TABLE ingest_visits (
    website_id BIGINT NOT NULL,
    session_key TEXT NOT NULL,
    visit_id BIGINT NOT NULL,
    visitor BIGINT NOT NULL,
    first_seen BIGINT NOT NULL,
    last_seen BIGINT NOT NULL,
    PRIMARY KEY (website_id, session_key)
);
CREATE INDEX ingest_visits_last_seen ON ingest_visits (last_seen);
