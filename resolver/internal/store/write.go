package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Every write of records is one transaction that reads the state it
// depends on, writes the rows, appends its audit entry and its keys to
// the change log (changes.go), and commits: a write and its audit entry
// are stored together or not at all.

// Entry is a record as a write stores it: validated, every URN keyed,
// every location with its comparison key.
type Entry struct {
	Key      string
	URN      string // canonical assigned-name
	NID      string
	URLs     []Location
	Metadata string // compact JSON object, "{}" when none
	Synonyms []Synonym
	// By is the registrar of the token that writes the entry, "" for
	// none: a new record under a registrar's prefix needs that
	// registrar (claim).
	By string
}

// Location is a location and its comparison key (the L2N lookup key).
type Location struct{ URL, Key string }

// Synonym is a synonym's equivalence key and its canonical URN.
type Synonym struct{ Key, URN string }

// Target names the record a write changes: its equivalence key, and its
// URN as the write names it (canonical), for the errors.
type Target struct{ Key, URN string }

// writeTx begins a write transaction; on PostgreSQL it also serializes
// the writers of key, so that what a writer reads of the key's state
// holds until it commits and two concurrent writes do not interleave
// their rows. (On SQLite the transaction is the database's one writer.)
func (db *DB) writeTx(ctx context.Context, key string) (*sql.Tx, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	if db.d.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, key); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	return tx, nil
}

// state reads, in tx, whether a record is stored under key and whether
// it is deactivated: what a write must know before it writes.
func (db *DB) state(ctx context.Context, tx querier, key string) (found bool, gone *GoneError, successorKey string, err error) {
	var at sql.NullInt64
	var urn, reason, successor string
	err = tx.QueryRowContext(ctx, db.q(`SELECT urn, deactivated_at, reason, successor, successor_key FROM records WHERE key = ?`), key).
		Scan(&urn, &at, &reason, &successor, &successorKey)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil, "", nil
	}
	if err != nil {
		return false, nil, "", err
	}
	if d := deactivation(at, reason, successor); d != nil {
		return true, &GoneError{URN: urn, Deactivation: *d}, successorKey, nil
	}
	return true, nil, "", nil
}

// Put stores e under its key, replacing any record there, and writes the
// audit entry a, in one transaction. It returns the record as stored and
// whether it is new (then a's action is "create"). A deactivated record
// is not replaced: the error is its *GoneError. A new record under a
// registrar's prefix is the registrar's to write (claim).
func (db *DB) Put(ctx context.Context, e Entry, a AuditEntry) (Record, bool, error) {
	tx, err := db.writeTx(ctx, e.Key)
	if err != nil {
		return Record{}, false, err
	}
	defer tx.Rollback()
	found, gone, _, err := db.state(ctx, tx, e.Key)
	if err != nil {
		return Record{}, false, err
	}
	if gone != nil {
		return Record{}, false, gone
	}
	if !found {
		a.Action = "create"
		if err := db.claim(ctx, tx, e.Key, e.URN, e.By, a.At); err != nil {
			return Record{}, false, err
		}
	}
	rec, err := db.writeOne(ctx, tx, e, a)
	return rec, !found, err
}

// Create stores e only if there is no record under its key: a
// *StateError (ErrExists) if there is an active one, its *GoneError if
// it is deactivated, a *RegistrarError if a registrar's prefix holds the
// key and its rules refuse the writer (claim).
func (db *DB) Create(ctx context.Context, e Entry, a AuditEntry) (Record, error) {
	tx, err := db.writeTx(ctx, e.Key)
	if err != nil {
		return Record{}, err
	}
	defer tx.Rollback()
	found, gone, _, err := db.state(ctx, tx, e.Key)
	switch {
	case err != nil:
		return Record{}, err
	case gone != nil:
		return Record{}, gone
	case found:
		return Record{}, &StateError{URN: e.URN, Err: ErrExists}
	}
	if err := db.claim(ctx, tx, e.Key, e.URN, e.By, a.At); err != nil {
		return Record{}, err
	}
	return db.writeOne(ctx, tx, e, a)
}

// record is the record a write of e stores as new at the time at, as
// reading it back would give it.
func (e Entry) record(at time.Time) Record {
	t := time.UnixMicro(at.UnixMicro()).UTC()
	rec := Record{Key: e.Key, URN: e.URN, Metadata: e.Metadata, Created: t, Updated: t}
	for _, l := range e.URLs {
		rec.URLs = append(rec.URLs, l.URL)
	}
	for _, sy := range e.Synonyms {
		rec.Synonyms = append(rec.Synonyms, sy.URN)
	}
	return rec
}

// writeOne writes e in tx and ends the write (end).
func (db *DB) writeOne(ctx context.Context, tx *sql.Tx, e Entry, a AuditEntry) (Record, error) {
	if err := db.writeEntries(ctx, tx, []Entry{e}, a.At.UnixMicro()); err != nil {
		return Record{}, err
	}
	return db.end(ctx, tx, e.Key, a)
}

