package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Registrars and the URNs they are assigned (issue 30). A registrar owns
// an NSS prefix; a URN under it is assigned in one of the ways its modes
// allow, each decided in the transaction that writes it:
//
//   - resolver: Mint takes the next number of the registrar's counter and
//     writes the record under the URN it makes, in one transaction;
//   - reserved: Reserve takes a block of numbers and keeps their URNs for
//     the registrar, which registers them later (claim);
//   - registrar: the registrar writes a URN of its own choice (claim).
//
// The counter row is updated in the transaction that uses the number, so
// its row lock (PostgreSQL) or the database's one writer (SQLite) gives
// each number to one transaction, a rollback gives it back, and a
// committed number is never given again, even when its record is later
// deactivated: the numbers are dense except where a reservation keeps
// them. A URN under a registrar's prefix that no record holds yet is
// written only by that registrar, and only as its modes allow (claim),
// so that no other writer takes a number the counter will reach.

// The modes of a registrar, as stored and as the command and the API
// name them.
const (
	ModeResolver  = "resolver"
	ModeReserved  = "reserved"
	ModeRegistrar = "registrar"
)

// Errors of registrars.
var (
	ErrNoRegistrar = errors.New("no such registrar")
	// ErrRegistrarExists: the code is taken, or the prefix overlaps
	// another registrar's (one starts the other).
	ErrRegistrarExists = errors.New("the registrar exists, or its prefix overlaps another's")
	// ErrOtherRegistrar: a URN under a registrar's prefix that has no
	// record is written by a token that is not that registrar's.
	ErrOtherRegistrar = errors.New("the URN is under another registrar's prefix")
	// ErrRegistrarMode: the registrar's modes do not assign URNs the way
	// the write asks (a mint without mode resolver, a reservation
	// without mode reserved, a URN of its own choice without mode
	// registrar, a reservation that has expired).
	ErrRegistrarMode = errors.New("the registrar's modes do not assign URNs this way")
)

// RegistrarRow is a registrar as the store holds it.
type RegistrarRow struct {
	Code      string
	Prefix    string // as given, "nbn:cz:aba001-"
	PrefixKey string // the equivalence key its URNs start with
	Modes     []string
	Next      int64 // the number the resolver assigns next
	Created   time.Time
	Reserved  int // reservations not registered and not expired (Registrar, Registrars)
}

// Has reports whether the registrar has mode m.
func (r RegistrarRow) Has(m string) bool {
	for _, v := range r.Modes {
		if v == m {
			return true
		}
	}
	return false
}

// RegistrarError is a write refused for a registrar's rules: Err is
// ErrOtherRegistrar or ErrRegistrarMode.
type RegistrarError struct {
	URN       string    // the URN written, canonical; "" for a mint or reservation
	Registrar string    // the registrar whose prefix or modes refused it
	Writer    string    // the registrar of the writing token, "" for none
	Modes     []string  // the registrar's modes
	Need      string    // the mode the write needs
	Expired   time.Time // for a reserved URN whose reservation expired
	Err       error
}

func (e *RegistrarError) Error() string {
	if e.URN == "" {
		return "registrar " + e.Registrar + ": " + e.Err.Error()
	}
	return e.URN + ": " + e.Err.Error() + " (registrar " + e.Registrar + ")"
}
func (e *RegistrarError) Unwrap() error { return e.Err }

// registrarLock is the PostgreSQL advisory lock held by a new
// registrar's transaction, so that two registrars with overlapping
// prefixes cannot be added side by side. Above the int4 range of
// hashtext, like successorLock.
const registrarLock int64 = 0x75726e72656773 // "urnregs"

const registrarColumns = `SELECT code, prefix, prefix_key, modes, next_number, created_at FROM registrars`

