package resolver

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
)

func TestHealthz(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	if r := e.get("/healthz"); r.code != 200 || r.body != "ok\n" {
		t.Fatalf("%d %q", r.code, r.body)
	}
	e.store.Close()
	if r := e.get("/healthz"); r.code != 503 {
		t.Fatalf("closed store: %d", r.code)
	}
	if got := e.srv.Metrics().Requests("healthz", 503); got != 1 {
		t.Fatalf("healthz 503 counted %d times", got)
	}
}

// TestMetrics checks the counters and the text exposition format: every
// line a comment or "name{labels} value", histogram buckets cumulative.
func TestMetrics(t *testing.T) {
	e := newEnv(t, t.TempDir()+"/db", Config{})
	tok := e.token("example")
	e.mustPut(tok, "urn:example:m", Record{URLs: []string{"https://m.example/"}})
	for i := 0; i < 3; i++ {
		e.get("/uri-res/N2L?urn:example:m")
	}
	e.get("/uri-res/N2L?urn:example:none")
	e.get("/urn:example:m?s=I2Ls")
	r := e.get("/metrics")
	if r.code != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("%d %q", r.code, r.header.Get("Content-Type"))
	}
	values := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(r.body))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# HELP ") || strings.HasPrefix(line, "# TYPE ") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			t.Fatalf("bad line %q", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad value in %q", line)
		}
		values[line[:i]] = v
	}
	for series, want := range map[string]float64{
		`urnresolver_requests_total{service="N2L",code="303"}`:                 3,
		`urnresolver_requests_total{service="N2L",code="404"}`:                 1,
		`urnresolver_requests_total{service="N2Ls",code="200"}`:                1,
		`urnresolver_requests_total{service="admin",code="201"}`:               1,
		`urnresolver_request_duration_seconds_count{service="N2L"}`:            4,
		`urnresolver_request_duration_seconds_bucket{service="N2L",le="+Inf"}`: 4,
	} {
		if values[series] != want {
			t.Errorf("%s = %v, want %v", series, values[series], want)
		}
	}
	prev := 0.0
	for _, b := range latencyBuckets {
		v := values[`urnresolver_request_duration_seconds_bucket{service="N2L",le="`+formatFloat(b)+`"}`]
		if v < prev {
			t.Errorf("bucket %v = %v < %v: not cumulative", b, v, prev)
		}
		prev = v
	}
	e.store.Close()
	e.get("/uri-res/N2L?urn:example:m")
	r = e.get("/metrics")
	if !strings.Contains(r.body, `urnresolver_store_errors_total{op="lookup"} 1`) {
		t.Errorf("store error not counted:\n%s", r.body)
	}
}

func TestQuoteLabel(t *testing.T) {
	if got := quoteLabel("a\"b\\c\nd"); got != `"a\"b\\c\nd"` {
		t.Fatal(got)
	}
}

// TestLookupPage renders the page without a browser; the browser test
// (browser_test.go) drives it in Chromium.
func TestLookupPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("isbn")
		e.mustPut(tok, "urn:isbn:0-395-36341-1", Record{URLs: []string{"https://books.example/hobbit?x=1&y=2"},
			Metadata: []byte(`{"title":"The <Hobbit>","year":1937}`), Synonyms: []string{"urn:isbn:978-0-395-36341-6"}})
		r := e.get("/")
		if r.code != 200 || !strings.Contains(r.body, `<form id="lookup" method="get" action="/"`) ||
			!strings.Contains(r.header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Fatalf("%d %s", r.code, r.body)
		}
		r = e.get("/?urn=URN:ISBN:0395363411%3F%3Dlang%3Den%23chapter-2")
		for _, want := range []string{
			`<a href="https://books.example/hobbit?x=1&amp;y=2"`, // attribute-escaped
			"<dt>title</dt><dd>The &lt;Hobbit&gt;</dd>",
			"<dt>year</dt><dd>1937</dd>",
			"<code>urn:isbn:0395363411</code>", // lookup key
			"urn:isbn:978-0-395-36341-6",       // synonym
			"<code>lang=en</code> — copied into the query",
			"<code>chapter-2</code> — never sent to a resolver",
			`href="/uri-res/N2L?urn:isbn:0395363411?=lang=en"`,
		} {
			if !strings.Contains(r.body, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		r = e.get("/?urn=urn:foo:/x&part=result")
		if r.code != 400 || strings.Contains(r.body, "<html") ||
			!strings.Contains(r.body, `<span class="ok">urn:foo:</span><mark>/</mark><span class="rest">x</span>`) ||
			!strings.Contains(r.body, "Offset 8 in the NSS") {
			t.Fatalf("invalid URN fragment: %d %s", r.code, r.body)
		}
		r = e.get("/?urn=%3Cscript%3Ealert(1)%3C/script%3E")
		if strings.Contains(r.body, "<script>alert") {
			t.Fatal("input reflected unescaped")
		}
		r = e.get("/?urn=urn:isbn:0-395-36341-2")
		if r.code != 404 || !strings.Contains(r.body, "check digit") {
			t.Fatalf("%d %s", r.code, r.body)
		}
		for _, f := range []string{"/static/lookup.js", "/static/lookup.css"} {
			if r := e.get(f); r.code != 200 || len(r.body) < 100 {
				t.Errorf("%s: %d", f, r.code)
			}
		}
		if r := e.get("/static/../page.go"); r.code != 404 {
			t.Errorf("static traversal: %d", r.code)
		}
		// N2C as HTML is the page.
		r = e.do("GET", "/uri-res/N2C?urn:isbn:0-395-36341-1", map[string]string{"Accept": "text/html"}, "")
		if r.code != 303 || r.header.Get("Location") != "/?urn=urn%3Aisbn%3A0-395-36341-1" {
			t.Fatalf("N2C html: %d %q", r.code, r.header.Get("Location"))
		}
	})
}
