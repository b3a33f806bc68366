package resolver

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ServeHTTP answers a request by its route (routes.go), after refusing
// a request whose framing is ambiguous (framing.go), and counts it in
// the metrics by the label its route gives it.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &statusWriter{ResponseWriter: rw}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic in handler", "panic", fmt.Sprint(v), "method", r.Method, "target", truncate(r.RequestURI, 200))
			if w.code == 0 {
				writeProblem(w, newProblem(probStore, http.StatusInternalServerError, "internal error"))
			}
		}
		code := int(w.code)
		if code == 0 {
			code = http.StatusOK
		}
		d := time.Since(start)
		s.metrics.observe(w.label.String(), code, d)
		if s.access {
			s.log.Info("request", "method", r.Method, "target", truncate(r.RequestURI, 300), "service", w.label.String(),
				"status", code, "duration", d, "client", clientOf(r))
		}
	}()

	if smuggled(r) {
		w.label = labelFraming
		w.Header().Set("Connection", "close")
		writeProblem(w, newProblem(probBadRequest, http.StatusBadRequest,
			"the request has both Content-Length and Transfer-Encoding (RFC 9112 section 6.3); the connection is closed"))
		return
	}
	s.handler(r).ServeHTTP(w, r)
}

// statusWriter remembers the status code and the route's label for
// metrics and logs. It is allocated for every request, so it is kept to
// the size of an interface and a word.
type statusWriter struct {
	http.ResponseWriter
	code  int32
	label label
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = int32(code)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// routes returns the server's routes: every fixed path a pattern of
// http.ServeMux (Go 1.22), with its method. Beside each, a pattern
// without a method answers the other methods 405 with the path's Allow
// and a problem, and "/" takes every other path (404): so the mux never
// writes an answer of its own, and never redirects (the roots of the
// subtrees are routes too). The path form "GET /<URN>" is handler's.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	var fixed []string // the paths of GET patterns without wildcards
	get := func(pattern string, label label, h http.HandlerFunc) {
		mux.Handle("GET "+pattern, labeled(label, h))
		mux.Handle(pattern, labeled(label, onlyGET))
		fixed = append(fixed, pattern)
	}
	mux.Handle("GET /{$}", labeled(labelPage, s.servePage))
	mux.Handle("/{$}", labeled(labelPage, onlyGET))
	fixed = append(fixed, "/")
	get("/healthz", labelHealthz, s.serveHealth)
	get("/readyz", labelReadyz, s.serveReady)
	get("/metrics", labelMetrics, s.serveMetrics)
	get("/static/lookup.js", labelStatic, s.serveStatic("web/lookup.js", "text/javascript; charset=utf-8"))
	get("/static/lookup.css", labelStatic, s.serveStatic("web/lookup.css", "text/css; charset=utf-8"))
	mux.Handle("/static/", labeled(labelStatic, func(w http.ResponseWriter, r *http.Request) {
		methodsOr(w, r, func() { writeProblem(w, newProblem(probNoSuchPath, http.StatusNotFound, "no such file")) })
	}))

	// RFC 2169 section 2: "GET /uri-res/<service>?<URN>", one route
	// per spelling; "/uri-res/" takes the others, and percent-encoded
	// ones (the "=" of "I%3DI").
	for _, name := range ServiceNames() {
		svc, _ := ServiceByName(name)
		mux.Handle("GET /uri-res/"+name, labeled(serviceLabel(svc), func(w http.ResponseWriter, r *http.Request) {
			s.resolveTHTTP(w, r, svc)
		}))
		fixed = append(fixed, "/uri-res/"+name)
	}
	mux.HandleFunc("/uri-res/", s.serveService)

	// OAI-PMH 2.0 (oai.go): GET and POST (section 3.1.1).
	mux.Handle("GET /oai", labeled(labelOAI, s.serveOAI))
	fixed = append(fixed, "/oai")
	mux.Handle("POST /oai", labeled(labelOAI, s.serveOAI))
	mux.Handle("/oai", labeled(labelOAI, notAllowed("GET, HEAD, POST", "OAI-PMH requests are GET or POST")))

	// The admin API (admin.go); writes are rate-limited before anything
	// else is looked at.
	admin := func(pattern string, h http.HandlerFunc) {
		mux.Handle(pattern, labeled(labelAdmin, s.limitWrites(h)))
	}
	admin("POST /admin/records", s.adminCreate)
	admin("/admin/records", notAllowed("POST", "use POST /admin/records, or PUT /admin/records/<URN>"))
	admin("GET /admin/records/{urn...}", s.adminGet)
	admin("PUT /admin/records/{urn...}", s.adminPut)
	admin("DELETE /admin/records/{urn...}", s.adminDelete)
	admin("/admin/records/{urn...}", func(w http.ResponseWriter, r *http.Request) {
		notAllowed("GET, HEAD, PUT, DELETE", r.Method+" is not allowed on a record")(w, r)
	})
	admin("PUT /admin/deactivations/{urn...}", s.adminDeactivate)
	admin("DELETE /admin/deactivations/{urn...}", s.adminReactivate)
	admin("/admin/deactivations/{urn...}", func(w http.ResponseWriter, r *http.Request) {
		notAllowed("PUT, DELETE", r.Method+" is not allowed on a deactivation: PUT deactivates, DELETE reactivates; GET /admin/records/<URN> shows it")(w, r)
	})
	admin("POST /admin/import", s.adminImport)
	admin("/admin/import", notAllowed("POST", "use POST /admin/import"))
	// Registrars (admin_registrars.go).
	admin("POST /admin/registrars", s.adminAddRegistrar)
	admin("GET /admin/registrars", s.adminRegistrars)
	admin("/admin/registrars", notAllowed("GET, HEAD, POST", "use GET /admin/registrars, or POST to add one"))
	admin("GET /admin/registrars/{code}", s.adminRegistrar)
	admin("/admin/registrars/{code}", onlyGET)
	admin("POST /admin/registrars/{code}/urns", s.adminMint)
	admin("/admin/registrars/{code}/urns", notAllowed("POST", "use POST: it mints the next URN (a record without urn) or registers the registrar's own"))
	admin("POST /admin/registrars/{code}/reservations", s.adminReserve)
	admin("/admin/registrars/{code}/reservations", notAllowed("POST", "use POST /admin/registrars/<code>/reservations?count=N"))
	admin("GET /admin/audit", s.adminAudit)
	admin("GET /admin/stats", s.adminStats)
	admin("/admin/stats", onlyGET)
	admin("/admin/audit", onlyGET)
	admin("/admin", s.adminNotFound)
	admin("/admin/", s.adminNotFound)
	admin("/admin/deactivations", s.adminNotFound)

	s.other, s.pathForm = http.HandlerFunc(s.serveOther), http.HandlerFunc(s.servePathForm)
	mux.Handle("/", s.other)
	mux.Handle("/static", s.other)
	mux.Handle("/uri-res", s.other)

	// The mux's answers for the fixed paths of GET, asked once here
	// rather than at every request: its tree walk costs a cached N2L
	// answer about a tenth of its time.
	s.fixed = make(map[string]http.Handler, len(fixed))
	for _, p := range fixed {
		s.fixed[p], _ = mux.Handler(&http.Request{Method: http.MethodGet, URL: &url.URL{Path: p}})
	}
	return mux
}

