package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Probe checks that the store takes a write now: it commits a one-row
// write of n more bytes to the probe table, the same path (transaction,
// journal, fsync) as a record's. The bytes are random, so that
// PostgreSQL cannot compress them: after a write failed on a full disk,
// /readyz asks for room for a record of the largest size, which a
// one-row write does not show (SQLite reuses the pages and the WAL it
// has; PostgreSQL its preallocated WAL segments).
func (db *DB) Probe(ctx context.Context, n int) error {
	var pad []byte
	if n > 0 {
		pad = make([]byte, n)
		rand.Read(pad)
	}
	_, err := db.w.ExecContext(ctx, db.q(`INSERT INTO probe (id, at, pad) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at, pad = excluded.pad`),
		time.Now().UnixMicro(), pad)
	return err
}

// Backup writes a consistent copy of a SQLite database to the new file
// path while the database stays online: VACUUM INTO reads one snapshot
// of the database in a read transaction, WAL frames included, so every
// write committed before it began is in the copy and none after it is.
// Copying the .db file instead can miss what is committed only in the
// -wal file. The copy is a complete database that Open opens as it is;
// path must not exist. A PostgreSQL database is ErrBackupPostgres.
func (db *DB) Backup(ctx context.Context, path string) error {
	if db.d.postgres {
		return ErrBackupPostgres
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(abs); err == nil {
		return fmt.Errorf("backup %s: the file exists", abs)
	}
	// A connection of its own: the readers are query_only, which
	// refuses VACUUM INTO, and the writer must stay free for writes.
	c, err := sql.Open("sqlite", db.base)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `VACUUM INTO ?`, abs); err != nil {
		return fmt.Errorf("backup %s: %w", abs, DiskFull(err))
	}
	return nil
}
