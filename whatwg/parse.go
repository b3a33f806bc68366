package whatwg

import (
	"math"
	"strconv"
	"strings"
)

// Parse runs the basic URL parser of the URL Standard (section 4.4) on s
// without a base, as new URL(s) does. It fails with a *ParseError when
// the standard's parser returns failure. On success the URL's Href is
// s itself, allocated nothing, when s is already in serialized form;
// otherwise it is built in one buffer.
func Parse(s string) (URL, error) {
	// Small enough to inline: the caller's URL is the one parse fills,
	// not a copy of it (a copy right after the stores of its fields
	// waits for them).
	var u URL
	err := parse(s, nil, &u)
	return u, err
}

// ParseRef runs the basic URL parser on s with base as the base URL
// (the standard's "parse with a base", as new URL(s, base) does once
// base is parsed). A zero base is no base.
func ParseRef(base URL, s string) (URL, error) {
	var u URL
	var err error
	if base.IsZero() {
		err = parse(s, nil, &u)
	} else {
		err = parse(s, &base, &u)
	}
	return u, err
}

// MustParse is like Parse but panics on error, for URLs written in
// programs.
func MustParse(s string) URL {
	u, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// parser holds one run of the basic URL parser.
type parser struct {
	orig string // the input as given
	in   string // the input after the preprocessing steps
	lead int    // bytes trimmed from the front of orig
	tabs bool   // tabs or newlines were removed from in
	w    writer
	errs errorSet

	kind schemeKind

	// Offsets in the output (-1: not set).
	schemeEnd, userEnd, hostStart, hostEnd, pathStart int
	queryStart, fragStart                             int
	port                                              int
	hasHost, opaque                                   bool
	dotPrefix                                         bool // "/." kept before the path
	hostKind                                          HostKind

	failed  bool
	failErr ValidationError
	failOff int // offset in in, or -1
}

// failAt records the failure e at offset off of p.in and returns false.
func (p *parser) failAt(e ValidationError, off int) bool {
	p.errs.add(e)
	p.failed, p.failErr, p.failOff = true, e, off
	return false
}

// The states of the basic URL parser (section 4.4) that the loop below
// moves between; the others are handled where they are entered.
type state uint8

const (
	stDone state = iota
	stNoScheme
	stRelative
	stRelativeSlash
	stIgnoreSlashes // special authority ignore slashes state
	stAuthority
	stFile
	stFileSlash
	stFileHost
	stPathStart
	stPath
	stOpaquePath
	stQuery
	stFragment
)

// parse runs the basic URL parser and writes the URL in *u (built in
// place: a URL is too large to copy back through each caller for free).
func parse(s string, base *URL, u *URL) error {
	if len(s) > math.MaxInt32/2 {
		return &ParseError{Input: s, Offset: -1, Err: InvalidURLUnit}
	}
	// An absolute special URL starting "scheme://" parses the same with
	// any base or none, so the fast path serves both.
	if parseFast(s, u) {
		return nil
	}
	return parseFull(s, base, u)
}

// parseFull is parse without the fast path: the state machine alone.
func parseFull(s string, base *URL, u *URL) error {
	if len(s) > math.MaxInt32/2 {
		return &ParseError{Input: s, Offset: -1, Err: InvalidURLUnit}
	}
	var p parser
	p.start(s)
	p.run(base)
	if p.failed {
		return &ParseError{Input: s, Offset: p.origOffset(p.failOff), Err: p.failErr, Errors: p.errs.list()}
	}
	p.finish(u)
	return nil
}

// start runs the preprocessing steps: leading and trailing C0 controls
// and spaces removed, then every ASCII tab or newline; each is an
// invalid-URL-unit validation error.
func (p *parser) start(s string) {
	p.orig, p.in = s, s
	p.queryStart, p.fragStart, p.port = -1, -1, -1
	if !hasCtlOrSpace(s) {
		p.w.in = s
		return
	}
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	if i > 0 || j < len(s) {
		p.errs.add(InvalidURLUnit)
	}
	in := s[i:j]
	p.lead = i
	if strings.ContainsAny(in, "\t\n\r") {
		p.errs.add(InvalidURLUnit)
		p.tabs = true
		b := make([]byte, 0, len(in))
		for k := 0; k < len(in); k++ {
			if c := in[k]; c != '\t' && c != '\n' && c != '\r' {
				b = append(b, c)
			}
		}
		in = string(b)
	}
	p.in = in
	p.w.in = in
}

// hasCtlOrSpace reports whether s holds a byte at or below U+0020,
// eight bytes at a time: such bytes are rare in URLs, and every other
// step can then skip the preprocessing.
func hasCtlOrSpace(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte below 0x21 makes its high bit set in x-0x21...; bytes
		// at or above 0x80 are excluded by &^x.
		if (x-0x2121212121212121)&^x&0x8080808080808080 != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] <= ' ' {
			return true
		}
	}
	return false
}

