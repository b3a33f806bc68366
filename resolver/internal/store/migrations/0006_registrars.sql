-- Registrars (issue 30): a national library delegates parts of its NBN
-- space to registrars, each the owner of an NSS prefix (CZIDLO's
-- urn:nbn:cz:aba001-...). prefix is as given ("nbn:cz:aba001-"),
-- prefix_key the equivalence key every URN under it starts with; no
-- prefix_key starts another (the store refuses overlaps). modes are the
-- ways its URNs are assigned, space-separated: resolver (the next
-- number), reserved (blocks of numbers reserved first), registrar (the
-- registrar's own choice). next_number is the counter the resolver
-- assigns from: updated in the transaction that mints or reserves, so
-- two writers never get one number and a number is never given again,
-- whatever becomes of its URN.
CREATE TABLE registrars (
	code TEXT PRIMARY KEY,
	prefix TEXT NOT NULL,
	prefix_key TEXT NOT NULL UNIQUE,
	modes TEXT NOT NULL,
	next_number {{int64}} NOT NULL,
	created_at {{int64}} NOT NULL
);
-- A reserved URN: assigned to a registrar from its counter, registered
-- later by that registrar only, until expires_at (NULL: never). The row
-- goes when the URN is registered.
CREATE TABLE reservations (
	key TEXT PRIMARY KEY,
	urn TEXT NOT NULL,
	registrar TEXT NOT NULL,
	number {{int64}} NOT NULL,
	created_at {{int64}} NOT NULL,
	expires_at {{int64}}
);
CREATE INDEX reservations_by_registrar ON reservations (registrar, number);
-- A token of a registrar writes only under its prefix, and mints and
-- reserves for it; '' for the other tokens.
ALTER TABLE tokens ADD COLUMN registrar TEXT NOT NULL DEFAULT '';
