-- Issue 33: no secret lives in the metadata database. A daemon signs tokens with the configured jwt_secret and
-- derives each day's visitor salt from the configured visitor_salt_key (cluster mode requires both), so the
-- secret that 0020 stored and the daily salts that 0010 stored go, with their values: a copy of this database
-- could forge sign-ins with the one and recompute visitors' addresses with the others. Sign-ins made with the
-- stored secret end (their tokens no longer verify), and authenticators sealed under it stop working (their
-- owners sign in with a recovery code and enrol again); README "Scaling out" says so.
DROP TABLE IF EXISTS signing_secret;
DROP TABLE IF EXISTS ingest_salts;
