-- Indexes for the dashboard reads that pick rare kinds out of events: the conversions list and identified
-- visitors. Partial, so page views (most rows) pay nothing for them at ingest.
CREATE INDEX events_site_conversions ON events(website_id, ts) WHERE kind = 'conversion';
CREATE INDEX events_site_identify ON events(website_id, ts) WHERE kind = 'identify';