// origOffset maps an offset in p.in back to one in p.orig.
func (p *parser) origOffset(off int) int {
	if off < 0 {
		return -1
	}
	if !p.tabs {
		return p.lead + off
	}
	k := 0
	for i := p.lead; i < len(p.orig); i++ {
		if c := p.orig[i]; c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if k == off {
			return i
		}
		k++
	}
	return len(p.orig)
}

// at returns the byte at i, or -1 at the end of the input (the EOF code
// point).
func (p *parser) at(i int) int {
	if i < len(p.in) {
		return int(p.in[i])
	}
	return -1
}

// isLower reports whether s holds no ASCII upper-case letter.
func isLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isSchemeByte(c byte) bool {
	return isAlpha(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// run is the state machine of the basic URL parser.
func (p *parser) run(base *URL) {
	in := p.in
	w := &p.w
	i := 0
	st := stNoScheme
	// scheme start state and scheme state
	if len(in) > 0 && isAlpha(in[0]) {
		j := 1
		for j < len(in) && isSchemeByte(in[j]) {
			j++
		}
		if j < len(in) && in[j] == ':' {
			if w.n == 0 && w.buf == nil && isLower(in[:j]) {
				w.n = j // the scheme is the input's
			} else {
				p.writeLower(in[:j])
			}
			p.schemeEnd = j
			w.byte(':')
			p.kind = kindOf(w.from(0)[:j])
			i = j + 1
			switch {
			case p.kind == schemeFile:
				if !strings.HasPrefix(in[i:], "//") {
					p.errs.add(SpecialSchemeMissingFollowingSolidus)
				}
				st = stFile
			case p.kind.special() && base != nil && base.scheme == p.kind:
				// special relative or authority state
				if strings.HasPrefix(in[i:], "//") {
					i += 2
					st = stIgnoreSlashes
				} else {
					p.errs.add(SpecialSchemeMissingFollowingSolidus)
					st = stRelative
				}
			case p.kind.special():
				// special authority slashes state
				if strings.HasPrefix(in[i:], "//") {
					i += 2
				} else {
					p.errs.add(SpecialSchemeMissingFollowingSolidus)
				}
				st = stIgnoreSlashes
			case i < len(in) && in[i] == '/':
				// path or authority state
				i++
				if i < len(in) && in[i] == '/' {
					i++
					st = stAuthority
				} else {
					p.pathStart = w.len()
					st = stPath
				}
			default:
				st = stOpaquePath
			}
		}
	}
	for {
		switch st {
		case stDone:
			return
		case stNoScheme:
			c := p.at(i)
			if base == nil || base.flags&opaquePath != 0 && c != '#' {
				p.failAt(MissingSchemeNonRelativeURL, -1)
				return
			}
			if base.flags&opaquePath != 0 {
				// scheme, path and query of the base, an empty fragment
				p.kind = base.scheme
				p.schemeEnd = int(base.schemeEnd)
				p.pathStart = int(base.pathStart)
				end := int(base.fragStart)
				w.str(base.s[:end])
				p.opaque = true
				if base.flags&hasQuery != 0 {
					p.queryStart = int(base.queryStart)
				}
				p.userEnd, p.hostStart, p.hostEnd = p.schemeEnd+1, p.schemeEnd+1, p.schemeEnd+1
				i++
				st = stFragment
				continue
			}
			if base.scheme != schemeFile {
				st = stRelative
			} else {
				st = stFile
				p.kind = schemeFile
				w.str("file:")
				p.schemeEnd = 4
			}
		case stRelative:
			p.kind = base.scheme
			if p.schemeEnd == 0 {
				w.str(base.s[:base.schemeEnd+1])
				p.schemeEnd = int(base.schemeEnd)
			}
			c := p.at(i)
			if c == '/' || c == '\\' && p.kind.special() {
				if c == '\\' {
					p.errs.add(InvalidReverseSolidus)
				}
				i++
				st = stRelativeSlash
				continue
			}
			p.copyAuthority(base)
			p.pathStart = w.len()
			w.str(base.s[base.pathStart:base.queryStart])
			switch c {
			case '?':
				i++
				st = stQuery
			case '#':
				p.copyQuery(base)
				i++
				st = stFragment
			case -1:
				p.copyQuery(base)
				st = stDone
			default:
				p.shorten()
				st = stPath
			}
		case stRelativeSlash:
			c := p.at(i)
			if p.kind.special() && (c == '/' || c == '\\') {
				if c == '\\' {
					p.errs.add(InvalidReverseSolidus)
				}
				i++
				st = stIgnoreSlashes
			} else if c == '/' {
				i++
				st = stAuthority
			} else {
				p.copyAuthority(base)
				p.pathStart = w.len()
				st = stPath
			}
		case stIgnoreSlashes:
			for i < len(in) && (in[i] == '/' || in[i] == '\\') {
				p.errs.add(SpecialSchemeMissingFollowingSolidus)
				i++
			}
			st = stAuthority
		case stAuthority:
			var ok bool
			if i, ok = p.authority(i); !ok {
				return
			}
			st = stPathStart
		case stFile:
			c := p.at(i)
			if c == '/' || c == '\\' {
				if c == '\\' {
					p.errs.add(InvalidReverseSolidus)
				}
				i++
				st = stFileSlash
				continue
			}
			if base != nil && base.scheme == schemeFile {
				p.copyAuthority(base)
				p.pathStart = w.len()
				w.str(base.s[base.pathStart:base.queryStart])
				switch c {
				case '?':
					i++
					st = stQuery
				case '#':
					p.copyQuery(base)
					i++
					st = stFragment
				case -1:
					p.copyQuery(base)
					st = stDone
				default:
					if !startsWithDriveLetter(in[i:]) {
						p.shorten()
					} else {
						p.errs.add(FileInvalidWindowsDriveLetter)
						w.truncate(p.pathStart)
					}
					st = stPath
				}
				continue
			}
			p.emptyHost()
			p.pathStart = w.len()
			st = stPath
		case stFileSlash:
			c := p.at(i)
			if c == '/' || c == '\\' {
				if c == '\\' {
					p.errs.add(InvalidReverseSolidus)
				}
				i++
				st = stFileHost
				continue
			}
			if base != nil && base.scheme == schemeFile {
				p.copyAuthority(base)
				p.pathStart = w.len()
				if !startsWithDriveLetter(in[i:]) {
					bp := base.Pathname()
					if len(bp) >= 3 && isNormalizedDriveLetter(bp[1:3]) && (len(bp) == 3 || bp[3] == '/') {
						w.str(bp[:3])
					}
				}
			} else {
				p.emptyHost()
				p.pathStart = w.len()
			}
			st = stPath
		case stFileHost:
			k := i
			for k < len(in) && !isFileHostEnd(in[k]) {
				k++
			}
			buf := in[i:k]
			if len(buf) == 2 && isDriveLetter(buf) {
				p.errs.add(FileInvalidWindowsDriveLetterHost)
				p.emptyHost()
				p.pathStart = w.len()
				st = stPath // buffer kept: the path state reads it again
				continue
			}
			w.str("//")
			p.hasHost = true
			p.userEnd, p.hostStart = w.len(), w.len()
			if buf == "" {
				p.hostKind = EmptyHost
			} else {
				kind, ok := p.host(buf, true, i, nil)
				if !ok {
					return
				}
				p.hostKind = kind
				if w.from(p.hostStart) == "localhost" {
					w.truncate(p.hostStart)
					p.hostKind = EmptyHost
				}
			}
			p.hostEnd = w.len()
			i = k
			st = stPathStart
		case stPathStart:
			p.pathStart = w.len()
			c := p.at(i)
			if p.kind.special() {
				if c == '\\' {
					p.errs.add(InvalidReverseSolidus)
				}
				if c == '/' || c == '\\' {
					i++
				}
				st = stPath
			} else if c == '?' {
				i++
				st = stQuery
			} else if c == '#' {
				i++
				st = stFragment
			} else if c != -1 {
				if c == '/' {
					i++
				}
				st = stPath
			} else {
				st = stDone
			}
		case stPath:
			i, st = p.path(i, false)
		case stOpaquePath:
			i, st = p.opaquePath(i)
		case stQuery:
			p.queryStart = w.len()
			w.byte('?')
			set := setQuery
			if p.kind.special() {
				set = setSpecialQuery
			}
			i = p.encode(in[i:], set, isHash, true) + i
			if i < len(in) {
				i++
				st = stFragment
			} else {
				st = stDone
			}
		case stFragment:
			p.fragStart = w.len()
			w.byte('#')
			p.encode(in[i:], setFragment, 0, true)
			st = stDone
		}
	}
}

// writeLower appends s in ASCII lowercase.
func (p *parser) writeLower(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			p.w.str(s[:i])
			for ; i < len(s); i++ {
				c := s[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				p.w.byte(c)
			}
			return
		}
	}
	p.w.str(s)
}

// copyAuthority sets the username, password, host and port to the
// base's: it writes "//" and the base's authority when the base has a
// host.
func (p *parser) copyAuthority(b *URL) {
	w := &p.w
	if b.flags&hasHost == 0 {
		p.userEnd, p.hostStart, p.hostEnd = w.len(), w.len(), w.len()
		return
	}
	d := w.len() - int(b.schemeEnd+1)
	w.str(b.s[b.schemeEnd+1 : b.pathStart])
	p.hasHost = true
	p.userEnd, p.hostStart, p.hostEnd = int(b.userEnd)+d, int(b.hostStart)+d, int(b.hostEnd)+d
	p.port = int(b.port)
	p.hostKind = b.hostKind
}

// copyQuery sets the query to the base's.
func (p *parser) copyQuery(b *URL) {
	if b.flags&hasQuery != 0 {
		p.queryStart = p.w.len()
		p.w.str(b.s[b.queryStart:b.fragStart])
	}
}

// emptyHost writes "//" and sets the host to the empty host.
func (p *parser) emptyHost() {
	p.w.str("//")
	p.hasHost = true
	n := p.w.len()
	p.userEnd, p.hostStart, p.hostEnd = n, n, n
	p.hostKind = EmptyHost
}

// shorten is "shorten a URL's path" (section 4.2): the last segment
// goes, unless the path of a file URL is one normalized Windows drive
// letter.
func (p *parser) shorten() {
	path := p.w.from(p.pathStart)
	if p.kind == schemeFile && len(path) == 3 && isNormalizedDriveLetter(path[1:]) {
		return
	}
	if k := strings.LastIndexByte(path, '/'); k >= 0 {
		p.w.truncate(p.pathStart + k)
	}
}

func isDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

func isNormalizedDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && s[1] == ':'
}

