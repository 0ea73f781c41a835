-- Each site's timezone (an IANA name, issue 36), as SQLite's 0039: the cluster's rollups key the site's hours and
-- days by it (core/src/cluster/rollups.rs).
ALTER TABLE websites ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
UPDATE websites SET timezone = u.timezone FROM users u WHERE u.id = websites.user_id AND u.timezone <> 'UTC';
