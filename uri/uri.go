package uri

import (
	"iter"
	"net/netip"
	"strings"
)

// URI is a parsed URI reference: an absolute URI or a relative reference.
//
// A URI is a small immutable value that keeps the input string and the
// offsets of its components, so that reading a component slices the
// input and allocates nothing. Undefined components are distinct from
// empty ones: "foo://a/b?#" has an empty query and an empty fragment,
// "foo://a/b" has neither; HasQuery and HasFragment tell them apart.
//
// The zero URI is the empty relative reference "", which is valid (it
// refers to the current document, RFC 3986 section 4.4).
type URI struct {
	s string

	// The bounds of the components and the flags, packed (fields has
	// them unpacked, pack and the accessors below say how): a URI is
	// four machine words, which the compiler keeps in registers and
	// returns in registers. A larger struct lives in memory, and each
	// copy of one just written stalls until its narrow stores are done.
	lo, hi uint64
}

// fields is a URI unpacked: what the parsers and Resolve write, and
// pack makes a URI of.
type fields struct {
	s string

	// Offsets into s. The scheme is s[:schemeEnd] (s[schemeEnd] == ':').
	// The authority is s[authStart:pathStart], where authStart is
	// schemeEnd+3 with a scheme and 2 without. The userinfo ends at
	// hostStart-1 (the '@'); the port starts at hostEnd+1 (after ':').
	// The path is s[pathStart:pathEnd]; the query s[pathEnd+1:queryEnd];
	// the fragment s[queryEnd+1:]. Without a scheme schemeEnd is 0;
	// without an authority hostStart and hostEnd are pathStart; without
	// a port hostEnd is pathStart.
	schemeEnd int32
	hostStart int32
	hostEnd   int32
	pathStart int32
	pathEnd   int32
	queryEnd  int32

	flags    flags
	hostKind HostKind
}

// The packing. lo holds pathStart (bits 0-31) and pathEnd (32-63); hi
// holds queryEnd (0-31), the scheme's length (32-37), the host's (38-45),
// the port's with its ':' (46-53), the flags (54-60) and the host's kind
// (61-63). Offsets fit 31 bits (parse refuses longer input). A length
// that does not fit its bits is stored as all ones and found again in
// the text: the scheme ends at the first ':', the host starts after the
// userinfo's '@' or the authority's "//" (neither grammar lets a host
// have a '@' or a '/', nor a userinfo a '@'), and the port starts after
// the last ':' before the path (a port is digits). So a URI is four
// words whatever its length, and the common ones read every bound
// without looking at the text.
const (
	schemeMask  = 1<<6 - 1 // also the scheme length "found in the text"
	lenMask     = 1<<8 - 1 // also the host or port length "found in the text"
	schemeShift = 32
	hostShift   = 38
	portShift   = 46
	flagsShift  = 54
	kindShift   = 61
)

// pack returns the URI of f. Without an authority hostStart and hostEnd
// must be pathStart, and without a scheme schemeEnd must be 0, as fields
// says (the parsers and Resolve write them so): then a URI has one
// packing, and == compares URIs.
func (f *fields) pack() URI {
	sl := min(uint64(f.schemeEnd), schemeMask)
	hl := min(uint64(f.hostEnd-f.hostStart), lenMask)
	pl := min(uint64(f.pathStart-f.hostEnd), lenMask)
	return URI{
		s:  f.s,
		lo: uint64(f.pathStart) | uint64(f.pathEnd)<<32,
		hi: uint64(f.queryEnd) | sl<<schemeShift | hl<<hostShift | pl<<portShift |
			uint64(f.flags)<<flagsShift | uint64(f.hostKind)<<kindShift,
	}
}

// Writes of single bounds of a URI, for the code that builds one from
// the bounds of others (Resolve): the host's and port's lengths are
// counted back from pathStart, so they hold wherever the text of the
// scheme-less part moves.

// setPath sets where u's path starts and ends.
func (u *URI) setPath(start, end int32) { u.lo = uint64(start) | uint64(end)<<32 }

// setQueryEnd sets u's queryEnd.
func (u *URI) setQueryEnd(q int32) { u.hi = u.hi&^(1<<32-1) | uint64(q) }

// setFlags sets the flags f of u.
func (u *URI) setFlags(f flags) { u.hi |= uint64(f) << flagsShift }

