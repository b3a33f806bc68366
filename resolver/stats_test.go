package resolver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestResolutionStats counts resolutions per namespace and day: those of
// URNs with a record (active or deactivated), whatever the service or
// the form of the URN, and not the misses; two servers on one database
// add up; /admin/stats shows a token its namespaces only; /metrics
// shows this server's counts.
func TestResolutionStats(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		if err := e.store.Cache(context.Background(), CacheOptions{}); err != nil {
			t.Fatal(err)
		}
		tok := e.token("nbn", "isbn")
		nbnOnly := e.token("nbn")
		e.mustPut(tok, "urn:nbn:no-1", Record{URLs: []string{"https://nb.example/1"}})
		e.mustPut(tok, "urn:nbn:no-2", Record{URLs: []string{"https://nb.example/2"}})
		e.mustPut(tok, "urn:isbn:978-3-16-148410-0", Record{URLs: []string{"https://books.example/1"}})
		if r := e.do("DELETE", "/admin/records/urn:nbn:no-2", map[string]string{"Authorization": "Bearer " + tok}, ""); r.code != 204 {
			t.Fatalf("DELETE: %d", r.code)
		}
		for _, q := range []string{
			"/uri-res/N2L?urn:nbn:no-1", "/uri-res/N2L?urn:nbn:no-1", "/uri-res/N2L?URN:NBN:NO-1", // cached after the first
			"/urn:nbn:no-1", "/uri-res/N2C?urn:nbn:no-1", "/uri-res/N2Ls?urn:nbn:no-1",
			"/uri-res/N2L?urn:nbn:no-2", // gone: counted
			"/uri-res/N2L?urn:isbn:9783161484100",
			"/uri-res/N2L?urn:nbn:no-404", "/uri-res/N2L?urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66", "/uri-res/N2L?not-a-urn", // misses: not counted
		} {
			e.get(q)
		}
		// A second server on the same database.
		st2 := openTestStore(t, dsn)
		srv2, err := New(Config{Store: st2})
		if err != nil {
			t.Fatal(err)
		}
		if a, err := srv2.resolve(context.Background(), N2L, "urn:nbn:no-1"); err != nil || a.kind != answerLocations {
			t.Fatalf("second server: %v %v", a.kind, err)
		}
		if err := st2.Close(); err != nil { // flushes
			t.Fatal(err)
		}

		day := time.Now().UTC().Format(time.DateOnly)
		stats := func(tok string) map[string]int64 {
			r := e.do("GET", "/admin/stats", map[string]string{"Authorization": "Bearer " + tok}, "")
			if r.code != 200 {
				t.Fatalf("/admin/stats: %d %s", r.code, r.body)
			}
			var v struct {
				Since       string
				Resolutions []NamespaceCount
			}
			if err := json.Unmarshal([]byte(r.body), &v); err != nil {
				t.Fatal(err)
			}
			out := map[string]int64{}
			for _, c := range v.Resolutions {
				if c.Day != day && c.Day != time.Now().UTC().Format(time.DateOnly) {
					t.Errorf("count of day %s", c.Day)
				}
				out[c.NID] += c.N
			}
			return out
		}
		if got := stats(tok); got["nbn"] != 8 || got["isbn"] != 1 || len(got) != 2 {
			t.Errorf("stats: %v, want nbn 8 (7 here, 1 on the second server), isbn 1", got)
		}
		// Counted once: a second read adds nothing.
		if got := stats(nbnOnly); got["nbn"] != 8 || len(got) != 1 {
			t.Errorf("stats of an nbn token: %v", got)
		}
		m := e.get("/metrics").body
		for _, want := range []string{`urnresolver_resolutions_total{namespace="nbn"} 7`, `urnresolver_resolutions_total{namespace="isbn"} 1`,
			`urnresolver_resolutions_day{namespace="nbn",day="` + day + `"} 7`} {
			if !strings.Contains(m, want) && !strings.Contains(m, strings.Replace(want, day, time.Now().UTC().Format(time.DateOnly), 1)) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
		if r := e.do("GET", "/admin/stats", nil, ""); r.code != 401 {
			t.Errorf("/admin/stats without a token: %d", r.code)
		}
		if r := e.do("GET", "/admin/stats?since=yesterday", map[string]string{"Authorization": "Bearer " + tok}, ""); r.code != 400 {
			t.Errorf("/admin/stats?since=yesterday: %d", r.code)
		}
	})
}