func scanRegistrar(row interface{ Scan(...any) error }) (RegistrarRow, error) {
	var r RegistrarRow
	var modes string
	var created int64
	if err := row.Scan(&r.Code, &r.Prefix, &r.PrefixKey, &modes, &r.Next, &created); err != nil {
		return RegistrarRow{}, err
	}
	r.Modes, r.Created = strings.Fields(modes), time.UnixMicro(created).UTC()
	return r, nil
}

// InsertRegistrar stores r, its counter at 1, and the audit entry a:
// ErrRegistrarExists when its code is taken or its prefix overlaps
// another registrar's.
func (db *DB) InsertRegistrar(ctx context.Context, r RegistrarRow, a AuditEntry) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if db.d.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, registrarLock); err != nil {
			return err
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM registrars WHERE code = ?
		OR substr(CAST(? AS TEXT), 1, length(prefix_key)) = prefix_key OR substr(prefix_key, 1, length(CAST(? AS TEXT))) = ?`),
		r.Code, r.PrefixKey, r.PrefixKey, r.PrefixKey).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return ErrRegistrarExists
	}
	if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO registrars (code, prefix, prefix_key, modes, next_number, created_at) VALUES (?, ?, ?, ?, 1, ?)`),
		r.Code, r.Prefix, r.PrefixKey, strings.Join(r.Modes, " "), a.At.UnixMicro()); err != nil {
		return err
	}
	if err := db.audit(ctx, tx, a); err != nil {
		return err
	}
	return tx.Commit()
}

// registrar reads the registrar code in tx: ErrNoRegistrar when there
// is none.
func (db *DB) registrar(ctx context.Context, tx querier, code string) (RegistrarRow, error) {
	r, err := scanRegistrar(tx.QueryRowContext(ctx, db.q(registrarColumns+` WHERE code = ?`), code))
	if errors.Is(err, sql.ErrNoRows) {
		return RegistrarRow{}, ErrNoRegistrar
	}
	return r, err
}

