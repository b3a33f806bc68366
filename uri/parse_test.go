package uri_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// und marks an undefined component in the tables below.
const und = "\x00undefined"

// ptComps is a reference's components; und marks an undefined one.
type ptComps struct {
	scheme, authority, userinfo, host, port, path, query, fragment string
	kind                                                           uri.HostKind
}

// ptGot reads the components of u through the accessors.
func ptGot(u uri.URI) ptComps {
	c := ptComps{scheme: und, authority: und, userinfo: und, host: und, port: und, query: und, fragment: und}
	if u.HasScheme() {
		c.scheme = u.Scheme()
	}
	if u.HasAuthority() {
		c.authority = u.Authority()
		c.host = u.Host()
	}
	if u.HasUserinfo() {
		c.userinfo = u.Userinfo()
	}
	if u.HasPort() {
		c.port = u.Port()
	}
	c.path = u.Path()
	if u.HasQuery() {
		c.query = u.Query()
	}
	if u.HasFragment() {
		c.fragment = u.Fragment()
	}
	c.kind = u.HostKind()
	return c
}

// ptC builds the expected components: authority-less, with the path only;
// the other fields are set by the table rows.
func ptC(scheme, path, query, fragment string) ptComps {
	return ptComps{scheme: scheme, authority: und, userinfo: und, host: und, port: und, path: path, query: query, fragment: fragment}
}

// ptA builds expected components with an authority.
func ptA(scheme, userinfo, host, port, path, query, fragment string, kind uri.HostKind) ptComps {
	auth := host
	if userinfo != und {
		auth = userinfo + "@" + auth
	}
	if port != und {
		auth += ":" + port
	}
	return ptComps{scheme: scheme, authority: auth, userinfo: userinfo, host: host, port: port, path: path, query: query, fragment: fragment, kind: kind}
}

