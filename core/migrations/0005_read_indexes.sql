-- The conversions list picks the rare conversions out of a site's events: a partial index, so page views
-- (most rows) pay nothing for it at ingest.
CREATE INDEX events_site_conversions ON events(website_id, ts) WHERE kind = 'conversion';
