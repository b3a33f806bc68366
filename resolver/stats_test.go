package resolver

import (
	"context"
	"encoding/json"
	"reflect"
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

// TestResolutionStatsPerRegistrar counts the resolutions of the URNs
// under a registrar's prefix apart, in /admin/stats and /metrics; a
// registrar's token sees its own counts only; a registrar added while
// the server counts is counted apart from then on.
func TestResolutionStatsPerRegistrar(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		e := newEnv(t, dsn, Config{})
		a := AuditEntry{At: time.Now().UTC(), Actor: "test", Client: "local"}
		if _, err := e.store.AddRegistrar(ctx, "aba001", "nbn:cz:aba001-", []string{"registrar"}, a); err != nil {
			t.Fatal(err)
		}
		csv := "urn,url\nurn:nbn:cz:aba001-000001,https://k.example/1\nurn:nbn:cz:xyz001-000001,https://x.example/1\nurn:nbn:cz:xyz002-000001,https://y.example/1\n"
		if _, err := Import(ctx, e.store, strings.NewReader(csv), FormatCSV, ImportOptions{Audit: a}); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"urn:nbn:cz:aba001-000001", "URN:NBN:CZ:ABA001-000001", "urn:nbn:cz:aba001-000001", "urn:nbn:cz:xyz001-000001", "urn:nbn:cz:xyz002-000001"} {
			e.get("/uri-res/N2L?" + q)
		}
		// Added now: counted apart from its next resolution on.
		if _, err := e.store.AddRegistrar(ctx, "xyz002", "nbn:cz:xyz002-", []string{"registrar"}, a); err != nil {
			t.Fatal(err)
		}
		e.get("/uri-res/N2L?urn:nbn:cz:xyz002-000001")

		stats := func(tok string) map[string]int64 {
			r := e.do("GET", "/admin/stats", map[string]string{"Authorization": "Bearer " + tok}, "")
			if r.code != 200 {
				t.Fatalf("/admin/stats: %d %s", r.code, r.body)
			}
			var v struct{ Resolutions []NamespaceCount }
			if err := json.Unmarshal([]byte(r.body), &v); err != nil {
				t.Fatal(err)
			}
			out := map[string]int64{}
			for _, c := range v.Resolutions {
				out[c.NID+"/"+c.Registrar] += c.N
			}
			return out
		}
		want := map[string]int64{"nbn/aba001": 3, "nbn/": 2, "nbn/xyz002": 1}
		if got := stats(e.token("nbn")); !reflect.DeepEqual(got, want) {
			t.Errorf("stats: %v, want %v", got, want)
		}
		rtok, _, err := e.store.CreateRegistrarToken(ctx, "aba001", "", a)
		if err != nil {
			t.Fatal(err)
		}
		if got := stats(rtok); !reflect.DeepEqual(got, map[string]int64{"nbn/aba001": 3}) {
			t.Errorf("stats of aba001's token: %v", got)
		}
		m := e.get("/metrics").body
		for _, line := range []string{`urnresolver_resolutions_total{namespace="nbn"} 2`,
			`urnresolver_resolutions_total{namespace="nbn",registrar="aba001"} 3`,
			`urnresolver_resolutions_total{namespace="nbn",registrar="xyz002"} 1`} {
			if !strings.Contains(m, line+"\n") {
				t.Errorf("/metrics lacks %s", line)
			}
		}
	})
}
