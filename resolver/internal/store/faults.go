package store

import (
	"context"
	"fmt"
	"time"
)

// LimitPages caps a SQLite database at its size now plus extra pages,
// as a full disk would; a negative extra lifts the cap. It is how the
// tests fill a disk (the cap is a setting of the writer's connection).
func (db *DB) LimitPages(ctx context.Context, extra int) error {
	if db.d.postgres {
		return fmt.Errorf("LimitPages: %s has no page cap", db.d.name)
	}
	max := 1073741823 // SQLite's largest
	if extra >= 0 {
		var pages int
		if err := db.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
			return err
		}
		max = pages + extra
	}
	_, err := db.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, max))
	return err
}

// AgeChanges moves every record's change time, and the last one handed
// out, d into the past, as if they had been written that long ago: how
// the tests tell an incremental harvest's changes from what came before
// it, whose datestamps would otherwise share its second.
func (db *DB) AgeChanges(ctx context.Context, d time.Duration) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, db.q(`UPDATE change_seq SET at = at - ? WHERE id = 1`), d.Microseconds()); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, db.q(`UPDATE records SET changed_at = changed_at - ?`), d.Microseconds()); err != nil {
		return err
	}
	return tx.Commit()
}
