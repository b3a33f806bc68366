package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/urikit/urikit/resolver"
)

// runImport stores the records of a .csv or .jsonl file in one
// transaction. Exit status 0 when every line was stored; 1 when a line
// was refused, with one line "LINE: reason" on stderr for each refused
// line (the others are stored), or when nothing could be stored (a
// message on stderr says why); 2 for a usage error. It prints nothing on
// stdout unless -v asks for a summary.
func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("import", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: urnresolver import --db DSN [--format csv|jsonl] FILE

FILE is CSV with a header whose first two columns are urn,url (one location
per row; several rows per URN keep their order; further columns become
metadata members) or JSON Lines, one {"urn","urls","metadata","synonyms"}
object per line. The format follows the extension (.csv, .jsonl, .ndjson)
unless --format names it; FILE "-" is standard input.

All lines that are valid records are stored in one transaction; each
refused line is reported on stderr as "LINE: reason" and the exit status
is then 1. A record (all the lines of one URN) is stored whole or refused
whole: one refused line refuses the others, and each record refused so is
reported as "URN: record refused whole (line N: reason)"; what was stored
for it before stays. A record stored before is replaced by the file's.
Text must be UTF-8; a CSV header may not repeat a column.

A file "urnresolver export" wrote is loaded as it was (times,
deactivations, successors) into the URNs that have no record; a record
whose URN has one is refused, and an export cut off (no end line) is
refused whole.

Examples:
  urnresolver import --db urn.db records.csv
  urnresolver import --db postgres://resolver@db.internal/urn -v records.jsonl
  gunzip -c dump.csv.gz | urnresolver import --db urn.db --format csv -

`)
		fs.PrintDefaults()
	}
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	format := fs.String("format", "", "csv or jsonl (default: from FILE's extension)")
	dialects := fs.String("dialects", "", "URN grammar per namespace, as `nbn=draft2012`")
	var schemes listFlag
	fs.Var(&schemes, "schemes", "location `schemes` allowed (default http,https)")
	verbose := fs.Bool("v", false, "print a summary line on stdout")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "urnresolver import: want one FILE argument")
		return 2
	}
	file := fs.Arg(0)
	f := resolver.FormatOfFile(file)
	if *format != "" {
		f = resolver.FormatOfFile("." + *format)
	}
	if f == resolver.FormatUnknown {
		fmt.Fprintf(stderr, "urnresolver import: %s: name the format with a .csv or .jsonl extension or --format\n", file)
		return 2
	}
	dia, err := resolver.ParseDialects(*dialects)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver import: --dialects: %v\n", err)
		return 2
	}
	var in io.Reader = stdin
	source := "stdin"
	if file != "-" {
		fh, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "urnresolver import: %v\n", err)
			return 1
		}
		defer fh.Close()
		in = fh
		if abs, err := filepath.Abs(file); err == nil {
			source = abs
		}
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver import: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	res, err := resolver.Import(ctx, store, in, f, resolver.ImportOptions{
		Dialects: dia, Schemes: schemes, Source: "file:" + source, Exports: true,
		Audit: resolver.AuditEntry{At: time.Now().UTC(), Actor: "cli", Client: "local"},
	})
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver import: %s: %v; nothing stored\n", file, err)
		return 1
	}
	for _, le := range res.Refused {
		fmt.Fprintln(stderr, le.String())
	}
	for _, rr := range res.RefusedRecords {
		fmt.Fprintln(stderr, rr.String())
	}
	if *verbose {
		fmt.Fprintf(stdout, "%s: %d lines stored (%d URNs), %d refused, %d records refused whole\n",
			file, res.Lines, res.Records, len(res.Refused), len(res.RefusedRecords))
	}
	if len(res.Refused) > 0 || len(res.RefusedRecords) > 0 {
		return 1
	}
	return 0
}
