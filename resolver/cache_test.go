package resolver

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The N2L answer cache (issue 23.1) must never answer what a committed
// write changed: this process's writes drop their keys at once, on every
// write path, on both stores.
func TestCacheFollowsWrites(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		ctx := context.Background()
		if err := e.store.Cache(ctx, CacheOptions{Entries: 100}); err != nil {
			t.Fatal(err)
		}
		tok := e.token("example")
		h := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
		n2l := func(urn string) string {
			t.Helper()
			r := e.get("/uri-res/N2L?" + urn)
			return itoa(r.code) + " " + r.header.Get("Location")
		}
		want := func(urn, answer string) {
			t.Helper()
			// Twice: the second comes from the cache.
			for i := 0; i < 2; i++ {
				if got := n2l(urn); got != answer {
					t.Fatalf("N2L %s (%d): %q, want %q", urn, i, got, answer)
				}
			}
		}
		want("urn:example:a", "404 ")
		e.mustPut(tok, "urn:example:a", Record{URLs: []string{"https://a.example/1"}})
		want("urn:example:a", "303 https://a.example/1")
		_, hits, _ := e.store.CacheStats()
		if hits == 0 {
			t.Fatal("no cache hit")
		}
		e.mustPut(tok, "urn:example:a", Record{URLs: []string{"https://a.example/2"}})
		want("URN:EXAMPLE:a", "303 https://a.example/2")
		e.mustPut(tok, "urn:example:a", Record{})
		want("urn:example:a", "404 ")
		e.mustPut(tok, "urn:example:a", Record{URLs: []string{"https://a.example/3"}})
		want("urn:example:a", "303 https://a.example/3")
		e.mustPut(tok, "urn:example:b", Record{})
		if r := e.do("DELETE", "/admin/records/urn:example:a", h, `{"successor":"urn:example:b"}`); r.code != 204 {
			t.Fatal(r.code, r.body)
		}
		want("urn:example:a", "303 /uri-res/N2L?urn:example:b")
		if r := e.do("PUT", "/admin/deactivations/urn:example:a", h, `{"reason":"gone"}`); r.code != 204 {
			t.Fatal(r.code, r.body)
		}
		want("urn:example:a", "410 ")
		if r := e.do("DELETE", "/admin/deactivations/urn:example:a", h, ``); r.code != 200 {
			t.Fatal(r.code, r.body)
		}
		want("urn:example:a", "303 https://a.example/3")
		if r := e.do("POST", "/admin/import", map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "text/csv"},
			"urn,url\nurn:example:a,https://a.example/4\n"); r.code != 200 {
			t.Fatal(r.code, r.body)
		}
		want("urn:example:a", "303 https://a.example/4")
		// An import of many records empties the cache instead.
		var b strings.Builder
		b.WriteString("urn,url\n")
		for i := 0; i < 2*invalidationLog; i++ {
			b.WriteString("urn:example:m" + itoa(i) + ",https://m.example/" + itoa(i) + "\n")
		}
		b.WriteString("urn:example:a,https://a.example/5\n")
		if _, err := Import(ctx, e.store, strings.NewReader(b.String()), FormatCSV, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		want("urn:example:a", "303 https://a.example/5")
		want("urn:example:m7", "303 https://m.example/7")
	})
}

