package whatwg

import (
	"math"
	"math/bits"
	"strings"
)

// The fast path of the basic URL parser for the common case of the web:
// an absolute URL of a special scheme, already in serialized form,
// with a lowercase LDH domain. One left-to-right pass with byte tables
// proves that the state machine (section 4.4) would return the input
// unchanged and report no validation error; it then fills the URL's
// offsets and allocates nothing. On any doubt it says no, and the full
// parser runs: parseFast decides only when the answer is sure, so that
// the two can never disagree (fast_test.go runs both on every corpus
// line, every urltestdata.json input and mutations of them).

// The bytes of a host on the fast path (fastHost): a lowercase LDH
// byte, with bits for '-', '.' and the digits; 0 for any other byte,
// which ends the host. The host loop reads eight bytes at a time and
// branches only at the host's end: where dots and hyphens fall in a host
// is what a branch predictor cannot learn over a stream of URLs.
const (
	fhLDH    uint8 = 1 << iota // 'a'-'z', '0'-'9', '-', '.'
	fhHyphen                   // '-'
	fhDot                      // '.', one bit above fhHyphen
	fhDigit                    // '0'-'9', one bit above fhDot
)

var fastHost = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = fhLDH
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = fhLDH | fhDigit
	}
	t['-'], t['.'] = fhLDH|fhHyphen, fhLDH|fhDot
	return t
}()

// lanes has 1 in the low bit of each byte of a word: lanes*b puts the
// byte b in each.
const lanes = 0x0101010101010101

// The bytes the fast path passes over in the path, the query and the
// fragment of a special URL: URL code points (section 4.3, "URL
// writing") that the component's percent-encode set leaves alone and
// that do not end the component ('/' and '.' are plain in the path,
// with bits of their own to spot a segment that starts with '.'). Other
// bytes stop the loop: '%', '?' and '#' for a look; non-ASCII bytes
// (percent-encoded), controls, spaces and the ASCII bytes that are not
// URL code points (each an invalid-URL-unit validation error), '\\'
// and, in a special query, U+0027 (the special-query percent-encode
// set) for the full parser.
const (
	fpPath  uint8 = 1 << iota // plain in a path
	fpQuery                   // plain in a special URL's query
	fpFrag                    // plain in a fragment
	fpSlash                   // '/'
	fpDot                     // '.', one bit above fpSlash
)

