package resolver

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	_ "modernc.org/sqlite"             // database/sql driver "sqlite"
)

// Errors of the store.
var (
	ErrNotFound = errors.New("no record for this URN")
	ErrExists   = errors.New("a record for this URN exists already")
	// ErrGone is matched (errors.Is) by the error of a read or a write
	// of a deactivated URN; errors.As with a *GoneError gives when and
	// why it was deactivated.
	ErrGone = errors.New("the URN is deactivated")
	// ErrActive is returned by a reactivation of a URN that is not
	// deactivated.
	ErrActive = errors.New("the URN is not deactivated")
)

// Deactivation says when and why a URN was deactivated. Persistent
// identifiers are never forgotten: a deleted record is kept, deactivated,
// so that its URN answers 410 Gone instead of being unknown, and only a
// reactivation brings it back (the national resolvers' practice, issue 23).
type Deactivation struct {
	At        time.Time // when it was first deactivated, UTC
	Reason    string    // why, as the deleting client said; may be empty
	Successor string    // the canonical URN that replaces it, or ""
}

// GoneError is the error of a read or write of a deactivated URN.
type GoneError struct {
	URN string // the record's URN, canonical
	Deactivation
}

func (e *GoneError) Error() string {
	s := e.URN + " was deactivated on " + e.At.Format(time.RFC3339)
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	if e.Successor != "" {
		s += "; its successor is " + e.Successor
	}
	return s
}

// Is makes errors.Is(err, ErrGone) hold.
func (e *GoneError) Is(target error) bool { return target == ErrGone }

// Store keeps records, tokens and the audit log in SQLite or PostgreSQL.
// One set of queries serves both: placeholders are written "?" and
// rewritten to "$n" for PostgreSQL, and the schema uses types both know.
//
// On SQLite the store holds two pools: a single writer connection (SQLite
// has one writer at a time; queueing writers in Go instead of in
// busy-wait loops keeps latency flat) and a pool of read-only
// connections, which WAL mode lets read while a write is under way.
type Store struct {
	w, r *sql.DB
	d    dialect
	dsn  string
	base string // SQLite: the file: URI with the pragmas every connection has

	first  *sql.Stmt // the N2L lookup (lookupFirst)
	origin int64     // names this store's writes in the change log

	cache     atomic.Pointer[answerCache] // nil: no cache (cache.go)
	stopWatch context.CancelFunc          // stops the cache's follower and listener
	watch     sync.WaitGroup
}

