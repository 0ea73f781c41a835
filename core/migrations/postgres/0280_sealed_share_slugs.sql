-- Share links' slugs sealed at rest, found by their SHA-256 (SQLite's 0038 says why).
ALTER TABLE shared_links ADD COLUMN slug_hash BYTEA;
CREATE UNIQUE INDEX shared_links_slug_hash ON shared_links (slug_hash) WHERE slug_hash IS NOT NULL;
