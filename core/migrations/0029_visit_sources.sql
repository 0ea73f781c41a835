-- Issue 34 item 4, issue 36: each visit's source named as people know it (Google, Twitter, LinkedIn, ...), decided
-- once at ingest from the referrer list (core/src/ingest/sources.rs) and stored with the visit, so every read,
-- rollup rebuild and export takes the stored name. Visits stored before have '' until the writer's start-up
-- names them (and the rollups' `source` values) from their utm_source and referring host, once: the row of
-- `sources_to_name` says that step is still to do, and the step deletes it.
ALTER TABLE sessions ADD COLUMN source TEXT NOT NULL DEFAULT '';
CREATE TABLE sources_to_name (pending INTEGER NOT NULL);
INSERT INTO sources_to_name VALUES (1);
