-- The heatmap's point figures per page and whole UTC day (core/src/analytics/point_hours.rs): the sums of the
-- day's 24 stored hours of 0023, kept once all 24 are stored, so that a long range sums a row per day and key
-- instead of one per hour (a 90-day read of /pricing at 10M events summed about 224,000 hour rows). The range's
-- ragged ends and the days not kept are read from the hours as before. Whatever forgets an hour forgets its
-- day (point_hours::forget_hours); the mouse moves and page heights stay per hour only (a row an hour is cheap,
-- and the moves' bound needs the hours).
-- day: Unix ms of the day's start. A day with a row in point_days_stored is stored, even without points.
CREATE TABLE point_days_stored (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    PRIMARY KEY (website_id, day)
) WITHOUT ROWID;

CREATE TABLE click_cell_days (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    day        INTEGER NOT NULL,
    cx         INTEGER NOT NULL,
    cy         INTEGER NOT NULL,
    clicks     INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, day, cx, cy)
) WITHOUT ROWID;
CREATE INDEX click_cell_days_site_day ON click_cell_days(website_id, day);

CREATE TABLE element_click_days (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    day        INTEGER NOT NULL,
    selector   TEXT NOT NULL,
    bx         INTEGER NOT NULL,
    by         INTEGER NOT NULL,
    px         INTEGER NOT NULL,
    py         INTEGER NOT NULL,
    sum_fx     INTEGER NOT NULL,
    sum_fy     INTEGER NOT NULL,
    clicks     INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, day, selector, bx, by, px, py)
) WITHOUT ROWID;
CREATE INDEX element_click_days_site_day ON element_click_days(website_id, day);

CREATE TABLE scroll_days (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    day        INTEGER NOT NULL,
    decile     INTEGER NOT NULL,
    views      INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, day, decile)
) WITHOUT ROWID;
CREATE INDEX scroll_days_site_day ON scroll_days(website_id, day);
