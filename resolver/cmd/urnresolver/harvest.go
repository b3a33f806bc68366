package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/urikit/urikit/resolver"
)

// runHarvest harvests another resolver's OAI-PMH repository into the
// database. Exit status 0 when the harvest completed and stored every
// record; 1 when a record was refused (one line "IDENTIFIER: reason" on
// stderr for each; the others are stored) or the harvest did not
// complete (a message says why; the pages stored before stay, and the
// next harvest starts where this one did); 2 for a usage error.
func runHarvest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("harvest", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: urnresolver harvest --db DSN [--set SPEC] [--from DATE | --full] URL

Harvests the OAI-PMH 2.0 repository at URL (another resolver's /oai, or
any repository of URN records in oai_dc) into the database: ListRecords
from where the last complete harvest of URL (and set) ended, so that a
second run fetches only what changed since; the first harvests every
record. Each page is stored in one transaction. Datestamps are to the
second, so the records that changed in the second the last harvest ended
come again: they are counted unchanged and not written.

A record's URN is its identifier (or its first dc:identifier that is a
URN), its locations its dc:identifiers that are URLs, its title the first
dc:title; its synonyms and other metadata here are kept. A deleted record
deactivates its URN here ("deleted in the OAI-PMH repository URL"), and
one that comes back reactivates it; a URN deactivated here by other means
is not reactivated (the record is refused). A record that is not valid is
refused, reported on stderr as "IDENTIFIER": reason, and the exit status
is 1; the others are stored, and the next harvest still starts after it.

-v prints one summary line on stdout: records, how many were created,
updated, reactivated, deleted, unchanged and refused, and where the next
harvest starts.

Examples:
  urnresolver harvest --db urn.db https://resolver.example/oai
  urnresolver harvest --db urn.db --set nbn -v https://resolver.example/oai
  urnresolver harvest --db urn.db --full https://resolver.example/oai   # every record again

`)
		fs.PrintDefaults()
	}
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	set := fs.String("set", "", "harvest only the set `SPEC` (a namespace: nbn)")
	from := fs.String("from", "", "harvest the records changed from `DATE` on (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ), not from the last harvest")
	full := fs.Bool("full", false, "harvest every record, not from the last harvest")
	dialects := fs.String("dialects", "", "URN grammar per namespace, as `nbn=draft2012`")
	var schemes listFlag
	fs.Var(&schemes, "schemes", "location `schemes` allowed (default http,https)")
	timeout := fs.Duration("timeout", 60*time.Second, "the longest one request may take")
	verbose := fs.Bool("v", false, "print a summary line on stdout")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "urnresolver harvest: want one URL argument, the repository's base URL")
		return 2
	}
	if *full && *from != "" {
		fmt.Fprintln(stderr, "urnresolver harvest: --full and --from exclude each other")
		return 2
	}
	dia, err := resolver.ParseDialects(*dialects)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver harvest: --dialects: %v\n", err)
		return 2
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver harvest: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	res, err := resolver.Harvest(ctx, store, fs.Arg(0), resolver.HarvestOptions{
		Set: *set, From: *from, Full: *full, Dialects: dia, Schemes: schemes,
		Client: &http.Client{Timeout: *timeout},
		Audit:  resolver.AuditEntry{At: time.Now().UTC(), Actor: "cli", Client: "local"},
	})
	for _, r := range res.Refused {
		fmt.Fprintln(stderr, r.String())
	}
	if res.NoDeletions {
		fmt.Fprintf(stderr, "urnresolver harvest: %s keeps no deleted records (deletedRecord no): its deletions do not reach this database\n", fs.Arg(0))
	}
	if *verbose || err != nil {
		next := res.Next
		if next == "" {
			next = "where this one started (incomplete)"
		}
		w := stdout
		if err != nil {
			w = stderr
		}
		fmt.Fprintf(w, "%s: %d records in %d pages: %d created, %d updated, %d reactivated, %d deleted, %d unchanged, %d refused; next harvest from %s\n",
			res.Source, res.Records, res.Pages, res.Created, res.Updated, res.Reactivated, res.Deleted, res.Unchanged, len(res.Refused), next)
	}
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver harvest: %v; the harvest is incomplete: the %d pages before stay stored, and the next harvest starts where this one did\n", err, res.Pages)
		return 1
	}
	if len(res.Refused) > 0 {
		return 1
	}
	return 0
}
