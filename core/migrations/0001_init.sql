-- Users, websites, sessions, events and rollups: the backbone schema. Times are Unix milliseconds (UTC),
-- except rollup buckets, which are Unix seconds of the bucket's start.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE refresh_tokens (
    token_hash BLOB PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);

CREATE TABLE websites (
    id             INTEGER PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    domain         TEXT NOT NULL,
    tracking_key   TEXT NOT NULL UNIQUE,
    tracking_level TEXT NOT NULL DEFAULT 'light'
                   CHECK (tracking_level IN ('light', 'enhanced', 'professional')),
    created_at     INTEGER NOT NULL
);
CREATE INDEX websites_user ON websites(user_id);

-- One row per visit: the client's session id within one site.
CREATE TABLE sessions (
    id               INTEGER PRIMARY KEY,
    website_id       INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_key      TEXT NOT NULL,
    visitor_hash     INTEGER NOT NULL,
    first_seen       INTEGER NOT NULL,
    last_seen        INTEGER NOT NULL,
    entry_page       TEXT NOT NULL,
    exit_page        TEXT NOT NULL,
    page_views       INTEGER NOT NULL DEFAULT 0,
    events           INTEGER NOT NULL DEFAULT 0,
    country          TEXT NOT NULL DEFAULT '',
    region           TEXT NOT NULL DEFAULT '',
    city             TEXT NOT NULL DEFAULT '',
    device           TEXT NOT NULL DEFAULT '',
    browser          TEXT NOT NULL DEFAULT '',
    os               TEXT NOT NULL DEFAULT '',
    referrer         TEXT NOT NULL DEFAULT '',
    referrer_host    TEXT NOT NULL DEFAULT '',
    utm_source       TEXT NOT NULL DEFAULT '',
    utm_medium       TEXT NOT NULL DEFAULT '',
    utm_campaign     TEXT NOT NULL DEFAULT '',
    utm_term         TEXT NOT NULL DEFAULT '',
    utm_content      TEXT NOT NULL DEFAULT '',
    screen           TEXT NOT NULL DEFAULT '',
    ip_address       TEXT,
    is_converted     INTEGER NOT NULL DEFAULT 0,
    conversion_value REAL NOT NULL DEFAULT 0,
    UNIQUE (website_id, session_key)
);
CREATE INDEX sessions_site_last_seen ON sessions(website_id, last_seen);
CREATE INDEX sessions_site_first_seen ON sessions(website_id, first_seen);

-- Page views and custom events. kind: pageview, custom, conversion, click, outbound, download, ...
CREATE TABLE events (
    id         INTEGER PRIMARY KEY,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    ts         INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    url        TEXT NOT NULL,
    path       TEXT NOT NULL,
    referrer   TEXT NOT NULL DEFAULT '',
    properties TEXT,
    value      REAL,
    currency   TEXT
);
CREATE INDEX events_site_ts ON events(website_id, ts);
CREATE INDEX events_session ON events(session_id);

-- Rollups kept up to date by the ingest writer. dim '' with value '' holds the site totals; other dims:
-- page, referrer (host, '' = direct), country, device, browser, os, utm_source, event (custom event names).
-- visitors, bounces and duration_s are maintained on the totals row only.
CREATE TABLE rollup_hours (
    website_id  INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    dim         TEXT NOT NULL,
    bucket      INTEGER NOT NULL,
    value       TEXT NOT NULL,
    pageviews   INTEGER NOT NULL DEFAULT 0,
    visits      INTEGER NOT NULL DEFAULT 0,
    visitors    INTEGER NOT NULL DEFAULT 0,
    events      INTEGER NOT NULL DEFAULT 0,
    conversions INTEGER NOT NULL DEFAULT 0,
    bounces     INTEGER NOT NULL DEFAULT 0,
    duration_s  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (website_id, dim, bucket, value)
) WITHOUT ROWID;

CREATE TABLE rollup_days (
    website_id  INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    dim         TEXT NOT NULL,
    bucket      INTEGER NOT NULL,
    value       TEXT NOT NULL,
    pageviews   INTEGER NOT NULL DEFAULT 0,
    visits      INTEGER NOT NULL DEFAULT 0,
    visitors    INTEGER NOT NULL DEFAULT 0,
    events      INTEGER NOT NULL DEFAULT 0,
    conversions INTEGER NOT NULL DEFAULT 0,
    bounces     INTEGER NOT NULL DEFAULT 0,
    duration_s  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (website_id, dim, bucket, value)
) WITHOUT ROWID;

-- Visitors already counted on a day (the visitor hash's salt rotates daily, so older days are pruned).
CREATE TABLE visitor_days (
    website_id   INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    day          INTEGER NOT NULL,
    visitor_hash INTEGER NOT NULL,
    PRIMARY KEY (website_id, day, visitor_hash)
) WITHOUT ROWID;

-- The daily salt of visitor hashes; kept so a restart does not split a day's visitors.
CREATE TABLE daily_salts (
    day  INTEGER PRIMARY KEY,
    salt BLOB NOT NULL
);
