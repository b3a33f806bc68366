package resolver

import (
	"encoding/json"
	"html/template"
	"net/http"
	"strings"
)

// maxOperand bounds the operand of a resolution request: a URN with its
// components, or a URL, or two URNs for N=N.
const maxOperand = 16 << 10

// resolveTHTTP answers RFC 2169's "GET /uri-res/<service>?<operand>",
// the operand being the raw query. The service is the path's; an "s"
// directive in the URN is not consulted.
func (s *Server) resolveTHTTP(w http.ResponseWriter, r *http.Request, svc Service) {
	_, operand, _ := splitTarget(r)
	a, err := s.resolve(r.Context(), svc, operand)
	if err != nil {
		s.storeFailed(w, r, "lookup", err)
		return
	}
	s.render(w, r, a)
}

// resolvePath answers the path form "GET /<URN>" (resolvePathForm).
func (s *Server) resolvePath(w http.ResponseWriter, r *http.Request, target string) {
	a, err := s.resolvePathForm(r.Context(), target)
	if a.svc != NoService {
		setLabel(w, serviceLabel(a.svc))
	}
	if err != nil {
		s.storeFailed(w, r, "lookup", err)
		return
	}
	s.render(w, r, a)
}

// render writes an answer in the format the request negotiates.
func (s *Server) render(w http.ResponseWriter, r *http.Request, a answer) {
	switch a.kind {
	case answerInvalid:
		writeProblem(w, requestProblem(a.err))
	case answerNotFound:
		writeProblem(w, notFoundProblem(a))
	case answerGone:
		s.writeGone(w, r, a)
	case answerLocations:
		s.writeLocations(w, r, a)
	case answerMetadata:
		s.writeURC(w, r, a)
	case answerSynonyms:
		if a.svc == N2N {
			writeText(w, s.cache, a.list[0]+"\r\n")
			return
		}
		s.writeList(w, r, http.StatusOK, a.subject, "synonyms", a.list)
	case answerEquivalence:
		if a.equal {
			writeText(w, s.cache, "true")
		} else {
			writeText(w, s.cache, "false")
		}
	case answerURNs:
		if a.svc == L2N {
			writeText(w, s.cache, a.list[0]+"\r\n")
			return
		}
		s.writeList(w, r, http.StatusOK, a.subject, "urns", a.list)
	}
}

// notFoundProblem is the 404 of an answer that is not found; when the
// URN breaks its namespace's syntax (an ISBN check digit, say) the detail
// says so, as that is the likelier reason.
func notFoundProblem(a answer) *Problem {
	switch a.missing {
	case missLocation:
		return newProblem(probNoLocation, http.StatusNotFound, "the record of "+truncate(a.name.Canonical(), maxEcho)+" has no location")
	case missSynonym:
		return newProblem(probNotFound, http.StatusNotFound, "no synonym is registered for "+truncate(a.name.Canonical(), maxEcho))
	case missURN:
		return newProblem(probNotFound, http.StatusNotFound, "no URN has the location "+truncate(a.subject, 200))
	}
	n := a.name
	detail := "no record for " + truncate(n.Canonical(), maxEcho)
	if n.Key() != n.Canonical() {
		detail += " (looked up as " + truncate(n.Key(), maxEcho) + ")"
	}
	if err := n.ValidateNamespace(); err != nil {
		detail += "; note: " + err.Error()
	}
	return newProblem(probNotFound, http.StatusNotFound, detail)
}

// writeGone answers for a deactivated URN: 410 Gone, never 404, with the
// date and the reason. N2C shows the record as it was, with them; N2L and
// N2R of a URN with a successor redirect to the successor's resolution,
// as they would to a location.
func (s *Server) writeGone(w http.ResponseWriter, r *http.Request, a answer) {
	if a.next != "" && (a.svc == N2L || a.svc == N2R) {
		s.redirect(w, r, a.svc, "/uri-res/"+a.svc.String()+"?"+a.next)
		return
	}
	if a.svc == N2C || a.svc == N2Cs {
		s.writeURC(w, r, a)
		return
	}
	p := newProblem(probGone, http.StatusGone, truncate(a.gone.Error(), 4*maxEcho))
	p.Deactivated, p.Reason, p.Successor = goneSince(&a.gone.Deactivation), a.gone.Reason, a.gone.Successor
	writeProblem(w, p)
}

