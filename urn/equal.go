package urn

import (
	"slices"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// Equivalence selects optional rules for KeyWith and EqualWith. The zero
// value is the equivalence of RFC 8141 section 3 (and of the 2012
// draft's section 5 with step 5a).
type Equivalence uint8

const (
	// KeepQuery keeps the query in the key of a Draft2012 URN: step 5b
	// of the 2012 draft's section 5, for caching resolution results,
	// with the directives in a canonical order. Without it the query is
	// removed (step 5a). The option means nothing in the other dialects,
	// whose equivalence never counts the q-component (RFC 8141 section
	// 3: "the r-component, q-component, and f-component are not taken
	// into account"), and is ignored there.
	KeepQuery Equivalence = 1 << iota

	// NamespaceRules adds the lexical equivalences that the registration
	// of the URN's namespace defines (see Lookup). They only remove false
	// negatives: URNs equal without this option stay equal with it.
	NamespaceRules
)

// Key returns the equivalence key of RFC 8141 section 3.1: the
// assigned-name with "urn" and the NID in lowercase and the hexadecimal
// digits of percent-encoded octets in the NSS in uppercase. Nothing is
// decoded, and the r-, q- and f-components are left out. Two URNs are
// equivalent exactly when their keys are equal. This is also the 2012
// draft's section 5 procedure with step 5a, and RFC 2141's section 5.
func (u URN) Key() string { return u.KeyWith(0) }

// KeyWith returns the equivalence key under the rules e selects.
func (u URN) KeyWith(e Equivalence) string {
	if u.s == "" {
		return ""
	}
	nid, nss := u.NID(), u.NSS()
	var b strings.Builder
	b.Grow(int(u.nssEnd) + 1)
	b.WriteString("urn:")
	writeLower(&b, nid)
	b.WriteByte(':')
	if e&NamespaceRules != 0 {
		if ns, ok := Lookup(nid); ok && ns.normalize != nil {
			generic := upperPct(nss)
			if ns.validate == nil || ns.validate(generic) == nil {
				b.WriteString(ns.normalize(generic))
			} else {
				b.WriteString(generic)
			}
		} else {
			writeUpperPct(&b, nss)
		}
	} else {
		writeUpperPct(&b, nss)
	}
	if q, ok := u.QComponent(); ok && e&KeepQuery != 0 && u.dialect == Draft2012 {
		b.WriteByte('?')
		b.WriteString(canonicalQuery(q))
	}
	return b.String()
}

// Equal reports whether the URNs a and b are equivalent under RFC 8141
// section 3: whether their keys are equal. It allocates nothing.
func Equal(a, b URN) bool { return equalFast(a, b) }

// EqualWith reports whether a and b are equivalent under the rules e
// selects.
func EqualWith(a, b URN, e Equivalence) bool {
	if e == 0 {
		return equalFast(a, b)
	}
	return a.KeyWith(e) == b.KeyWith(e)
}

// equalFast compares the keys of u and v without building them.
func equalFast(u, v URN) bool {
	if u.s == "" || v.s == "" {
		return u.s == v.s
	}
	a, b := u.s[4:u.nssEnd], v.s[4:v.nssEnd]
	if len(a) != len(b) || u.nidEnd != v.nidEnd {
		return false
	}
	n := int(u.nidEnd) - 4
	for i := 0; i < n; i++ {
		if chars.Lower(a[i]) != chars.Lower(b[i]) {
			return false
		}
	}
	for i := n; i < len(a); i++ {
		if a[i] == '%' && b[i] == '%' {
			if chars.Upper(a[i+1]) != chars.Upper(b[i+1]) || chars.Upper(a[i+2]) != chars.Upper(b[i+2]) {
				return false
			}
			i += 2
			continue
		}
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Normalize returns the canonical form of u with all its components kept:
// "urn" and the NID in lowercase and percent-encoded octets with
// uppercase hexadecimal digits everywhere (RFC 8141 section 3.1, 2012
// draft section 5 steps 1 to 3). Nothing is decoded and nothing is
// reordered.
func (u URN) Normalize() URN {
	if u.s == "" {
		return u
	}
	var b strings.Builder
	b.Grow(len(u.s))
	b.WriteString("urn:")
	writeLower(&b, u.NID())
	writeUpperPct(&b, u.s[u.nidEnd:])
	s := b.String()
	if s == u.s {
		return u
	}
	v := u
	v.s = s
	return v
}

// canonicalQuery returns q with percent-encoding in uppercase and its
// "&"-separated directives sorted by keyword, then by value: the
// "preferred <keywd> order" of the 2012 draft's step 5b. The draft leaves
// the order to the implementation; sorting makes it canonical.
func canonicalQuery(q string) string {
	q = upperPct(q)
	if strings.IndexByte(q, '&') < 0 {
		return q
	}
	parts := strings.Split(q, "&")
	slices.SortStableFunc(parts, func(a, b string) int {
		ka, va, _ := strings.Cut(a, "=")
		kb, vb, _ := strings.Cut(b, "=")
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
		return strings.Compare(va, vb)
	})
	return strings.Join(parts, "&")
}

func writeLower(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		b.WriteByte(chars.Lower(s[i]))
	}
}

// writeUpperPct writes s with the hexadecimal digits of its pct-encoded
// triplets in uppercase (RFC 3986 section 6.2.2.1).
func writeUpperPct(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		if c == '%' && i+2 < len(s) {
			b.WriteByte(chars.Upper(s[i+1]))
			b.WriteByte(chars.Upper(s[i+2]))
			i += 2
		}
	}
}

func upperPct(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	writeUpperPct(&b, s)
	return b.String()
}
