package uri

import (
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// defaultPorts maps a lowercase scheme to the port its specification
// says a URI without a port means (RFC 3986 6.2.3). Sources: the scheme's
// RFC where it names the default, else the IANA Service Name and Transport
// Protocol Port Number Registry. (The 1994 URL draft in the seeds names
// ftp, gopher, http, nntp, telnet, wais and prospero, but the copy we have
// does not carry the numbers; RFC 1738, its published form, does.)
var defaultPorts = map[string]int{
	"http":     80,   // RFC 9110 4.2.1 (and RFC 1738 3.3)
	"https":    443,  // RFC 9110 4.2.2
	"ws":       80,   // RFC 6455 3
	"wss":      443,  // RFC 6455 3
	"ftp":      21,   // RFC 1738 3.2
	"gopher":   70,   // RFC 4266 2.1 (RFC 1738 3.4)
	"telnet":   23,   // RFC 4248 2 (RFC 1738 3.8)
	"nntp":     119,  // RFC 5538 2.2 (RFC 1738 3.7)
	"news":     119,  // RFC 5538 2.1
	"snews":    563,  // RFC 5538 2.1 (historic, IANA "nntps")
	"wais":     210,  // RFC 4156 2 (RFC 1738 3.9)
	"prospero": 1525, // RFC 4157 2 (RFC 1738 3.11)
	"tn3270":   23,   // RFC 6270 2
	"rlogin":   513,  // IANA port registry, service "login"
	"rtsp":     554,  // RFC 7826 19.2 (RFC 2326 3.2)
	"rtsps":    322,  // RFC 7826 19.2
	"ldap":     389,  // RFC 4516 2
	"ldaps":    636,  // IANA port registry, service "ldaps"
	"imap":     143,  // RFC 5092 3
	"pop":      110,  // RFC 2384 3
	"sip":      5060, // RFC 3261 19.1.2
	"sips":     5061, // RFC 3261 19.1.2
	"coap":     5683, // RFC 7252 6.1
	"coaps":    5684, // RFC 7252 6.2
	"ipp":      631,  // RFC 3510 4
	"ipps":     631,  // RFC 7472 4.2
	"nfs":      2049, // RFC 2224 2
	"rsync":    873,  // RFC 5781 2
	"vnc":      5900, // RFC 7869 2
	"dns":      53,   // RFC 4501 2
}

// DefaultPort returns the default port of scheme, compared without
// regard to case, for the schemes whose specification defines one.
func DefaultPort(scheme string) (int, bool) {
	var buf [16]byte
	if len(scheme) > len(buf) {
		return 0, false
	}
	for i := 0; i < len(scheme); i++ {
		buf[i] = chars.Lower(scheme[i])
	}
	p, ok := defaultPorts[string(buf[:len(scheme)])]
	return p, ok
}

// emptyPathIsRoot reports whether the scheme's specification says that
// an empty path (with an authority) is equivalent to "/", the case
// RFC 3986 6.2.3 describes for http.
func emptyPathIsRoot(scheme string) bool {
	for _, s := range [...]string{
		"http", "https", // RFC 9110 4.2.3
		"ws", "wss", // RFC 6455 3: resource-name is "/" for an empty path
		"coap", "coaps", // RFC 7252 6.3
	} {
		if strings.EqualFold(scheme, s) {
			return true
		}
	}
	return false
}

// Normalize returns the normal form of u, for comparison (RFC 3986 6.2.2
// and 6.2.3):
//
//   - the scheme and the host are lowercased (6.2.2.1), except the hex
//     digits of a host's percent-encoded octets, which are uppercased as
//     everywhere else; an IPv6 literal is lowercased but not otherwise
//     rewritten (its zone identifier keeps its case);
//   - percent-encoded unreserved characters are decoded in every
//     component (6.2.2.2);
//   - dot segments are removed from the path (6.2.2.3, the algorithm of
//     5.2.4). In a relative-path reference, whose meaning depends on a
//     base, ".." segments that cannot be cancelled are kept and a path
//     that vanishes becomes "./", so that the normal form resolves to the
//     same URI as u against every base;
//   - an empty port is removed with its ":" (3.2.3), leading zeros of a
//     port are removed, and a port equal to the scheme's DefaultPort is
//     removed (6.2.3);
//   - an empty path with an authority becomes "/" for http, https, ws,
//     wss, coap and coaps, whose specifications say so (6.2.3);
//   - empty query and fragment delimiters are kept ("?" and "#" stay).
//
// The result re-parses to the same components: a path that would start
// with "//" without an authority is written "/.//", and a relative path
// whose first segment would hold a ":" is written "./" first.
//
// For a URI parsed with the RFC2396 grammar, Normalize follows the 1998
// draft instead: its section 6 (scheme and hostname compared without
// case, an explicit default port equal to none), the hex digits of every
// escape uppercased, and escaped unreserved characters of its section 2.3
// (alphanum and the marks "-_.!~*'()") decoded, since "unreserved
// characters can be escaped without changing the semantics". Dot segments
// and empty paths are left alone: that draft does not make them
// equivalent (its own resolution keeps "/./g"). A registry-based
// authority (a reg_name that is not a server) is not lowercased.
//
// Normalize is idempotent and allocates nothing when u is already normal.
func (u URI) Normalize() URI {
	if u.flags&grammar2396 != 0 {
		return u.normalize2396()
	}
	w := lazyBuf{orig: u.s}
	v := URI{flags: u.flags &^ hasPort, hostKind: u.hostKind}
	scheme := u.Scheme()
	if u.HasScheme() {
		for i := 0; i < len(scheme); i++ {
			w.writeByte(chars.Lower(scheme[i]))
		}
		v.schemeEnd = int32(w.n)
		w.writeByte(':')
	}
	if u.HasAuthority() {
		w.writeString("//")
		if u.HasUserinfo() {
			w.normEscapes(u.Userinfo(), chars.Unreserved, false)
			w.writeByte('@')
		}
		v.hostStart = int32(w.n)
		w.normHost(u.Host(), u.hostKind)
		v.hostEnd = int32(w.n)
		if u.hostKind == RegName && w.changed() {
			v.hostKind = regNameKind(w.slice(int(v.hostStart), int(v.hostEnd)))
		}
		if port, ok := normPort(u, scheme); ok {
			v.flags |= hasPort
			w.writeByte(':')
			w.writeString(port)
		}
	} else {
		v.hostStart, v.hostEnd = int32(w.n), int32(w.n)
	}
	v.pathStart = int32(w.n)
	path := normEscapesString(u.Path(), chars.Unreserved, false)
	relative := !u.HasScheme() && !u.HasAuthority() && !strings.HasPrefix(path, "/")
	if hasDotSegment(path) {
		var buf [128]byte
		var p []byte
		if relative {
			p = removeDotSegmentsRelative(buf[:0], path)
		} else {
			p = removeDotSegments(buf[:0], path)
		}
		if string(p) != path {
			path = string(p)
		}
	}
	if u.HasAuthority() && path == "" && emptyPathIsRoot(scheme) {
		path = "/"
	}
	w.writeString(reparsePrefix(path, u.HasScheme(), u.HasAuthority(), relative))
	w.writeString(path)
	v.pathEnd = int32(w.n)
	if u.HasQuery() {
		w.writeByte('?')
		w.normEscapes(u.Query(), chars.Unreserved, false)
	}
	v.queryEnd = int32(w.n)
	if u.HasFragment() {
		w.writeByte('#')
		w.normEscapes(u.Fragment(), chars.Unreserved, false)
	}
	if !w.changed() {
		return u
	}
	v.s = w.String()
	return v
}

// slice returns the output bytes [i:j] as a string.
func (w *lazyBuf) slice(i, j int) string {
	if w.b == nil {
		return w.orig[i:j]
	}
	return string(w.b[i:j])
}

// normHost writes the host h of kind k in normal form (RFC 3986 6.2.2.1,
// 6.2.2.2): lowercase, with uppercase hex in triplets.
func (w *lazyBuf) normHost(h string, k HostKind) {
	switch k {
	case IPv6:
		// Lowercase the address, not the zone identifier (RFC 6874),
		// which names an interface of the local system.
		z := strings.IndexByte(h, '%')
		if z < 0 {
			z = len(h) - 1
		}
		for i := 0; i < z; i++ {
			w.writeByte(chars.Lower(h[i]))
		}
		w.normEscapes(h[z:len(h)-1], chars.Unreserved, false)
		w.writeByte(']')
	case IPvFuture:
		for i := 0; i < len(h); i++ {
			w.writeByte(chars.Lower(h[i]))
		}
	default:
		w.normEscapes(h, chars.Unreserved, true)
	}
}

// normPort returns the port of u to write in the normal form, and false
// when the port and its ":" are to be removed: when it is empty (RFC 3986
// 3.2.3) or the default of the scheme (6.2.3). Leading zeros are removed.
func normPort(u URI, scheme string) (string, bool) {
	if !u.HasPort() {
		return "", false
	}
	p := u.Port()
	if p == "" {
		return "", false
	}
	for len(p) > 1 && p[0] == '0' {
		p = p[1:]
	}
	if def, ok := DefaultPort(scheme); ok && len(p) <= 5 {
		n := 0
		for i := 0; i < len(p); i++ {
			n = n*10 + int(p[i]-'0')
		}
		if n == def {
			return "", false
		}
	}
	return p, true
}

// normalize2396 is Normalize for the 1998 draft's grammar (see Normalize).
func (u URI) normalize2396() URI {
	w := lazyBuf{orig: u.s}
	if u.HasScheme() {
		for i := 0; i < int(u.schemeEnd); i++ {
			w.writeByte(chars.Lower(u.s[i]))
		}
		w.normEscapes(u.s[u.schemeEnd:], chars.Unreserved2396, false)
	} else {
		w.normEscapes(u.s, chars.Unreserved2396, false)
	}
	v := u
	if w.changed() {
		// Decoding may turn a registry-based authority into a server
		// ("%41.com"), so the components are found again.
		var err error
		if v, err = parse2396(w.String()); err != nil {
			return u // cannot happen: decoded bytes are unreserved
		}
	}
	// Section 6: the hostname of a server is case-insensitive, and a
	// default (or empty) port equals none.
	if !v.HasAuthority() || hostname2396(v.Host()) == NoHost {
		return v
	}
	x := lazyBuf{orig: v.s}
	x.writeString(v.s[:v.hostStart])
	h := v.Host()
	for i := 0; i < len(h); i++ {
		x.writeByte(chars.Lower(h[i]))
	}
	if port, ok := normPort(v, v.Scheme()); ok {
		x.writeByte(':')
		x.writeString(port)
	}
	x.writeString(v.s[v.pathStart:])
	if !x.changed() {
		return v
	}
	r, err := parse2396(x.String())
	if err != nil {
		return v // cannot happen: the host stays a hostname
	}
	return r
}

// Equal reports whether a and b are equivalent: whether their normal
// forms (see Normalize) are the same string. It allocates nothing when
// both are already normal.
func Equal(a, b URI) bool { return a.Normalize().s == b.Normalize().s }

// Key returns a comparison key for u, usable as a map key to remove
// duplicates: Key(a) == Key(b) exactly when Equal(a, b). The key is the
// string of the normal form.
func (u URI) Key() string { return u.Normalize().s }