// IsPostgres reports whether dsn selects PostgreSQL.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// OpenStore opens the database dsn names and brings its schema up to
// date: a "postgres://" or "postgresql://" URL for PostgreSQL (through
// pgx), anything else a file path for SQLite, created if absent, in WAL
// mode with synchronous=FULL so that a write is on disk when it is
// acknowledged.
func OpenStore(ctx context.Context, dsn string) (*Store, error) {
	s := &Store{dsn: dsn, d: sqliteDialect, origin: mrand.Int64N(math.MaxInt64) + 1}
	if IsPostgres(dsn) {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(32)
		db.SetMaxIdleConns(32)
		db.SetConnMaxIdleTime(5 * time.Minute)
		s.w, s.r, s.d = db, db, postgresDialect
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
		s.base = base
		w, err := sql.Open("sqlite", base+"&_txlock=immediate")
		if err != nil {
			return nil, err
		}
		w.SetMaxOpenConns(1)
		w.SetMaxIdleConns(1)
		w.SetConnMaxLifetime(0)
		s.w = w
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
		s.r = r
	}
	if err := s.w.PingContext(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	var err error
	if s.first, err = s.r.PrepareContext(ctx, s.q(firstQuery)); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
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
func (s *Store) Kind() string { return s.d.name }

// Close closes the database.
func (s *Store) Close() error {
	if s.stopWatch != nil {
		s.stopWatch()
		s.watch.Wait()
	}
	if s.first != nil {
		s.first.Close()
	}
	var err error
	if s.r != nil && s.r != s.w {
		err = s.r.Close()
	}
	if s.w != nil {
		if e := s.w.Close(); e != nil {
			err = e
		}
	}
	return err
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.r.PingContext(ctx) }

func (s *Store) q(query string) string { return s.d.q(query) }

// FirstURL returns the first location of the record under key: the N2L
// answer. It is ErrNotFound when there is no record or the record has no
// location, and a *GoneError (errors.Is ErrGone) when it is deactivated.
func (s *Store) FirstURL(ctx context.Context, key string) (string, error) {
	l, err := s.lookupFirst(ctx, key)
	switch {
	case err != nil:
		return "", err
	case l.gone != nil:
		return "", &GoneError{URN: l.urn, Deactivation: *l.gone}
	case len(l.urls) == 0:
		return "", ErrNotFound
	}
	return l.urls[0], nil
}

// StoredRecord is a record as the store holds it.
type StoredRecord struct {
	Key         string
	URN         string
	URLs        []string
	Metadata    string // JSON object
	Synonyms    []string
	Created     time.Time
	Updated     time.Time
	Deactivated *Deactivation // nil while the URN is active
}

// Exists reports whether there is a record under key.
func (s *Store) Exists(ctx context.Context, key string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM records WHERE key = ?`), key).Scan(&n)
	return n > 0, err
}

// Record returns the record under key, or ErrNotFound. It reads in one
// transaction so that a concurrent write is seen whole or not at all.
func (s *Store) Record(ctx context.Context, key string) (StoredRecord, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return StoredRecord{}, err
	}
	defer tx.Rollback()
	return s.record(ctx, tx, key, storedSynonyms)
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// storedSynonyms reads the synonyms a record lists, as written: what
// the admin API shows and an import merges into.
const storedSynonyms = `SELECT syn_urn FROM synonyms WHERE key = ? ORDER BY pos`

// record reads the record under key in tx, its synonyms by synQuery
// (storedSynonyms, or activeSynonyms for the resolution services).
func (s *Store) record(ctx context.Context, tx querier, key, synQuery string) (StoredRecord, error) {
	rec := StoredRecord{Key: key}
	var created, updated int64
	var gone sql.NullInt64
	var reason, successor string
	err := tx.QueryRowContext(ctx, s.q(`SELECT urn, metadata, created_at, updated_at, deactivated_at, reason, successor FROM records WHERE key = ?`), key).
		Scan(&rec.URN, &rec.Metadata, &created, &updated, &gone, &reason, &successor)
	if errors.Is(err, sql.ErrNoRows) {
		return StoredRecord{}, ErrNotFound
	}
	if err != nil {
		return StoredRecord{}, err
	}
	rec.Created, rec.Updated = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
	rec.Deactivated = deactivation(gone, reason, successor)
	if rec.URLs, err = s.strings(ctx, tx, `SELECT url FROM locations WHERE key = ? ORDER BY pos`, key); err != nil {
		return StoredRecord{}, err
	}
	if rec.Synonyms, err = s.strings(ctx, tx, synQuery, key); err != nil {
		return StoredRecord{}, err
	}
	return rec, nil
}

func (s *Store) strings(ctx context.Context, tx querier, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, s.q(query), args...)
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

// URLs returns the locations of the record under key in stored order.
func (s *Store) URLs(ctx context.Context, key string) ([]string, error) {
	return s.strings(ctx, s.r, `SELECT url FROM locations WHERE key = ? ORDER BY pos`, key)
}

// Synonyms returns the URNs registered as the same resource as the
// record under key, in both directions: those its record lists first, in
// order, then the records that list it, less the deactivated URNs. A
// synonym binding is agreed by both namings (RFC 2483 section 4.7), so
// either side may register it.
func (s *Store) Synonyms(ctx context.Context, key string) ([]string, error) {
	l, err := s.lookup(ctx, key, needSynonyms)
	return l.synonyms, err
}

// Synonymous reports whether a synonym binding links keys a and b, in
// either direction.
func (s *Store) Synonymous(ctx context.Context, a, b string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM synonyms WHERE (key = ? AND syn_key = ?) OR (key = ? AND syn_key = ?)`),
		a, b, b, a).Scan(&n)
	return n > 0, err
}

