package resolver

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// The change log (issue 29). Every write of records adds to the table
// changes, in its own transaction, one row per key it changed, all under
// the next number of the counter row change_seq. The counter's row lock,
// held from that update to the commit, makes the numbers dense and
// committed in their order on PostgreSQL as on SQLite (whose writers are
// one at a time anyway), so that a reader that has seen number n has
// seen every write numbered below it. Each server with an answer cache
// tails the log (follow) and drops exactly the keys others changed: an
// import of a few records, a second server's write, or urnresolver
// import beside a running server leave the rest of the cache in place,
// and a token write, which changes no answer, logs nothing.
//
// The same tailing bounds staleness. A catch-up that began at time t and
// reached the end of the log has applied every write acknowledged before
// t; the cache answers only while the last such start is at most MaxStale
// ago, by the server's monotonic clock, and otherwise every read goes to
// the database. So whatever stops the tailing (a connection that hangs
// without an error, a killed backend, a restarting database, a stalled
// process) costs speed, never an answer older than the bound.

// maxLoggedKeys bounds the rows one write adds: a write of more keys
// logs the single key "", every key.
const maxLoggedKeys = 10000

// The log is trimmed by the writers: every trimEvery-th number, the rows
// that are both older than keepChanges and more than keepSeqs numbers
// behind. A server that was away longer finds a number missing and
// empties its cache. Variables so that tests can trim at once.
var (
	trimEvery   int64 = 64
	keepSeqs    int64 = 1000
	keepChanges       = 10 * time.Minute
)

// A catch-up reads the log in pages of tailPage rows; more than
// maxTailRows rows, or more than maxTailSeqs numbers behind, and the
// server empties its cache instead of reading them.
const (
	tailPage    = 5000
	maxTailRows = 200000
	maxTailSeqs = 100000
)

// logChanges numbers the write in tx and logs the keys it changes; on
// PostgreSQL it also wakes the servers that LISTEN (cache.go) to read the
// log at once rather than at their next poll (notify). Called last before the
// commit, so that the counter's lock is held briefly.
func (s *Store) logChanges(ctx context.Context, tx *sql.Tx, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	var n int64
	if err := tx.QueryRowContext(ctx, `UPDATE change_seq SET n = n + 1 WHERE id = 1 RETURNING n`).Scan(&n); err != nil {
		return fmt.Errorf("change log: %w", err)
	}
	now := time.Now().UnixMicro()
	var rows [][]any
	if len(keys) > maxLoggedKeys {
		rows = [][]any{{n, "", s.origin, now}}
	} else {
		seen := make(map[string]bool, len(keys))
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				rows = append(rows, []any{n, k, s.origin, now})
			}
		}
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO changes (seq, key, origin, at) VALUES `, 4, rows); err != nil {
		return fmt.Errorf("change log: %w", err)
	}
	if n%trimEvery == 0 {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM changes WHERE seq <= ? AND at < ?`),
			n-keepSeqs, now-keepChanges.Microseconds()); err != nil {
			return fmt.Errorf("change log: trim: %w", err)
		}
	}
	return s.notify(ctx, tx, keys)
}

// notify wakes, in tx, the servers that LISTEN on a PostgreSQL database
// when tx commits. Any notification makes a server read the log; the
// payloads are the keys, or "" for every key, as the servers before the
// change log read them, so that those still running during an upgrade
// keep dropping what the new ones write.
func (s *Store) notify(ctx context.Context, tx *sql.Tx, keys []string) error {
	if !s.d.postgres {
		return nil
	}
	all := len(keys) > 1000
	for _, k := range keys {
		if all || len(k) >= 7900 || strings.ContainsRune(k, 0) {
			_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, notifyChannel)
			return err
		}
		if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, k); err != nil {
			return err
		}
	}
	return nil
}

// tailer is where a server is in the change log; only its follow
// goroutine touches it.
type tailer struct {
	last  int64 // the number of the last write applied
	known bool  // false until the first catch-up
}

// catchUp applies the log from t.last to its end to c, then lets c answer
// for MaxStale from the moment the catch-up began.
func (s *Store) catchUp(ctx context.Context, c *answerCache, t *tailer) error {
	start, gen := c.reading()
	var n int64
	if err := s.r.QueryRowContext(ctx, `SELECT n FROM change_seq WHERE id = 1`).Scan(&n); err != nil {
		return err
	}
	switch {
	case !t.known || n < t.last || n-t.last > maxTailSeqs:
		// The first catch-up, a database restored from an older copy,
		// or too far behind: nothing cached is known to be current.
		c.invalidate(true)
	case n > t.last:
		keys, all, err := s.changedKeys(ctx, t.last, n)
		if err != nil {
			return err
		}
		c.invalidate(all, keys...)
	}
	t.last, t.known = n, true
	c.trust(start, gen)
	return nil
}

// changedKeys reads the keys of the writes numbered from+1 to to, except
// this store's own (origin), whose keys it dropped when it committed
// them; all when one of them changed every key, when the log has been trimmed past from
// (a number is missing), or when they are too many to be worth reading.
func (s *Store) changedKeys(ctx context.Context, from, to int64) (keys []string, all bool, err error) {
	seq, key := from, ""
	for first := true; ; first = false {
		// Keyset pages: after the write from, then after the last row read.
		where, args := `seq > ?`, []any{from}
		if !first {
			where, args = `(seq, key) > (?, ?)`, []any{seq, key}
		}
		rows, err := s.r.QueryContext(ctx, s.q(`SELECT seq, key, origin FROM changes WHERE `+where+` AND seq <= ? ORDER BY seq, key LIMIT ?`),
			append(args, to, tailPage)...)
		if err != nil {
			return nil, false, err
		}
		got := 0
		for rows.Next() {
			var n, origin int64
			var k string
			if err := rows.Scan(&n, &k, &origin); err != nil {
				rows.Close()
				return nil, false, err
			}
			got++
			if n > seq+1 {
				rows.Close()
				return nil, true, nil
			}
			seq, key = n, k
			if origin == s.origin {
				continue
			}
			if k == "" || len(keys) == maxTailRows {
				rows.Close()
				return nil, true, nil
			}
			keys = append(keys, k)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, false, err
		}
		if got < tailPage {
			// Every number up to to has at least one row.
			return keys, seq != to, nil
		}
	}
}
