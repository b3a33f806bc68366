package uri

import (
	"net/netip"
	"strings"
	"unsafe"

	"github.com/urikit/urikit/internal/chars"
)

// unsafeString returns the bytes of b as a string without copying; b
// must not change while the string is in use.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Normalize returns the normal form of u, for comparison: the
// normalization of RFC 3986 6.2.2 and 6.2.3 with the rules of
// DefaultRegistry (DefaultRegistry().Normalize(u)):
//
//   - the scheme and the host are lowercased (6.2.2.1), except the hex
//     digits of a host's percent-encoded octets, which are uppercased as
//     everywhere else; an IPv6 literal is written in the text form of
//     RFC 5952 section 4 ("[2001:0DB8:0:0::A]" becomes "[2001:db8::a]":
//     the same address, so a rule beyond 6.2.2 that changes no
//     meaning), its zone identifier kept as written;
//   - percent-encoded unreserved characters are decoded in every
//     component (6.2.2.2);
//   - dot segments are removed from the path (6.2.2.3, the algorithm of
//     5.2.4). In a relative-path reference, whose meaning depends on a
//     base, ".." segments that cannot be cancelled are kept and a path
//     that vanishes becomes "./";
//   - an empty port is removed with its ":" (3.2.3), leading zeros of a
//     port are removed, and a port equal to the scheme's default is
//     removed (6.2.3);
//   - an empty path with an authority becomes "/" for the schemes whose
//     specifications say so (http, https, ws, wss, coap, coaps; 6.2.3);
//   - the scheme's own rules in DefaultRegistry apply: a URN keeps its
//     percent-encoding and dot segments and gets its NID in lowercase
//     (RFC 8141 section 3.1);
//   - empty query and fragment delimiters are kept ("?" and "#" stay).
//
// What the normal form promises: Equal(a, b) is true exactly when the
// keys are the same string; normalizing is idempotent; and the normal
// form re-parses to the same components (a path that would start with
// "//" without an authority is written "/.//", a relative path whose
// first segment would hold a ":" is written "./" first).
//
// Normalization and resolution agree, exactly: for a reference t and a
// base b, Equal(b.Resolve(t), b.Resolve(t.Normalize())), and for a t
// with a scheme Equal(t, b.Resolve(t)), whenever
//
//   - the paths of t and b hold no percent-encoded dot ("%2E", "%2e");
//   - the scheme of the result (t's, else b's) is not Opaque in
//     DefaultRegistry (urn keeps "%41" and dot segments for Equal, which
//     Resolve removes); and
//   - t is not a relative-path reference resolved against a base with
//     no authority and a path that does not begin with "/" (as "foo:" or
//     "foo:x/y"): there remove_dot_segments (5.2.4) turns "a/.." into
//     "/", a rootless path into an absolute one, while the normal form
//     of "a/.." is "./", which resolves to "".
//
// The tests check this over the corpora and on random references. An
// encoded dot breaks it, and both sides follow the RFC: 6.2.2.2 decodes
// "%2E" before 6.2.2.3 removes dot segments, while Resolve applies 5.2.4
// to the path as written, where "%2E" is an octet and not a dot. So
// "http://a/b/%2e/../g" normalizes to "http://a/g" but resolves to
// "http://a/b/g" (see the example).
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
func (u URI) Normalize() URI { return defaultRegistry.Normalize(u) }

// normalizeSyntax is the normalization of RFC 3986 6.2.2 (and the port
// and empty-path rules of 6.2.3 for a scheme whose default port is
// defPort and whose empty path means "/" when emptyRoot).
func (u URI) normalizeSyntax(defPort int, emptyRoot bool) URI {
	return u.normalize(defPort, emptyRoot, false)
}

// normalizeCase is the case normalization of RFC 3986 6.2.2.1 alone:
// the scheme and host in lowercase, hex digits in uppercase, nothing
// decoded, no dot segment removed (Scheme.Opaque).
func (u URI) normalizeCase() URI { return u.normalize(0, false, true) }