// URNsAt returns the URNs with a location whose comparison key is urlKey
// (L2Ns), sorted. A deactivated URN is not offered for a location.
func (s *Store) URNsAt(ctx context.Context, urlKey string) ([]string, error) {
	return s.strings(ctx, s.r, `SELECT DISTINCT r.urn FROM locations l JOIN records r ON r.key = l.key
		WHERE l.url_key = ? AND r.deactivated_at IS NULL ORDER BY r.urn`, urlKey)
}

// Count returns the number of records.
func (s *Store) Count(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM records`).Scan(&n)
	return n, err
}

// AuditEntry is one line of the audit log: who wrote what, when, from where.
type AuditEntry struct {
	ID     int64     `json:"id"`
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`  // "token:ID" or "cli"
	Client string    `json:"client"` // remote address, or "local"
	Action string    `json:"action"` // create, replace, delete, import, token-create, token-revoke
	URN    string    `json:"urn"`    // the record's URN, the token's ID, or the import's source
	Detail string    `json:"detail"` // JSON
}

// Audit returns the last n entries of the audit log, newest first.
func (s *Store) Audit(ctx context.Context, n int) ([]AuditEntry, error) {
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT id, at, actor, client, action, urn, detail FROM audit ORDER BY id DESC LIMIT ?`), n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.Actor, &e.Client, &e.Action, &e.URN, &e.Detail); err != nil {
			return nil, err
		}
		e.At = time.UnixMicro(at).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *Store) audit(ctx context.Context, tx execer, e AuditEntry) error {
	if e.Detail == "" {
		e.Detail = "{}"
	}
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO audit (at, actor, client, action, urn, detail) VALUES (?, ?, ?, ?, ?, ?)`),
		e.At.UnixMicro(), e.Actor, e.Client, e.Action, e.URN, e.Detail)
	return err
}

// maxParams bounds the placeholders of one statement: SQLite allows
// 32,766 and PostgreSQL 65,535.
const maxParams = 8000

// writeEntries stores es in tx, each replacing whatever was stored under
// its key: multi-row statements, so that an import of a million records
// is a few thousand statements rather than millions of round trips.
// Keys must be distinct within es.
func (s *Store) writeEntries(ctx context.Context, tx execer, es []entry, now int64) error {
	for start := 0; start < len(es); {
		end := min(start+maxParams/6, len(es))
		chunk := es[start:end]
		var b strings.Builder
		args := make([]any, 0, 6*len(chunk))
		b.WriteString(`INSERT INTO records (key, urn, nid, metadata, created_at, updated_at) VALUES `)
		for i, e := range chunk {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("(?,?,?,?,?,?)")
			args = append(args, e.key, e.urn, e.nid, e.metadata, now, now)
		}
		b.WriteString(` ON CONFLICT (key) DO UPDATE SET urn = excluded.urn, nid = excluded.nid, metadata = excluded.metadata, updated_at = excluded.updated_at`)
		if _, err := tx.ExecContext(ctx, s.q(b.String()), args...); err != nil {
			return fmt.Errorf("write records: %w", err)
		}
		keys := make([]any, len(chunk))
		for i, e := range chunk {
			keys[i] = e.key
		}
		in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",") + ")"
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM locations WHERE key IN `+in), keys...); err != nil {
			return fmt.Errorf("write locations: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM synonyms WHERE key IN `+in), keys...); err != nil {
			return fmt.Errorf("write synonyms: %w", err)
		}
		start = end
	}
	var rows [][]any
	for _, e := range es {
		for i, l := range e.urls {
			rows = append(rows, []any{e.key, i, l.url, l.key})
		}
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO locations (key, pos, url, url_key) VALUES `, 4, rows); err != nil {
		return fmt.Errorf("write locations: %w", err)
	}
	rows = rows[:0]
	for _, e := range es {
		for i, sy := range e.synonyms {
			rows = append(rows, []any{e.key, i, sy.key, sy.urn})
		}
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO synonyms (key, pos, syn_key, syn_urn) VALUES `, 4, rows); err != nil {
		return fmt.Errorf("write synonyms: %w", err)
	}
	return nil
}

