package uri

import (
	"iter"
	"strconv"
	"strings"
)

// Params is the key=value view of a query, the convention of HTML forms
// and most HTTP APIs (RFC 3986 3.4 gives the query no inner structure).
// The raw query stays the source: pairs are found by scanning it, in
// order, duplicates kept, each with its key and value as written, so
// nothing of the original form is lost (unlike url.Values, a map, which
// loses order: golang/go#29985).
//
// As with url.Values, keys and values are decoded as HTML forms decode
// them (application/x-www-form-urlencoded: "+" is a space, then
// triplets), and the methods that edit (Add, Set, Replace, Del,
// DeleteFunc, Trim, Keep, Sort) change p in place; Encode returns the
// query text to put back. Pairs an edit does not touch keep their text
// byte for byte.
//
// Pairs are separated by "&" unless WithSeparator says otherwise (";"
// is an ordinary character by default: golang/go#25192 removed it from
// net/url). Empty pieces ("a&&b", a trailing "&") are skipped. The zero
// Params has no pairs.
type Params struct {
	raw string
	sep byte // 0: "&"
}

// QueryParams returns the key=value view of u's query.
func (u URI) QueryParams() Params { return Params{raw: u.Query()} }

// ParseParams returns the key=value view of a raw query (without "?").
// The query is not validated; a malformed triplet stays undecoded.
func ParseParams(rawQuery string) Params { return Params{raw: rawQuery} }

// WithSeparator returns the view of the same query with pairs separated
// by sep instead of "&" (";" for the queries some servers write, as in
// "search=fool;page=5"). It panics if sep is "=" or not an ASCII
// character allowed in a query.
func (p Params) WithSeparator(sep byte) Params {
	if !isQuerySep(sep) {
		panic("uri: WithSeparator: " + strconv.QuoteRune(rune(sep)) + " cannot separate query pairs")
	}
	p.sep = sep
	return p
}

// isQuerySep reports whether c can separate the pairs of a query: a
// delimiter a query holds unencoded (RFC 3986 3.4: sub-delims, ":",
// "@", "/", "?"), other than the "=" inside a pair.
func isQuerySep(c byte) bool { return strings.IndexByte("!$&'()*+,;:@/?", c) >= 0 }

// Separator returns the byte that separates the pairs ("&" by default).
func (p Params) Separator() byte {
	if p.sep == 0 {
		return '&'
	}
	return p.sep
}

// Encode returns the query the view holds, as written, without "?":
// the text to give Editor.SetParams or SetRaw, like url.Values.Encode
// but with the pairs in their order and untouched pairs as they were
// written. With the "&" separator, url.ParseQuery reads every pair that
// Add, Set or Replace wrote back to its key and value, as this view
// does: their keys and values are encoded with QueryValueSet (";"
// included, which url.ParseQuery refuses). A pair no edit touched keeps
// its bytes, even a ";" or a malformed "%" that url.ParseQuery refuses:
// the view never rewrites what it was not asked to change.
func (p Params) Encode() string { return p.raw }

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
	if q.eq < 0 || q.raw == "" { // the zero Param has no value
		return ""
	}
	return q.raw[q.eq+1:]
}

// HasValue reports whether the pair has an "=" ("a=" has an empty value,
// "a" has none).
func (q Param) HasValue() bool { return q.eq >= 0 }

// Key returns the key decoded as a form decodes it: "+" is a space,
// then the triplets are decoded (a malformed "%" stays as it is).
func (q Param) Key() string { return unescapeLoose(q.RawKey(), true) }

// Value returns the value decoded as a form decodes it (see Key).
func (q Param) Value() string { return unescapeLoose(q.RawValue(), true) }

// All returns an iterator over the pairs in order, with their index
// among the pairs. It allocates nothing.
func (p Params) All() iter.Seq2[int, Param] {
	return func(yield func(int, Param) bool) {
		s, sep := p.raw, p.Separator()
		n := 0
		for len(s) > 0 {
			var piece string
			if i := strings.IndexByte(s, sep); i >= 0 {
				piece, s = s[:i], s[i+1:]
			} else {
				piece, s = s, ""
			}
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

// Has reports whether a pair has the decoded key key.
func (p Params) Has(key string) bool {
	_, ok := p.Lookup(key)
	return ok
}

// Lookup returns the first pair whose decoded key is key.
func (p Params) Lookup(key string) (Param, bool) {
	for _, q := range p.All() {
		if keyIs(q.RawKey(), key) {
			return q, true
		}
	}
	return Param{}, false
}

// Get returns the decoded value of the first pair whose decoded key is
// key, or "" when there is none, like url.Values.Get; Lookup tells an
// absent key from an empty value.
func (p Params) Get(key string) string {
	q, ok := p.Lookup(key)
	if !ok {
		return ""
	}
	return q.Value()
}

// Values returns the decoded values of every pair whose decoded key is
// key, in order, or nil.
func (p Params) Values(key string) []string {
	var vs []string
	for _, q := range p.All() {
		if keyIs(q.RawKey(), key) {
			vs = append(vs, q.Value())
		}
	}
	return vs
}

// keyIs reports whether raw, decoded as a form key, equals key, without
// allocating.
func keyIs(raw, key string) bool {
	k := 0
	for i := 0; i < len(raw); k++ {
		var c byte
		c, i = looseByte(raw, i, true)
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
