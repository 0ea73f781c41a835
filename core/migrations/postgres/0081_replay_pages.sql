-- The replay reads page through a site's recordings newest first: the list by id, the page under a heatmap by
-- latest chunk (then id). Each page is an index range, however many recordings the site holds.
CREATE INDEX replays_site_newest ON replays (website_id, id);
DROP INDEX replays_site_recent;
CREATE INDEX replays_site_recent ON replays (website_id, last_chunk_at, id);