func (s *Store) insertRows(ctx context.Context, tx execer, head string, cols int, rows [][]any) error {
	tuple := "(" + strings.TrimSuffix(strings.Repeat("?,", cols), ",") + ")"
	for start := 0; start < len(rows); {
		end := min(start+maxParams/cols, len(rows))
		var b strings.Builder
		b.WriteString(head)
		args := make([]any, 0, cols*(end-start))
		for i, r := range rows[start:end] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(tuple)
			args = append(args, r...)
		}
		if _, err := tx.ExecContext(ctx, s.q(b.String()), args...); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// readEntry returns what is stored under key, as an entry to merge into.
func (s *Store) readEntry(ctx context.Context, tx querier, key string) (entry, bool, error) {
	rec, err := s.record(ctx, tx, key, storedSynonyms)
	if errors.Is(err, ErrNotFound) {
		return entry{}, false, nil
	}
	if err != nil {
		return entry{}, false, err
	}
	e := entry{key: key, urn: rec.URN, metadata: rec.Metadata}
	e.nid, _, _ = strings.Cut(strings.TrimPrefix(rec.URN, "urn:"), ":")
	rows, err := tx.QueryContext(ctx, s.q(`SELECT url, url_key FROM locations WHERE key = ? ORDER BY pos`), key)
	if err != nil {
		return entry{}, false, err
	}
	for rows.Next() {
		var l location
		if err := rows.Scan(&l.url, &l.key); err != nil {
			rows.Close()
			return entry{}, false, err
		}
		e.urls = append(e.urls, l)
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return entry{}, false, err
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, s.q(`SELECT syn_key, syn_urn FROM synonyms WHERE key = ? ORDER BY pos`), key)
	if err != nil {
		return entry{}, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var sy synonym
		if err := rows.Scan(&sy.key, &sy.urn); err != nil {
			return entry{}, false, err
		}
		e.synonyms = append(e.synonyms, sy)
	}
	return e, true, rows.Err()
}

// state reads, in tx, whether a record is stored under key and whether
// it is deactivated: what a write must know before it writes.
func (s *Store) state(ctx context.Context, tx querier, key string) (found bool, gone *GoneError, err error) {
	var at sql.NullInt64
	var urn, reason, successor string
	err = tx.QueryRowContext(ctx, s.q(`SELECT urn, deactivated_at, reason, successor FROM records WHERE key = ?`), key).
		Scan(&urn, &at, &reason, &successor)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, err
	}
	if d := deactivation(at, reason, successor); d != nil {
		return true, &GoneError{URN: urn, Deactivation: *d}, nil
	}
	return true, nil, nil
}

// deactivation returns the deactivation the columns hold, nil for an
// active record.
func deactivation(at sql.NullInt64, reason, successor string) *Deactivation {
	if !at.Valid {
		return nil
	}
	return &Deactivation{At: time.UnixMicro(at.Int64).UTC(), Reason: reason, Successor: successor}
}

// writeTx begins a write transaction; on PostgreSQL it also serializes
// the writers of key, so that what a writer reads of the key's state
// holds until it commits and two concurrent writes do not interleave
// their rows. (On SQLite the transaction is the database's one writer.)
func (s *Store) writeTx(ctx context.Context, key string) (*sql.Tx, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	if s.d.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, key); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	return tx, nil
}

// commitKeys commits a write of keys and drops their N2L answers from the
// caches: the other processes' and servers' through the change log that
// tx writes (changes.go), this process's when the commit returns.
func (s *Store) commitKeys(ctx context.Context, tx *sql.Tx, keys ...string) error {
	if err := s.logChanges(ctx, tx, keys); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.invalidate(false, keys...)
	return nil
}

// put stores e under its key, replacing any record there, and writes the
// audit entry, in one transaction. It reports whether the record is new.
// A deactivated record is not replaced: the error is its *GoneError.
func (s *Store) put(ctx context.Context, e entry, a AuditEntry) (created bool, err error) {
	tx, err := s.writeTx(ctx, e.key)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	found, gone, err := s.state(ctx, tx, e.key)
	if err != nil {
		return false, err
	}
	if gone != nil {
		return false, gone
	}
	if err := s.writeEntries(ctx, tx, []entry{e}, a.At.UnixMicro()); err != nil {
		return false, err
	}
	if !found {
		a.Action = "create"
	}
	if err := s.audit(ctx, tx, a); err != nil {
		return false, err
	}
	return !found, s.commitKeys(ctx, tx, e.key)
}

