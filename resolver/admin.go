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

	"github.com/urikit/urikit/resolver/internal/store"
)

// The admin API's HTTP layer: its handlers read a request (the token,
// the URN of the path, the body), ask the records layer (records.go),
// and render the record or the error; routes.go routes to them. Writes
// need "Authorization: Bearer <token>" with a token whose scopes cover
// the URN; reads of records are public, as are all resolution services.
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

// adminNotFound answers an admin path that is none of the above.
func (s *Server) adminNotFound(w http.ResponseWriter, r *http.Request) {
	writeProblem(w, newProblem(probNoSuchPath, http.StatusNotFound, "no such admin resource"))
}

// limitWrites answers 429 to a client over its rate of admin writes
// (every method but GET and HEAD), before h sees the request.
func (s *Server) limitWrites(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.limiter != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
			if ok, wait := s.limiter.allow(clientOf(r)); !ok {
				secs := int(wait/time.Second) + 1
				w.Header().Set("Retry-After", strconv.Itoa(secs))
				writeProblem(w, newProblem(probRateLimited, http.StatusTooManyRequests,
					fmt.Sprintf("too many writes from %s; retry in %d s", clientOf(r), secs)))
				return
			}
		}
		h(w, r)
	}
}

// authenticate checks the bearer token (RFC 6750 section 2.1). A missing,
// malformed, unknown, wrong or revoked token gets 401 with a
// WWW-Authenticate challenge (RFC 6750 section 3).
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (writer, bool) {
	h := r.Header.Get("Authorization")
	scheme, cred, _ := strings.Cut(h, " ")
	if h == "" || !strings.EqualFold(scheme, "Bearer") {
		w.Header().Set("WWW-Authenticate", `Bearer realm="urnresolver"`)
		writeProblem(w, newProblem(probUnauthorized, http.StatusUnauthorized, "writes need an Authorization: Bearer token (urnresolver token create)"))
		return writer{}, false
	}
	t, err := s.rec.authenticate(r.Context(), strings.TrimSpace(cred))
	if err != nil {
		s.adminError(w, r, "verify_token", err)
		return writer{}, false
	}
	return writer{tok: t, client: clientOf(r)}, true
}

// target parses the URN of an admin path ("/admin/records/<URN>"), the
// query included, as the client sent it: a URN is opaque, so its dot
// segments are its own and no query may hide in it.
func (s *Server) target(w http.ResponseWriter, r *http.Request, prefix string) (Name, bool) {
	path, query, hasQuery := splitTarget(r)
	t := strings.TrimPrefix(path, prefix)
	if hasQuery && prefix == "/admin/records/" {
		// The query belongs to the URN, which must not have one: kept
		// so that the URN is refused, not cut.
		t += "?" + query
	}
	n, fe := s.rec.target(t)
	if fe != nil {
		p := fe.problem()
		p.Field, p.Pointer = "path", ""
		writeProblem(w, p)
		return Name{}, false
	}
	return n, true
}

