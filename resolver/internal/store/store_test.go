package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store/storetest"
)

func openTest(t testing.TB, dsn string) *DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := Open(ctx, dsn)
	if err != nil {
		t.Fatalf("Open(%s): %v", dsn, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// put stores a record of one location under urn, which is its own key.
func put(t testing.TB, db *DB, urn, url string) {
	t.Helper()
	e := Entry{Key: urn, URN: urn, NID: "example", Metadata: "{}", URLs: []Location{{URL: url, Key: url}}}
	if _, _, err := db.Put(context.Background(), e, AuditEntry{At: time.Now(), Action: "replace", URN: urn}); err != nil {
		t.Fatal(err)
	}
}

// Open migrates one database from several goroutines at once, as
// several servers starting together on one PostgreSQL do: each finds the
// schema migrated, and every migration is applied exactly once.
func TestMigrations(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, dsn string) {
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				db, err := Open(ctx, dsn)
				if err != nil {
					errs <- err
					return
				}
				db.Close()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		db := openTest(t, dsn)
		v, err := db.version(context.Background())
		if err != nil || v != SchemaVersion() {
			t.Fatalf("version %d %v, want %d", v, err, SchemaVersion())
		}
		var n int
		if err := db.r.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(migrations) {
			t.Fatalf("%d rows in schema_migrations, want %d: %v", n, len(migrations), err)
		}
	})
}

// Migration 0005 gives the rows deactivated before it the key of their
// successor: the key of the record registered under the successor's URN,
// or the successor as written.
func TestSuccessorKeyMigration(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := &DB{d: sqliteDialect}
		var err error
		if IsPostgres(dsn) {
			db.d = postgresDialect
			db.w, err = sql.Open("pgx", dsn)
		} else {
			db.w, err = sql.Open("sqlite", dsn)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer db.w.Close()
		db.r = db.w
		last := len(migrations) - 1
		if migrations[last].version != 5 {
			t.Skip("migration 0005 is not the last")
		}
		for _, m := range migrations[:last] {
			if err := db.apply(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range []struct{ key, urn, successor string }{
			{"urn:isbn:0395363411", "urn:isbn:0-395-36341-1", ""},
			{"urn:example:a", "urn:example:a", "urn:isbn:0-395-36341-1"}, // the registered URN
			{"urn:example:b", "urn:example:b", "urn:example:gone"},       // no record: as written
			{"urn:example:c", "urn:example:c", ""},
		} {
			at := sql.NullInt64{Int64: 1, Valid: r.successor != ""}
			if _, err := db.w.ExecContext(ctx, db.q(`INSERT INTO records (key, urn, nid, metadata, created_at, updated_at, deactivated_at, successor) VALUES (?, ?, 'x', '{}', 1, 1, ?, ?)`),
				r.key, r.urn, at, r.successor); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.apply(ctx, migrations[last]); err != nil {
			t.Fatal(err)
		}
		for key, want := range map[string]string{"urn:example:a": "urn:isbn:0395363411", "urn:example:b": "urn:example:gone", "urn:example:c": "", "urn:isbn:0395363411": ""} {
			var got string
			if err := db.w.QueryRowContext(ctx, db.q(`SELECT successor_key FROM records WHERE key = ?`), key).Scan(&got); err != nil || got != want {
				t.Errorf("%s: successor_key %q %v, want %q", key, got, err, want)
			}
		}
	})
}

// The log is trimmed by the writers, and a reader behind the trimmed
// part, missing numbers, is told every key may have changed; one that is
// current reads the keys of the others' writes and not its own.
func TestChangeLogTrim(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		defer func(every, seqs int64, keep time.Duration) { trimEvery, keepSeqs, keepChanges = every, seqs, keep }(trimEvery, keepSeqs, keepChanges)
		trimEvery, keepSeqs, keepChanges = 1, 3, 0
		db := openTest(t, dsn)
		put(t, db, "urn:example:a", "https://a.example/0")
		behind, _, all, err := db.Changes(ctx, 0, false)
		if err != nil || !all {
			t.Fatalf("first read: all %v, %v", all, err)
		}
		var current int64
		for i := 1; i <= 20; i++ {
			put(t, db, fmt.Sprintf("urn:example:k%d", i), fmt.Sprintf("https://a.example/%d", i))
			if i == 10 {
				if current, _, _, err = db.Changes(ctx, behind, true); err != nil {
					t.Fatal(err)
				}
			}
		}
		var rows, low int64
		if err := db.r.QueryRowContext(ctx, `SELECT COUNT(*), MIN(seq) FROM changes`).Scan(&rows, &low); err != nil {
			t.Fatal(err)
		}
		if rows > 4 || low <= behind+1 {
			t.Fatalf("after 21 writes trimmed to keep 3 numbers: %d rows from %d", rows, low)
		}
		for _, last := range []int64{behind, current} {
			if _, keys, all, err := db.Changes(ctx, last, true); err != nil || !all {
				t.Errorf("reading after %d, trimmed away: keys %q all %v, %v", last, keys, all, err)
			}
		}
		current, _, _, _ = db.Changes(ctx, 0, false)
		put(t, db, "urn:example:k2", "https://b.example/2")
		put(t, openTest(t, dsn), "urn:example:k1", "https://b.example/1")
		n, keys, all, err := db.Changes(ctx, current, true)
		if err != nil || all || n != current+2 || len(keys) != 1 || keys[0] != "urn:example:k1" {
			t.Errorf("after a write of k1 by another store and of k2 by this one: %d %q all %v, %v", n, keys, all, err)
		}
	})
}

