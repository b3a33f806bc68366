package resolver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// The records layer sits between the admin API's handlers and the store,
// as the resolution layer (resolution.go) does for reads: each method
// takes what a request asks (a token, a URN, a record) and returns the
// record as stored, or a domain error: *FieldError (the request is not
// valid), *ScopeError (the token may not write a URN it names),
// ErrTokenInvalid or ErrTokenRevoked, *GoneError (a write to a
// deactivated URN), *store.StateError (ErrExists, ErrNotFound,
// ErrActive), *store.SuccessorError, or the database's error. The
// handlers in admin.go read the request and render what comes back;
// status codes and problems are made there (problem.go), and nothing
// here knows HTTP. Every write goes to the store in one call, which is
// one transaction with its audit entry, and this process's answer cache
// drops the keys it changed before the call returns.
type records struct {
	st *Store
	v  *validator
}

// writer is who writes: the token whose scopes bound the write, and
// the client it comes from, for the audit log.
type writer struct {
	tok    Token
	client string
}

func (w writer) audit(action, urn string) AuditEntry {
	return AuditEntry{At: time.Now().UTC(), Actor: "token:" + w.tok.ID, Client: w.client, Action: action, URN: urn}
}

// ScopeError is a write refused because its token may not write a URN
// the write names: every URN a write names must be in the token's
// scopes, the record's own and each of its synonyms' (a synonym binding
// is answered for both of its URNs), and a deactivation's successor.
type ScopeError struct {
	Token Token
	Field string // the member that names the URN: "urn", "synonyms[1]", "successor"
	URN   string // canonical
}

func (e *ScopeError) Error() string {
	return fmt.Sprintf("%s: token %s may write %s only, not %s", e.Field, e.Token.ID, strings.Join(e.Token.ScopeStrings(), ", "), e.URN)
}

// authenticate returns the token of a bearer string: ErrTokenInvalid
// or ErrTokenRevoked when it may not write.
func (r *records) authenticate(ctx context.Context, bearer string) (Token, error) {
	return verifyToken(ctx, r.st.db, bearer)
}

// target parses the URN a request names apart from its body (the path
// of the admin API): an assigned name.
func (r *records) target(urn string) (Name, *FieldError) { return r.v.parseAssigned("urn", urn) }

// allow returns a *ScopeError unless t may write n, named by field.
func allow(t Token, field string, n Name) error {
	if t.Allows(n) {
		return nil
	}
	return &ScopeError{Token: t, Field: field, URN: n.Canonical()}
}

// allowEntry checks that the token covers every URN the write of e names
// (entry.namedURNs).
func allowEntry(t Token, e entry) error {
	fields, names := e.namedURNs()
	for i, n := range names {
		if err := allow(t, fields[i], n); err != nil {
			return err
		}
	}
	return nil
}

// get returns the record of n as stored, or ErrNotFound (a
// *store.StateError).
func (r *records) get(ctx context.Context, n Name) (store.Record, error) {
	rec, err := r.st.db.Record(ctx, n.Key())
	if errors.Is(err, ErrNotFound) {
		return rec, &store.StateError{URN: n.Canonical(), Err: ErrNotFound}
	}
	return rec, err
}

// create stores rec if its URN has no record: ErrExists (a
// *store.StateError) if it has an active one, its *GoneError if it is
// deactivated.
func (r *records) create(ctx context.Context, w writer, rec Record) (store.Record, error) {
	e, err := r.check(w, rec)
	if err != nil {
		return store.Record{}, err
	}
	a := w.audit("create", e.URN)
	a.Detail = auditDetail(e)
	stored, err := r.st.db.Create(ctx, e.Entry, a)
	if err == nil {
		r.st.invalidate(false, e.Key)
	}
	return stored, err
}

