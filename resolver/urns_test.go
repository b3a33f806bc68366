package resolver

import (
	"strings"
	"testing"
)

func TestParseRequest(t *testing.T) {
	var d Dialects
	cases := []struct {
		in, key, service, q, dialect string
		hasQ                         bool
	}{
		{in: "urn:example:a", key: "urn:example:a", dialect: "rfc8141"},
		{in: "URN:EXAMPLE:a%2f", key: "urn:example:a%2F", dialect: "rfc8141"},                                      // RFC 8141 3.1
		{in: "urn:isbn:0-395-36341-1", key: "urn:isbn:0395363411", dialect: "rfc8141"},                             // RFC 3187 rules
		{in: "urn:nbn:DE:bvb:19-146642", key: "urn:nbn:de:bvb:19-146642", dialect: "rfc8141"},                      // RFC 8458 rules
		{in: "urn:example:a?+s=I2Ls", key: "urn:example:a", service: "I2Ls", dialect: "rfc8141"},                   // r-component directive
		{in: "urn:example:a?+s=I2Ls&s=I2C", key: "urn:example:a", dialect: "rfc8141"},                              // repeated: ignored (2012 2.3)
		{in: "urn:example:a?+CH", key: "urn:example:a", dialect: "rfc8141"},                                        // RFC 8141 2.3.1's country example
		{in: "urn:example:a?=lat=1&lon=2", key: "urn:example:a", q: "lat=1&lon=2", hasQ: true, dialect: "rfc8141"}, // q-component
		{in: "urn:example:a?s=I2L&c=ToC", key: "urn:example:a", service: "I2L", dialect: "draft2012"},              // 2012 2.3.2's example
		{in: "urn:example:a?s=I2L", key: "urn:example:a", service: "I2L", dialect: "draft2012"},
		{in: "urn:example:a?x", key: "", dialect: ""},                                             // neither an RFC 8141 query nor directives
		{in: "urn:example:a/b?s=I2L", key: "urn:example:a/b", service: "I2L", dialect: "rfc8141"}, // "/": not 2012, directives apart
		{in: "urn:example:a/b?s=I2L&s=I2C", key: "urn:example:a/b", dialect: "rfc8141"},           // repeated: ignored
		{in: "urn:example:a/b?x", key: "", dialect: ""},
	}
	for _, c := range cases {
		n, err := d.ParseRequest(c.in)
		if c.key == "" {
			if err == nil {
				t.Errorf("%s: parsed as %s", c.in, n.Key())
			} else if ne := err.(*NameError); ne.Dialect != "rfc8141" {
				t.Errorf("%s: error in dialect %s, want the namespace's own", c.in, ne.Dialect)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		svc, _ := n.Service()
		q, hasQ := n.QComponent()
		if n.Key() != c.key || svc != c.service || q != c.q || hasQ != c.hasQ || n.Dialect() != c.dialect {
			t.Errorf("%s: key %q service %q q %q,%v dialect %s", c.in, n.Key(), svc, q, hasQ, n.Dialect())
		}
	}
}

func TestNameError(t *testing.T) {
	var d Dialects
	for _, c := range []struct {
		in        string
		offset    int
		component string
		reason    string
	}{
		{"urn:a:b", 5, "NID", "shorter than 2 characters"},
		{"urn:example:", 12, "NSS", ""},
		{"urn:foo:/x", 8, "NSS", "invalid character '/'"},
		{"http://x", 0, "scheme", ""},
		{"urn:example:a%00", 13, "NSS", "NUL"},
		{"urn:example:a?=x%00", 16, "components", "NUL"},
	} {
		_, err := d.Parse(c.in)
		ne, ok := err.(*NameError)
		if !ok {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if ne.Offset != c.offset || ne.Component != c.component || !strings.Contains(ne.Reason, c.reason) {
			t.Errorf("%s: offset %d component %q reason %q", c.in, ne.Offset, ne.Component, ne.Reason)
		}
	}
}

func TestParseDialects(t *testing.T) {
	d, err := ParseDialects("NBN=draft2012, isbn=RFC2141")
	if err != nil {
		t.Fatal(err)
	}
	if d.For("nbn") != "draft2012" || d.For("ISBN") != "rfc2141" || d.For("example") != "rfc8141" {
		t.Fatalf("%s", d)
	}
	if d.String() != "isbn=rfc2141,nbn=draft2012" {
		t.Fatalf("String %q", d)
	}
	for _, bad := range []string{"nbn", "=draft2012", "nbn=draft1999"} {
		if _, err := ParseDialects(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestScope(t *testing.T) {
	var d Dialects
	cases := []struct {
		scope, urn string
		allow      bool
	}{
		{"nbn", "urn:nbn:no-1", true},
		{"NBN", "URN:nbn:se-1", true},
		{"nbn", "urn:nbnx:a", false}, // a NID is not a prefix of another
		{"nbn:no-", "urn:nbn:NO-1", true},
		{"nbn:no-", "urn:nbn:se-1", false},
		{"isbn:978-3", "urn:isbn:978-3-16-148410-0", true}, // as written
		{"isbn:9783", "urn:isbn:978-3-16-148410-0", true},  // as keyed (RFC 3187: hyphens do not count)
		{"isbn:978-3", "urn:isbn:978-0-395-36341-6", false},
		{"example:a%2f", "urn:example:a%2Fb", true}, // RFC 8141 3.1: hex digit case
	}
	for _, c := range cases {
		s, err := ParseScope(c.scope)
		if err != nil {
			t.Fatalf("%s: %v", c.scope, err)
		}
		n, err := d.Parse(c.urn)
		if err != nil {
			t.Fatal(err)
		}
		if s.Allows(n) != c.allow {
			t.Errorf("scope %s, %s: %v", c.scope, c.urn, !c.allow)
		}
	}
	for _, bad := range []string{"", ":x", "a b", "nbn:/x", "n%bn"} {
		if _, err := ParseScope(bad); err == nil {
			t.Errorf("scope %q accepted", bad)
		}
	}
}

func TestServiceNames(t *testing.T) {
	// 2012 draft section 9.2.2: every registered designator.
	want := map[string]Service{"I2L": N2L, "I2Ls": N2Ls, "I2R": N2R, "I2Rs": N2Rs, "I2C": N2C, "I2Cs": N2Cs, "I2N": N2N, "I2Ns": N2Ns, "I=I": NeqN,
		// RFC 2169 section 3 and RFC 2483 section 4's spellings.
		"N2L": N2L, "N2Ls": N2Ls, "N2R": N2R, "N2C": N2C, "N2Ns": N2Ns, "L2Ns": L2Ns, "I2LS": N2Ls, "I2CS": N2Cs, "I2NS": N2Ns}
	for name, svc := range want {
		if got, ok := ServiceByName(name); !ok || got != svc {
			t.Errorf("%s: %v %v", name, got, ok)
		}
	}
	// Designators are case-sensitive tokens (2012 draft section 2.3).
	for _, name := range []string{"i2l", "n2l", "I2U", "", "L2L"} {
		if _, ok := ServiceByName(name); ok {
			t.Errorf("%q accepted", name)
		}
	}
	if _, err := ParseServiceDefaults("nbn=I2Ls,issn=N2C"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"nbn", "nbn=L2Ns", "nbn=I=I", "nbn=X"} {
		if _, err := ParseServiceDefaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCheckLocation(t *testing.T) {
	schemes := []string{"http", "https"}
	for _, c := range []struct {
		in, key string
	}{
		{"https://example.org/a?b=c", "https://example.org/a?b=c"},
		{"HTTP://Example.ORG:80/%7ea", "http://example.org/~a"}, // RFC 3986 6.2.2 and 6.2.3
		{"https://[2001:db8::1]/", "https://[2001:db8::1]/"},
		// Issue 23.6: ports a client can reach, 1 to 65535 (RFC 9293
		// section 3.1: 16 bits; RFC 6335 section 6: 0 is reserved).
		{"https://a.example:1/", "https://a.example:1/"},
		{"https://a.example:65535/", "https://a.example:65535/"},
		{"https://a.example:08080/", "https://a.example:8080/"},
		{"https://a.example:/", "https://a.example/"}, // an empty port is no port (RFC 3986 6.2.3)
	} {
		k, err := checkLocation(c.in, schemes, 4096)
		if err != nil || k != c.key {
			t.Errorf("%s: %q %v", c.in, k, err)
		}
	}
	for _, bad := range []string{"", "/a", "//evil.example/", "javascript:alert(1)", "data:,x", "mailto:a@b", "https://", "https:///a",
		"http:a", "https://u@evil.example/", "https://a.example/#f", "https://a b/", "https://a.example/\r\n", "ftp://a.example/",
		"https://a.example/" + strings.Repeat("a", 5000),
		"https://a.example:99999999999/", "https://a.example:65536/", "https://a.example:0/", "http://a.example:00000000000000000000080000/"} {
		if _, err := checkLocation(bad, schemes, 4096); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestWithQComponent(t *testing.T) {
	// RFC 8141 2.3.2: the q-component is copied to the URL's query.
	for _, c := range [][3]string{
		{"https://a/x", "", "https://a/x"},
		{"https://a/x", "p=1", "https://a/x?p=1"},
		{"https://a/x?", "p=1", "https://a/x?p=1"},
		{"https://a/x?a=b", "p=1", "https://a/x?a=b&p=1"},
	} {
		if got := withQComponent(c[0], c[1]); got != c[2] {
			t.Errorf("%q + %q = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestNegotiate(t *testing.T) {
	offers := []string{"text/uri-list", "text/html", "application/json", "text/plain"}
	for accept, want := range map[string]string{
		"":                                  "text/uri-list",
		"*/*":                               "text/uri-list",
		"text/html":                         "text/html",
		"text/*":                            "text/uri-list",
		"text/plain;q=0.5, text/html;q=0.9": "text/html",
		"application/json, */*;q=0.1":       "application/json",
		"image/png":                         "text/uri-list", // nothing acceptable: the default, not 406
		"text/html;q=0, */*":                "text/uri-list",
		"TEXT/PLAIN":                        "text/plain",
		"text/html;level=1;q=0.2, text/plain;q=0.3": "text/plain",
	} {
		if got := negotiate(accept, offers...); got != want {
			t.Errorf("Accept %q: %s, want %s", accept, got, want)
		}
	}
}

func TestPointerOf(t *testing.T) {
	for in, want := range map[string]string{"urn": "#/urn", "urls[2]": "#/urls/2", "": "", "a/b": "#/a~1b"} {
		if got := pointerOf(in); got != want {
			t.Errorf("%q: %q", in, got)
		}
	}
}
