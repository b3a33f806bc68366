package whatwg

import (
	"math"
	"math/bits"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// The fast path of the basic URL parser for the common case of the web:
// an absolute URL of a special scheme, already in serialized form,
// with a lowercase LDH domain. One left-to-right pass with a byte table
// (or, for a short URL, one lookup of all its bytes, fastmask.go)
// proves that the state machine (section 4.4) would return the input
// unchanged and report no validation error; it then fills the URL's
// offsets and allocates nothing. On any doubt it says no, and the full
// parser runs: parseFast decides only when the answer is sure, so that
// the two can never disagree (fast_test.go runs both on every corpus
// line, every urltestdata.json input and mutations of them).

// The classes of the bytes on the fast path (fastByte), one bit each.
// The host is its LDH bytes, up to the first other one. The path, the
// query and the fragment of a special URL are their plain bytes: URL
// code points (section 4.3, "URL writing") that the component's
// percent-encode set leaves alone and that do not end the component
// ('/' and '.' are plain in the path, with bits of their own to spot a
// segment that starts with '.'). Other bytes stop the scan: '%', '?'
// and '#' for a look; non-ASCII bytes (percent-encoded), controls,
// spaces and the ASCII bytes that are not URL code points (each an
// invalid-URL-unit validation error), '\\' and, in a special query,
// U+0027 (the special-query percent-encode set) for the full parser.
// hostPairs needs fbHyphen one bit above fbDot and fbDigit one below,
// pathPairs fbSlash two bits above fbDot.
const (
	fbPath   uint8 = 1 << iota // plain in a path
	fbQuery                    // plain in a special URL's query
	fbFrag                     // plain in a fragment
	fbDigit                    // '0'-'9'
	fbDot                      // '.'
	fbHyphen                   // '-'
	fbSlash                    // '/'
	fbLDH                      // 'a'-'z', '0'-'9', '-', '.': a byte of a host
)

var fastByte = func() (t [256]uint8) {
	for c := 0; c < 0x80; c++ {
		if !isURLUnitASCII(byte(c)) {
			continue
		}
		var m uint8
		if class[c]&(setPath|isQuestion) == 0 {
			m |= fbPath
		}
		if class[c]&setSpecialQuery == 0 {
			m |= fbQuery
		}
		if class[c]&setFragment == 0 {
			m |= fbFrag
		}
		switch {
		case 'a' <= c && c <= 'z':
			m |= fbLDH
		case '0' <= c && c <= '9':
			m |= fbLDH | fbDigit
		case c == '-':
			m |= fbLDH | fbHyphen
		case c == '.':
			m |= fbLDH | fbDot
		case c == '/':
			m |= fbSlash
		}
		t[c] = m
	}
	return t
}()

// The scans read eight bytes at a time and put the fastByte of each in
// its place in a word (flags8): fastWords[k][c] is the fastByte of c in
// byte k, so that each byte costs a load and an OR (16 KB of tables,
// of which URLs touch the lines of a hundred or so ASCII bytes; one
// byte table with shifts costs twice the instructions). Each rule is then a
// few operations on the word, and a scan branches only where its
// component ends: where dots and hyphens fall in a host, or how long a
// path is, is what a branch predictor cannot learn over a stream of
// URLs.
var fastWords = func() (t [8][256]uint64) {
	for k := range t {
		for c, m := range fastByte {
			t[k][c] = uint64(m) << (8 * k)
		}
	}
	return t
}()

// fastWordsAt is &fastWords, read from a variable so that the compiler
// keeps it in a register instead of forming each table's address.
var fastWordsAt = &fastWords

// lanes has 1 in the low bit of each byte of a word: lanes*b puts the
// byte b in each.
const lanes = 0x0101010101010101

// parseFast parses s into *u when s is a special URL in serialized form
// that the basic URL parser, with or without a base, returns unchanged
// with no validation error: a lowercase special scheme and "://"; a
// host of lowercase LDH labels that the strict domain-to-ASCII accepts
// as they are (1 to 63 bytes, no hyphen first, last or in both the
// third and fourth places, so no "xn--", 253 bytes at most, no empty
// label, so no trailing dot), whose last label does not start with a
// digit (the ends-in-a-number checker, section 3.5, never looks at it
// then), and not "localhost" for file; for file, also the empty host;
// a port in its shortest decimal form other than the scheme's default
// (none for file); and a path, query and fragment of plain bytes
// (fastByte) and valid percent-encodings, with no segment that may be
// a dot segment (hasDotSegment). It reports false, leaving *u alone,
// otherwise. A URL of at most 64 bytes is classified at once where the
// CPU can (parseFastMasks, which takes the common shapes); the others,
// and what parseFastMasks does not take, are read eight bytes at a time
// (parseFastWords).
func parseFast(s string, u *URL) bool {
	kind, se := fastScheme(s)
	if se == 0 {
		return false
	}
	if chars.Vector && len(s) <= chars.MaxMasked {
		var m [8]uint64
		fastClasses.Masks(s, &m)
		if parseFastMasks(s, &m, kind, se, u) {
			return true
		}
	}
	return parseFastWords(s, kind, se, u)
}

// fastScheme returns the special scheme that s starts with, followed
// by "://", and its length, or 0 for any other start.
func fastScheme(s string) (kind schemeKind, se int) {
	switch {
	case len(s) > math.MaxInt32/2: // parseFull refuses it
		return
	case len(s) >= 8 && s[:8] == "https://":
		kind, se = schemeHTTPS, 5
	case len(s) >= 7 && s[:7] == "http://":
		kind, se = schemeHTTP, 4
	case len(s) >= 7 && s[:7] == "file://":
		kind, se = schemeFile, 4
	case len(s) >= 6 && s[:6] == "wss://":
		kind, se = schemeWSS, 3
	case len(s) >= 5 && s[:5] == "ws://":
		kind, se = schemeWS, 2
	case len(s) >= 6 && s[:6] == "ftp://":
		kind, se = schemeFTP, 3
	}
	return
}

// parseFastWords is parseFast after the scheme (kind, of length se),
// reading s eight bytes at a time.
func parseFastWords(s string, kind schemeKind, se int, u *URL) bool {
	h := se + 3

	// The host: LDH bytes up to the first other byte. Most hosts are
	// settled by the scan; the others, and those over 63 bytes, take
	// the label rules and the ends-in-a-number check here.
	i, look := scanFastHost(s, h)
	hostEnd := i
	hostKind := Domain
	switch {
	case hostEnd == h:
		// Only file has the empty host: "file:///p".
		if i < len(s) && fastHostOther[s[i]] {
			break // a host such as `"a.b`, for scanOtherHost below
		}
		if kind != schemeFile || i >= len(s) || s[i] != '/' {
			return false
		}
		hostKind = EmptyHost
	case (look || hostEnd-h > 63) && !fastHostOK(s[h:hostEnd]):
		return false
	case kind == schemeFile && s[h:hostEnd] == "localhost":
		return false
	}

	var errs errorSet
	port := -1
port:
	// The port: 1 to 5 digits, no leading zero, at most 65535, not the
	// default port (which the serializer leaves out).
	if i < len(s) && s[i] == ':' {
		if kind == schemeFile {
			return false
		}
		i++
		j, v := i, 0
		for ; j < len(s) && '0' <= s[j] && s[j] <= '9'; j++ {
			if j-i == 5 {
				return false
			}
			v = v*10 + int(s[j]-'0')
		}
		if j == i || s[i] == '0' && j-i > 1 || v > 65535 || v == kind.defaultPort() {
			return false
		}
		port, i = v, j
	}
	// A special URL's path starts with '/'; "http://h" serializes as
	// "http://h/".
	if i >= len(s) || s[i] != '/' {
		if i == hostEnd && errs == 0 && i < len(s) && fastHostOther[s[i]] {
			// Rare (0.4% of kasztp's hosts), so kept off the common
			// path: a host such as "a_b.c" or `"a.b`, whose first
			// bytes passed the checks above, goes on; then the port.
			if i = scanOtherHost(s, h, i); i < 0 {
				return false
			}
			hostEnd, errs = i, 1<<DomainToASCII
			goto port
		}
		return false
	}
	pathStart := i

	// The path, from a '/'; hasDotSegment looks again only at a path
	// with a segment that starts with '.' or a '%' (rare in both cases).
	queryStart, fragStart := -1, -1
	i, look = scanFastPlain(s, i, lanes*uint64(fbPath))
	if i < 0 || look && hasDotSegment(s[pathStart:i]) {
		return false
	}
	if i < len(s) && s[i] == '?' {
		queryStart = i
		if i, _ = scanFastPlain(s, i+1, lanes*uint64(fbQuery)); i < 0 {
			return false
		}
	}
	if i < len(s) {
		if s[i] != '#' {
			return false
		}
		fragStart = i
		if i, _ = scanFastPlain(s, i+1, lanes*uint64(fbFrag)); i != len(s) {
			return false
		}
	}

	fl, fs, qs := hasHost, len(s), len(s)
	if fragStart >= 0 {
		fl, fs, qs = fl|hasFragment, fragStart, fragStart
	}
	if queryStart >= 0 {
		fl, qs = fl|hasQuery, queryStart
	}
	// Field by field: a URL literal is built aside, then copied.
	u.s = s
	u.schemeEnd, u.userEnd, u.hostStart, u.hostEnd = uint32(se), uint32(h), uint32(h), uint32(hostEnd)
	u.pathStart, u.queryStart, u.fragStart = uint32(pathStart), uint32(qs), uint32(fs)
	u.port, u.flags, u.scheme, u.hostKind, u.errs = int32(port), fl, kind, hostKind, errs
	return true
}

// scanFastHost reads LDH bytes from s[i] on, eight at a time, up to the
// first other byte, and returns where it stopped and whether the host
// needs a closer look: it has an empty label, a hyphen next to a dot or
// at either end, two hyphens in a row, or a label that starts with a
// digit. Otherwise its labels pass the strict domain-to-ASCII when none
// is over 63 bytes, and the ends-in-a-number checker says no. The host
// starts and ends as if after and before a dot: a leading or trailing
// dot is an empty label, a hyphen there a hyphen next to a dot.
func scanFastHost(s string, i int) (end int, look bool) {
	var odd uint64
	before := uint64(fbDot) // the flags of the byte before the word
	for {
		var v uint64 // fastFlags, written out
		if i+8 <= len(s) {
			v = flags8(s[i : i+8])
		} else if j := len(s) - 8; j >= 0 {
			v = flags8(s[j:j+8]) >> (8 * uint(i-j))
		} else {
			v = flagsShort(s, i)
		}
		stop := ^v & (lanes * uint64(fbLDH))
		if stop != 0 {
			// The host ends at byte k of the word, taken as a dot.
			first := stop & -stop                             // bit 7 of byte k
			odd |= hostPairs(v&(first>>7-1)|first>>3, before) // bit 7 onto fbDot (4)
			return i + bits.TrailingZeros64(stop)>>3, odd != 0
		}
		odd |= hostPairs(v, before)
		before = v >> 56
		i += 8
	}
}

// hostPairs returns the pairs of bytes of a host that scanFastHost
// looks at, in the flags v of eight bytes, before those of the byte
// before them: two dots or hyphens in a row, ".-", "-." and a dot
// before a digit, found by shifting the flags of each byte onto those
// of the next, and each byte's flags one bit up (a dot onto a hyphen)
// or down (a hyphen onto a dot, a dot onto a digit).
func hostPairs(v, before uint64) uint64 {
	const (
		hyphenOrDot = lanes * uint64(fbHyphen|fbDot)
		hyphen      = lanes * uint64(fbHyphen)
		dotOrDigit  = lanes * uint64(fbDot|fbDigit)
	)
	prev := v<<8 | before
	return v & (prev&hyphenOrDot | prev<<1&hyphen | prev>>1&dotOrDigit)
}

// scanFastPlain reads from s[i] on, eight bytes at a time, the bytes
// whose flags have a bit of mask (lanes times fbPath, fbQuery or
// fbFrag) and valid percent-encodings, and returns where it stopped
// (len(s) at the end, -1 at a '%' not followed by two hex digits) and
// whether a '.' follows a '/' or a '%' came, for hasDotSegment to judge
// in a path.
func scanFastPlain(s string, i int, mask uint64) (end int, look bool) {
	var odd, before uint64
	for {
		var v uint64 // fastFlags, written out
		if i+8 <= len(s) {
			v = flags8(s[i : i+8])
		} else if j := len(s) - 8; j >= 0 {
			v = flags8(s[j:j+8]) >> (8 * uint(i-j))
		} else {
			v = flagsShort(s, i)
		}
		stop := ^v & mask
		if stop == 0 {
			odd |= pathPairs(v, before)
			before = v >> 56
			i += 8
			continue
		}
		n := uint(bits.TrailingZeros64(stop)) &^ 7 & 63 // 8 * the plain bytes
		odd |= pathPairs(v&(1<<n-1), before)
		if i += int(n >> 3); i >= len(s) || s[i] != '%' {
			return i, odd != 0
		}
		if !validPercent(s, i) {
			return -1, false
		}
		odd, before = 1, 0
		i += 3
	}
}

// pathPairs returns the '.' after a '/' in the flags v of eight bytes
// of a path, before those of the byte before them.
func pathPairs(v, before uint64) uint64 {
	return (v<<8 | before) >> 2 & v & (lanes * uint64(fbDot))
}

// fastFlags would return the flags of s[i:i+8], that of s[i+k] in byte
// k of the word, with zero bytes past the end of s (i <= len(s)); the
// scanners write it out, for the compiler to inline flags8 in their
// loops:
//
//	if i+8 <= len(s) {
//		v = flags8(s[i : i+8])
//	} else if j := len(s) - 8; j >= 0 {
//		v = flags8(s[j:j+8]) >> (8 * uint(i-j)) // the last eight
//	} else {
//		v = flagsShort(s, i)
//	}

// flagsShort is fastFlags for s shorter than eight bytes.
func flagsShort(s string, i int) (v uint64) {
	for k := len(s) - 1; k >= i; k-- {
		v = v<<8 | uint64(fastByte[s[k]])
	}
	return v
}

// flags8 returns the flags of the eight bytes of w, that of w[k] in
// byte k of the word.
func flags8(w string) uint64 {
	t := fastWordsAt // a register to index from, not eight addresses
	return t[0][w[0]] | t[1][w[1]] | t[2][w[2]] | t[3][w[3]] | t[4][w[4]] | t[5][w[5]] | t[6][w[6]] | t[7][w[7]]
}

// fastHostOther marks the ASCII bytes of a domain other than lowercase
// LDH bytes: printable, not uppercase (which the parser lowercases), not
// a forbidden domain code point ('%' included). The domain parser keeps
// them as they are, and the strict domain-to-ASCII (its STD3 rules)
// refuses each of them: a validation error, not a failure.
var fastHostOther = func() (t [256]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = fastByte[c]&fbLDH == 0 && !('A' <= c && c <= 'Z') && class[c]&forbiddenDomain == 0
	}
	return t
}()