// put stores rec as the record of target, replacing any, and reports
// whether it is new. A record without a URN takes target's; one with
// another must be equivalent to it. A deactivated URN is its *GoneError.
func (r *records) put(ctx context.Context, w writer, target Name, rec Record) (store.Record, bool, error) {
	if rec.URN == "" {
		rec.URN = target.String()
	}
	e, err := r.check(w, rec)
	if err != nil {
		return store.Record{}, false, err
	}
	if e.Key != target.Key() {
		return store.Record{}, false, &FieldError{Field: "urn",
			Reason: fmt.Sprintf("the body's urn %s is not equivalent to the path's %s", e.URN, target.Canonical())}
	}
	a := w.audit("replace", e.URN)
	a.Detail = auditDetail(e)
	stored, created, err := r.st.db.Put(ctx, e.Entry, a)
	if err == nil {
		r.st.invalidate(false, e.Key)
	}
	return stored, created, err
}

// check validates rec and the token's scopes over every URN it names.
func (r *records) check(w writer, rec Record) (entry, error) {
	e, fe := r.v.check(rec)
	if fe != nil {
		return entry{}, fe
	}
	if err := allowEntry(w.tok, e); err != nil {
		return entry{}, err
	}
	e.By = w.tok.Registrar
	return e, nil
}

func auditDetail(e entry) string {
	j, _ := json.Marshal(map[string]int{"urls": len(e.URLs), "synonyms": len(e.Synonyms), "metadata_bytes": len(e.Metadata)})
	return string(j)
}

// deactivate deactivates the record of target with d's reason and
// successor (as written; it must be an assigned name the token may
// write, with a record, and its chain of successors may not lead back),
// audited as action ("delete" or "deactivate"). It returns d as stored,
// the successor canonical.
func (r *records) deactivate(ctx context.Context, w writer, action string, target Name, d Deactivation) (Deactivation, error) {
	succ, fe := r.v.successor(d.Successor, target)
	if fe != nil {
		return d, fe
	}
	if succ.key != "" {
		if err := allow(w.tok, "successor", succ); err != nil {
			return d, err
		}
		d.Successor = succ.Canonical()
	}
	a := w.audit(action, target.Canonical())
	detail, _ := json.Marshal(map[string]string{"reason": d.Reason, "successor": d.Successor})
	a.Detail = string(detail)
	t := store.Target{Key: target.Key(), URN: target.Canonical()}
	if err := r.st.db.Deactivate(ctx, t, d, succ.Key(), a); err != nil {
		return d, err
	}
	r.st.invalidate(false, t.Key)
	return d, nil
}

// reactivate brings the deactivated record of target back as it was.
func (r *records) reactivate(ctx context.Context, w writer, target Name) (store.Record, error) {
	t := store.Target{Key: target.Key(), URN: target.Canonical()}
	rec, err := r.st.db.Reactivate(ctx, t, w.audit("reactivate", t.URN))
	if err == nil {
		r.st.invalidate(false, t.Key)
	}
	return rec, err
}

// importFrom runs a bulk import (Import) whose every record the token
// must cover: one it does not is refused like an invalid one.
func (r *records) importFrom(ctx context.Context, w writer, body io.Reader, f Format) (ImportResult, error) {
	return importRecords(ctx, r.st, r.v, body, f, ImportOptions{
		Audit: w.audit("import", ""), Source: "http:" + w.client,
		Allow:  func(field string, n Name) error { return allow(w.tok, field, n) },
		claims: true, by: w.tok.Registrar,
	})
}

// audit returns, of the last limit entries of the audit log, those of
// the token's scopes: its own writes, and those of URNs it may write.
func (r *records) audit(ctx context.Context, t Token, limit int) ([]AuditEntry, error) {
	entries, err := r.st.db.Audit(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := []AuditEntry{}
	for _, e := range entries {
		if e.Actor == "token:"+t.ID {
			out = append(out, e)
			continue
		}
		if n, err := r.v.dialects.Parse(e.URN); err == nil && t.Allows(n) {
			out = append(out, e)
		}
	}
	return out, nil
}
