package uri

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// Grammar selects the syntax Parse follows.
type Grammar uint8

const (
	// RFC3986 is the generic syntax of RFC 3986 (STD 66), Appendix A.
	// It is the default.
	RFC3986 Grammar = iota
	// RFC2396 is the grammar of the 1998 draft that became RFC 2396
	// (draft-fielding-uri-syntax-02, Appendix A): no IP literals, the
	// opaque-URI form "scheme:" *uric, and registry-based authorities.
	RFC2396
)

// String returns "RFC 3986" or "RFC 2396".
// ParseGrammar returns the grammar named by s: "3986" or "RFC3986" (any
// case, a space allowed: "RFC 3986"), "2396" or "RFC2396", the names a
// command-line flag takes.
func ParseGrammar(s string) (Grammar, error) {
	n := strings.ReplaceAll(strings.ToLower(s), " ", "")
	switch strings.TrimPrefix(n, "rfc") {
	case "3986":
		return RFC3986, nil
	case "2396":
		return RFC2396, nil
	}
	return RFC3986, fmt.Errorf("%w: unknown grammar %q (want 3986 or 2396)", ErrInvalidOptions, s)
}

func (g Grammar) String() string {
	switch g {
	case RFC3986:
		return "RFC 3986"
	case RFC2396:
		return "RFC 2396"
	}
	return "Grammar(" + strconv.Itoa(int(g)) + ")"
}

// Options are the settings of ParseWith. The zero value is strict
// RFC 3986, what Parse uses.
type Options struct {
	// Grammar is the syntax to follow.
	Grammar Grammar
	// AllowZoneID accepts an IPv6 zone identifier in an IP-literal,
	// written "%25" ZoneID as RFC 6874 section 2 says
	// ("[fe80::1%25en0]"). Strict RFC 3986 has no zone identifiers, and
	// the RFC2396 grammar no IP literals, so it needs RFC3986.
	AllowZoneID bool
}

// String returns "RFC 3986", "RFC 3986 with zone IDs" or "RFC 2396".
func (o Options) String() string {
	if o.AllowZoneID {
		return o.Grammar.String() + " with zone IDs"
	}
	return o.Grammar.String()
}

// ErrInvalidOptions is the reason ParseWith fails on options that mean
// nothing: an unknown Grammar, or AllowZoneID with RFC2396.
var ErrInvalidOptions = errors.New("uri: invalid options")

// check reports options that mean nothing.
func (o Options) check() error {
	switch {
	case o.Grammar > RFC2396:
		return fmt.Errorf("%w: unknown grammar %d", ErrInvalidOptions, o.Grammar)
	case o.Grammar == RFC2396 && o.AllowZoneID:
		return fmt.Errorf("%w: the RFC 2396 grammar has no IP literals, so no zone identifiers", ErrInvalidOptions)
	}
	return nil
}

func fail(s string, off int, c Component, reason error) error {
	return NewParseError(s, off, c, reason)
}

func unhex(b byte) byte { return byte(chars.Unhex(b)) }

// Parse parses s as a URI reference (RFC 3986 section 4.1: an absolute
// URI or a relative reference) against the complete grammar of RFC 3986
// Appendix A. On success u.String() == s. Parse allocates nothing unless
// it fails.
func Parse(s string) (u URI, err error) {
	// Small enough to be inlined: a URI is four words, returned in
	// registers from parse into the caller's variable.
	return parse(s, false)
}

// parse is Parse; it returns the zero URI on error.
func parse(s string, zoneID bool) (URI, error) {
	if len(s) > math.MaxInt32 {
		return URI{}, fail(s, 0, ComponentNone, ErrTooLong)
	}
	if useMasks(s) {
		if u, ok := parseMasks(s); ok {
			return u, nil
		}
	}
	var f fields
	if err := f.parse3986(s, zoneID); err != nil {
		return URI{}, err
	}
	return f.pack(), nil
}

