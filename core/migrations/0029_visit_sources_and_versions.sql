-- Issue 34 item 4, issue 36: each visit's source named as people know it (Google, Twitter, LinkedIn, ...), decided
-- once at ingest from the referrer list (core/src/ingest/sources.rs) and stored with the visit, so every read,
-- rollup rebuild and export takes the stored name. Visits stored before have '' until the writer's start-up
-- names them (and the rollups' `source` values) from their utm_source and referring host, once: the row of
-- `sources_to_name` says that step is still to do, and the step deletes it.
ALTER TABLE sessions ADD COLUMN source TEXT NOT NULL DEFAULT '';
-- Issue 36: the browser's major version ("118") and the system's major[.minor] ("10.15") of each visit, from its
-- first hit's user agent, for the filters and breakdowns by version. '' for visits stored before (the user
-- agent itself is never stored).
ALTER TABLE sessions ADD COLUMN browser_version TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN os_version TEXT NOT NULL DEFAULT '';
CREATE TABLE sources_to_name (pending INTEGER NOT NULL);
INSERT INTO sources_to_name VALUES (1);
