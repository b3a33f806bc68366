package uri

import (
	"math/bits"

	"github.com/urikit/urikit/internal/chars"
)

// The classes of parseMasks: each is a class of RFC 3986 Appendix A
// without pct-encoded (a "%" sends the URI to parse3986, which checks
// its triplets).
const (
	mScheme  = iota // scheme's tail: ALPHA / DIGIT / "+" / "-" / "."
	mHost           // reg-name: unreserved / sub-delims
	mPath           // path: pchar / "/"
	mQuery          // query, fragment: pchar / "/" / "?"
	mDigit          // port: DIGIT
	mColon          // ":", where the host ends and the port begins
	mPercent        // "%"
	mSlash          // "/", where a path's first segment ends
)

var uriClasses = chars.NewClassifier(func(b byte) uint8 {
	var v uint8
	for k, c := range [...]chars.Class{mScheme: chars.Scheme, mHost: chars.RegName, mPath: chars.PathChar, mQuery: chars.QueryFrag, mDigit: chars.Digit} {
		if chars.Is(b, c) {
			v |= 1 << k
		}
	}
	switch b {
	case ':':
		v |= 1 << mColon
	case '%':
		v |= 1 << mPercent
	case '/':
		v |= 1 << mSlash
	}
	return v
})

// useMasks reports whether Parse tries parseMasks on s first: when
// Masks runs in vector instructions (elsewhere it is slower than
// parse3986), and s is 16 bytes or longer. A shorter reference ("g",
// "../", "#top") is parsed by parse3986 in a few bytes' tests, fewer
// than the classification costs.
func useMasks(s string) bool { return chars.Vector && len(s) >= 16 }

// below returns the bits under bit i (i <= 64).
func below(i int) uint64 { return 1<<uint(i) - 1 }

// parseMasks sets the zero URI u to s when s is at most
// chars.MaxMasked bytes of the shape most references have,
// [ scheme ":" ] [ "//" reg-name [ ":" port ] ] path [ "?" query ]
// [ "#" fragment ] with no pct-encoded triplet (so no userinfo and no
// IP literal either), and reports whether it did. The bytes are
// classified at once (chars.Classifier), and each component ends at the
// first byte past its start outside its class: a trailing-zero count,
// where a loop of parse3986 ends at a place that differs from URL to
// URL, a branch the processor cannot predict. For every other string,
// valid or not, it reports false and leaves u as it was: parse3986 then
// decides, so the two parsers can differ only in what parseMasks
// takes, which the tests compare with parse3986 (both corpora, every
// byte in every place of many shapes, random strings, fuzzing).
func parseMasks(s string) (URI, bool) {
	n := len(s)
	if n == 0 || n > chars.MaxMasked {
		return URI{}, false
	}
	var m [8]uint64
	uriClasses.Masks(s, &m)
	if m[mPercent] != 0 {
		return URI{}, false
	}
	all := below(n)
	var f flags
	i := 0 // where the hier-part or relative-part begins
	j := 0 // the scheme's end
	if chars.Is(s[0], chars.Alpha) {
		// scheme ":", or else the start of a path's first segment.
		if j = bits.TrailingZeros64(^m[mScheme] & all); j < n && s[j] == ':' {
			f |= hasScheme
			i = j + 1
		} else {
			j = 0
		}
	}
	a, k, e := i, i, i // the host's start and end, the authority's end
	if i+1 < n && s[i] == '/' && s[i+1] == '/' {
		// authority: reg-name and ":" up to "/", "?", "#" or the end; a
		// "@" or "[" stops it elsewhere, and parse3986 takes those.
		f |= hasAuthority
		a = i + 2
		e = min(bits.TrailingZeros64(^(m[mHost]|m[mColon])&all&^below(a)), n)
		if e < n && s[e] != '/' && s[e] != '?' && s[e] != '#' {
			return URI{}, false
		}
		k = e
		if colons := m[mColon] & below(e) &^ below(a); colons != 0 {
			k = bits.TrailingZeros64(colons)
			if below(e)&^below(k+1)&^m[mDigit] != 0 {
				return URI{}, false // a port of digits only
			}
			f |= hasPort
		}
	}
	// path up to "?", "#" or the end.
	p := min(bits.TrailingZeros64(^m[mPath]&all&^below(e)), n)
	if p < n && s[p] != '?' && s[p] != '#' {
		return URI{}, false
	}
	if f&(hasScheme|hasAuthority) == 0 && m[mColon]&below(min(p, bits.TrailingZeros64(m[mSlash]))) != 0 {
		// path-noscheme: a colon in the first segment (RFC 3986 4.2).
		return URI{}, false
	}
	q := p
	if p < n && s[p] == '?' {
		q = min(bits.TrailingZeros64(^m[mQuery]&all&^below(p+1)), n)
		if q < n && s[q] != '#' {
			return URI{}, false
		}
		f |= hasQuery
	}
	if q < n {
		// s[q] == '#': the fragment's bytes, and no second "#".
		if ^m[mQuery]&all&^below(q+1) != 0 {
			return URI{}, false
		}
		f |= hasFragment
	}
	// pack's work without its bounds checks: every length is below 64,
	// none is found again in the text. The words are made before the
	// call of regNameKind, so that little is kept across it.
	lo := uint64(e) | uint64(p)<<32
	hi := uint64(q) | uint64(j)<<schemeShift | uint64(k-a)<<hostShift | uint64(e-k)<<portShift |
		uint64(f)<<flagsShift
	if f&hasAuthority != 0 {
		hi |= uint64(regNameKind(s[a:k])) << kindShift
	}
	return URI{s: s, lo: lo, hi: hi}, true
}
