package store

import (
	"context"
	"database/sql"
	"time"
)

// Export and its load (issue 30): every record, whole, in key order, and
// back into a database with its times and deactivation as they were.

// Exported is a record as an export holds it: everything stored for it.
type Exported struct {
	Record
	SuccessorKey string // the successor's equivalence key, when deactivated with one
}

// exportPage is the number of records an export reads per statement.
const exportPage = 1000

// Export calls fn with every record, in key order, read in one
// snapshot: a write during the export is in it whole or not at all.
func (db *DB) Export(ctx context.Context, fn func(Exported) error) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.d.postgres {
		// One snapshot for every statement of the transaction.
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := db.r.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	after := ""
	for {
		page, err := db.exportPage(ctx, tx, after)
		if err != nil {
			return err
		}
		for _, e := range page {
			if err := fn(e); err != nil {
				return err
			}
		}
		if len(page) < exportPage {
			return nil
		}
		after = page[len(page)-1].Key
	}
}

func (db *DB) exportPage(ctx context.Context, tx querier, after string) ([]Exported, error) {
	rows, err := tx.QueryContext(ctx, db.q(`SELECT key, urn, metadata, created_at, updated_at, deactivated_at, reason, successor, successor_key
		FROM records WHERE key > ? ORDER BY key LIMIT ?`), after, exportPage)
	if err != nil {
		return nil, err
	}
	var out []Exported
	for rows.Next() {
		var e Exported
		var created, updated int64
		var gone sql.NullInt64
		var reason, successor string
		if err := rows.Scan(&e.Key, &e.URN, &e.Metadata, &created, &updated, &gone, &reason, &successor, &e.SuccessorKey); err != nil {
			rows.Close()
			return nil, err
		}
		e.Created, e.Updated = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
		e.Deactivated = deactivation(gone, reason, successor)
		out = append(out, e)
	}
	err = rows.Err()
	rows.Close()
	if err != nil || len(out) == 0 {
		return out, err
	}
	keys := make([]string, len(out))
	for i, e := range out {
		keys[i] = e.Key
	}
	urls, err := db.listsOf(ctx, tx, locationLists, keys)
	if err != nil {
		return nil, err
	}
	syns, err := db.listsOf(ctx, tx, synonymLists, keys)
	if err != nil {
		return nil, err
	}
	for i, e := range out {
		out[i].URLs, out[i].Synonyms = urls[e.Key], syns[e.Key]
	}
	return out, nil
}

// Loaded is a record as an export held it, to store as it was: its
// times, and its deactivation with the successor's key.
type Loaded struct {
	Entry
	Created, Updated time.Time
	Deactivated      *Deactivation
	SuccessorKey     string
}

// Existing returns which of keys have a record in the import's
// transaction.
func (t *ImportTx) Existing(ctx context.Context, keys []string) (map[string]bool, error) {
	return t.db.keysIn(ctx, t.tx, `SELECT key FROM records WHERE key IN {keys}`, keys)
}

// Load stores ls, whose keys have no record, as they were: times,
// deactivation, lists. Keys must be distinct within ls.
func (t *ImportTx) Load(ctx context.Context, ls []Loaded) error {
	rows := make([][]any, len(ls))
	es := make([]Entry, len(ls))
	for i, l := range ls {
		var gone any
		var reason, successor string
		if d := l.Deactivated; d != nil {
			gone, reason, successor = d.At.UnixMicro(), d.Reason, d.Successor
		}
		rows[i] = []any{l.Key, l.URN, l.NID, l.Metadata, l.Created.UnixMicro(), l.Updated.UnixMicro(), gone, reason, successor, l.SuccessorKey}
		es[i] = l.Entry
	}
	if err := t.db.insertRows(ctx, t.tx, `INSERT INTO records (key, urn, nid, metadata, created_at, updated_at, deactivated_at, reason, successor, successor_key) VALUES `, 10, rows); err != nil {
		return err
	}
	return t.db.writeLists(ctx, t.tx, es)
}

// CheckSuccessor checks, in the import's transaction, the chain of
// successors of a loaded deactivated record as a deactivation does
// (Deactivate): a *SuccessorError when a URN along it has no record or
// it leads back.
func (t *ImportTx) CheckSuccessor(ctx context.Context, l Loaded) error {
	if l.Deactivated == nil || l.Deactivated.Successor == "" {
		return nil
	}
	return t.db.checkSuccessors(ctx, t.tx, Target{Key: l.Key, URN: l.URN}, l.Deactivated.Successor, l.SuccessorKey)
}

// Unload removes what Load stored under key: a loaded record that is
// refused after all.
func (t *ImportTx) Unload(ctx context.Context, key string) error {
	for _, q := range []string{`DELETE FROM records WHERE key = ?`, `DELETE FROM locations WHERE key = ?`, `DELETE FROM synonyms WHERE key = ?`} {
		if _, err := t.tx.ExecContext(ctx, t.db.q(q), key); err != nil {
			return err
		}
	}
	return nil
}
