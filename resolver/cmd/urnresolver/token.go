package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/user"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver"
)

// runToken manages admin API tokens, straight in the database: whoever
// can run this command against the database may create them, which is
// how the first token comes to exist.
//
//	urnresolver token create --namespace nbn:no [--namespace isbn] [--note TEXT]
//	urnresolver token list [--json]
//	urnresolver token revoke ID
//
// "create" prints the token on stdout, one line, the only time it is
// shown; the database keeps only its SHA-256.
func runToken(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, tokenUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "create":
		return tokenCreate(args[1:], stdout, stderr)
	case "list":
		return tokenList(args[1:], stdout, stderr)
	case "revoke":
		return tokenRevoke(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "urnresolver token: unknown subcommand %q\n\n%s", args[0], tokenUsage)
	return 2
}

const tokenUsage = `usage:
  urnresolver token create --namespace NID[:NSS-PREFIX] [--namespace ...] [--note TEXT] [--db DSN]
  urnresolver token create --registrar CODE [--note TEXT] [--db DSN]
  urnresolver token list [--json] [--db DSN]
  urnresolver token revoke [--db DSN] ID

A token may write the URNs of the namespaces it names: "nbn" is every
urn:nbn:..., "nbn:no-" only those whose NSS starts "no-" (compared on the
equivalence key, so "nbn:NO-" is the same). A write must be covered for
every URN it names: the record's and each synonym's. create prints the
token once; the database keeps only its SHA-256. A token of a registrar
(--registrar) writes its prefix only, and mints and reserves its URNs.

Examples:
  urnresolver token create --namespace nbn:no- --note "National Library of Norway"
  urnresolver token create --namespace nbn:no- --namespace isbn:978-82
  urnresolver token create --registrar aba001 --note "Moravian Library"
  urnresolver token list --json
  urnresolver token revoke 3f2a9c0d1e5b7a64
`

func actor() string {
	if u, err := user.Current(); err == nil {
		return "cli:" + u.Username
	}
	return "cli"
}

func tokenCreate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("token create", stderr)
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	var namespaces listFlag
	fs.Var(&namespaces, "namespace", "`NID[:NSS-PREFIX]` the token may write; repeatable")
	registrar := fs.String("registrar", "", "the `CODE` of the registrar the token writes for: its scope is the registrar's prefix")
	note := fs.String("note", "", "a note stored with the token (who it is for)")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "urnresolver token create: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *registrar != "" {
		if len(namespaces) > 0 {
			fmt.Fprintln(stderr, "urnresolver token create: --registrar and --namespace exclude each other: a registrar's token writes its prefix only")
			return 2
		}
		return tokenCreateRegistrar(*dsn, *registrar, *note, stdout, stderr)
	}
	if len(namespaces) == 0 {
		fmt.Fprintln(stderr, "urnresolver token create: --namespace or --registrar is required")
		return 2
	}
	var scopes []resolver.Scope
	for _, n := range namespaces {
		sc, err := resolver.ParseScope(n)
		if err != nil {
			fmt.Fprintf(stderr, "urnresolver token create: --namespace: %v\n", err)
			return 2
		}
		scopes = append(scopes, sc)
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token create: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	secret, t, err := store.CreateToken(context.Background(), scopes, *note,
		resolver.AuditEntry{At: time.Now().UTC(), Actor: actor(), Client: "local"})
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token create: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, secret)
	fmt.Fprintf(stderr, "token %s may write %s; it is shown only now\n", t.ID, strings.Join(t.ScopeStrings(), ", "))
	return 0
}

// tokenCreateRegistrar creates a token of a registrar.
func tokenCreateRegistrar(dsn, code, note string, stdout, stderr io.Writer) int {
	store, err := openStore(dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token create: %s: %v\n", redactDSN(dsn), err)
		return 1
	}
	defer store.Close()
	secret, t, err := store.CreateRegistrarToken(context.Background(), code, note,
		resolver.AuditEntry{At: time.Now().UTC(), Actor: actor(), Client: "local"})
	if errors.Is(err, resolver.ErrNoRegistrar) {
		fmt.Fprintf(stderr, "urnresolver token create: no registrar %q (urnresolver registrar list)\n", code)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token create: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, secret)
	fmt.Fprintf(stderr, "token %s of registrar %s may write %s; it is shown only now\n", t.ID, code, strings.Join(t.ScopeStrings(), ", "))
	return 0
}

func tokenList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("token list", stderr)
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token list: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	tokens, err := store.Tokens(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token list: %v\n", err)
		return 1
	}
	for _, t := range tokens {
		if *asJSON {
			b, _ := json.Marshal(t)
			fmt.Fprintln(stdout, string(b))
			continue
		}
		state := "active"
		if !t.Revoked.IsZero() {
			state = "revoked " + t.Revoked.Format(time.RFC3339)
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\t%s\n", t.ID, strings.Join(t.ScopeStrings(), ","), t.Created.Format(time.RFC3339), state, t.Note)
	}
	return 0
}

func tokenRevoke(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("token revoke", stderr)
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "urnresolver token revoke: want one token ID")
		return 2
	}
	id := fs.Arg(0)
	// Accept the whole token too: its ID is the part after "urt_".
	if rest, ok := strings.CutPrefix(id, "urt_"); ok {
		id, _, _ = strings.Cut(rest, "_")
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token revoke: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	err = store.RevokeToken(context.Background(), id, resolver.AuditEntry{At: time.Now().UTC(), Actor: actor(), Client: "local"})
	if errors.Is(err, resolver.ErrNotFound) {
		fmt.Fprintf(stderr, "urnresolver token revoke: no token %q\n", id)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver token revoke: %v\n", err)
		return 1
	}
	return 0
}

// runMigrate brings the schema up to date; serve does the same on start,
// so this is for deployments that migrate before rolling servers out.
func runMigrate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("migrate", stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: urnresolver migrate [--db DSN]

Brings the database's schema up to date and exits ("serve" does the same
on start). Several servers may start at once on one PostgreSQL: one
migrates, the others wait.

Examples:
  urnresolver migrate --db postgres://resolver@db.internal/urn

`)
		fs.PrintDefaults()
	}
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return code
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver migrate: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	store.Close()
	fmt.Fprintf(stdout, "schema at version %d\n", resolver.SchemaVersion())
	return 0
}