// startsWithDriveLetter: s is a drive letter, alone or followed by
// '/', '\', '?' or '#' (section 4.2).
func startsWithDriveLetter(s string) bool {
	if len(s) < 2 || !isDriveLetter(s[:2]) {
		return false
	}
	if len(s) == 2 {
		return true
	}
	switch s[2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

// scanAuthority is the one pass over the authority that starts at
// in[i]: it finds its end e, its last '@' and the first ':' outside
// brackets after that '@' (the host state starts over after each '@'),
// -1 for none, and follows the host, up to that ':', as scanLDH would,
// so that a lowercase LDH domain, the common case, needs no second pass.
func scanAuthority(in string, i int, special bool) (e, at, colon int, host ldhState) {
	e, at, colon = i, -1, -1
	inside := false
	hs := ldhState{label: i, ldh: true, strict: true}
	var atColon ldhState // hs at the colon that ends the host
scan:
	for ; e < len(in); e++ {
		k := authKind[in[e]]
		if k == akLD {
			continue
		}
		if k == akDot {
			// labelOK, where only a label with a hyphen can fail on
			// more than its length.
			if n := e - hs.label; uint(n-1) > 62 || hs.hyphen && !labelOK(in[hs.label:e]) {
				hs.strict = false
			}
			hs.prevLabel, hs.label, hs.hyphen = hs.label, e+1, false
			continue
		}
		switch k {
		case akHyphen:
			hs.hyphen = true
		case akOther:
			hs.ldh = false
		case akAt:
			at, colon, inside = e, -1, false
			hs = ldhState{label: e + 1, ldh: true, strict: true}
		case akColon:
			if colon < 0 && !inside {
				colon, atColon = e, hs
			}
		case akOpen:
			inside, hs.ldh = true, false
		case akClose:
			inside, hs.ldh = false, false
		case akBackslash:
			if special {
				break scan
			}
			hs.ldh = false
		case akEnd:
			break scan
		}
	}
	if colon >= 0 {
		return e, at, colon, atColon
	}
	return e, at, colon, hs
}

// The kinds of bytes of the authority pass (authKind).
const (
	akLD        uint8 = iota // 'a'-'z', '0'-'9'
	akHyphen                 // '-'
	akDot                    // '.'
	akOther                  // any other byte of a host: not LDH
	akAt                     // '@'
	akColon                  // ':'
	akOpen                   // '['
	akClose                  // ']'
	akBackslash              // '\\': ends a special URL's authority
	akEnd                    // '/', '?', '#'
)

var authKind = func() (t [256]uint8) {
	for c := range t {
		t[c] = akOther
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = akLD
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = akLD
	}
	t['-'], t['.'], t['@'], t[':'], t['['], t[']'] = akHyphen, akDot, akAt, akColon, akOpen, akClose
	t['\\'], t['/'], t['?'], t['#'] = akBackslash, akEnd, akEnd, akEnd
	return t
}()

// ldhState follows a host, byte by byte, in the authority pass: whether
// every byte so far is a lowercase letter, digit, '-' or '.', and
// whether every label before the current one passes labelOK.
type ldhState struct {
	label, prevLabel int  // where the current label starts, and the one before
	ldh, strict      bool // all LDH; the labels so far pass labelOK
	hyphen           bool // the current label holds a '-'
}

// scan returns what scanLDH says of in[h:k], the host st followed.
func (st ldhState) scan(in string, h, k int) ldhScan {
	if !st.ldh || h == k {
		return ldhScan{}
	}
	strict := st.strict && k-h <= 253
	last := in[st.label:k]
	if last != "" && !labelOK(last) {
		strict = false
	}
	if last == "" && st.label > h {
		// A trailing dot: the ends-in-a-number checker looks before it.
		last = in[st.prevLabel : st.label-1]
	}
	numeric := last != "" && allDigits(last) || len(last) >= 2 && last[0] == '0' && last[1] == 'x'
	return ldhScan{ldh: true, strict: strict, numeric: numeric}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isFileHostEnd(c byte) bool {
	return c == '/' || c == '\\' || c == '?' || c == '#'
}

// authority is the authority state, host state and port state (section
// 4.4) from i, the first byte after the slashes; it returns where the
// path start state begins.
func (p *parser) authority(i int) (int, bool) {
	in := p.in
	w := &p.w
	special := p.kind.special()
	e, at, colon, hs := scanAuthority(in, i, special)
	w.str("//")
	p.hasHost = true
	userStart := w.len()
	h := i
	if at >= 0 {
		p.errs.add(InvalidCredentials)
		if at+1 == e {
			return 0, p.failAt(HostMissing, e)
		}
		h = at + 1
	}
	k := e // the host ends at the first ':' outside brackets
	if colon >= 0 {
		k = colon
	}
	// Before the userinfo is written: a URL that fails here should not
	// first percent-encode megabytes of it.
	if k < e && k == h || k == e && special && h == e {
		return 0, p.failAt(HostMissing, h)
	}
	if at >= 0 {
		user, pass, hasPass := strings.Cut(in[i:at], ":")
		w.reserve(2 * (countASCIIIn(user, setUserinfo) + countASCIIIn(pass, setUserinfo)))
		p.encode(user, setUserinfo, 0, false)
		p.userEnd = w.len()
		if hasPass {
			w.byte(':')
			p.encode(pass, setUserinfo, 0, false)
			if w.len() == p.userEnd+1 {
				w.truncate(p.userEnd)
			}
		}
		if w.len() > userStart {
			w.byte('@')
		}
	} else {
		p.userEnd = userStart
	}
	p.hostStart = w.len()
	pre := hs.scan(in, h, k)
	kind, ok := p.host(in[h:k], special, h, &pre)
	if !ok {
		return 0, false
	}
	p.hostKind = kind
	p.hostEnd = w.len()
	if k < e {
		port, ok := p.portNumber(in[k+1:e], k+1)
		if !ok {
			return 0, false
		}
		p.setPort(port)
	}
	return e, true
}

// portNumber reads the digits of a port (the port state, section 4.4);
// -1 for none.
func (p *parser) portNumber(s string, off int) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, p.failAt(PortInvalid, off+i)
		}
		if n <= 65535 {
			n = n*10 + int(c-'0')
		}
	}
	if s == "" {
		return -1, true
	}
	if n > 65535 {
		return 0, p.failAt(PortOutOfRange, off)
	}
	return n, true
}