// handler returns the route of r. The routing reads the raw request
// target, not a cleaned path: a URN is opaque, so "/urn:x:a/../b" names
// the URN "urn:x:a/../b" (RFC 8141 section 2: "/" is an NSS character
// and no dot segments are removed), and nothing here maps a path to a
// file. So the path form "/<URN>" is no pattern (a URN holds "/"): it is
// every path that starts "/urn:". The mux, which cleans paths, redirects
// unclean ones and decodes percent-encoding in segments, is asked about
// the raw path itself when it has none of those (plainPath), and else
// about one in which the dot segments, empty segments and percent signs
// are encoded: it then matches exactly the routes the raw path names,
// and the handlers read the raw target again (splitTarget).
func (s *Server) handler(r *http.Request) http.Handler {
	path, _, _ := splitTarget(r)
	switch {
	case !strings.HasPrefix(path, "/"):
		// The asterisk form "*" or the authority form of CONNECT.
		return s.other
	case len(path) > 5 && strings.EqualFold(path[1:5], "urn:"):
		return s.pathForm
	}
	rr := r
	if plainPath(path) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if h, ok := s.fixed[path]; ok {
				return h
			}
		}
	} else {
		route := routePath(path)
		u, _ := url.PathUnescape(route)
		rr = &http.Request{Method: r.Method, Host: r.Host, URL: &url.URL{Path: u, RawPath: route}}
	}
	h, pattern := s.mux.Handler(rr)
	if pattern == "" {
		// The mux's own 404 or 405, which "/" and the patterns without
		// a method leave it no occasion for.
		return s.other
	}
	return h
}

