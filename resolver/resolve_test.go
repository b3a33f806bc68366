package resolver

import (
	"encoding/json"
	"strings"
	"testing"
)

// The RFC 2169 Appendix A example: urn:cid:foo@huh.org and its three
// locations (figure 1), one of them ftp.
var cidRecord = Record{
	URN:  "urn:cid:foo@huh.org",
	URLs: []string{"http://www.huh.org/cid/foo.html", "http://www.huh.org/cid/foo.pdf", "ftp://ftp.foo.org/cid/foo.txt"},
}

func TestTHTTPServices(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{Schemes: []string{"http", "https", "ftp"}})
		tok := e.token("cid", "isbn", "nbn")
		e.mustPut(tok, cidRecord.URN, cidRecord)
		e.mustPut(tok, "urn:isbn:0-395-36341-1", Record{
			URLs:     []string{"https://books.example/0395363411?ed=1"},
			Metadata: json.RawMessage(`{"title":"The Hobbit","year":1937}`),
			Synonyms: []string{"urn:nbn:de:101-8"},
		})

		t.Run("N2L redirects 303 to the first URL (RFC 2169 3.1)", func(t *testing.T) {
			r := e.get("/uri-res/N2L?urn:cid:foo@huh.org")
			if r.code != 303 || r.header.Get("Location") != cidRecord.URLs[0] {
				t.Fatalf("got %d Location %q", r.code, r.header.Get("Location"))
			}
			if cc := r.header.Get("Cache-Control"); !strings.Contains(cc, "max-age") {
				t.Errorf("Cache-Control %q: RFC 2169 3.6 asks for HTTP caching", cc)
			}
		})
		t.Run("I2L is N2L (2012 draft 9.2.2)", func(t *testing.T) {
			r := e.get("/uri-res/I2L?urn:cid:foo@huh.org")
			if r.code != 303 || r.header.Get("Location") != cidRecord.URLs[0] {
				t.Fatalf("got %d Location %q", r.code, r.header.Get("Location"))
			}
		})
		t.Run("lexically equivalent requests get identical results (RFC 2169 section 2)", func(t *testing.T) {
			for _, form := range []string{"urn:cid:foo@huh.org", "URN:CID:foo@huh.org", "uRn:CiD:foo@huh.org", "urn:cid:foo%40huh.org"} {
				r := e.get("/uri-res/N2L?" + form)
				want := cidRecord.URLs[0]
				if form == "urn:cid:foo%40huh.org" {
					// RFC 8141 section 3.1: percent-encoding is
					// not decoded for equivalence: %40 is not "@".
					if r.code != 404 {
						t.Errorf("%s: %d, want 404 (not equivalent)", form, r.code)
					}
					continue
				}
				if r.code != 303 || r.header.Get("Location") != want {
					t.Errorf("%s: %d %q", form, r.code, r.header.Get("Location"))
				}
			}
		})
		t.Run("N2Ls is text/uri-list with the URN as first comment (RFC 2169 3.2, App. A)", func(t *testing.T) {
			r := e.get("/uri-res/N2Ls?urn:cid:foo@huh.org")
			want := "# urn:cid:foo@huh.org\r\n" + strings.Join(cidRecord.URLs, "\r\n") + "\r\n"
			if r.code != 200 || r.body != want || !strings.HasPrefix(r.header.Get("Content-Type"), "text/uri-list") {
				t.Fatalf("got %d %q %q, want %q", r.code, r.header.Get("Content-Type"), r.body, want)
			}
		})
		t.Run("I2Ls and the RFC 2483 spelling I2LS", func(t *testing.T) {
			for _, svc := range []string{"I2Ls", "I2LS"} {
				r := e.get("/uri-res/" + svc + "?urn:cid:foo@huh.org")
				if r.code != 200 || strings.Count(r.body, "\r\n") != 4 {
					t.Errorf("%s: %d %q", svc, r.code, r.body)
				}
			}
		})
		t.Run("N2Ls as HTML holds the UL of RFC 2169 3.2", func(t *testing.T) {
			r := e.do("GET", "/uri-res/N2Ls?urn:cid:foo@huh.org", map[string]string{"Accept": "text/html"}, "")
			if !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
				t.Fatalf("Content-Type %q", r.header.Get("Content-Type"))
			}
			for _, u := range cidRecord.URLs {
				if !strings.Contains(r.body, `<li><a href="`+u+`">`+u+`</a>`) {
					t.Errorf("no <LI><A HREF> for %s in %s", u, r.body)
				}
			}
		})
		t.Run("N2Ls as JSON and text/plain", func(t *testing.T) {
			r := e.do("GET", "/uri-res/N2Ls?urn:cid:foo@huh.org", map[string]string{"Accept": "application/json"}, "")
			var v struct{ URLs []string }
			if err := json.Unmarshal([]byte(r.body), &v); err != nil || len(v.URLs) != 3 || v.URLs[2] != cidRecord.URLs[2] {
				t.Fatalf("%q: %v", r.body, err)
			}
			r = e.do("GET", "/uri-res/N2Ls?urn:cid:foo@huh.org", map[string]string{"Accept": "text/plain"}, "")
			if r.body != strings.Join(cidRecord.URLs, "\r\n")+"\r\n" {
				t.Fatalf("text/plain %q", r.body)
			}
		})
		t.Run("N2R redirects 302; N2Rs answers 300 with the list", func(t *testing.T) {
			r := e.get("/uri-res/N2R?urn:cid:foo@huh.org")
			if r.code != 302 || r.header.Get("Location") != cidRecord.URLs[0] {
				t.Fatalf("N2R %d %q", r.code, r.header.Get("Location"))
			}
			r = e.get("/uri-res/N2Rs?urn:cid:foo@huh.org")
			if r.code != 300 || r.header.Get("Location") != cidRecord.URLs[0] || !strings.Contains(r.body, cidRecord.URLs[2]) {
				t.Fatalf("N2Rs %d %q %q", r.code, r.header.Get("Location"), r.body)
			}
		})
		t.Run("N2C is the record as JSON, text/plain on request (RFC 2169 3.5)", func(t *testing.T) {
			r := e.get("/uri-res/N2C?URN:ISBN:0395363411")
			var c urc
			if err := json.Unmarshal([]byte(r.body), &c); err != nil {
				t.Fatal(err)
			}
			if r.code != 200 || c.URN != "urn:isbn:0-395-36341-1" || c.Key != "urn:isbn:0395363411" ||
				string(c.Metadata) != `{"title":"The Hobbit","year":1937}` || len(c.Synonyms) != 1 {
				t.Fatalf("%d %+v", r.code, c)
			}
			r = e.do("GET", "/uri-res/I2C?urn:isbn:0-395-36341-1", map[string]string{"Accept": "text/plain"}, "")
			for _, line := range []string{"urn: urn:isbn:0-395-36341-1\r\n", "title: The Hobbit\r\n", "year: 1937\r\n", "synonym: urn:nbn:de:101-8\r\n"} {
				if !strings.Contains(r.body, line) {
					t.Errorf("text/plain N2C lacks %q: %q", line, r.body)
				}
			}
			r = e.get("/uri-res/N2Cs?urn:isbn:0-395-36341-1")
			var cs []urc
			if err := json.Unmarshal([]byte(r.body), &cs); err != nil || len(cs) != 1 {
				t.Fatalf("N2Cs %q %v", r.body, err)
			}
		})
		t.Run("N2Ns lists synonyms both ways; N2N the first (RFC 2169 3.6, RFC 2483 4.7)", func(t *testing.T) {
			r := e.get("/uri-res/N2Ns?urn:isbn:0-395-36341-1")
			if r.code != 200 || !strings.Contains(r.body, "urn:nbn:de:101-8\r\n") {
				t.Fatalf("N2Ns %d %q", r.code, r.body)
			}
			// The synonym has no record of its own; the binding is found from its side.
			r = e.get("/uri-res/N2Ns?urn:nbn:DE:101-8")
			if r.code != 200 || !strings.Contains(r.body, "urn:isbn:0-395-36341-1\r\n") {
				t.Fatalf("reverse N2Ns %d %q", r.code, r.body)
			}
			r = e.get("/uri-res/I2N?urn:nbn:de:101-8")
			if r.code != 200 || r.body != "urn:isbn:0-395-36341-1\r\n" {
				t.Fatalf("N2N %d %q", r.code, r.body)
			}
			r = e.get("/uri-res/N2N?urn:cid:foo@huh.org")
			if r.code != 404 {
				t.Fatalf("N2N without synonym: %d", r.code)
			}
			r = e.get("/uri-res/N2Ns?urn:cid:foo@huh.org")
			if r.code != 200 || r.body != "# urn:cid:foo@huh.org\r\n" {
				t.Fatalf("N2Ns without synonym: %d %q", r.code, r.body)
			}
		})
		t.Run("L2N and L2Ns find URNs by location (RFC 2169 3.7)", func(t *testing.T) {
			r := e.get("/uri-res/L2Ns?http://www.huh.org/cid/foo.pdf")
			if r.code != 200 || r.body != "# http://www.huh.org/cid/foo.pdf\r\nurn:cid:foo@huh.org\r\n" {
				t.Fatalf("L2Ns %d %q", r.code, r.body)
			}
			// RFC 3986 section 6 normalization: case of scheme and host, default port.
			r = e.get("/uri-res/L2N?HTTP://WWW.HUH.ORG:80/cid/foo.pdf")
			if r.code != 200 || r.body != "urn:cid:foo@huh.org\r\n" {
				t.Fatalf("L2N %d %q", r.code, r.body)
			}
			r = e.get("/uri-res/L2N?http://nowhere.example/")
			if r.code != 404 {
				t.Fatalf("L2N unknown %d", r.code)
			}
			r = e.get("/uri-res/L2Ns?not%20a%20url")
			if r.code != 400 || problemOf(t, r).Field != "url" {
				t.Fatalf("L2Ns invalid %d %q", r.code, r.body)
			}
		})
		t.Run("I=I and N=N (RFC 2483 4.9)", func(t *testing.T) {
			cases := []struct {
				operand, want string
			}{
				{"urn:isbn:0-395-36341-1&URN:ISBN:0395363411", "true"},    // namespace rules: hyphens (RFC 3187)
				{"urn:isbn:0-395-36341-1&urn:nbn:de:101-8", "true"},       // registered synonym
				{"urn:nbn:de:101-8&urn:isbn:0-395-36341-1", "true"},       // the other way round
				{"urn:cid:foo@huh.org&urn:isbn:0-395-36341-1", "false"},   // unrelated
				{"urn:example:a&b&urn:example:a&b", "true"},               // "&" inside the NSS, one split only
				{"urn:example:a%2Fb&urn:example:a%2fb", "true"},           // RFC 8141 3.1: hex digit case
				{"urn:example:a%2Fb&urn:example:a/b", "false"},            // ... but no decoding
				{"urn:cid:foo@huh.org&urn:cid:foo@huh.org?=q#never", "-"}, // "#" cannot be in a request
			}
			for _, c := range cases {
				if c.want == "-" {
					continue
				}
				for _, svc := range []string{"I=I", "N=N", "I%3DI"} {
					r := e.get("/uri-res/" + svc + "?" + c.operand)
					if r.code != 200 || r.body != c.want || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
						t.Errorf("%s?%s: %d %q, want %s", svc, c.operand, r.code, r.body, c.want)
					}
				}
			}
			for _, bad := range []string{"urn:example:a", "urn:example:a&urn:example:b&urn:example:c", "urn:example:a&urn:x:b"} {
				r := e.get("/uri-res/I=I?" + bad)
				if r.code != 400 {
					t.Errorf("I=I?%s: %d, want 400", bad, r.code)
				}
				problemOf(t, r)
			}
		})
		t.Run("unknown URN 404, record without location 404 no-location", func(t *testing.T) {
			r := e.get("/uri-res/N2L?urn:cid:nobody@huh.org")
			if r.code != 404 || !strings.HasSuffix(problemOf(t, r).Type, "#not-found") {
				t.Fatalf("%d %q", r.code, r.body)
			}
			e.mustPut(tok, "urn:cid:empty@huh.org", Record{Metadata: json.RawMessage(`{"note":"no copy online"}`)})
			r = e.get("/uri-res/N2L?urn:cid:empty@huh.org")
			if r.code != 404 || !strings.HasSuffix(problemOf(t, r).Type, "#no-location") {
				t.Fatalf("%d %q", r.code, r.body)
			}
			r = e.get("/uri-res/N2Ls?urn:cid:empty@huh.org")
			if r.code != 200 || r.body != "# urn:cid:empty@huh.org\r\n" {
				t.Fatalf("N2Ls of an empty record: %d %q (RFC 2169 3.2: a list of 0 or more)", r.code, r.body)
			}
			// A 404 for a URN that breaks its namespace's syntax says so.
			r = e.get("/uri-res/N2L?urn:isbn:0-395-36341-2")
			if p := problemOf(t, r); r.code != 404 || !strings.Contains(p.Detail, "check digit") {
				t.Fatalf("%d %q", r.code, r.body)
			}
		})
		t.Run("invalid URN 400 problem+json with the parser's offset and reason", func(t *testing.T) {
			r := e.get("/uri-res/N2L?urn:a:b")
			p := problemOf(t, r)
			if r.code != 400 || p.Offset == nil || *p.Offset != 5 || p.Component != "NID" ||
				!strings.Contains(p.Detail, "at offset 5") || !strings.Contains(p.Detail, "shorter than 2 characters") {
				t.Fatalf("%d %+v", r.code, p)
			}
			r = e.get("/uri-res/N2L")
			if r.code != 400 {
				t.Fatalf("no operand: %d", r.code)
			}
			r = e.get("/uri-res/X2Y?urn:cid:foo@huh.org")
			if r.code != 404 || !strings.HasSuffix(problemOf(t, r).Type, "#unsupported-service") {
				t.Fatalf("unknown service: %d %q", r.code, r.body)
			}
			r = e.do("POST", "/uri-res/N2L?urn:cid:foo@huh.org", nil, "")
			if r.code != 405 || r.header.Get("Allow") != "GET, HEAD" {
				t.Fatalf("POST: %d %q", r.code, r.header.Get("Allow"))
			}
		})
		t.Run("HEAD answers like GET", func(t *testing.T) {
			r := e.do("HEAD", "/uri-res/N2L?urn:cid:foo@huh.org", nil, "")
			if r.code != 303 || r.header.Get("Location") != cidRecord.URLs[0] {
				t.Fatalf("%d %q", r.code, r.header.Get("Location"))
			}
		})
	})
}

