package store

import (
	"context"
	"database/sql"
	"errors"
)

// What harvesting another repository (urnresolver harvest, issue 30)
// writes besides records: where the next incremental harvest of a
// source starts, and deactivations and reactivations in an import's
// transaction, so that a page of a harvest is one transaction.

// HarvestFrom returns the datestamp the next harvest of source starts
// from, and false when source was never harvested whole.
func (db *DB) HarvestFrom(ctx context.Context, source string) (string, bool, error) {
	var from string
	err := db.r.QueryRowContext(ctx, db.q(`SELECT next_from FROM harvest_sources WHERE source = ?`), source).Scan(&from)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return from, err == nil, err
}

// SetHarvestFrom records, in the import's transaction, that the next
// harvest of source starts from the datestamp from.
func (t *ImportTx) SetHarvestFrom(ctx context.Context, source, from string) error {
	_, err := t.tx.ExecContext(ctx, t.db.q(`INSERT INTO harvest_sources (source, next_from, harvested_at) VALUES (?, ?, ?)
		ON CONFLICT (source) DO UPDATE SET next_from = excluded.next_from, harvested_at = excluded.harvested_at`), source, from, t.now)
	return err
}

// SetDeactivated deactivates the record under key with d (its At is
// ignored: the date is the import's, or the first deactivation's when it
// is deactivated already), or reactivates it when d is nil. The record
// must exist; a successor is not checked here (a harvest names none).
func (t *ImportTx) SetDeactivated(ctx context.Context, key string, d *Deactivation) error {
	var err error
	if d == nil {
		_, err = t.tx.ExecContext(ctx, t.db.q(`UPDATE records SET deactivated_at = NULL, reason = '', successor = '', successor_key = '', updated_at = ? WHERE key = ?`),
			t.now, key)
	} else {
		_, err = t.tx.ExecContext(ctx, t.db.q(`UPDATE records SET deactivated_at = COALESCE(deactivated_at, ?), reason = ?, successor = '', successor_key = '', updated_at = ? WHERE key = ?`),
			t.now, d.Reason, t.now, key)
	}
	return err
}
