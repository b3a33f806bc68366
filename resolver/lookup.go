package resolver

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// A lookup is what the store holds for one key, as much as a resolution
// service needs, read in one statement or one read transaction so that
// a concurrent write is seen whole or not at all: whether there is a
// record, whether it is deactivated, and its lists.
type lookup struct {
	found    bool
	urn      string        // the record's URN as registered
	gone     *Deactivation // set when the record is deactivated
	urls     []string      // every location, or only the first (lookupFirst)
	rec      StoredRecord  // the whole record (needRecord)
	synonyms []string      // both directions (needSynonyms)
}

// What a lookup reads besides the record's state.
type need uint8

const (
	needURLs     need = 1 << iota // every location
	needRecord                    // the whole record: metadata, locations, the synonyms it lists
	needSynonyms                  // the synonyms in both directions
)

// firstQuery is the N2L lookup: the record's state and its first
// location in one primary-key probe of each table. A key without a
// record has no row; a record without a location has a NULL url.
const firstQuery = `SELECT r.urn, r.deactivated_at, r.reason, r.successor, l.url
	FROM records r LEFT JOIN locations l ON l.key = r.key AND l.pos = 0 WHERE r.key = ?`

// lookupFirst reads the N2L answer for key: from the cache when the store
// has one (cache.go), else one prepared statement, which is its own read
// transaction.
func (s *Store) lookupFirst(ctx context.Context, key string) (lookup, error) {
	c := s.cache.Load()
	var epoch uint64
	if c != nil {
		v, ok, e := c.get(key)
		if ok {
			return v.lookup(), nil
		}
		epoch = e
	}
	l, err := s.readFirst(ctx, key)
	if c != nil && err == nil && l.found {
		c.put(key, toCached(l), epoch)
	}
	return l, err
}

func (s *Store) readFirst(ctx context.Context, key string) (lookup, error) {
	var l lookup
	var at sql.NullInt64
	var reason, successor string
	var url sql.NullString
	err := s.first.QueryRowContext(ctx, key).Scan(&l.urn, &at, &reason, &successor, &url)
	if errors.Is(err, sql.ErrNoRows) {
		return lookup{}, nil
	}
	if err != nil {
		return lookup{}, err
	}
	l.found = true
	l.gone = deactivation(at, reason, successor)
	if url.Valid {
		l.urls = []string{url.String}
	}
	return l, nil
}

// lookup reads what want asks for under key in one read transaction.
func (s *Store) lookup(ctx context.Context, key string, want need) (lookup, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return lookup{}, err
	}
	defer tx.Rollback()
	var l lookup
	if want&needRecord != 0 {
		rec, err := s.record(ctx, tx, key, activeSynonyms)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return lookup{}, err
		default:
			l.found, l.urn, l.gone, l.rec, l.urls = true, rec.URN, rec.Deactivated, rec, rec.URLs
		}
	} else {
		var at sql.NullInt64
		var reason, successor string
		err := tx.QueryRowContext(ctx, s.q(`SELECT urn, deactivated_at, reason, successor FROM records WHERE key = ?`), key).
			Scan(&l.urn, &at, &reason, &successor)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return lookup{}, err
		default:
			l.found, l.gone = true, deactivation(at, reason, successor)
		}
		if l.found && want&needURLs != 0 {
			if l.urls, err = s.strings(ctx, tx, `SELECT url FROM locations WHERE key = ? ORDER BY pos`, key); err != nil {
				return lookup{}, err
			}
		}
	}
	if want&needSynonyms != 0 {
		if l.synonyms, err = s.synonyms(ctx, tx, key); err != nil {
			return lookup{}, err
		}
	}
	return l, nil
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
// lists first, in order, then the records that list it.
func (s *Store) synonyms(ctx context.Context, tx querier, key string) ([]string, error) {
	out, err := s.strings(ctx, tx, activeSynonyms, key)
	if err != nil {
		return nil, err
	}
	back, err := s.strings(ctx, tx, activeListers, key)
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

// goneSince formats the date of a deactivation as answers show it.
func goneSince(d *Deactivation) string { return d.At.Format(time.RFC3339) }
