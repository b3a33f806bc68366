package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/urikit/urikit/resolver"
)

// runBackup writes a consistent copy of a SQLite database while servers
// keep using it (resolver.Store.Backup: VACUUM INTO, one read snapshot,
// WAL included). A PostgreSQL database is backed up with pg_dump.
func runBackup(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("backup", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: urnresolver backup --db DSN FILE

Writes a consistent copy of the SQLite database DSN to FILE, a new file,
while servers keep reading and writing it: every write acknowledged before
the backup began is in the copy. Copying the .db file instead can miss
writes that are only in its -wal file.

Restore: stop the servers, move the database's .db, .db-wal and .db-shm
files away, copy FILE to the database's path, start the servers.

For PostgreSQL use pg_dump:  pg_dump --format=custom --file FILE 'postgres://...'
and restore with pg_restore --clean --if-exists --dbname 'postgres://...' FILE.

Examples:
  urnresolver backup --db /var/lib/urikit/urnresolver.db /backup/urn-2026-11-24.db

`)
		fs.PrintDefaults()
	}
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "urnresolver backup: want one FILE argument")
		return 2
	}
	if resolver.IsPostgres(*dsn) {
		fmt.Fprintf(stderr, "urnresolver backup: %v\n", resolver.ErrBackupPostgres)
		return 2
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver backup: %s: %v\n", *dsn, err)
		return 1
	}
	defer store.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := store.Backup(ctx, fs.Arg(0)); err != nil {
		if errors.Is(err, resolver.ErrDiskFull) {
			fmt.Fprintf(stderr, "urnresolver backup: the disk of %s is full: %v\n", fs.Arg(0), err)
			return 1
		}
		fmt.Fprintf(stderr, "urnresolver backup: %v\n", err)
		return 1
	}
	return 0
}
