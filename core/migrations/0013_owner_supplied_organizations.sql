-- An organization's domain, industry and size are what the site owner supplies (edited in the dashboard or
-- imported with `tracker orgs import`); the ingest no longer fills them from a table of well-known names or
-- words in the network's name, and the values it stored that way are dropped (no owner could set them yet).
UPDATE organizations SET domain = '', industry = '', size = '';
