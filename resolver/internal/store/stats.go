package store

import (
	"context"
	"sort"
)

// Resolutions per day, namespace and registrar (issue 30): the servers
// count in memory and add their counts here now and then, so that a
// resolution costs no write.

// Count is the number of resolutions of one day (UTC, YYYY-MM-DD) in
// one namespace and, where registrars are known, one registrar ("" for
// none).
type Count struct {
	Day       string `json:"day"`
	NID       string `json:"namespace"`
	Registrar string `json:"registrar,omitempty"`
	N         int64  `json:"resolutions"`
}

// AddResolutions adds cs to the stored counts, in one transaction.
func (db *DB) AddResolutions(ctx context.Context, cs []Count) error {
	if len(cs) == 0 {
		return nil
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// One statement per (day, nid, registrar), in a fixed order, so
	// that two servers flushing at once take the rows' locks in the same
	// order.
	sum := map[[3]string]int64{}
	for _, c := range cs {
		sum[[3]string{c.Day, c.NID, c.Registrar}] += c.N
	}
	keys := make([][3]string, 0, len(sum))
	for k := range sum {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		if a[1] != b[1] {
			return a[1] < b[1]
		}
		return a[2] < b[2]
	})
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO resolutions (day, nid, registrar, n) VALUES (?, ?, ?, ?)
			ON CONFLICT (day, nid, registrar) DO UPDATE SET n = resolutions.n + excluded.n`), k[0], k[1], k[2], sum[k]); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Resolutions returns the stored counts of the days from since on
// (YYYY-MM-DD; "" for all), by day, namespace and registrar.
func (db *DB) Resolutions(ctx context.Context, since string) ([]Count, error) {
	rows, err := db.r.QueryContext(ctx, db.q(`SELECT day, nid, registrar, n FROM resolutions WHERE day >= ? ORDER BY day, nid, registrar`), since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Count
	for rows.Next() {
		var c Count
		if err := rows.Scan(&c.Day, &c.NID, &c.Registrar, &c.N); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
