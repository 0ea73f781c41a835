-- The daily salts of the visitor hash live only in the ingest writer's memory (issue 12, finding 7): stored
-- beside the hashes and the anonymised addresses, they let anyone holding the database file recompute a
-- visitor's address from 256 guesses of its /24. Connections delete with secure_delete on, so the dropped
-- pages are zeroed, and the log is emptied after the migrations (db::Db::open).
DROP TABLE daily_salts;