// clearFlags clears the flags f of u.
func (u *URI) clearFlags(f flags) { u.hi &^= uint64(f) << flagsShift }

// shift moves u's bounds n bytes on, for u's text put after n others.
// u has no scheme (whose end is not counted back from the path).
func (u *URI) shift(n int32) {
	u.lo += uint64(n) | uint64(n)<<32
	u.hi += uint64(n)
}

// takeScheme gives u, which has no scheme, the scheme of b, which
// has one, of the same length as the n bytes that u's text then
// follows: shift, then the scheme's length and flag.
func (u *URI) takeScheme(b *URI, n int32) {
	u.shift(n)
	u.hi |= b.hi&(schemeMask<<schemeShift) | uint64(hasScheme)<<flagsShift
}

func (u URI) pathStart() int32 { return int32(u.lo) }
func (u URI) pathEnd() int32   { return int32(u.lo >> 32) }
func (u URI) queryEnd() int32  { return int32(u.hi) }
func (u URI) flags() flags     { return flags(u.hi >> flagsShift & 0x7f) }
func (u URI) hostKind() HostKind {
	return HostKind(u.hi >> kindShift)
}

// schemeEnd is the length of the scheme, 0 without one.
func (u URI) schemeEnd() int32 {
	n := int32(u.hi >> schemeShift & schemeMask)
	if n == schemeMask {
		// A scheme of 63 bytes or more ends at the first ':'.
		for u.s[n] != ':' {
			n++
		}
	}
	return n
}

// hostEnd is where the host ends: at the port's ':', or at pathStart.
func (u URI) hostEnd() int32 {
	n := int32(u.hi >> portShift & lenMask)
	e := u.pathStart() - n
	if n == lenMask {
		// A port of 254 digits or more: its ':' is the last one.
		for u.s[e] != ':' {
			e--
		}
	}
	return e
}

// hostStart is where the host starts: after the userinfo's '@', at
// authStart, or at pathStart without an authority.
func (u URI) hostStart() int32 { return u.hostStartFrom(u.hostEnd()) }

// hostStartFrom is hostStart, given e, hostEnd. A host of 255 bytes or
// more starts after the '@' of the userinfo, or after the "//" of the
// authority: the host (or, in the 1998 grammar, a registry-based
// authority) has no '/', and an authority with a userinfo has one '@'.
func (u URI) hostStartFrom(e int32) int32 {
	n := int32(u.hi >> hostShift & lenMask)
	h := e - n
	if n == lenMask {
		c := '/' + byte(u.hi>>(flagsShift+2)&1)*('@'-'/') // hasUserinfo
		for u.s[h-1] != c {
			h--
		}
	}
	return h
}

type flags uint8

const (
	hasScheme flags = 1 << iota
	hasAuthority
	hasUserinfo
	hasPort
	hasQuery
	hasFragment
	grammar2396 // parsed with the 1998 draft's grammar
)

// HostKind tells which rule of the grammar the host matched.
type HostKind uint8

const (
	// NoHost is the kind of a URI reference without an authority.
	NoHost HostKind = iota
	// RegName is a registered name (RFC 3986 3.2.2 reg-name), possibly
	// empty. In the 1998 draft's grammar it is a hostname, or a whole
	// registry-based authority (reg_name, its section 3.2.1).
	RegName
	// IPv4 is an IPv4address in dotted-decimal form (RFC 3986 3.2.2).
	IPv4
	// IPv6 is an IP-literal holding an IPv6address (RFC 3986 3.2.2),
	// with a zone identifier (RFC 6874) when parsed with AllowZoneID.
	IPv6
	// IPvFuture is an IP-literal holding an IPvFuture address.
	IPvFuture
)

// String returns the name of the kind, after the grammar's rule names
// (RFC 3986 3.2.2: reg-name, IPv4address, IPv6address, IPvFuture):
// "", "reg-name", "ipv4", "ipv6" or "ipvfuture".
func (k HostKind) String() string {
	switch k {
	case RegName:
		return "reg-name"
	case IPv4:
		return "ipv4"
	case IPv6:
		return "ipv6"
	case IPvFuture:
		return "ipvfuture"
	}
	return ""
}

// String returns the URI reference exactly as it was parsed or built.
func (u URI) String() string { return u.s }

