-- Issue 38: a site imported from Umami keeps its old Umami website id (a UUID), so Umami's tracking script
-- and clients, still sending `website: <that id>` to POST /api/send, reach it unchanged. Set by the Umami
-- importer, editable in the site's settings; one site per id on the instance (NULL for most sites).
ALTER TABLE websites ADD COLUMN umami_website_id TEXT;
CREATE UNIQUE INDEX websites_umami_website_id ON websites(umami_website_id) WHERE umami_website_id IS NOT NULL;
