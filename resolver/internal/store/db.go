// Package store holds the resolver's database: every SQL statement of
// the resolver is in this package, for SQLite and PostgreSQL alike, behind
// the methods the resolver's layers need. Package resolver's resolution
// layer reads through it, its records layer writes through it, and
// neither writes SQL.
//
// One set of queries serves both databases: placeholders are written "?"
// and rewritten to "$n" for PostgreSQL, and the schema (migrations/) uses
// types both know.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	_ "modernc.org/sqlite"             // database/sql driver "sqlite"
)

// DB is an open database: records, tokens, the audit log and the change
// log, in SQLite or PostgreSQL.
//
// On SQLite it holds two pools: a single writer connection (SQLite has
// one writer at a time; queueing writers in Go instead of in busy-wait
// loops keeps latency flat) and a pool of read-only connections, which
// WAL mode lets read while a write is under way.
type DB struct {
	w, r *sql.DB
	d    dialect
	base string // SQLite: the file: URI with the pragmas every connection has

	first  *sql.Stmt // the N2L lookup (First)
	origin int64     // names this DB's writes in the change log
}

// dialect is what differs between the two databases: the names of a few
// types and clauses in the schema, and the placeholders of queries. The
// schema and every query are written once; nothing else in the store
// asks which database it is on, except to take locks that only
// PostgreSQL needs.
type dialect struct {
	name     string // "sqlite" or "postgres"
	postgres bool
	types    map[string]string // {{name}} in migrations
}

var (
	sqliteDialect = dialect{name: "sqlite", types: map[string]string{
		"int64": "INTEGER", "bytes": "BLOB", "serial_key": "INTEGER PRIMARY KEY AUTOINCREMENT",
		"without_rowid": " WITHOUT ROWID",
	}}
	postgresDialect = dialect{name: "postgres", postgres: true, types: map[string]string{
		"int64": "BIGINT", "bytes": "BYTEA", "serial_key": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
		"without_rowid": "",
	}}
)

// q rewrites "?" placeholders to PostgreSQL's "$1", "$2", ...
func (d dialect) q(query string) string {
	if !d.postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// IsPostgres reports whether dsn selects PostgreSQL.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the database dsn names and brings its schema up to date: a
// "postgres://" or "postgresql://" URL for PostgreSQL (through pgx),
// anything else a file path for SQLite, created if absent, in WAL mode
// with synchronous=FULL so that a write is on disk when it is
// acknowledged.
func Open(ctx context.Context, dsn string) (*DB, error) {
	db := &DB{d: sqliteDialect, origin: mrand.Int64N(math.MaxInt64) + 1}
	if IsPostgres(dsn) {
		p, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, err
		}
		p.SetMaxOpenConns(32)
		p.SetMaxIdleConns(32)
		p.SetConnMaxIdleTime(5 * time.Minute)
		db.w, db.r, db.d = p, p, postgresDialect
	} else {
		if dsn == "" {
			return nil, errors.New("empty database path")
		}
		path := strings.TrimPrefix(dsn, "file:")
		if i := strings.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		base := "file:" + (&url.URL{Path: abs}).EscapedPath() +
			"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"
		db.base = base
		w, err := sql.Open("sqlite", base+"&_txlock=immediate")
		if err != nil {
			return nil, err
		}
		w.SetMaxOpenConns(1)
		w.SetMaxIdleConns(1)
		w.SetConnMaxLifetime(0)
		db.w = w
		// The writer creates the file and sets WAL mode before any
		// reader opens it.
		if err := pingBusy(ctx, w); err != nil {
			w.Close()
			return nil, fmt.Errorf("open %s: %w", abs, err)
		}
		r, err := sql.Open("sqlite", base+"&_pragma=query_only(1)&_pragma=mmap_size(1073741824)")
		if err != nil {
			w.Close()
			return nil, err
		}
		r.SetMaxOpenConns(8)
		r.SetMaxIdleConns(8)
		r.SetConnMaxLifetime(0)
		db.r = r
	}
	if err := db.w.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	var err error
	if db.first, err = db.r.PrepareContext(ctx, db.q(firstQuery)); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// pingBusy pings a new SQLite connection, which sets its pragmas. A
// change of journal mode needs the database alone for an instant and
// answers SQLITE_BUSY at once, without the busy timeout, when another
// process or server opens the same file at that moment; so it is tried
// again until ctx ends.
func pingBusy(ctx context.Context, db *sql.DB) error {
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := db.PingContext(ctx)
		if err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
		}
	}
}

// Kind returns "sqlite" or "postgres".
func (db *DB) Kind() string { return db.d.name }

// Close closes the database.
func (db *DB) Close() error {
	if db.first != nil {
		db.first.Close()
	}
	var err error
	if db.r != nil && db.r != db.w {
		err = db.r.Close()
	}
	if db.w != nil {
		if e := db.w.Close(); e != nil {
			err = e
		}
	}
	return err
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.r.PingContext(ctx) }

func (db *DB) q(query string) string { return db.d.q(query) }

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// strings runs a query of one text column and returns its values.
func (db *DB) strings(ctx context.Context, tx querier, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// placeholders is the list "(?,?,...)" of n placeholders.
func placeholders(n int) string {
	return "(" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")"
}

// inKeys runs query, in which each "{keys}" stands for a list of keys,
// once per chunk of keys small enough for one statement, with args
// before the keys of each list: f gets each statement's rows.
func (db *DB) inKeys(ctx context.Context, tx querier, query string, args []any, keys []string, f func(*sql.Rows) error) error {
	lists := strings.Count(query, "{keys}")
	for start := 0; start < len(keys); {
		end := min(start+(maxParams-len(args))/lists, len(keys))
		all := append(make([]any, 0, len(args)+lists*(end-start)), args...)
		for range lists {
			for _, k := range keys[start:end] {
				all = append(all, k)
			}
		}
		rows, err := tx.QueryContext(ctx, db.q(strings.ReplaceAll(query, "{keys}", placeholders(end-start))), all...)
		if err != nil {
			return err
		}
		for err == nil && rows.Next() {
			err = f(rows)
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
		if err != nil {
			return err
		}
		start = end
	}
	return nil
}

// keysIn returns which of keys query finds: it selects one column, a
// key, from each list "{keys}" (inKeys).
func (db *DB) keysIn(ctx context.Context, tx querier, query string, keys []string) (map[string]bool, error) {
	out := map[string]bool{}
	err := db.inKeys(ctx, tx, query, nil, keys, func(rows *sql.Rows) error {
		var k string
		err := rows.Scan(&k)
		out[k] = true
		return err
	})
	return out, err
}

// listsOf reads, in tx, a list of each of keys in order by query, which
// selects the key and a value ({keys}, inKeys): locations or synonyms.
func (db *DB) listsOf(ctx context.Context, tx querier, query string, keys []string) (map[string][]string, error) {
	out := make(map[string][]string, len(keys))
	err := db.inKeys(ctx, tx, query, nil, keys, func(rows *sql.Rows) error {
		var k, v string
		err := rows.Scan(&k, &v)
		out[k] = append(out[k], v)
		return err
	})
	return out, err
}

// deactivation returns the deactivation the columns hold, nil for an
// active record.
func deactivation(at sql.NullInt64, reason, successor string) *Deactivation {
	if !at.Valid {
		return nil
	}
	return &Deactivation{At: time.UnixMicro(at.Int64).UTC(), Reason: reason, Successor: successor}
}
