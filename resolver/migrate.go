package resolver

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// migration is one step of the schema, written for each database. Steps
// are applied in order, each in its own transaction, and recorded in
// schema_migrations; a database is never migrated down.
type migration struct {
	version  int
	sqlite   []string
	postgres []string
}

// migrations is the schema history. Add steps at the end; never edit a
// step that has shipped.
//
// records holds one row per equivalence key (Name.Key); locations and
// synonyms hold its ordered lists, pos 0 first, so that N2L is one
// primary-key lookup (key, 0). Times are Unix microseconds in both
// databases, so that one set of queries serves both.
var migrations = []migration{
	{
		version: 1,
		sqlite: []string{
			`CREATE TABLE records (
				key TEXT PRIMARY KEY,
				urn TEXT NOT NULL,
				nid TEXT NOT NULL,
				metadata TEXT NOT NULL DEFAULT '{}',
				created_at INTEGER NOT NULL,
				updated_at INTEGER NOT NULL
			) WITHOUT ROWID`,
			`CREATE TABLE locations (
				key TEXT NOT NULL,
				pos INTEGER NOT NULL,
				url TEXT NOT NULL,
				url_key TEXT NOT NULL,
				PRIMARY KEY (key, pos)
			) WITHOUT ROWID`,
			`CREATE INDEX locations_by_url ON locations (url_key)`,
			`CREATE TABLE synonyms (
				key TEXT NOT NULL,
				pos INTEGER NOT NULL,
				syn_key TEXT NOT NULL,
				syn_urn TEXT NOT NULL,
				PRIMARY KEY (key, pos)
			) WITHOUT ROWID`,
			`CREATE INDEX synonyms_by_synonym ON synonyms (syn_key)`,
			`CREATE TABLE tokens (
				id TEXT PRIMARY KEY,
				hash BLOB NOT NULL,
				scopes TEXT NOT NULL,
				note TEXT NOT NULL DEFAULT '',
				created_at INTEGER NOT NULL,
				revoked_at INTEGER
			)`,
			`CREATE TABLE audit (
				id INTEGER PRIMARY KEY AUTOINCREMENT,
				at INTEGER NOT NULL,
				actor TEXT NOT NULL,
				client TEXT NOT NULL,
				action TEXT NOT NULL,
				urn TEXT NOT NULL,
				detail TEXT NOT NULL
			)`,
		},
		postgres: []string{
			`CREATE TABLE records (
				key TEXT PRIMARY KEY,
				urn TEXT NOT NULL,
				nid TEXT NOT NULL,
				metadata TEXT NOT NULL DEFAULT '{}',
				created_at BIGINT NOT NULL,
				updated_at BIGINT NOT NULL
			)`,
			`CREATE TABLE locations (
				key TEXT NOT NULL,
				pos INTEGER NOT NULL,
				url TEXT NOT NULL,
				url_key TEXT NOT NULL,
				PRIMARY KEY (key, pos)
			)`,
			`CREATE INDEX locations_by_url ON locations (url_key)`,
			`CREATE TABLE synonyms (
				key TEXT NOT NULL,
				pos INTEGER NOT NULL,
				syn_key TEXT NOT NULL,
				syn_urn TEXT NOT NULL,
				PRIMARY KEY (key, pos)
			)`,
			`CREATE INDEX synonyms_by_synonym ON synonyms (syn_key)`,
			`CREATE TABLE tokens (
				id TEXT PRIMARY KEY,
				hash BYTEA NOT NULL,
				scopes TEXT NOT NULL,
				note TEXT NOT NULL DEFAULT '',
				created_at BIGINT NOT NULL,
				revoked_at BIGINT
			)`,
			`CREATE TABLE audit (
				id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
				at BIGINT NOT NULL,
				actor TEXT NOT NULL,
				client TEXT NOT NULL,
				action TEXT NOT NULL,
				urn TEXT NOT NULL,
				detail TEXT NOT NULL
			)`,
		},
	},
}

// SchemaVersion is the version the migrations bring a database to.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// migrate applies the missing steps. On PostgreSQL several servers may
// start at once against one database: a transaction-scoped advisory lock
// lets one of them migrate while the others wait and then find nothing
// to do. On SQLite the write transaction (BEGIN IMMEDIATE) does the same.
func (s *Store) migrate(ctx context.Context) error {
	for _, m := range migrations {
		if err := s.apply(ctx, m); err != nil {
			return fmt.Errorf("migration %d: %w", m.version, err)
		}
	}
	return nil
}

func (s *Store) apply(ctx context.Context, m migration) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.postgres {
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
	if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	stmts := m.sqlite
	if s.postgres {
		stmts = m.postgres
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`),
		m.version, time.Now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}

// version returns the schema version the database is at.
func (s *Store) version(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v)
	return int(v.Int64), err
}
