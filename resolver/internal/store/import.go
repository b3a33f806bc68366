package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// ImportTx is the one transaction of a bulk import: the records are
// written in batches as they are read, and committed all at once, so that
// after a crash either the whole import is visible or none of it.
type ImportTx struct {
	db  *DB
	tx  *sql.Tx
	now int64
}

// BeginImport begins an import whose records are written at the time at.
func (db *DB) BeginImport(ctx context.Context, at time.Time) (*ImportTx, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &ImportTx{db: db, tx: tx, now: at.UnixMicro()}, nil
}

// Rollback ends the import without storing anything; after Commit it
// does nothing.
func (t *ImportTx) Rollback() { t.tx.Rollback() }

// Write stores es, each replacing whatever is stored under its key;
// keys must be distinct within es.
func (t *ImportTx) Write(ctx context.Context, es []Entry) error {
	return t.db.writeEntries(ctx, t.tx, es, t.now)
}

// Entry returns what the import's transaction holds under key, as an
// entry to merge into, and its *GoneError when it is deactivated.
func (t *ImportTx) Entry(ctx context.Context, key string) (Entry, *GoneError, bool, error) {
	db, tx := t.db, t.tx
	e := Entry{Key: key}
	var at sql.NullInt64
	var reason, successor string
	err := tx.QueryRowContext(ctx, db.q(`SELECT urn, metadata, deactivated_at, reason, successor FROM records WHERE key = ?`), key).
		Scan(&e.URN, &e.Metadata, &at, &reason, &successor)
	if errors.Is(err, sql.ErrNoRows) {
		return Entry{}, nil, false, nil
	}
	if err != nil {
		return Entry{}, nil, false, err
	}
	var gone *GoneError
	if d := deactivation(at, reason, successor); d != nil {
		gone = &GoneError{URN: e.URN, Deactivation: *d}
	}
	e.NID, _, _ = strings.Cut(strings.TrimPrefix(e.URN, "urn:"), ":")
	pairs := func(query string, add func(a, b string)) error {
		rows, err := tx.QueryContext(ctx, db.q(query), key)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a, b string
			if err := rows.Scan(&a, &b); err != nil {
				return err
			}
			add(a, b)
		}
		return rows.Err()
	}
	if err := pairs(`SELECT url, url_key FROM locations WHERE key = ? ORDER BY pos`, func(u, k string) {
		e.URLs = append(e.URLs, Location{URL: u, Key: k})
	}); err != nil {
		return Entry{}, nil, false, err
	}
	if err := pairs(`SELECT syn_key, syn_urn FROM synonyms WHERE key = ? ORDER BY pos`, func(k, u string) {
		e.Synonyms = append(e.Synonyms, Synonym{Key: k, URN: u})
	}); err != nil {
		return Entry{}, nil, false, err
	}
	return e, gone, true, nil
}

// Deactivated returns which of keys are deactivated: an import refuses
// their records.
func (t *ImportTx) Deactivated(ctx context.Context, keys []string) (map[string]*GoneError, error) {
	out := map[string]*GoneError{}
	err := t.db.inKeys(ctx, t.tx, `SELECT key, urn, deactivated_at, reason, successor FROM records WHERE deactivated_at IS NOT NULL AND key IN {keys}`, nil, keys,
		func(rows *sql.Rows) error {
			var k, urn, reason, successor string
			var at sql.NullInt64
			if err := rows.Scan(&k, &urn, &at, &reason, &successor); err != nil {
				return err
			}
			out[k] = &GoneError{URN: urn, Deactivation: *deactivation(at, reason, successor)}
			return nil
		})
	return out, err
}

// Restore puts back the rows of key as the last committed transaction
// left them: an import that refuses a record after writing part of it
// in its transaction undoes that part. The committed state is read
// outside the import's transaction (a WAL reader on SQLite, another
// connection on PostgreSQL), which does not see its writes; nobody else
// can have changed the key since, because the import holds the write
// lock on SQLite and the key's rows on PostgreSQL.
func (t *ImportTx) Restore(ctx context.Context, key string) error {
	db, tx := t.db, t.tx
	rtx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer rtx.Rollback()
	var rec []any
	var urn, nid, meta, reason, successor, successorKey string
	var created, updated, changed int64
	var gone sql.NullInt64
	err = rtx.QueryRowContext(ctx, db.q(`SELECT urn, nid, metadata, created_at, updated_at, deactivated_at, reason, successor, successor_key, changed_at FROM records WHERE key = ?`), key).
		Scan(&urn, &nid, &meta, &created, &updated, &gone, &reason, &successor, &successorKey, &changed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	default:
		rec = []any{key, urn, nid, meta, created, updated, gone, reason, successor, successorKey, changed}
	}
	rowsOf := func(query string) ([][]any, error) {
		rows, err := rtx.QueryContext(ctx, db.q(query), key)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out [][]any
		for rows.Next() {
			var pos int64
			var a, b string
			if err := rows.Scan(&pos, &a, &b); err != nil {
				return nil, err
			}
			out = append(out, []any{key, pos, a, b})
		}
		return out, rows.Err()
	}
	locs, err := rowsOf(`SELECT pos, url, url_key FROM locations WHERE key = ?`)
	if err != nil {
		return err
	}
	syns, err := rowsOf(`SELECT pos, syn_key, syn_urn FROM synonyms WHERE key = ?`)
	if err != nil {
		return err
	}
	for _, q := range []string{`DELETE FROM records WHERE key = ?`, `DELETE FROM locations WHERE key = ?`, `DELETE FROM synonyms WHERE key = ?`} {
		if _, err := tx.ExecContext(ctx, db.q(q), key); err != nil {
			return err
		}
	}
	if rec != nil {
		if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO records (key, urn, nid, metadata, created_at, updated_at, deactivated_at, reason, successor, successor_key, changed_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), rec...); err != nil {
			return err
		}
	}
	if err := db.insertRows(ctx, tx, `INSERT INTO locations (key, pos, url, url_key) VALUES `, 4, locs); err != nil {
		return err
	}
	return db.insertRows(ctx, tx, `INSERT INTO synonyms (key, pos, syn_key, syn_urn) VALUES `, 4, syns)
}

// Commit writes the audit entry a, logs keys in the change log, and
// commits the import.
func (t *ImportTx) Commit(ctx context.Context, a AuditEntry, keys []string) error {
	if err := t.db.audit(ctx, t.tx, a); err != nil {
		return err
	}
	return t.db.commit(ctx, t.tx, keys...)
}