// create stores e only if there is no record under its key: ErrExists
// if there is an active one, its *GoneError if it is deactivated.
func (s *Store) create(ctx context.Context, e entry, a AuditEntry) error {
	tx, err := s.writeTx(ctx, e.key)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	found, gone, err := s.state(ctx, tx, e.key)
	switch {
	case err != nil:
		return err
	case gone != nil:
		return gone
	case found:
		return ErrExists
	}
	if err := s.writeEntries(ctx, tx, []entry{e}, a.At.UnixMicro()); err != nil {
		return err
	}
	if err := s.audit(ctx, tx, a); err != nil {
		return err
	}
	return s.commitKeys(ctx, tx, e.key)
}

// maxSuccessors bounds the chain of successors a deactivation follows to
// refuse a cycle: N2L redirects from a URN to its successor, so a cycle
// would send clients round it.
const maxSuccessors = 32

// ErrSuccessorCycle is returned by a deactivation whose successor leads
// back to the URN through the successors of deactivated records, or
// through a chain longer than 32.
var ErrSuccessorCycle = errors.New("the successor leads back to this URN")

// ErrNoSuccessor is returned by a deactivation whose successor, or a URN
// further along the chain of successors, has no record: N2L would
// redirect to a 404. A successor is registered before it is named.
var ErrNoSuccessor = errors.New("the successor has no record")

// successorError is the error of a refused successor: errors.Is matches
// ErrSuccessorCycle or ErrNoSuccessor, and URN is the successor at fault
// (the first without a record, or the one that leads back).
type successorError struct {
	URN string
	Err error // ErrSuccessorCycle or ErrNoSuccessor
}

func (e *successorError) Error() string { return e.URN + ": " + e.Err.Error() }
func (e *successorError) Unwrap() error { return e.Err }

// successorLock is the PostgreSQL advisory lock every deactivation that
// names a successor holds until it commits: the chain it walks then
// stays as it read it. Locking only the deactivated key let X->Y and
// Y->X commit side by side, each reading the other still active (13 of
// 100 tries, issue 29); one lock for all such writes is what makes the
// walk and the write one step, whatever the length of the cycle. They
// are rare (an admin's deletions), so serializing them costs nothing
// that matters; record writes do not take it. On SQLite the write
// transaction (BEGIN IMMEDIATE) already holds the database's one write
// lock, across processes, from its first read.
// Its key is above the int4 range of hashtext, so no key's lock is it.
const successorLock int64 = 0x75726e73756363 // "urnsucc"

