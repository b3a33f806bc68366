package resolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The admin API. Writes need "Authorization: Bearer <token>" with a token
// whose scopes cover the URN; reads of records are public, as are all
// resolution services.
//
//	POST   /admin/records              create a record (409 if it exists)
//	PUT    /admin/records/<URN>        create or replace the record of URN
//	GET    /admin/records/<URN>        the record, as stored (public)
//	DELETE /admin/records/<URN>        deactivate the record (never deleted)
//	PUT    /admin/deactivations/<URN>  deactivate, or change the reason and successor
//	DELETE /admin/deactivations/<URN>  reactivate the record
//	POST   /admin/import               bulk import: text/csv or application/jsonl
//	GET    /admin/audit?limit=N        the audit entries of the token's scopes
//
// Request bodies of single records are JSON (Record), those of
// deactivations {"reason": "...", "successor": "urn:..."}, both optional
// (DELETE may send one too). Every write and its audit entry are one
// transaction.
//
// Persistent identifiers are never forgotten: a deleted record is
// deactivated. Its URN answers 410 Gone with the date and reason (N2L
// and N2R redirect to the successor when there is one), writes to it are
// refused (409, type gone), and only a reactivation by a token of its
// scope brings it back as it was.
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request, path string) {
	rest := strings.TrimPrefix(path, "/admin")
	write := r.Method != http.MethodGet && r.Method != http.MethodHead
	if write {
		if ok, wait := s.limiter.allow(clientOf(r)); !ok {
			secs := int(wait/time.Second) + 1
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			writeProblem(w, newProblem(probRateLimited, http.StatusTooManyRequests,
				fmt.Sprintf("too many writes from %s; retry in %d s", clientOf(r), secs)))
			return
		}
	}
	switch {
	case rest == "/records":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeProblem(w, newProblem(probBadMethod, http.StatusMethodNotAllowed, "use POST /admin/records, or PUT /admin/records/<URN>"))
			return
		}
		s.adminCreate(w, r)
	case strings.HasPrefix(rest, "/records/"):
		target := rest[len("/records/"):]
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			s.adminGet(w, r, target)
		case http.MethodPut:
			s.adminPut(w, r, target)
		case http.MethodDelete:
			s.adminDelete(w, r, target)
		default:
			w.Header().Set("Allow", "GET, HEAD, PUT, DELETE")
			writeProblem(w, newProblem(probBadMethod, http.StatusMethodNotAllowed, r.Method+" is not allowed on a record"))
		}
	case strings.HasPrefix(rest, "/deactivations/"):
		target := rest[len("/deactivations/"):]
		switch r.Method {
		case http.MethodPut:
			s.adminDeactivate(w, r, target)
		case http.MethodDelete:
			s.adminReactivate(w, r, target)
		default:
			w.Header().Set("Allow", "PUT, DELETE")
			writeProblem(w, newProblem(probBadMethod, http.StatusMethodNotAllowed,
				r.Method+" is not allowed on a deactivation: PUT deactivates, DELETE reactivates; GET /admin/records/<URN> shows it"))
		}
	case rest == "/import":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeProblem(w, newProblem(probBadMethod, http.StatusMethodNotAllowed, "use POST /admin/import"))
			return
		}
		s.adminImport(w, r)
	case rest == "/audit":
		s.methodsOr(w, r, func() { s.adminAudit(w, r) })
	default:
		writeProblem(w, newProblem(probNoSuchPath, http.StatusNotFound, "no such admin resource"))
	}
}