func (u URI) normalize(defPort int, emptyRoot, opaque bool) URI {
	unres := chars.Unreserved
	if opaque {
		unres = 0 // decode nothing
	}
	w := lazyBuf{orig: u.s}
	v := fields{flags: u.flags() &^ hasPort, hostKind: u.hostKind()}
	scheme := u.Scheme()
	if u.HasScheme() {
		w.writeLower(scheme)
		v.schemeEnd = int32(w.n)
		w.writeByte(':')
	}
	if u.HasAuthority() {
		w.writeString("//")
		if u.HasUserinfo() {
			w.normEscapes(u.Userinfo(), unres, false)
			w.writeByte('@')
		}
		v.hostStart = int32(w.n)
		w.normHost(u.Host(), u.hostKind(), unres)
		v.hostEnd = int32(w.n)
		if u.hostKind() == RegName && w.changed() {
			v.hostKind = regNameKind(w.slice(int(v.hostStart), int(v.hostEnd)))
		}
		if port, ok := normPort(u, defPort); ok {
			v.flags |= hasPort
			w.writeByte(':')
			w.writeString(port)
		}
	} else {
		v.hostStart, v.hostEnd = int32(w.n), int32(w.n)
	}
	v.pathStart = int32(w.n)
	path := normEscapesString(u.Path(), unres, false)
	relative := !u.HasScheme() && !u.HasAuthority() && !strings.HasPrefix(path, "/")
	if !opaque && hasDotSegment(path) {
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
	if u.HasAuthority() && path == "" && emptyRoot {
		path = "/"
	}
	w.writeString(reparsePrefix(path, u.HasScheme(), u.HasAuthority(), relative && !opaque))
	w.writeString(path)
	v.pathEnd = int32(w.n)
	if u.HasQuery() {
		w.writeByte('?')
		w.normEscapes(u.Query(), unres, false)
	}
	v.queryEnd = int32(w.n)
	if u.HasFragment() {
		w.writeByte('#')
		w.normEscapes(u.Fragment(), unres, false)
	}
	if !w.changed() {
		return u
	}
	v.s = w.String()
	return v.pack()
}

// slice returns the output bytes [i:j] as a string.
func (w *lazyBuf) slice(i, j int) string {
	if w.b == nil {
		return w.orig[i:j]
	}
	return string(w.b[i:j])
}

// normHost writes the host h of kind k in normal form (RFC 3986
// 6.2.2.1, 6.2.2.2): lowercase, with uppercase hex in triplets and the
// triplets of class unres decoded; an IPv6 address in the text form of
// RFC 5952 section 4.
func (w *lazyBuf) normHost(h string, k HostKind, unres chars.Class) {
	switch k {
	case IPv6:
		// The zone identifier (RFC 6874) names an interface of the
		// local system: its case and escapes are its own.
		z := strings.IndexByte(h, '%')
		if z < 0 {
			z = len(h) - 1
		}
		w.writeByte('[')
		if a, err := netip.ParseAddr(h[1:z]); err == nil {
			w.writeIPv6(h[1:z], a)
		} else {
			w.writeLower(h[1:z])
		}
		w.normEscapes(h[z:len(h)-1], unres, false)
		w.writeByte(']')
	case IPvFuture:
		w.writeLower(h)
	default:
		w.normEscapes(h, unres, true)
	}
}

// writeIPv6 writes the address a, written orig, in the text form of
// RFC 5952 section 4 (lowercase, no leading zeros, the longest run of
// zero groups as "::"), which netip.Addr.String produces; an
// IPv4-mapped address keeps its dotted quad (RFC 5952 section 5). It
// allocates only when orig is not already in that form.
func (w *lazyBuf) writeIPv6(orig string, a netip.Addr) {
	var buf [64]byte
	t := a.AppendTo(buf[:0])
	w.writeString(unsafeString(t))
}

// normPort returns the port of u to write in the normal form, and false
// when the port and its ":" are to be removed: when it is empty (RFC 3986
// 3.2.3) or defPort, the default of the scheme (6.2.3). Leading zeros
// are removed.
func normPort(u URI, defPort int) (string, bool) {
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
	if defPort != 0 && len(p) <= 5 {
		n := 0
		for i := 0; i < len(p); i++ {
			n = n*10 + int(p[i]-'0')
		}
		if n == defPort {
			return "", false
		}
	}
	return p, true
}

// normalize2396 is Normalize for the 1998 draft's grammar (see
// Normalize), for a scheme whose default port is defPort.
func (u URI) normalize2396(defPort int) URI {
	w := lazyBuf{orig: u.s}
	if u.HasScheme() {
		w.writeLower(u.s[:u.schemeEnd()])
		w.normEscapes(u.s[u.schemeEnd():], chars.Unreserved2396, false)
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
	x.writeString(v.s[:v.hostStart()])
	x.writeLower(v.Host())
	if port, ok := normPort(v, defPort); ok {
		x.writeByte(':')
		x.writeString(port)
	}
	x.writeString(v.s[v.pathStart():])
	if !x.changed() {
		return v
	}
	r, err := parse2396(x.String())
	if err != nil {
		return v // cannot happen: the host stays a hostname
	}
	return r
}

// Equal reports whether a and b are equivalent: whether their keys (see
// Key) are the same, under the rules of DefaultRegistry. It allocates
// nothing when both are already normal.
func Equal(a, b URI) bool { return defaultRegistry.Equal(a, b) }

// Key returns a comparison key for u, usable as a map key to remove
// duplicates: Key(a) == Key(b) exactly when Equal(a, b). The key is the
// string of the normal form, or for a URN its assigned-name (RFC 8141
// section 3 leaves the r-, q- and f-components out).
func (u URI) Key() string { return defaultRegistry.Key(u) }