// IsZero reports whether u is the zero URI (the empty reference).
func (u URI) IsZero() bool { return u.s == "" }

// Grammar returns the grammar u was parsed with: RFC3986 or RFC2396.
func (u URI) Grammar() Grammar {
	if u.flags()&grammar2396 != 0 {
		return RFC2396
	}
	return RFC3986
}

// HasScheme reports whether the reference has a scheme, that is,
// whether it is a URI rather than a relative reference.
func (u URI) HasScheme() bool { return u.flags()&hasScheme != 0 }

// IsAbs reports whether u has a scheme, as url.URL.IsAbs does: a URI
// rather than a relative reference (RFC 3986 4.1). HasScheme is the
// same; IsAbsoluteURI is the RFC's stricter "absolute-URI".
func (u URI) IsAbs() bool { return u.flags()&hasScheme != 0 }

// IsAbsoluteURI reports whether u is an absolute-URI (RFC 3986 4.3): it
// has a scheme and no fragment, as a base URI must. "http://a/#f" is
// absolute for IsAbs, not for IsAbsoluteURI.
func (u URI) IsAbsoluteURI() bool { return u.HasScheme() && !u.HasFragment() }

// Scheme returns the scheme as written (not lowercased), or "" when
// there is none.
func (u URI) Scheme() string {
	if u.flags()&hasScheme == 0 {
		return ""
	}
	return u.s[:u.schemeEnd()]
}

func (u URI) authStart() int32 {
	if u.flags()&hasScheme != 0 {
		return u.schemeEnd() + 3
	}
	return 2
}

// HasAuthority reports whether the reference has an authority ("//"),
// possibly empty.
func (u URI) HasAuthority() bool { return u.flags()&hasAuthority != 0 }

// Authority returns the authority as written, or "" when there is none.
func (u URI) Authority() string {
	if u.flags()&hasAuthority == 0 {
		return ""
	}
	return u.s[u.authStart():u.pathStart()]
}

// HasUserinfo reports whether the authority has a userinfo ("@").
func (u URI) HasUserinfo() bool { return u.flags()&hasUserinfo != 0 }

// Userinfo returns the userinfo as written, without its "@", or "".
func (u URI) Userinfo() string {
	if u.flags()&hasUserinfo == 0 {
		return ""
	}
	return u.s[u.authStart() : u.hostStart()-1]
}

// Host returns the host as written: an IP-literal keeps its brackets.
// It returns "" for a reference without an authority and for an empty
// host; HasAuthority tells them apart.
func (u URI) Host() string {
	// Without an authority the host's bounds are both pathStart.
	e := u.hostEnd()
	return u.s[u.hostStartFrom(e):e]
}

// HostPort returns the host and port as written, "host:port" or
// "[::1]:8080" (the authority without its userinfo): what url.URL.Host
// holds, where Host here, like url.URL.Hostname, leaves the port out.
// It returns "" without an authority.
func (u URI) HostPort() string {
	if u.flags()&hasAuthority == 0 {
		return ""
	}
	return u.s[u.hostStart():u.pathStart()]
}

// Addr returns the host as an IP address when it is an IPv4 address or
// an IPv6 literal (with its zone, "fe80::1%en0"), and false for a
// registered name, an IPvFuture literal or no host. The address is
// exactly what the URI says: "127.1" is a reg-name here, not 127.0.0.1.
func (u URI) Addr() (netip.Addr, bool) {
	switch u.hostKind() {
	case IPv4, IPv6:
		a, err := netip.ParseAddr(u.Hostname())
		return a, err == nil
	}
	return netip.Addr{}, false
}

// Hostname returns the host without the brackets of an IP-literal, and
// with an IPv6 zone identifier decoded ("fe80::1%en0"). A registered
// name is returned as written, escapes included: "http://%e2%98%83/"
// gives "%e2%98%83", with no allocation, where net/url's Hostname gives
// "☃". Decoding a name is a choice of what to do with what it decodes
// to (a space, a control, octets that are not UTF-8): DecodedHost
// decodes it; iri.ToIRI shows it; scheme's views (Endpoint.Host) decode
// it once the scheme's rules have found it a host name.
func (u URI) Hostname() string {
	h := u.Host()
	switch u.hostKind() {
	case IPv6, IPvFuture:
		h = h[1 : len(h)-1]
		if i := strings.Index(h, "%25"); i >= 0 {
			return h[:i] + "%" + unescapeValid(h[i+3:])
		}
	}
	return h
}

