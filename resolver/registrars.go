package resolver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Registrars (issue 30), as national libraries run URN:NBN: the library
// delegates parts of its NBN space to registrars (CZIDLO's
// urn:nbn:cz:aba001-...), each the owner of an NSS prefix, and a URN
// under it is assigned in the ways the registrar's modes allow:
//
//	resolver   POST /admin/registrars/CODE/urns mints the next number
//	reserved   POST /admin/registrars/CODE/reservations?count=N reserves
//	           a block, registered later (PUT /admin/records/<URN>) by
//	           the registrar only, until it expires if it was given an
//	           expiry (expires=RFC 3339 time)
//	registrar  the registrar writes URNs of its own choice under its prefix
//
// A minted or reserved URN is the prefix, the number in decimal (six
// digits at least) and the check digit of the namespace, if it has one
// (urn:nbn:de's, package urn's CheckDigit). Numbers come from a counter
// updated in the transaction that uses them: no two writers get one, and
// none is given twice, even after its URN is deactivated. A URN under a
// registrar's prefix that has no record is written only by a token of
// that registrar, as its modes allow: a token of no registrar, even one
// whose scope covers the prefix, may replace the registrar's records but
// not create new ones there.

// The modes a registrar may have.
const (
	ModeResolver  = store.ModeResolver  // the resolver mints the next number
	ModeReserved  = store.ModeReserved  // the registrar reserves blocks and registers them later
	ModeRegistrar = store.ModeRegistrar // the registrar chooses its URNs within its prefix
)

// Errors of registrars. The records layer returns them wrapped in a
// *RegistrarError when a write breaks a registrar's rules.
var (
	ErrNoRegistrar     = store.ErrNoRegistrar
	ErrRegistrarExists = store.ErrRegistrarExists
	ErrOtherRegistrar  = store.ErrOtherRegistrar
	ErrRegistrarMode   = store.ErrRegistrarMode
)

// RegistrarError is a write refused for a registrar's rules: errors.Is
// matches ErrOtherRegistrar (a URN under the prefix of a registrar the
// token is not) or ErrRegistrarMode (its modes do not assign URNs that
// way).
type RegistrarError = store.RegistrarError

// Registrar is a registrar as the admin API and the command show it.
type Registrar struct {
	Code     string    `json:"code"`
	Prefix   string    `json:"prefix"` // NID:NSS-PREFIX, as a token's scope: "nbn:cz:aba001-"
	Modes    []string  `json:"modes"`
	Next     int64     `json:"next"`     // the number the resolver assigns next
	Reserved int       `json:"reserved"` // reserved URNs not registered yet and not expired
	Created  time.Time `json:"created"`
}

func registrarOf(r store.RegistrarRow) Registrar {
	return Registrar{Code: r.Code, Prefix: r.Prefix, Modes: r.Modes, Next: r.Next, Reserved: r.Reserved, Created: r.Created}
}

// maxRegistrarCode bounds a registrar's code.
const maxRegistrarCode = 32

// checkRegistrarCode checks a registrar's code: 1 to 32 lowercase
// letters and digits, as CZIDLO's (aba001); it names the registrar in
// paths and in the audit log.
func checkRegistrarCode(code string) *FieldError {
	if code == "" || len(code) > maxRegistrarCode {
		return &FieldError{Field: "code", Reason: fmt.Sprintf("a registrar's code is 1 to %d lowercase letters and digits", maxRegistrarCode)}
	}
	for i := 0; i < len(code); i++ {
		if c := code[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return &FieldError{Field: "code", Reason: fmt.Sprintf("invalid character %q at offset %d: a registrar's code is lowercase letters and digits", c, i)}
		}
	}
	return nil
}

// ParseModes reads a registrar's modes: resolver, reserved and
// registrar, separated by commas or spaces, each at most once.
func ParseModes(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, m := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch m {
		case ModeResolver, ModeReserved, ModeRegistrar:
		default:
			return nil, fmt.Errorf("mode %q: want resolver, reserved or registrar", m)
		}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("a registrar needs a mode: resolver, reserved or registrar")
	}
	return out, nil
}

// registrarRow validates a new registrar: its code, its prefix (a scope
// with an NSS prefix), its modes, and, when the resolver assigns its
// URNs, that the first URN it would assign is valid in its namespace.
func (v *validator) registrarRow(code, prefix string, modes []string) (store.RegistrarRow, Scope, *FieldError) {
	if fe := checkRegistrarCode(code); fe != nil {
		return store.RegistrarRow{}, Scope{}, fe
	}
	sc, err := ParseScope(strings.TrimPrefix(prefix, "urn:"))
	if err != nil {
		return store.RegistrarRow{}, Scope{}, &FieldError{Field: "prefix", Reason: err.Error()}
	}
	if sc.Prefix == "" {
		return store.RegistrarRow{}, Scope{}, &FieldError{Field: "prefix", Reason: "a registrar's prefix is NID:NSS-PREFIX, as in nbn:cz:aba001-: a part of a namespace, not all of it"}
	}
	ms, err := ParseModes(strings.Join(modes, ","))
	if err != nil {
		return store.RegistrarRow{}, Scope{}, &FieldError{Field: "modes", Reason: err.Error()}
	}
	row := store.RegistrarRow{Code: code, Prefix: sc.String(), PrefixKey: sc.key, Modes: ms}
	if row.Has(ModeResolver) || row.Has(ModeReserved) {
		first, err := mintedURN(row.Prefix, 1)
		if err == nil {
			_, fe := v.parseAssigned("prefix", first)
			if fe != nil {
				err = errors.New(fe.Reason)
			}
		}
		if err != nil {
			return store.RegistrarRow{}, Scope{}, &FieldError{Field: "prefix",
				Reason: fmt.Sprintf("the resolver would assign %s first, which is not a valid URN: %v", first, err)}
		}
	}
	return row, sc, nil
}

