package resolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strings"
)

// maxOperand bounds the operand of a resolution request: a URN with its
// components, or a URL, or two URNs for N=N.
const maxOperand = 16 << 10

// resolveTHTTP answers RFC 2169's "GET /uri-res/<service>?<operand>". The
// service is the path's; an "s" directive in the URN is not consulted.
func (s *Server) resolveTHTTP(w http.ResponseWriter, r *http.Request, svc Service, operand string, label *string) {
	s.methodsOr(w, r, func() {
		if operand == "" {
			what := "a URN"
			if svc.takesURL() {
				what = "a URL"
			} else if svc == NeqN {
				what = "two URNs, URN1&URN2"
			}
			writeProblem(w, newProblem(probBadRequest, http.StatusBadRequest,
				fmt.Sprintf("%s takes %s as the query: GET /uri-res/%s?...", svc, what, svc)))
			return
		}
		if len(operand) > maxOperand {
			writeProblem(w, newProblem(probTooLarge, http.StatusRequestURITooLong, fmt.Sprintf("operand longer than %d bytes", maxOperand)))
			return
		}
		switch svc {
		case L2N, L2Ns:
			s.serveL2N(w, r, svc, operand)
		case NeqN:
			s.serveEqual(w, r, operand)
		default:
			n, err := s.v.dialects.ParseRequest(operand)
			if err != nil {
				writeProblem(w, s.invalidRequest(err, operand))
				return
			}
			s.serveName(w, r, svc, n)
		}
	})
}

// resolvePath answers the path form "GET /<URN>". The service is the one
// the URN names, by a 2012-draft "s" directive ("?s=I2Ls") or an RFC 8141
// r-component ("?+s=I2Ls"), or else the namespace's default. An unknown
// designator falls back to the default: "A URN resolver that ... does
// not understand the <value> handed to it MUST gracefully fall back to
// provide the default service" (2012 draft section 2.3.1).
func (s *Server) resolvePath(w http.ResponseWriter, r *http.Request, target string, label *string) {
	s.methodsOr(w, r, func() {
		if len(target) > maxOperand {
			*label = "path"
			writeProblem(w, newProblem(probTooLarge, http.StatusRequestURITooLong, fmt.Sprintf("URN longer than %d bytes", maxOperand)))
			return
		}
		n, err := s.v.dialects.ParseRequest(target)
		if err != nil {
			*label = "path"
			writeProblem(w, s.invalidRequest(err, target))
			return
		}
		svc := s.defaultService(n.NID())
		if name, ok := n.Service(); ok {
			if v, ok := ServiceByName(name); ok {
				svc = v
			}
		}
		if svc.takesURL() {
			svc = s.defaultService(n.NID())
		}
		*label = svc.String()
		if svc == NeqN {
			writeProblem(w, newProblem(probBadService, http.StatusBadRequest,
				"I=I compares two URNs: ask GET /uri-res/I=I?URN1&URN2"))
			return
		}
		s.serveName(w, r, svc, n)
	})
}

// invalidRequest is the problem of a request whose URN does not parse;
// a bare identifier gets the URN it most likely means in the detail.
func (s *Server) invalidRequest(err error, raw string) *Problem {
	var ne *NameError
	if !errors.As(err, &ne) {
		return newProblem(probInvalidURN, http.StatusBadRequest, "invalid URN: "+truncate(err.Error(), maxEcho))
	}
	p := invalidURN("urn", ne)
	if sug := s.v.dialects.Suggest(raw); sug != "" {
		p.Detail += "; did you mean " + sug + "?"
	}
	return p
}

func (s *Server) defaultService(nid string) Service {
	if svc, ok := s.defaults[nid]; ok {
		return svc
	}
	return N2L
}

// serveName answers the one-URN services.
func (s *Server) serveName(w http.ResponseWriter, r *http.Request, svc Service, n Name) {
	switch svc {
	case N2L, N2R:
		s.serveN2L(w, r, svc, n)
	case N2Ls, N2Rs:
		s.serveN2Ls(w, r, svc, n)
	case N2C, N2Cs:
		s.serveN2C(w, r, svc, n)
	case N2N, N2Ns:
		s.serveN2N(w, r, svc, n)
	default:
		writeProblem(w, newProblem(probBadService, http.StatusBadRequest, svc.String()+" does not take one URN"))
	}
}