// end writes the audit entry a of a write of the record under key in
// tx, reads the record back and commits: the record returned is what
// this write stored.
func (db *DB) end(ctx context.Context, tx *sql.Tx, key string, a AuditEntry) (Record, error) {
	if err := db.audit(ctx, tx, a); err != nil {
		return Record{}, err
	}
	rec, err := db.record(ctx, tx, key, storedSynonyms)
	if err != nil {
		return Record{}, err
	}
	return rec, db.commit(ctx, tx, key)
}

// maxSuccessors bounds the chain of successors a deactivation follows to
// refuse a cycle: N2L redirects from a URN to its successor, so a cycle
// would send clients round it.
const maxSuccessors = 32

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

// Deactivate marks the record of t deactivated with d's reason and
// successor, whose equivalence key is successorKey; the date is the
// first deactivation's (a second one only changes the reason and
// successor). Its locations, metadata and synonyms are kept. A
// *StateError (ErrNotFound) when there is no record; a *SuccessorError
// when the successor, or a URN along its chain of successors, has no
// record, or the chain leads back here.
func (db *DB) Deactivate(ctx context.Context, t Target, d Deactivation, successorKey string, a AuditEntry) error {
	tx, err := db.writeTx(ctx, t.Key)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if d.Successor != "" && db.d.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, successorLock); err != nil {
			return err
		}
	}
	found, _, _, err := db.state(ctx, tx, t.Key)
	if err != nil {
		return err
	}
	if !found {
		return &StateError{URN: t.URN, Err: ErrNotFound}
	}
	if err := db.checkSuccessors(ctx, tx, t, d.Successor, successorKey); err != nil {
		return err
	}
	now := a.At.UnixMicro()
	if _, err := tx.ExecContext(ctx, db.q(`UPDATE records SET deactivated_at = COALESCE(deactivated_at, ?), reason = ?, successor = ?, successor_key = ?, updated_at = ? WHERE key = ?`),
		now, d.Reason, d.Successor, successorKey, now, t.Key); err != nil {
		return err
	}
	if err := db.audit(ctx, tx, a); err != nil {
		return err
	}
	return db.commit(ctx, tx, t.Key)
}

// checkSuccessors walks, in tx, the chain that starts at the successor
// next (key nextKey) of the record of t: each URN must have a record,
// and the chain must end at an active record or one deactivated without
// a successor, without coming back to t, within maxSuccessors steps.
func (db *DB) checkSuccessors(ctx context.Context, tx querier, t Target, next, nextKey string) error {
	first := next
	for i := 0; next != ""; i++ {
		if nextKey == t.Key || i == maxSuccessors {
			return &SuccessorError{URN: t.URN, Successor: first, At: next, Err: ErrSuccessorCycle}
		}
		found, gone, key, err := db.state(ctx, tx, nextKey)
		switch {
		case err != nil:
			return err
		case !found:
			return &SuccessorError{URN: t.URN, Successor: first, At: next, Err: ErrNoSuccessor}
		case gone == nil:
			return nil
		}
		next, nextKey = gone.Successor, key
	}
	return nil
}

// Reactivate makes the deactivated record of t active again, as it was,
// and returns it. A *StateError: ErrNotFound when there is no record,
// ErrActive when it is active.
func (db *DB) Reactivate(ctx context.Context, t Target, a AuditEntry) (Record, error) {
	tx, err := db.writeTx(ctx, t.Key)
	if err != nil {
		return Record{}, err
	}
	defer tx.Rollback()
	found, gone, _, err := db.state(ctx, tx, t.Key)
	switch {
	case err != nil:
		return Record{}, err
	case !found:
		return Record{}, &StateError{URN: t.URN, Err: ErrNotFound}
	case gone == nil:
		return Record{}, &StateError{URN: t.URN, Err: ErrActive}
	}
	if _, err := tx.ExecContext(ctx, db.q(`UPDATE records SET deactivated_at = NULL, reason = '', successor = '', successor_key = '', updated_at = ? WHERE key = ?`),
		a.At.UnixMicro(), t.Key); err != nil {
		return Record{}, err
	}
	return db.end(ctx, tx, t.Key, a)
}

func (db *DB) audit(ctx context.Context, tx execer, e AuditEntry) error {
	if e.Detail == "" {
		e.Detail = "{}"
	}
	_, err := tx.ExecContext(ctx, db.q(`INSERT INTO audit (at, actor, client, action, urn, detail) VALUES (?, ?, ?, ?, ?, ?)`),
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
func (db *DB) writeEntries(ctx context.Context, tx execer, es []Entry, now int64) error {
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
			args = append(args, e.Key, e.URN, e.NID, e.Metadata, now, now)
		}
		b.WriteString(` ON CONFLICT (key) DO UPDATE SET urn = excluded.urn, nid = excluded.nid, metadata = excluded.metadata, updated_at = excluded.updated_at`)
		if _, err := tx.ExecContext(ctx, db.q(b.String()), args...); err != nil {
			return fmt.Errorf("write records: %w", err)
		}
		keys := make([]any, len(chunk))
		for i, e := range chunk {
			keys[i] = e.Key
		}
		in := placeholders(len(chunk))
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM locations WHERE key IN `+in), keys...); err != nil {
			return fmt.Errorf("write locations: %w", err)
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM synonyms WHERE key IN `+in), keys...); err != nil {
			return fmt.Errorf("write synonyms: %w", err)
		}
		start = end
	}
	return db.writeLists(ctx, tx, es)
}