// setPort writes ":port" unless port is null or the scheme's default.
func (p *parser) setPort(port int) {
	if port < 0 || port == p.kind.defaultPort() {
		p.port = -1
		return
	}
	p.port = port
	p.w.byte(':')
	var buf [8]byte
	p.w.bytes(strconv.AppendInt(buf[:0], int64(port), 10))
}

// path is the path state (section 4.4) from i, the first byte of a
// segment; it writes "/" and the segment for each segment it keeps.
// override is the pathname setter's state override: '?' and '#' are
// then part of the path. It returns where it stopped and the next state.
func (p *parser) path(i int, override bool) (int, state) {
	in := p.in
	w := &p.w
	special := p.kind.special()
	stop := isSlash
	if special {
		stop |= isBackslash
	}
	if !override {
		stop |= isQuestion | isHash
	}
	if j, ok := p.plainPath(i, stop); ok {
		// No segment needs a change: the path is the input's.
		w.byte('/')
		w.copyIn(i, j)
		switch p.at(j) {
		case '?':
			return j + 1, stQuery
		case '#':
			return j + 1, stFragment
		}
		return j, stDone
	}
	for {
		segStart := w.len()
		w.byte('/')
		j := p.encode(in[i:], setPath, stop, true) + i
		c := p.at(j)
		slash := c == '/' || c == '\\' && special
		if c == '\\' && special {
			p.errs.add(InvalidReverseSolidus)
		}
		seg := w.from(segStart + 1)
		switch {
		case isDoubleDot(seg):
			w.truncate(segStart)
			p.shorten()
			if !slash {
				w.byte('/')
			}
		case seg == "." && c == '/' && !p.hasHost && !special && segStart == p.pathStart && !p.dotPrefix && p.at(j+1) == '/':
			// "sc:/.//p": the "/." the serializer would put back to keep
			// "//p" from reading as a host; kept now, it costs no copy.
			p.dotPrefix = true
			p.pathStart = segStart + 2
		case isSingleDot(seg):
			w.truncate(segStart)
			if !slash {
				w.byte('/')
			}
		case p.kind == schemeFile && segStart == p.pathStart && isDriveLetter(seg):
			w.set(segStart+2, ':')
		}
		if !slash {
			switch c {
			case '?':
				return j + 1, stQuery
			case '#':
				return j + 1, stFragment
			}
			return j, stDone
		}
		i = j + 1
	}
}

