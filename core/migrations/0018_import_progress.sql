-- Imports are written in batches (short transactions, so a running daemon's ingest does not wait for a whole
-- file): `complete` turns 1 with the last batch. An import left at 0 was interrupted; the next import into the
-- site deletes what it wrote before it starts. Imports made before batching were one transaction: complete.
ALTER TABLE imports ADD COLUMN complete INTEGER NOT NULL DEFAULT 1;