var ptSpecExamples = []struct {
	in    string
	modes []uri.Options // nil: RFC3986 and RFC2396
	want  ptComps
}{
	// RFC 3986 1.1.2
	{"ftp://ftp.is.co.za/rfc/rfc1808.txt", nil, ptA("ftp", und, "ftp.is.co.za", und, "/rfc/rfc1808.txt", und, und, uri.RegName)},
	{"http://www.ietf.org/rfc/rfc2396.txt", nil, ptA("http", und, "www.ietf.org", und, "/rfc/rfc2396.txt", und, und, uri.RegName)},
	{"ldap://[2001:db8::7]/c=GB?objectClass?one", only3986, ptA("ldap", und, "[2001:db8::7]", und, "/c=GB", "objectClass?one", und, uri.IPv6)},
	{"mailto:John.Doe@example.com", nil, ptC("mailto", "John.Doe@example.com", und, und)},
	{"news:comp.infosystems.www.servers.unix", nil, ptC("news", "comp.infosystems.www.servers.unix", und, und)},
	{"tel:+1-816-555-1212", nil, ptC("tel", "+1-816-555-1212", und, und)},
	{"telnet://192.0.2.16:80/", nil, ptA("telnet", und, "192.0.2.16", "80", "/", und, und, uri.IPv4)},
	{"urn:oasis:names:specification:docbook:dtd:xml:4.1.2", nil, ptC("urn", "oasis:names:specification:docbook:dtd:xml:4.1.2", und, und)},
	// RFC 3986 3
	{"foo://example.com:8042/over/there?name=ferret#nose", nil, ptA("foo", und, "example.com", "8042", "/over/there", "name=ferret", "nose", uri.RegName)},
	{"urn:example:animal:ferret:nose", nil, ptC("urn", "example:animal:ferret:nose", und, und)},
	// RFC 3986 3.2.1: userinfo, "user:password" deprecated but valid
	{"ftp://user:pass@host/", nil, ptA("ftp", "user:pass", "host", und, "/", und, und, uri.RegName)},
	// RFC 3986 3.2.2: host forms
	{"http://[::1]/", only3986, ptA("http", und, "[::1]", und, "/", und, und, uri.IPv6)},
	{"http://[v7.x]/", only3986, ptA("http", und, "[v7.x]", und, "/", und, und, uri.IPvFuture)},
	{"http://192.0.2.1/", nil, ptA("http", und, "192.0.2.1", und, "/", und, und, uri.IPv4)},
	{"http://192.0.2.256/", only3986, ptA("http", und, "192.0.2.256", und, "/", und, und, uri.RegName)},
	{"http://www.example.com/", nil, ptA("http", und, "www.example.com", und, "/", und, und, uri.RegName)},
	{"http://%77ww.example.com/", only3986, ptA("http", und, "%77ww.example.com", und, "/", und, und, uri.RegName)},
	{"file:///etc/hosts", nil, ptA("file", und, "", und, "/etc/hosts", und, und, uri.RegName)}, // RFC 3986 3.2.2: empty host
	// RFC 3986 3.2.3: empty port
	{"http://example.com:/", nil, ptA("http", und, "example.com", "", "/", und, und, uri.RegName)},
	// RFC 3986 3.3
	{"mailto:fred@example.com", nil, ptC("mailto", "fred@example.com", und, und)},
	{"foo://info.example.com?fred", nil, ptA("foo", und, "info.example.com", und, "", "fred", und, uri.RegName)},
	// RFC 3986 4.2: relative references
	{"//g", nil, ptA(und, und, "g", und, "", und, und, uri.RegName)},
	{"/g", nil, ptC(und, "/g", und, und)},
	{"g", nil, ptC(und, "g", und, und)},
	{"./this:that", nil, ptC(und, "./this:that", und, und)},
	{"this:that", nil, ptC("this", "that", und, und)},
	{"?y", nil, ptC(und, "", "y", und)},
	{"#s", nil, ptC(und, "", und, "s")},
	{"g;x?y#s", nil, ptC(und, "g;x", "y", "s")},
	{"", nil, ptC(und, "", und, und)},
	{"../../../g", nil, ptC(und, "../../../g", und, und)},
	// RFC 3986 4.3: absolute-URI
	{"http://a/b/c/d;p?q", nil, ptA("http", und, "a", und, "/b/c/d;p", "q", und, uri.RegName)},
	// 1998 draft Appendix B: $2 = http, $4 = www.ics.uci.edu,
	// $5 = /pub/ietf/uri/, $7 undefined, $9 = Related
	{"http://www.ics.uci.edu/pub/ietf/uri/#Related", nil, ptA("http", und, "www.ics.uci.edu", und, "/pub/ietf/uri/", und, "Related", uri.RegName)},
	// 1998 draft 3: opaque-URI and generic-URI = scheme ":" relativeURI
	{"foo:", nil, ptC("foo", "", und, und)},
	{"http:g", nil, ptC("http", "g", und, und)}, // 1998 draft 5.2 / Appendix C
	// Undefined versus empty (issue 2; RFC 3986 5.3)
	{"foo://a/b?#", nil, ptA("foo", und, "a", und, "/b", "", "", uri.RegName)},
	{"foo://a/b", nil, ptA("foo", und, "a", und, "/b", und, und, uri.RegName)},
	{"foo://a/b#", nil, ptA("foo", und, "a", und, "/b", und, "", uri.RegName)},
	{"//", nil, ptA(und, und, "", und, "", und, und, uri.RegName)},
	{"?", nil, ptC(und, "", "", und)},
	{"#", nil, ptC(und, "", und, "")},
	{"//@:", only3986, ptA(und, "", "", "", "", und, und, uri.RegName)}, // 1998 draft: "@:" is a reg_name
	// RFC 3986 3.4, 3.5: "?" and "/" in query and fragment
	{"http://a/b?c/d?e#f/g?h", nil, ptA("http", und, "a", und, "/b", "c/d?e", "f/g?h", uri.RegName)},
}

var only3986 = []uri.Options{{}}

func TestSpecExamples(t *testing.T) {
	for _, tt := range ptSpecExamples {
		modes := tt.modes
		if modes == nil {
			modes = []uri.Options{{}, {Grammar: uri.RFC2396}}
		}
		for _, mode := range modes {
			u, err := uri.ParseWith(tt.in, mode)
			if err != nil {
				t.Errorf("ParseWith(%q, %v): %v", tt.in, mode, err)
				continue
			}
			if got := ptGot(u); got != tt.want {
				t.Errorf("ParseWith(%q, %v):\n got %#v\nwant %#v", tt.in, mode, got, tt.want)
			}
			if u.String() != tt.in {
				t.Errorf("ParseWith(%q, %v).String() = %q", tt.in, mode, u.String())
			}
			if u.Grammar() != mode.Grammar {
				t.Errorf("ParseWith(%q, %v).Grammar() = %d", tt.in, mode, u.Grammar())
			}
		}
	}
}

