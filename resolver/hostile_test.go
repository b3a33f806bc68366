package resolver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawRequest writes raw to the server over TCP and returns everything it
// answers: nothing between the test and the handler rewrites the request.
func rawRequest(t testing.TB, e *testEnv, raw string) string {
	t.Helper()
	c, err := net.DialTimeout("tcp", e.http.Listener.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	// A server may answer and close before reading a body it refuses
	// (413): a failed write is not the test's failure, the answer is.
	io.WriteString(c, raw)
	b, _ := io.ReadAll(c)
	return string(b)
}

func statusOf(resp string) int {
	if len(resp) < 12 {
		return 0
	}
	n, _ := strconv.Atoi(resp[9:12])
	return n
}

func headerOf(resp, name string) string {
	head, _, _ := strings.Cut(resp, "\r\n\r\n")
	for _, line := range strings.Split(head, "\r\n")[1:] {
		k, v, _ := strings.Cut(line, ":")
		if strings.EqualFold(k, name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func auditCount(t testing.TB, st *Store) int {
	t.Helper()
	entries, err := st.db.Audit(context.Background(), 100000)
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// TestHostileRequests sends requests an attacker or a broken client
// would, each written byte for byte, and checks the status and that
// nothing was stored.
func TestHostileRequests(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		e.mustPut(tok, "urn:example:x", Record{URLs: []string{"https://x.example/doc"}})
		records, audits := e.count(), auditCount(t, e.store)
		long := "urn:example:" + strings.Repeat("a", 20000)
		auth := "Authorization: Bearer " + tok + "\r\nContent-Type: application/json\r\n"

		cases := []struct {
			name string
			raw  string // request line and headers, without the final CRLF CRLF and body
			body string
			code int
		}{
			{"path traversal", "GET /../../etc/passwd HTTP/1.1", "", 404},
			{"traversal out of /uri-res", "GET /uri-res/../admin/audit HTTP/1.1", "", 404},
			{"traversal with encoded dots", "GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1", "", 404},
			{"double slash host-like path", "GET //evil.example/urn:example:x HTTP/1.1", "", 404},
			{"dot segments inside a URN are NSS characters", "GET /urn:example:x/../x HTTP/1.1", "", 404},
			{"oversized URN", "GET /uri-res/N2L?" + long + " HTTP/1.1", "", 414},
			{"oversized path form", "GET /" + long + " HTTP/1.1", "", 414},
			{"invalid UTF-8 in the NSS", "GET /uri-res/N2L?urn:example:\xff\xfe HTTP/1.1", "", 400},
			{"invalid UTF-8 in the path form", "GET /urn:example:\xc3\x28 HTTP/1.1", "", 400},
			{"percent-encoded NUL", "GET /uri-res/N2L?urn:example:a%00b HTTP/1.1", "", 400},
			{"percent-encoded NUL, path form", "GET /urn:example:x%00 HTTP/1.1", "", 400},
			{"malformed percent-encoding", "GET /uri-res/N2L?urn:example:%zz HTTP/1.1", "", 400},
			{"encoded CRLF in the NSS", "GET /uri-res/N2L?urn:example:x%0D%0ASet-Cookie:a=b HTTP/1.1", "", 404},
			{"raw CR in the request line", "GET /uri-res/N2L?urn:example:x\rSet-Cookie:a=b HTTP/1.1", "", 400},
			{"space in the URN", "GET /uri-res/N2L?urn:example:a%20b HTTP/1.1", "", 404},
			{"a URL where a URN belongs", "GET /uri-res/N2L?https://evil.example/ HTTP/1.1", "", 400},
			{"TRACE", "TRACE /urn:example:x HTTP/1.1", "", 405},
			{"unknown admin path", "GET /admin/../../etc/passwd HTTP/1.1", "", 404},
			// Writes.
			{"PUT traversal as the URN", "PUT /admin/records/../tokens HTTP/1.1\r\n" + auth, `{"urls":["https://x.example/"]}`, 400},
			{"PUT NUL in the URN", "PUT /admin/records/urn:example:n%00 HTTP/1.1\r\n" + auth, `{"urls":["https://x.example/"]}`, 400},
			{"PUT URN with a query", "PUT /admin/records/urn:example:q?=x HTTP/1.1\r\n" + auth, `{"urls":["https://x.example/"]}`, 400},
			{"open redirect: javascript:", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r1","urls":["javascript:alert(1)"]}`, 400},
			{"open redirect: scheme-relative", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r2","urls":["//evil.example/"]}`, 400},
			{"open redirect: relative path", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r3","urls":["/elsewhere"]}`, 400},
			{"open redirect: data:", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r4","urls":["data:text/html,<script>alert(1)</script>"]}`, 400},
			{"open redirect: userinfo look-alike", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r5","urls":["https://x.example@evil.example/"]}`, 400},
			{"open redirect: no host", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r6","urls":["https:///path"]}`, 400},
			{"open redirect: http: without authority", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r7","urls":["http:evil.example"]}`, 400},
			{"location with CRLF", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r8","urls":["https://x.example/\r\nSet-Cookie: a=b"]}`, 400},
			{"location with a space", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r9","urls":[" https://x.example/"]}`, 400},
			{"second location bad", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r10","urls":["https://ok.example/","vbscript:x"]}`, 400},
			{"location with a fragment", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r11","urls":["https://x.example/#top"]}`, 400},
			{"metadata not an object", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r12","metadata":[1,2]}`, 400},
			{"unknown member", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r13","owner":"me"}`, 400},
			{"two JSON values", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r14"}{"urn":"urn:example:r15"}`, 400},
			{"body over the limit", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r16","metadata":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`, 413},
			{"metadata over the limit", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r17","metadata":{"x":"` + strings.Repeat("a", 20<<10) + `"}}`, 413},
			{"too many locations", "POST /admin/records HTTP/1.1\r\n" + auth, `{"urn":"urn:example:r18","urls":[` + strings.TrimSuffix(strings.Repeat(`"https://x.example/",`, 65), ",") + `]}`, 413},
			{"wrong content type", "POST /admin/records HTTP/1.1\r\nAuthorization: Bearer " + tok + "\r\nContent-Type: text/plain\r\n", `{"urn":"urn:example:r19"}`, 415},
			{"CRLF smuggled in a header value", "POST /admin/records HTTP/1.1\r\nAuthorization: Bearer " + tok + "\rX: y\r\nContent-Type: application/json\r\n", `{"urn":"urn:example:r20"}`, 400},
		}
		for _, c := range cases {
			raw := strings.TrimSuffix(c.raw, "\r\n") + "\r\nHost: test\r\nConnection: close\r\n"
			if c.body != "" {
				raw += "Content-Length: " + strconv.Itoa(len(c.body)) + "\r\n"
			}
			raw += "\r\n" + c.body
			resp := rawRequest(t, e, raw)
			if got := statusOf(resp); got != c.code {
				t.Errorf("%s: status %d, want %d\n%.400s", c.name, got, c.code, resp)
				continue
			}
			if loc := headerOf(resp, "Location"); loc != "" {
				t.Errorf("%s: Location %q on a refused request", c.name, loc)
			}
			// Errors the handler answers are problem+json; those the
			// HTTP server refuses before the handler (a broken request
			// line) are plain.
			if c.code >= 400 && !strings.HasPrefix(c.raw, "GET /uri-res/N2L?urn:example:x\r") && !strings.Contains(c.name, "smuggled") {
				if ct := headerOf(resp, "Content-Type"); ct != "application/problem+json" {
					t.Errorf("%s: Content-Type %q", c.name, ct)
				}
			}
		}
		if n := e.count(); n != records {
			t.Errorf("%d records after the hostile requests, want %d", n, records)
		}
		if n := auditCount(t, e.store); n != audits {
			t.Errorf("%d audit entries after the hostile requests, want %d", n, audits)
		}
	})
}

// TestQComponentCannotRedirectElsewhere checks that a q-component, which
// is copied into the location's query, cannot change its host: whatever
// it holds lands after "?" (RFC 3986 section 3.4), and its CR LF can only
// be percent-encoded.
func TestQComponentCannotRedirectElsewhere(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	tok := e.token("example")
	e.mustPut(tok, "urn:example:x", Record{URLs: []string{"https://x.example/doc"}})
	for q, want := range map[string]string{
		"@evil.example":              "https://x.example/doc?@evil.example",
		"x//evil.example/":           "https://x.example/doc?x//evil.example/",
		"a%0D%0ALocation:%20evil":    "https://x.example/doc?a%0D%0ALocation:%20evil",
		"x=https://evil.example/#no": "",
	} {
		r := e.get("/urn:example:x?=" + q)
		if want == "" {
			// "#" cannot be sent in a request target; the client
			// library refuses or cuts it, so nothing to check here
			// beyond not following it.
			continue
		}
		if r.code != 303 || r.header.Get("Location") != want {
			t.Errorf("?=%s: %d %q, want %q", q, r.code, r.header.Get("Location"), want)
		}
	}
}

func TestAdminFieldNames(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	tok := e.token("example")
	cases := []struct {
		body    string
		code    int
		field   string
		pointer string
		typ     string
	}{
		{`{"urn":"urn:example:a","urls":["https://ok.example/","ftp://x.example/"]}`, 400, "urls[1]", "#/urls/1", "invalid-url"},
		{`{"urn":"urn:x:a"}`, 400, "urn", "#/urn", "invalid-urn"},
		{`{"urn":"urn:example:a","synonyms":["urn:example:ok","urn:"]}`, 400, "synonyms[1]", "#/synonyms/1", "invalid-urn"},
		{`{"urn":"urn:example:a","synonyms":["URN:EXAMPLE:a"]}`, 400, "synonyms[0]", "#/synonyms/0", "invalid-body"},
		{`{"urn":"urn:example:a","metadata":"x"}`, 400, "metadata", "#/metadata", "invalid-body"},
		{`{"urn":"urn:example:a","urls":"https://x.example/"}`, 400, "urls", "#/urls", "invalid-body"},
		{`{"urn":"urn:example:a","color":"red"}`, 400, "color", "#/color", "invalid-body"},
		{`{"urn":"urn:isbn:0-395-36341-2"}`, 400, "urn", "#/urn", "invalid-body"},
	}
	for _, c := range cases {
		r := e.do("POST", "/admin/records", map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}, c.body)
		if r.code == 403 && strings.Contains(c.body, "isbn") {
			// The token may not write isbn at all; retry with one that may.
			tok2 := e.token("isbn")
			r = e.do("POST", "/admin/records", map[string]string{"Authorization": "Bearer " + tok2, "Content-Type": "application/json"}, c.body)
		}
		if r.code != c.code {
			t.Errorf("%s: %d %s", c.body, r.code, r.body)
			continue
		}
		p := problemOf(t, r)
		if p.Field != c.field || p.Pointer != c.pointer || !strings.HasSuffix(p.Type, "#"+c.typ) {
			t.Errorf("%s: field %q pointer %q type %q, want %q %q %q", c.body, p.Field, p.Pointer, p.Type, c.field, c.pointer, c.typ)
		}
	}
	if e.count() != 0 {
		t.Fatalf("%d records stored", e.count())
	}
	var v map[string]any
	r := e.do("POST", "/admin/records", map[string]string{"Authorization": "Bearer " + tok}, `{"urn":"urn:x:a"}`)
	if err := json.Unmarshal([]byte(r.body), &v); err != nil || v["offset"] != float64(5) || v["component"] != "NID" {
		t.Fatalf("invalid URN problem: %s", r.body)
	}
}

// Issue 29.5: "a 10 MB body gets a connection reset instead of 413". A
// server that answers before reading a body and closes the connection
// with the body's bytes unread sends a TCP reset, which throws away the
// answer in the client's buffers. Every way a client sends 10 MB gets
// the 413 problem and nothing stored: with a Content-Length or chunked,
// to a record, a deactivation and an import, from net/http and from
// curl (which asks "Expect: 100-continue" for a large body, and is told
// 413 before it sends; without it, it sends the whole body).
func TestOversizedBodyGets413(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{Limits: Limits{ImportBytes: 1 << 20}})
	tok := e.token("example")
	e.mustPut(tok, "urn:example:d", Record{URLs: []string{"https://a.example/"}})
	before := auditCount(t, e.store)
	big := make([]byte, 10<<20)
	for i := range big {
		big[i] = 'x'
	}
	copy(big, `{"urls":["https://a.example/`)
	client := &http.Client{Timeout: 60 * time.Second}
	for _, c := range []struct{ method, path, ctype string }{
		{"PUT", "/admin/records/urn:example:big", "application/json"},
		{"POST", "/admin/records", "application/json"},
		{"PUT", "/admin/deactivations/urn:example:d", "application/json"},
		{"POST", "/admin/import", "application/jsonl"},
	} {
		for _, chunked := range []bool{false, true} {
			var body io.Reader = bytes.NewReader(big)
			if chunked {
				body = io.MultiReader(body) // no length: sent chunked
			}
			req, _ := http.NewRequest(c.method, e.url+c.path, body)
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", c.ctype)
			resp, err := client.Do(req)
			if err != nil {
				t.Errorf("%s %s, chunked %v: %v", c.method, c.path, chunked, err)
				continue
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if p := problemOf(t, response{code: resp.StatusCode, header: resp.Header, body: string(b)}); resp.StatusCode != 413 ||
				!strings.HasSuffix(p.Type, "#too-large") || !resp.Close {
				t.Errorf("%s %s, chunked %v: %d close %v %s", c.method, c.path, chunked, resp.StatusCode, resp.Close, b)
			}
		}
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Log("no curl: its runs skipped")
	} else {
		file := filepath.Join(t.TempDir(), "big.json")
		if err := os.WriteFile(file, big, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, expect := range []string{"Expect: 100-continue", "Expect:"} { // "Expect:" removes it
			out, err := exec.Command(curl, "-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}",
				"-X", "PUT", "-H", "Authorization: Bearer "+tok, "-H", "Content-Type: application/json", "-H", expect,
				"--data-binary", "@"+file, e.url+"/admin/records/urn:example:big").CombinedOutput()
			if err != nil || string(out) != "413" {
				t.Errorf("curl with %q: %v %s", expect, err, out)
			}
		}
	}
	if n := auditCount(t, e.store); n != before || e.count() != 1 {
		t.Errorf("something was stored: %d audit entries (were %d), %d records", n, before, e.count())
	}
	if r := e.get("/uri-res/N2L?urn:example:d"); r.code != 303 {
		t.Errorf("the deactivation was stored: %d", r.code)
	}
}