// plainPath scans the path from i, the first byte of a segment, to its
// end (a byte of stop other than '/') and reports whether no segment
// needs the path state's attention: nothing to encode, no invalid URL
// unit, no '%', no segment that starts with '.'. (A Windows drive
// letter to fix holds '|', not a URL unit.)
func (p *parser) plainPath(i int, stop uint32) (int, bool) {
	in := p.in
	if i < len(in) && (in[i] == '.' || in[i] == '%') {
		return i, false
	}
	watch := setPath | notURLUnit | isPercent | stop
	for ; i < len(in); i++ {
		c := in[i]
		m := class[c]
		if m&watch == 0 {
			continue
		}
		if c != '/' {
			// '?' and '#' end the path (unless the pathname setter's
			// override makes them path bytes, to encode); anything else
			// here takes the path state.
			return i, (c == '?' || c == '#') && m&stop != 0
		}
		// A '%' comes to the test above anyway.
		if i+1 < len(in) && in[i+1] == '.' {
			return i, false
		}
	}
	return i, true
}

// isSingleDot: "." or "%2e", ASCII case-insensitively (section 4.1).
func isSingleDot(s string) bool {
	return s == "." || len(s) == 3 && s[0] == '%' && s[1] == '2' && s[2]|0x20 == 'e'
}

