-- successor_key is the equivalence key of successor (issue 31), so that
-- a deactivation follows the chain of successors by key in its own
-- transaction, without parsing URNs there. Rows deactivated before it
-- take the key of the record registered under the successor's URN, or
-- the successor as written (its key in namespaces without equivalence
-- rules of their own).
ALTER TABLE records ADD COLUMN successor_key TEXT NOT NULL DEFAULT '';
UPDATE records SET successor_key = COALESCE(
	(SELECT s.key FROM records s WHERE s.urn = records.successor ORDER BY s.key LIMIT 1),
	records.successor) WHERE successor <> '';
