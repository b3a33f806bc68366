package resolver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver"
)

// GuardFraming wraps the listener of an http.Server that serves a
// resolver: a request with both Content-Length and Transfer-Encoding is
// answered 400 and its connection closed (RFC 9112 section 6.3), so that
// a request smuggled after it is never answered.
func ExampleGuardFraming() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	st, _ := resolver.OpenStore(context.Background(), filepath.Join(dir, "urn.db"))
	defer st.Close()
	srv, _ := resolver.New(resolver.Config{Store: st})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(resolver.GuardFraming(hs, ln))
	defer hs.Close()

	c, _ := net.Dial("tcp", ln.Addr().String())
	defer c.Close()
	fmt.Fprint(c, "POST /admin/import HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"+
		"GET /uri-res/N2L?urn:example:a HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Close)
	// Output: 400 true
}

// Backup copies a SQLite database while it is online; the copy opens as
// a store of its own, with every record committed before the backup.
func ExampleStore_Backup() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	resolver.Import(ctx, st, strings.NewReader("urn,url\nurn:example:a,https://a.example/\n"), resolver.FormatCSV, resolver.ImportOptions{})
	if err := st.Backup(ctx, filepath.Join(dir, "backup.db")); err != nil {
		fmt.Println(err)
		return
	}
	copy, _ := resolver.OpenStore(ctx, filepath.Join(dir, "backup.db"))
	defer copy.Close()
	srv, _ := resolver.New(resolver.Config{Store: copy})
	w := request(srv, "GET", "/uri-res/N2L?urn:example:a", "", "")
	fmt.Println(w.Code, w.Header().Get("Location"))
	// Output: 303 https://a.example/
}

// request answers one request with h: a bearer token and a JSON body
// when they are not empty.
func request(h http.Handler, method, target, token, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// Suggest proposes the URN a bare identifier most likely means, as the
// lookup page and the problem details of an invalid URN do.
func ExampleDialects_Suggest() {
	var d resolver.Dialects
	fmt.Println(d.Suggest("978-0-262-03384-8"))
	fmt.Println(d.Suggest("isbn:0-395-36341-1"))
	fmt.Printf("%q\n", d.Suggest("hello"))
	// Output:
	// urn:isbn:978-0-262-03384-8
	// urn:isbn:0-395-36341-1
	// ""
}

// An import stores each record whole or refuses it whole: the second
// line of urn:example:b is refused, so its first is not stored either.
func ExampleRecordRefusal() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	csv := "urn,url\nurn:example:a,https://a.example/\nurn:example:b,https://b.example/\nurn:example:b,ftp://b.example/\n"
	res, err := resolver.Import(ctx, st, strings.NewReader(csv), resolver.FormatCSV, resolver.ImportOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("stored:", res.Lines)
	for _, r := range res.RefusedRecords {
		fmt.Println(r)
	}
	// Output:
	// stored: 1
	// urn:example:b: record refused whole (line 4: urls[0]: "ftp://b.example/" scheme "ftp" is not allowed (allowed: http, https)); 1 valid line(s) of it not stored
}

// A deleted record is deactivated, not forgotten: its URN answers 410
// Gone with the date, the reason and the successor (a problem of type
// gone), and N2L redirects to the successor's resolution.
func ExampleDeactivation() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	resolver.Import(ctx, st, strings.NewReader("urn,url\nurn:example:old,https://a.example/old\nurn:example:new,https://a.example/new\n"),
		resolver.FormatCSV, resolver.ImportOptions{})
	scope, _ := resolver.ParseScope("example")
	token, _, _ := st.CreateToken(ctx, []resolver.Scope{scope}, "example", resolver.AuditEntry{At: time.Now(), Actor: "cli", Client: "local"})
	srv, _ := resolver.New(resolver.Config{Store: st})

	// DELETE through the admin API, with a reason and a successor, which
	// must have a record.
	w := request(srv, "DELETE", "/admin/records/urn:example:old", token, `{"reason":"withdrawn","successor":"urn:example:new"}`)
	fmt.Println(w.Code)

	w = request(srv, "GET", "/uri-res/N2Ls?urn:example:old", "", "")
	var p resolver.Problem
	json.Unmarshal(w.Body.Bytes(), &p)
	fmt.Println(p.Status, strings.TrimPrefix(p.Type, resolver.ProblemBase), p.Reason, p.Successor)
	w = request(srv, "GET", "/uri-res/N2L?urn:example:old", "", "")
	fmt.Println(w.Code, w.Header().Get("Location"))
	// Output:
	// 204
	// 410 gone withdrawn urn:example:new
	// 303 /uri-res/N2L?urn:example:new
}

// Cache keeps N2L answers in memory; a write through the store drops the
// answer it changes when it commits, so the next lookup reads it anew.
func ExampleStore_Cache() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	resolver.Import(ctx, st, strings.NewReader("urn,url\nurn:example:a,https://a.example/1\n"), resolver.FormatCSV, resolver.ImportOptions{})
	if err := st.Cache(ctx, resolver.CacheOptions{Entries: 1000, Preload: true}); err != nil {
		fmt.Println(err)
		return
	}
	srv, _ := resolver.New(resolver.Config{Store: st})
	fmt.Println(request(srv, "GET", "/uri-res/N2L?urn:example:a", "", "").Header().Get("Location"))
	resolver.Import(ctx, st, strings.NewReader("urn,url\nurn:example:a,https://a.example/2\n"), resolver.FormatCSV, resolver.ImportOptions{})
	fmt.Println(request(srv, "GET", "/uri-res/N2L?urn:example:a", "", "").Header().Get("Location"))
	entries, hits, misses := st.CacheStats()
	fmt.Println(entries, hits, misses)
	// Output:
	// https://a.example/1
	// https://a.example/2
	// 1 1 1
}

// Preload fills the cache later than Cache, in the background for
// instance, as urnresolver serve does; the server answers meanwhile.
func ExampleStore_Preload() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	resolver.Import(ctx, st, strings.NewReader("urn,url\nurn:example:a,https://a.example/\nurn:example:b,https://b.example/\n"), resolver.FormatCSV, resolver.ImportOptions{})
	st.Cache(ctx, resolver.CacheOptions{Entries: 1000, Bytes: 1 << 20})
	done := make(chan int)
	go func() {
		n, err := st.Preload(ctx)
		if err != nil {
			fmt.Println(err)
		}
		done <- n
	}()
	fmt.Println(<-done, "answers preloaded")
	// Output:
	// 2 answers preloaded
}

// CacheFreshness says whether the cache answers: it does only while its
// last catch-up with the other servers' writes began within MaxStale.
func ExampleStore_CacheFreshness() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	st.Cache(ctx, resolver.CacheOptions{MaxStale: time.Hour})
	bypassed, age, current := st.CacheFreshness()
	fmt.Println(bypassed, age < time.Hour, current)
	// Output:
	// 0 true true
}
