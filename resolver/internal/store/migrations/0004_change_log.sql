-- The change log (issue 29): every write of records adds, in its own
-- transaction, one row per key it changed under the next number of
-- change_seq, whose row lock makes the numbers dense and committed in
-- order; servers tail it to drop exactly those keys from their answer
-- caches. key '' stands for every key (a write of very many); origin
-- names the store that wrote it, which skips its own writes (it dropped
-- their keys when it committed). Rows older
-- than a few minutes are trimmed by the writers; a server that finds a
-- number missing empties its cache.
CREATE TABLE change_seq (
	id INTEGER PRIMARY KEY,
	n {{int64}} NOT NULL
);
INSERT INTO change_seq (id, n) VALUES (1, 0);
CREATE TABLE changes (
	seq {{int64}} NOT NULL,
	key TEXT NOT NULL,
	origin {{int64}} NOT NULL,
	at {{int64}} NOT NULL,
	PRIMARY KEY (seq, key)
){{without_rowid}};
