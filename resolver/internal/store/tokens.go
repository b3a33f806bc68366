package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// TokenRow is a stored admin token: its ID, the SHA-256 of its secret,
// and its scopes as written ("nbn:no- isbn"). Package resolver makes and
// checks tokens; the store only keeps them.
type TokenRow struct {
	ID      string
	Hash    []byte
	Scopes  string // space-separated
	Note    string
	Created time.Time
	Revoked time.Time // zero while the token is valid
	// Registrar is the code of the registrar the token writes for, ""
	// for a token that is no registrar's.
	Registrar string
}

// InsertToken stores t and its audit entry a in one transaction.
func (db *DB) InsertToken(ctx context.Context, t TokenRow, a AuditEntry) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if t.Registrar != "" {
		if _, err := db.registrar(ctx, tx, t.Registrar); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO tokens (id, hash, scopes, note, created_at, registrar) VALUES (?, ?, ?, ?, ?, ?)`),
		t.ID, t.Hash, t.Scopes, t.Note, t.Created.UnixMicro(), t.Registrar); err != nil {
		return err
	}
	if err := db.audit(ctx, tx, a); err != nil {
		return err
	}
	return tx.Commit()
}

const tokenColumns = `SELECT id, hash, scopes, note, created_at, revoked_at, registrar FROM tokens`

func scanToken(row interface{ Scan(...any) error }) (TokenRow, error) {
	var t TokenRow
	var created int64
	var revoked sql.NullInt64
	if err := row.Scan(&t.ID, &t.Hash, &t.Scopes, &t.Note, &created, &revoked, &t.Registrar); err != nil {
		return TokenRow{}, err
	}
	t.Created = time.UnixMicro(created).UTC()
	if revoked.Valid {
		t.Revoked = time.UnixMicro(revoked.Int64).UTC()
	}
	return t, nil
}

// Token returns the token id, or ErrNotFound.
func (db *DB) Token(ctx context.Context, id string) (TokenRow, error) {
	t, err := scanToken(db.r.QueryRowContext(ctx, db.q(tokenColumns+` WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return TokenRow{}, ErrNotFound
	}
	return t, err
}

// Tokens returns the stored tokens, oldest first.
func (db *DB) Tokens(ctx context.Context) ([]TokenRow, error) {
	rows, err := db.r.QueryContext(ctx, tokenColumns+` ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TokenRow
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeToken marks the token id revoked and writes the audit entry a,
// in one transaction; ErrNotFound for an unknown id. A revoked token
// stays revoked as it was, and nothing is written.
func (db *DB) RevokeToken(ctx context.Context, id string, a AuditEntry) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, db.q(`UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`), a.At.UnixMicro(), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var c int
		if err := tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM tokens WHERE id = ?`), id).Scan(&c); err != nil {
			return err
		}
		if c == 0 {
			return ErrNotFound
		}
		return nil // already revoked
	}
	if err := db.audit(ctx, tx, a); err != nil {
		return err
	}
	return tx.Commit()
}