// notFound answers 404 for a URN without a record; when the URN breaks
// its namespace's syntax (an ISBN check digit, say) the detail says so,
// as that is the likelier reason.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request, n Name) {
	exists, err := s.store.Exists(r.Context(), n.Key())
	if err != nil {
		s.storeFailed(w, r, "exists", err)
		return
	}
	if exists {
		writeProblem(w, newProblem(probNoLocation, http.StatusNotFound, "the record of "+truncate(n.Canonical(), maxEcho)+" has no location"))
		return
	}
	detail := "no record for " + truncate(n.Canonical(), maxEcho)
	if n.Key() != n.Canonical() {
		detail += " (looked up as " + truncate(n.Key(), maxEcho) + ")"
	}
	if err := n.ValidateNamespace(); err != nil {
		detail += "; note: " + err.Error()
	}
	writeProblem(w, newProblem(probNotFound, http.StatusNotFound, detail))
}

// serveN2L redirects to the first location, with the URN's q-component
// merged into its query.
//
// N2L answers 303 See Other to HTTP/1.1 clients and 302 Found to HTTP/1.0
// ones, as RFC 2169 section 3.1 says: 303 tells the client that the URL
// is another resource it may GET, which is what a URN-to-URL mapping
// is, and 302 is the nearest code HTTP/1.0 knows. N2R answers 302 Found
// to everyone: the resource itself lives at that URL and this resolver
// does not serve resources, so it points there, the redirect RFC 2169
// section 3.3 leaves open to "standard HTTP mechanisms".
func (s *Server) serveN2L(w http.ResponseWriter, r *http.Request, svc Service, n Name) {
	loc, err := s.store.FirstURL(r.Context(), n.Key())
	if errors.Is(err, ErrNotFound) {
		s.notFound(w, r, n)
		return
	}
	if err != nil {
		s.storeFailed(w, r, "first_url", err)
		return
	}
	if q, ok := n.QComponent(); ok {
		loc = withQComponent(loc, q)
	}
	code := http.StatusSeeOther
	if svc == N2R || !r.ProtoAtLeast(1, 1) {
		code = http.StatusFound
	}
	h := w.Header()
	h["Location"] = []string{loc}
	h["Cache-Control"] = []string{s.cache}
	w.WriteHeader(code)
}

// serveN2Ls lists the locations (RFC 2169 section 3.2): text/uri-list by
// default, whose first line is a comment giving the URN (RFC 2169
// Appendix A: "the first line ... SHOULD be a comment giving the
// original URI"), or text/html with the UL list section 3.2 shows, or
// text/plain, or JSON. N2Rs answers 300 Multiple Choices with the same
// list when there are several resources and a 302 to the one otherwise.
func (s *Server) serveN2Ls(w http.ResponseWriter, r *http.Request, svc Service, n Name) {
	urls, err := s.store.URLs(r.Context(), n.Key())
	if err != nil {
		s.storeFailed(w, r, "urls", err)
		return
	}
	if len(urls) == 0 {
		exists, err := s.store.Exists(r.Context(), n.Key())
		if err != nil {
			s.storeFailed(w, r, "exists", err)
			return
		}
		if !exists || svc == N2Rs {
			s.notFound(w, r, n)
			return
		}
	}
	if q, ok := n.QComponent(); ok {
		for i := range urls {
			urls[i] = withQComponent(urls[i], q)
		}
	}
	if svc == N2Rs && len(urls) == 1 {
		w.Header().Set("Location", urls[0])
		w.Header().Set("Cache-Control", s.cache)
		w.WriteHeader(http.StatusFound)
		return
	}
	code := http.StatusOK
	if svc == N2Rs {
		w.Header().Set("Location", urls[0])
		code = http.StatusMultipleChoices
	}
	s.writeList(w, r, code, n.String(), "urls", urls)
}

