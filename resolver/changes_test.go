package resolver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// importCSV imports "urn,url" lines into st, failing the test on error.
func importCSV(t testing.TB, st *Store, lines ...string) {
	t.Helper()
	csv := "urn,url\n" + strings.Join(lines, "\n") + "\n"
	if _, err := Import(context.Background(), st, strings.NewReader(csv), FormatCSV, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond until it holds; the deadline, far beyond the
// staleness bound, only keeps a broken build from hanging.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after 30 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Issue 29.2: another process's or server's writes drop from a server's
// cache only the keys they change, and a token write drops nothing. (The
// cache used to be emptied by any commit of another process.)
func TestCacheSurvivesOtherWriters(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		const n = 1000
		e := newEnv(t, dsn, Config{})
		lines := make([]string, n)
		for i := range lines {
			lines[i] = fmt.Sprintf("urn:example:s%d,https://s.example/%d", i, i)
		}
		importCSV(t, e.store, lines...)
		if err := e.store.Cache(ctx, CacheOptions{Entries: 2 * n, Preload: true}); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := e.store.CacheStats(); got != n {
			t.Fatalf("%d answers preloaded, want %d", got, n)
		}
		// The other writers: a process without a cache (urnresolver
		// token create, urnresolver import) and a second server.
		other := openTestStore(t, dsn)
		second := newEnv(t, dsn, Config{})
		if err := second.store.Cache(ctx, CacheOptions{Entries: 10}); err != nil {
			t.Fatal(err)
		}
		tok := second.token("example") // a token write: no answer changes
		changed := map[string]string{}
		var imp []string
		for i := 0; i < 100; i++ {
			k := i * 7
			changed[fmt.Sprintf("urn:example:s%d", k)] = fmt.Sprintf("https://t.example/%d", k)
			imp = append(imp, fmt.Sprintf("urn:example:s%d,https://t.example/%d", k, k))
		}
		imp = append(imp, "urn:example:new,https://t.example/new") // not cached
		importCSV(t, other, imp...)
		second.mustPut(tok, "urn:example:s1", Record{URLs: []string{"https://t.example/1"}})
		changed["urn:example:s1"] = "https://t.example/1"

		// The event: the server drops the changed keys, and only them.
		want := n - len(changed)
		waitFor(t, fmt.Sprintf("%d answers", want), func() bool {
			got, _, _ := e.store.CacheStats()
			if got < want {
				t.Fatalf("%d answers left, want %d: more than the changed keys were dropped", got, want)
			}
			return got == want
		})
		_, hits0, misses0 := e.store.CacheStats()
		for i := 0; i < n; i++ {
			urn := fmt.Sprintf("urn:example:s%d", i)
			url, ok := changed[urn]
			if !ok {
				url = fmt.Sprintf("https://s.example/%d", i)
			}
			if r := e.get("/uri-res/N2L?" + urn); r.code != 303 || r.header.Get("Location") != url {
				t.Fatalf("%s: %d %q, want 303 %q", urn, r.code, r.header.Get("Location"), url)
			}
		}
		_, hits, misses := e.store.CacheStats()
		if hits-hits0 != uint64(want) || misses-misses0 != uint64(len(changed)) {
			t.Errorf("reading the %d URNs: %d hits, %d misses; want %d and %d", n, hits-hits0, misses-misses0, want, len(changed))
		}
		t.Logf("%d answers cached; after a token write, an import of %d records by another process and a write by a second server: %d left, %d hits and %d misses reading all",
			n, len(imp), want, hits-hits0, misses-misses0)
	})
}
