package uri

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// TestNormalizeRFC3986 holds the examples of RFC 3986 section 6.2 and the
// rules it and the scheme specifications state.
func TestNormalizeRFC3986(t *testing.T) {
	tests := []struct{ in, want string }{
		{"HTTP://www.EXAMPLE.com/", "http://www.example.com/"},              // RFC 3986 6.2.2.1
		{"http://www.example.com/", "http://www.example.com/"},              // RFC 3986 6.2.2.1
		{"example://a/b/c/%7Bfoo%7D", "example://a/b/c/%7Bfoo%7D"},          // RFC 3986 6.2.2
		{"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D"}, // RFC 3986 6.2.2
		{"http://a/%3a%2f", "http://a/%3A%2F"},                              // RFC 3986 6.2.2.1: "%3a" is "%3A"
		{"http://a/%41%5A%61%7A%30%39%2D%2E%5F%7E", "http://a/AZaz09-._~"},  // RFC 3986 2.3, 6.2.2.2
		{"http://a/%2F%3F%23%5B%5D%40", "http://a/%2F%3F%23%5B%5D%40"},      // RFC 3986 2.2: reserved stay encoded
		{"http://%7Eu%3a@a/", "http://~u%3A@a/"},                            // RFC 3986 6.2.2.2 in userinfo
		{"http://a/?%7e#%7e", "http://a/?~#~"},                              // RFC 3986 6.2.2.2 in query and fragment
		{"http://EX%41MPLE.com/", "http://example.com/"},                    // RFC 3986 6.2.2.1 and 6.2.2.2 in host
		{"http://%C3%A9T%c3%a9.com/", "http://%C3%A9t%C3%A9.com/"},          // RFC 3986 6.2.2.1: lowercase host, uppercase hex
		{"http://user:PASS@a/", "http://user:PASS@a/"},                      // RFC 3986 6.2.2.1: userinfo is case-sensitive
		{"http://a/b/c/./../../g", "http://a/g"},                            // RFC 3986 6.2.2.3 with 5.2.4's example
		{"http://a/b/%2E%2E/c", "http://a/c"},                               // RFC 3986 6.2.2: decode, then remove dots
		{"http://example.com", "http://example.com/"},                       // RFC 3986 6.2.3
		{"http://example.com:/", "http://example.com/"},                     // RFC 3986 6.2.3
		{"http://example.com:80/", "http://example.com/"},                   // RFC 3986 6.2.3
		{"http://example.com/?", "http://example.com/?"},                    // RFC 3986 6.2.3: delimiters kept
		{"foo://a/b?#", "foo://a/b?#"},                                      // issue 2: empty query and fragment kept
		{"http://example.com:8080", "http://example.com:8080/"},             // RFC 3986 6.2.3: only the default port goes
		{"http://example.com:0080/", "http://example.com/"},                 // RFC 3986 3.2.3: port is a decimal number
		{"foo://a:/", "foo://a/"},                                           // RFC 3986 3.2.3: omit an empty port
		{"foo://a", "foo://a"},                                              // RFC 3986 6.2.3: "/" only where the scheme says
		{"https://a:443", "https://a/"},                                     // RFC 9110 4.2.2, 4.2.3
		{"wss://a:443?x", "wss://a/?x"},                                     // RFC 6455 3
		{"ftp://a:21/f", "ftp://a/f"},                                       // RFC 1738 3.2
		{"gopher://a:70/1", "gopher://a/1"},                                 // RFC 4266 2.1
		{"coap://a:5683", "coap://a/"},                                      // RFC 7252 6.1, 6.3
		{"ftp://a", "ftp://a"},                                              // RFC 1738 3.2 does not equate "" and "/"
		{"//a:80/", "//a:80/"},                                              // RFC 3986 6.2.3: no scheme, no default port
		{"http://[2001:DB8::A]/", "http://[2001:db8::a]/"},                  // RFC 5952 4.3: lowercase
		{"http://[2001:0DB8:0:0::1]/", "http://[2001:db8::1]/"},             // RFC 5952 4.1, 4.2.1, 4.3 (beyond 6.2.2, documented)
		{"http://[2001:0DB8:0:0::A]/", "http://[2001:db8::a]/"},             // issue 7: the same address as [2001:db8::a]
		{"http://[2001:db8:0:0:1:0:0:1]/", "http://[2001:db8::1:0:0:1]/"},   // RFC 5952 4.2.3: the first of two equal runs
		{"http://[2001:db8::1:1:1:1:1]/", "http://[2001:db8:0:1:1:1:1:1]/"}, // RFC 5952 4.2.2: "::" not for one group
		{"http://[::FFFF:192.0.2.1]/", "http://[::ffff:192.0.2.1]/"},        // RFC 5952 5: mapped IPv4 keeps its dotted quad
		{"http://[V7.AB:C]/", "http://[v7.ab:c]/"},                          // RFC 3986 3.2.2: host is case-insensitive
		{"/a/b/../../c", "/c"},                                              // RFC 3986 6.2.2.3 (4Suite vector too)
		{"mid/content=5/../6", "mid/6"},                                     // RFC 3986 5.2.4
		{"scheme:/..//x", "scheme:/.//x"},                                   // issue 2: "//" without authority
		{"/a/..//b", "/.//b"},                                               // RFC 3986 3.3: path-absolute cannot start "//"
		{"./a:b", "./a:b"},                                                  // RFC 3986 4.2: colon in first segment
		{"x/../a:b", "./a:b"},                                               // RFC 3986 4.2
		{"a/..//b", ".//b"},                                                 // RFC 3986 4.2: empty first segment
		{"a/b/..", "a/"},                                                    // RFC 3986 5.2.4 step 2C after merging
		{"../../g", "../../g"},                                              // RFC 3986 5.2.2: leading ".." kept in references
	}
	checkNormalize(t, Options{}, tests)
}