// Registrar returns the registrar code, with the count of its active
// reservations: ErrNoRegistrar when there is none.
func (db *DB) Registrar(ctx context.Context, code string) (RegistrarRow, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return RegistrarRow{}, err
	}
	defer tx.Rollback()
	r, err := db.registrar(ctx, tx, code)
	if err != nil {
		return r, err
	}
	err = tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM reservations WHERE registrar = ? AND (expires_at IS NULL OR expires_at > ?)`),
		code, time.Now().UnixMicro()).Scan(&r.Reserved)
	return r, err
}

// Registrars returns every registrar, by code, with the counts of their
// active reservations.
func (db *DB) Registrars(ctx context.Context) ([]RegistrarRow, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	out, err := db.registrars(ctx, tx)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	rows, err := tx.QueryContext(ctx, db.q(`SELECT registrar, COUNT(*) FROM reservations WHERE expires_at IS NULL OR expires_at > ? GROUP BY registrar`), time.Now().UnixMicro())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var code string
		var n int
		if err := rows.Scan(&code, &n); err != nil {
			return nil, err
		}
		counts[code] = n
	}
	for i := range out {
		out[i].Reserved = counts[out[i].Code]
	}
	return out, rows.Err()
}

// RegistrarPrefixes returns every registrar, by code, without the
// counts of their reservations: what the registrars' OAI-PMH sets and
// resolution counts need.
func (db *DB) RegistrarPrefixes(ctx context.Context) ([]RegistrarRow, error) {
	return db.registrars(ctx, db.r)
}

// registrars reads every registrar in tx, by code.
func (db *DB) registrars(ctx context.Context, tx querier) ([]RegistrarRow, error) {
	rows, err := tx.QueryContext(ctx, registrarColumns+` ORDER BY code`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RegistrarRow
	for rows.Next() {
		r, err := scanRegistrar(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// registrarOf reads, in tx, the registrar whose prefix the key is under;
// found is false when there is none.
func (db *DB) registrarOf(ctx context.Context, tx querier, key string) (r RegistrarRow, found bool, err error) {
	r, err = scanRegistrar(tx.QueryRowContext(ctx, db.q(registrarColumns+` WHERE substr(CAST(? AS TEXT), 1, length(prefix_key)) = prefix_key`), key))
	if errors.Is(err, sql.ErrNoRows) {
		return RegistrarRow{}, false, nil
	}
	return r, err == nil, err
}

// RegistrarOf returns the registrar whose prefix the key is under, if any.
func (db *DB) RegistrarOf(ctx context.Context, key string) (RegistrarRow, bool, error) {
	return db.registrarOf(ctx, db.r, key)
}

// claim decides, in tx, whether the writer, a token of registrar by (""
// for none), may write a new record under key (its URN canonical, for
// the error): yes outside every registrar's prefix; under one, only by
// that registrar, for a URN reserved for it and not expired (the
// reservation is then used up) or, with mode registrar, any other. A
// *RegistrarError otherwise.
func (db *DB) claim(ctx context.Context, tx querier, key, urn, by string, now time.Time) error {
	r, found, err := db.registrarOf(ctx, tx, key)
	if err != nil || !found {
		return err
	}
	refuse := &RegistrarError{URN: urn, Registrar: r.Code, Writer: by, Modes: r.Modes, Err: ErrOtherRegistrar}
	if by != r.Code {
		return refuse
	}
	var expires sql.NullInt64
	err = tx.QueryRowContext(ctx, db.q(`SELECT expires_at FROM reservations WHERE key = ?`), key).Scan(&expires)
	reserved := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	live := reserved && (!expires.Valid || expires.Int64 > now.UnixMicro())
	if !live && !r.Has(ModeRegistrar) {
		refuse.Err, refuse.Need = ErrRegistrarMode, ModeRegistrar
		if reserved {
			refuse.Need, refuse.Expired = ModeReserved, time.UnixMicro(expires.Int64).UTC()
		}
		return refuse
	}
	if reserved {
		x, ok := tx.(execer)
		if !ok {
			return errors.New("claim: not a write transaction")
		}
		if _, err := x.ExecContext(ctx, db.q(`DELETE FROM reservations WHERE key = ?`), key); err != nil {
			return err
		}
	}
	return nil
}

// counter takes count numbers of registrar code's counter in tx, if its
// modes have mode: the first of them, and the registrar. The counter's
// row stays locked (PostgreSQL) until tx ends.
func (db *DB) counter(ctx context.Context, tx *sql.Tx, code, mode string, count int64) (int64, RegistrarRow, error) {
	r, err := scanRegistrar(tx.QueryRowContext(ctx, db.q(`UPDATE registrars SET next_number = next_number + ? WHERE code = ?
		RETURNING code, prefix, prefix_key, modes, next_number, created_at`), count, code))
	if errors.Is(err, sql.ErrNoRows) {
		return 0, r, ErrNoRegistrar
	}
	if err != nil {
		return 0, r, err
	}
	if !r.Has(mode) {
		return 0, r, &RegistrarError{Registrar: code, Modes: r.Modes, Need: mode, Err: ErrRegistrarMode}
	}
	return r.Next - count, r, nil
}

// maxSkips bounds the numbers a mint passes over because their URNs have
// records already (a registrar's own choice, or an import).
const maxSkips = 10000

// Mint writes a record for the next number of registrar code's counter,
// in one transaction with the counter's update and the audit entry a:
// build makes the entry of a number (its URN under the registrar's
// prefix). A number whose URN has a record or a reservation already is
// passed over. ErrNoRegistrar, or a *RegistrarError (ErrRegistrarMode)
// when the registrar's modes lack resolver.
//
// The counter's row lock (PostgreSQL) is held from its update to the
// commit, so every mint of a registrar waits for the one before it to
// commit: what runs under it is kept to the statements that need the
// number. Its URN is inserted only if free, in one statement rather than
// a read and a write; the record is new, so there are no old lists to
// delete, and it is returned as written rather than read back.
func (db *DB) Mint(ctx context.Context, code string, build func(prefix string, n int64) (Entry, error), a AuditEntry) (Record, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return Record{}, err
	}
	defer tx.Rollback()
	now := a.At.UnixMicro()
	for range maxSkips {
		n, r, err := db.counter(ctx, tx, code, ModeResolver, 1)
		if err != nil {
			return Record{}, err
		}
		e, err := build(r.Prefix, n)
		if err != nil {
			return Record{}, err
		}
		if db.d.postgres {
			// The key's lock, which every writer of a record takes
			// (writeTx): a registrar's own choice of this URN has
			// committed before the insert, or waits for this commit.
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, e.Key); err != nil {
				return Record{}, err
			}
		}
		res, err := tx.ExecContext(ctx, db.q(`INSERT INTO records (key, urn, nid, metadata, created_at, updated_at)
			SELECT ?, ?, ?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE NOT EXISTS (SELECT 1 FROM reservations WHERE key = ?)
			ON CONFLICT (key) DO NOTHING`), e.Key, e.URN, e.NID, e.Metadata, now, now, e.Key)
		if err != nil {
			return Record{}, fmt.Errorf("write records: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return Record{}, err
		} else if n == 0 {
			continue // a record or a reservation has the URN
		}
		if err := db.writeLists(ctx, tx, []Entry{e}); err != nil {
			return Record{}, err
		}
		a.URN = e.URN
		if err := db.audit(ctx, tx, a); err != nil {
			return Record{}, err
		}
		if err := db.commit(ctx, tx, e.Key); err != nil {
			return Record{}, err
		}
		return e.record(a.At), nil
	}
	return Record{}, errors.New("mint: more than 10000 numbers in a row have records already")
}

// taken returns which of keys have a record or a reservation, in tx.
func (db *DB) taken(ctx context.Context, tx querier, keys []string) (map[string]bool, error) {
	return db.keysIn(ctx, tx, `SELECT key FROM records WHERE key IN {keys} UNION SELECT key FROM reservations WHERE key IN {keys}`, keys)
}

// Reservation is a URN reserved for a registrar.
type Reservation struct {
	URN     string
	Key     string
	Number  int64
	Expires time.Time // zero: never
}

// Reserve reserves count URNs for registrar code, the next numbers of
// its counter (passing over those whose URNs have records), until
// expires (zero: never), in one transaction with the audit entry a.
// name makes the URN of a number. ErrNoRegistrar, or a *RegistrarError
// (ErrRegistrarMode) when the registrar's modes lack reserved.
func (db *DB) Reserve(ctx context.Context, code string, count int, expires time.Time, name func(prefix string, n int64) (Target, error), a AuditEntry) ([]Reservation, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var exp sql.NullInt64
	if !expires.IsZero() {
		exp = sql.NullInt64{Int64: expires.UnixMicro(), Valid: true}
	}
	now := a.At.UnixMicro()
	var out []Reservation
	for skips := 0; len(out) < count; {
		want := count - len(out)
		first, r, err := db.counter(ctx, tx, code, ModeReserved, int64(want))
		if err != nil {
			return nil, err
		}
		ts := make([]Target, want)
		keys := make([]string, want)
		for i := range ts {
			if ts[i], err = name(r.Prefix, first+int64(i)); err != nil {
				return nil, err
			}
			keys[i] = ts[i].Key
		}
		if db.d.postgres {
			// The keys' locks, as every writer of a record takes its
			// key's: a registrar's own choice of one of them commits
			// before this reads, or waits until this commits.
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext(k)) FROM unnest($1::text[]) AS k`, keys); err != nil {
				return nil, err
			}
		}
		taken, err := db.taken(ctx, tx, keys)
		if err != nil {
			return nil, err
		}
		var rows [][]any
		for i, t := range ts {
			if taken[t.Key] {
				if skips++; skips > maxSkips {
					return nil, errors.New("reserve: more than 10000 numbers have records already")
				}
				continue
			}
			rows = append(rows, []any{t.Key, t.URN, code, first + int64(i), now, exp})
			out = append(out, Reservation{URN: t.URN, Key: t.Key, Number: first + int64(i), Expires: expires})
		}
		if err := db.insertRows(ctx, tx, `INSERT INTO reservations (key, urn, registrar, number, created_at, expires_at) VALUES `, 6, rows); err != nil {
			return nil, err
		}
	}
	if err := db.audit(ctx, tx, a); err != nil {
		return nil, err
	}
	// A reservation changes no answer: nothing for the change log.
	return out, db.commit(ctx, tx)
}

