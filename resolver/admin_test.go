package resolver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAdminRecordLifecycle(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("isbn")
		h := map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}

		// POST creates, with Location pointing at the record.
		r := e.do("POST", "/admin/records", h, `{"urn":"URN:ISBN:0-395-36341-1","urls":["https://a.example/1"]}`)
		if r.code != 201 || r.header.Get("Location") != "/admin/records/urn:isbn:0-395-36341-1" {
			t.Fatalf("POST: %d %q %s", r.code, r.header.Get("Location"), r.body)
		}
		// A second POST of an equivalent URN conflicts.
		r = e.do("POST", "/admin/records", h, `{"urn":"urn:isbn:0395363411","urls":["https://b.example/"]}`)
		if r.code != 409 || problemOf(t, r).Field != "urn" {
			t.Fatalf("second POST: %d %s", r.code, r.body)
		}
		// PUT of an equivalent form replaces: 200, not 201.
		r = e.put(tok, "urn:isbn:0395363411", Record{URLs: []string{"https://b.example/", "https://c.example/"}, Metadata: json.RawMessage(`{"t":"x"}`)})
		if r.code != 200 {
			t.Fatalf("PUT replace: %d %s", r.code, r.body)
		}
		var got Record
		json.Unmarshal([]byte(r.body), &got)
		if got.URN != "urn:isbn:0395363411" || len(got.URLs) != 2 || got.URLs[0] != "https://b.example/" {
			t.Fatalf("PUT echo %+v", got)
		}
		// GET is public.
		r = e.get("/admin/records/urn:isbn:0-395-36341-1")
		if r.code != 200 || !strings.Contains(r.body, `"urls":["https://b.example/","https://c.example/"]`) {
			t.Fatalf("GET: %d %s", r.code, r.body)
		}
		// A body URN that is not the path's is refused.
		r = e.do("PUT", "/admin/records/urn:isbn:0395363411", h, `{"urn":"urn:isbn:978-0-395-36341-6"}`)
		if r.code != 400 || problemOf(t, r).Field != "urn" {
			t.Fatalf("PUT mismatch: %d %s", r.code, r.body)
		}
		// DELETE deactivates: 410 Gone, never 404 (TestPersistence);
		// DELETE again is idempotent.
		r = e.do("DELETE", "/admin/records/urn:isbn:0-395-36341-1", h, "")
		if r.code != 204 {
			t.Fatalf("DELETE: %d %s", r.code, r.body)
		}
		if r = e.get("/uri-res/N2L?urn:isbn:0-395-36341-1"); r.code != 410 {
			t.Fatalf("after DELETE: %d", r.code)
		}
		if r = e.do("DELETE", "/admin/records/urn:isbn:0-395-36341-1", h, ""); r.code != 204 {
			t.Fatalf("second DELETE: %d", r.code)
		}
		if r = e.do("DELETE", "/admin/records/urn:isbn:978-0-262-03384-8", h, ""); r.code != 404 {
			t.Fatalf("DELETE of a URN without a record: %d", r.code)
		}

		// Every write is in the audit log, newest first.
		entries, err := e.store.db.Audit(context.Background(), 10)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, a := range entries {
			actions = append(actions, a.Action+" "+a.URN)
			if a.Client != "127.0.0.1" && a.Action != "token-create" {
				t.Errorf("audit client %q", a.Client)
			}
		}
		want := []string{"delete urn:isbn:0-395-36341-1", "delete urn:isbn:0-395-36341-1", "replace urn:isbn:0395363411", "create urn:isbn:0-395-36341-1"}
		if len(actions) < 4 || strings.Join(actions[:4], "|") != strings.Join(want, "|") {
			t.Fatalf("audit %q, want %q first", actions, want)
		}
		if entries[0].Actor != "token:"+strings.Split(tok, "_")[1] {
			t.Errorf("actor %q", entries[0].Actor)
		}
		// The audit API shows the token's own entries.
		r = e.do("GET", "/admin/audit?limit=2", h, "")
		var list []AuditEntry
		if err := json.Unmarshal([]byte(r.body), &list); err != nil || r.code != 200 || len(list) != 2 || list[0].Action != "delete" {
			t.Fatalf("GET /admin/audit: %d %s", r.code, r.body)
		}
	})
}