// checkNormalize checks the normal form of each input, parsed with mode,
// and the properties that normCheckProperties checks.
func checkNormalize(t *testing.T, mode Options, tests []struct{ in, want string }) {
	t.Helper()
	for _, tt := range tests {
		u, err := ParseWith(tt.in, mode)
		if err != nil {
			t.Fatalf("ParseWith(%q): %v", tt.in, err)
		}
		if got := u.Normalize().String(); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		normCheckProperties(t, u)
	}
}

// TestNormalizeEveryLetter: RFC 3986 6.2.2.1 (and the 1998 draft's
// section 6) for every ASCII letter, in every place of a run of
// them: the scheme, a reg-name, an IPvFuture literal, a zone-free host
// after a triplet are lowercased, a letter each in turn, and nothing
// else changes.
func TestNormalizeEveryLetter(t *testing.T) {
	const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower := strings.ToLower(upper)
	for i := range len(upper) + 1 {
		// upper[:i] in uppercase, the rest in lowercase; and the other
		// way round.
		for _, mixed := range []string{upper[:i] + lower[i:], lower[:i] + upper[i:]} {
			tests := []struct{ in, want string }{
				{"X" + mixed + "://" + mixed + ".Example/" + mixed, "x" + lower + "://" + lower + ".example/" + mixed},
				{"s://%7E" + mixed + "%41/", "s://~" + lower + "a/"},
				{"s://[v1." + mixed + "]/", "s://[v1." + lower + "]/"},
			}
			checkNormalize(t, Options{}, tests)
			checkNormalize(t, Options{Grammar: RFC2396}, []struct{ in, want string }{
				{"X" + mixed + "://" + mixed + ".Example/" + mixed, "x" + lower + "://" + lower + ".example/" + mixed},
			})
		}
	}
}

