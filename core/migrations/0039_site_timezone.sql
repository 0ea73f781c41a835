-- Each site's timezone (an IANA name, issue 36): the days, weeks, months and hours of its reads are local ones, and
-- its rollups are keyed by its local hours and days. Sites made before take their owner's profile timezone.
ALTER TABLE websites ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
UPDATE websites SET timezone = (SELECT u.timezone FROM users u WHERE u.id = websites.user_id)
WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = websites.user_id AND u.timezone <> 'UTC');
