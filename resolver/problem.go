package resolver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
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