// writeLists inserts the locations and synonyms of es, whose keys have
// none stored.
func (db *DB) writeLists(ctx context.Context, tx execer, es []Entry) error {
	var rows [][]any
	for _, e := range es {
		for i, l := range e.URLs {
			rows = append(rows, []any{e.Key, i, l.URL, l.Key})
		}
	}
	if err := db.insertRows(ctx, tx, `INSERT INTO locations (key, pos, url, url_key) VALUES `, 4, rows); err != nil {
		return fmt.Errorf("write locations: %w", err)
	}
	rows = rows[:0]
	for _, e := range es {
		for i, sy := range e.Synonyms {
			rows = append(rows, []any{e.Key, i, sy.Key, sy.URN})
		}
	}
	if err := db.insertRows(ctx, tx, `INSERT INTO synonyms (key, pos, syn_key, syn_urn) VALUES `, 4, rows); err != nil {
		return fmt.Errorf("write synonyms: %w", err)
	}
	return nil
}

func (db *DB) insertRows(ctx context.Context, tx execer, head string, cols int, rows [][]any) error {
	tuple := placeholders(cols)
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
		if _, err := tx.ExecContext(ctx, db.q(b.String()), args...); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// The change log is trimmed by the writers: every trimEvery-th number,
// the rows that are both older than keepChanges and more than keepSeqs
// numbers behind. A server that was away longer finds a number missing
// and empties its cache. Variables so that tests can trim at once.
var (
	trimEvery   int64 = 64
	keepSeqs    int64 = 1000
	keepChanges       = 10 * time.Minute
)

// MaxLoggedKeys bounds the rows one write adds to the change log: a
// write of more keys logs the single key "", every key.
const MaxLoggedKeys = 10000

// commit logs the keys tx changes in the change log and commits:
// numbered with the next number of the counter row change_seq, whose
// row lock, held from that update to the commit, makes the numbers dense
// and committed in their order on PostgreSQL as on SQLite (whose writers
// are one at a time anyway), so that a reader that has seen number n
// has seen every write numbered below it. On PostgreSQL it also wakes
// the servers that LISTEN (Listen) to read the log at once rather than
// at their next poll. Last before the commit, so that the counter's lock
// is held briefly: the notifications are queued before it is taken.
func (db *DB) commit(ctx context.Context, tx *sql.Tx, keys ...string) error {
	if len(keys) > 0 {
		// The notifications go out when tx commits, whenever they are
		// queued: before the counter's lock, which every write waits for.
		if err := db.notify(ctx, tx, keys); err != nil {
			return err
		}
		// The change time is taken under the counter's lock, above the
		// last one handed out (a harvest's horizon among them), so
		// change times are ordered as the writes commit (Horizon).
		var n, at int64
		now := time.Now().UnixMicro()
		if err := tx.QueryRowContext(ctx, db.q(`UPDATE change_seq SET n = n + 1, at = CASE WHEN at < ? THEN ? ELSE at + 1 END WHERE id = 1 RETURNING n, at`),
			now, now).Scan(&n, &at); err != nil {
			return fmt.Errorf("change log: %w", err)
		}
		if err := db.stamp(ctx, tx, keys, at); err != nil {
			return fmt.Errorf("change time: %w", err)
		}
		var rows [][]any
		if len(keys) > MaxLoggedKeys {
			rows = [][]any{{n, "", db.origin, now}}
		} else {
			seen := make(map[string]bool, len(keys))
			for _, k := range keys {
				if !seen[k] {
					seen[k] = true
					rows = append(rows, []any{n, k, db.origin, now})
				}
			}
		}
		if err := db.insertRows(ctx, tx, `INSERT INTO changes (seq, key, origin, at) VALUES `, 4, rows); err != nil {
			return fmt.Errorf("change log: %w", err)
		}
		if n%trimEvery == 0 {
			if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM changes WHERE seq <= ? AND at < ?`),
				n-keepSeqs, now-keepChanges.Microseconds()); err != nil {
				return fmt.Errorf("change log: trim: %w", err)
			}
		}
	}
	return tx.Commit()
}

// NotifyChannel is the PostgreSQL channel on which a write tells the
// servers to read the change log.
const NotifyChannel = "urnresolver_cache"

// notify wakes, in tx, the servers that LISTEN on a PostgreSQL database
// when tx commits. Any notification makes a server read the log; the
// payloads are the keys, or "" for every key, as the servers before the
// change log read them, so that those still running during an upgrade
// keep dropping what the new ones write.
func (db *DB) notify(ctx context.Context, tx *sql.Tx, keys []string) error {
	if !db.d.postgres {
		return nil
	}
	all := len(keys) > 1000
	for _, k := range keys {
		if all || len(k) >= 7900 || strings.ContainsRune(k, 0) {
			_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, NotifyChannel)
			return err
		}
		if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, NotifyChannel, k); err != nil {
			return err
		}
	}
	return nil
}
