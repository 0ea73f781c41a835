-- Issue 37: email reports and alerts reach the members who ask for them. Each membership says whether its
-- account wants the site's weekly report and its traffic alerts; off until the member turns them on (the owner's
-- own emails still follow the account's Notifications switches).
ALTER TABLE site_members ADD COLUMN email_reports INTEGER NOT NULL DEFAULT 0 CHECK (email_reports IN (0, 1));
ALTER TABLE site_members ADD COLUMN email_alerts INTEGER NOT NULL DEFAULT 0 CHECK (email_alerts IN (0, 1));
