package whatwg

import (
	"math"
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
// byte, with a bit for '-' and one for '.'; 0 for any other byte, which
// ends the host. The host loop branches only at its end and gathers
// the rest in bits, since where dots and hyphens fall in a host is what
// a branch predictor cannot learn over a stream of URLs.
const (
	fhLDH    uint8 = 1 << iota // 'a'-'z', '0'-'9', '-', '.'
	fhHyphen                   // '-'
	fhDot                      // '.'
)

var fastHost = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = fhLDH
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = fhLDH
	}
	t['-'], t['.'] = fhLDH|fhHyphen, fhLDH|fhDot
	return t
}()

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
	case len(s) < 7 || len(s) > math.MaxInt32/2: // parseFull refuses the latter
		return false
	case s[:7] == "http://":
		kind, se = schemeHTTP, 4
	case s[:7] == "https:/":
		kind, se = schemeHTTPS, 5
	case s[:5] == "ws://":
		kind, se = schemeWS, 2
	case s[:6] == "wss://":
		kind, se = schemeWSS, 3
	case s[:6] == "ftp://":
		kind, se = schemeFTP, 3
	case s[:7] == "file://":
		kind, se = schemeFile, 4
	default:
		return false
	}
	h := se + 3
	if h > len(s) || s[h-1] != '/' {
		return false // "https:/" alone
	}

	// The host: LDH bytes up to the first other byte, then what the
	// bits say. A host of at most 63 bytes without a hyphen has no label
	// to check but for emptiness; others take strictASCIIOK.
	i, seen, empty, prev := scanFastHost(s, h)
	hostEnd := i
	hostKind := Domain
	if host := s[h:hostEnd]; host == "" {
		// Only file has the empty host: "file:///p".
		if kind != schemeFile || i >= len(s) || s[i] != '/' {
			return false
		}
		hostKind = EmptyHost
	} else {
		if empty != 0 || host[0] == '.' || prev != 0 ||
			(seen&fhHyphen != 0 || len(host) > 63) && !strictASCIIOK(host) {
			return false
		}
		// The last label must not start with a digit: the
		// ends-in-a-number checker (section 3.5) then says no.
		last := host[strings.LastIndexByte(host, '.')+1:]
		if '0' <= last[0] && last[0] <= '9' || kind == schemeFile && host == "localhost" {
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
	i, look := scanFastPath(s, i)
	if i < 0 || look && hasDotSegment(s[pathStart:i]) {
		return false
	}
	if i < len(s) {
		switch s[i] {
		case '?':
			queryStart = i
			i++
		case '#':
		default:
			return false
		}
	}
	if queryStart >= 0 {
		for ; uint(i) < uint(len(s)); i++ {
			c := s[i]
			if fastPlain[c]&fpQuery != 0 {
				continue
			}
			if c == '%' && validPercent(s, i) {
				continue
			}
			if c == '#' {
				break
			}
			return false
		}
	}
	if i < len(s) {
		// s[i] is '#'.
		fragStart = i
		for i++; uint(i) < uint(len(s)); i++ {
			c := s[i]
			if fastPlain[c]&fpFrag == 0 && !(c == '%' && validPercent(s, i)) {
				return false
			}
		}
	}

	fl, fs, qs := hasHost, len(s), len(s)
	if fragStart >= 0 {
		fl, fs, qs = fl|hasFragment, fragStart, fragStart
	}
	if queryStart >= 0 {
		fl, qs = fl|hasQuery, queryStart
	}
	*u = URL{s: s, schemeEnd: uint32(se), userEnd: uint32(h), hostStart: uint32(h), hostEnd: uint32(hostEnd),
		pathStart: uint32(pathStart), queryStart: uint32(qs), fragStart: uint32(fs),
		port: int32(port), flags: fl, scheme: kind, hostKind: hostKind}
	return true
}

// scanFastHost reads LDH bytes from s[i] on, up to the first other
// byte, and returns where it stopped, the OR of their fastHost bits,
// whether a dot followed a dot, and whether the last byte was a dot.
// The loop branches only at its end: where dots and hyphens fall in a
// host is what a branch predictor cannot learn over a stream of URLs.
func scanFastHost(s string, i int) (end int, seen, empty, lastDot uint8) {
	for ; uint(i) < uint(len(s)); i++ {
		m := fastHost[s[i]]
		if m == 0 {
			break
		}
		seen |= m
		empty |= lastDot & m
		lastDot = m & fhDot
	}
	return i, seen, empty, lastDot
}

// scanFastPath reads path bytes from s[i] on, up to '?', '#' or a byte
// the fast path does not take, and returns where it stopped (len(s)
// for the end), and whether a segment starts with '.' or a '%' came, for
// hasDotSegment to judge; -1 for a '%' not followed by two hex digits.
func scanFastPath(s string, i int) (int, bool) {
	var dot, slash uint8
	pct := false
	for ; uint(i) < uint(len(s)); i++ {
		m := fastPlain[s[i]]
		if m&fpPath == 0 {
			if s[i] != '%' {
				break
			}
			if !validPercent(s, i) {
				return -1, false
			}
			pct, slash = true, 0
			continue
		}
		dot |= slash & m
		slash = (m & fpSlash) << 1
	}
	return i, dot != 0 || pct
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