func TestN2LHTTP10Gets302(t *testing.T) {
	// RFC 2169 3.1: "HTTP/1.0 clients should be sent the 302".
	e := newEnv(t, t.TempDir()+"/db", Config{})
	tok := e.token("example")
	e.mustPut(tok, "urn:example:x", Record{URLs: []string{"https://x.example/"}})
	resp := rawRequest(t, e, "GET /uri-res/N2L?urn:example:x HTTP/1.0\r\n\r\n")
	if !strings.HasPrefix(resp, "HTTP/1.0 302 Found\r\n") || !strings.Contains(resp, "\r\nLocation: https://x.example/\r\n") {
		t.Fatalf("%q", resp)
	}
	resp = rawRequest(t, e, "GET /uri-res/N2L?urn:example:x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
	if !strings.HasPrefix(resp, "HTTP/1.1 303 See Other\r\n") {
		t.Fatalf("%q", resp)
	}
}

func TestPathForm(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		defaults, err := ParseServiceDefaults("issn=N2C")
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, dsn, Config{DefaultServices: defaults})
		tok := e.token("nbn", "issn")
		urls := []string{"https://nb.example/items/1?format=pdf", "https://mirror.example/1"}
		e.mustPut(tok, "urn:nbn:no-nb_digibok_1", Record{URLs: urls})
		e.mustPut(tok, "urn:issn:0167-6423", Record{URLs: []string{"https://journal.example/"}, Metadata: json.RawMessage(`{"title":"Science of Computer Programming"}`)})

		cases := []struct {
			target   string
			code     int
			location string // for redirects
			bodyHas  string
		}{
			// The namespace's default service, N2L.
			{"/urn:nbn:no-nb_digibok_1", 303, urls[0], ""},
			{"/URN:NBN:NO-nb_digibok_1", 303, urls[0], ""}, // RFC 8458: the country code is case-insensitive
			// 2012 draft 2.3.1: s= selects the service, in either spelling.
			{"/urn:nbn:no-nb_digibok_1?s=I2Ls", 200, "", urls[1]},
			{"/urn:nbn:no-nb_digibok_1?s=N2Ls", 200, "", urls[1]},
			{"/urn:nbn:no-nb_digibok_1?s=I2C", 200, "", `"key":"urn:nbn:no-nb_digibok_1"`},
			// 2012 draft 2.3.2's example query "s=I2L&c=ToC": c is not supported, so ignored.
			{"/urn:nbn:no-nb_digibok_1?s=I2L&c=ToC", 303, urls[0], ""},
			// An unknown designator falls back to the default (2.3.1 "MUST gracefully fall back").
			{"/urn:nbn:no-nb_digibok_1?s=I2U", 303, urls[0], ""},
			// A repeated registered keyword: all its directives ignored (2.3).
			{"/urn:nbn:no-nb_digibok_1?s=I2Ls&s=I2C", 303, urls[0], ""},
			// RFC 8141 r-component carrying the directive.
			{"/urn:nbn:no-nb_digibok_1?+s=I2Ls", 200, "", urls[1]},
			{"/urn:nbn:no-nb_digibok_1?+s=I2Ls?=lang=nb", 200, "", urls[1] + "?lang=nb"},
			// RFC 8141 q-component, copied into the URL's query (2.3.2).
			{"/urn:nbn:no-nb_digibok_1?=page=3", 303, urls[0] + "&page=3", ""},
			{"/urn:nbn:no-nb_digibok_1?+CH?=page=3", 303, urls[0] + "&page=3", ""}, // an r-component without directive
			// A namespace's configured default service.
			{"/urn:issn:0167-6423", 200, "", `"title":"Science of Computer Programming"`},
			{"/urn:issn:0167-6423?s=I2L", 303, "https://journal.example/", ""},
			// The L2x services make no sense here: the default instead.
			{"/urn:issn:0167-6423?s=L2Ns", 200, "", `"urn":"urn:issn:0167-6423"`},
			// Not found, invalid.
			{"/urn:nbn:no-unknown", 404, "", "no record"},
			{"/urn:nbn:", 400, "", "offset 8"},
			{"/urn:nbn:no-nb_digibok_1?s=I=I", 400, "", "two URNs"},
		}
		for _, c := range cases {
			r := e.get(c.target)
			if r.code != c.code || r.header.Get("Location") != c.location || !strings.Contains(r.body, c.bodyHas) {
				t.Errorf("GET %s: %d Location %q body %q; want %d %q containing %q", c.target, r.code, r.header.Get("Location"), r.body, c.code, c.location, c.bodyHas)
			}
		}
	})
}