// Another server on the same PostgreSQL database, or another process on
// the same SQLite file (urnresolver import beside a running server): its
// writes reach this server's cache by notification or by PRAGMA
// data_version, soon after they commit.
func TestCacheSeesOtherWriters(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		e := newEnv(t, dsn, Config{})
		if err := e.store.Cache(ctx, CacheOptions{Entries: 100}); err != nil {
			t.Fatal(err)
		}
		// The other writer has no cache, as urnresolver import has not.
		other := openTestStore(t, dsn)
		imp := func(csv string) {
			t.Helper()
			if _, err := Import(ctx, other, strings.NewReader(csv), FormatCSV, ImportOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		imp("urn,url\nurn:example:x,https://x.example/1\n")
		eventually := func(want string) {
			t.Helper()
			// An event, not a timing: the answer must change, and does
			// within a poll interval or a notification's trip; the
			// deadline only keeps a broken build from hanging.
			deadline := time.Now().Add(20 * time.Second)
			for {
				r := e.get("/uri-res/N2L?urn:example:x")
				if r.header.Get("Location") == want {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("N2L still %d %q, want %q", r.code, r.header.Get("Location"), want)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		eventually("https://x.example/1")
		eventually("https://x.example/1") // now cached
		imp("urn,url\nurn:example:x,https://x.example/2\n")
		eventually("https://x.example/2")
	})
}

// The race a cache of a database must not lose: a read that began
// before a write and ends after it must not put back what it read.
func TestAnswerCacheEpochs(t *testing.T) {
	c := newAnswerCache(3)
	_, ok, e0 := c.get("a")
	if ok {
		t.Fatal("hit in an empty cache")
	}
	c.invalidate(false, "a") // a write commits while the read is under way
	c.put("a", cached{url: "old"}, e0)
	if _, ok, _ := c.get("a"); ok {
		t.Fatal("a read from before an invalidation of its key was kept")
	}
	// An invalidation of another key does not stop it.
	_, _, e1 := c.get("a")
	c.invalidate(false, "b")
	c.put("a", cached{url: "new"}, e1)
	if v, ok, _ := c.get("a"); !ok || v.url != "new" {
		t.Fatalf("a read after an invalidation of another key: %v %v", v, ok)
	}
	// Emptying stops every read under way.
	_, _, e2 := c.get("c")
	c.invalidate(true)
	c.put("c", cached{url: "c"}, e2)
	if _, ok, _ := c.get("c"); ok {
		t.Fatal("a read from before emptying was kept")
	}
	// More invalidations than the log holds: not known, not kept.
	_, _, e3 := c.get("d")
	for i := 0; i < invalidationLog; i++ {
		c.invalidate(false, "z")
	}
	c.put("d", cached{url: "d"}, e3)
	if _, ok, _ := c.get("d"); ok {
		t.Fatal("a read older than the log was kept")
	}
	// Bounded: never more than max entries.
	for i := 0; i < 10; i++ {
		_, _, e := c.get(itoa(i))
		c.put(itoa(i), cached{url: itoa(i)}, e)
	}
	if n := c.len(); n != 3 {
		t.Fatalf("%d entries, max 3", n)
	}
	// Dropped entries' bytes are reclaimed: the arena stays within
	// twice what it holds (plus the 1 MiB before compaction starts).
	for i := 0; i < 200000; i++ {
		k := "urn:example:" + itoa(i)
		_, _, e := c.get(k)
		c.put(k, cached{url: "https://a.example/" + itoa(i)}, e)
		if i%3 == 0 {
			c.invalidate(false, k)
		}
	}
	if n := len(c.arena); n > 2<<20 {
		t.Fatalf("arena of %d bytes for %d entries", n, c.len())
	}
	// The last one put is there (room is made before it goes in); the
	// others may have been dropped at random.
	if v, ok, _ := c.get("urn:example:199999"); !ok || v.url != "https://a.example/199999" || c.len() > 3 {
		t.Errorf("after 200,000 puts: %q %v, %d entries", v.url, ok, c.len())
	}
	// A deactivated answer keeps its deactivation.
	g := &GoneError{URN: "urn:example:g", Deactivation: Deactivation{Reason: "r", Successor: "urn:example:h"}}
	_, _, e5 := c.get("urn:example:g")
	c.put("urn:example:g", cached{gone: g}, e5)
	if v, ok, _ := c.get("urn:example:g"); !ok || v.gone != g {
		t.Errorf("gone: %+v %v", v, ok)
	}
	_, _, e6 := c.get("urn:example:n")
	c.put("urn:example:n", cached{none: true}, e6)
	if v, ok, _ := c.get("urn:example:n"); !ok || !v.none || v.url != "" {
		t.Errorf("none: %+v %v", v, ok)
	}
}

// The staleness bound (issue 29) on the cache alone, with a clock that
// the test moves: the cache answers only while its last complete
// catch-up began at most bound ago by that clock, and a clock that goes
// back makes every catch-up before it count for nothing.
func TestAnswerCacheFreshness(t *testing.T) {
	c := newAnswerCache(10)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	c.clock = func() time.Time { return now }
	c.bound = time.Second
	_, _, e := c.get("a")
	c.put("a", cached{url: "A"}, e)
	answers := func() bool {
		t.Helper()
		v, ok, _ := c.get("a")
		if ok && v.url != "A" {
			t.Fatalf("answer %q", v.url)
		}
		return ok
	}
	caughtUp := func() {
		start, jumps := c.reading()
		c.trust(start, jumps)
	}
	if answers() {
		t.Fatal("answered before any catch-up")
	}
	caughtUp()
	if !answers() {
		t.Fatal("no answer right after a catch-up")
	}
	now = now.Add(time.Second)
	if !answers() {
		t.Fatal("no answer at the bound")
	}
	now = now.Add(time.Nanosecond)
	if answers() {
		t.Fatal("answered past the bound")
	}
	caughtUp()
	if !answers() {
		t.Fatal("no answer after a second catch-up")
	}
	// A catch-up under way when the clock goes back does not count.
	start, jumps := c.reading()
	now = now.Add(-time.Millisecond)
	if answers() {
		t.Fatal("answered after the clock went back")
	}
	c.trust(start, jumps)
	if answers() {
		t.Fatal("a catch-up from before the clock went back was trusted")
	}
	caughtUp()
	if !answers() {
		t.Fatal("no answer after a catch-up once the clock went back")
	}
	// Forward: too old at once.
	now = now.Add(time.Hour)
	if answers() {
		t.Fatal("answered after the clock jumped an hour ahead")
	}
	caughtUp()
	if !answers() {
		t.Fatal("no answer after a catch-up once the clock jumped ahead")
	}
	if got := c.bypassed.Load(); got != 6 {
		t.Errorf("%d lookups bypassed, want 6", got)
	}
}

// The memory budget: answers make room for one another within Bytes,
// whatever the length of their locations.
func TestAnswerCacheBytes(t *testing.T) {
	c := newAnswerCache(1 << 20)
	c.maxBytes = 64 << 10
	for i := 0; i < 5000; i++ {
		k := "urn:example:" + itoa(i)
		_, _, e := c.get(k)
		c.put(k, cached{url: "https://a.example/" + strings.Repeat("x", i%300)}, e)
		c.mu.Lock()
		size := c.size()
		c.mu.Unlock()
		if size > c.maxBytes {
			t.Fatalf("after %d answers: %d bytes, budget %d", i+1, size, c.maxBytes)
		}
	}
	if n := c.len(); n < 100 {
		t.Errorf("only %d answers within 64 KiB", n)
	}
	big := cached{url: strings.Repeat("y", 0xffff)}
	c.maxBytes = 1000
	_, _, e := c.get("big")
	c.put("big", big, e)
	if _, ok, _ := c.get("big"); ok {
		t.Error("an answer larger than the whole budget was kept")
	}
}

// Preload fills the cache from the store, and the answers are the
// store's, deactivations included.
func TestCachePreload(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		e.mustPut(tok, "urn:example:p1", Record{URLs: []string{"https://p.example/1"}})
		e.mustPut(tok, "urn:example:p2", Record{Metadata: json.RawMessage(`{"t":"no location"}`)})
		e.mustPut(tok, "urn:example:p3", Record{URLs: []string{"https://p.example/3"}})
		if r := e.do("DELETE", "/admin/records/urn:example:p3", map[string]string{"Authorization": "Bearer " + tok}, `{"reason":"r"}`); r.code != 204 {
			t.Fatal(r.code, r.body)
		}
		if err := e.store.Cache(ctx, CacheOptions{Entries: 100, Preload: true}); err != nil {
			t.Fatal(err)
		}
		if n, _, _ := e.store.CacheStats(); n != 3 {
			t.Fatalf("%d entries preloaded, want 3", n)
		}
		for target, want := range map[string]string{
			"/uri-res/N2L?urn:example:p1": "303",
			"/uri-res/N2L?urn:example:p2": "404",
			"/uri-res/N2L?urn:example:p3": "410",
		} {
			if r := e.get(target); itoa(r.code) != want {
				t.Errorf("%s: %d, want %s", target, r.code, want)
			}
		}
		if _, hits, misses := e.store.CacheStats(); hits != 3 || misses != 0 {
			t.Errorf("hits %d misses %d, want 3 0", hits, misses)
		}
	})
}

// BenchmarkAnswerCacheGet measures a lookup among a million answers,
// most of which are not in the processor's caches, as in the load
// benchmark.
func BenchmarkAnswerCacheGet(b *testing.B) {
	const n = 1 << 20
	c := newAnswerCache(n)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "urn:nbn:no-nb_digibok_" + itoa(10000000+i)
		c.put(keys[i], cached{url: "https://www.nb.example/items/" + itoa(i)}, c.epoch)
	}
	b.ResetTimer()
	x := uint64(88172645463325252)
	for b.Loop() {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if _, ok, _ := c.get(keys[x%n]); !ok {
			b.Fatal("miss")
		}
	}
}

