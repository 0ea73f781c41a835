-- The visitors already counted on a day now live in the ingest writer's memory, loaded from the sessions that
-- began that day (a random write into this table per new visitor was a sixth of the pages each batch wrote).
-- The start index carries the visitor hash, so that load reads the index alone.
DROP TABLE visitor_days;
DROP INDEX sessions_site_first_seen;
CREATE INDEX sessions_site_first_seen ON sessions(website_id, first_seen, visitor_hash);