// TestNormalizeZone: with RFC 6874 zones the address is lowercased, the
// zone identifier is not (it names a local interface), and its triplets
// are normalized like any other (RFC 3986 6.2.2.1, 6.2.2.2).
func TestNormalizeZone(t *testing.T) {
	u, err := ParseWith("http://[FE80::1%25En%30]:80/", Options{AllowZoneID: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := u.Normalize().String(), "http://[fe80::1%25En0]/"; got != want {
		t.Errorf("Normalize = %q, want %q", got, want)
	}
}

// TestNormalize2396 holds the 1998 draft's section 6 rules and its
// escaping rules (sections 2.3, 2.4.2), in the RFC2396 grammar.
func TestNormalize2396(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://www.XEROX.com", "http://www.xerox.com"},    // 1998 draft 6
		{"HTTP://www.xerox.com:80", "http://www.xerox.com"}, // 1998 draft 6: explicit default port
		{"http://www.xerox.com:/", "http://www.xerox.com/"}, // 1998 draft 3.2.2: empty port means default
		{"http://a/%7e", "http://a/~"},                      // 1998 draft 2.4.2: "%7e" and "~" equivalent
		{"http://a/%21%2a%27%28%29", "http://a/!*'()"},      // 1998 draft 2.3: marks are unreserved
		{"http://a/%2f%3b", "http://a/%2F%3B"},              // 1998 draft 2.2: reserved stay escaped
		{"http://a/./b/../c", "http://a/./b/../c"},          // 1998 draft 5.2: dots are not removed
		{"http://a", "http://a"},                            // 1998 draft 6: no empty-path rule
		{"foo://%41b.com/", "foo://ab.com/"},                // 1998 draft 3.2.2: now a hostname, lowercased
		{"foo://U@V@W.X/", "foo://U@V@W.X/"},                // 1998 draft 3.2.1: reg_name, not a hostname
		{"http://User@Host:0080/", "http://User@host/"},     // 1998 draft 6: only the hostname's case
	}
	checkNormalize(t, Options{Grammar: RFC2396}, tests)
}

func TestEqualKey(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{"HTTP://www.EXAMPLE.com/", "http://www.example.com/", true},   // RFC 3986 6.2.2.1
		{"http://example.com", "http://example.com:80/", true},         // RFC 3986 6.2.3
		{"http://example.com:/", "http://example.com/", true},          // RFC 3986 6.2.3
		{"http://example.com/?", "http://example.com/", false},         // RFC 3986 6.2.3
		{"http://example.com/#", "http://example.com/", false},         // RFC 3986 6.2.3 (delimiters)
		{"http://example.com/data", "http://example.com/data/", false}, // RFC 3986 6.2.4 is not applied
		{"http://a/%7Esmith", "http://a/~smith", true},                 // RFC 3986 6.2.2.2
		{"http://a/%2F", "http://a//", false},                          // RFC 3986 2.2
		{"mailto:Joe@Example.COM", "mailto:Joe@example.com", true},     // RFC 3986 6.2.3 scheme-based: RFC 6068 2, the domain is a DNS name
		{"mailto:Joe@x.com", "mailto:JOE@x.com", false},                // the local part keeps its case
		{"gopher://h", "gopher://h/1", true},                           // RFC 4266 2.1: the default item type
		{"file://localhost/etc", "file:///etc", true},                  // RFC 8089 2
	}
	for _, tt := range tests {
		a, b := MustParse(tt.a), MustParse(tt.b)
		if got := Equal(a, b); got != tt.equal {
			t.Errorf("Equal(%q, %q) = %v", tt.a, tt.b, got)
		}
		if got := a.Key() == b.Key(); got != tt.equal {
			t.Errorf("Key(%q) == Key(%q) is %v", tt.a, tt.b, got)
		}
	}
}

func TestDefaultPort(t *testing.T) {
	tests := []struct {
		scheme string
		port   int
		ok     bool
	}{
		{"http", 80, true},       // RFC 9110 4.2.1
		{"HTTPS", 443, true},     // RFC 9110 4.2.2; RFC 3986 3.1: schemes are case-insensitive
		{"ws", 80, true},         // RFC 6455 3
		{"wss", 443, true},       // RFC 6455 3
		{"ftp", 21, true},        // RFC 1738 3.2
		{"gopher", 70, true},     // RFC 1738 3.4
		{"telnet", 23, true},     // RFC 1738 3.8
		{"nntp", 119, true},      // RFC 1738 3.7
		{"wais", 210, true},      // RFC 1738 3.9
		{"prospero", 1525, true}, // RFC 1738 3.11
		{"sip", 5060, true},      // RFC 3261 19.1.2
		{"sips", 5061, true},     // RFC 3261 19.1.2
		{"coaps", 5684, true},    // RFC 7252 6.2
		{"ldap", 389, true},      // RFC 4516 2
		{"imap", 143, true},      // RFC 5092 3
		{"mailto", 0, false},     // RFC 6068: no authority, no port
		{"", 0, false},
		{"averyveryverylongschemename", 0, false},
	}
	for _, tt := range tests {
		p, ok := DefaultPort(tt.scheme)
		if p != tt.port || ok != tt.ok {
			t.Errorf("DefaultPort(%q) = %d, %v", tt.scheme, p, ok)
		}
	}
}

func TestRemoveDotSegments(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a/b/c/./../../g", "/a/g"},    // RFC 3986 5.2.4
		{"mid/content=5/../6", "mid/6"}, // RFC 3986 5.2.4
		{"/b/c/../../../g", "/g"},       // RFC 3986 5.4.2 (merged "../../../g")
		{"/b/c/g.", "/b/c/g."},          // RFC 3986 5.4.2
		{"/b/c/./g/.", "/b/c/g/"},       // RFC 3986 5.4.2 ("./g/.")
		{"/b/c/g;x=1/../y", "/b/c/y"},   // RFC 3986 5.4.2
		{"/b/c/..", "/b/"},              // RFC 3986 5.4.1 ("..")
		{"/./g", "/g"},                  // RFC 3986 5.4.2
		{"/..//x", "//x"},               // RFC 3986 5.2.4 steps 2C, 2E
		{"a/b/../.././../../e", "/e"},   // RFC 3986 5.2.4 read literally (conformance README)
		{".", ""},                       // RFC 3986 5.2.4 step 2D
		{"../x", "x"},                   // RFC 3986 5.2.4 step 2A
	}
	for _, tt := range tests {
		if got := string(removeDotSegments([]byte("pre"), tt.in)); got != "pre"+tt.want {
			t.Errorf("removeDotSegments(%q) = %q, want %q", tt.in, got, "pre"+tt.want)
		}
	}
}