func TestDialectPerNamespace(t *testing.T) {
	dia, err := ParseDialects("nbn=draft2012, example=rfc2141")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, t.TempDir()+"/db", Config{Dialects: dia})
	tok := e.token("nbn", "example", "isbn")
	// The 2012 draft's NSS has no "/" (section 2.2: NSS = 1*pchar).
	r := e.put(tok, "urn:nbn:de:a/b", Record{URLs: []string{"https://x.example/"}})
	if p := problemOf(t, r); r.code != 400 || p.Dialect != "draft2012" || p.Component != "NSS" {
		t.Fatalf("%d %+v", r.code, p)
	}
	// RFC 2141 has no "~" in the NSS (section 2.2); RFC 8141 has.
	r = e.put(tok, "urn:example:a~b", Record{URLs: []string{"https://x.example/"}})
	if p := problemOf(t, r); r.code != 400 || p.Dialect != "rfc2141" {
		t.Fatalf("%d %+v", r.code, p)
	}
	// A 2012 namespace: its query is directives, and its q-component is
	// never copied into a location (2012 draft section 2.3).
	e.mustPut(tok, "urn:nbn:de:1-7", Record{URLs: []string{"https://d-nb.example/1-2"}})
	if r := e.get("/urn:nbn:de:1-7?s=I2Ls"); r.code != 200 || !strings.Contains(r.body, "https://d-nb.example/1-2\r\n") {
		t.Fatalf("%d %q", r.code, r.body)
	}
	if r := e.get("/urn:nbn:de:1-7?s=I2L&x=1"); r.code != 303 || r.header.Get("Location") != "https://d-nb.example/1-2" {
		t.Fatalf("%d %q", r.code, r.header.Get("Location"))
	}
	// Other namespaces keep RFC 8141, where "/" is an NSS character.
	e.mustPut(tok, "urn:example:a/b", Record{URLs: []string{"https://x.example/"}})
}
