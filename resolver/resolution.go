package resolver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urikit/urikit/resolver/internal/store"
)

// The resolution layer sits between HTTP and the store: resolve turns a
// request (a service and its operand) into an answer value, reading the
// store in one statement or one read transaction; the handlers in
// resolve.go only negotiate a format and render it, and a refused
// request is a *requestError that problem.go gives its status. Nothing
// here writes a header or chooses a status code, and nothing in the
// handlers reads the store.

// answerKind is what a resolution found.
type answerKind uint8

const (
	answerInvalid     answerKind = iota // the operand is not what the service takes; err says why
	answerNotFound                      // nothing to answer; missing says what is missing
	answerGone                          // the URN is deactivated: gone, and record for N2C
	answerLocations                     // list: the locations (N2L, N2R: the first only)
	answerMetadata                      // record: the description (N2C, N2Cs)
	answerSynonyms                      // list: the synonyms (N2N: the first)
	answerEquivalence                   // equal: the two URNs name the same thing (N=N)
	answerURNs                          // list: the URNs at a location (L2N, L2Ns)
)

// missing says why an answer is not found.
type missing uint8

const (
	missRecord   missing = iota // no record for the URN
	missLocation                // a record without a location
	missSynonym                 // N2N: no synonym
	missURN                     // L2N: no URN has the location
)

// answer is the value a resolution computes.
type answer struct {
	kind    answerKind
	svc     Service
	name    Name          // the URN asked about (not for N=N, L2N, L2Ns)
	subject string        // the list's subject: the URN as written, or L2N's URL
	list    []string      // locations (q-component merged), synonyms or URNs
	record  store.Record  // metadata; for gone, the record as it was
	gone    *GoneError    // gone
	next    string        // gone: the successor as an operand, q-component carried
	equal   bool          // equivalence
	missing missing       // not found
	err     *requestError // invalid
}

// requestError is a resolution request refused for what it asks: the
// client's mistake, of the kind refusal says.
type requestError struct {
	kind    refusal
	detail  string
	field   string     // the part of the request at fault, if one is named
	name    *NameError // refuseURN: the parser's error, when it is one
	suggest string     // refuseURN: the URN a bare identifier most likely means
}

func (e *requestError) Error() string { return e.detail }

// refusal is why a resolution request is refused.
type refusal uint8

const (
	refuseMalformed refusal = iota // no operand, or not two URNs for I=I
	refuseTooLong                  // an operand over maxOperand bytes
	refuseURN                      // the URN does not parse
	refuseURL                      // L2N's operand is not an absolute URI
	refuseService                  // the service does not take this request's form
)

func invalid(svc Service, kind refusal, detail string) answer {
	return answer{kind: answerInvalid, svc: svc, err: &requestError{kind: kind, detail: detail}}
}

// resolve answers svc for operand, the query of "GET /uri-res/<svc>?...".
// The error is the store's; everything the client got wrong is an
// answerInvalid.
func (s *Server) resolve(ctx context.Context, svc Service, operand string) (answer, error) {
	if operand == "" {
		what := "a URN"
		if svc.takesURL() {
			what = "a URL"
		} else if svc == NeqN {
			what = "two URNs, URN1&URN2"
		}
		return invalid(svc, refuseMalformed, fmt.Sprintf("%s takes %s as the query: GET /uri-res/%s?...", svc, what, svc)), nil
	}
	if len(operand) > maxOperand {
		return invalid(svc, refuseTooLong, fmt.Sprintf("operand longer than %d bytes", maxOperand)), nil
	}
	switch svc {
	case L2N, L2Ns:
		return s.resolveURL(ctx, svc, operand)
	case NeqN:
		return s.resolveEqual(ctx, operand)
	}
	n, err := s.v.dialects.ParseRequest(operand)
	if err != nil {
		return s.invalidRequest(svc, err, operand), nil
	}
	return s.resolveName(ctx, svc, n)
}

