package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver"
)

// runRegistrar manages registrars, straight in the database, as token
// does tokens:
//
//	urnresolver registrar add CODE --prefix NID:NSS-PREFIX --mode resolver|reserved|registrar [--db DSN]
//	urnresolver registrar list [--json] [--db DSN]
//	urnresolver registrar show CODE [--json] [--db DSN]
func runRegistrar(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, registrarUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "add":
		return registrarAdd(args[1:], stdout, stderr)
	case "list":
		return registrarList(args[1:], stdout, stderr)
	case "show":
		return registrarShow(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "urnresolver registrar: unknown subcommand %q\n\n%s", args[0], registrarUsage)
	return 2
}

const registrarUsage = `usage:
  urnresolver registrar add CODE --prefix NID:NSS-PREFIX --mode MODE[,MODE...] [--db DSN]
  urnresolver registrar list [--json] [--db DSN]
  urnresolver registrar show CODE [--json] [--db DSN]

A registrar owns an NSS prefix, as national libraries delegate parts of
their NBN space (CZIDLO: urn:nbn:cz:aba001-...), and its URNs are
assigned in the ways its modes allow:
  resolver   the resolver mints the next number: POST /admin/registrars/CODE/urns
  reserved   the registrar reserves blocks of numbers, registered later by it
             only: POST /admin/registrars/CODE/reservations?count=N[&expires=TIME]
  registrar  the registrar chooses its URNs within its prefix
A minted URN is the prefix, the number (six digits at least) and the check
digit of the namespace, if it has one (urn:nbn:de). A number is never
given twice. A URN under the prefix is created only by a token of the
registrar (urnresolver token create --registrar CODE). CODE is lowercase
letters and digits.

Examples:
  urnresolver registrar add aba001 --prefix nbn:cz:aba001- --mode resolver,reserved
  urnresolver registrar add ubhd --prefix nbn:de:bsz:16- --mode registrar
  urnresolver token create --registrar aba001 --note "Moravian Library"
  urnresolver registrar list
  urnresolver registrar show aba001 --json
`

// parseInterspersed parses flags anywhere among the arguments, as in
// "registrar add CODE --prefix P": the standard flag package stops at
// the first argument that is not a flag. It returns the arguments that
// are not flags, in order, or the exit status to end with.
func parseInterspersed(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, int) {
	if code := parseFlags(fs, args, stderr); code >= 0 {
		return nil, code
	}
	var pos []string
	for rest := fs.Args(); len(rest) > 0; rest = fs.Args() {
		if rest[0] == "--" {
			return append(pos, rest[1:]...), -1
		}
		pos = append(pos, rest[0])
		if err := fs.Parse(rest[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0
			}
			return nil, 2
		}
	}
	return pos, -1
}

func registrarAdd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("registrar add", stderr)
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	prefix := fs.String("prefix", "", "the `NID:NSS-PREFIX` the registrar owns, as nbn:cz:aba001-")
	var modes listFlag
	fs.Var(&modes, "mode", "how its URNs are assigned: `resolver|reserved|registrar`; repeatable or comma-separated")
	asJSON := fs.Bool("json", false, "print the registrar as JSON")
	pos, code := parseInterspersed(fs, args, stderr)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "urnresolver registrar add: want one CODE")
		return 2
	}
	if *prefix == "" || len(modes) == 0 {
		fmt.Fprintln(stderr, "urnresolver registrar add: --prefix and --mode are required")
		return 2
	}
	if _, err := resolver.ParseModes(strings.Join(modes, ",")); err != nil {
		fmt.Fprintf(stderr, "urnresolver registrar add: --mode: %v\n", err)
		return 2
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver registrar add: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	reg, err := store.AddRegistrar(context.Background(), pos[0], *prefix, modes,
		resolver.AuditEntry{At: time.Now().UTC(), Actor: actor(), Client: "local"})
	var fe *resolver.FieldError
	switch {
	case errors.As(err, &fe):
		fmt.Fprintf(stderr, "urnresolver registrar add: %v\n", fe)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "urnresolver registrar add: %v\n", err)
		return 1
	}
	printRegistrar(stdout, reg, *asJSON)
	return 0
}

func printRegistrar(w io.Writer, r resolver.Registrar, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(r)
		fmt.Fprintln(w, string(b))
		return
	}
	fmt.Fprintf(w, "%s\t%s\t%s\tnext %d\treserved %d\t%s\n", r.Code, r.Prefix, strings.Join(r.Modes, ","), r.Next, r.Reserved, r.Created.Format(time.RFC3339))
}

func registrarList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("registrar list", stderr)
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	pos, code := parseInterspersed(fs, args, stderr)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "urnresolver registrar list: unexpected argument %q\n", pos[0])
		return 2
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver registrar list: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	regs, err := store.Registrars(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver registrar list: %v\n", err)
		return 1
	}
	for _, r := range regs {
		printRegistrar(stdout, r, *asJSON)
	}
	return 0
}

func registrarShow(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("registrar show", stderr)
	dsn := fs.String("db", defaultDB(), "database: a SQLite file `path`, or a postgres:// URL")
	asJSON := fs.Bool("json", false, "print the registrar as JSON")
	pos, code := parseInterspersed(fs, args, stderr)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "urnresolver registrar show: want one CODE")
		return 2
	}
	store, err := openStore(*dsn)
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver registrar show: %s: %v\n", redactDSN(*dsn), err)
		return 1
	}
	defer store.Close()
	reg, err := store.Registrar(context.Background(), pos[0])
	if errors.Is(err, resolver.ErrNoRegistrar) {
		fmt.Fprintf(stderr, "urnresolver registrar show: no registrar %q\n", pos[0])
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "urnresolver registrar show: %v\n", err)
		return 1
	}
	printRegistrar(stdout, reg, *asJSON)
	return 0
}
