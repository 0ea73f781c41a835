-- Notices that a cached site changed, for every daemon of the cluster (issue 18: no daemon holds state another
-- needs). Hits stored are announced by the ingest sink itself (cluster::notices), not by a trigger.
--
-- Notices go out on a channel named for the schema ('tracker_sites_' and the first 12 hex digits of the md5
-- of current_schema()), so that two clusters in two schemas of one database do not hear each other. Core asks
-- the database for the same name (cluster::pg::Pg::channel). A notice is delivered when its transaction
-- commits, and one transaction's duplicates are delivered once.

-- A website changed or went (a deletion of its account too: cascades fire row triggers): every daemon drops
-- its cached copy of the site and of its privacy settings.
CREATE FUNCTION notify_website_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tracker_sites_' || left(md5(current_schema()), 12), OLD.id::text);
    RETURN NULL;
END $$;
CREATE TRIGGER websites_changed AFTER UPDATE OR DELETE ON websites
    FOR EACH ROW EXECUTE FUNCTION notify_website_changed();

CREATE FUNCTION notify_privacy_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tracker_sites_' || left(md5(current_schema()), 12), NEW.website_id::text);
    RETURN NULL;
END $$;
CREATE TRIGGER privacy_settings_changed AFTER INSERT OR UPDATE ON privacy_settings
    FOR EACH ROW EXECUTE FUNCTION notify_privacy_settings_changed();
