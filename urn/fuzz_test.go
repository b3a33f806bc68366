package urn

import (
	"errors"
	"testing"
)

var fuzzSeeds = []string{
	"urn:example:a123,z456", "URN:EXAMPLE:a123%2cz456?+abc?=xyz#789", "urn:example:%D0%B0123,z456",
	"urn:foo:a123,456?s=I2L&c=ToC#x", "urn:example:a?q??r#f", "urn:a:b", "urn:urn:x", "urn:ab:%00",
	"urn:ietf:params:xml:ns:a", "urn:isbn:0-395-36341-1", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
	"", "urn:", "urn:ab:c?", "urn:ab:c???x", "urn:ab:c?a--b=x", "urn:" + "a123456789012345678901234567890-:x",
}

// FuzzParse checks, in every dialect, that Parse never panics, that a
// parsed URN prints back as its input, that the error offset is within
// the input, and that Normalize gives a URN of the same dialect that is
// equivalent and a fixed point.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range []Dialect{RFC8141, Draft2015, Draft2012, RFC2141} {
			u, err := ParseWith(s, Options{Dialect: d})
			// The common case of parse gives what the component by
			// component scan gives (issue 18).
			if v, err2 := parseSlow(s, d); v != u || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
				t.Fatalf("%v: %q: Parse = %v, %v; component by component %v, %v", d, s, u, err, v, err2)
			}
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) || pe.Input != s {
					t.Fatalf("%v: %q: bad error %v", d, s, err)
				}
				continue
			}
			if u.String() != s {
				t.Fatalf("%v: String() = %q, want %q", d, u.String(), s)
			}
			n := u.Normalize()
			again, err := ParseWith(n.String(), Options{Dialect: d})
			if err != nil {
				t.Fatalf("%v: Normalize(%q) = %q does not parse: %v", d, s, n, err)
			}
			if again != n || !Equal(n, u) || again.Normalize() != n {
				t.Fatalf("%v: Normalize(%q) = %q is not a canonical equivalent", d, s, n)
			}
			_ = u.Display()
			_ = u.Directives()
			_ = u.ValidateNamespace()
			_ = u.DecodedNSS()
		}
	})
}

// FuzzKey checks that Key is idempotent (the key of a key is itself) and
// that Equal is reflexive and symmetric and agrees with Key, with and
// without the options.
func FuzzKey(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+1)%len(fuzzSeeds)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, d := range []Dialect{RFC8141, Draft2015, Draft2012, RFC2141} {
			u, err1 := ParseWith(a, Options{Dialect: d})
			v, err2 := ParseWith(b, Options{Dialect: d})
			if err1 != nil || err2 != nil {
				continue
			}
			for _, e := range []Equivalence{0, NamespaceRules, KeepQuery, KeepQuery | NamespaceRules} {
				k := u.KeyWith(e)
				ku, err := ParseWith(k, Options{Dialect: d})
				if err != nil {
					t.Fatalf("%v: KeyWith(%q, %v) = %q does not parse: %v", d, a, e, k, err)
				}
				if ku.KeyWith(e) != k {
					t.Fatalf("%v: KeyWith not idempotent: %q -> %q -> %q", d, a, k, ku.KeyWith(e))
				}
				if !EqualWith(u, u, e) {
					t.Fatalf("%v: EqualWith(%q, itself, %v) is false", d, a, e)
				}
				if EqualWith(u, v, e) != EqualWith(v, u, e) {
					t.Fatalf("%v: EqualWith(%q, %q, %v) not symmetric", d, a, b, e)
				}
				if EqualWith(u, v, e) != (k == v.KeyWith(e)) {
					t.Fatalf("%v: EqualWith(%q, %q, %v) disagrees with KeyWith", d, a, b, e)
				}
				if e&NamespaceRules != 0 && EqualWith(u, v, e&^NamespaceRules) && !EqualWith(u, v, e) {
					t.Fatalf("%v: namespace rules separate %q and %q", d, a, b)
				}
			}
		}
	})
}

// parseSlow is parse without its common case: the scheme, the NID, then
// parseAfterNID.
func parseSlow(s string, d Dialect) (URN, error) {
	if len(s) < 4 || s[0]|0x20 != 'u' || s[1]|0x20 != 'r' || s[2]|0x20 != 'n' || s[3] != ':' {
		return URN{}, failScheme(s)
	}
	i, err := parseNID(s, d)
	if err != nil {
		return URN{}, err
	}
	return parseAfterNID(s, d, i)
}
