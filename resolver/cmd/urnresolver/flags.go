package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver"
)

// defaultDB returns the SQLite file used when neither --db nor
// URNRESOLVER_DB is given, so that "urnresolver serve" works with nothing
// installed or configured: urikit/urnresolver.db in the user's data
// directory, $XDG_DATA_HOME or else ~/.local/share (XDG Base Directory
// Specification; a relative $XDG_DATA_HOME is ignored, as it says). Never
// the working directory, which may be a source tree.
func defaultDB() string {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			home = os.TempDir()
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "urikit", "urnresolver.db")
}

// newFlags returns a flag set that reports errors on stderr and does not
// exit.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("urnresolver "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// envName is the environment variable of the flag name.
func envName(flag string) string {
	return "URNRESOLVER_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// parseFlags applies the environment (URNRESOLVER_<FLAG>) and then the
// command line, which wins. A variable set to the empty string counts as
// unset, for every variable the command reads, as XDG_DATA_HOME does in
// the XDG specification and as a shell's "VAR= cmd" or an orchestrator's
// empty value mean: URNRESOLVER_DB= used to fail with "empty database
// path" (issue 29.5). It returns the exit status to end with, or -1 to
// go on.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) int {
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		env := envName(f.Name)
		if v := os.Getenv(env); v != "" && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", env, v, err)
			}
		}
	})
	if envErr != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), envErr)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return -1
}

// openStore opens the database with a bounded wait. The directory of
// the default database is created on first use.
func openStore(dsn string) (*resolver.Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if dsn == defaultDB() {
		if err := os.MkdirAll(filepath.Dir(dsn), 0o700); err != nil {
			return nil, err
		}
	}
	return resolver.OpenStore(ctx, dsn)
}

// redactDSN returns the DSN without a password, for logs.
func redactDSN(dsn string) string {
	if !resolver.IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://..."
	}
	return u.Redacted()
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		*l = append(*l, f)
	}
	return nil
}