// The cache's open-addressing table against a Go map: random sets and
// deletes of hashes crowded on a few home slots at the end of the slice,
// so that runs wrap around and deletion shifts slots back across the
// end; hash 0, stored as 1, included.
func TestTable(t *testing.T) {
	// The case the shift exists for: B's home is A's slot; deleting A
	// must move B into it, or B is lost behind an empty slot.
	var tb table
	tb.set(1020, 1)
	tb.set(1020|1<<10, 2)
	tb.delete(1020)
	if off, ok := tb.get(1020 | 1<<10); !ok || off != 2 {
		t.Fatalf("after deleting the first of two hashes with one home: %d %v", off, ok)
	}
	tb = table{}
	ref := map[uint64]uint32{}
	rng := rand.New(rand.NewPCG(1, 2))
	next := rng.Uint64
	for i := 0; i < 200000; i++ {
		// Homes 1020..1023 and 0..3 of the first 1024 slots; more
		// slots later, when the table grows, spread them again.
		h := (next()%8+1020)&1023 | (next()%64)<<10
		switch next() % 5 {
		case 0:
			h = 0
		case 1:
			// Scattered: short runs, where a slot's home is often
			// the hole a deletion leaves.
			h = next() % 4096
		}
		key := h
		if key == 0 {
			key = 1
		}
		switch next() % 3 {
		case 0, 1:
			off := uint32(next())
			tb.set(h, off)
			ref[key] = off
		default:
			tb.delete(h)
			delete(ref, key)
		}
		if tb.n != len(ref) {
			t.Fatalf("step %d: %d entries, want %d", i, tb.n, len(ref))
		}
	}
	for h, off := range ref {
		if got, ok := tb.get(h); !ok || got != off {
			t.Fatalf("get(%#x) = %d %v, want %d", h, got, ok, off)
		}
	}
	for h := uint64(2); h < 1<<17; h++ {
		if _, ok := ref[h]; !ok {
			if _, ok := tb.get(h); ok {
				t.Fatalf("get(%#x) found a deleted or never set hash", h)
			}
		}
	}
}
