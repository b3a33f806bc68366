package uri

import (
	"iter"
	"strings"
)

// Params is a read-only view of a query as key=value pairs, the
// convention of HTML forms and most HTTP APIs (RFC 3986 3.4 gives the
// query no inner structure). The raw query stays the source: pairs are
// found by scanning it, in order, duplicates kept, each with its key and
// value as written, so nothing of the original form is lost (unlike a
// map, which loses order, golang/go#29985).
//
// Pairs are separated by "&" only; ";" is an ordinary character here
// (the W3C's old advice to accept it too is not followed). Empty pieces
// ("a&&b", a trailing "&") are skipped. The zero Params has no pairs.
type Params struct{ raw string }

// QueryParams returns the key=value view of u's query.
func (u URI) QueryParams() Params { return Params{raw: u.Query()} }

// ParseParams returns the key=value view of a raw query (without "?").
// The query is not validated; a malformed triplet stays undecoded.
func ParseParams(rawQuery string) Params { return Params{raw: rawQuery} }

// Raw returns the query the view reads, as written.
func (p Params) Raw() string { return p.raw }

// Param is one key=value pair of a query.
type Param struct {
	raw string // the pair as written
	eq  int    // offset of the first "=", or -1
}

// Raw returns the pair as written, "=" included.
func (q Param) Raw() string { return q.raw }

// RawKey returns the key as written: the text before the first "=".
func (q Param) RawKey() string {
	if q.eq < 0 {
		return q.raw
	}
	return q.raw[:q.eq]
}

// RawValue returns the value as written: the text after the first "=",
// or "" when there is no "=".
func (q Param) RawValue() string {
	if q.eq < 0 {
		return ""
	}
	return q.raw[q.eq+1:]
}

// HasValue reports whether the pair has an "=" ("a=" has an empty value,
// "a" has none).
func (q Param) HasValue() bool { return q.eq >= 0 }

// Key returns the key with its percent-encoding decoded. "+" stays "+":
// RFC 3986 gives it no meaning; see FormKey.
func (q Param) Key() string { return unescapeLoose(q.RawKey(), false) }

// Value returns the value with its percent-encoding decoded. "+" stays
// "+"; see FormValue.
func (q Param) Value() string { return unescapeLoose(q.RawValue(), false) }

// FormKey returns the key decoded as application/x-www-form-urlencoded
// (HTML): "+" is a space, then triplets are decoded.
func (q Param) FormKey() string { return unescapeLoose(q.RawKey(), true) }

// FormValue returns the value decoded as application/x-www-form-urlencoded.
func (q Param) FormValue() string { return unescapeLoose(q.RawValue(), true) }

// All returns an iterator over the pairs in order, with their index
// among the pairs. It allocates nothing.
func (p Params) All() iter.Seq2[int, Param] {
	return func(yield func(int, Param) bool) {
		s := p.raw
		n := 0
		for len(s) > 0 {
			piece, rest, _ := strings.Cut(s, "&")
			s = rest
			if piece == "" {
				continue
			}
			if !yield(n, Param{raw: piece, eq: strings.IndexByte(piece, '=')}) {
				return
			}
			n++
		}
	}
}

// Len returns the number of pairs.
func (p Params) Len() int {
	n := 0
	for range p.All() {
		n++
	}
	return n
}

// Lookup returns the first pair whose decoded key is key.
func (p Params) Lookup(key string) (Param, bool) {
	for _, q := range p.All() {
		if keyIs(q.RawKey(), key, false) {
			return q, true
		}
	}
	return Param{}, false
}

// Get returns the decoded value of the first pair whose decoded key is
// key, and whether there is one.
func (p Params) Get(key string) (string, bool) {
	q, ok := p.Lookup(key)
	if !ok {
		return "", false
	}
	return q.Value(), true
}

// Values returns the decoded values of every pair whose decoded key is
// key, in order, or nil.
func (p Params) Values(key string) []string {
	var vs []string
	for _, q := range p.All() {
		if keyIs(q.RawKey(), key, false) {
			vs = append(vs, q.Value())
		}
	}
	return vs
}

// FormGet is Get with form decoding of keys and values ("+" is a space).
func (p Params) FormGet(key string) (string, bool) {
	for _, q := range p.All() {
		if keyIs(q.RawKey(), key, true) {
			return q.FormValue(), true
		}
	}
	return "", false
}

// keyIs reports whether raw, decoded, equals key, without allocating.
func keyIs(raw, key string, form bool) bool {
	k := 0
	for i := 0; i < len(raw); k++ {
		var c byte
		c, i = looseByte(raw, i, form)
		if k >= len(key) || key[k] != c {
			return false
		}
	}
	return k == len(key)
}

// unescapeLoose decodes the valid triplets of s (and "+" as a space
// when form is set), leaving a malformed "%" as it is.
func unescapeLoose(s string, form bool) string {
	if strings.IndexByte(s, '%') < 0 && (!form || strings.IndexByte(s, '+') < 0) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		var c byte
		c, i = looseByte(s, i, form)
		b = append(b, c)
	}
	return string(b)
}

// looseByte returns the byte that s[i:] starts with once decoded, and the
// index that follows it: a valid triplet gives its octet, a malformed "%"
// itself, and "+" a space when form is set.
func looseByte(s string, i int, form bool) (byte, int) {
	c := s[i]
	switch {
	case c == '%' && i+2 < len(s) && unhex(s[i+1]) < 16 && unhex(s[i+2]) < 16:
		return unhex(s[i+1])<<4 | unhex(s[i+2]), i + 3
	case c == '+' && form:
		return ' ', i + 1
	}
	return c, i + 1
}

// SearchKeywords returns the keywords of an ISINDEX search query, the
// form "search = xalphas [ + search ]" of the 1993 and 1994 URL drafts:
// the query split at "+", each keyword percent-decoded (so "%2B" is a
// literal "+" inside a keyword). It returns nil when u has no query or
// an empty one. It does not check that the query is such a list; a
// query of key=value pairs is better read with QueryParams.
func (u URI) SearchKeywords() []string {
	q := u.Query()
	if q == "" {
		return nil
	}
	kw := make([]string, 0, strings.Count(q, "+")+1)
	for piece := range strings.SplitSeq(q, "+") {
		kw = append(kw, unescapeLoose(piece, false))
	}
	return kw
}
