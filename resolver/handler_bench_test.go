package resolver

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkN2LHandler measures the handler alone, without sockets: the
// resolver's own cost of an N2L answer, with the answer cache (cached)
// and without it (store), beside a bare handler that writes the same
// 303 (bare). The load benchmark (cmd/urnresolver) measures the server.
func BenchmarkN2LHandler(b *testing.B) {
	ctx := context.Background()
	st := openTestStore(b, filepath.Join(b.TempDir(), "bench.db"))
	var csv strings.Builder
	csv.WriteString("urn,url\n")
	const n = 10000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&csv, "urn:nbn:no-nb_digibok_%08d,https://www.nb.example/items/%d\n", i, i)
	}
	if _, err := Import(ctx, st, strings.NewReader(csv.String()), FormatCSV, ImportOptions{}); err != nil {
		b.Fatal(err)
	}
	srv, err := New(Config{Store: st})
	if err != nil {
		b.Fatal(err)
	}
	reqs := make([]*http.Request, n)
	for i := range reqs {
		reqs[i] = httptest.NewRequest("GET", fmt.Sprintf("/uri-res/N2L?urn:nbn:no-nb_digibok_%08d", i), nil)
	}
	run := func(b *testing.B, h http.Handler) { serveLoop(b, h, reqs, http.StatusSeeOther) }
	b.Run("store", func(b *testing.B) { run(b, srv) })
	if err := st.Cache(ctx, CacheOptions{Preload: true}); err != nil {
		b.Fatal(err)
	}
	b.Run("cached", func(b *testing.B) { run(b, srv) })
	b.Run("bare", func(b *testing.B) {
		run(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h["Location"] = []string{"https://www.nb.example/items/1"}
			h["Cache-Control"] = []string{"public, max-age=60"}
			w.WriteHeader(http.StatusSeeOther)
		}))
	})
}

// serveLoop answers reqs in turn with h until the benchmark ends, each
// with the status want.
func serveLoop(b *testing.B, h http.Handler, reqs []*http.Request, want int) {
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		clear(w.h)
		w.code = 0
		h.ServeHTTP(w, reqs[i%len(reqs)])
		if w.code != want {
			b.Fatalf("status %d", w.code)
		}
	}
}

type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }

// BenchmarkAdminHandler measures the admin API's handlers alone: a read
// of a record as stored (get), and a write that replaces one (put),
// through routing, the token, validation, the records layer and the
// store (on SQLite, with its fsync per commit).
func BenchmarkAdminHandler(b *testing.B) {
	st := openTestStore(b, filepath.Join(b.TempDir(), "bench.db"))
	srv, err := New(Config{Store: st, WriteRate: -1})
	if err != nil {
		b.Fatal(err)
	}
	sc, _ := ParseScope("nbn")
	tok, _, err := st.CreateToken(context.Background(), []Scope{sc}, "bench", AuditEntry{At: time.Now()})
	if err != nil {
		b.Fatal(err)
	}
	const n = 100
	put := func(i int) *http.Request {
		body := fmt.Sprintf(`{"urls":["https://www.nb.example/items/%d"],"metadata":{"title":"Item %d"}}`, i, i)
		r := httptest.NewRequest("PUT", fmt.Sprintf("/admin/records/urn:nbn:no-nb_digibok_%08d", i%n), strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+tok)
		r.Header.Set("Content-Type", "application/json")
		return r
	}
	w := &discardWriter{h: http.Header{}}
	for i := 0; i < n; i++ {
		srv.ServeHTTP(w, put(i))
	}
	b.Run("get", func(b *testing.B) {
		reqs := make([]*http.Request, n)
		for i := range reqs {
			reqs[i] = httptest.NewRequest("GET", fmt.Sprintf("/admin/records/urn:nbn:no-nb_digibok_%08d", i), nil)
		}
		serveLoop(b, srv, reqs, http.StatusOK)
	})
	b.Run("put", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			r := put(i)
			clear(w.h)
			w.code = 0
			srv.ServeHTTP(w, r)
			if w.code != http.StatusOK {
				b.Fatalf("status %d", w.code)
			}
		}
	})
}
