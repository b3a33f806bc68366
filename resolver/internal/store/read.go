package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Record is a record as the store holds it.
type Record struct {
	Key         string
	URN         string
	URLs        []string
	Metadata    string // JSON object
	Synonyms    []string
	Created     time.Time
	Updated     time.Time
	Deactivated *Deactivation // nil while the URN is active
}

// A Lookup is what the store holds for one key, as much as a resolution
// service needs, read in one statement or one read transaction so that
// a concurrent write is seen whole or not at all: whether there is a
// record, whether it is deactivated, and its lists.
type Lookup struct {
	Found    bool
	URN      string        // the record's URN as registered
	Gone     *Deactivation // set when the record is deactivated
	URLs     []string      // every location, or only the first (First)
	Record   Record        // the whole record (NeedRecord)
	Synonyms []string      // both directions (NeedSynonyms)
}

// Need says what a Lookup reads besides the record's state.
type Need uint8

// What a Lookup may read.
const (
	NeedURLs     Need = 1 << iota // every location
	NeedRecord                    // the whole record: metadata, locations, the synonyms it lists
	NeedSynonyms                  // the synonyms in both directions
)

// firstQuery is the N2L lookup: the record's state and its first
// location in one primary-key probe of each table. A key without a
// record has no row; a record without a location has a NULL url.
const firstQuery = `SELECT r.urn, r.deactivated_at, r.reason, r.successor, l.url
	FROM records r LEFT JOIN locations l ON l.key = r.key AND l.pos = 0 WHERE r.key = ?`

// First reads the N2L answer for key: the record's state and its first
// location, in one prepared statement, which is its own read
// transaction.
func (db *DB) First(ctx context.Context, key string) (Lookup, error) {
	var l Lookup
	var at sql.NullInt64
	var reason, successor string
	var url sql.NullString
	err := db.first.QueryRowContext(ctx, key).Scan(&l.URN, &at, &reason, &successor, &url)
	if errors.Is(err, sql.ErrNoRows) {
		return Lookup{}, nil
	}
	if err != nil {
		return Lookup{}, err
	}
	l.Found = true
	l.Gone = deactivation(at, reason, successor)
	if url.Valid {
		l.URLs = []string{url.String}
	}
	return l, nil
}

// FirstPage reads the N2L answers of up to n records whose keys come
// after after, in key order: what a cache preloads.
func (db *DB) FirstPage(ctx context.Context, after string, n int) (keys []string, answers []Lookup, err error) {
	rows, err := db.r.QueryContext(ctx, db.q(`SELECT r.key, r.urn, r.deactivated_at, r.reason, r.successor, l.url
		FROM records r LEFT JOIN locations l ON l.key = r.key AND l.pos = 0 WHERE r.key > ? ORDER BY r.key LIMIT ?`), after, n)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var key, reason, successor string
		l := Lookup{Found: true}
		var at sql.NullInt64
		var url sql.NullString
		if err := rows.Scan(&key, &l.URN, &at, &reason, &successor, &url); err != nil {
			return nil, nil, err
		}
		l.Gone = deactivation(at, reason, successor)
		if url.Valid {
			l.URLs = []string{url.String}
		}
		keys, answers = append(keys, key), append(answers, l)
	}
	return keys, answers, rows.Err()
}

// Lookup reads what want asks for under key in one read transaction.
func (db *DB) Lookup(ctx context.Context, key string, want Need) (Lookup, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Lookup{}, err
	}
	defer tx.Rollback()
	var l Lookup
	if want&NeedRecord != 0 {
		rec, err := db.record(ctx, tx, key, activeSynonyms)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return Lookup{}, err
		default:
			l.Found, l.URN, l.Gone, l.Record, l.URLs = true, rec.URN, rec.Deactivated, rec, rec.URLs
		}
	} else {
		var at sql.NullInt64
		var reason, successor string
		err := tx.QueryRowContext(ctx, db.q(`SELECT urn, deactivated_at, reason, successor FROM records WHERE key = ?`), key).
			Scan(&l.URN, &at, &reason, &successor)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return Lookup{}, err
		default:
			l.Found, l.Gone = true, deactivation(at, reason, successor)
		}
		if l.Found && want&NeedURLs != 0 {
			if l.URLs, err = db.strings(ctx, tx, `SELECT url FROM locations WHERE key = ? ORDER BY pos`, key); err != nil {
				return Lookup{}, err
			}
		}
	}
	if want&NeedSynonyms != 0 {
		if l.Synonyms, err = db.synonyms(ctx, tx, key); err != nil {
			return Lookup{}, err
		}
	}
	return l, nil
}

// Record returns the record under key as stored, the synonyms it lists
// as written, or ErrNotFound. It reads in one transaction so that a
// concurrent write is seen whole or not at all.
func (db *DB) Record(ctx context.Context, key string) (Record, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Record{}, err
	}
	defer tx.Rollback()
	return db.record(ctx, tx, key, storedSynonyms)
}