// writeList writes a list of URIs in the negotiated format.
func (s *Server) writeList(w http.ResponseWriter, r *http.Request, code int, subject, member string, list []string) {
	h := w.Header()
	h.Set("Vary", "Accept")
	h.Set("Cache-Control", s.cache)
	h.Set("X-Content-Type-Options", "nosniff")
	var b strings.Builder
	switch negotiate(r.Header.Get("Accept"), "text/uri-list", "text/html", "application/json", "text/plain") {
	case "text/html":
		h.Set("Content-Type", "text/html; charset=utf-8")
		b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
		template.HTMLEscape(&htmlWriter{&b}, []byte(subject))
		b.WriteString("</title></head><body>\n<ul>\n")
		for _, u := range list {
			esc := template.HTMLEscapeString(u)
			b.WriteString(`<li><a href="` + esc + `">` + esc + "</a>\n")
		}
		b.WriteString("</ul>\n</body></html>\n")
	case "application/json":
		h.Set("Content-Type", "application/json")
		if list == nil {
			list = []string{}
		}
		j, _ := json.Marshal(map[string]any{"urn": subject, member: list})
		b.Write(j)
		b.WriteByte('\n')
	case "text/plain":
		h.Set("Content-Type", "text/plain; charset=utf-8")
		for _, u := range list {
			b.WriteString(u + "\r\n")
		}
	default:
		h.Set("Content-Type", "text/uri-list; charset=utf-8")
		// A comment line may not hold a line break; the subject is a
		// parsed URN or URL, which cannot.
		b.WriteString("# " + subject + "\r\n")
		for _, u := range list {
			b.WriteString(u + "\r\n")
		}
	}
	w.WriteHeader(code)
	w.Write([]byte(b.String()))
}

type htmlWriter struct{ b *strings.Builder }

func (h *htmlWriter) Write(p []byte) (int, error) { return h.b.Write(p) }

// urc is the N2C answer: what the resolver knows about a URN.
type urc struct {
	URN      string          `json:"urn"`
	Key      string          `json:"key"`
	URLs     []string        `json:"urls"`
	Metadata json.RawMessage `json:"metadata"`
	Synonyms []string        `json:"synonyms"`
	Updated  string          `json:"updated"`
}

// serveN2C returns the record's description (RFC 2169 section 3.5: the
// content of a URC is the resolver's to choose, its type is told by
// Content-Type and chosen by Accept): JSON by default, or text/plain
// "name: value" lines, or an HTML page. N2Cs returns a JSON array of the
// one description this resolver has.
func (s *Server) serveN2C(w http.ResponseWriter, r *http.Request, svc Service, n Name) {
	rec, err := s.store.Record(r.Context(), n.Key())
	if errors.Is(err, ErrNotFound) {
		s.notFound(w, r, n)
		return
	}
	if err != nil {
		s.storeFailed(w, r, "record", err)
		return
	}
	c := urc{URN: rec.URN, Key: rec.Key, URLs: rec.URLs, Metadata: json.RawMessage(rec.Metadata),
		Synonyms: rec.Synonyms, Updated: rec.Updated.Format("2006-01-02T15:04:05.000000Z")}
	if c.URLs == nil {
		c.URLs = []string{}
	}
	if c.Synonyms == nil {
		c.Synonyms = []string{}
	}
	h := w.Header()
	h.Set("Vary", "Accept")
	h.Set("Cache-Control", s.cache)
	h.Set("X-Content-Type-Options", "nosniff")
	switch negotiate(r.Header.Get("Accept"), "application/json", "text/plain", "text/html") {
	case "text/plain":
		h.Set("Content-Type", "text/plain; charset=utf-8")
		var b strings.Builder
		b.WriteString("urn: " + c.URN + "\r\nkey: " + c.Key + "\r\n")
		for _, u := range c.URLs {
			b.WriteString("url: " + u + "\r\n")
		}
		for _, sy := range c.Synonyms {
			b.WriteString("synonym: " + sy + "\r\n")
		}
		for _, m := range metadataLines(rec.Metadata) {
			b.WriteString(m.Name + ": " + oneLine(m.Value) + "\r\n")
		}
		b.WriteString("updated: " + c.Updated + "\r\n")
		w.Write([]byte(b.String()))
	case "text/html":
		// The lookup page shows a record best; it is the same data.
		http.Redirect(w, r, "/?urn="+urlQueryEscape(n.String()), http.StatusSeeOther)
	default:
		h.Set("Content-Type", "application/json")
		var j []byte
		if svc == N2Cs {
			j, _ = json.Marshal([]urc{c})
		} else {
			j, _ = json.Marshal(c)
		}
		w.Write(append(j, '\n'))
	}
}

