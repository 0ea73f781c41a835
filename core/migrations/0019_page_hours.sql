-- The heatmap's Page Performance figures per page and hour, of the visits that started in the hour
-- (core/src/analytics/page_hours.rs). Filled by the first read that needs an hour once every visit that started
-- in it is over; the open hours are counted live. Whatever changes raw visits or events forgets the hours it
-- touched (analytics::forget_stored_hours), and the next read counts them again.
-- hour: Unix ms of the hour's start. An hour with a row in page_hours_stored is stored, even without visits.
CREATE TABLE page_hours_stored (
    website_id INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    hour       INTEGER NOT NULL,
    PRIMARY KEY (website_id, hour)
) WITHOUT ROWID;

-- viewers: visits that viewed the page, converted: those of them that converted; entries: visits that entered on
-- it, bounces: those of them with one page view; timed_views, time_ms: its page views with a time on page
-- (until the visit's next page view or last activity, capped at 30 minutes) and their summed times.
CREATE TABLE page_hours (
    website_id  INTEGER NOT NULL REFERENCES websites(id) ON DELETE CASCADE,
    path        TEXT NOT NULL,
    hour        INTEGER NOT NULL,
    viewers     INTEGER NOT NULL,
    converted   INTEGER NOT NULL,
    entries     INTEGER NOT NULL,
    bounces     INTEGER NOT NULL,
    timed_views INTEGER NOT NULL,
    time_ms     INTEGER NOT NULL,
    PRIMARY KEY (website_id, path, hour)
) WITHOUT ROWID;

-- forget_stored_hours deletes by hour (a late hit does, for each one while seeding or importing): without these
-- it would scan every stored row of the site, as the path comes first in the keys above.
CREATE INDEX page_hours_site_hour ON page_hours(website_id, hour);
CREATE INDEX advanced_pages_site_hour ON advanced_pages(website_id, hour);
