package whatwg

// The fast path of the basic URL parser for the common case of the web:
// an absolute URL of a special scheme, already in serialized form,
// with a lowercase LDH domain. One left-to-right pass with byte tables
// proves that the state machine (section 4.4) would return the input
// unchanged and report no validation error; it then fills the URL's
// offsets and allocates nothing. On any doubt it says no, and the full
// parser runs: parseFast decides only when the answer is sure, so that
// the two can never disagree (fast_test.go runs both on every corpus
// line, every urltestdata.json input and mutations of them).

// The kinds of host bytes (fastHost).
const (
	fhLD     uint8 = iota // 'a'-'z', '0'-'9'
	fhHyphen              // '-'
	fhDot                 // '.'
	fhStop                // ':' or '/': the host ends
	fhOther               // anything else: not a lowercase LDH host
)

var fastHost = func() (t [256]uint8) {
	for c := range t {
		t[c] = fhOther
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = fhLD
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = fhLD
	}
	t['-'], t['.'], t[':'], t['/'] = fhHyphen, fhDot, fhStop, fhStop
	return t
}()

// The bytes the fast path passes over without a look in the path, the
// query and the fragment of a special URL: URL code points (section
// 4.3, "URL writing") that the component's percent-encode set leaves
// alone, and that do not end the component. Other bytes take a look
// ('/', '?', '#', '%') or the full parser (non-ASCII bytes, which are
// percent-encoded; controls, spaces and the ASCII bytes that are not
// URL code points, each an invalid-URL-unit validation error; '\\';
// '\” in a special query, which the special-query set encodes).
const (
	fpPath  uint8 = 1 << iota // plain in a path segment
	fpQuery                   // plain in a special URL's query
	fpFrag                    // plain in a fragment
)

var fastPlain = func() (t [256]uint8) {
	for c := 0; c < 0x80; c++ {
		if !isURLUnitASCII(byte(c)) {
			continue
		}
		var m uint8
		if class[c]&(setPath|isSlash|isQuestion) == 0 {
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
// a dot segment (maybeDotSegment). It reports false, leaving *u alone,
// otherwise.
func parseFast(s string, u *URL) bool {
	var kind schemeKind
	var se int // the scheme's length
	switch {
	case len(s) < 7:
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

	// The host: labels of LD bytes and hyphens between dots. A label's
	// hyphen rules are checked only when it holds a hyphen.
	i, label := h, h
	hyphen := false
host:
	for ; i < len(s); i++ {
		switch fastHost[s[i]] {
		case fhLD:
			continue
		case fhHyphen:
			hyphen = true
			continue
		case fhDot:
			if n := i - label; n == 0 || n > 63 || hyphen && !labelOK(s[label:i]) {
				return false
			}
			label, hyphen = i+1, false
			continue
		case fhOther:
			return false
		}
		break host // ':' or '/'
	}
	hostEnd := i
	hostKind := Domain
	if hostEnd == h {
		// Only file has the empty host: "file:///p".
		if kind != schemeFile || i >= len(s) || s[i] != '/' {
			return false
		}
		hostKind = EmptyHost
	} else {
		n := i - label
		if n == 0 || n > 63 || hyphen && !labelOK(s[label:i]) || hostEnd-h > 253 ||
			'0' <= s[label] && s[label] <= '9' {
			return false
		}
		if kind == schemeFile && s[h:hostEnd] == "localhost" {
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

	// The path, from a '/'.
	queryStart, fragStart := -1, -1
path:
	for i < len(s) {
		c := s[i]
		if fastPlain[c]&fpPath != 0 {
			i++
			continue
		}
		switch c {
		case '/':
			// The segment after it must not be a dot segment (section
			// 4.1: ".", "..", "%2e" and their mixes).
			if i+1 < len(s) && (s[i+1] == '.' || s[i+1] == '%') && maybeDotSegment(s, i+1) {
				return false
			}
			i++
		case '%':
			if !validPercent(s, i) {
				return false
			}
			i += 3
		case '?':
			queryStart = i
			i++
			break path
		case '#':
			break path
		default:
			return false
		}
	}
	if queryStart >= 0 {
		for ; i < len(s); i++ {
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
		for i++; i < len(s); i++ {
			c := s[i]
			if fastPlain[c]&fpFrag == 0 && !(c == '%' && validPercent(s, i)) {
				return false
			}
		}
	}

	*u = URL{s: s, schemeEnd: uint32(se), port: int32(port), scheme: kind, hostKind: hostKind, flags: hasHost}
	u.userEnd, u.hostStart, u.hostEnd = uint32(h), uint32(h), uint32(hostEnd)
	u.pathStart = uint32(pathStart)
	u.fragStart = uint32(len(s))
	if fragStart >= 0 {
		u.flags |= hasFragment
		u.fragStart = uint32(fragStart)
	}
	u.queryStart = u.fragStart
	if queryStart >= 0 {
		u.flags |= hasQuery
		u.queryStart = uint32(queryStart)
	}
	return true
}

// maybeDotSegment reports whether the path segment at s[j:] may be a
// single-dot or double-dot segment (section 4.1: ".", "..", "%2e" and
// their mixes, case-insensitively), so that ".net" or ".gitignore" stay
// on the fast path. It errs towards true: a segment from "%2e" on, or
// "." followed by '%', goes to the full parser.
func maybeDotSegment(s string, j int) bool {
	if s[j] == '%' {
		return j+2 < len(s) && s[j+1] == '2' && s[j+2]|0x20 == 'e'
	}
	k := j + 1 // s[j] is '.'
	if k < len(s) && s[k] == '.' {
		k++
	} else if k < len(s) && s[k] == '%' {
		return true
	}
	return k == len(s) || s[k] == '/' || s[k] == '?' || s[k] == '#'
}