// deactivate marks the record under key deactivated with d's reason and
// successor; the date is the first deactivation's (a second one only
// changes the reason and successor). Its locations, metadata and
// synonyms are kept. keyOf returns the equivalence key of a successor
// URN, to follow the chain. ErrNotFound when there is no record; a
// *successorError when the successor has no record or leads back here.
func (s *Store) deactivate(ctx context.Context, key string, d Deactivation, keyOf func(string) string, a AuditEntry) error {
	tx, err := s.writeTx(ctx, key)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if d.Successor != "" && s.d.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, successorLock); err != nil {
			return err
		}
	}
	found, _, err := s.state(ctx, tx, key)
	if err != nil {
		return err
	}
	if !found {
		return ErrNotFound
	}
	if err := s.checkSuccessors(ctx, tx, key, d.Successor, keyOf); err != nil {
		return err
	}
	now := a.At.UnixMicro()
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE records SET deactivated_at = COALESCE(deactivated_at, ?), reason = ?, successor = ?, updated_at = ? WHERE key = ?`),
		now, d.Reason, d.Successor, now, key); err != nil {
		return err
	}
	if err := s.audit(ctx, tx, a); err != nil {
		return err
	}
	return s.commitKeys(ctx, tx, key)
}

// checkSuccessors walks, in tx, the chain that starts at the successor
// next of the record under key: each URN must have a record, and the
// chain must end at an active record or one deactivated without a
// successor, without coming back to key, within maxSuccessors steps.
func (s *Store) checkSuccessors(ctx context.Context, tx querier, key, next string, keyOf func(string) string) error {
	for i := 0; next != ""; i++ {
		k := keyOf(next)
		if k == key || i == maxSuccessors {
			return &successorError{URN: next, Err: ErrSuccessorCycle}
		}
		found, gone, err := s.state(ctx, tx, k)
		switch {
		case err != nil:
			return err
		case !found:
			return &successorError{URN: next, Err: ErrNoSuccessor}
		case gone == nil:
			return nil
		}
		next = gone.Successor
	}
	return nil
}

// reactivate makes the deactivated record under key active again, as it
// was. ErrNotFound when there is no record, ErrActive when it is active.
func (s *Store) reactivate(ctx context.Context, key string, a AuditEntry) error {
	tx, err := s.writeTx(ctx, key)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	found, gone, err := s.state(ctx, tx, key)
	switch {
	case err != nil:
		return err
	case !found:
		return ErrNotFound
	case gone == nil:
		return ErrActive
	}
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE records SET deactivated_at = NULL, reason = '', successor = '', updated_at = ? WHERE key = ?`),
		a.At.UnixMicro(), key); err != nil {
		return err
	}
	if err := s.audit(ctx, tx, a); err != nil {
		return err
	}
	return s.commitKeys(ctx, tx, key)
}

// deactivatedKeys returns which of keys are deactivated, in tx: an import
// refuses their records.
func (s *Store) deactivatedKeys(ctx context.Context, tx querier, keys []string) (map[string]*GoneError, error) {
	out := map[string]*GoneError{}
	for start := 0; start < len(keys); {
		end := min(start+maxParams, len(keys))
		args := make([]any, end-start)
		for i, k := range keys[start:end] {
			args[i] = k
		}
		in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(args)), ",") + ")"
		rows, err := tx.QueryContext(ctx, s.q(`SELECT key, urn, deactivated_at, reason, successor FROM records WHERE deactivated_at IS NOT NULL AND key IN `+in), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k, urn, reason, successor string
			var at sql.NullInt64
			if err := rows.Scan(&k, &urn, &at, &reason, &successor); err != nil {
				rows.Close()
				return nil, err
			}
			out[k] = &GoneError{URN: urn, Deactivation: *deactivation(at, reason, successor)}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
		start = end
	}
	return out, nil
}

