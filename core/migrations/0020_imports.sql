-- History imported from another tool (`tracker import`): one row per import, so the API can mark imported days
-- and a second import of the same days is refused instead of counted twice. Days are Unix ms of UTC midnight.
CREATE TABLE imports (
    id          INTEGER PRIMARY KEY,
    website_id  INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    source      TEXT NOT NULL CHECK (source IN ('plausible', 'umami', 'goatcounter')),
    file_name   TEXT NOT NULL,
    rows        INTEGER NOT NULL,
    first_day   INTEGER NOT NULL,
    last_day    INTEGER NOT NULL,
    imported_at INTEGER NOT NULL
);
CREATE INDEX imports_site_days ON imports(website_id, first_day, last_day);

-- Daily aggregates imported without raw rows (Plausible's export has no hits): added to the rollups on import,
-- and kept here so rebuilding a day's rollups from raw rows (after a privacy deletion) adds them back.
-- bucket is Unix seconds of the day's midnight (the hourly rollups take the day's first hour).
CREATE TABLE imported_rollups (
    import_id   INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    website_id  INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    dim         TEXT NOT NULL,
    bucket      INTEGER NOT NULL,
    value       TEXT NOT NULL,
    pageviews   INTEGER NOT NULL DEFAULT 0,
    visits      INTEGER NOT NULL DEFAULT 0,
    visitors    INTEGER NOT NULL DEFAULT 0,
    events      INTEGER NOT NULL DEFAULT 0,
    bounces     INTEGER NOT NULL DEFAULT 0,
    duration_s  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (website_id, bucket, dim, value, import_id)
) WITHOUT ROWID;