// authorizeTarget authenticates the request and checks that its token
// may write the URN of the path; otherwise it writes the problem and
// reports false.
func (s *Server) authorizeTarget(w http.ResponseWriter, r *http.Request, prefix string) (writer, Name, bool) {
	wr, ok := s.authenticate(w, r)
	if !ok {
		return writer{}, Name{}, false
	}
	n, ok := s.target(w, r, prefix)
	if !ok {
		return writer{}, Name{}, false
	}
	if err := allow(wr.tok, "urn", n); err != nil {
		s.adminError(w, r, "", err)
		return writer{}, Name{}, false
	}
	return wr, n, true
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

// adminCreate answers POST /admin/records: 201 with the record as
// stored, 409 if its URN has one.
func (s *Server) adminCreate(w http.ResponseWriter, r *http.Request) {
	wr, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	rec, ok := s.readRecord(w, r)
	if !ok {
		return
	}
	stored, err := s.rec.create(r.Context(), wr, rec)
	if err != nil {
		s.adminError(w, r, "create", err)
		return
	}
	s.log.Info("record created", "urn", stored.URN, "actor", "token:"+wr.tok.ID, "client", wr.client)
	w.Header().Set("Location", "/admin/records/"+stored.URN)
	s.writeStored(w, http.StatusCreated, stored)
}

// adminPut answers PUT /admin/records/<URN>: 201 with a new record, 200
// with a replaced one.
func (s *Server) adminPut(w http.ResponseWriter, r *http.Request) {
	wr, n, ok := s.authorizeTarget(w, r, "/admin/records/")
	if !ok {
		return
	}
	rec, ok := s.readRecord(w, r)
	if !ok {
		return
	}
	stored, created, err := s.rec.put(r.Context(), wr, n, rec)
	if err != nil {
		s.adminError(w, r, "put", err)
		return
	}
	s.log.Info("record written", "urn", stored.URN, "created", created, "actor", "token:"+wr.tok.ID, "client", wr.client)
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	s.writeStored(w, code, stored)
}

// adminDelete deactivates the record: a persistent identifier is not
// forgotten (issue 23). The body, optional, gives the reason and the
// successor.
func (s *Server) adminDelete(w http.ResponseWriter, r *http.Request) {
	s.deactivateTarget(w, r, "/admin/records/", "delete")
}

// adminDeactivate answers PUT /admin/deactivations/<URN>.
func (s *Server) adminDeactivate(w http.ResponseWriter, r *http.Request) {
	s.deactivateTarget(w, r, "/admin/deactivations/", "deactivate")
}

func (s *Server) deactivateTarget(w http.ResponseWriter, r *http.Request, prefix, action string) {
	wr, n, ok := s.authorizeTarget(w, r, prefix)
	if !ok {
		return
	}
	body, ok := s.readBody(w, r, "a deactivation")
	if !ok {
		return
	}
	d, fe := decodeDeactivation(body)
	if fe != nil {
		writeProblem(w, fe.problem())
		return
	}
	d, err := s.rec.deactivate(r.Context(), wr, action, n, d)
	if err != nil {
		s.adminError(w, r, "deactivate", err)
		return
	}
	s.wrote()
	s.log.Info("record deactivated", "urn", n.Canonical(), "reason", d.Reason, "successor", d.Successor, "actor", "token:"+wr.tok.ID, "client", wr.client)
	w.WriteHeader(http.StatusNoContent)
}

// adminReactivate brings a deactivated record back as it was.
func (s *Server) adminReactivate(w http.ResponseWriter, r *http.Request) {
	wr, n, ok := s.authorizeTarget(w, r, "/admin/deactivations/")
	if !ok {
		return
	}
	rec, err := s.rec.reactivate(r.Context(), wr, n)
	if err != nil {
		s.adminError(w, r, "reactivate", err)
		return
	}
	s.log.Info("record reactivated", "urn", n.Canonical(), "actor", "token:"+wr.tok.ID, "client", wr.client)
	s.writeStored(w, http.StatusOK, rec)
}

// adminGet answers GET /admin/records/<URN>: the record as stored,
// deactivated or not.
func (s *Server) adminGet(w http.ResponseWriter, r *http.Request) {
	n, ok := s.target(w, r, "/admin/records/")
	if !ok {
		return
	}
	rec, err := s.rec.get(r.Context(), n)
	if err != nil {
		s.adminError(w, r, "record", err)
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

func storedJSON(rec store.Record) storedRecord {
	out := storedRecord{Record: Record{URN: rec.URN, URLs: rec.URLs, Metadata: json.RawMessage(rec.Metadata), Synonyms: rec.Synonyms}}
	if out.URLs == nil {
		out.URLs = []string{}
	}
	if d := rec.Deactivated; d != nil {
		out.Deactivated, out.Reason, out.Successor = goneSince(d), d.Reason, d.Successor
	}
	return out
}

// writeStored answers a write with the record as it stored it.
func (s *Server) writeStored(w http.ResponseWriter, code int, rec store.Record) {
	s.wrote()
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
	wr, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	// At debug level: a long import is visible while it streams (the
	// request line is logged when it ends).
	s.log.Debug("import started", "client", wr.client)
	f := FormatOfMediaType(r.Header.Get("Content-Type"))
	if f == FormatUnknown {
		writeProblem(w, newProblem(probMediaType, http.StatusUnsupportedMediaType,
			fmt.Sprintf("an import is text/csv (header urn,url) or application/jsonl (one record per line), not %q",
				truncate(r.Header.Get("Content-Type"), 100))))
		return
	}
	if r.ContentLength > s.v.limits.ImportBytes {
		refuseBody(w, r, importTooLarge(s.v.limits.ImportBytes), false)
		return
	}
	rc := http.NewResponseController(w)
	deadline := time.Now().Add(s.importTO)
	rc.SetReadDeadline(deadline)
	rc.SetWriteDeadline(deadline)
	res, err := s.rec.importFrom(r.Context(), wr, http.MaxBytesReader(w, r.Body, s.v.limits.ImportBytes), f)
	if err != nil {
		s.adminError(w, r, "import", err)
		return
	}
	s.wrote()
	s.log.Info("import", "lines", res.Lines, "records", res.Records, "refused", len(res.Refused), "actor", "token:"+wr.tok.ID, "client", wr.client)
	writeJSON(w, http.StatusOK, res)
}

// adminAudit answers GET /admin/audit?limit=N: the audit entries of the
// token's scopes, newest first.
func (s *Server) adminAudit(w http.ResponseWriter, r *http.Request) {
	wr, ok := s.authenticate(w, r)
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
	entries, err := s.rec.audit(r.Context(), wr.tok, limit)
	if err != nil {
		s.adminError(w, r, "audit", err)
		return
	}
	writeJSON(w, http.StatusOK, entries)
}
