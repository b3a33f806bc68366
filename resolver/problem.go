package resolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// ProblemBase is the start of every problem type URI: the problem types
// are documented in PROBLEMS.md, one heading each, so that a type URI
// dereferences to its description (RFC 9457 section 3.1.1).
const ProblemBase = "https://github.com/urikit/urikit/blob/main/resolver/PROBLEMS.md#"

// Problem is an RFC 9457 problem details object. Field, Pointer and the
// URN error members are extensions (RFC 9457 section 3.2) that name what
// was wrong; Refused lists the lines of an import that were not stored.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Instance string `json:"instance,omitempty"`

	// Field names the member of the request that is wrong, as in "urn"
	// or "urls[2]"; Pointer is the same as a JSON Pointer (RFC 6901)
	// into the request body, as RFC 9457's own example does.
	Field   string `json:"field,omitempty"`
	Pointer string `json:"pointer,omitempty"`

	// For an invalid URN: the parser's byte offset, the component and
	// the dialect it was read with.
	Offset    *int   `json:"offset,omitempty"`
	Component string `json:"component,omitempty"`
	Dialect   string `json:"dialect,omitempty"`

	Refused []LineError `json:"refused,omitempty"`

	// For a deactivated URN (type gone): when, why, and the URN that
	// replaces it, if any.
	Deactivated string `json:"deactivated,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Successor   string `json:"successor,omitempty"`
}

// The problem types; each is a heading of PROBLEMS.md.
const (
	probInvalidURN   = "invalid-urn"
	probInvalidURL   = "invalid-url"
	probInvalidBody  = "invalid-body"
	probTooLarge     = "too-large"
	probNotFound     = "not-found"
	probNoLocation   = "no-location"
	probBadService   = "unsupported-service"
	probBadMethod    = "method-not-allowed"
	probUnauthorized = "unauthorized"
	probForbidden    = "forbidden"
	probRateLimited  = "rate-limited"
	probExists       = "exists"
	probStore        = "store-unavailable"
	probBadRequest   = "bad-request"
	probNoSuchPath   = "no-such-path"
	probNotReady     = "not-ready"
	probGone         = "gone"
	probSuccessor    = "bad-successor"
	probMediaType    = "unsupported-media-type"
	probNoRegistrar  = "no-such-registrar"
	probRegistrarDup = "registrar-conflict"
	probNotRegistrar = "not-registrar"
	probRegMode      = "registrar-mode"
)

var problemTitles = map[string]string{
	probInvalidURN:   "The URN is not valid",
	probInvalidURL:   "A location is not an absolute http or https URI",
	probInvalidBody:  "The request body is not valid",
	probTooLarge:     "The request is over a size limit",
	probNotFound:     "No record for this URN",
	probNoLocation:   "The URN has a record but no location",
	probBadService:   "The resolution service is not supported",
	probBadMethod:    "Method not allowed",
	probUnauthorized: "A valid bearer token is required",
	probForbidden:    "The token may not write this URN",
	probRateLimited:  "Too many writes from this client",
	probExists:       "A record for this URN exists already",
	probStore:        "The record store failed",
	probBadRequest:   "The request is malformed",
	probNoSuchPath:   "Nothing at this path",
	probNotReady:     "The resolver cannot take writes",
	probGone:         "The URN is deactivated",
	probSuccessor:    "The successor cannot be named",
	probMediaType:    "The request body's media type is not accepted here",
	probNoRegistrar:  "No such registrar",
	probRegistrarDup: "The registrar exists, or its prefix overlaps another's",
	probNotRegistrar: "The URN is a registrar's to assign",
	probRegMode:      "The registrar's modes do not assign URNs this way",
}

// maxEcho bounds how much of a request a problem's detail repeats, so
// that an answer is never much larger than a fixed size however long the
// request (a 404 for a 15 KB URN used to echo it twice).
const maxEcho = 256

func newProblem(kind string, status int, detail string) *Problem {
	return &Problem{Type: ProblemBase + kind, Title: problemTitles[kind], Status: status, Detail: detail}
}

// problem turns a FieldError into the problem details of a refused write.
// Validation (record.go) knows nothing of HTTP; the status codes are
// chosen here.
func (e *FieldError) problem() *Problem {
	var p *Problem
	switch {
	case e.Name != nil:
		p = invalidURN(e.Field, e.Name)
	case e.TooBig:
		p = newProblem(probTooLarge, 413, e.Error())
	case e.Pointer == "" && (e.Field == "urls" || strings.HasPrefix(e.Field, "urls[")):
		p = newProblem(probInvalidURL, 400, e.Error())
	default:
		p = newProblem(probInvalidBody, 400, e.Error())
	}
	p.Field, p.Pointer = e.Field, e.Pointer
	if p.Pointer == "" {
		p.Pointer = pointerOf(e.Field)
	}
	return p
}

// invalidURN describes a URN the parser refused; detail holds its offset
// and reason, as the parser words them.
func invalidURN(field string, e *NameError) *Problem {
	p := newProblem(probInvalidURN, http.StatusBadRequest,
		"invalid URN "+strconv.Quote(truncate(e.Input, maxEcho))+": "+truncate(e.Reason, 2*maxEcho)+" (read as "+e.Dialect+")")
	off := e.Offset
	p.Offset, p.Component, p.Dialect = &off, e.Component, e.Dialect
	p.Field, p.Pointer = field, pointerOf(field)
	return p
}

// pointerOf turns "urls[2]" into the JSON Pointer "#/urls/2".
func pointerOf(field string) string {
	if field == "" {
		return ""
	}
	out := []byte("#/")
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '[', '.':
			out = append(out, '/')
		case ']':
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

func writeProblem(w http.ResponseWriter, p *Problem) {
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Del("Location")
	b, err := json.Marshal(p)
	if err != nil {
		b = []byte(`{"type":"about:blank","status":500}`)
	}
	w.WriteHeader(p.Status)
	w.Write(append(b, '\n'))
}

// goneSince formats the date of a deactivation as answers show it.
func goneSince(d *Deactivation) string { return d.At.Format(time.RFC3339) }

// requestProblem is the problem of a resolution request the resolution
// layer refused (resolution.go): the status codes of the read side are
// chosen here.
func requestProblem(e *requestError) *Problem {
	var p *Problem
	switch e.kind {
	case refuseURN:
		if e.name == nil {
			return newProblem(probInvalidURN, http.StatusBadRequest, "invalid URN: "+truncate(e.detail, maxEcho))
		}
		p = invalidURN("urn", e.name)
		if e.suggest != "" {
			p.Detail += "; did you mean " + e.suggest + "?"
		}
		return p
	case refuseTooLong:
		p = newProblem(probTooLarge, http.StatusRequestURITooLong, e.detail)
	case refuseService:
		p = newProblem(probBadService, http.StatusBadRequest, e.detail)
	case refuseURL:
		p = newProblem(probInvalidURL, http.StatusBadRequest, e.detail)
	default:
		p = newProblem(probBadRequest, http.StatusBadRequest, e.detail)
	}
	if e.field != "" {
		p.Field, p.Pointer = e.field, pointerOf(e.field)
	}
	return p
}

// adminError answers the error of an admin request: the one place where
// the records layer's domain errors (records.go) become problems and
// status codes. op names the failed operation in the metrics of store
// errors.
func (s *Server) adminError(w http.ResponseWriter, r *http.Request, op string, err error) {
	var (
		fe    *FieldError
		scope *ScopeError
		gone  *GoneError
		succ  *store.SuccessorError
		state *store.StateError
		mbe   *http.MaxBytesError
		fatal *importFatal
		reg   *RegistrarError
	)
	switch {
	case errors.As(err, &reg):
		writeProblem(w, registrarProblem(reg))
	case errors.Is(err, ErrNoRegistrar):
		writeProblem(w, newProblem(probNoRegistrar, http.StatusNotFound, "no registrar "+strconv.Quote(truncate(registrarCode(r), maxEcho))+
			"; GET /admin/registrars lists them"))
	case errors.Is(err, ErrRegistrarExists):
		p := newProblem(probRegistrarDup, http.StatusConflict, err.Error()+"; GET /admin/registrars lists them")
		p.Field, p.Pointer = "prefix", pointerOf("prefix")
		writeProblem(w, p)
	case errors.As(err, &fe):
		writeProblem(w, fe.problem())
	case errors.As(err, &scope):
		p := newProblem(probForbidden, http.StatusForbidden, scope.Error())
		p.Field, p.Pointer = scope.Field, pointerOf(scope.Field)
		writeProblem(w, p)
	case errors.Is(err, ErrTokenInvalid), errors.Is(err, ErrTokenRevoked):
		w.Header().Set("WWW-Authenticate", `Bearer realm="urnresolver", error="invalid_token"`)
		writeProblem(w, newProblem(probUnauthorized, http.StatusUnauthorized, err.Error()))
	case errors.As(err, &gone):
		// 409: the record's state conflicts with the write (RFC 9110
		// section 15.5.10); the detail says how to reactivate it.
		p := newProblem(probGone, http.StatusConflict, truncate(gone.Error(), 4*maxEcho)+
			"; a deactivated URN is not rewritten: DELETE /admin/deactivations/"+gone.URN+" reactivates it first")
		p.Deactivated, p.Reason, p.Successor = goneSince(&gone.Deactivation), gone.Reason, gone.Successor
		p.Field, p.Pointer = "urn", pointerOf("urn")
		writeProblem(w, p)
	case errors.As(err, &succ):
		writeProblem(w, successorProblem(succ))
	case errors.As(err, &state):
		urn := truncate(state.URN, maxEcho)
		switch {
		case errors.Is(err, ErrExists):
			p := newProblem(probExists, http.StatusConflict, state.URN+" has a record; PUT /admin/records/"+state.URN+" replaces it")
			p.Field, p.Pointer = "urn", pointerOf("urn")
			writeProblem(w, p)
		case errors.Is(err, ErrActive):
			writeProblem(w, newProblem(probExists, http.StatusConflict, urn+" is not deactivated"))
		default:
			writeProblem(w, newProblem(probNotFound, http.StatusNotFound, "no record for "+urn))
		}
	case errors.As(err, &mbe):
		refuseBody(w, r, importTooLarge(mbe.Limit), true)
	case errors.Is(err, ErrLineTooLong):
		refuseBody(w, r, newProblem(probTooLarge, http.StatusRequestEntityTooLarge, err.Error()+"; nothing stored"), true)
	case op == "import" && !errors.As(err, &fatal):
		// What the body holds is not an import.
		writeProblem(w, newProblem(probInvalidBody, http.StatusBadRequest, err.Error()+"; nothing stored"))
	default:
		s.storeFailed(w, r, op, err)
	}
}

// registrarProblem is the problem of a write a registrar's rules refuse:
// 403 for a URN under the prefix of a registrar the token is not, 409
// when the registrar's modes do not assign URNs that way.
func registrarProblem(e *RegistrarError) *Problem {
	what := "its URNs"
	if e.URN != "" {
		what = truncate(e.URN, maxEcho)
	}
	var p *Problem
	switch {
	case errors.Is(e, ErrOtherRegistrar) && e.URN == "":
		p = newProblem(probNotRegistrar, http.StatusForbidden, "only a token of registrar "+e.Registrar+
			" mints and reserves its URNs (urnresolver token create --registrar "+e.Registrar+")")
	case errors.Is(e, ErrOtherRegistrar):
		p = newProblem(probNotRegistrar, http.StatusForbidden, what+" is under the prefix of registrar "+e.Registrar+
			", whose URNs only a token of it registers, as its modes ("+strings.Join(e.Modes, ", ")+") allow")
	case !e.Expired.IsZero():
		p = newProblem(probRegMode, http.StatusConflict, what+" was reserved for registrar "+e.Registrar+
			" until "+e.Expired.Format(time.RFC3339)+"; the reservation has expired, and the registrar's modes ("+
			strings.Join(e.Modes, ", ")+") do not include registrar, so it can no longer be registered")
	case e.Need == ModeReserved && e.URN != "":
		p = newProblem(probRegMode, http.StatusConflict, what+" is reserved for registrar "+e.Registrar+
			": register it by itself (PUT /admin/records/<URN>, or POST /admin/registrars/"+e.Registrar+"/urns), not in an import")
	default:
		ways := map[string]string{
			ModeResolver:  "minting",
			ModeReserved:  "reserving",
			ModeRegistrar: "a URN of the registrar's own choice (" + what + ")",
		}
		p = newProblem(probRegMode, http.StatusConflict, "registrar "+e.Registrar+" has the modes "+strings.Join(e.Modes, ", ")+
			": "+ways[e.Need]+" needs mode "+e.Need)
		if e.Need == ModeRegistrar && slices.Contains(e.Modes, ModeResolver) {
			p.Detail += "; mint with POST /admin/registrars/" + e.Registrar + "/urns"
		}
	}
	if e.URN != "" {
		p.Field, p.Pointer = "urn", pointerOf("urn")
	}
	return p
}

// importTooLarge is the 413 of an import body over limit bytes.
func importTooLarge(limit int64) *Problem {
	return newProblem(probTooLarge, http.StatusRequestEntityTooLarge, fmt.Sprintf("import body over %d bytes; nothing stored", limit))
}

// successorProblem is the 409 of a deactivation whose successor chain
// the store refused: a successor without a record would end N2L's
// redirects in a 404, a cycle would send them round for ever.
func successorProblem(se *store.SuccessorError) *Problem {
	successor := truncate(se.Successor, maxEcho)
	var detail string
	switch {
	case errors.Is(se, ErrNoSuccessor) && se.At == se.Successor:
		detail = "successor: " + successor + " has no record; register it first (PUT /admin/records/" +
			successor + "), then name it as the successor"
	case errors.Is(se, ErrNoSuccessor):
		detail = "successor: the chain of successors from " + successor + " reaches " +
			truncate(se.At, maxEcho) + ", which has no record: N2L would end in a 404"
	default:
		detail = "successor: " + successor + " leads back to " + truncate(se.URN, maxEcho) +
			" through the successors of deactivated records (or a chain of more than 32): N2L would redirect round it"
	}
	p := newProblem(probSuccessor, http.StatusConflict, detail)
	p.Field, p.Pointer = "successor", pointerOf("successor")
	return p
}
