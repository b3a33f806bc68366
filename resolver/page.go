package resolver

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

//go:embed web
var webFS embed.FS

var pageTemplate = template.Must(template.ParseFS(webFS, "web/page.html"))

// pageCSP allows the page its own script and style and nothing else: no
// inline script, no third-party origin, no framing.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

type pageError struct {
	Reason, Component, Dialect string
	Offset                     int
	Before, At, After          string
}

type pageGone struct{ Date, Reason, Successor string }

// pageLink is a step of a deactivated record's chain of successors.
type pageLink struct {
	URN   string
	State string // "active", "deactivated", "no record"
}

type metaLine struct{ Name, Value string }

type pageData struct {
	Input          string
	Error          *pageError
	Suggest        string // the URN a bare identifier most likely means
	Title          string // the record's title, its heading
	Name           bool
	Found          bool
	Gone           *pageGone // the record is deactivated
	Canonical      string
	Registered     string // the URN as its record was registered
	Key            string
	Display        string
	NamespaceRules string
	NamespaceNote  string
	URLs           []string
	Metadata       []metaLine
	Synonyms       []string
	Warnings       []string
	Service        string
	Q, R, F        string
	Links          map[string]string
	Registrar      *Registrar // the registrar whose prefix holds the URN
	Chain          []pageLink // a deactivated record's successors, in order
	ChainMore      bool       // the chain goes on past maxChain
}

// servePage renders the lookup page, "/?urn=...". With "part=result" it
// renders only the result section, for the page's script.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := pageData{Input: strings.ToValidUTF8(q.Get("urn"), "\uFFFD")}
	code := http.StatusOK
	if raw := strings.TrimSpace(q.Get("urn")); raw != "" {
		code = s.lookupForPage(r, raw, &d)
		if code == http.StatusServiceUnavailable {
			s.storeFailed(w, r, "page", errors.New("lookup failed"))
			return
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	name := "page"
	if q.Get("part") == "result" {
		name = "result"
	}
	var buf bytes.Buffer
	if err := pageTemplate.ExecuteTemplate(&buf, name, d); err != nil {
		s.log.Error("page template", "err", err)
		writeProblem(w, newProblem(probStore, http.StatusInternalServerError, "the page could not be rendered"))
		return
	}
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// lookupForPage fills d for the URN raw and returns the status code.
func (s *Server) lookupForPage(r *http.Request, raw string, d *pageData) int {
	if len(raw) > maxOperand {
		d.Error = &pageError{Reason: "longer than the limit", Dialect: "any"}
		return http.StatusRequestURITooLong
	}
	n, err := s.v.dialects.ParseRequest(raw)
	if err != nil {
		var ne *NameError
		if !errors.As(err, &ne) {
			ne = &NameError{Input: raw, Reason: err.Error()}
		}
		pe := &pageError{Reason: ne.Reason, Component: ne.Component, Dialect: ne.Dialect, Offset: ne.Offset}
		off := min(max(ne.Offset, 0), len(raw))
		pe.Before = strings.ToValidUTF8(raw[:off], "\uFFFD")
		if off < len(raw) {
			pe.At = strings.ToValidUTF8(raw[off:off+1], "\uFFFD")
			pe.After = strings.ToValidUTF8(raw[off+1:], "\uFFFD")
		} else {
			pe.At = " "
		}
		d.Error = pe
		d.Suggest = s.v.dialects.Suggest(raw)
		return http.StatusBadRequest
	}
	d.Name = true
	d.Canonical, d.Key = n.Canonical(), n.Key()
	d.Display, d.Warnings = n.Display()
	d.Warnings = append(d.Warnings, n.Warnings()...)
	d.NamespaceRules = namespaceRules(n.NID())
	d.Service, _ = n.Service()
	d.Q, _ = n.QComponent()
	d.R, _ = n.RComponent()
	d.F, _ = n.FComponent()
	// Links carry what a resolver may receive: the assigned name and the
	// q-component; the f-component stays with the client.
	operand := n.Canonical()
	if d.Q != "" {
		operand += "?=" + d.Q
		if n.Dialect() == "draft2015" {
			operand = n.Canonical() + "?" + d.Q
		}
	}
	d.Links = map[string]string{}
	for _, svc := range []string{"N2L", "N2Ls", "N2C", "N2Ns"} {
		d.Links[svc] = "/uri-res/" + svc + "?" + operand
	}
	a, err := s.describe(r.Context(), n)
	if err != nil {
		return http.StatusServiceUnavailable
	}
	d.Synonyms = a.list
	if err := s.store.lineage(r.Context(), n.Key(), a.kind == answerGone, d); err != nil {
		return http.StatusServiceUnavailable
	}
	switch a.kind {
	case answerNotFound:
		if err := n.ValidateNamespace(); err != nil {
			d.NamespaceNote = err.Error()
		}
		if len(d.Synonyms) == 0 {
			return http.StatusNotFound
		}
		return http.StatusOK
	case answerGone:
		g := a.gone
		d.Gone = &pageGone{Date: g.At.Format("2 January 2006"), Reason: g.Reason, Successor: g.Successor}
	}
	rec := a.record
	d.Found = true
	d.Registered = rec.URN
	d.URLs = rec.URLs
	d.Metadata = metadataLines(rec.Metadata)
	d.Title = recordTitle(rec.Metadata)
	if d.Gone != nil {
		// Never unknown: the page says what the URN was, and that it is
		// gone, as the resolution services do (410).
		return http.StatusGone
	}
	return http.StatusOK
}

// recordTitle returns the "title" member of a record's metadata when it
// is a string, as the page's heading: a librarian looks for the work,
// the URN is below it.
func recordTitle(raw string) string {
	var m struct {
		Title json.RawMessage `json:"title"`
	}
	var t string
	if json.Unmarshal([]byte(raw), &m) != nil || json.Unmarshal(m.Title, &t) != nil {
		return ""
	}
	return strings.TrimSpace(t)
}

// metadataLines turns a metadata object into name/value lines, sorted by
// name; values that are not strings are shown as JSON.
func metadataLines(raw string) []metaLine {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &m) != nil {
		return nil
	}
	out := make([]metaLine, 0, len(m))
	for k, v := range m {
		var str string
		if json.Unmarshal(v, &str) != nil {
			str = string(v)
		}
		out = append(out, metaLine{Name: k, Value: str})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// serveStatic serves a file of the page: its script or its style sheet.
func (s *Server) serveStatic(name, ctype string) http.HandlerFunc {
	b, err := webFS.ReadFile(name)
	if err != nil {
		panic(err) // the files are embedded
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(b)
	}
}
