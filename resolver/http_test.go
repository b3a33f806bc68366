package resolver

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
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
// the 503 of the write and of /readyz say the disk is full. The full disk
// is SQLite's own SQLITE_FULL, reached with max_page_count.
func TestReadyzDiskFull(t *testing.T) {
	var logs strings.Builder
	e := newEnv(t, t.TempDir()+"/db", Config{Logger: newTestLogger(&logs)})
	tok := e.token("example")
	if r := e.get("/readyz"); r.code != 200 || r.body != "ready\n" {
		t.Fatalf("readyz: %d %q", r.code, r.body)
	}
	var pages int
	if err := e.store.w.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.w.Exec(fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
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
	if r := e.get("/readyz"); r.code != 503 || !strings.Contains(problemOf(t, r).Detail, "disk is full") {
		t.Fatalf("readyz on a full disk: %d %s", r.code, r.body)
	}
	if r := e.get("/healthz"); r.code != 200 {
		t.Fatalf("healthz: %d (the process is alive)", r.code)
	}
	// Space comes back: a write succeeds and /readyz is 200 again.
	if _, err := e.store.w.Exec(`PRAGMA max_page_count = 1073741823`); err != nil {
		t.Fatal(err)
	}
	e.mustPut(tok, "urn:example:big", big)
	if r := e.get("/readyz"); r.code != 200 {
		t.Fatalf("readyz after space came back: %d %s", r.code, r.body)
	}
	// Another failure than a full disk: the store is closed.
	e.store.Close()
	if r := e.get("/readyz"); r.code != 503 || strings.Contains(r.body, "full") {
		t.Fatalf("readyz, store closed: %d %s", r.code, r.body)
	}
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
		if got := errors.Is(diskFull(c.err), ErrDiskFull); got != c.full {
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