// minted is the URN the resolver assigns to number n under a
// registrar's prefix (mintedURN), as an assigned name.
func (v *validator) minted(prefix string, n int64) (Name, error) {
	u, err := mintedURN(prefix, n)
	if err != nil {
		return Name{}, err
	}
	nm, fe := v.parseAssigned("urn", u)
	if fe != nil {
		return Name{}, fe
	}
	return nm, nil
}

// addRegistrar stores a new registrar; audited as a.
func addRegistrar(ctx context.Context, s *Store, v *validator, code, prefix string, modes []string, a AuditEntry) (Registrar, error) {
	row, _, fe := v.registrarRow(code, prefix, modes)
	if fe != nil {
		return Registrar{}, fe
	}
	detail, _ := json.Marshal(map[string]any{"code": row.Code, "prefix": row.Prefix, "modes": row.Modes})
	a.Action, a.URN, a.Detail = "registrar-create", "urn:"+row.Prefix, string(detail)
	if err := s.db.InsertRegistrar(ctx, row, a); err != nil {
		return Registrar{}, err
	}
	s.loadRegistrars(ctx) // its resolutions are counted apart from now on
	return s.Registrar(ctx, row.Code)
}

// AddRegistrar adds the registrar code, owner of the NSS prefix prefix
// (NID:NSS-PREFIX, as a token's scope), whose URNs are assigned in the
// ways modes names. ErrRegistrarExists when the code is taken or the
// prefix overlaps another registrar's; a *FieldError when code, prefix
// or modes is not valid (a prefix under which the resolver would
// assign invalid URNs is not).
func (s *Store) AddRegistrar(ctx context.Context, code, prefix string, modes []string, a AuditEntry) (Registrar, error) {
	return addRegistrar(ctx, s, &validator{limits: DefaultLimits()}, code, prefix, modes, a)
}

// Registrar returns the registrar code, or ErrNoRegistrar.
func (s *Store) Registrar(ctx context.Context, code string) (Registrar, error) {
	r, err := s.db.Registrar(ctx, code)
	return registrarOf(r), err
}

// Registrars returns every registrar, by code.
func (s *Store) Registrars(ctx context.Context) ([]Registrar, error) {
	rows, err := s.db.Registrars(ctx)
	out := make([]Registrar, len(rows))
	for i, r := range rows {
		out[i] = registrarOf(r)
	}
	return out, err
}

// CreateRegistrarToken makes a token of the registrar code: its scope is
// the registrar's prefix, and it mints, reserves and registers the
// registrar's URNs. ErrNoRegistrar when there is no such registrar.
func (s *Store) CreateRegistrarToken(ctx context.Context, code, note string, a AuditEntry) (secret string, t Token, err error) {
	r, err := s.db.Registrar(ctx, code)
	if err != nil {
		return "", Token{}, err
	}
	sc, err := ParseScope(r.Prefix)
	if err != nil {
		return "", Token{}, err
	}
	return s.createToken(ctx, []Scope{sc}, code, note, a)
}

// The records layer's registrar methods (records.go): what the admin
// API's registrar paths ask, with domain errors.

// addRegistrar adds a registrar through the admin API: the token must be
// of no registrar and cover the whole prefix.
func (r *records) addRegistrar(ctx context.Context, w writer, code, prefix string, modes []string) (Registrar, error) {
	_, sc, fe := r.v.registrarRow(code, prefix, modes)
	if fe != nil {
		return Registrar{}, fe
	}
	if w.tok.Registrar != "" || !tokenCovers(w.tok, sc) {
		return Registrar{}, &ScopeError{Token: w.tok, Field: "prefix", URN: "urn:" + sc.String()}
	}
	return addRegistrar(ctx, r.st, r.v, code, prefix, modes, w.audit("", ""))
}

func tokenCovers(t Token, sc Scope) bool {
	for _, s := range t.Scopes {
		if s.covers(sc) {
			return true
		}
	}
	return false
}

// asRegistrar checks that the writer is a token of registrar code.
func asRegistrar(w writer, code string) error {
	if w.tok.Registrar == code {
		return nil
	}
	return &RegistrarError{Registrar: code, Writer: w.tok.Registrar, Err: ErrOtherRegistrar}
}