var fastPlain = func() (t [256]uint8) {
	for c := 0; c < 0x80; c++ {
		if !isURLUnitASCII(byte(c)) {
			continue
		}
		var m uint8
		if class[c]&(setPath|isQuestion) == 0 {
			m |= fpPath
		}
		if class[c]&setSpecialQuery == 0 {
			m |= fpQuery
		}
		if class[c]&setFragment == 0 {
			m |= fpFrag
		}
		t[c] = m
	}
	t['/'] |= fpSlash
	t['.'] |= fpDot
	return t
}()

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
// (fastPlain) and valid percent-encodings, with no segment that may be
// a dot segment (hasDotSegment). It reports false, leaving *u alone,
// otherwise.
func parseFast(s string, u *URL) bool {
	var kind schemeKind
	var se int // the scheme's length
	switch {
	case len(s) > math.MaxInt32/2: // parseFull refuses it
		return false
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
	default:
		return false
	}
	h := se + 3

	// The host: LDH bytes up to the first other byte. Most hosts are
	// settled by the scan; the others, and those over 63 bytes, take
	// the label rules and the ends-in-a-number check here.
	i, look := scanFastHost(s, h)
	hostEnd := i
	hostKind := Domain
	if host := s[h:hostEnd]; host == "" {
		// Only file has the empty host: "file:///p".
		if kind != schemeFile || i >= len(s) || s[i] != '/' {
			return false
		}
		hostKind = EmptyHost
	} else {
		if (look || len(host) > 63) && !fastHostOK(host) {
			return false
		}
		if kind == schemeFile && host == "localhost" {
			return false
		}
	}

	// The port: 1 to 5 digits, no leading zero, at most 65535, not the
	// default port (which the serializer leaves out).
	port := -1
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
		return false
	}
	pathStart := i

	// The path, from a '/'; hasDotSegment looks again only at a path
	// with a segment that starts with '.' or a '%' (rare in both cases).
	queryStart, fragStart := -1, -1
	i, look = scanFastPlain(s, i, lanes*uint64(fpPath))
	if i < 0 || look && hasDotSegment(s[pathStart:i]) {
		return false
	}
	if i < len(s) && s[i] == '?' {
		queryStart = i
		if i, _ = scanFastPlain(s, i+1, lanes*uint64(fpQuery)); i < 0 {
			return false
		}
	}
	if i < len(s) {
		if s[i] != '#' {
			return false
		}
		fragStart = i
		if i, _ = scanFastPlain(s, i+1, lanes*uint64(fpFrag)); i != len(s) {
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
	u.port, u.flags, u.scheme, u.hostKind, u.errs = int32(port), fl, kind, hostKind, 0
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
	before := uint64(fhDot) // the flags of the byte before the word
	for {
		var v uint64 // fastFlags, inlined
		if i+8 <= len(s) {
			v = flags8(&fastHost, s[i:i+8])
		} else if j := len(s) - 8; j >= 0 {
			v = flags8(&fastHost, s[j:j+8]) >> (8 * uint(i-j))
		} else {
			v = flagsShort(&fastHost, s, i)
		}
		stop := ^v & (lanes * uint64(fhLDH))
		if stop != 0 {
			n := uint(bits.TrailingZeros64(stop)) & 63 // 8 * the LDH bytes
			odd |= hostPairs(v&(1<<n-1)|uint64(fhDot)<<n, before)
			return i + int(n>>3), odd != 0
		}
		odd |= hostPairs(v, before)
		before = v >> 56
		i += 8
	}
}

// hostPairs returns the pairs of bytes of a host that scanFastHost
// looks at, in the fastHost flags v of eight bytes, before those of the
// byte before them: two dots or hyphens in a row, ".-", "-." and a dot
// before a digit, found by shifting each byte's flags onto the next's.
func hostPairs(v, before uint64) uint64 {
	const (
		hyphenOrDot = lanes * uint64(fhHyphen|fhDot)
		hyphen      = lanes * uint64(fhHyphen)
		dotOrDigit  = lanes * uint64(fhDot|fhDigit)
	)
	prev := v<<8 | before
	return prev&v&hyphenOrDot | prev>>1&v&hyphen | prev<<1&v&dotOrDigit
}

// scanFastPlain reads from s[i] on, eight bytes at a time, the bytes
// whose fastPlain flags have a bit of mask (lanes times fpPath, fpQuery
// or fpFrag) and valid percent-encodings, and returns where it stopped
// (len(s) at the end, -1 at a '%' not followed by two hex digits) and
// whether a '.' follows a '/' or a '%' came, for hasDotSegment to judge
// in a path.
func scanFastPlain(s string, i int, mask uint64) (end int, look bool) {
	const dot = lanes * uint64(fpDot)
	var odd, before uint64
	for {
		var v uint64 // fastFlags, inlined
		if i+8 <= len(s) {
			v = flags8(&fastPlain, s[i:i+8])
		} else if j := len(s) - 8; j >= 0 {
			v = flags8(&fastPlain, s[j:j+8]) >> (8 * uint(i-j))
		} else {
			v = flagsShort(&fastPlain, s, i)
		}
		stop := ^v & mask
		if stop == 0 {
			// fpSlash of the byte before onto fpDot.
			odd |= (v<<8 | before) << 1 & v & dot
			before = v >> 56
			i += 8
			continue
		}
		n := uint(bits.TrailingZeros64(stop)) &^ 7 & 63 // 8 * the plain bytes
		v &= 1<<n - 1
		odd |= (v<<8 | before) << 1 & v & dot
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

// fastFlags would return the bytes the table t gives s[i:i+8], that of
// s[i+k] in byte k of the word, with zero bytes past the end of s
// (i <= len(s)); the scanners write it out, for the compiler to
// inline flags8 in their loops:
//
//	if i+8 <= len(s) {
//		v = flags8(t, s[i:i+8])
//	} else if j := len(s) - 8; j >= 0 {
//		v = flags8(t, s[j:j+8]) >> (8 * uint(i-j)) // the last eight
//	} else {
//		v = flagsShort(t, s, i)
//	}

// flagsShort is fastFlags for s shorter than eight bytes.
func flagsShort(t *[256]uint8, s string, i int) (v uint64) {
	for k := len(s) - 1; k >= i; k-- {
		v = v<<8 | uint64(t[s[k]])
	}
	return v
}

// flags8 returns the bytes the table t gives the eight bytes of w, that
// of w[k] in byte k of the word.
func flags8(t *[256]uint8, w string) uint64 {
	return uint64(t[w[0]]) | uint64(t[w[1]])<<8 | uint64(t[w[2]])<<16 | uint64(t[w[3]])<<24 |
		uint64(t[w[4]])<<32 | uint64(t[w[5]])<<40 | uint64(t[w[6]])<<48 | uint64(t[w[7]])<<56
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
