-- Share links' slugs are no longer kept in plain (issue 37): a copy of the database would otherwise open every
-- shared dashboard. `slug` now holds the slug sealed under the instance secret (text `sealed:` + base64url, so
-- the owner's list can still show the link), and the link is found by `slug_hash`, the slug's SHA-256 (the slug
-- is 128 random bits: its hash cannot be searched back). Links made before are sealed at the next start.
ALTER TABLE shared_links ADD COLUMN slug_hash BLOB;
CREATE UNIQUE INDEX shared_links_slug_hash ON shared_links(slug_hash) WHERE slug_hash IS NOT NULL;