// HostKind returns the kind of the host, or NoHost without an authority.
func (u URI) HostKind() HostKind { return u.hostKind() }

// HasPort reports whether the authority has a port delimiter ":".
// The port itself may be empty (RFC 3986 3.2.3).
func (u URI) HasPort() bool { return u.flags()&hasPort != 0 }

// Port returns the port as written, without its ":", or "".
func (u URI) Port() string {
	if u.flags()&hasPort == 0 {
		return ""
	}
	return u.s[u.hostEnd()+1 : u.pathStart()]
}

// PortNumber returns the port as a number. It reports false when there
// is no port, when it is empty, or when it is above 65535.
func (u URI) PortNumber() (int, bool) {
	p := u.Port()
	if p == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		n = n*10 + int(p[i]-'0')
		if n > 65535 {
			return 0, false
		}
	}
	return n, true
}

// Path returns the path as written (it is never undefined, but may be
// empty).
func (u URI) Path() string { return u.s[u.pathStart():u.pathEnd()] }

// path is Path for the package's own hot paths: an inlined method of a
// URI value copies the whole value first, and a URI just written (by
// Parse) stalls a copy until the writes are done.
func (u *URI) path() string { return u.s[u.pathStart():u.pathEnd()] }

// Segments returns an iterator over the path's segments as written,
// split at "/". A path that starts with "/" does not yield an empty
// first segment; "/a/b/" yields "a", "b" and "". The empty path yields
// nothing.
func (u URI) Segments() iter.Seq[string] {
	p := u.Path()
	return func(yield func(string) bool) {
		if p == "" {
			return
		}
		if p[0] == '/' {
			p = p[1:]
		}
		for {
			i := strings.IndexByte(p, '/')
			if i < 0 {
				yield(p)
				return
			}
			if !yield(p[:i]) {
				return
			}
			p = p[i+1:]
		}
	}
}

// HasQuery reports whether the reference has a query ("?"), possibly
// empty.
func (u URI) HasQuery() bool { return u.flags()&hasQuery != 0 }

// Query returns the query as written, without its "?", or "".
func (u URI) Query() string {
	if u.flags()&hasQuery == 0 {
		return ""
	}
	return u.s[u.pathEnd()+1 : u.queryEnd()]
}

// HasFragment reports whether the reference has a fragment ("#"),
// possibly empty.
func (u URI) HasFragment() bool { return u.flags()&hasFragment != 0 }

// Fragment returns the fragment as written, without its "#", or "".
func (u URI) Fragment() string {
	if u.flags()&hasFragment == 0 {
		return ""
	}
	return u.s[u.queryEnd()+1:]
}

// DecodedUserinfo returns the userinfo with its percent-encoding decoded.
func (u URI) DecodedUserinfo() string { return unescapeValid(u.Userinfo()) }

// DecodedHost returns the host with its percent-encoding decoded (an
// IP-literal keeps its brackets; see Hostname).
func (u URI) DecodedHost() string { return unescapeValid(u.Host()) }

// DecodedPath returns the path with its percent-encoding decoded. An
// encoded "/" becomes indistinguishable from a delimiter; decode the
// Segments one by one where that matters.
func (u URI) DecodedPath() string { return unescapeValid(u.Path()) }

// DecodedQuery returns the query with its percent-encoding decoded. See
// QueryParams for the key=value view.
func (u URI) DecodedQuery() string { return unescapeValid(u.Query()) }

// DecodedFragment returns the fragment with its percent-encoding decoded.
func (u URI) DecodedFragment() string { return unescapeValid(u.Fragment()) }

// WithoutFragment returns u without its fragment, as a base URI is used
// (RFC 3986 5.1) and as the "current document" is named.
func (u URI) WithoutFragment() URI {
	if u.flags()&hasFragment == 0 {
		return u
	}
	v := u
	v.s = u.s[:u.queryEnd()]
	v.clearFlags(hasFragment)
	return v
}

// unescapeValid decodes percent-encoding in s, which the parser has
// already checked: every '%' starts a valid triplet.
func unescapeValid(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			b = append(b, byte(unhex(s[i+1])<<4|unhex(s[i+2])))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}
