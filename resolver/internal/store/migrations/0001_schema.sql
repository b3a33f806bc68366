-- The first schema. Written once for both databases: {{name}} stands for
-- a type or clause of the dialect (migrate.go, dialect.types).
--
-- records holds one row per equivalence key (Name.Key); locations and
-- synonyms hold its ordered lists, pos 0 first, so that N2L is one
-- primary-key lookup (key, 0). Times are Unix microseconds.
CREATE TABLE records (
	key TEXT PRIMARY KEY,
	urn TEXT NOT NULL,
	nid TEXT NOT NULL,
	metadata TEXT NOT NULL DEFAULT '{}',
	created_at {{int64}} NOT NULL,
	updated_at {{int64}} NOT NULL
){{without_rowid}};
CREATE TABLE locations (
	key TEXT NOT NULL,
	pos INTEGER NOT NULL,
	url TEXT NOT NULL,
	url_key TEXT NOT NULL,
	PRIMARY KEY (key, pos)
){{without_rowid}};
CREATE INDEX locations_by_url ON locations (url_key);
CREATE TABLE synonyms (
	key TEXT NOT NULL,
	pos INTEGER NOT NULL,
	syn_key TEXT NOT NULL,
	syn_urn TEXT NOT NULL,
	PRIMARY KEY (key, pos)
){{without_rowid}};
CREATE INDEX synonyms_by_synonym ON synonyms (syn_key);
CREATE TABLE tokens (
	id TEXT PRIMARY KEY,
	hash {{bytes}} NOT NULL,
	scopes TEXT NOT NULL,
	note TEXT NOT NULL DEFAULT '',
	created_at {{int64}} NOT NULL,
	revoked_at {{int64}}
);
CREATE TABLE audit (
	id {{serial_key}},
	at {{int64}} NOT NULL,
	actor TEXT NOT NULL,
	client TEXT NOT NULL,
	action TEXT NOT NULL,
	urn TEXT NOT NULL,
	detail TEXT NOT NULL
);