// TestNormalizeLinear: 1 MB of dot segments or escapes normalizes in
// linear time, and the result is idempotent.
func TestNormalizeLinear(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(n int) string
	}{
		{"http://a/../", func(n int) string { return "http://a/" + strings.Repeat("../", n/4) }},
		{"http://a/b/../", func(n int) string { return "http://a/" + strings.Repeat("b/", n/4) + strings.Repeat("../", n/4) }},
		{"../", func(n int) string { return strings.Repeat("../", n/4) }},
		{"a/../", func(n int) string { return strings.Repeat("a/../", n/4) }},
		{"%2e%2E/", func(n int) string { return "http://a/" + strings.Repeat("%2e%2E/", n/8) }},
		{"host %41", func(n int) string { return "http://" + strings.Repeat("%41", n/4) + "/" }},
	} {
		s := c.make(1 << 20)
		n := MustParse(s).Normalize()
		if m := n.Normalize(); m != n {
			t.Errorf("not idempotent on a %d-byte input", len(s))
		}
		testshared.CheckLinear(t, c.name, func(n int) URI { return MustParse(c.make(n)) }, func(u URI) { u.Normalize() })
	}
}

func TestNormalizeAllocs(t *testing.T) {
	a := MustParse("http://example.com/a/b?c=d#e")
	b := MustParse("HTTP://example.com:80/a/./b?c=d#e")
	r := MustParse("../a/b;p?q")
	if n := testing.AllocsPerRun(100, func() { a.Normalize() }); n != 0 {
		t.Errorf("Normalize of a normal URI: %v allocs", n)
	}
	if n := testing.AllocsPerRun(100, func() { r.Normalize() }); n != 0 {
		t.Errorf("Normalize of a normal reference: %v allocs", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = a.Key() }); n != 0 {
		t.Errorf("Key: %v allocs", n)
	}
	if n := testing.AllocsPerRun(100, func() { Equal(a, a) }); n != 0 {
		t.Errorf("Equal: %v allocs", n)
	}
	if !Equal(a, b) {
		t.Errorf("Equal(%q, %q) = false", a, b)
	}
}

// normCheckProperties checks what Normalize promises for u: the normal
// form re-parses to the same components, Normalize is idempotent, u is
// Equal to it, and Key agrees.
func normCheckProperties(t *testing.T, u URI) {
	t.Helper()
	n := u.Normalize()
	mode := Options{Grammar: u.Grammar()}
	if u.HostKind() == IPv6 && strings.Contains(u.Host(), "%") {
		mode.AllowZoneID = true
	}
	r, err := ParseWith(n.String(), mode)
	if err != nil {
		t.Fatalf("Normalize(%q) = %q does not parse: %v", u, n, err)
	}
	if r != n {
		t.Fatalf("Normalize(%q) = %q re-parses to other components:\n%#v\n%#v", u, n, r, n)
	}
	if m := n.Normalize(); m != n {
		t.Fatalf("Normalize not idempotent: %q -> %q -> %q", u, n, m)
	}
	if !Equal(u, n) || u.Key() != n.Key() {
		t.Fatalf("%q is not Equal to its normal form %q", u, n)
	}
}

// TestNormalizeProperties checks the properties on random references
// built from the bytes where normalization has something to do.
func TestNormalizeProperties(t *testing.T) {
	t.Parallel() // long and CPU-bound; not a timing test (issue 7: a fast go test ./...)
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"a", "B", ".", "..", "/", "//", ":", "@", "?", "#", "%2e", "%2E", "%41", "%7e", "%3a",
		"%2F", "[", "]", "::1", "v1.x", "80", "http:", "HTTP://", "ftp://", "foo:", "//", "1.2.3.4", "%25", "+", "&", "="}
	n := 0
	for range 200000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		for _, mode := range []Options{{}, {Grammar: RFC2396}} {
			u, err := ParseWith(b.String(), mode)
			if err != nil {
				continue
			}
			n++
			normCheckProperties(t, u)
		}
	}
	t.Logf("%d valid random references checked", n)
}
