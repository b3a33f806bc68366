package resolver

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Issue 23.5, RFC 9112 section 6.3: "A server MAY reject a request that
// contains both Content-Length and Transfer-Encoding ... Regardless, the
// server MUST close the connection after responding to such a request".
// The request hidden after the chunked body must not be answered.
func TestContentLengthAndTransferEncoding(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	// A chunk whose data holds what would read as a head with both fields.
	chunkBody := "\r\nGET / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
	smuggle := "0\r\n\r\nGET /uri-res/N2L?urn:example:hidden HTTP/1.1\r\nHost: x\r\n\r\n"
	cases := []struct {
		name    string
		raw     string
		answers int // responses on the connection
		first   int // status of the first
	}{
		{"both, CL first", "POST /admin/records HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + smuggle, 1, 400},
		{"both, TE first", "POST /admin/records HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n" + smuggle, 1, 400},
		{"both on a GET", "GET /healthz HTTP/1.1\r\nHost: x\r\ncontent-length: 0\r\ntransfer-encoding: chunked\r\n\r\n" + smuggle, 1, 400},
		// The second request of a connection, after a chunked body
		// whose data looks like a head.
		{"second request", "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
			fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(chunkBody), chunkBody) +
			"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n" + smuggle, 2, 200},
		// Accepted: either field alone, and pipelined requests.
		{"chunked alone", "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 2, 200},
		{"length alone", "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 2, 200},
	}
	for _, c := range cases {
		resp := rawRequest(t, e, c.raw)
		if n := strings.Count(resp, "HTTP/1.1 "); n != c.answers || statusOf(resp) != c.first {
			t.Errorf("%s: %d answers, first %d, want %d and %d:\n%s", c.name, n, statusOf(resp), c.answers, c.first, resp)
		}
		if strings.Contains(resp, "hidden") || strings.Contains(resp, "HTTP/1.1 404") {
			t.Errorf("%s: the hidden request was answered:\n%s", c.name, resp)
		}
		if c.answers == 1 && !strings.EqualFold(headerOf(resp, "Connection"), "close") {
			t.Errorf("%s: no Connection: close", c.name)
		}
	}
}

// TestFramerChunked feeds the framer byte by byte and in one piece: the
// same requests are found either way.
func TestFramerChunked(t *testing.T) {
	in := "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nab\r\nc\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n" +
		"\r\nGET / HTTP/1.1\r\nContent-Length: 4\r\n\r\nwxyz" +
		"GET / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
	var whole framer
	if got := whole.feed([]byte(in)); got != 2 {
		t.Errorf("whole: request %d, want 2", got)
	}
	var bytewise framer
	got := -1
	for i := 0; i < len(in) && got < 0; i++ {
		got = bytewise.feed([]byte{in[i]})
	}
	if got != 2 {
		t.Errorf("byte by byte: request %d, want 2", got)
	}
}

// Issue 23.6: "a 404 echoes the URN twice (a 30 KB answer to a 15 KB
// request)"; an answer's size must not grow with the request's.
func TestBoundedErrorBodies(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	long := "urn:example:" + strings.Repeat("a", 15000)
	for _, target := range []string{
		"/uri-res/N2L?" + long, "/" + long, "/uri-res/N2C?" + long, "/uri-res/N2Ns?" + long,
		"/uri-res/N2L?" + long + "%zz", "/uri-res/I=I?" + long + "&urn:x:" + strings.Repeat("b", 1000),
		"/uri-res/L2N?https://x.example/" + strings.Repeat("c", 15000),
	} {
		r := e.get(target)
		if r.code/100 != 4 || len(r.body) > 1500 {
			t.Errorf("%s...: %d, %d bytes", target[:30], r.code, len(r.body))
		}
	}
	// Short URNs are still echoed whole.
	r := e.get("/uri-res/N2L?urn:example:Short")
	if p := problemOf(t, r); !strings.Contains(p.Detail, "urn:example:Short") {
		t.Errorf("detail %q", p.Detail)
	}
}

// Issue 23.6: "a 404 for a path that is not a URN is titled 'No record
// for this URN'": every 404 that is not about a URN has its own type.
func TestNotFoundTitles(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	for _, c := range []struct{ target, typ string }{
		{"/favicon.ico", "no-such-path"},
		{"/admin/nothing", "no-such-path"},
		{"/static/x.js", "no-such-path"},
		{"/uri-res/N2L?urn:example:none", "not-found"},
		{"/urn:example:none", "not-found"},
	} {
		r := e.get(c.target)
		p := problemOf(t, r)
		if r.code != 404 || !strings.HasSuffix(p.Type, "#"+c.typ) {
			t.Errorf("%s: %d %s %q", c.target, r.code, p.Type, p.Title)
		}
		if c.typ == "no-such-path" && strings.Contains(p.Title, "URN") {
			t.Errorf("%s: title %q", c.target, p.Title)
		}
	}
}

// Issue 23.6: on a full disk every write got a generic 503 while
// /healthz said ok. /readyz fails while the store cannot take writes, and
// the 503 of the write and of /readyz say the disk is full. Issue 29.5:
// /readyz stayed 503 after space came back until some write succeeded,
// which a balancer that routes writes by /readyz never sends; now its
// own probe, of the body limit's size, finds the room. The full disk
// here is SQLite's own SQLITE_FULL, reached with max_page_count (a real
// one: TestReadyzRealFullDisk).
func TestReadyzDiskFull(t *testing.T) {
	var logs strings.Builder
	e := newEnv(t, t.TempDir()+"/db", Config{Logger: newTestLogger(&logs), Limits: Limits{BodyBytes: 64 << 10}})
	clock := fakeClock(e.srv)
	tok := e.token("example")
	if r := e.get("/readyz"); r.code != 200 || r.body != "ready\n" {
		t.Fatalf("readyz: %d %q", r.code, r.body)
	}
	if err := e.store.db.LimitPages(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	big := Record{URLs: []string{"https://x.example/"}, Metadata: []byte(`{"t":"` + strings.Repeat("x", 12000) + `"}`)}
	r := e.put(tok, "urn:example:big", big)
	if p := problemOf(t, r); r.code != 503 || !strings.Contains(p.Detail, "disk is full") {
		t.Fatalf("write on a full disk: %d %s", r.code, r.body)
	}
	if !strings.Contains(logs.String(), "disk full") {
		t.Errorf("log: %s", logs.String())
	}
	// The failed write makes /readyz probe at once, within the second
	// of its last answer; the small probe would fit, the probe of the
	// body limit does not.
	if err := e.store.db.Probe(t.Context(), 0); err != nil {
		t.Fatalf("a one-row write: %v", err)
	}
	if r := e.get("/readyz"); r.code != 503 || !strings.Contains(problemOf(t, r).Detail, "disk is full") {
		t.Fatalf("readyz on a full disk: %d %s", r.code, r.body)
	}
	if r := e.get("/healthz"); r.code != 200 {
		t.Fatalf("healthz: %d (the process is alive)", r.code)
	}
	// Space comes back, and no write is sent: /readyz finds it by
	// itself once its last answer is a second old.
	if err := e.store.db.LimitPages(t.Context(), -1); err != nil {
		t.Fatal(err)
	}
	if r := e.get("/readyz"); r.code != 503 {
		t.Fatalf("readyz within the second of its last probe: %d %s", r.code, r.body)
	}
	clock.add(probeEvery)
	if r := e.get("/readyz"); r.code != 200 {
		t.Fatalf("readyz after space came back: %d %s", r.code, r.body)
	}
	e.mustPut(tok, "urn:example:big", big)
	// Another failure than a full disk: the store is closed.
	e.store.Close()
	clock.add(probeEvery)
	if r := e.get("/readyz"); r.code != 503 || strings.Contains(r.body, "full") {
		t.Fatalf("readyz, store closed: %d %s", r.code, r.body)
	}
}

// Issue 29.5 with a real full disk: the database on a 2 MB tmpfs, the
// rest of it taken by a file. A write gets 503 "disk full", /readyz
// says so, and once the file is removed /readyz is 200 again without a
// single write sent; the write then succeeds. Mounting needs root: the
// test skips, saying so, where it is not permitted.
func TestReadyzRealFullDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tmpfs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a 2 MB tmpfs to fill (needs root): %v %s", err, out)
	}
	// Registered first, so run last: after the store is closed.
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	var logs strings.Builder
	e := newEnv(t, filepath.Join(dir, "db"), Config{Logger: newTestLogger(&logs), Limits: Limits{BodyBytes: 64 << 10}})
	clock := fakeClock(e.srv)
	tok := e.token("example")
	e.mustPut(tok, "urn:example:small", Record{URLs: []string{"https://x.example/"}})
	if r := e.get("/readyz"); r.code != 200 {
		t.Fatalf("readyz: %d %s", r.code, r.body)
	}
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{64 << 10, 4 << 10, 512} {
		b := make([]byte, chunk)
		for {
			if _, err := f.Write(b); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatalf("filling the disk: %v", err)
				}
				break
			}
		}
	}
	f.Close()
	// About 40 KB: the metadata limit's size and 8 long locations.
	big := Record{Metadata: []byte(`{"t":"` + strings.Repeat("x", 15000) + `"}`)}
	for i := range 8 {
		big.URLs = append(big.URLs, fmt.Sprintf("https://x.example/%d/%s", i, strings.Repeat("y", 3000)))
	}
	if r := e.put(tok, "urn:example:big", big); r.code != 503 || !strings.Contains(problemOf(t, r).Detail, "disk is full") {
		t.Fatalf("a write on a full disk: %d %s", r.code, r.body)
	}
	clock.add(probeEvery)
	if r := e.get("/readyz"); r.code != 503 || !strings.Contains(problemOf(t, r).Detail, "disk is full") {
		t.Fatalf("readyz on a full disk: %d %s", r.code, r.body)
	}
	audit, _ := e.store.db.Audit(t.Context(), 100)
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	clock.add(probeEvery)
	if r := e.get("/readyz"); r.code != 200 {
		t.Fatalf("readyz once space is freed, no write sent: %d %s\n%s", r.code, r.body, logs.String())
	}
	if after, _ := e.store.db.Audit(t.Context(), 100); len(after) != len(audit) {
		t.Fatalf("a write happened: %d audit entries, were %d", len(after), len(audit))
	}
	e.mustPut(tok, "urn:example:big", big)
	if r := e.get("/uri-res/N2C?urn:example:big"); r.code != 200 {
		t.Fatalf("the record written after space came back: %d", r.code)
	}
}