// redirect answers N2L and N2R with a redirect to loc.
//
// N2L answers 303 See Other to HTTP/1.1 clients and 302 Found to HTTP/1.0
// ones, as RFC 2169 section 3.1 says: 303 tells the client that the URL
// is another resource it may GET, which is what a URN-to-URL mapping
// is, and 302 is the nearest code HTTP/1.0 knows. N2R answers 302 Found
// to everyone: the resource itself lives at that URL and this resolver
// does not serve resources, so it points there, the redirect RFC 2169
// section 3.3 leaves open to "standard HTTP mechanisms".
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, svc Service, loc string) {
	code := http.StatusSeeOther
	if svc == N2R || !r.ProtoAtLeast(1, 1) {
		code = http.StatusFound
	}
	h := w.Header()
	h["Location"] = []string{loc}
	h["Cache-Control"] = []string{s.cache}
	w.WriteHeader(code)
}

// writeLocations answers N2L and N2R with a redirect to the first
// location (the URN's q-component is merged into its query, RFC 8141
// section 2.3.2), N2Ls with the list (RFC 2169 section 3.2): text/uri-list
// by default, whose first line is a comment giving the URN (RFC 2169
// Appendix A: "the first line ... SHOULD be a comment giving the original
// URI"), or text/html with the UL list section 3.2 shows, or text/plain,
// or JSON. N2Rs answers 300 Multiple Choices with the same list when
// there are several resources and a 302 to the one otherwise.
func (s *Server) writeLocations(w http.ResponseWriter, r *http.Request, a answer) {
	switch {
	case a.svc == N2L || a.svc == N2R || (a.svc == N2Rs && len(a.list) == 1):
		svc := a.svc
		if svc == N2Rs {
			svc = N2R
		}
		s.redirect(w, r, svc, a.list[0])
	case a.svc == N2Rs:
		w.Header().Set("Location", a.list[0])
		s.writeList(w, r, http.StatusMultipleChoices, a.subject, "urls", a.list)
	default:
		s.writeList(w, r, http.StatusOK, a.subject, "urls", a.list)
	}
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

// urc is the N2C answer: what the resolver knows about a URN. A
// deactivated URN's has the date, the reason and the successor.
type urc struct {
	URN         string          `json:"urn"`
	Key         string          `json:"key"`
	URLs        []string        `json:"urls"`
	Metadata    json.RawMessage `json:"metadata"`
	Synonyms    []string        `json:"synonyms"`
	Updated     string          `json:"updated"`
	Deactivated string          `json:"deactivated,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Successor   string          `json:"successor,omitempty"`
}

// writeURC returns the record's description (RFC 2169 section 3.5: the
// content of a URC is the resolver's to choose, its type is told by
// Content-Type and chosen by Accept): JSON by default, or text/plain
// "name: value" lines, or an HTML page. N2Cs returns a JSON array of the
// one description this resolver has. A deactivated URN's is answered 410
// Gone.
func (s *Server) writeURC(w http.ResponseWriter, r *http.Request, a answer) {
	rec := a.record
	c := urc{URN: rec.URN, Key: rec.Key, URLs: rec.URLs, Metadata: json.RawMessage(rec.Metadata),
		Synonyms: rec.Synonyms, Updated: rec.Updated.Format("2006-01-02T15:04:05.000000Z")}
	if c.URLs == nil {
		c.URLs = []string{}
	}
	if c.Synonyms == nil {
		c.Synonyms = []string{}
	}
	code := http.StatusOK
	if d := rec.Deactivated; d != nil {
		code = http.StatusGone
		c.Deactivated, c.Reason, c.Successor = goneSince(d), d.Reason, d.Successor
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
		if c.Deactivated != "" {
			b.WriteString("deactivated: " + c.Deactivated + "\r\nreason: " + oneLine(c.Reason) + "\r\n")
			if c.Successor != "" {
				b.WriteString("successor: " + c.Successor + "\r\n")
			}
		}
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
		w.WriteHeader(code)
		w.Write([]byte(b.String()))
	case "text/html":
		// The lookup page shows a record best; it is the same data.
		http.Redirect(w, r, "/?urn="+urlQueryEscape(a.name.String()), http.StatusSeeOther)
	default:
		h.Set("Content-Type", "application/json")
		var j []byte
		if a.svc == N2Cs {
			j, _ = json.Marshal([]urc{c})
		} else {
			j, _ = json.Marshal(c)
		}
		w.WriteHeader(code)
		w.Write(append(j, '\n'))
	}
}

func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

func writeText(w http.ResponseWriter, cache, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", cache)
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write([]byte(body))
}