// plainPath reports whether the mux reads path as it is: no percent
// sign, no empty segment, no dot segment.
func plainPath(path string) bool {
	for i := 1; i < len(path); i++ {
		switch path[i] {
		case '%':
			return false
		case '/':
			if path[i-1] == '/' {
				return false
			}
		case '.':
			if path[i-1] == '/' && (i+1 == len(path) || path[i+1] == '/' ||
				path[i+1] == '.' && (i+2 == len(path) || path[i+2] == '/')) {
				return false
			}
		}
	}
	return true
}

// routePath encodes the raw path so that the mux's reading of it
// (cleaning, then decoding each segment) gives back its segments as they
// are: "%" is "%25", a dot segment is "%2E" or "%2E%2E", an empty
// segment before the last is "%2F", and every byte that is not a pchar
// (RFC 3986 section 3.3) is percent-encoded.
func routePath(path string) string {
	segs := strings.Split(path[1:], "/")
	var b strings.Builder
	for i, seg := range segs {
		b.WriteByte('/')
		switch {
		case seg == "" && i < len(segs)-1:
			b.WriteString("%2F")
		case seg == ".":
			b.WriteString("%2E")
		case seg == "..":
			b.WriteString("%2E%2E")
		default:
			for j := 0; j < len(seg); j++ {
				if c := seg[j]; c != '%' && isPchar(c) {
					b.WriteByte(c)
				} else {
					fmt.Fprintf(&b, "%%%02X", c)
				}
			}
		}
	}
	return b.String()
}

// isPchar reports whether c may stand unencoded in a path segment:
// unreserved, sub-delims, ":" or "@" (RFC 3986 section 3.3).
func isPchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0
}

// label names the route of a request in the metrics and the access
// log: the resolution service of a request that names one, else its
// endpoint ("other" when none).
type label uint8

const (
	labelOther label = iota
	labelFraming
	labelPage
	labelHealthz
	labelReadyz
	labelMetrics
	labelStatic
	labelAdmin
	labelOAI
	labelURIRes // a service that is none
	labelPath   // the path form of a URN that does not parse
	labelService
)

var labelNames = [labelService]string{"other", "framing", "page", "healthz", "readyz", "metrics", "static", "admin", "oai", "uri-res", "path"}

// serviceLabel is the label of the requests of svc.
func serviceLabel(svc Service) label { return labelService + label(svc) }

func (l label) String() string {
	if l >= labelService {
		return Service(l - labelService).String()
	}
	return labelNames[l]
}

// labeled sets the metrics label of the requests h answers.
func labeled(label label, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setLabel(w, label)
		h(w, r)
	})
}

// setLabel sets the metrics label of the request w answers.
func setLabel(w http.ResponseWriter, label label) {
	if sw, ok := w.(*statusWriter); ok {
		sw.label = label
	}
}

