-- The heatmap's points per page and hour of the points' own time (core/src/analytics/point_hours.rs): click
-- cells, clicks by element, the tallest page and move count, scroll depth deciles. Filled by the first read
-- (or the warming pass) once an hour is settled; the open hours are read raw. Whatever changes points forgets
-- the hours it touched (analytics::forget_stored_hours, and the interactions ingest for late points).
-- hour: Unix ms of the hour's start. An hour with a row in point_hours_stored is stored, even without points.
CREATE TABLE point_hours_stored (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    hour       INTEGER NOT NULL,
    PRIMARY KEY (website_id, hour)
) WITHOUT ROWID;

-- ref_height: the tallest page at the reference width among the hour's points; moves: its mouse moves.
CREATE TABLE point_hours (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    hour       INTEGER NOT NULL,
    ref_height INTEGER NOT NULL,
    moves      INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, hour)
) WITHOUT ROWID;
CREATE INDEX point_hours_site_hour ON point_hours(website_id, hour);

-- Clicks per 10 px cell of the click grid (cx, cy: the cell's centre at the reference width).
CREATE TABLE click_cell_hours (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    hour       INTEGER NOT NULL,
    cx         INTEGER NOT NULL,
    cy         INTEGER NOT NULL,
    clicks     INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, hour, cx, cy)
) WITHOUT ROWID;
CREATE INDEX click_cell_hours_site_hour ON click_cell_hours(website_id, hour);

-- Clicks per element group: selector, offset step inside the element (bx, by; -1 without an offset) or page
-- step (px, py; -1 with an offset), and the summed page fractions in millionths (sum_fx, sum_fy).
CREATE TABLE element_click_hours (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    hour       INTEGER NOT NULL,
    selector   TEXT NOT NULL,
    bx         INTEGER NOT NULL,
    by         INTEGER NOT NULL,
    px         INTEGER NOT NULL,
    py         INTEGER NOT NULL,
    sum_fx     INTEGER NOT NULL,
    sum_fy     INTEGER NOT NULL,
    clicks     INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, hour, selector, bx, by, px, py)
) WITHOUT ROWID;
CREATE INDEX element_click_hours_site_hour ON element_click_hours(website_id, hour);

-- Page views per scroll depth decile (depth / 10, 0..10).
CREATE TABLE scroll_hours (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    hour       INTEGER NOT NULL,
    decile     INTEGER NOT NULL,
    views      INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, hour, decile)
) WITHOUT ROWID;
CREATE INDEX scroll_hours_site_hour ON scroll_hours(website_id, hour);

-- Storing an hour reads all pages' points of a day by time; a form's submits are looked up apart from the
-- page's many clicks and moves.
CREATE INDEX scroll_depths_site_ts ON scroll_depths(website_id, ts);
CREATE INDEX heatmap_points_submits ON heatmap_points(website_id, path, ts) WHERE kind = 'submit';
