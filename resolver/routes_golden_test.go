package resolver

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var updateRoutes = flag.Bool("update-routes", false, "rewrite testdata/routes.golden from the server's answers")

// routeTargets are raw request targets: every fixed route, the roots of
// the subtrees without their slash, percent-encoded and dot-segment
// forms, and paths that are none of them.
var routeTargets = []string{
	"/", "/?urn=urn:example:a", "/index.html", "//", "/.", "/..",
	"/healthz", "/healthz/", "/health%7Az", "/readyz", "/metrics", "/metrics/x",
	"/static", "/static/", "/static/lookup.js", "/static/lookup.css", "/static/x.js", "/static/../healthz",
	"/uri-res", "/uri-res/", "/uri-res/N2L?urn:example:a", "/uri-res/N2L", "/uri-res/I=I?urn:example:a&urn:example:b",
	"/uri-res/N%3DN?urn:example:a&urn:example:b", "/uri-res/X2Y?urn:example:a", "/uri-res/N2L/x?urn:example:a",
	"/uri-res//N2L?urn:example:a", "/uri-res/../healthz", "/%75ri-res/N2L?urn:example:a", "/uri-res/N%32L?urn:example:a",
	"/urn:example:a", "/URN:example:a", "/urn:example:a?s=N2C", "/urn:example:a/../b", "/urn:example:a//b", "/urn:",
	"/urn:example:a?+s=I2Ls", "/urn:example:%2e%2e",
	"/9780262033848", "/isbn%20978-0-262-03384-8",
	"/admin", "/admin/", "/admin/x", "/admin//records", "/admin/records", "/admin/records/", "/admin/records?x",
	"/admin/records/urn:example:a", "/admin/records/urn:example:a?x", "/admin/records/urn:example:a/../b",
	"/admin/records/../healthz", "/admin/records//urn:example:a", "/admin/Records/urn:example:a", "/%61dmin/records",
	"/admin/deactivations", "/admin/deactivations/", "/admin/deactivations/urn:example:a",
	"/admin/import", "/admin/import/", "/admin/audit", "/admin/audit?limit=0", "/admin/audit?limit=1", "/admin/tokens",
}

var routeMethods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "get"}

// TestRoutesGolden answers every method on every route target, with and
// without a token, and compares status, problem type, Allow and
// Location with testdata/routes.golden: the routes of the hand-written
// switch, kept exactly by the ServeMux patterns (issue 31).
func TestRoutesGolden(t *testing.T) {
	var log syncLog
	e := newEnv(t, filepath.Join(t.TempDir(), "r.db"), Config{WriteRate: -1, AccessLog: true,
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	tok := e.token("example")
	e.mustPut(tok, "urn:example:a", Record{URLs: []string{"https://a.example/"}})
	var b strings.Builder
	for _, auth := range []bool{false, true} {
		for _, target := range routeTargets {
			for _, m := range routeMethods {
				h := map[string]string{}
				body := ""
				if auth {
					h["Authorization"] = "Bearer " + tok
					h["Content-Type"] = "application/json"
					body = "{}"
				}
				r := e.do(m, target, h, body)
				typ := ""
				if r.header.Get("Content-Type") == "application/problem+json" && m != "HEAD" {
					p := problemOf(t, r)
					typ = strings.TrimPrefix(p.Type, ProblemBase)
				} else if ct := r.header.Get("Content-Type"); ct != "" {
					typ = "(" + ct + ")"
				}
				// The metrics label, from the access log's line.
				service := ""
				if _, v, ok := strings.Cut(log.last(), " service="); ok {
					service, _, _ = strings.Cut(v, " ")
				}
				fmt.Fprintf(&b, "%v %s %s -> %d %s allow=%q location=%q service=%s\n", auth, m, target, r.code, typ,
					r.header.Get("Allow"), r.header.Get("Location"), service)
			}
		}
	}
	golden := filepath.Join("testdata", "routes.golden")
	if *updateRoutes {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != w {
			g := ""
			if i < len(got) {
				g = got[i]
			}
			t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
}

// syncLog keeps the last line written to it.
type syncLog struct {
	mu   sync.Mutex
	line string
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.line = string(p)
	return len(p), nil
}

func (l *syncLog) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.line
}