func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// serveN2N answers the synonyms of a URN (RFC 2169 section 3.6, RFC 2483
// sections 4.7 and 4.8): N2Ns a list as for N2Ls, N2N the first one as
// text/plain.
func (s *Server) serveN2N(w http.ResponseWriter, r *http.Request, svc Service, n Name) {
	syns, err := s.store.Synonyms(r.Context(), n.Key())
	if err != nil {
		s.storeFailed(w, r, "synonyms", err)
		return
	}
	if len(syns) == 0 {
		exists, err := s.store.Exists(r.Context(), n.Key())
		if err != nil {
			s.storeFailed(w, r, "exists", err)
			return
		}
		if !exists {
			s.notFound(w, r, n)
			return
		}
		if svc == N2N {
			writeProblem(w, newProblem(probNotFound, http.StatusNotFound, "no synonym is registered for "+truncate(n.Canonical(), maxEcho)))
			return
		}
	}
	if svc == N2N {
		writeText(w, s.cache, syns[0]+"\r\n")
		return
	}
	s.writeList(w, r, http.StatusOK, n.String(), "synonyms", syns)
}

func writeText(w http.ResponseWriter, cache, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", cache)
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write([]byte(body))
}

// serveL2N answers the URNs that have a location (RFC 2169 section 3.7):
// the operand is a URL, compared after RFC 3986 section 6 normalization.
func (s *Server) serveL2N(w http.ResponseWriter, r *http.Request, svc Service, operand string) {
	key, ok := urlKey(operand)
	if !ok {
		p := newProblem(probInvalidURL, http.StatusBadRequest, fmt.Sprintf("%s takes an absolute URI: %q is not one", svc, truncate(operand, 200)))
		p.Field, p.Pointer = "url", pointerOf("url")
		writeProblem(w, p)
		return
	}
	urns, err := s.store.URNsAt(r.Context(), key)
	if err != nil {
		s.storeFailed(w, r, "urns_at", err)
		return
	}
	if svc == L2N {
		if len(urns) == 0 {
			writeProblem(w, newProblem(probNotFound, http.StatusNotFound, "no URN has the location "+truncate(operand, 200)))
			return
		}
		writeText(w, s.cache, urns[0]+"\r\n")
		return
	}
	s.writeList(w, r, http.StatusOK, operand, "urns", urns)
}

// serveEqual answers N=N / I=I (RFC 2483 section 4.9) for the operand
// "URN1&URN2": "true" when the two are lexically equivalent (their keys
// under namespace rules are equal, RFC 8141 section 3) or a registered
// synonym binding links them, "false" otherwise, as text/plain.
//
// "&" may occur inside a URN (it is a pchar), so the split is at an "&"
// followed by "urn:" such that both sides parse; when several splits
// would do, the request is ambiguous and refused.
func (s *Server) serveEqual(w http.ResponseWriter, r *http.Request, operand string) {
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
		writeProblem(w, newProblem(probBadRequest, http.StatusBadRequest,
			"ambiguous: the operand splits into two URNs at more than one \"&\""))
		return
	case found == 0 && lastErr != nil:
		writeProblem(w, invalidURN("urn", lastErr))
		return
	case found == 0:
		if _, err := s.v.dialects.ParseRequest(operand); err != nil {
			writeProblem(w, s.invalidRequest(err, operand))
			return
		}
		writeProblem(w, newProblem(probBadRequest, http.StatusBadRequest,
			"N=N and I=I compare two URNs: GET /uri-res/I=I?URN1&URN2"))
		return
	}
	equal := a.Key() == b.Key()
	if !equal {
		var err error
		equal, err = s.store.Synonymous(r.Context(), a.Key(), b.Key())
		if err != nil {
			s.storeFailed(w, r, "synonymous", err)
			return
		}
	}
	if equal {
		writeText(w, s.cache, "true")
	} else {
		writeText(w, s.cache, "false")
	}
}
