// Command urnresolver is a URN resolution service: the resolution
// services of RFC 2483 over HTTP as RFC 2169 encodes them
// ("GET /uri-res/N2L?urn:..."), the path form "GET /urn:..." with the
// 2012 draft's "s=" directive and RFC 8141's r-component, a lookup page,
// and an authenticated admin API, on SQLite by default or PostgreSQL.
//
//	urnresolver serve  [--addr HOST:PORT] [--db DSN] [flags]
//	urnresolver import --db DSN FILE
//	urnresolver export --db DSN > FILE.jsonl
//	urnresolver harvest --db DSN [--set SPEC] URL
//	urnresolver token create --namespace NID[:PREFIX] [--db DSN]
//	urnresolver token list | token revoke ID
//	urnresolver registrar add CODE --prefix NID:NSS-PREFIX --mode resolver|reserved|registrar
//	urnresolver registrar list | registrar show CODE
//	urnresolver migrate --db DSN
//
// DSN is a file path for SQLite (created if absent) or a postgres:// URL.
// Every flag can also be given in the environment as URNRESOLVER_ and the
// flag's name in uppercase with "-" as "_" (URNRESOLVER_DB); a flag on
// the command line wins, and a variable set empty counts as unset. Run
// "urnresolver help COMMAND" for details.
package main

import (
	"fmt"
	"io"
	"os"
)

// A command is a subcommand: its name, a one-line summary, and the
// function that runs it with the arguments after its name and returns
// the exit status.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"serve", "run the resolver over HTTP", runServe},
		{"import", "bulk-import records from a .csv or .jsonl file, or an export", runImport},
		{"export", "write every record as JSON Lines, for import", runExport},
		{"harvest", "import another resolver's records over OAI-PMH, incrementally", runHarvest},
		{"token", "create, list or revoke admin API tokens", runToken},
		{"registrar", "add, list or show registrars, who assign URNs under their prefixes", runRegistrar},
		{"migrate", "bring a database's schema up to date and exit", runMigrate},
		{"backup", "write a consistent copy of a SQLite database, online", runBackup},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command. Exit status: 0 on success, 1 on failure (for
// import: a line was refused), 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			for _, c := range commands() {
				if c.name == args[1] {
					// Asked for, help goes to stdout, as uri help's does.
					return c.run([]string{"-h"}, stdin, stdout, stdout)
				}
			}
			fmt.Fprintf(stderr, "urnresolver help: unknown command %q\n", args[1])
			return 2
		}
		fmt.Fprint(stdout, usage())
		return 0
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "urnresolver: unknown command %q\n\n%s", name, usage())
	return 2
}

func usage() string {
	s := `urnresolver is a URN resolution service: it answers the resolution services
of RFC 2483 over HTTP as RFC 2169 encodes them (GET /uri-res/N2L?urn:...),
the path form GET /urn:..., a lookup page at /, and an admin API for
records, on SQLite (nothing to install) or PostgreSQL.

Usage:
  urnresolver COMMAND [FLAGS] [ARGS]
  urnresolver help [COMMAND]

Commands:
`
	for _, c := range commands() {
		s += fmt.Sprintf("  %-8s %s\n", c.name, c.summary)
	}
	s += `
Examples:
  urnresolver serve                                   # 127.0.0.1:8080, database in ~/.local/share/urikit
  urnresolver token create --namespace nbn:no- --note "National Library"
  urnresolver registrar add aba001 --prefix nbn:cz:aba001- --mode resolver
  urnresolver import --db urn.db records.csv          # header urn,url[,title...]
  curl -i 'localhost:8080/uri-res/N2L?urn:nbn:no-1'   # 303 to the first location
  urnresolver backup --db urn.db /backup/urn.db       # online, consistent

Flags can also be set in the environment as URNRESOLVER_<FLAG>
(URNRESOLVER_DB, URNRESOLVER_ADDR, ...); the command line wins, and an
empty variable counts as unset. The default database is
urikit/urnresolver.db in $XDG_DATA_HOME, else ~/.local/share.
Run "urnresolver help COMMAND" for a command's flags and examples.
`
	return s
}