// notAllowed answers 405 with the Allow header allow.
func notAllowed(allow, detail string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeProblem(w, newProblem(probBadMethod, http.StatusMethodNotAllowed, detail))
	}
}

// onlyGET answers 405 to a method other than GET or HEAD, which the
// route's GET pattern takes.
func onlyGET(w http.ResponseWriter, r *http.Request) {
	notAllowed("GET, HEAD", r.Method+" is not allowed here; use GET or HEAD")(w, r)
}

// methodsOr answers 405 unless the method is GET or HEAD.
func methodsOr(w http.ResponseWriter, r *http.Request, f func()) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		onlyGET(w, r)
		return
	}
	f()
}

// serveService answers "/uri-res/<service>" for a spelling that has no
// route of its own: a percent-encoded one, an unknown one (404), or a
// method other than GET.
func (s *Server) serveService(w http.ResponseWriter, r *http.Request) {
	path, _, _ := splitTarget(r)
	name := strings.TrimPrefix(path, "/uri-res/")
	svc, ok := ServiceByName(unescapeService(name))
	if !ok {
		setLabel(w, labelURIRes)
		methodsOr(w, r, func() {
			writeProblem(w, newProblem(probBadService, http.StatusNotFound,
				fmt.Sprintf("unknown resolution service %q; this resolver answers %s", truncate(name, 40), strings.Join(ServiceNames(), ", "))))
		})
		return
	}
	setLabel(w, serviceLabel(svc))
	methodsOr(w, r, func() { s.resolveTHTTP(w, r, svc) })
}

// servePathForm answers the path form "GET /<URN>": the request target
// after "/" is the URN, its query included.
func (s *Server) servePathForm(w http.ResponseWriter, r *http.Request) {
	path, query, hasQuery := splitTarget(r)
	target := path[1:]
	if hasQuery {
		target += "?" + query
	}
	methodsOr(w, r, func() {
		setLabel(w, labelPath)
		s.resolvePath(w, r, target)
	})
}

// serveOther answers every path without a route: 404, with the URN a
// bare identifier most likely means.
func (s *Server) serveOther(w http.ResponseWriter, r *http.Request) {
	path, _, _ := splitTarget(r)
	setLabel(w, labelOther)
	methodsOr(w, r, func() {
		detail := "nothing here: resolve a URN with GET /uri-res/N2L?urn:... or GET /urn:..., or open / to look one up"
		if sug := s.v.dialects.Suggest(strings.TrimPrefix(path, "/")); sug != "" {
			detail = "nothing here; did you mean /" + sug + "?"
		}
		writeProblem(w, newProblem(probNoSuchPath, http.StatusNotFound, detail))
	})
}

// splitTarget returns the raw path and query of the request target, as
// the client sent them: RFC 2169 section 2 says "%encoded characters in
// the URN will remain in their %encoded state", and percent-encoding is
// significant in a URN's NSS (RFC 8141 section 3.1 compares it, does not
// decode it).
func splitTarget(r *http.Request) (path, query string, hasQuery bool) {
	t := r.RequestURI
	if !strings.HasPrefix(t, "/") {
		// Absolute-form or asterisk-form: use the parsed URL.
		t = r.URL.EscapedPath()
		if r.URL.RawQuery != "" || r.URL.ForceQuery {
			t += "?" + r.URL.RawQuery
		}
	}
	path, query, hasQuery = strings.Cut(t, "?")
	return path, query, hasQuery
}

// unescapeService decodes the "=" of "I=I" and "N=N" that some clients
// percent-encode in the path.
func unescapeService(name string) string {
	if strings.Contains(name, "%") {
		return strings.NewReplacer("%3D", "=", "%3d", "=").Replace(name)
	}
	return name
}

// clientOf returns the client's IP address, the key of write rate
// limiting and the "client" of audit entries. It is the TCP peer: behind
// a proxy every client is the proxy, which then has to limit rates
// itself; trusting X-Forwarded-For would let any client pick its key.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
