package whatwg

// URL is a URL record of the URL Standard (section 4.1) held as its
// serialization: the href string and the offsets of its components.
// Reading a component slices the string and allocates nothing. A URL is
// a small immutable value; the setters return a new one.
//
// The zero URL is not a valid URL: every URL has a scheme. IsZero tells
// it apart.
type URL struct {
	s string

	// Offsets into s. The scheme is s[:schemeEnd] (s[schemeEnd] == ':').
	// With a host, s[schemeEnd+1:schemeEnd+3] is "//", the username is
	// s[schemeEnd+3:userEnd], the password s[userEnd+1:hostStart-1] when
	// hostStart > userEnd+1, the host s[hostStart:hostEnd] and the port
	// s[hostEnd+1:pathStart] when hostEnd < pathStart. The path is
	// s[pathStart:queryStart]; the query s[queryStart+1:fragStart] and the
	// fragment s[fragStart+1:]. An absent query has queryStart ==
	// fragStart; an absent fragment has fragStart == len(s).
	schemeEnd  uint32
	userEnd    uint32
	hostStart  uint32
	hostEnd    uint32
	pathStart  uint32
	queryStart uint32
	fragStart  uint32

	port     int32 // -1 for null
	flags    flags
	scheme   schemeKind
	hostKind HostKind
	errs     errorSet
}

type flags uint8

const (
	hasHost flags = 1 << iota
	hasQuery
	hasFragment
	opaquePath
)

// HostKind is the kind of a URL's host (section 3.1).
type HostKind uint8

const (
	NoHost     HostKind = iota // the host is null
	EmptyHost                  // the empty host
	Domain                     // a domain, in ASCII
	IPv4                       // an IPv4 address
	IPv6                       // an IPv6 address
	OpaqueHost                 // an opaque host (a URL that is not special)
)

var hostKindNames = [...]string{"", "empty", "domain", "ipv4", "ipv6", "opaque"}

// String returns "", "empty", "domain", "ipv4", "ipv6" or "opaque".
func (k HostKind) String() string {
	if int(k) < len(hostKindNames) {
		return hostKindNames[k]
	}
	return ""
}

// schemeKind tells the special schemes apart (section 4.2).
type schemeKind uint8

const (
	schemeOther schemeKind = iota
	schemeHTTP
	schemeHTTPS
	schemeWS
	schemeWSS
	schemeFTP
	schemeFile
)

func kindOf(scheme string) schemeKind {
	switch scheme {
	case "http":
		return schemeHTTP
	case "https":
		return schemeHTTPS
	case "ws":
		return schemeWS
	case "wss":
		return schemeWSS
	case "ftp":
		return schemeFTP
	case "file":
		return schemeFile
	}
	return schemeOther
}

// defaultPort is the default port of a special scheme, or -1.
func (k schemeKind) defaultPort() int {
	switch k {
	case schemeHTTP, schemeWS:
		return 80
	case schemeHTTPS, schemeWSS:
		return 443
	case schemeFTP:
		return 21
	}
	return -1
}

func (k schemeKind) special() bool { return k != schemeOther }

// IsZero reports whether u is the zero URL, which no parse returns.
func (u URL) IsZero() bool { return u.s == "" }

// Href returns the serialization of the URL (section 4.5, the URL
// serializer), as the href getter of the standard's API.
func (u URL) Href() string { return u.s }

// String returns the href.
func (u URL) String() string { return u.s }

// Scheme returns the scheme, without ':'.
func (u URL) Scheme() string { return u.s[:u.schemeEnd] }

// Protocol returns the scheme followed by ':', as the protocol getter.
func (u URL) Protocol() string { return u.s[:u.schemeEnd+1] }

// IsSpecial reports whether the scheme is special (section 4.2: ftp,
// file, http, https, ws, wss).
func (u URL) IsSpecial() bool { return u.scheme.special() }

// HasHost reports whether the host is non-null.
func (u URL) HasHost() bool { return u.flags&hasHost != 0 }

// HostKind returns the kind of the host, NoHost when it is null.
func (u URL) HostKind() HostKind { return u.hostKind }

