-- Privacy deletions and visitor erasure that answer at once on the cluster (issue 39): the request counts what goes
-- and leaves the deletion on the shards to a job of `deletion_jobs`, run and retried as a site's deletion is. Until
-- the job is done no read of its site answers (reads wait for it, `cluster::privacy_jobs::settle`).
ALTER TABLE deletion_jobs
    -- 'sites' (the sites and every row of theirs), 'data' (a data type of one site, before a time) or 'visits'
    -- (one visitor's visits of one site).
    ADD COLUMN what TEXT NOT NULL DEFAULT 'sites',
    -- For 'data': pageviews, events or all; `before_ms` the cut-off (NULL: everything of the site).
    ADD COLUMN data_type TEXT,
    ADD COLUMN before_ms BIGINT,
    -- For 'visits': the visits' ids (opaque numbers; the visitor's id is not kept).
    ADD COLUMN visit_ids BIGINT[],
    -- The hours whose rollups are rebuilt once the rows are gone, found when the request counted them (a retry
    -- after a partial deletion could no longer find them).
    ADD COLUMN span_from BIGINT,
    ADD COLUMN span_to BIGINT;