// TestDraftAuthority: the 1998 draft's authority = server | reg_name
// (its 3.2): an authority that is not a server is a registry name, kept
// whole as the host.
func TestDraftAuthority(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want ptComps
	}{
		{"http://u:p@h.example.:80/", ptA("http", "u:p", "h.example.", "80", "/", und, und, uri.RegName)}, // 3.2.2 server
		{"http://1.2.3.4/", ptA("http", und, "1.2.3.4", und, "/", und, und, uri.IPv4)},                    // IPv4address
		{"http://999.2.3.4/", ptA("http", und, "999.2.3.4", und, "/", und, und, uri.IPv4)},                // 1*digit: no range check
		{"http://a:b/", ptA("http", und, "a:b", und, "/", und, und, uri.RegName)},                         // port = *digit fails: reg_name
		{"http://u@s@h/", ptA("http", und, "u@s@h", und, "/", und, und, uri.RegName)},                     // two "@": reg_name
		{"http://1a/", ptA("http", und, "1a", und, "/", und, und, uri.RegName)},                           // toplabel starts with alpha: reg_name
		{"http://a_b/", ptA("http", und, "a_b", und, "/", und, und, uri.RegName)},                         // "_" not in hostname: reg_name
		{"http://a?q", ptA("http", und, "a", und, "", "q", und, uri.RegName)},                             // Appendix B split
	} {
		u, err := uri.ParseWith(tt.in, uri.Options{Grammar: uri.RFC2396})
		if err != nil {
			t.Errorf("ParseWith(%q, Options{Grammar: RFC2396}): %v", tt.in, err)
			continue
		}
		if got := ptGot(u); got != tt.want {
			t.Errorf("ParseWith(%q, Options{Grammar: RFC2396}):\n got %#v\nwant %#v", tt.in, got, tt.want)
		}
	}
}

