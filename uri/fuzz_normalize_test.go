package uri

import (
	"strings"
	"testing"
)

// FuzzNormalize checks, for every input that parses (in both grammars):
// Normalize is idempotent, the normal form re-parses to the same
// components, u is Equal to it, and Key agrees with Equal.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"HTTP://www.EXAMPLE.com/",            // RFC 3986 6.2.2.1
		"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", // RFC 3986 6.2.2
		"http://example.com:80",              // RFC 3986 6.2.3
		"http://example.com:/?#",
		"scheme:/..//x",
		"a/..//b",
		"x/../a:b",
		"../..",
		"http://[2001:DB8::1]:0443/%2e%2E/",
		"foo://%41b.com:80/%7e",
		"http://[v7.X]/",
		"//h/p;q?a=b&c#f",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, mode := range []Options{{}, {AllowZoneID: true}, {Grammar: RFC2396}} {
			u, err := ParseWith(s, mode)
			if err != nil {
				continue
			}
			n := u.Normalize()
			r, err := ParseWith(n.String(), mode)
			if err != nil {
				t.Fatalf("mode %+v: Normalize(%q) = %q does not parse: %v", mode, s, n, err)
			}
			if r != n {
				t.Fatalf("mode %+v: Normalize(%q) = %q re-parses differently:\n%#v\n%#v", mode, s, n, r, n)
			}
			if m := n.Normalize(); m != n {
				t.Fatalf("mode %+v: not idempotent: %q -> %q -> %q", mode, s, n, m)
			}
			if !Equal(u, n) {
				t.Fatalf("mode %+v: %q not Equal to %q", mode, s, n)
			}
			if u.Key() != n.Key() || u.Key() != n.String() {
				t.Fatalf("mode %+v: Key(%q) = %q, Key(%q) = %q", mode, s, u.Key(), n, n.Key())
			}
			// Equal is Key equality, including against a variant.
			v, err := ParseWith(strings.ToUpper(s), mode)
			if err == nil && Equal(u, v) != (u.Key() == v.Key()) {
				t.Fatalf("mode %+v: Equal and Key disagree on %q, %q", mode, s, v)
			}
		}
	})
}