// /readyz probes at most once per probeEvery however often it is asked,
// and the probes of concurrent requests are one.
func TestReadyzRateLimited(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	clock := fakeClock(e.srv)
	probes := func() int {
		e.srv.ready.mu.Lock()
		defer e.srv.ready.mu.Unlock()
		return e.srv.ready.probes
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := e.get("/readyz"); r.code != 200 {
				t.Errorf("readyz: %d %s", r.code, r.body)
			}
		}()
	}
	wg.Wait()
	if n := probes(); n != 1 {
		t.Fatalf("20 requests within a second: %d probes, want 1", n)
	}
	clock.add(probeEvery - time.Nanosecond)
	e.get("/readyz")
	if n := probes(); n != 1 {
		t.Fatalf("just under a second later: %d probes, want 1", n)
	}
	clock.add(time.Nanosecond)
	e.get("/readyz")
	e.get("/readyz")
	if n := probes(); n != 2 {
		t.Fatalf("a second later: %d probes, want 2", n)
	}
}

// clock is a time that a test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fakeClock gives the server's /readyz a clock the test moves.
func fakeClock(s *Server) *clock {
	c := &clock{t: time.Unix(1e9, 0)}
	s.ready.mu.Lock()
	s.ready.now = c.now
	s.ready.mu.Unlock()
	return c
}

