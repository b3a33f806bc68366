package store

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// What OAI-PMH harvesting reads (issue 30): records by change time or
// by key, a page at a time, with the horizon that makes an incremental
// harvest lose nothing.

// stamp sets the change time of the records under keys to at, in tx:
// every write of records does, in commit, under the change log's
// counter row.
func (db *DB) stamp(ctx context.Context, tx execer, keys []string, at int64) error {
	for start := 0; start < len(keys); {
		end := min(start+maxParams-1, len(keys))
		args := make([]any, 0, end-start+1)
		args = append(args, at)
		for _, k := range keys[start:end] {
			args = append(args, k)
		}
		if _, err := tx.ExecContext(ctx, db.q(`UPDATE records SET changed_at = ? WHERE key IN `+placeholders(end-start)), args...); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// Horizon returns a change time T such that every write stamped at or
// before T has committed, and every write that commits later is stamped
// after T: what a harvest reads after Horizon returns holds every change
// up to T, so that a harvester that asks next time for the changes from
// T on misses none. It reserves T in the counter row, under the lock
// that writers stamp under (commit), which waits for the writes in
// flight to commit.
func (db *DB) Horizon(ctx context.Context) (time.Time, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return time.Time{}, err
	}
	defer tx.Rollback()
	now := time.Now().UnixMicro()
	var at int64
	if err := tx.QueryRowContext(ctx, db.q(`UPDATE change_seq SET at = CASE WHEN at < ? THEN ? ELSE at END WHERE id = 1 RETURNING at`),
		now, now).Scan(&at); err != nil {
		return time.Time{}, err
	}
	return time.UnixMicro(at).UTC(), tx.Commit()
}

// HarvestQuery selects records for a harvest page.
type HarvestQuery struct {
	// ByKey pages in key order, after AfterKey; else in order of
	// (change time, key), after (AfterChanged, AfterKey).
	ByKey        bool
	AfterKey     string
	AfterChanged int64 // Unix microseconds
	// From and Until bound the change time, in Unix microseconds, both
	// inclusive; HasFrom and HasUntil say whether they apply.
	From, Until       int64
	HasFrom, HasUntil bool
	NID               string // the namespace; "" for all
	// KeyPrefix selects the records whose key starts with it (a
	// registrar's prefix key); "" for all.
	KeyPrefix string
	// Key, when set, selects the record under it alone (HarvestOne).
	Key   string
	Limit int
	// Full reads the metadata and the locations too.
	Full bool
}

// Harvested is a record as a harvest reads it.
type Harvested struct {
	Key, URN, NID string
	Metadata      string // JSON object (Full)
	URLs          []string
	Created       time.Time
	Changed       time.Time
	Deactivated   *Deactivation
}

// ChangedMicros is the record's change time in Unix microseconds, the
// cursor of a page by change time.
func (h Harvested) ChangedMicros() int64 { return h.Changed.UnixMicro() }

// Harvest reads up to q.Limit records that q selects, in its order, in
// one read transaction.
func (db *DB) Harvest(ctx context.Context, q HarvestQuery) ([]Harvested, error) {
	var where []string
	var args []any
	switch {
	case q.Key != "":
		where, args = append(where, `key = ?`), append(args, q.Key)
	case q.ByKey:
		where, args = append(where, `key > ?`), append(args, q.AfterKey)
	default:
		where, args = append(where, `(changed_at, key) > (?, ?)`), append(args, q.AfterChanged, q.AfterKey)
	}
	if q.HasFrom {
		where, args = append(where, `changed_at >= ?`), append(args, q.From)
	}
	if q.HasUntil {
		where, args = append(where, `changed_at <= ?`), append(args, q.Until)
	}
	if q.NID != "" {
		where, args = append(where, `nid = ?`), append(args, q.NID)
	}
	if q.KeyPrefix != "" {
		where, args = append(where, `substr(key, 1, length(CAST(? AS TEXT))) = ?`), append(args, q.KeyPrefix, q.KeyPrefix)
	}
	order := `changed_at, key`
	if q.ByKey {
		order = `key`
	}
	cols := `key, urn, nid, created_at, changed_at, deactivated_at, reason, successor, ''`
	if q.Full {
		cols = `key, urn, nid, created_at, changed_at, deactivated_at, reason, successor, metadata`
	}
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, db.q(`SELECT `+cols+` FROM records WHERE `+strings.Join(where, ` AND `)+` ORDER BY `+order+` LIMIT ?`),
		append(args, q.Limit)...)
	if err != nil {
		return nil, err
	}
	var out []Harvested
	for rows.Next() {
		var h Harvested
		var created, changed int64
		var gone sql.NullInt64
		var reason, successor string
		if err := rows.Scan(&h.Key, &h.URN, &h.NID, &created, &changed, &gone, &reason, &successor, &h.Metadata); err != nil {
			rows.Close()
			return nil, err
		}
		h.Created, h.Changed = time.UnixMicro(created).UTC(), time.UnixMicro(changed).UTC()
		h.Deactivated = deactivation(gone, reason, successor)
		out = append(out, h)
	}
	err = rows.Err()
	rows.Close()
	if err != nil || !q.Full || len(out) == 0 {
		return out, err
	}
	keys := make([]string, len(out))
	for i, h := range out {
		keys[i] = h.Key
	}
	urls, err := db.listsOf(ctx, tx, locationLists, keys)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].URLs = urls[out[i].Key]
	}
	return out, nil
}

// HarvestOne reads the record under key as a harvest does (Full), or
// ErrNotFound.
func (db *DB) HarvestOne(ctx context.Context, key string) (Harvested, error) {
	hs, err := db.Harvest(ctx, HarvestQuery{Key: key, ByKey: true, Full: true, Limit: 1})
	if err != nil {
		return Harvested{}, err
	}
	if len(hs) == 0 {
		return Harvested{}, ErrNotFound
	}
	return hs[0], nil
}

// Namespaces returns the namespaces (lowercase NIDs) that have records,
// sorted: one index probe per namespace, however many records each
// holds.
func (db *DB) Namespaces(ctx context.Context) ([]string, error) {
	return db.strings(ctx, db.r, `WITH RECURSIVE n(nid) AS (
		SELECT MIN(nid) FROM records
		UNION ALL
		SELECT (SELECT MIN(r.nid) FROM records r WHERE r.nid > n.nid) FROM n WHERE n.nid IS NOT NULL
	) SELECT nid FROM n WHERE nid IS NOT NULL`)
}

// Earliest returns the earliest change time of a record, and false when
// there is no record.
func (db *DB) Earliest(ctx context.Context) (time.Time, bool, error) {
	var at sql.NullInt64
	if err := db.r.QueryRowContext(ctx, `SELECT MIN(changed_at) FROM records`).Scan(&at); err != nil {
		return time.Time{}, false, err
	}
	return time.UnixMicro(at.Int64).UTC(), at.Valid, nil
}