// restoreCommitted puts back, in tx, the rows of key as the last
// committed transaction left them: an import that refuses a record after
// writing part of it in its transaction undoes that part. The committed
// state is read outside tx (a WAL reader on SQLite, another connection
// on PostgreSQL), which does not see tx's writes; nobody else can have
// changed the key since, because tx holds the write lock on SQLite and
// the key's rows on PostgreSQL.
func (s *Store) restoreCommitted(ctx context.Context, tx execer, key string) error {
	rtx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer rtx.Rollback()
	var rec []any
	var urn, nid, meta, reason, successor string
	var created, updated int64
	var gone sql.NullInt64
	err = rtx.QueryRowContext(ctx, s.q(`SELECT urn, nid, metadata, created_at, updated_at, deactivated_at, reason, successor FROM records WHERE key = ?`), key).
		Scan(&urn, &nid, &meta, &created, &updated, &gone, &reason, &successor)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	default:
		rec = []any{key, urn, nid, meta, created, updated, gone, reason, successor}
	}
	rowsOf := func(query string) ([][]any, error) {
		rows, err := rtx.QueryContext(ctx, s.q(query), key)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out [][]any
		for rows.Next() {
			var pos int64
			var a, b string
			if err := rows.Scan(&pos, &a, &b); err != nil {
				return nil, err
			}
			out = append(out, []any{key, pos, a, b})
		}
		return out, rows.Err()
	}
	locs, err := rowsOf(`SELECT pos, url, url_key FROM locations WHERE key = ?`)
	if err != nil {
		return err
	}
	syns, err := rowsOf(`SELECT pos, syn_key, syn_urn FROM synonyms WHERE key = ?`)
	if err != nil {
		return err
	}
	for _, q := range []string{`DELETE FROM records WHERE key = ?`, `DELETE FROM locations WHERE key = ?`, `DELETE FROM synonyms WHERE key = ?`} {
		if _, err := tx.ExecContext(ctx, s.q(q), key); err != nil {
			return err
		}
	}
	if rec != nil {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO records (key, urn, nid, metadata, created_at, updated_at, deactivated_at, reason, successor)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), rec...); err != nil {
			return err
		}
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO locations (key, pos, url, url_key) VALUES `, 4, locs); err != nil {
		return err
	}
	return s.insertRows(ctx, tx, `INSERT INTO synonyms (key, pos, syn_key, syn_urn) VALUES `, 4, syns)
}

// Writable checks that the store takes a write now: it commits a one-row
// write to the probe table, the same path (transaction, journal, fsync)
// as a record's. /readyz asks it.
func (s *Store) Writable(ctx context.Context) error { return s.probe(ctx, 0) }

// probe is Writable with a write of n more bytes, random so that
// PostgreSQL cannot compress them: after a write failed on a full disk,
// /readyz asks for room for a record of the largest size, which a
// one-row write does not show (SQLite reuses the pages and the WAL it
// has; PostgreSQL its preallocated WAL segments).
func (s *Store) probe(ctx context.Context, n int) error {
	var pad []byte
	if n > 0 {
		pad = make([]byte, n)
		rand.Read(pad)
	}
	_, err := s.w.ExecContext(ctx, s.q(`INSERT INTO probe (id, at, pad) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at, pad = excluded.pad`),
		time.Now().UnixMicro(), pad)
	return err
}

// ErrDiskFull is matched (errors.Is) by a store error that says the
// database's disk or its size limit is full.
var ErrDiskFull = errors.New("the database's disk is full")

// diskFull wraps err so that errors.Is(err, ErrDiskFull) holds when it is
// a full disk: SQLite's SQLITE_FULL (13), PostgreSQL's disk_full (SQLSTATE
// 53100), or the system's ENOSPC.
func diskFull(err error) error {
	if err == nil || errors.Is(err, ErrDiskFull) {
		return err
	}
	var sc interface{ Code() int }
	var pg interface{ SQLState() string }
	switch {
	case errors.As(err, &sc) && sc.Code()&0xff == 13,
		errors.As(err, &pg) && pg.SQLState() == "53100",
		errors.Is(err, syscall.ENOSPC):
		return &fullError{err}
	}
	return err
}

type fullError struct{ err error }

func (e *fullError) Error() string        { return "disk full: " + e.err.Error() }
func (e *fullError) Unwrap() error        { return e.err }
func (e *fullError) Is(target error) bool { return target == ErrDiskFull }

// ErrBackupPostgres is returned by Backup for a PostgreSQL store, whose
// backups are PostgreSQL's own (pg_dump; the README gives the command).
var ErrBackupPostgres = errors.New("a PostgreSQL database is backed up with pg_dump (see the README), not by urnresolver")

// Backup writes a consistent copy of a SQLite database to the new file
// path while the database stays online: VACUUM INTO reads one snapshot
// of the database in a read transaction, WAL frames included, so every
// write committed before it began is in the copy and none after it is.
// Copying the .db file instead can miss what is committed only in the
// -wal file. The copy is a complete database that OpenStore opens as it
// is; path must not exist.
func (s *Store) Backup(ctx context.Context, path string) error {
	if s.d.postgres {
		return ErrBackupPostgres
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(abs); err == nil {
		return fmt.Errorf("backup %s: the file exists", abs)
	}
	// A connection of its own: the readers are query_only, which
	// refuses VACUUM INTO, and the writer must stay free for writes.
	db, err := sql.Open("sqlite", s.base)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, abs); err != nil {
		return fmt.Errorf("backup %s: %w", abs, diskFull(err))
	}
	return nil
}