// resolvePathForm answers the path form "GET /<URN>". The service is the
// one the URN names, by a 2012-draft "s" directive ("?s=I2Ls") or an RFC
// 8141 r-component ("?+s=I2Ls"), or else the namespace's default. An
// unknown designator falls back to the default: "A URN resolver that ...
// does not understand the <value> handed to it MUST gracefully fall back
// to provide the default service" (2012 draft section 2.3.1). The
// answer's svc is NoService when the URN could not be read.
func (s *Server) resolvePathForm(ctx context.Context, target string) (answer, error) {
	if len(target) > maxOperand {
		return invalid(NoService, refuseTooLong, fmt.Sprintf("URN longer than %d bytes", maxOperand)), nil
	}
	n, err := s.v.dialects.ParseRequest(target)
	if err != nil {
		return s.invalidRequest(NoService, err, target), nil
	}
	svc := s.defaultService(n.NID())
	if name, ok := n.Service(); ok {
		if v, ok := ServiceByName(name); ok && !v.takesURL() {
			svc = v
		}
	}
	if svc == NeqN {
		return invalid(svc, refuseService, "I=I compares two URNs: ask GET /uri-res/I=I?URN1&URN2"), nil
	}
	return s.resolveName(ctx, svc, n)
}

// resolveName answers the one-URN services. Each reads the store once:
// N2L and N2R one statement, the others one read transaction.
func (s *Server) resolveName(ctx context.Context, svc Service, n Name) (answer, error) {
	a := answer{svc: svc, name: n, subject: n.String()}
	var l store.Lookup
	var err error
	switch svc {
	case N2L, N2R:
		l, err = s.store.first(ctx, n.Key())
	case N2Ls, N2Rs:
		l, err = s.store.db.Lookup(ctx, n.Key(), store.NeedURLs)
	case N2C, N2Cs:
		l, err = s.store.db.Lookup(ctx, n.Key(), store.NeedRecord)
	case N2N, N2Ns:
		l, err = s.store.db.Lookup(ctx, n.Key(), store.NeedSynonyms)
	default:
		return invalid(svc, refuseService, svc.String()+" does not take one URN"), nil
	}
	if err != nil {
		return answer{}, err
	}
	if l.Found {
		s.store.countResolution(n.NID(), n.Key())
	}
	q, hasQ := n.QComponent()
	switch {
	case l.Gone != nil:
		// Never unknown: a deactivated URN is gone, with the date and
		// reason, and N2L and N2R lead to its successor.
		a.kind, a.record = answerGone, l.Record
		a.gone = &GoneError{URN: l.URN, Deactivation: *l.Gone}
		if l.Gone.Successor != "" {
			a.next = s.operandFor(l.Gone.Successor, q)
		}
	case svc == N2N || svc == N2Ns:
		// Synonyms others register answer even without a record.
		a.kind, a.list = answerSynonyms, l.Synonyms
		switch {
		case len(l.Synonyms) > 0:
		case !l.Found:
			a.kind, a.missing = answerNotFound, missRecord
		case svc == N2N:
			a.kind, a.missing = answerNotFound, missSynonym
		}
	case !l.Found:
		a.kind, a.missing = answerNotFound, missRecord
	case svc == N2C || svc == N2Cs:
		a.kind, a.record = answerMetadata, l.Record
	case len(l.URLs) == 0 && svc != N2Ls:
		a.kind, a.missing = answerNotFound, missLocation
	default:
		a.kind, a.list = answerLocations, l.URLs
		if hasQ {
			for i := range a.list {
				a.list[i] = withQComponent(a.list[i], q)
			}
		}
	}
	return a, nil
}

// describe answers the lookup page: the record, whether it is active or
// deactivated, and the synonyms in both directions, in one read
// transaction.
func (s *Server) describe(ctx context.Context, n Name) (answer, error) {
	l, err := s.store.db.Lookup(ctx, n.Key(), store.NeedRecord|store.NeedSynonyms)
	if err != nil {
		return answer{}, err
	}
	a := answer{kind: answerMetadata, svc: N2C, name: n, subject: n.String(), record: l.Record, list: l.Synonyms}
	switch {
	case l.Gone != nil:
		a.kind, a.gone = answerGone, &GoneError{URN: l.URN, Deactivation: *l.Gone}
	case !l.Found:
		a.kind, a.missing = answerNotFound, missRecord
	}
	return a, nil
}

