-- Persistent identifiers are never forgotten (issue 23): a record is
-- deactivated, not deleted. deactivated_at is NULL while the URN is
-- active; reason says why it was deactivated; successor is the canonical
-- URN that replaces it ('' for none), successor_key its equivalence key.
ALTER TABLE records ADD COLUMN deactivated_at {{int64}};
ALTER TABLE records ADD COLUMN reason TEXT NOT NULL DEFAULT '';
ALTER TABLE records ADD COLUMN successor TEXT NOT NULL DEFAULT '';
-- /readyz writes here to learn whether the store takes writes.
CREATE TABLE probe (
	id INTEGER PRIMARY KEY,
	at {{int64}} NOT NULL
);