// mint registers rec under the next URN of registrar code's counter.
// rec has no URN: the resolver assigns it.
func (r *records) mint(ctx context.Context, w writer, code string, rec Record) (store.Record, error) {
	if err := asRegistrar(w, code); err != nil {
		return store.Record{}, err
	}
	reg, err := r.st.db.Registrar(ctx, code)
	if err != nil {
		return store.Record{}, err
	}
	// The body is checked once before the transaction, under the
	// registrar's first URN, so that a bad body costs no number; each
	// number's URN is checked again in it.
	first, err := mintedURN(reg.Prefix, 1)
	if err != nil {
		return store.Record{}, err
	}
	rec.URN = first
	e, err := r.check(w, rec)
	if err != nil {
		return store.Record{}, err
	}
	a := w.audit("mint", "")
	d, _ := json.Marshal(map[string]any{"registrar": code, "urls": len(e.URLs), "synonyms": len(e.Synonyms), "metadata_bytes": len(e.Metadata)})
	a.Detail = string(d)
	stored, err := r.st.db.Mint(ctx, code, func(prefix string, n int64) (store.Entry, error) {
		// Under the counter's lock: only what depends on the URN is
		// checked again, the body as it was.
		nm, err := r.v.minted(prefix, n)
		if err != nil {
			return store.Entry{}, err
		}
		if err := allow(w.tok, "urn", nm); err != nil {
			return store.Entry{}, err
		}
		for i, sy := range e.Synonyms {
			if sy.Key == nm.Key() {
				return store.Entry{}, ownSynonym(i)
			}
		}
		m := e.Entry
		m.Key, m.URN, m.NID = nm.Key(), nm.Canonical(), nm.NID()
		return m, nil
	}, a)
	if err == nil {
		r.st.invalidate(false, stored.Key)
	}
	return stored, err
}

// maxReservation bounds the URNs one reservation asks for.
const maxReservation = 10000

// reserve reserves count URNs for registrar code, until expires (zero:
// never).
func (r *records) reserve(ctx context.Context, w writer, code string, count int, expires time.Time) ([]store.Reservation, error) {
	if err := asRegistrar(w, code); err != nil {
		return nil, err
	}
	if count < 1 || count > maxReservation {
		return nil, &FieldError{Field: "count", Reason: fmt.Sprintf("a reservation is 1 to %d URNs", maxReservation)}
	}
	now := time.Now().UTC()
	if !expires.IsZero() && !expires.After(now) {
		return nil, &FieldError{Field: "expires", Reason: "the expiry " + expires.Format(time.RFC3339) + " is not in the future"}
	}
	name := func(prefix string, n int64) (store.Target, error) {
		nm, err := r.v.minted(prefix, n)
		if err != nil {
			return store.Target{}, err
		}
		return store.Target{Key: nm.Key(), URN: nm.Canonical()}, nil
	}
	a := w.audit("reserve", "")
	d, _ := json.Marshal(map[string]any{"registrar": code, "count": count, "expires": expires})
	a.Detail = string(d)
	return r.st.db.Reserve(ctx, code, count, expires, name, a)
}

// maxChain bounds the chain of successors the lookup page shows.
const maxChain = 8

// lineage fills what the lookup page shows of where the URN of key
// comes from and where it leads: the registrar whose prefix holds it,
// and, for a deactivated record, its chain of successors, at most
// maxChain of them.
func (s *Store) lineage(ctx context.Context, key string, gone bool, d *pageData) error {
	row, ok, err := s.db.RegistrarOf(ctx, key)
	if err != nil {
		return err
	}
	if ok {
		reg := registrarOf(row)
		d.Registrar = &reg
	}
	if !gone {
		return nil
	}
	links, err := s.db.Successors(ctx, key, maxChain+1)
	if err != nil {
		return err
	}
	if len(links) > maxChain {
		links, d.ChainMore = links[:maxChain], true
	}
	for _, l := range links {
		state := "no record"
		switch {
		case l.Gone:
			state = "deactivated"
		case l.Found:
			state = "active"
		}
		d.Chain = append(d.Chain, pageLink{URN: l.URN, State: state})
	}
	return nil
}

// claim refuses, whole, the pending records of a token's import that a
// registrar's rules refuse (store.ImportTx.Claims), as a write through
// the admin API is refused: a new URN under a registrar's prefix is that
// registrar's, of its own choice, and a reserved one is registered by
// itself.
func (im *importer) claim() error {
	if !im.claims {
		return nil
	}
	var keys, urns []string
	var at []int
	for i, e := range im.pending {
		if !e.dropped {
			keys, urns, at = append(keys, e.Key), append(urns, e.URN), append(at, i)
		}
	}
	refused, err := im.tx.Claims(im.ctx, keys, urns, im.by)
	if err != nil {
		return err
	}
	for j := range at {
		err, ok := refused[j]
		if !ok {
			continue
		}
		e := im.pending[at[j]]
		lines := im.seen[e.Key]
		im.refuseRecord(e.line, e.Key, e.URN, "urn: "+err.Error())
		im.refusedRecs[im.refusedKeys[e.Key]].Dropped = lines - 1
	}
	return nil
}
