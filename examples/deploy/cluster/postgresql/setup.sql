-- The metadata database, once, on the PostgreSQL machine: sudo -u postgres psql -f setup.sql
-- (then allow the app machines in pg_hba.conf, e.g. `host tracker tracker 10.0.0.0/24 scram-sha-256`, and
-- listen_addresses = 'localhost,10.0.0.20' in postgresql.conf). tracker creates its tables at start.
CREATE ROLE tracker LOGIN PASSWORD 'CHANGE-ME';
CREATE DATABASE tracker OWNER tracker ENCODING 'UTF8';
