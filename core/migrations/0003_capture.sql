-- Everything the tracking scripts capture beyond page views and events: consent, interactions for heatmaps,
-- scroll depth, session recordings, visitor traits, organizations and CSS-selector event definitions.
-- Times are Unix milliseconds (UTC). Every row goes with its website (and, where it has one, its session).

-- Organizations seen visiting a site, from the offline ASN data (professional sites only; ISPs skipped).
CREATE TABLE organizations (
    id            INTEGER PRIMARY KEY,
    website_id    INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    asn           INTEGER NOT NULL,
    name          TEXT NOT NULL,
    domain        TEXT NOT NULL DEFAULT '',
    industry      TEXT NOT NULL DEFAULT '',
    size          TEXT NOT NULL DEFAULT '',
    location      TEXT NOT NULL DEFAULT '',
    session_count INTEGER NOT NULL DEFAULT 0,
    confidence    INTEGER NOT NULL DEFAULT 0,
    first_seen    INTEGER NOT NULL,
    last_seen     INTEGER NOT NULL,
    UNIQUE (website_id, asn)
);

-- traits: the latest identify() traits (JSON object); organization_id: who the visit came from.
ALTER TABLE sessions ADD COLUMN traits TEXT;
ALTER TABLE sessions ADD COLUMN organization_id INTEGER REFERENCES organizations(id) ON DELETE SET NULL;
CREATE INDEX sessions_organization ON sessions(organization_id) WHERE organization_id IS NOT NULL;

-- Consent choices of visitors. session_key is the script's session id (consent is given before any visit
-- row may exist); ip_address is always anonymised.
CREATE TABLE consent_logs (
    id           INTEGER PRIMARY KEY,
    website_id   INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_key  TEXT NOT NULL,
    ts           INTEGER NOT NULL,
    consent_type TEXT NOT NULL CHECK (consent_type IN ('accepted', 'declined', 'partial')),
    ip_address   TEXT,
    analytics    INTEGER NOT NULL,
    marketing    INTEGER NOT NULL
);
CREATE INDEX consent_logs_site_ts ON consent_logs(website_id, ts);
CREATE INDEX consent_logs_session ON consent_logs(website_id, session_key, id);

-- Clicks, sampled mouse moves and form submits for heatmaps. x, y: page-relative CSS pixels; page_w: the
-- page width they were measured against; field: the click hit an input, select or textarea.
CREATE TABLE heatmap_points (
    id         INTEGER PRIMARY KEY,
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    ts         INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('click', 'move', 'submit')),
    x          INTEGER NOT NULL,
    y          INTEGER NOT NULL,
    page_w     INTEGER NOT NULL,
    page_h     INTEGER NOT NULL,
    viewport_w INTEGER NOT NULL,
    viewport_h INTEGER NOT NULL,
    selector   TEXT NOT NULL DEFAULT '',
    field      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX heatmap_points_site_path_ts ON heatmap_points(website_id, path, ts);
CREATE INDEX heatmap_points_site_ts ON heatmap_points(website_id, ts);
CREATE INDEX heatmap_points_session ON heatmap_points(session_id);

-- The deepest scroll (percent) of each page view; pageview_id is the page view's event id (0 if unknown).
CREATE TABLE scroll_depths (
    id          INTEGER PRIMARY KEY,
    website_id  INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    pageview_id INTEGER NOT NULL DEFAULT 0,
    path        TEXT NOT NULL,
    ts          INTEGER NOT NULL,
    depth       INTEGER NOT NULL CHECK (depth BETWEEN 0 AND 100),
    UNIQUE (session_id, path, pageview_id)
);
CREATE INDEX scroll_depths_site_path_ts ON scroll_depths(website_id, path, ts);

-- One recording per visit; its rrweb events are in replay_chunks. is_final: the latest chunk was the last of
-- its page (pagehide); a recording is complete when final or quiet for 60 s.
CREATE TABLE replays (
    id            INTEGER PRIMARY KEY,
    website_id    INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    session_id    INTEGER NOT NULL UNIQUE REFERENCES sessions(id) ON DELETE CASCADE,
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER NOT NULL,
    byte_size     INTEGER NOT NULL DEFAULT 0,
    event_count   INTEGER NOT NULL DEFAULT 0,
    click_count   INTEGER NOT NULL DEFAULT 0,
    screen        TEXT NOT NULL DEFAULT '',
    is_final      INTEGER NOT NULL DEFAULT 0,
    last_chunk_at INTEGER NOT NULL
);
CREATE INDEX replays_site_recent ON replays(website_id, last_chunk_at);

-- The gzip-compressed JSON arrays of rrweb events, as uploaded, in upload order.
CREATE TABLE replay_chunks (
    replay_id INTEGER NOT NULL REFERENCES replays(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    data      BLOB NOT NULL,
    PRIMARY KEY (replay_id, seq)
) WITHOUT ROWID;

-- CSS-selector and named event definitions of a site; the scripts fetch the active ones with their config.
CREATE TABLE event_definitions (
    id               INTEGER PRIMARY KEY,
    website_id       INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    display_name     TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    event_type       TEXT NOT NULL CHECK (event_type IN ('click', 'submit', 'pageview', 'custom')),
    selector         TEXT NOT NULL DEFAULT '',
    is_conversion    INTEGER NOT NULL DEFAULT 0,
    conversion_value TEXT,
    is_active        INTEGER NOT NULL DEFAULT 1,
    created_at       INTEGER NOT NULL,
    UNIQUE (website_id, name)
);