// An import that refuses a record after writing part of it restores the
// committed rows, the deactivation included (issue 23).
func TestRestoreKeepsDeactivation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := openTest(t, dsn)
		put(t, db, "urn:example:s", "https://a.example/s")
		put(t, db, "urn:example:r", "https://a.example/r")
		d := Deactivation{Reason: "why", Successor: "urn:example:s"}
		if err := db.Deactivate(ctx, Target{Key: "urn:example:r", URN: "urn:example:r"}, d, "urn:example:s", AuditEntry{At: time.Now()}); err != nil {
			t.Fatal(err)
		}
		want, _ := db.Record(ctx, "urn:example:r")
		tx, err := db.BeginImport(ctx, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		// What an import writes over it in its transaction...
		if err := tx.Write(ctx, []Entry{{Key: "urn:example:r", URN: "urn:example:r", NID: "example", Metadata: `{"t":1}`}}); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.tx.ExecContext(ctx, db.q(`UPDATE records SET deactivated_at = NULL, reason = '', successor = '', successor_key = '' WHERE key = ?`), "urn:example:r"); err != nil {
			t.Fatal(err)
		}
		// ...is put back as committed.
		if err := tx.Restore(ctx, "urn:example:r"); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(ctx, AuditEntry{At: time.Now(), Action: "import"}, []string{"urn:example:r"}); err != nil {
			t.Fatal(err)
		}
		got, _ := db.Record(ctx, "urn:example:r")
		if got.Deactivated == nil || *got.Deactivated != *want.Deactivated || got.Metadata != "{}" || len(got.URLs) != 1 {
			t.Fatalf("restored %+v, want %+v", got, want)
		}
		// The successor's key is restored too: a cycle back to r is
		// still found.
		err = db.Deactivate(ctx, Target{Key: "urn:example:s", URN: "urn:example:s"}, Deactivation{Successor: "urn:example:r"}, "urn:example:r", AuditEntry{At: time.Now()})
		if !errors.Is(err, ErrSuccessorCycle) {
			t.Fatalf("s -> r -> s: %v", err)
		}
	})
}

// Older data may hold a chain of successors to nowhere, written before
// successors were checked: a deactivation naming a URN on it is refused,
// and the error names the URN without a record.
func TestSuccessorChainToNowhere(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := openTest(t, dsn)
		put(t, db, "urn:example:x", "https://a.example/x")
		put(t, db, "urn:example:y", "https://a.example/y")
		if _, err := db.w.ExecContext(ctx, db.q(`UPDATE records SET deactivated_at = 1, successor = 'urn:example:none', successor_key = 'urn:example:none' WHERE key = ?`), "urn:example:y"); err != nil {
			t.Fatal(err)
		}
		err := db.Deactivate(ctx, Target{Key: "urn:example:x", URN: "urn:example:x"}, Deactivation{Successor: "urn:example:y"}, "urn:example:y", AuditEntry{At: time.Now()})
		var se *SuccessorError
		if !errors.As(err, &se) || !errors.Is(err, ErrNoSuccessor) || se.At != "urn:example:none" || se.Successor != "urn:example:y" || se.URN != "urn:example:x" {
			t.Fatalf("x -> y -> none: %#v", err)
		}
		if rec, _ := db.Record(ctx, "urn:example:x"); rec.Deactivated != nil {
			t.Fatal("a refused deactivation was stored")
		}
	})
}
