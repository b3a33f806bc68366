-- OAI-PMH and statistics (issue 30). changed_at is a record's change
-- time, the datestamp harvesters select by: stamped by every write of
-- the record while it holds the change log's counter row (commit,
-- write.go), so that change times are ordered as the writes commit.
-- change_seq.at is the last change time handed out: a writer takes one
-- above it, and a harvest's first request reserves one (Horizon), so
-- that every write stamped at or before it has committed and every
-- later one is stamped after it.
ALTER TABLE records ADD COLUMN changed_at {{int64}} NOT NULL DEFAULT 0;
UPDATE records SET changed_at = updated_at;
CREATE INDEX records_by_change ON records (changed_at, key);
CREATE INDEX records_by_nid ON records (nid, key);
ALTER TABLE change_seq ADD COLUMN at {{int64}} NOT NULL DEFAULT 0;
UPDATE change_seq SET at = (SELECT COALESCE(MAX(changed_at), 0) FROM records) WHERE id = 1;
-- Resolutions per UTC day (YYYY-MM-DD), namespace and registrar ('' for
-- none), as the servers' in-memory counters add them up at each flush.
CREATE TABLE resolutions (
	day TEXT NOT NULL,
	nid TEXT NOT NULL,
	registrar TEXT NOT NULL DEFAULT '',
	n {{int64}} NOT NULL,
	PRIMARY KEY (day, nid, registrar)
);
-- Harvests of other repositories (urnresolver harvest): per source (its
-- base URL and set), the datestamp the next incremental harvest asks
-- from, the responseDate of the last complete harvest, written with its
-- last page.
CREATE TABLE harvest_sources (
	source TEXT PRIMARY KEY,
	next_from TEXT NOT NULL,
	harvested_at {{int64}} NOT NULL
);
