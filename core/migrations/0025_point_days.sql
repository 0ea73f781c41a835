-- The heatmap's point figures per page and whole UTC day (core/src/analytics/point_hours.rs): the sums of the
-- day's 24 stored hours of 0023, kept once all 24 are stored, so that a long range reads a row per page and day
-- instead of a row per hour and key (a 90-day read of /pricing at 10M events summed about 225,000 hour rows; its
-- cells and element groups are mostly new each hour, so rows per day and key would still be about 57,000). The
-- range's ragged ends and the days not kept are read from the hours as before. Whatever forgets an hour forgets
-- its day (point_hours::forget_hours); page heights and mouse moves stay per hour only (a row an hour is cheap,
-- and the moves' bound needs the hours).
-- day: Unix ms of the day's start. A day with a row in point_days_stored is stored, even without points.
CREATE TABLE point_days_stored (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    PRIMARY KEY (website_id, day)
) WITHOUT ROWID;

-- One row per page and day with points. Each blob is a list of integers, each zigzag-encoded as an unsigned
-- LEB128 varint: cells as (cx, cy, clicks) triples; elements as the count of selectors, each selector as its
-- UTF-8 length and bytes, then (selector's index, bx, by, px, py, sum_fx, sum_fy, clicks) per group; deciles as
-- the 11 views per scroll depth decile. Columns as in 0023. A rowid table: its rows are kilobytes long.
CREATE TABLE point_days (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    day        INTEGER NOT NULL,
    cells      BLOB NOT NULL,
    elements   BLOB NOT NULL,
    deciles    BLOB NOT NULL,
    UNIQUE (website_id, path, day)
);
CREATE INDEX point_days_site_day ON point_days(website_id, day);
