-- Issue 38, as SQLite's 0034: a site's old Umami website id (a UUID), for Umami's clients sending to
-- POST /api/send; one site per id on the instance.
ALTER TABLE websites ADD COLUMN umami_website_id TEXT;
CREATE UNIQUE INDEX websites_umami_website_id ON websites(umami_website_id) WHERE umami_website_id IS NOT NULL;