// scanOtherHost goes on with the host s[h:i] from s[i], a byte of
// fastHostOther, over LDH and fastHostOther bytes, and returns where
// the host ends, or -1 when the full parser must judge it: a label
// that may be Punycode ("xn--"), or a host that ends in a number
// (section 3.5), which the IPv4 parser takes.
func scanOtherHost(s string, h, i int) int {
	for i < len(s) && (fastByte[s[i]]&fbLDH != 0 || fastHostOther[s[i]]) {
		i++
	}
	if host := s[h:i]; strings.Contains(host, "xn--") || endsInNumber(host) {
		return -1
	}
	return i
}

// fastHostOK reports whether the strict domain-to-ASCII takes the
// lowercase LDH host as it is and the ends-in-a-number checker says
// no: its last label does not start with a digit (section 3.5: a last
// label of digits, or "0x" and hex digits, is a number).
func fastHostOK(host string) bool {
	if !strictASCIIOK(host) {
		return false
	}
	c := host[strings.LastIndexByte(host, '.')+1]
	return c < '0' || c > '9'
}

// hasDotSegment reports whether the path p, which starts with '/', may
// hold a single-dot or double-dot segment (section 4.1: ".", "..",
// "%2e" and their mixes, case-insensitively), so that ".net" or
// ".gitignore" stay on the fast path. It errs towards true: a segment
// that starts with "%2e", or with '.' followed by '%', counts.
func hasDotSegment(p string) bool {
	for j := 0; j < len(p); j++ {
		if p[j] != '/' || j+1 == len(p) {
			continue
		}
		switch k := j + 1; p[k] {
		case '%':
			if k+2 < len(p) && p[k+1] == '2' && p[k+2]|0x20 == 'e' {
				return true
			}
		case '.':
			k++
			if k < len(p) && p[k] == '.' {
				k++
			} else if k < len(p) && p[k] == '%' {
				return true
			}
			if k == len(p) || p[k] == '/' {
				return true
			}
		}
	}
	return false
}