// authenticate checks the bearer token (RFC 6750 section 2.1). A missing,
// malformed, unknown, wrong or revoked token gets 401 with a
// WWW-Authenticate challenge (RFC 6750 section 3).
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (Token, bool) {
	h := r.Header.Get("Authorization")
	scheme, cred, _ := strings.Cut(h, " ")
	if h == "" || !strings.EqualFold(scheme, "Bearer") {
		w.Header().Set("WWW-Authenticate", `Bearer realm="urnresolver"`)
		writeProblem(w, newProblem(probUnauthorized, http.StatusUnauthorized, "writes need an Authorization: Bearer token (urnresolver token create)"))
		return Token{}, false
	}
	t, err := s.store.VerifyToken(r.Context(), strings.TrimSpace(cred))
	if err != nil {
		if !errors.Is(err, ErrTokenInvalid) && !errors.Is(err, ErrTokenRevoked) {
			s.storeFailed(w, r, "verify_token", err)
			return Token{}, false
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="urnresolver", error="invalid_token"`)
		writeProblem(w, newProblem(probUnauthorized, http.StatusUnauthorized, err.Error()))
		return Token{}, false
	}
	return t, true
}

func forbidden(t Token, field string, n Name) *Problem {
	p := newProblem(probForbidden, http.StatusForbidden, scopeError(t, field, n).Error())
	p.Field, p.Pointer = field, pointerOf(field)
	return p
}

func scopeError(t Token, field string, n Name) error {
	return fmt.Errorf("%s: token %s may write %s only, not %s", field, t.ID, strings.Join(t.ScopeStrings(), ", "), n.Canonical())
}

// allowEntry checks that the token covers every URN the write of e names
// (entry.namedURNs); otherwise it returns the field and name it does not.
func allowEntry(t Token, e entry) (string, Name, bool) {
	fields, names := e.namedURNs()
	for i, n := range names {
		if !t.Allows(n) {
			return fields[i], n, false
		}
	}
	return "", Name{}, true
}

func (s *Server) auditEntry(r *http.Request, t Token, action string) AuditEntry {
	return AuditEntry{At: time.Now().UTC(), Actor: "token:" + t.ID, Client: clientOf(r), Action: action}
}

// readBody reads a JSON request body within the size limit.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, what string) ([]byte, bool) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			writeProblem(w, newProblem(probMediaType, http.StatusUnsupportedMediaType,
				fmt.Sprintf("%s is application/json (send Content-Type: application/json), not %q", what, truncate(ct, 100))))
			return nil, false
		}
	}
	tooLarge := fmt.Sprintf("body over %d bytes", s.v.limits.BodyBytes)
	if r.ContentLength > s.v.limits.BodyBytes {
		refuseBody(w, r, newProblem(probTooLarge, http.StatusRequestEntityTooLarge, tooLarge), false)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.v.limits.BodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			refuseBody(w, r, newProblem(probTooLarge, http.StatusRequestEntityTooLarge, tooLarge), true)
			return nil, false
		}
		writeProblem(w, newProblem(probInvalidBody, http.StatusBadRequest, "could not read the body"))
		return nil, false
	}
	return body, true
}

// Draining an oversized body: how much more is read, and for how long.
const (
	maxDrain     = 64 << 20
	drainTimeout = 10 * time.Second
)

// refuseBody answers p (a 413) to a request whose body is not read
// whole, and closes the connection so that nothing after the body is
// read as a request. A socket closed with bytes unread sends a TCP
// reset, and a reset throws away the answer in the client's buffers: a
// client still sending a 10 MB body got "connection reset" instead of
// the 413 (issue 29.5). So the answer goes out first, then the rest of
// the body is read and dropped, up to maxDrain bytes within
// drainTimeout. A client that asked "Expect: 100-continue" is told to
// continue by the first read of the body; when nothing was read (started
// false) it sends nothing more, and there is nothing to drain.
func refuseBody(w http.ResponseWriter, r *http.Request, p *Problem, started bool) {
	rc := http.NewResponseController(w)
	// Reading after the answer is written: without this, HTTP/1 may
	// consume or close the body when the header goes out.
	rc.EnableFullDuplex()
	w.Header().Set("Connection", "close")
	writeProblem(w, p)
	rc.Flush()
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	if !started && strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	rc.SetReadDeadline(time.Now().Add(drainTimeout))
	io.CopyN(io.Discard, r.Body, maxDrain)
}

// readRecord reads a JSON record body.
func (s *Server) readRecord(w http.ResponseWriter, r *http.Request) (Record, bool) {
	body, ok := s.readBody(w, r, "a record")
	if !ok {
		return Record{}, false
	}
	rec, fe := decodeRecord(body)
	if fe != nil {
		writeProblem(w, fe.problem())
		return Record{}, false
	}
	return rec, true
}

func (s *Server) adminCreate(w http.ResponseWriter, r *http.Request) {
	t, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	rec, ok := s.readRecord(w, r)
	if !ok {
		return
	}
	e, fe := s.v.check(rec)
	if fe != nil {
		writeProblem(w, fe.problem())
		return
	}
	if f, n, ok := allowEntry(t, e); !ok {
		writeProblem(w, forbidden(t, f, n))
		return
	}
	a := s.auditEntry(r, t, "create")
	a.URN, a.Detail = e.urn, auditDetail(e)
	err := s.store.create(r.Context(), e, a)
	if errors.Is(err, ErrGone) {
		writeProblem(w, goneWrite(err))
		return
	}
	if errors.Is(err, ErrExists) {
		p := newProblem(probExists, http.StatusConflict, e.urn+" has a record; PUT /admin/records/"+e.urn+" replaces it")
		p.Field, p.Pointer = "urn", pointerOf("urn")
		writeProblem(w, p)
		return
	}
	if err != nil {
		s.storeFailed(w, r, "create", err)
		return
	}
	s.log.Info("record created", "urn", e.urn, "actor", a.Actor, "client", a.Client)
	w.Header().Set("Location", "/admin/records/"+e.urn)
	s.writeStored(w, r, http.StatusCreated, e.key)
}

func auditDetail(e entry) string {
	j, _ := json.Marshal(map[string]int{"urls": len(e.urls), "synonyms": len(e.synonyms), "metadata_bytes": len(e.metadata)})
	return string(j)
}

// targetName parses the URN of an admin path as an assigned name.
func (s *Server) targetName(w http.ResponseWriter, target string) (Name, bool) {
	n, fe := s.v.parseAssigned("urn", target)
	if fe != nil {
		p := fe.problem()
		p.Field, p.Pointer = "path", ""
		writeProblem(w, p)
		return Name{}, false
	}
	return n, true
}

// authorizeTarget authenticates the request and checks that its token
// may write the URN target; otherwise it writes the problem and reports
// false.
func (s *Server) authorizeTarget(w http.ResponseWriter, r *http.Request, target string) (Token, Name, bool) {
	t, ok := s.authenticate(w, r)
	if !ok {
		return Token{}, Name{}, false
	}
	n, ok := s.targetName(w, target)
	if !ok {
		return Token{}, Name{}, false
	}
	if !t.Allows(n) {
		writeProblem(w, forbidden(t, "urn", n))
		return Token{}, Name{}, false
	}
	return t, n, true
}

func (s *Server) adminPut(w http.ResponseWriter, r *http.Request, target string) {
	t, n, ok := s.authorizeTarget(w, r, target)
	if !ok {
		return
	}
	rec, ok := s.readRecord(w, r)
	if !ok {
		return
	}
	if rec.URN == "" {
		rec.URN = target
	}
	e, fe := s.v.check(rec)
	if fe != nil {
		writeProblem(w, fe.problem())
		return
	}
	if e.key != n.Key() {
		p := newProblem(probInvalidBody, http.StatusBadRequest,
			fmt.Sprintf("the body's urn %s is not equivalent to the path's %s", e.urn, n.Canonical()))
		p.Field, p.Pointer = "urn", pointerOf("urn")
		writeProblem(w, p)
		return
	}
	if f, n, ok := allowEntry(t, e); !ok {
		writeProblem(w, forbidden(t, f, n))
		return
	}
	a := s.auditEntry(r, t, "replace")
	a.URN, a.Detail = e.urn, auditDetail(e)
	created, err := s.store.put(r.Context(), e, a)
	if errors.Is(err, ErrGone) {
		writeProblem(w, goneWrite(err))
		return
	}
	if err != nil {
		s.storeFailed(w, r, "put", err)
		return
	}
	s.log.Info("record written", "urn", e.urn, "created", created, "actor", a.Actor, "client", a.Client)
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	s.writeStored(w, r, code, e.key)
}

// goneWrite is the problem of a write to a deactivated URN: 409, as the
// record's state conflicts with the write (RFC 9110 section 15.5.10);
// the detail says how to reactivate it.
func goneWrite(err error) *Problem {
	var g *GoneError
	errors.As(err, &g)
	p := newProblem(probGone, http.StatusConflict, truncate(g.Error(), 4*maxEcho)+
		"; a deactivated URN is not rewritten: DELETE /admin/deactivations/"+g.URN+" reactivates it first")
	p.Deactivated, p.Reason, p.Successor = goneSince(&g.Deactivation), g.Reason, g.Successor
	p.Field, p.Pointer = "urn", pointerOf("urn")
	return p
}

// adminDelete deactivates the record: a persistent identifier is not
// forgotten (issue 23). The body, optional, gives the reason and the
// successor.
func (s *Server) adminDelete(w http.ResponseWriter, r *http.Request, target string) {
	s.deactivateTarget(w, r, target, "delete")
}

func (s *Server) adminDeactivate(w http.ResponseWriter, r *http.Request, target string) {
	s.deactivateTarget(w, r, target, "deactivate")
}

func (s *Server) deactivateTarget(w http.ResponseWriter, r *http.Request, target, action string) {
	t, n, ok := s.authorizeTarget(w, r, target)
	if !ok {
		return
	}
	body, ok := s.readBody(w, r, "a deactivation")
	if !ok {
		return
	}
	d, succ, fe := s.v.deactivation(body, n)
	if fe != nil {
		writeProblem(w, fe.problem())
		return
	}
	if succ.key != "" && !t.Allows(succ) {
		writeProblem(w, forbidden(t, "successor", succ))
		return
	}
	a := s.auditEntry(r, t, action)
	a.URN = n.Canonical()
	detail, _ := json.Marshal(map[string]string{"reason": d.Reason, "successor": d.Successor})
	a.Detail = string(detail)
	err := s.store.deactivate(r.Context(), n.Key(), d, func(u string) string {
		if m, err := s.v.dialects.Parse(u); err == nil {
			return m.Key()
		}
		return u
	}, a)
	var se *successorError
	switch {
	case errors.Is(err, ErrNotFound):
		writeProblem(w, newProblem(probNotFound, http.StatusNotFound, "no record for "+truncate(n.Canonical(), maxEcho)))
		return
	case errors.As(err, &se):
		writeProblem(w, successorProblem(se, d.Successor, n))
		return
	case err != nil:
		s.storeFailed(w, r, "deactivate", err)
		return
	}
	s.wrote()
	s.log.Info("record deactivated", "urn", a.URN, "reason", d.Reason, "successor", d.Successor, "actor", a.Actor, "client", a.Client)
	w.WriteHeader(http.StatusNoContent)
}

// successorProblem is the 409 of a deactivation whose successor chain
// the store refused: a successor without a record would end N2L's
// redirects in a 404, a cycle would send them round for ever.
func successorProblem(se *successorError, successor string, n Name) *Problem {
	var detail string
	switch {
	case errors.Is(se, ErrNoSuccessor) && se.URN == successor:
		detail = "successor: " + truncate(successor, maxEcho) + " has no record; register it first (PUT /admin/records/" +
			truncate(successor, maxEcho) + "), then name it as the successor"
	case errors.Is(se, ErrNoSuccessor):
		detail = "successor: the chain of successors from " + truncate(successor, maxEcho) + " reaches " +
			truncate(se.URN, maxEcho) + ", which has no record: N2L would end in a 404"
	default:
		detail = "successor: " + truncate(successor, maxEcho) + " leads back to " + truncate(n.Canonical(), maxEcho) +
			" through the successors of deactivated records (or a chain of more than 32): N2L would redirect round it"
	}
	p := newProblem(probSuccessor, http.StatusConflict, detail)
	p.Field, p.Pointer = "successor", pointerOf("successor")
	return p
}

// adminReactivate brings a deactivated record back as it was.
func (s *Server) adminReactivate(w http.ResponseWriter, r *http.Request, target string) {
	t, n, ok := s.authorizeTarget(w, r, target)
	if !ok {
		return
	}
	a := s.auditEntry(r, t, "reactivate")
	a.URN = n.Canonical()
	err := s.store.reactivate(r.Context(), n.Key(), a)
	switch {
	case errors.Is(err, ErrNotFound):
		writeProblem(w, newProblem(probNotFound, http.StatusNotFound, "no record for "+truncate(n.Canonical(), maxEcho)))
		return
	case errors.Is(err, ErrActive):
		writeProblem(w, newProblem(probExists, http.StatusConflict, truncate(n.Canonical(), maxEcho)+" is not deactivated"))
		return
	case err != nil:
		s.storeFailed(w, r, "reactivate", err)
		return
	}
	s.log.Info("record reactivated", "urn", a.URN, "actor", a.Actor, "client", a.Client)
	s.writeStored(w, r, http.StatusOK, n.Key())
}

func (s *Server) adminGet(w http.ResponseWriter, r *http.Request, target string) {
	n, ok := s.targetName(w, target)
	if !ok {
		return
	}
	rec, err := s.store.Record(r.Context(), n.Key())
	if errors.Is(err, ErrNotFound) {
		writeProblem(w, newProblem(probNotFound, http.StatusNotFound, "no record for "+n.Canonical()))
		return
	}
	if err != nil {
		s.storeFailed(w, r, "record", err)
		return
	}
	writeJSON(w, http.StatusOK, storedJSON(rec))
}

// storedRecord is a record as the admin API shows it: the Record a PUT
// writes, and for a deactivated one when, why and its successor.
type storedRecord struct {
	Record
	Deactivated string `json:"deactivated,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Successor   string `json:"successor,omitempty"`
}

func storedJSON(rec StoredRecord) storedRecord {
	out := storedRecord{Record: Record{URN: rec.URN, URLs: rec.URLs, Metadata: json.RawMessage(rec.Metadata), Synonyms: rec.Synonyms}}
	if out.URLs == nil {
		out.URLs = []string{}
	}
	if d := rec.Deactivated; d != nil {
		out.Deactivated, out.Reason, out.Successor = goneSince(d), d.Reason, d.Successor
	}
	return out
}

// writeStored answers a write with the record as now stored.
func (s *Server) writeStored(w http.ResponseWriter, r *http.Request, code int, key string) {
	s.wrote()
	rec, err := s.store.Record(r.Context(), key)
	if err != nil {
		// The write is committed; only the echo failed.
		w.WriteHeader(code)
		return
	}
	writeJSON(w, code, storedJSON(rec))
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// adminImport runs a bulk import from the request body. Lines the token
// may not write are refused like invalid ones; the rest are stored in
// one transaction, answered 200 with the ImportResult (refused lines
// listed); nothing is stored when the body cannot be read whole.
func (s *Server) adminImport(w http.ResponseWriter, r *http.Request) {
	t, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	// At debug level: a long import is visible while it streams (the
	// request line is logged when it ends).
	s.log.Debug("import started", "client", clientOf(r))
	f := FormatOfMediaType(r.Header.Get("Content-Type"))
	if f == FormatUnknown {
		writeProblem(w, newProblem(probMediaType, http.StatusUnsupportedMediaType,
			fmt.Sprintf("an import is text/csv (header urn,url) or application/jsonl (one record per line), not %q",
				truncate(r.Header.Get("Content-Type"), 100))))
		return
	}
	tooLarge := fmt.Sprintf("import body over %d bytes; nothing stored", s.v.limits.ImportBytes)
	if r.ContentLength > s.v.limits.ImportBytes {
		refuseBody(w, r, newProblem(probTooLarge, http.StatusRequestEntityTooLarge, tooLarge), false)
		return
	}
	rc := http.NewResponseController(w)
	deadline := time.Now().Add(s.importTO)
	rc.SetReadDeadline(deadline)
	rc.SetWriteDeadline(deadline)
	body := http.MaxBytesReader(w, r.Body, s.v.limits.ImportBytes)
	a := s.auditEntry(r, t, "import")
	res, err := Import(r.Context(), s.store, body, f, ImportOptions{
		Dialects: s.v.dialects, Limits: s.v.limits, Schemes: s.v.schemes, Audit: a,
		Source: "http:" + clientOf(r),
		Allow: func(field string, n Name) error {
			if t.Allows(n) {
				return nil
			}
			return scopeError(t, field, n)
		},
	})
	if err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			refuseBody(w, r, newProblem(probTooLarge, http.StatusRequestEntityTooLarge, tooLarge), true)
		case errors.Is(err, ErrLineTooLong):
			refuseBody(w, r, newProblem(probTooLarge, http.StatusRequestEntityTooLarge, err.Error()+"; nothing stored"), true)
		case isFatal(err):
			s.storeFailed(w, r, "import", err)
		default:
			writeProblem(w, newProblem(probInvalidBody, http.StatusBadRequest, err.Error()+"; nothing stored"))
		}
		return
	}
	s.wrote()
	s.log.Info("import", "lines", res.Lines, "records", res.Records, "refused", len(res.Refused), "actor", a.Actor, "client", a.Client)
	writeJSON(w, http.StatusOK, res)
}

func isFatal(err error) bool {
	var f *importFatal
	return errors.As(err, &f)
}

func (s *Server) adminAudit(w http.ResponseWriter, r *http.Request) {
	t, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	limit := 100
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			writeProblem(w, newProblem(probBadRequest, http.StatusBadRequest, "limit is a number from 1 to 10000"))
			return
		}
		limit = n
	}
	entries, err := s.store.Audit(r.Context(), limit)
	if err != nil {
		s.storeFailed(w, r, "audit", err)
		return
	}
	out := []AuditEntry{}
	for _, e := range entries {
		if e.Actor == "token:"+t.ID {
			out = append(out, e)
			continue
		}
		if n, err := s.v.dialects.Parse(e.URN); err == nil && t.Allows(n) {
			out = append(out, e)
		}
	}
	writeJSON(w, http.StatusOK, out)
}
