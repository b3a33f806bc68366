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

// The log is trimmed by the writers, and a server that fell behind the
// trimmed part, missing numbers, empties its cache rather than keep what
// it cannot know to be current.
func TestChangeLogTrim(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		defer func(every, seqs int64, keep time.Duration) { trimEvery, keepSeqs, keepChanges = every, seqs, keep }(trimEvery, keepSeqs, keepChanges)
		trimEvery, keepSeqs, keepChanges = 1, 3, 0
		st := openTestStore(t, dsn)
		importCSV(t, st, "urn:example:a,https://a.example/0")
		c := newAnswerCache(10)
		c.bound = time.Hour
		behind := &tailer{}
		if err := st.catchUp(ctx, c, behind); err != nil {
			t.Fatal(err)
		}
		current := &tailer{last: behind.last, known: true}
		for i := 1; i <= 20; i++ {
			importCSV(t, st, fmt.Sprintf("urn:example:k%d,https://a.example/%d", i, i))
			if i == 10 {
				if err := st.catchUp(ctx, newAnswerCache(10), current); err != nil {
					t.Fatal(err)
				}
			}
		}
		var rows, low int64
		if err := st.r.QueryRowContext(ctx, `SELECT COUNT(*), MIN(seq) FROM changes`).Scan(&rows, &low); err != nil {
			t.Fatal(err)
		}
		if rows > 4 || low <= behind.last+1 {
			t.Fatalf("after 21 writes trimmed to keep 3 numbers: %d rows from %d", rows, low)
		}
		put := func(c *answerCache, key string) {
			_, _, e := c.get(key)
			c.put(key, cached{url: "x"}, e)
		}
		put(c, "urn:example:untouched")
		if err := st.catchUp(ctx, c, behind); err != nil {
			t.Fatal(err)
		}
		if c.len() != 0 {
			t.Error("a cache behind the trimmed log kept its answers")
		}
		// One that read the log before the trim reached it: a gap too,
		// since the numbers it had not read are gone.
		c2 := newAnswerCache(10)
		c2.bound = time.Hour
		put(c2, "urn:example:untouched")
		if err := st.catchUp(ctx, c2, current); err != nil {
			t.Fatal(err)
		}
		if c2.len() != 0 {
			t.Error("a cache with numbers trimmed away kept its answers")
		}
		// Up to date, it drops only what another store changes next,
		// and nothing for its own writes, whose keys it dropped at once.
		put(c2, "urn:example:untouched")
		put(c2, "urn:example:k1")
		put(c2, "urn:example:k2")
		importCSV(t, st, "urn:example:k2,https://b.example/2")
		importCSV(t, openTestStore(t, dsn), "urn:example:k1,https://b.example/1")
		if err := st.catchUp(ctx, c2, current); err != nil {
			t.Fatal(err)
		}
		_, ok1, _ := c2.get("urn:example:k1")
		_, ok2, _ := c2.get("urn:example:k2")
		if _, ok, _ := c2.get("urn:example:untouched"); !ok || ok1 || !ok2 || c2.len() != 2 {
			t.Errorf("after a write of k1 by another store and of k2 by this one: %d answers; untouched kept %v, k1 %v, k2 %v", c2.len(), ok, ok1, ok2)
		}
	})
}
