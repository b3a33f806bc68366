package main

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/urikit/urikit/resolver"
)

// runExport writes every record of the database to stdout as JSON
// Lines, which "urnresolver import" reads back. Exit status 0 when the
// export is whole (its end line written), 1 otherwise, 2 for a usage
// error.
func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("export", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: urnresolver export --db DSN > FILE.jsonl

Writes every record, deactivated ones too, to standard output as JSON
Lines, in key order, read in one snapshot while servers go on writing: a
header line, one line per record (urn, urls, metadata, synonyms, created,
updated, and deactivated with its date, reason and successor), and an end
line with the number of records. "urnresolver import FILE.jsonl" loads it
into the URNs of a database that have no record, with their times and
deactivations as they were; an export that lacks its end line (cut off)
is refused whole.

Examples:
  urnresolver export --db urn.db > urn.jsonl
  urnresolver import --db postgres://resolver@db.internal/urn urn.jsonl

`)
		fs.PrintDefaults()
	}
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "urnresolver export: unexpected argument %q (the export goes to standard output)\n", fs.Arg(0))
		return 2
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver export: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	n, err := resolver.Export(ctx, store, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver export: after %d records: %v; the export is incomplete (no end line)\n", n, err)
		return 1
	}
	return 0
}