// locationLists and synonymLists read the locations and the synonyms,
// as written, of a list of keys (listsOf).
const (
	locationLists = `SELECT key, url FROM locations WHERE key IN {keys} ORDER BY key, pos`
	synonymLists  = `SELECT key, syn_urn FROM synonyms WHERE key IN {keys} ORDER BY key, pos`
)

// storedSynonyms reads the synonyms a record lists, as written: what
// the admin API shows and an import merges into.
const storedSynonyms = `SELECT syn_urn FROM synonyms WHERE key = ? ORDER BY pos`

// record reads the record under key in tx, its synonyms by synQuery
// (storedSynonyms, or activeSynonyms for the resolution services).
func (db *DB) record(ctx context.Context, tx querier, key, synQuery string) (Record, error) {
	rec := Record{Key: key}
	var created, updated int64
	var gone sql.NullInt64
	var reason, successor string
	err := tx.QueryRowContext(ctx, db.q(`SELECT urn, metadata, created_at, updated_at, deactivated_at, reason, successor FROM records WHERE key = ?`), key).
		Scan(&rec.URN, &rec.Metadata, &created, &updated, &gone, &reason, &successor)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, ErrNotFound
	}
	if err != nil {
		return Record{}, err
	}
	rec.Created, rec.Updated = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
	rec.Deactivated = deactivation(gone, reason, successor)
	if rec.URLs, err = db.strings(ctx, tx, `SELECT url FROM locations WHERE key = ? ORDER BY pos`, key); err != nil {
		return Record{}, err
	}
	if rec.Synonyms, err = db.strings(ctx, tx, synQuery, key); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// The resolution services never offer a deactivated URN (issue 29): not
// for a location (URNsAt), and not as a synonym, in either direction
// (N2N, N2Ns, N2C's "synonyms", the page). A synonym without a record is
// offered: registering a synonym does not need a record for it. The
// binding itself is kept, and I=I still answers true for it: a URN is
// never reassigned, so a deactivated one still names what it named.
const (
	// activeSynonyms: the synonyms the record under the key lists,
	// in order, less the deactivated ones.
	activeSynonyms = `SELECT s.syn_urn FROM synonyms s LEFT JOIN records r ON r.key = s.syn_key
		WHERE s.key = ? AND r.deactivated_at IS NULL ORDER BY s.pos`
	// activeListers: the active records that list the key as a synonym.
	activeListers = `SELECT r.urn FROM synonyms s JOIN records r ON r.key = s.key
		WHERE s.syn_key = ? AND r.deactivated_at IS NULL ORDER BY r.key`
)

// synonyms reads, in tx, the URNs registered as the same resource as
// key, in both directions, deactivated ones left out: those its record
// lists first, in order, then the records that list it. A synonym
// binding is agreed by both namings (RFC 2483 section 4.7), so either
// side may register it.
func (db *DB) synonyms(ctx context.Context, tx querier, key string) ([]string, error) {
	out, err := db.strings(ctx, tx, activeSynonyms, key)
	if err != nil {
		return nil, err
	}
	back, err := db.strings(ctx, tx, activeListers, key)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(out))
	for _, v := range out {
		seen[v] = true
	}
	for _, v := range back {
		if !seen[v] {
			out = append(out, v)
			seen[v] = true
		}
	}
	return out, nil
}

// Synonymous reports whether a synonym binding links keys a and b, in
// either direction.
func (db *DB) Synonymous(ctx context.Context, a, b string) (bool, error) {
	var n int
	err := db.r.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM synonyms WHERE (key = ? AND syn_key = ?) OR (key = ? AND syn_key = ?)`),
		a, b, b, a).Scan(&n)
	return n > 0, err
}

// URNsAt returns the URNs with a location whose comparison key is urlKey
// (L2Ns), sorted. A deactivated URN is not offered for a location.
func (db *DB) URNsAt(ctx context.Context, urlKey string) ([]string, error) {
	return db.strings(ctx, db.r, `SELECT DISTINCT r.urn FROM locations l JOIN records r ON r.key = l.key
		WHERE l.url_key = ? AND r.deactivated_at IS NULL ORDER BY r.urn`, urlKey)
}

// Count returns the number of records, deactivated ones included.
func (db *DB) Count(ctx context.Context) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM records`).Scan(&n)
	return n, err
}

// AuditEntry is one line of the audit log: who wrote what, when, from where.
type AuditEntry struct {
	ID     int64     `json:"id"`
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`  // "token:ID" or "cli"
	Client string    `json:"client"` // remote address, or "local"
	Action string    `json:"action"` // create, replace, delete, import, token-create, token-revoke
	URN    string    `json:"urn"`    // the record's URN, the token's ID, or the import's source
	Detail string    `json:"detail"` // JSON
}

// Audit returns the last n entries of the audit log, newest first.
func (db *DB) Audit(ctx context.Context, n int) ([]AuditEntry, error) {
	rows, err := db.r.QueryContext(ctx, db.q(`SELECT id, at, actor, client, action, urn, detail FROM audit ORDER BY id DESC LIMIT ?`), n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.Actor, &e.Client, &e.Action, &e.URN, &e.Detail); err != nil {
			return nil, err
		}
		e.At = time.UnixMicro(at).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}
