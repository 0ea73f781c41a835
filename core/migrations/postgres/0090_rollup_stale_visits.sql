-- Cluster mode's rolled-up hours that a long visit has outgrown (issue 18). ClickHouse's rollups count a visit in
-- the hour it started, with its length and bounce as its hits gave them when the hour was rolled up, three days
-- later. A visit still going by then (hits less than 30 minutes apart for days: a robot, a tab a script keeps
-- busy) gets later hits that its rolled-up hour lacks. The ingest sink notes each site's earliest such start
-- here, after the hits are stored in ClickHouse and before they are answered; the next roll-up recomputes the
-- site's rollups from that hour and deletes the note it read (one a later batch changed stays for the next).
CREATE SEQUENCE rollup_stale_notes;

CREATE TABLE rollup_stale_visits (
    website_id BIGINT PRIMARY KEY,
    -- The earliest start, in ms, of a visit of the site whose rolled-up hour lacks some of its hits.
    from_ms BIGINT NOT NULL,
    -- The latest note's number (from rollup_stale_notes, not a clock: daemons' clocks differ), which tells a
    -- roll-up whether the note changed since it read it.
    note BIGINT NOT NULL
);
