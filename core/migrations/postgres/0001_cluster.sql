-- Cluster mode's metadata schema starts here; each later migration adds the tables of one store it moves
-- out of SQLite (users, tokens and websites first).
SELECT 1;
