-- Issue 37, as SQLite's 0036: each membership's choice of the site's weekly report and traffic alerts, off
-- until the member turns them on (the owner's emails follow the account's Notifications switches).
ALTER TABLE site_members ADD COLUMN email_reports BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE site_members ADD COLUMN email_alerts BOOLEAN NOT NULL DEFAULT FALSE;
