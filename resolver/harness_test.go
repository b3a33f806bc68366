package resolver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store/storetest"
)

// postgresEnv names the environment variable holding the DSN of a
// PostgreSQL server the tests may create schemas in.
const postgresEnv = storetest.PostgresEnv

// forEachStore runs f against a fresh SQLite database and, when
// URNRESOLVER_TEST_POSTGRES is set, a fresh PostgreSQL schema: the same
// test suite on both stores.
func forEachStore(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Helper()
	storetest.ForEach(t, f)
}

// postgresDSN returns the DSN of a new, empty schema, dropped when the
// test ends, or skips the test when no PostgreSQL is configured.
func postgresDSN(t testing.TB) string { return storetest.PostgresDSN(t) }

func openTestStore(t testing.TB, dsn string) *Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := OpenStore(ctx, dsn)
	if err != nil {
		t.Fatalf("OpenStore(%s): %v", dsn, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// testEnv is a server on a real loopback listener, so that request
// targets reach the handler exactly as a client writes them.
type testEnv struct {
	t     testing.TB
	store *Store
	srv   *Server
	http  *httptest.Server
	url   string
}

func newEnv(t testing.TB, dsn string, cfg Config) *testEnv {
	t.Helper()
	st := openTestStore(t, dsn)
	cfg.Store = st
	if cfg.WriteRate == 0 {
		cfg.WriteRate = -1 // tests of the limiter turn it on
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener = GuardFraming(hs.Config, hs.Listener)
	hs.Start()
	t.Cleanup(hs.Close)
	return &testEnv{t: t, store: st, srv: srv, http: hs, url: hs.URL}
}

// token creates a token for scopes and returns its bearer string.
func (e *testEnv) token(scopes ...string) string {
	e.t.Helper()
	var sc []Scope
	for _, s := range scopes {
		v, err := ParseScope(s)
		if err != nil {
			e.t.Fatal(err)
		}
		sc = append(sc, v)
	}
	secret, _, err := e.store.CreateToken(context.Background(), sc, "test", AuditEntry{At: time.Now(), Actor: "test", Client: "local"})
	if err != nil {
		e.t.Fatal(err)
	}
	return secret
}

// noRedirect is a client that returns redirects instead of following them.
var noRedirect = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Timeout:       30 * time.Second,
}

type response struct {
	code   int
	header http.Header
	body   string
}

// do sends a request whose target is written as given (no client-side
// normalization beyond what net/http's request line allows).
func (e *testEnv) do(method, target string, header map[string]string, body string) response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+"/", strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	// Opaque is written into the request line as it is.
	path, query, hasQ := strings.Cut(target, "?")
	req.URL.Path, req.URL.RawPath, req.URL.Opaque = "", "", path
	if hasQ {
		req.URL.RawQuery = query
		req.URL.ForceQuery = query == ""
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{code: resp.StatusCode, header: resp.Header, body: string(b)}
}

func (e *testEnv) get(target string) response { return e.do("GET", target, nil, "") }

// put writes a record with a token.
func (e *testEnv) put(tok, urn string, rec Record) response {
	e.t.Helper()
	b, _ := json.Marshal(rec)
	return e.do("PUT", "/admin/records/"+urn, map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}, string(b))
}

// mustPut writes a record and fails the test unless it is stored.
func (e *testEnv) mustPut(tok, urn string, rec Record) {
	e.t.Helper()
	if r := e.put(tok, urn, rec); r.code != 200 && r.code != 201 {
		e.t.Fatalf("PUT %s: %d %s", urn, r.code, r.body)
	}
}

func (e *testEnv) count() int {
	e.t.Helper()
	n, err := e.store.db.Count(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// problem decodes a problem+json body, failing unless it is one.
func problemOf(t testing.TB, r response) Problem {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json; body %s", ct, r.body)
	}
	var p Problem
	dec := json.NewDecoder(bytes.NewReader([]byte(r.body)))
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("problem body %q: %v", r.body, err)
	}
	if p.Status != r.code {
		t.Fatalf("problem status %d, response %d", p.Status, r.code)
	}
	if !strings.HasPrefix(p.Type, ProblemBase) || p.Title == "" {
		t.Fatalf("problem type %q title %q", p.Type, p.Title)
	}
	return p
}

// exists reports whether st has a record under key.
func exists(t testing.TB, st *Store, key string) bool {
	t.Helper()
	_, err := st.db.Record(context.Background(), key)
	if err != nil && !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

// firstURL reads the N2L answer of key as the resolution services do,
// through the cache: the first location, a *GoneError, or ErrNotFound
// when there is no record or no location.
func firstURL(ctx context.Context, st *Store, key string) (string, error) {
	l, err := st.first(ctx, key)
	switch {
	case err != nil:
		return "", err
	case l.Gone != nil:
		return "", &GoneError{URN: l.URN, Deactivation: *l.Gone}
	case len(l.URLs) == 0:
		return "", ErrNotFound
	}
	return l.URLs[0], nil
}