// Link is one step of a chain of successors.
type Link struct {
	URN   string // as the deactivation named it
	Found bool   // it has a record
	Gone  bool   // its record is deactivated
}

// Successors follows the chain of successors from the record under key,
// in one read transaction, for at most max steps: the URNs that replace
// it, the one that replaces that, and so on, until an active record, one
// without a successor, or one without a record.
func (db *DB) Successors(ctx context.Context, key string, max int) ([]Link, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if max < 1 {
		return nil, nil
	}
	var out []Link
	seen := map[string]bool{key: true}
	for len(out) < max {
		var at sql.NullInt64
		var next, nextKey string
		err := tx.QueryRowContext(ctx, db.q(`SELECT deactivated_at, successor, successor_key FROM records WHERE key = ?`), key).
			Scan(&at, &next, &nextKey)
		if errors.Is(err, sql.ErrNoRows) {
			if n := len(out); n > 0 {
				out[n-1].Found = false
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if n := len(out); n > 0 {
			out[n-1].Found, out[n-1].Gone = true, at.Valid
		}
		if !at.Valid || next == "" || seen[nextKey] {
			return out, nil
		}
		seen[nextKey] = true
		out = append(out, Link{URN: next})
		key = nextKey
	}
	// The last link's state: read it too.
	var at sql.NullInt64
	err = tx.QueryRowContext(ctx, db.q(`SELECT deactivated_at FROM records WHERE key = ?`), key).Scan(&at)
	if err == nil {
		out[len(out)-1].Found, out[len(out)-1].Gone = true, at.Valid
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	return out, nil
}

// Claims returns the errors of the keys an import by a token of
// registrar by ("" for none) may not write: those with no record under a
// registrar's prefix, unless by is that registrar and its modes have
// registrar. An import never uses a reservation: a reserved URN is
// registered by itself (PUT or POST), where its reservation is checked
// and used up. urns gives each key's URN for the errors.
func (t *ImportTx) Claims(ctx context.Context, keys, urns []string, by string) (map[int]error, error) {
	db, tx := t.db, t.tx
	regs, err := db.registrars(ctx, tx)
	if err != nil || len(regs) == 0 {
		return nil, err
	}
	under := map[int]RegistrarRow{}
	var check []string
	for i, k := range keys {
		for _, r := range regs {
			if strings.HasPrefix(k, r.PrefixKey) {
				under[i] = r
				check = append(check, k)
			}
		}
	}
	if len(under) == 0 {
		return nil, nil
	}
	stored, err := t.Existing(ctx, check)
	if err != nil {
		return nil, err
	}
	reserved, err := db.keysIn(ctx, tx, `SELECT key FROM reservations WHERE key IN {keys}`, check)
	if err != nil {
		return nil, err
	}
	out := map[int]error{}
	for i, r := range under {
		k := keys[i]
		if stored[k] {
			continue
		}
		e := &RegistrarError{URN: urns[i], Registrar: r.Code, Writer: by, Modes: r.Modes, Err: ErrOtherRegistrar}
		switch {
		case by != r.Code:
		case reserved[k]:
			e.Err, e.Need = ErrRegistrarMode, ModeReserved
		case !r.Has(ModeRegistrar):
			e.Err, e.Need = ErrRegistrarMode, ModeRegistrar
		default:
			continue
		}
		out[i] = e
	}
	return out, nil
}