// isDoubleDot: "..", ".%2e", "%2e." or "%2e%2e", case-insensitively.
func isDoubleDot(s string) bool {
	switch len(s) {
	case 2:
		return s == ".."
	case 4:
		return s[0] == '.' && isSingleDot(s[1:]) || s[3] == '.' && isSingleDot(s[:3])
	case 6:
		return isSingleDot(s[:3]) && isSingleDot(s[3:])
	}
	return false
}

// opaquePath is the opaque path state (section 4.4).
func (p *parser) opaquePath(i int) (int, state) {
	in := p.in
	w := &p.w
	p.opaque = true
	p.pathStart = w.len()
	for {
		j := p.encode(in[i:], setC0, isQuestion|isHash|spaceStop, true) + i
		if j < len(in) && in[j] == ' ' {
			p.errs.add(InvalidURLUnit)
			if j+1 < len(in) && (in[j+1] == '?' || in[j+1] == '#') {
				w.str("%20")
			} else {
				w.byte(' ')
			}
			i = j + 1
			continue
		}
		switch p.at(j) {
		case '?':
			return j + 1, stQuery
		case '#':
			return j + 1, stFragment
		}
		return j, stDone
	}
}

// finish writes the URL the parse built in *u.
func (p *parser) finish(u *URL) {
	w := &p.w
	if p.dotPrefix && !strings.HasPrefix(w.from(p.pathStart), "//") {
		// ".." segments took the path back from "//": no "/." then.
		w.remove(p.pathStart-2, 2)
		p.pathStart -= 2
		if p.queryStart >= 0 {
			p.queryStart -= 2
		}
		if p.fragStart >= 0 {
			p.fragStart -= 2
		}
	} else if !p.dotPrefix && !p.hasHost && !p.opaque && strings.HasPrefix(w.from(p.pathStart), "//") {
		// "/." keeps the path from reading as a host (section 4.5).
		w.insert(p.pathStart, "/.")
		p.pathStart += 2
		if p.queryStart >= 0 {
			p.queryStart += 2
		}
		if p.fragStart >= 0 {
			p.fragStart += 2
		}
	}
	s := w.string()
	*u = URL{s: s, schemeEnd: uint32(p.schemeEnd), port: int32(p.port), scheme: p.kind, errs: p.errs}
	if p.hasHost {
		u.flags |= hasHost
		u.userEnd, u.hostStart, u.hostEnd = uint32(p.userEnd), uint32(p.hostStart), uint32(p.hostEnd)
		u.hostKind = p.hostKind
	} else {
		n := uint32(p.schemeEnd + 1)
		u.userEnd, u.hostStart, u.hostEnd = n, n, n
	}
	if p.opaque {
		u.flags |= opaquePath
	}
	u.pathStart = uint32(p.pathStart)
	u.fragStart = uint32(len(s))
	if p.fragStart >= 0 {
		u.flags |= hasFragment
		u.fragStart = uint32(p.fragStart)
	}
	u.queryStart = u.fragStart
	if p.queryStart >= 0 {
		u.flags |= hasQuery
		u.queryStart = uint32(p.queryStart)
	}
}