func TestAuthorization(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		nbnNo := e.token("nbn:no-")
		isbn := e.token("isbn:978-3")
		revoked := e.token("nbn")
		id := strings.Split(revoked, "_")[1]
		if err := e.store.RevokeToken(context.Background(), id, AuditEntry{At: time.Now(), Actor: "test", Client: "local"}); err != nil {
			t.Fatal(err)
		}
		other := nbnNo[:len(nbnNo)-4] + "AAAA" // right ID, wrong secret
		unknown := "urt_0000000000000000_" + nbnNo[len(nbnNo)-43:]
		body := `{"urls":["https://nb.example/1"]}`
		cases := []struct {
			name, auth, urn string
			code            int
		}{
			{"no token", "", "urn:nbn:no-1", 401},
			{"basic auth", "Basic dXNlcjpwYXNz", "urn:nbn:no-1", 401},
			{"bearer without token", "Bearer ", "urn:nbn:no-1", 401},
			{"malformed token", "Bearer hunter2", "urn:nbn:no-1", 401},
			{"wrong secret", "Bearer " + other, "urn:nbn:no-1", 401},
			{"unknown token ID", "Bearer " + unknown, "urn:nbn:no-1", 401},
			{"revoked token", "Bearer " + revoked, "urn:nbn:no-1", 401},
			{"other namespace", "Bearer " + nbnNo, "urn:isbn:978-3-16-148410-0", 403},
			{"other NSS prefix", "Bearer " + nbnNo, "urn:nbn:se-1", 403},
			{"prefix is not a namespace", "Bearer " + isbn, "urn:isbn:978-0-395-36341-6", 403},
			{"allowed", "Bearer " + nbnNo, "URN:NBN:NO-1", 201}, // RFC 8458: the country code in any case
			{"allowed prefix, written with hyphens", "Bearer " + isbn, "urn:isbn:978-3-16-148410-0", 201},
			{"allowed prefix, as a key", "Bearer " + e.token("isbn:9783"), "urn:isbn:978-3-16-148410-0", 200},
			{"scheme name case", "bearer " + nbnNo, "urn:nbn:no-2", 201},
		}
		for _, c := range cases {
			h := map[string]string{"Content-Type": "application/json"}
			if c.auth != "" {
				h["Authorization"] = c.auth
			}
			before := e.count()
			r := e.do("PUT", "/admin/records/"+c.urn, h, body)
			if r.code != c.code {
				t.Errorf("%s: %d %s, want %d", c.name, r.code, r.body, c.code)
				continue
			}
			if c.code >= 400 {
				problemOf(t, r)
				if e.count() != before {
					t.Errorf("%s: a record was stored", c.name)
				}
				if c.code == 401 && !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%s: WWW-Authenticate %q (RFC 6750 section 3)", c.name, r.header.Get("WWW-Authenticate"))
				}
			}
		}
		// Deletes, imports and the audit log are guarded the same way.
		if r := e.do("DELETE", "/admin/records/urn:nbn:no-1", nil, ""); r.code != 401 {
			t.Errorf("DELETE without token: %d", r.code)
		}
		if r := e.do("DELETE", "/admin/records/urn:nbn:no-1", map[string]string{"Authorization": "Bearer " + isbn}, ""); r.code != 403 {
			t.Errorf("DELETE other namespace: %d", r.code)
		}
		if r := e.do("POST", "/admin/import", map[string]string{"Content-Type": "text/csv"}, "urn,url\n"); r.code != 401 {
			t.Errorf("import without token: %d", r.code)
		}
		if r := e.get("/admin/audit"); r.code != 401 {
			t.Errorf("audit without token: %d", r.code)
		}
		// Reads stay public.
		if r := e.get("/uri-res/N2L?urn:nbn:no-1"); r.code != 303 {
			t.Errorf("public read: %d", r.code)
		}
	})
}