// HasOpaquePath reports whether the path is opaque (a URL such as
// "mailto:x" whose path is one string rather than a list of segments).
func (u URL) HasOpaquePath() bool { return u.flags&opaquePath != 0 }

// Username returns the username, percent-encoded, as the username getter.
func (u URL) Username() string {
	if u.flags&hasHost == 0 {
		return ""
	}
	return u.s[u.schemeEnd+3 : u.userEnd]
}

// Password returns the password, percent-encoded, as the password getter.
func (u URL) Password() string {
	if u.flags&hasHost == 0 || u.hostStart <= u.userEnd+1 {
		return ""
	}
	return u.s[u.userEnd+1 : u.hostStart-1]
}

// Host returns the serialized host followed by ':' and the port when the
// port is non-null, as the host getter; "" when the host is null.
func (u URL) Host() string {
	if u.flags&hasHost == 0 {
		return ""
	}
	return u.s[u.hostStart:u.pathStart]
}

// Hostname returns the serialized host, as the hostname getter; an IPv6
// address keeps its brackets.
func (u URL) Hostname() string {
	if u.flags&hasHost == 0 {
		return ""
	}
	return u.s[u.hostStart:u.hostEnd]
}

// Port returns the port in decimal, or "" when it is null (absent, or
// the scheme's default port), as the port getter.
func (u URL) Port() string {
	if u.port < 0 {
		return ""
	}
	return u.s[u.hostEnd+1 : u.pathStart]
}

// PortNumber returns the port, or -1 when it is null.
func (u URL) PortNumber() int { return int(u.port) }

// Pathname returns the serialized path (section 4.5, the URL path
// serializer), as the pathname getter.
func (u URL) Pathname() string { return u.s[u.pathStart:u.queryStart] }

// Search returns "?" and the query, or "" when the query is null or
// empty, as the search getter.
func (u URL) Search() string {
	if u.fragStart-u.queryStart <= 1 {
		return ""
	}
	return u.s[u.queryStart:u.fragStart]
}

// Hash returns "#" and the fragment, or "" when the fragment is null or
// empty, as the hash getter.
func (u URL) Hash() string {
	if len(u.s)-int(u.fragStart) <= 1 {
		return ""
	}
	return u.s[u.fragStart:]
}

// HasQuery reports whether the query is non-null ("a:b?" has an empty
// query, "a:b" none).
func (u URL) HasQuery() bool { return u.flags&hasQuery != 0 }

// Query returns the query without '?', or "" when it is null.
func (u URL) Query() string {
	if u.flags&hasQuery == 0 {
		return ""
	}
	return u.s[u.queryStart+1 : u.fragStart]
}

// HasFragment reports whether the fragment is non-null.
func (u URL) HasFragment() bool { return u.flags&hasFragment != 0 }

// Fragment returns the fragment without '#', or "" when it is null.
func (u URL) Fragment() string {
	if u.flags&hasFragment == 0 {
		return ""
	}
	return u.s[u.fragStart+1:]
}

// Origin returns the serialization of the URL's origin (section 4.7;
// HTML's serialization of an origin), as the origin getter: "scheme://
// host[:port]" for http, https, ws, wss and ftp, the origin of the URL
// in the path for blob, and "null" (an opaque origin) otherwise.
func (u URL) Origin() string {
	switch u.scheme {
	case schemeHTTP, schemeHTTPS, schemeWS, schemeWSS, schemeFTP:
		if u.userEnd == u.schemeEnd+3 && u.hostStart == u.userEnd {
			return u.s[:u.pathStart] // no credentials: a prefix of href
		}
		return u.s[:u.schemeEnd+3] + u.s[u.hostStart:u.pathStart]
	case schemeOther:
		if u.Scheme() == "blob" {
			in, err := Parse(u.Pathname())
			if err == nil && (in.scheme == schemeHTTP || in.scheme == schemeHTTPS) {
				return in.Origin()
			}
		}
	}
	return "null"
}

// Errors returns the validation errors the parse met (section 1.3), in
// the order of the standard's table, or nil when the input was valid.
func (u URL) Errors() []ValidationError { return u.errs.list() }

// HasError reports whether the parse met the validation error e.
func (u URL) HasError(e ValidationError) bool { return u.errs&(1<<e) != 0 }