// operandFor returns urn, a canonical URN, as the operand of a request
// that carries the q-component q, in the form urn's dialect writes it
// (RFC 8141 "?=", the 2015 draft "?"; the older dialects have none).
func (s *Server) operandFor(urn, q string) string {
	if q == "" {
		return urn
	}
	n, err := s.v.dialects.Parse(urn)
	if err != nil {
		return urn
	}
	switch n.Dialect() {
	case "rfc8141":
		return urn + "?=" + q
	case "draft2015":
		return urn + "?" + q
	}
	return urn
}

// resolveURL answers L2N and L2Ns (RFC 2169 section 3.7): the operand is
// a URL, compared after RFC 3986 section 6 normalization.
func (s *Server) resolveURL(ctx context.Context, svc Service, operand string) (answer, error) {
	key, ok := urlKey(operand)
	if !ok {
		a := invalid(svc, refuseURL, fmt.Sprintf("%s takes an absolute URI: %q is not one", svc, truncate(operand, 200)))
		a.err.field = "url"
		return a, nil
	}
	urns, err := s.store.db.URNsAt(ctx, key)
	if err != nil {
		return answer{}, err
	}
	a := answer{kind: answerURNs, svc: svc, subject: operand, list: urns}
	if svc == L2N && len(urns) == 0 {
		a.kind, a.missing = answerNotFound, missURN
	}
	return a, nil
}

// resolveEqual answers N=N / I=I (RFC 2483 section 4.9) for the operand
// "URN1&URN2": equal when the two are lexically equivalent (their keys
// under namespace rules are equal, RFC 8141 section 3) or a registered
// synonym binding links them.
//
// "&" may occur inside a URN (it is a pchar), so the split is at an "&"
// followed by "urn:" such that both sides parse; when several splits
// would do, the request is ambiguous and refused.
func (s *Server) resolveEqual(ctx context.Context, operand string) (answer, error) {
	var a, b Name
	found := 0
	var lastErr *NameError
	for i := 0; i < len(operand); i++ {
		if operand[i] != '&' || len(operand)-i < 5 || !strings.EqualFold(operand[i+1:i+5], "urn:") {
			continue
		}
		x, err := s.v.dialects.ParseRequest(operand[:i])
		if err != nil {
			errors.As(err, &lastErr)
			continue
		}
		y, err := s.v.dialects.ParseRequest(operand[i+1:])
		if err != nil {
			errors.As(err, &lastErr)
			continue
		}
		a, b = x, y
		found++
	}
	switch {
	case found > 1:
		return invalid(NeqN, refuseMalformed, "ambiguous: the operand splits into two URNs at more than one \"&\""), nil
	case found == 0 && lastErr != nil:
		return answer{kind: answerInvalid, svc: NeqN, err: &requestError{kind: refuseURN, detail: lastErr.Error(), name: lastErr}}, nil
	case found == 0:
		if _, err := s.v.dialects.ParseRequest(operand); err != nil {
			return s.invalidRequest(NeqN, err, operand), nil
		}
		return invalid(NeqN, refuseMalformed, "N=N and I=I compare two URNs: GET /uri-res/I=I?URN1&URN2"), nil
	}
	equal := a.Key() == b.Key()
	if !equal {
		var err error
		if equal, err = s.store.db.Synonymous(ctx, a.Key(), b.Key()); err != nil {
			return answer{}, err
		}
	}
	return answer{kind: answerEquivalence, svc: NeqN, equal: equal}, nil
}

// invalidRequest is the answer to a request whose URN does not parse;
// a bare identifier gets the URN it most likely means.
func (s *Server) invalidRequest(svc Service, err error, raw string) answer {
	e := &requestError{kind: refuseURN, detail: err.Error()}
	if errors.As(err, &e.name) {
		e.suggest = s.v.dialects.Suggest(raw)
	}
	return answer{kind: answerInvalid, svc: svc, err: e}
}

func (s *Server) defaultService(nid string) Service {
	if svc, ok := s.defaults[nid]; ok {
		return svc
	}
	return N2L
}
