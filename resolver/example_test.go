package resolver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver"
)

// A resolver on a SQLite file: import two records, then resolve one of
// them as RFC 2169 section 3.1 does, with a lexically equivalent form.
func Example() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	csv := "urn,url\nurn:isbn:0-395-36341-1,https://books.example/hobbit\nurn:nbn:de:101-1,https://d-nb.example/1\n"
	if _, err := resolver.Import(ctx, st, strings.NewReader(csv), resolver.FormatCSV, resolver.ImportOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	srv, _ := resolver.New(resolver.Config{Store: st})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(ts.URL + "/uri-res/N2L?URN:ISBN:0395363411")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Location"))
	// Output: 303 https://books.example/hobbit
}

func ExampleImport() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	jsonl := `{"urn":"urn:example:a","urls":["https://a.example/"],"metadata":{"title":"A"}}
{"urn":"urn:example:b","urls":["javascript:alert(1)"]}
{"urn":"urn:x:c"}
`
	res, err := resolver.Import(ctx, st, strings.NewReader(jsonl), resolver.FormatJSONL, resolver.ImportOptions{
		Audit: resolver.AuditEntry{At: time.Now(), Actor: "example", Client: "local"}, Source: "example.jsonl",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("stored:", res.Lines)
	for _, r := range res.Refused {
		fmt.Println(r)
	}
	// Output:
	// stored: 1
	// 2: urls[0]: "javascript:alert(1)" scheme "javascript" is not allowed (allowed: http, https)
	// 3: urn: namespace identifier shorter than 2 characters at offset 5 in NID
}

func ExampleParseDialects() {
	d, err := resolver.ParseDialects("nbn=draft2012")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.For("NBN"), d.For("isbn"))
	// The 2012 draft has no "/" in the NSS; RFC 8141 has.
	_, err = d.Parse("urn:nbn:de:a/b")
	fmt.Println(err)
	n, _ := d.Parse("URN:NBN:DE:a-b?s=I2Ls")
	s, _ := n.Service()
	fmt.Println(n.Key(), s)
	// Output:
	// draft2012 rfc8141
	// invalid URN (draft2012): invalid character '/' at offset 12 in NSS
	// urn:nbn:de:a-b I2Ls
}

func ExampleDialects_ParseRequest() {
	var d resolver.Dialects // every namespace read as RFC 8141
	for _, s := range []string{"urn:example:a?+s=I2Ls?=page=2", "urn:example:a?s=I2C"} {
		n, err := d.ParseRequest(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		svc, _ := n.Service()
		q, _ := n.QComponent()
		fmt.Printf("%s service=%s q=%q (%s)\n", n.Key(), svc, q, n.Dialect())
	}
	// Output:
	// urn:example:a service=I2Ls q="page=2" (rfc8141)
	// urn:example:a service=I2C q="" (draft2012)
}

func ExampleParseScope() {
	sc, _ := resolver.ParseScope("isbn:978-3")
	var d resolver.Dialects
	for _, s := range []string{"urn:isbn:978-3-16-148410-0", "urn:isbn:978-0-395-36341-6"} {
		n, _ := d.Parse(s)
		fmt.Println(s, sc.Allows(n))
	}
	// Output:
	// urn:isbn:978-3-16-148410-0 true
	// urn:isbn:978-0-395-36341-6 false
}

func ExampleServiceByName() {
	for _, name := range []string{"I2L", "N2Ls", "I2LS", "I=I", "i2l"} {
		s, ok := resolver.ServiceByName(name)
		fmt.Println(name, s, ok)
	}
	// Output:
	// I2L N2L true
	// N2Ls N2Ls true
	// I2LS N2Ls true
	// I=I N=N true
	// i2l  false
}

func ExampleParseServiceDefaults() {
	m, _ := resolver.ParseServiceDefaults("nbn=I2Ls,issn=N2C")
	fmt.Println(m["nbn"], m["issn"])
	// Output: N2Ls N2C
}

func ExampleFormatOfFile() {
	fmt.Println(resolver.FormatOfFile("records.csv") == resolver.FormatCSV,
		resolver.FormatOfMediaType("application/x-ndjson") == resolver.FormatJSONL)
	// Output: true true
}

func ExampleStore_CreateToken() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	sc, _ := resolver.ParseScope("nbn:no-")
	secret, tok, err := st.CreateToken(ctx, []resolver.Scope{sc}, "national library", resolver.AuditEntry{At: time.Now(), Actor: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.HasPrefix(secret, "urt_"), tok.ScopeStrings())
	// The token writes the records of its scopes through the admin API.
	srv, _ := resolver.New(resolver.Config{Store: st})
	rec := `{"urls":["https://nb.example/1"]}`
	fmt.Println(request(srv, "PUT", "/admin/records/urn:nbn:no-1", secret, rec).Code)
	fmt.Println(request(srv, "PUT", "/admin/records/urn:nbn:se-1", secret, rec).Code)
	fmt.Println(request(srv, "PUT", "/admin/records/urn:nbn:no-1", secret[:len(secret)-1]+"x", rec).Code)
	// Output:
	// true [nbn:no-]
	// 201
	// 403
	// 401
}

func ExampleMetrics_WriteTo() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	st, _ := resolver.OpenStore(context.Background(), filepath.Join(dir, "urn.db"))
	defer st.Close()
	srv, _ := resolver.New(resolver.Config{Store: st})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	resp, _ := http.Get(ts.URL + "/uri-res/N2L?urn:example:none")
	resp.Body.Close()
	var b strings.Builder
	srv.Metrics().WriteTo(&b)
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "urnresolver_requests_total") {
			fmt.Println(line)
		}
	}
	// Output: urnresolver_requests_total{service="N2L",code="404"} 1
}

// Records are stored under the equivalence key with namespace rules, so
// every lexically equivalent form of a URN finds its record, and a
// synonym binding answers for both of its URNs.
func ExampleName_Key() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, _ := resolver.OpenStore(ctx, filepath.Join(dir, "urn.db"))
	defer st.Close()
	jsonl := `{"urn":"URN:ISBN:0-395-36341-1","urls":["https://a.example/1","https://b.example/1"],"synonyms":["urn:isbn:978-0-395-36341-6"]}`
	resolver.Import(ctx, st, strings.NewReader(jsonl), resolver.FormatJSONL, resolver.ImportOptions{})
	var d resolver.Dialects
	n, _ := d.Parse("urn:isbn:0395363411")
	fmt.Println(n.Key())
	srv, _ := resolver.New(resolver.Config{Store: st})
	fmt.Println(request(srv, "GET", "/uri-res/N2L?urn:isbn:0395363411", "", "").Header().Get("Location"))
	// text/uri-list: its first line a comment naming the URN asked about.
	fmt.Print(strings.ReplaceAll(request(srv, "GET", "/uri-res/N2Ns?urn:isbn:9780395363416", "", "").Body.String(), "\r\n", "\n"))
	// Output:
	// urn:isbn:0395363411
	// https://a.example/1
	// # urn:isbn:9780395363416
	// urn:isbn:0-395-36341-1
}

func ExampleIsPostgres() {
	fmt.Println(resolver.IsPostgres("postgres://resolver@db/urn"), resolver.IsPostgres("urnresolver.db"))
	// Output: true false
}
