package surt

import (
	"slices"

	"github.com/urikit/urikit/internal/chars"
)

// byteSet is a set of bytes, the bytes a profile percent-encodes in a
// component.
type byteSet [8]uint32

func (s *byteSet) has(c byte) bool { return s[c>>5]&(1<<(c&31)) != 0 }

// newSet returns the set of the bytes below 0x21 and above 0x7E (every
// control, the space, DEL and every non-ASCII byte) plus those of extra.
// Every set the profiles use starts so: Safe Browsing's "percent-escape
// all characters that are <= ASCII 32, >= 127, "#", or "%"" is
// newSet("#%").
func newSet(extra string) *byteSet {
	var s byteSet
	for c := 0; c < 256; c++ {
		if c <= 0x20 || c >= 0x7f {
			s[c>>5] |= 1 << (c & 31)
		}
	}
	for i := 0; i < len(extra); i++ {
		c := extra[i]
		s[c>>5] |= 1 << (c & 31)
	}
	return &s
}

// The escape sets. googleSet is Safe Browsing's (v4 "URLs and Hashing",
// Canonicalization: "percent-escape all characters that are <= ASCII 32,
// >= 127, "#", or "%""). The others add the delimiters that a decoded
// component may now hold and that would, written raw, end the component
// when the canonical URL is read again ("%3F" decoded in a path is a "?").
// The Safe Browsing document leaves them raw; escaping them keeps every
// canonical form a fixed point of its profile (see the package doc's
// differences table).
var (
	googleSet     = newSet("#%")
	pathSet       = newSet("#%?")
	hostSet       = newSet("#%/?@:[]")
	hostSetBS     = newSet("#%/?@:[]\\") // where "\\" is "/" (urlcanon's special schemes)
	userSet       = newSet("#%/?@:")
	passSet       = newSet("#%/?@")
	queryTokenSet = newSet("#%&=") // urlcanon's less_dumb_pct_recode_query
)

// appendEscape appends src with the bytes of set percent-encoded in
// uppercase hex (RFC 3986 2.1: producers should use uppercase).
func appendEscape(dst, src []byte, set *byteSet) []byte {
	if cap(dst)-len(dst) < len(src) { // grown at once, not a quarter at a time
		dst = slices.Grow(dst, len(src)+2*countEscape(src, set))
	}
	for _, c := range src {
		if set.has(c) {
			dst = append(dst, '%', chars.UpperHex[c>>4], chars.UpperHex[c&15])
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// needsEscape reports whether src has a byte of set.
func needsEscape(src []byte, set *byteSet) bool {
	for _, c := range src {
		if set.has(c) {
			return true
		}
	}
	return false
}

// countEscape returns the number of bytes of src in set: escaped, src is
// twice that longer.
func countEscape[T string | []byte](src T, set *byteSet) int {
	n := 0
	for k := 0; k < len(src); k++ {
		if set.has(src[k]) {
			n++
		}
	}
	return n
}

// appendUnescapeAll appends src percent-decoded repeatedly until no
// "%" HEXDIG HEXDIG is left: Safe Browsing's "repeatedly percent-unescape
// the URL until it has no more percent-escapes", which surt and
// webarchive-commons call unescapeRepeatedly ("%25%32%35" -> "%25" -> "%").
//
// Decoding pass after pass would take quadratic time on "%2525...25".
// One pass reaches the same result: the output never holds an escape,
// and when a byte is appended the only escape it can complete is the one
// ending at it, which is decoded at once (the decoded byte may in turn
// complete "%" HEXDIG before it, hence the loop). Two escapes never
// overlap ("%" is no hex digit), so decoding in any order ends in the one
// form without escapes, the form of pass after pass. Each decoding
// removes two bytes, so the work is linear.
func appendUnescapeAll(dst, src []byte) []byte {
	base := len(dst)
	for _, c := range src {
		dst = append(dst, c)
		for n := len(dst); n-base >= 3 && dst[n-3] == '%'; n = len(dst) {
			h, l := chars.Unhex(dst[n-2]), chars.Unhex(dst[n-1])
			if h < 0 || l < 0 {
				break
			}
			dst[n-3] = byte(h<<4 | l)
			dst = dst[:n-2]
		}
	}
	return dst
}

// hasEscape reports whether src holds "%" HEXDIG HEXDIG.
func hasEscape(src []byte) bool {
	for k := 0; k+2 < len(src); k++ {
		if src[k] == '%' && chars.Unhex(src[k+1]) >= 0 && chars.Unhex(src[k+2]) >= 0 {
			return true
		}
	}
	return false
}

// recode makes a component its escape-normal form: decoded repeatedly,
// then set escaped. It moves nothing when the component is already so,
// which is the case of most components of most URLs.
func (p *parts) recode(s *span, set *byteSet) {
	p.unescapeAll(s)
	p.escape(s, set)
}

// unescapeAll decodes a component repeatedly, leaving it unescaped. The
// decoding only shortens it: it is written over itself.
func (p *parts) unescapeAll(s *span) {
	if hasEscape(p.get(*s)) {
		p.set(s, 0, appendUnescapeAll)
	}
}

// escape percent-encodes the bytes of set in a component, in place, its
// room counted first.
func (p *parts) escape(s *span, set *byteSet) {
	if n := countEscape(p.get(*s), set); n > 0 {
		p.set(s, 2*n, func(dst, src []byte) []byte { return appendEscape(dst, src, set) })
	}
}
