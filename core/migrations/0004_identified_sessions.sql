-- Identified visitors (identify() traits or a detected organization) are listed per site without scanning
-- every session of the site.
CREATE INDEX sessions_identified ON sessions(website_id, last_seen)
    WHERE organization_id IS NOT NULL OR traits IS NOT NULL;
