package store

import (
	"context"
	"database/sql/driver"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// The change log (issue 29). Every write of records adds to the table
// changes, in its own transaction, one row per key it changed, all under
// the next number of the counter row change_seq (commit, write.go). Each
// server with an answer cache tails the log (Changes) and drops exactly
// the keys others changed: an import of a few records, a second server's
// write, or urnresolver import beside a running server leave the rest of
// the cache in place, and a token write, which changes no answer, logs
// nothing. How the tailing bounds staleness is package resolver's
// (cache.go).

// A catch-up reads the log in pages of tailPage rows; more than
// maxTailRows rows, or more than maxTailSeqs numbers behind, and the
// server empties its cache instead of reading them.
const (
	tailPage    = 5000
	maxTailRows = 200000
	maxTailSeqs = 100000
)

// Changes reads the change log after the write numbered last: the number
// of the latest write, and the keys the writes after last changed,
// except this DB's own, whose keys its writer dropped when it committed
// them. all means every key may have changed: known is false (the first
// catch-up), the log is behind last (a database restored from an older
// copy), it has been trimmed past last (a number is missing), a write
// changed every key, or the writes are too many to be worth reading.
func (db *DB) Changes(ctx context.Context, last int64, known bool) (n int64, keys []string, all bool, err error) {
	if err := db.r.QueryRowContext(ctx, `SELECT n FROM change_seq WHERE id = 1`).Scan(&n); err != nil {
		return 0, nil, false, err
	}
	switch {
	case !known || n < last || n-last > maxTailSeqs:
		return n, nil, true, nil
	case n > last:
		keys, all, err = db.changedKeys(ctx, last, n)
		return n, keys, all, err
	}
	return n, nil, false, nil
}

// changedKeys reads the keys of the writes numbered from+1 to to, less
// this DB's own (origin).
func (db *DB) changedKeys(ctx context.Context, from, to int64) (keys []string, all bool, err error) {
	seq, key := from, ""
	for first := true; ; first = false {
		// Keyset pages: after the write from, then after the last row read.
		where, args := `seq > ?`, []any{from}
		if !first {
			where, args = `(seq, key) > (?, ?)`, []any{seq, key}
		}
		rows, err := db.r.QueryContext(ctx, db.q(`SELECT seq, key, origin FROM changes WHERE `+where+` AND seq <= ? ORDER BY seq, key LIMIT ?`),
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
			if origin == db.origin {
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

// Listen calls wake when another server's write on a PostgreSQL
// database commits, so that its keys are dropped at once rather than at
// the next poll, until ctx ends; on SQLite it returns at once. It only
// makes a cache more current: a notification that never comes (a
// connection that went silent) delays nothing beyond the poll.
func (db *DB) Listen(ctx context.Context, wake func()) {
	if !db.d.postgres {
		return
	}
	for delay := 100 * time.Millisecond; ctx.Err() == nil; delay = min(2*delay, 5*time.Second) {
		conn, err := db.w.Conn(ctx)
		if err == nil {
			conn.Raw(func(dc any) error {
				pc := dc.(*stdlib.Conn).Conn()
				if _, err := pc.Exec(ctx, "LISTEN "+NotifyChannel); err == nil {
					delay = 100 * time.Millisecond
					wake() // what was written before LISTEN
					for {
						if _, err := pc.WaitForNotification(ctx); err != nil {
							break
						}
						wake()
					}
				}
				// The connection listens, or is broken: it never goes
				// back into the pool.
				return driver.ErrBadConn
			})
			conn.Close()
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
	}
}
