-- Each site's timezone (an IANA name, issue 36), as SQLite's 0039. The cluster's rollups stay keyed by UTC hours
-- for now: its events engine reads UTC days whatever this says (README "Timezones").
ALTER TABLE websites ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
UPDATE websites SET timezone = u.timezone FROM users u WHERE u.id = websites.user_id AND u.timezone <> 'UTC';
