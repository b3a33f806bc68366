// Package storetest gives the resolver's tests their databases: a fresh
// SQLite file, and a fresh schema of the PostgreSQL server that
// URNRESOLVER_TEST_POSTGRES names (.ci/run starts a throwaway one and
// sets it), so that one test runs on both stores.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// PostgresEnv names the environment variable holding the DSN of a
// PostgreSQL server the tests may create schemas in.
const PostgresEnv = "URNRESOLVER_TEST_POSTGRES"

// ForEach runs f against a fresh SQLite database and, when PostgresEnv
// is set, a fresh PostgreSQL schema: the same test on both stores.
func ForEach(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		f(t, filepath.Join(t.TempDir(), "resolver.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		f(t, PostgresDSN(t))
	})
}

// PostgresDSN returns the DSN of a new, empty schema, dropped when the
// test ends, or skips the test when no PostgreSQL is configured.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Skip(PostgresEnv + " is not set: PostgreSQL run skipped (.ci/run starts a throwaway server and sets it)")
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	dsn, err := Schema(base, schema)
	if err != nil {
		t.Fatalf("create schema on %s: %v", PostgresEnv, err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("pgx", base); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			db.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE")
			db.Close()
		}
	})
	return dsn
}

// Schema creates the schema name on the PostgreSQL server base names,
// unless it exists, and returns the DSN that works in it.
func Schema(base, name string) (string, error) {
	db, err := sql.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS "+name); err != nil {
		return "", err
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + name, nil
}

// TerminateBackends kills, as a failing database would, the backends of
// the PostgreSQL server dsn names whose application_name is app, and
// returns how many there were.
func TerminateBackends(dsn, app string) (int, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	err = db.QueryRow(`SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n)
	return n, err
}

// Writing returns how many other backends of the database dsn names
// hold a transaction that has written (a transaction ID).
func Writing(dsn string) (int, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	err = db.QueryRow(`SELECT COUNT(*) FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND datname = current_database() AND pid <> pg_backend_pid()`).Scan(&n)
	return n, err
}
