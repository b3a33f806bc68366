package store

import (
	"context"
	"fmt"
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