// ParseWith parses s with the grammar and options o selects. It fails
// with ErrInvalidOptions on options that mean nothing.
func ParseWith(s string, o Options) (u URI, err error) {
	// Inlined, as Parse is.
	return parseWith(s, o)
}

// parseWith is ParseWith; it returns the zero URI on error.
func parseWith(s string, o Options) (URI, error) {
	if err := o.check(); err != nil {
		return URI{}, err
	}
	if o.Grammar != RFC2396 {
		return parse(s, o.AllowZoneID)
	}
	return parse2396(s) // URI{} on error
}

// MustParse is like Parse but panics on error. It is for URIs written in
// programs, such as package-level variables.
func MustParse(s string) URI {
	u, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// parse3986 sets the zero URI u to s, scanned left to right once. Every
// check fails at the first byte that no valid URI reference could have
// at that place, which is what ParseError.Offset promises.
//
//	URI-reference = URI / relative-ref
//	URI           = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
//	relative-ref  = relative-part [ "?" query ] [ "#" fragment ]
func (u *fields) parse3986(s string, zoneID bool) error {
	u.s = s
	n := len(s)
	i := 0
	seg := 0 // the bytes of s before seg are valid in a first segment
	// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
	if n > 0 && chars.Is(s[0], chars.Alpha) {
		j := chars.Skip(s, 1, &chars.SchemeRun)
		if j < n && s[j] == ':' {
			u.flags |= hasScheme
			u.schemeEnd = int32(j)
			i = j + 1
		} else {
			// Not a scheme: bytes of a scheme are all valid in a
			// path's first segment, so that scan goes on from j.
			seg = j
		}
	}
	// hier-part / relative-part: "//" authority path-abempty, or a path.
	if i+1 < n && s[i] == '/' && s[i+1] == '/' {
		u.flags |= hasAuthority
		var err error
		if i, err = u.parseAuthority(s, i+2, zoneID); err != nil {
			return err
		}
	} else {
		u.hostStart, u.hostEnd = int32(i), int32(i)
	}
	u.pathStart = int32(i)
	// path: *( pchar / "/" ). Without scheme and authority, the first
	// segment is segment-nz-nc: a colon there would make it a scheme, so
	// it fails at the colon (RFC 3986 4.2).
	if u.flags&(hasScheme|hasAuthority) == 0 {
		// path-noscheme: the first segment is segment-nz-nc, and a colon
		// there would have made it a scheme, so it fails at the colon
		// (RFC 3986 4.2). Only this loop tests for ':'.
		i = seg
		for i < n && s[i] != '/' {
			c := s[i]
			if chars.Is(c, chars.PChar) {
				if c == ':' {
					return fail(s, i, ComponentPath, ErrColonInFirstSegment)
				}
				i++
				continue
			}
			if c != '%' {
				break
			}
			if e := chars.PctError(s, i); e >= 0 {
				return fail(s, e, ComponentPath, ErrInvalidPercent)
			}
			i += 3
		}
	}
	// path = *( pchar / "/" ): the common bytes eight at a time, the
	// others one table test each.
	for {
		if i = chars.Skip(s, i, &chars.PathRun); i == n {
			break
		}
		c := s[i]
		if c != '%' {
			if c != '?' && c != '#' {
				return fail(s, i, ComponentPath, ErrInvalidCharacter)
			}
			break
		}
		if e := chars.PctError(s, i); e >= 0 {
			return fail(s, e, ComponentPath, ErrInvalidPercent)
		}
		i += 3
	}
	u.pathEnd = int32(i)
	// query = *( pchar / "/" / "?" )
	if i < n && s[i] == '?' {
		u.flags |= hasQuery
		var err error
		if i, err = scanQueryFrag(s, i+1, ComponentQuery); err != nil {
			return err
		}
	}
	u.queryEnd = int32(i)
	// fragment = *( pchar / "/" / "?" )
	if i < n {
		// s[i] == '#': scanQueryFrag stops only there.
		u.flags |= hasFragment
		j, err := scanQueryFrag(s, i+1, ComponentFragment)
		if err != nil {
			return err
		}
		if j < n {
			return fail(s, j, ComponentFragment, ErrInvalidCharacter)
		}
	}
	return nil
}

// scanQueryFrag scans *( pchar / "/" / "?" ) from i and returns the
// offset of the first '#' or len(s).
func scanQueryFrag(s string, i int, c Component) (int, error) {
	for {
		if i = chars.Skip(s, i, &chars.QueryRun); i == len(s) {
			break
		}
		switch s[i] {
		case '%':
			if e := chars.PctError(s, i); e >= 0 {
				return 0, fail(s, e, c, ErrInvalidPercent)
			}
			i += 3
			continue
		case '#':
			return i, nil
		}
		return 0, fail(s, i, c, ErrInvalidCharacter)
	}
	return i, nil
}

// parseAuthority parses the authority starting at i (after "//") and
// returns the offset just past it.
//
//	authority = [ userinfo "@" ] host [ ":" port ]
//	userinfo  = *( unreserved / pct-encoded / sub-delims / ":" )
//	host      = IP-literal / IPv4address / reg-name
//	port      = *DIGIT
//
// Until an "@" is seen, the bytes read so far may still be a userinfo, so
// a colon followed by something other than digits fails only at the end
// of the authority ("//a:b" could have become "//a:b@h").
func (u *fields) parseAuthority(s string, i int, zoneID bool) (int, error) {
	n := len(s)
	start := i
	if i < n && s[i] != '[' {
		colon := -1
		for {
			if i = chars.Skip(s, i, &chars.HostRun); i == n {
				break
			}
			// userinfo is reg-name plus ":", which comes after the
			// run of reg-name bytes.
			c := s[i]
			if c == ':' {
				if colon < 0 {
					colon = i
				}
				i++
				continue
			}
			if c == '%' {
				if e := chars.PctError(s, i); e >= 0 {
					return 0, fail(s, e, ComponentAuthority, ErrInvalidPercent)
				}
				i += 3
				continue
			}
			break
		}
		if i < n && s[i] == '@' {
			u.flags |= hasUserinfo
			i++
			start = i
		} else {
			// No userinfo: host [ ":" port ] ends here.
			if !(i == n || s[i] == '/' || s[i] == '?' || s[i] == '#') {
				return 0, fail(s, i, ComponentHost, ErrInvalidCharacter)
			}
			u.hostStart = int32(start)
			if colon < 0 {
				u.hostEnd = int32(i)
				u.hostKind = regNameKind(s[start:i])
				return i, nil
			}
			u.hostEnd = int32(colon)
			u.hostKind = regNameKind(s[start:colon])
			u.flags |= hasPort
			for j := colon + 1; j < i; j++ {
				if !chars.Is(s[j], chars.Digit) {
					// Still a valid userinfo up to here; the end of the
					// authority is the first byte that cannot be.
					return 0, fail(s, i, ComponentPort, ErrInvalidPort)
				}
			}
			return i, nil
		}
	}
	// host, after a userinfo or starting with "[".
	u.hostStart = int32(i)
	if i < n && s[i] == '[' {
		j, kind, err := parseIPLiteral(s, i, zoneID)
		if err != nil {
			return 0, err
		}
		u.hostKind = kind
		i = j
	} else {
		for {
			if i = chars.Skip(s, i, &chars.HostRun); i == n {
				break
			}
			if s[i] == '%' {
				if e := chars.PctError(s, i); e >= 0 {
					return 0, fail(s, e, ComponentHost, ErrInvalidPercent)
				}
				i += 3
				continue
			}
			break
		}
		u.hostKind = regNameKind(s[u.hostStart:i])
	}
	u.hostEnd = int32(i)
	if i < n && s[i] == ':' {
		u.flags |= hasPort
		i++
		for i < n && chars.Is(s[i], chars.Digit) {
			i++
		}
		if i < n && !(s[i] == '/' || s[i] == '?' || s[i] == '#') {
			return 0, fail(s, i, ComponentPort, ErrInvalidPort)
		}
		return i, nil
	}
	if i < n && !(s[i] == '/' || s[i] == '?' || s[i] == '#') {
		return 0, fail(s, i, ComponentHost, ErrInvalidCharacter)
	}
	return i, nil
}

// parse2396 parses s with the 1998 draft's grammar (its Appendix A). Its
// components are those of the Appendix B regular expression
//
//	^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
//
// and every byte outside the fragment delimiter must be uric (reserved,
// unreserved or an escaped triplet): with a scheme, opaque-URI =
// scheme ":" *uric accepts any such string, and without one
// rel_path = [ path_segments ] [ "?" query ] accepts any string of uric,
// the delimiters separating the components. One restriction comes from
// the prose of section 5: a first segment that contains a colon "cannot
// be used as the first segment of a relative URI path" ("this:that" would
// be mistaken for a scheme name), so a colon before any "/", "?" or "#"
// must end a valid scheme.
//
// The scan is one pass left to right, so that an error is reported at
// the first byte that no valid reference could have there.
func parse2396(s string) (URI, error) {
	if len(s) > math.MaxInt32 {
		return URI{}, fail(s, 0, ComponentNone, ErrTooLong)
	}
	var f fields
	if err := f.parse2396(s); err != nil {
		return URI{}, err
	}
	return f.pack(), nil
}

// parse2396 is the function parse2396, writing the zero fields u.
func (u *fields) parse2396(s string) error {
	u.s, u.flags = s, grammar2396
	n := len(s)
	// ([^:/?#]+): -- the first segment, which is a scheme if a colon ends it.
	j, err := scan2396(s, 0, stopColon|stopSlash|stopQuery, ComponentPath)
	if err != nil {
		return err
	}
	i := 0
	if j < n && s[j] == ':' {
		if j == 0 || !chars.Is(s[0], chars.Alpha) {
			return fail(s, j, ComponentPath, ErrColonInFirstSegment)
		}
		for k := 1; k < j; k++ {
			if !chars.Is(s[k], chars.Scheme) {
				return fail(s, j, ComponentScheme, ErrInvalidScheme)
			}
		}
		u.flags |= hasScheme
		u.schemeEnd = int32(j)
		i = j + 1
	}
	// (//([^/?#]*))?
	u.hostStart, u.hostEnd = int32(i), int32(i)
	if i+1 < n && s[i] == '/' && s[i+1] == '/' {
		u.flags |= hasAuthority
		a := i + 2
		if i, err = scan2396(s, a, stopSlash|stopQuery, ComponentAuthority); err != nil {
			return err
		}
		u.authority2396(s, a, i)
	}
	// ([^?#]*)
	u.pathStart = int32(i)
	if i, err = scan2396(s, i, stopQuery, ComponentPath); err != nil {
		return err
	}
	u.pathEnd = int32(i)
	// (\?([^#]*))?
	if i < n && s[i] == '?' {
		u.flags |= hasQuery
		if i, err = scan2396(s, i+1, 0, ComponentQuery); err != nil {
			return err
		}
	}
	u.queryEnd = int32(i)
	// (#(.*))? -- fragment = *uric: a second "#" is an error.
	if i < n {
		u.flags |= hasFragment
		if i, err = scan2396(s, i+1, 0, ComponentFragment); err != nil {
			return err
		}
		if i < n {
			return fail(s, i, ComponentFragment, ErrInvalidCharacter)
		}
	}
	return nil
}

// Delimiters at which scan2396 stops, besides "#" where it always stops.
const (
	stopColon = 1 << iota
	stopSlash
	stopQuery
)

// scan2396 scans uric bytes and escaped triplets from i and returns the
// offset of the first "#", of the first delimiter that stop selects, or
// len(s). A byte that is none of these fails as part of component c.
func scan2396(s string, i int, stop uint8, c Component) (int, error) {
	for ; i < len(s); i++ {
		b := s[i]
		switch {
		case b == ':' && stop&stopColon != 0,
			b == '/' && stop&stopSlash != 0,
			b == '?' && stop&stopQuery != 0,
			b == '#':
			return i, nil
		case chars.Is(b, chars.Uric2396):
		case b == '%':
			if e := chars.PctError(s, i); e >= 0 {
				return 0, fail(s, e, c, ErrInvalidPercent)
			}
			i += 2
		default:
			return 0, fail(s, i, c, ErrInvalidCharacter)
		}
	}
	return i, nil
}

// authority2396 splits the authority s[a:b] by the 1998 draft's rules:
//
//	authority = server | reg_name
//	server    = [ [ userinfo "@" ] hostport ]
//	hostport  = host [ ":" port ]
//	host      = hostname | IPv4address
//
// The bytes are already known to be reg_name characters; when they do
// not form a server, the whole authority is a registry-based name.
func (u *fields) authority2396(s string, a, b int) {
	u.hostStart, u.hostEnd = int32(a), int32(b)
	u.hostKind = RegName
	if a == b {
		return
	}
	auth := s[a:b]
	h := 0
	user := false
	for k := 0; k < len(auth); k++ {
		if auth[k] == '@' {
			if user {
				return // a second "@": reg_name
			}
			user = true
			h = k + 1
		}
	}
	// userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" |
	// "$" | "," ) excludes only "@" among reg_name characters, so any
	// prefix before the single "@" is a userinfo.
	hp := auth[h:]
	p := len(hp)
	for k := 0; k < len(hp); k++ {
		if hp[k] == ':' {
			p = k
			break
		}
	}
	host, port := hp[:p], ""
	if p < len(hp) {
		port = hp[p+1:]
		for k := 0; k < len(port); k++ {
			if !chars.Is(port[k], chars.Digit) {
				return
			}
		}
	}
	kind := hostname2396(host)
	if kind == NoHost {
		return
	}
	if user {
		u.flags |= hasUserinfo
	}
	u.hostStart = int32(a + h)
	u.hostEnd = int32(a + h + p)
	u.hostKind = kind
	if p < len(hp) {
		u.flags |= hasPort
	}
}

// hostname2396 returns IPv4 or RegName when h is a hostname or an
// IPv4address of the 1998 draft, and NoHost otherwise.
//
//	hostname    = *( domainlabel "." ) toplabel [ "." ]
//	domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum
//	toplabel    = alpha | alpha *( alphanum | "-" ) alphanum
//	IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit
func hostname2396(h string) HostKind {
	if h == "" {
		return NoHost
	}
	// IPv4address
	dots, digits, ok := 0, 0, true
	for k := 0; k < len(h) && ok; k++ {
		switch c := h[k]; {
		case chars.Is(c, chars.Digit):
			digits++
		case c == '.' && digits > 0:
			dots++
			digits = 0
		default:
			ok = false
		}
	}
	if ok && dots == 3 && digits > 0 {
		return IPv4
	}
	if h[len(h)-1] == '.' {
		h = h[:len(h)-1]
	}
	last := 0
	for k := 0; k <= len(h); k++ {
		if k < len(h) && h[k] != '.' {
			continue
		}
		label := h[last:k]
		if label == "" || !chars.Is(label[0], chars.Alpha|chars.Digit) || !chars.Is(label[len(label)-1], chars.Alpha|chars.Digit) {
			return NoHost
		}
		for m := 0; m < len(label); m++ {
			if !chars.Is(label[m], chars.Alpha|chars.Digit) && label[m] != '-' {
				return NoHost
			}
		}
		if k == len(h) && !chars.Is(label[0], chars.Alpha) {
			return NoHost // toplabel starts with a letter
		}
		last = k + 1
	}
	return RegName
}