var ptErrorTable = []struct {
	in     string
	mode   uri.Options
	off    int
	comp   uri.Component
	reason error
}{
	{"http://u@s@h/", uri.Options{}, 10, uri.ComponentHost, uri.ErrInvalidCharacter},                         // issue 2
	{"#a#b", uri.Options{}, 2, uri.ComponentFragment, uri.ErrInvalidCharacter},                               // issue 2; RFC 3986 3.5
	{"http://a:b/", uri.Options{}, 10, uri.ComponentPort, uri.ErrInvalidPort},                                // issue 2; RFC 3986 3.2.3
	{"http://a]/", uri.Options{}, 8, uri.ComponentHost, uri.ErrInvalidCharacter},                             // RFC 3986 3.2.2
	{"http://a/{x}", uri.Options{}, 9, uri.ComponentPath, uri.ErrInvalidCharacter},                           // RFC 3986 3.3
	{"%", uri.Options{}, 1, uri.ComponentPath, uri.ErrUnexpectedEnd},                                         // RFC 3986 2.1
	{"%4", uri.Options{}, 2, uri.ComponentPath, uri.ErrUnexpectedEnd},                                        // RFC 3986 2.1
	{"%4g", uri.Options{}, 2, uri.ComponentPath, uri.ErrInvalidPercent},                                      // RFC 3986 2.1
	{"http://[::1::2]/", uri.Options{}, 12, uri.ComponentHost, uri.ErrInvalidIPLiteral},                      // RFC 3986 3.2.2: one "::"
	{"http://[v7.]/", uri.Options{}, 11, uri.ComponentHost, uri.ErrInvalidIPLiteral},                         // RFC 3986 3.2.2 IPvFuture
	{"http://[fe80::a%25en1]", uri.Options{}, 15, uri.ComponentHost, uri.ErrZoneID},                          // RFC 6874 2, strict mode
	{"http://[fe80::a%en1]", uri.Options{AllowZoneID: true}, 16, uri.ComponentHost, uri.ErrInvalidIPLiteral}, // RFC 6874 2: "%25"
	{"http://a:80x/", uri.Options{}, 12, uri.ComponentPort, uri.ErrInvalidPort},                              // could be userinfo until "/"
	{"http://a@b:80x/", uri.Options{}, 13, uri.ComponentPort, uri.ErrInvalidPort},                            // after "@" the port is final
	{"http://[::1]x/", uri.Options{}, 12, uri.ComponentHost, uri.ErrInvalidCharacter},                        // RFC 3986 3.2
	{"http://www yahoo.com", uri.Options{}, 10, uri.ComponentHost, uri.ErrInvalidCharacter},                  // 4Suite bad list
	{"http://a/b c", uri.Options{}, 10, uri.ComponentPath, uri.ErrInvalidCharacter},                          // RFC 3986 2
	{"http://a/?b c", uri.Options{}, 11, uri.ComponentQuery, uri.ErrInvalidCharacter},                        // RFC 3986 3.4
	{"http://a/#b c", uri.Options{}, 11, uri.ComponentFragment, uri.ErrInvalidCharacter},                     // RFC 3986 3.5
	{"1a:b", uri.Options{}, 2, uri.ComponentPath, uri.ErrColonInFirstSegment},                                // RFC 3986 4.2 path-noscheme
	{":", uri.Options{}, 0, uri.ComponentPath, uri.ErrColonInFirstSegment},                                   // RFC 3986 4.2
	{"//a:b", uri.Options{}, 5, uri.ComponentPort, uri.ErrUnexpectedEnd},                                     // "//a:b@h" would be valid
	{"http://[", uri.Options{}, 8, uri.ComponentHost, uri.ErrUnexpectedEnd},                                  // RFC 3986 3.2.2
	{"a%zz", uri.Options{}, 2, uri.ComponentPath, uri.ErrInvalidPercent},                                     // RFC 3986 2.1
	{"http://a%zz/", uri.Options{}, 9, uri.ComponentAuthority, uri.ErrInvalidPercent},                        // RFC 3986 2.1
	// 1998 draft: its Appendix A
	{"http://[::1]/", uri.Options{Grammar: uri.RFC2396}, 7, uri.ComponentAuthority, uri.ErrInvalidCharacter}, // 2.4.3: "[" is unwise
	{"http://a/{x}", uri.Options{Grammar: uri.RFC2396}, 9, uri.ComponentPath, uri.ErrInvalidCharacter},       // 2.4.3
	{"#a#b", uri.Options{Grammar: uri.RFC2396}, 2, uri.ComponentFragment, uri.ErrInvalidCharacter},           // fragment = *uric
	{"1a:b{", uri.Options{Grammar: uri.RFC2396}, 2, uri.ComponentPath, uri.ErrColonInFirstSegment},           // 5: "this:that"
	{"a_b:c", uri.Options{Grammar: uri.RFC2396}, 3, uri.ComponentScheme, uri.ErrInvalidScheme},               // 3.1 scheme
	{"http://a%g/", uri.Options{Grammar: uri.RFC2396}, 9, uri.ComponentAuthority, uri.ErrInvalidPercent},     // 2.4.1 escaped
	{"http://a/?x y", uri.Options{Grammar: uri.RFC2396}, 11, uri.ComponentQuery, uri.ErrInvalidCharacter},    // 3.4 query = *uric
	{"%", uri.Options{Grammar: uri.RFC2396}, 1, uri.ComponentPath, uri.ErrUnexpectedEnd},                     // 2.4.1
}

func TestParseErrors(t *testing.T) {
	for _, tt := range ptErrorTable {
		_, err := uri.ParseWith(tt.in, tt.mode)
		var pe *uri.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("ParseWith(%q, %v) = %v, want *ParseError", tt.in, tt.mode, err)
			continue
		}
		if pe.Offset != tt.off || pe.Component != tt.comp || !errors.Is(err, tt.reason) || pe.Input != tt.in {
			t.Errorf("ParseWith(%q, %v) = %v (offset %d, %v, %v), want offset %d in %v, %v",
				tt.in, tt.mode, err, pe.Offset, pe.Component, pe.Reason, tt.off, tt.comp, tt.reason)
		}
	}
}

func TestParseErrorMessage(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"http://a/{x}", `uri: invalid character '{' at offset 9 in path of "http://a/{x}"`}, // STYLE.md
		{"http://u@s@h/", `uri: invalid character '@' at offset 10 in host of "http://u@s@h/"`},
		{"%4", `uri: unexpected end of input at offset 2 in path of "%4"`},
		{"a\x01", `uri: invalid character byte 0x01 at offset 1 in path of "a\x01"`},
	} {
		_, err := uri.Parse(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) error = %v, want %s", tt.in, err, tt.want)
		}
	}
}