func TestVerifyTokenStoresOnlyHash(t *testing.T) {
	st := openTestStore(t, t.TempDir()+"/db")
	sc, _ := ParseScope("example")
	secret, tok, err := st.CreateToken(context.Background(), []Scope{sc}, "", AuditEntry{At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	row, err := st.db.Token(context.Background(), tok.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored := row.Hash
	if len(stored) != 32 || strings.Contains(secret, string(stored)) {
		t.Fatalf("stored %x", stored)
	}
	if _, err := verifyToken(context.Background(), st.db, secret); err != nil {
		t.Fatal(err)
	}
	for i := len(tokenPrefix); i < len(secret); i++ {
		// Flip each character in turn: every variant is refused.
		b := []byte(secret)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		if _, err := verifyToken(context.Background(), st.db, string(b)); err == nil {
			t.Fatalf("variant %q accepted", b)
		}
	}
}

func TestWriteRateLimit(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{WriteRate: 1, WriteBurst: 3})
	tok := e.token("example")
	var codes []int
	for i := 0; i < 5; i++ {
		r := e.put(tok, "urn:example:r", Record{URLs: []string{"https://x.example/"}})
		codes = append(codes, r.code)
		if r.code == 429 {
			if p := problemOf(t, r); !strings.HasSuffix(p.Type, "#rate-limited") || r.header.Get("Retry-After") == "" {
				t.Fatalf("429 without Retry-After or type: %+v", p)
			}
		}
	}
	if codes[0] != 201 || codes[1] != 200 || codes[2] != 200 || codes[3] != 429 || codes[4] != 429 {
		t.Fatalf("codes %v, want 3 writes then 429s", codes)
	}
	// Reads are not limited.
	for i := 0; i < 10; i++ {
		if r := e.get("/uri-res/N2L?urn:example:r"); r.code != 303 {
			t.Fatalf("read %d: %d", i, r.code)
		}
	}
}

func TestRateLimiterRefills(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newRateLimiter(2, 2)
	l.now = func() time.Time { return now }
	for i, want := range []bool{true, true, false} {
		if ok, _ := l.allow("a"); ok != want {
			t.Fatalf("call %d: %v", i, ok)
		}
	}
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("another client is limited")
	}
	_, wait := l.allow("a")
	if wait <= 0 || wait > time.Second {
		t.Fatalf("wait %v", wait)
	}
	now = now.Add(500 * time.Millisecond) // one token at 2/s
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("not refilled")
	}
	now = now.Add(2 * time.Minute) // idle buckets are swept
	l.allow("c")
	if len(l.buckets) != 1 {
		t.Fatalf("%d buckets after the sweep", len(l.buckets))
	}
}

// TestConcurrentPuts checks that concurrent replacements of one record
// never interleave: each read sees the URLs of exactly one write.
func TestConcurrentPuts(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < 10; i++ {
					u := []string{"https://w" + string(rune('0'+w)) + ".example/1", "https://w" + string(rune('0'+w)) + ".example/2"}
					b, _ := json.Marshal(Record{URLs: u})
					e.do("PUT", "/admin/records/urn:example:shared", map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}, string(b))
				}
			}(w)
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		for reads := 0; ; reads++ {
			select {
			case <-done:
				rec, err := e.store.db.Record(context.Background(), "urn:example:shared")
				if err != nil || len(rec.URLs) != 2 {
					t.Fatalf("final record %+v %v", rec, err)
				}
				return
			default:
			}
			rec, err := e.store.db.Record(context.Background(), "urn:example:shared")
			if err == ErrNotFound {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.URLs) != 2 || rec.URLs[0][:11] != rec.URLs[1][:11] {
				t.Fatalf("read %d saw a mixed record: %q", reads, rec.URLs)
			}
		}
	})
}