func TestDiskFullClassification(t *testing.T) {
	for _, c := range []struct {
		err  error
		full bool
	}{
		{codeErr(13), true}, {codeErr(13 | 256), true}, {codeErr(5), false},
		{stateErr("53100"), true}, {stateErr("40001"), false},
		{fmt.Errorf("write: %w", errors.New("other")), false},
	} {
		if got := errors.Is(store.DiskFull(c.err), ErrDiskFull); got != c.full {
			t.Errorf("%v: full %v", c.err, got)
		}
	}
}

type codeErr int

func (c codeErr) Error() string { return fmt.Sprintf("sqlite code %d", int(c)) }
func (c codeErr) Code() int     { return int(c) }

type stateErr string

func (s stateErr) Error() string    { return "pg " + string(s) }
func (s stateErr) SQLState() string { return string(s) }

// newTestLogger logs text to w; a test reads it after the requests.
func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(&lockedWriter{w: w}, nil))
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Issue 23.7: "resolver.New lowercases the caller's Schemes slice in
// place and Schemes: {"HTTP"} then refuses every http URL". Scheme names
// compare without case (RFC 3986 section 3.1); the Config is not touched.
func TestConfigSchemesNotModified(t *testing.T) {
	schemes := []string{"HTTP", "Https"}
	e := newEnv(t, t.TempDir()+"/db", Config{Schemes: schemes})
	tok := e.token("example")
	if schemes[0] != "HTTP" || schemes[1] != "Https" {
		t.Errorf("Config.Schemes modified: %q", schemes)
	}
	e.mustPut(tok, "urn:example:a", Record{URLs: []string{"http://a.example/", "HTTPS://b.example/"}})
	if r := e.put(tok, "urn:example:b", Record{URLs: []string{"ftp://a.example/"}}); r.code != 400 {
		t.Errorf("ftp accepted: %d", r.code)
	}
	// Import lowercases a copy too.
	res, err := Import(t.Context(), e.store, strings.NewReader("urn,url\nurn:example:c,http://c.example/\n"), FormatCSV,
		ImportOptions{Schemes: schemes})
	if err != nil || res.Lines != 1 || schemes[0] != "HTTP" {
		t.Errorf("import with HTTP: %+v %v %q", res, err, schemes)
	}
}
