package resolver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// fuzzServer is one server for all fuzz inputs, with a few records.
func fuzzServer(f *testing.F) (srv *Server, st *Store, count int) {
	ctx := context.Background()
	st = openTestStore(f, f.TempDir()+"/fuzz.db")
	{
		in := `{"urn":"urn:example:a","urls":["https://a.example/1?x=y","https://a.example/2"],"metadata":{"t":"A"},"synonyms":["urn:example:b"]}
{"urn":"urn:isbn:0-395-36341-1","urls":["http://books.example/h"]}
{"urn":"urn:nbn:de:101:1-2","urls":["https://d-nb.example/x"]}
{"urn":"urn:example:empty"}
{"urn":"urn:example:old","urls":["https://a.example/old"]}`
		if _, err := Import(ctx, st, strings.NewReader(in), FormatJSONL, ImportOptions{Audit: AuditEntry{At: time.Now()}}); err != nil {
			f.Fatal(err)
		}
		// A deactivated URN whose successor is urn:example:a, and the
		// answer cache, so that their paths are fuzzed too.
		d := Deactivation{Reason: "withdrawn\r\n<b>", Successor: "urn:example:a"}
		if err := st.db.Deactivate(ctx, store.Target{Key: "urn:example:old", URN: "urn:example:old"}, d, "urn:example:a", AuditEntry{At: time.Now()}); err != nil {
			f.Fatal(err)
		}
		if err := st.Cache(ctx, CacheOptions{Entries: 100}); err != nil {
			f.Fatal(err)
		}
	}
	count, _ = st.db.Count(ctx)
	srv, err := New(Config{Store: st, WriteRate: -1})
	if err != nil {
		f.Fatal(err)
	}
	return srv, st, count
}

// FuzzHandler feeds the handler arbitrary request lines and headers, as
// the HTTP server would parse them from the wire, and checks what must
// hold for every request: no panic and no 500, errors as problem+json
// (or the lookup page's HTML), redirects only to stored http(s)
// locations (no open redirect, whatever the URN, directives, r-, q- or
// f-component), and no write without a token.
func FuzzHandler(f *testing.F) {
	srv, fuzzStore, fuzzCount := fuzzServer(f)
	for _, seed := range [][4]string{
		{"GET", "/uri-res/N2L?urn:example:a", "", ""},
		{"GET", "/uri-res/I2Ls?URN:EXAMPLE:a?=q=1", "text/html", ""},
		{"GET", "/urn:example:a?s=I2C&c=ToC", "text/plain", ""},
		{"GET", "/urn:example:a?+s=N2Ns?=p", "", ""},
		{"GET", "/uri-res/I=I?urn:example:a&urn:example:b", "", ""},
		{"GET", "/uri-res/L2Ns?https://a.example/2", "application/json", ""},
		{"GET", "/urn:isbn:0395363411", "", ""},
		{"GET", "/?urn=urn:nbn:DE:101:1-2%23f&part=result", "", ""},
		{"GET", "/uri-res/N2L?urn:example:%00", "", ""},
		{"PUT", "/admin/records/urn:example:a", "", "Bearer urt_0123456789abcdef_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{"DELETE", "/admin/records/urn:example:a", "", ""},
		{"POST", "/admin/import", "", "Bearer x"},
		{"GET", "/urn:example:a?=%0D%0ALocation:x", "", ""},
		{"GET", "/../urn:example:a", "", ""},
		{"HEAD", "/metrics", "", ""},
		{"GET", "/uri-res/N2L?urn:example:old?=x", "", ""},
		{"GET", "/uri-res/N2C?urn:example:old", "text/plain", ""},
		{"GET", "/?urn=urn:example:old", "", ""},
		{"DELETE", "/admin/deactivations/urn:example:old", "", "Bearer x"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, method, target, accept, auth string) {
		raw := method + " " + target + " HTTP/1.1\r\nHost: fuzz\r\n"
		if accept != "" {
			raw += "Accept: " + accept + "\r\n"
		}
		if auth != "" {
			raw += "Authorization: " + auth + "\r\n"
		}
		raw += "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			return // the server would refuse it before the handler
		}
		req.RemoteAddr = "127.0.0.1:1"
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		code := w.Code
		ct := w.Header().Get("Content-Type")
		if code >= 500 {
			t.Fatalf("%q: %d %s", raw, code, w.Body.String())
		}
		if code >= 300 && code < 400 {
			loc := w.Header().Get("Location")
			if !strings.HasPrefix(loc, "https://a.example/") && !strings.HasPrefix(loc, "http://books.example/h") &&
				!strings.HasPrefix(loc, "https://d-nb.example/x") && !strings.HasPrefix(loc, "/?urn=") &&
				!strings.HasPrefix(loc, "/uri-res/N2L?urn:example:a") && !strings.HasPrefix(loc, "/uri-res/N2R?urn:example:a") {
				t.Fatalf("%q: %d to %q", raw, code, loc)
			}
			if strings.ContainsAny(loc, "\r\n") {
				t.Fatalf("%q: Location %q", raw, loc)
			}
		}
		// N2C of a deactivated URN answers 410 with the record.
		gone := code == http.StatusGone && (ct == "application/json" || strings.HasPrefix(ct, "text/plain"))
		if code >= 400 && !strings.HasPrefix(ct, "text/html") && !gone {
			if ct != "application/problem+json" {
				t.Fatalf("%q: %d with Content-Type %q", raw, code, ct)
			}
			var p Problem
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Status != code {
				t.Fatalf("%q: problem %q: %v", raw, w.Body.String(), err)
			}
		}
		if method != "GET" && method != "HEAD" && code < 300 {
			t.Fatalf("%q: a %s without a valid token got %d", raw, method, code)
		}
		if n, _ := fuzzStore.db.Count(context.Background()); n != fuzzCount {
			t.Fatalf("%q: %d records, want %d", raw, n, fuzzCount)
		}
	})
}
