package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// statements returns the statements of a migration file for d: comment
// lines dropped, {{name}} replaced, split at ";" ending a line.
func (d dialect) statements(src string) ([]string, error) {
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "--") {
			continue
		}
		lines = append(lines, l)
	}
	text := strings.Join(lines, "\n")
	for {
		i := strings.Index(text, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(text[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("unclosed {{ at %d", i)
		}
		name := text[i+2 : i+j]
		v, ok := d.types[name]
		if !ok {
			return nil, fmt.Errorf("unknown {{%s}}", name)
		}
		text = text[:i] + v + text[i+j+2:]
	}
	var out []string
	for _, st := range strings.Split(text, ";\n") {
		if st = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(st), ";")); st != "" {
			out = append(out, st)
		}
	}
	return out, nil
}

// The schema history is migrations/NNNN_name.sql, applied in order of
// NNNN, each in its own transaction, and recorded in schema_migrations; a
// database is never migrated down. Add files at the end; never edit one
// that has shipped.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	src     string
}

func loadMigrations() []migration {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	var out []migration
	for _, n := range names {
		base := strings.TrimPrefix(n, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			panic("migration " + n + ": no version number")
		}
		b, err := migrationFS.ReadFile(n)
		if err != nil {
			panic(err)
		}
		out = append(out, migration{version: v, name: base, src: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out
}

var migrations = loadMigrations()

// SchemaVersion is the version the migrations bring a database to.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// migrate applies the missing steps. On PostgreSQL several servers may
// start at once against one database: a transaction-scoped advisory lock
// lets one of them migrate while the others wait and then find nothing
// to do. On SQLite the write transaction (BEGIN IMMEDIATE) does the same.
func (db *DB) migrate(ctx context.Context) error {
	for _, m := range migrations {
		if err := db.apply(ctx, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

func (db *DB) apply(ctx context.Context, m migration) error {
	stmts, err := db.d.statements(m.src)
	if err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if db.d.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7208141)`); err != nil {
			return err
		}
	}
	// Under the lock: PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe
	// against a concurrent one (TestMigrations found the race).
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`),
		m.version, time.Now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}

// version returns the schema version the database is at.
func (db *DB) version(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := db.r.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v)
	return int(v.Int64), err
}