// TestLinearTime parses 1 MB and 2 MB of pathological inputs and checks
// that the time grows linearly (with slack for noise) and stays small.
func TestLinearTime(t *testing.T) {
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"%%%%", func(n int) string { return strings.Repeat("%", n) }},
		{"../", func(n int) string { return strings.Repeat("../", n/3) }},
		{"[[[[", func(n int) string { return strings.Repeat("[", n) }},
		{"//[::[", func(n int) string { return "//" + strings.Repeat("[::", n/3) }},
		{"?%41", func(n int) string { return "?" + strings.Repeat("%41", n/3) }},
		{"//a:a:", func(n int) string { return "//" + strings.Repeat("a:", n/2) + "/" }},
		{"a/[", func(n int) string { return strings.Repeat("a/", n/2) + "[" }},
		{"#/?", func(n int) string { return "#" + strings.Repeat("/?", n/2) }},
		{"a+a+:", func(n int) string { return strings.Repeat("a+", n/2) + "b" }},
		{"%41%", func(n int) string { return strings.Repeat("%41", n/3) + "%" }},
	}
	for _, sh := range shapes {
		for _, mode := range []uri.Options{{}, {Grammar: uri.RFC2396}} {
			testshared.CheckLinear(t, fmt.Sprintf("%s mode %v", sh.name, mode), sh.make,
				func(s string) { uri.ParseWith(s, mode) })
		}
	}
}

// ptAppendixB is the regular expression of the 1998 draft's Appendix B
// (also RFC 3986 Appendix B). (?s) lets "." match every byte.
var ptAppendixB = regexp.MustCompile(`(?s)^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`)

// ptSplit is a reference's five components with their definedness.
type ptSplit struct {
	scheme, authority, path, query, fragment   string
	hasScheme, hasAuthority, hasQuery, hasFrag bool
}

// ptRegexSplit applies Appendix B: scheme = $2, authority = $4,
// path = $5, query = $7, fragment = $9; a group that did not participate
// is undefined.
func ptRegexSplit(s string) ptSplit {
	m := ptAppendixB.FindStringSubmatchIndex(s)
	g := func(n int) (string, bool) {
		if m[2*n] < 0 {
			return "", false
		}
		return s[m[2*n]:m[2*n+1]], true
	}
	var p ptSplit
	p.scheme, p.hasScheme = g(2)
	p.authority, p.hasAuthority = g(4)
	p.path, _ = g(5)
	p.query, p.hasQuery = g(7)
	p.fragment, p.hasFrag = g(9)
	return p
}

func ptURISplit(u uri.URI) ptSplit {
	return ptSplit{
		scheme: u.Scheme(), authority: u.Authority(), path: u.Path(), query: u.Query(), fragment: u.Fragment(),
		hasScheme: u.HasScheme(), hasAuthority: u.HasAuthority(), hasQuery: u.HasQuery(), hasFrag: u.HasFragment(),
	}
}

// TestAppendixBExample: the draft's own breakdown of its example.
func TestAppendixBExample(t *testing.T) {
	want := ptSplit{scheme: "http", authority: "www.ics.uci.edu", path: "/pub/ietf/uri/", fragment: "Related",
		hasScheme: true, hasAuthority: true, hasFrag: true} // 1998 draft Appendix B: $7 undefined
	const in = "http://www.ics.uci.edu/pub/ietf/uri/#Related"
	if got := ptRegexSplit(in); got != want {
		t.Errorf("regexp split %+v, want %+v", got, want)
	}
	for _, mode := range []uri.Options{{}, {Grammar: uri.RFC2396}} {
		if got := ptURISplit(ptMust(t, in, mode)); got != want {
			t.Errorf("mode %v: split %+v, want %+v", mode, got, want)
		}
	}
}

func ptMust(t *testing.T, s string, mode uri.Options) uri.URI {
	t.Helper()
	u, err := uri.ParseWith(s, mode)
	if err != nil {
		t.Fatalf("ParseWith(%q, %v): %v", s, mode, err)
	}
	return u
}
