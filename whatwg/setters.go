package whatwg

import (
	"strconv"
	"strings"
)

// The setters of the URL class (section 6.1): each returns a new URL,
// and returns u unchanged where the standard's setter does nothing (a
// value it cannot use, or a URL that cannot take it). They run the
// basic URL parser's state overrides on the URL's components; the
// result keeps the validation errors of the parse that made u.

// record is a URL as the standard's struct (section 4.1), with the
// path serialized.
type record struct {
	scheme             string
	username, password string
	hasHost            bool
	host               string // serialized
	hostKind           HostKind
	port               int // -1: null
	path               string
	opaque             bool
	hasQuery           bool
	query              string
	hasFragment        bool
	fragment           string
}

func (u URL) record() record {
	return record{
		scheme: u.Scheme(), username: u.Username(), password: u.Password(),
		hasHost: u.HasHost(), host: u.Hostname(), hostKind: u.hostKind, port: int(u.port),
		path: u.Pathname(), opaque: u.HasOpaquePath(),
		hasQuery: u.HasQuery(), query: u.Query(),
		hasFragment: u.HasFragment(), fragment: u.Fragment(),
	}
}

// url serializes r (section 4.5, the URL serializer) into a URL.
func (r record) url(errs errorSet) URL {
	var b strings.Builder
	b.Grow(len(r.scheme) + len(r.username) + len(r.password) + len(r.host) + len(r.path) + len(r.query) + len(r.fragment) + 16)
	u := URL{scheme: kindOf(r.scheme), errs: errs, port: -1}
	b.WriteString(r.scheme)
	u.schemeEnd = uint32(b.Len())
	b.WriteByte(':')
	if r.hasHost {
		u.flags |= hasHost
		u.hostKind = r.hostKind
		b.WriteString("//")
		b.WriteString(r.username)
		u.userEnd = uint32(b.Len())
		if r.password != "" {
			b.WriteByte(':')
			b.WriteString(r.password)
		}
		if r.username != "" || r.password != "" {
			b.WriteByte('@')
		}
		u.hostStart = uint32(b.Len())
		b.WriteString(r.host)
		u.hostEnd = uint32(b.Len())
		if r.port >= 0 {
			u.port = int32(r.port)
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(r.port))
		}
	} else {
		u.userEnd, u.hostStart, u.hostEnd = u.schemeEnd+1, u.schemeEnd+1, u.schemeEnd+1
		if !r.opaque && strings.HasPrefix(r.path, "//") {
			b.WriteString("/.")
		}
	}
	if r.opaque {
		u.flags |= opaquePath
	}
	u.pathStart = uint32(b.Len())
	b.WriteString(r.path)
	u.queryStart = uint32(b.Len())
	if r.hasQuery {
		u.flags |= hasQuery
		b.WriteByte('?')
		b.WriteString(r.query)
	}
	u.fragStart = uint32(b.Len())
	if r.hasFragment {
		u.flags |= hasFragment
		b.WriteByte('#')
		b.WriteString(r.fragment)
	} else if !r.hasQuery {
		u.queryStart = u.fragStart
	}
	if !r.hasQuery {
		u.queryStart = u.fragStart
	}
	u.s = b.String()
	return u
}

// cannotHaveCredentials: the host is null or empty, or the scheme is
// file (section 4.2, "cannot have a username/password/port").
func (r *record) cannotHaveCredentials() bool {
	return !r.hasHost || r.host == "" || r.scheme == "file"
}

// stripTabs removes ASCII tabs and newlines, as the basic URL parser
// does first even with a state override.
func stripTabs(s string) string {
	if !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

// newSetterParser returns a parser whose output starts empty.
func newSetterParser(kind schemeKind) *parser {
	p := &parser{kind: kind, queryStart: -1, fragStart: -1, port: -1}
	return p
}

// encodeString returns s UTF-8 percent-encoded with set.
func encodeString(s string, set uint32, kind schemeKind) string {
	p := newSetterParser(kind)
	p.encode(s, set, 0, false)
	return p.w.string()
}

// SetHref returns the URL that parsing v gives (the href setter); it
// fails as Parse does.
func (u URL) SetHref(v string) (URL, error) { return Parse(v) }

// SetProtocol sets the scheme from v up to its first ':' (the protocol
// setter: the scheme start state override). A special scheme cannot
// become a non-special one or the reverse, and a URL with credentials,
// a port or an empty host cannot become or stay a file URL.
func (u URL) SetProtocol(v string) URL {
	in := stripTabs(v) + ":"
	if !isAlpha(in[0]) {
		return u
	}
	j := 1
	for j < len(in) && isSchemeByte(in[j]) {
		j++
	}
	if in[j] != ':' {
		return u
	}
	scheme := strings.ToLower(in[:j])
	r := u.record()
	newKind := kindOf(scheme)
	switch {
	case u.scheme.special() != newKind.special():
		return u
	case (r.username != "" || r.password != "" || r.port >= 0) && scheme == "file":
		return u
	case u.scheme == schemeFile && r.hostKind == EmptyHost:
		return u
	}
	r.scheme = scheme
	if r.port == newKind.defaultPort() {
		r.port = -1
	}
	return r.url(u.errs)
}

// SetUsername sets the username to v, percent-encoded with the userinfo
// percent-encode set, unless the URL cannot have one.
func (u URL) SetUsername(v string) URL {
	r := u.record()
	if r.cannotHaveCredentials() {
		return u
	}
	r.username = encodeString(v, setUserinfo, u.scheme)
	return r.url(u.errs)
}

// SetPassword sets the password to v, percent-encoded with the userinfo
// percent-encode set, unless the URL cannot have one.
func (u URL) SetPassword(v string) URL {
	r := u.record()
	if r.cannotHaveCredentials() {
		return u
	}
	r.password = encodeString(v, setUserinfo, u.scheme)
	return r.url(u.errs)
}

// SetHost sets the host, and the port when v has one after ':' (the
// host setter: the host state override). A URL with an opaque path
// keeps its null host.
func (u URL) SetHost(v string) URL { return u.setHost(v, false) }

// SetHostname sets the host from v, which must hold no port (the
// hostname setter: the hostname state override).
func (u URL) SetHostname(v string) URL { return u.setHost(v, true) }

func (u URL) setHost(v string, hostname bool) URL {
	if u.HasOpaquePath() {
		return u
	}
	in := stripTabs(v)
	r := u.record()
	special := u.scheme.special()
	if u.scheme == schemeFile {
		// file host state
		k := 0
		for k < len(in) && !isFileHostEnd(in[k]) {
			k++
		}
		buf := in[:k]
		if buf == "" {
			r.hasHost, r.host, r.hostKind = true, "", EmptyHost
			return r.url(u.errs)
		}
		host, kind, ok := parseHostString(buf, true)
		if !ok {
			return u
		}
		if host == "localhost" {
			host, kind = "", EmptyHost
		}
		r.hasHost, r.host, r.hostKind = true, host, kind
		return r.url(u.errs)
	}
	// host state / hostname state
	k := 0
	inside := false
	for ; k < len(in); k++ {
		c := in[k]
		if c == ':' && !inside {
			break
		}
		if c == '/' || c == '?' || c == '#' || c == '\\' && special {
			break
		}
		if c == '[' {
			inside = true
		} else if c == ']' {
			inside = false
		}
	}
	buf := in[:k]
	if k < len(in) && in[k] == ':' {
		if buf == "" || hostname {
			return u
		}
	} else {
		if special && buf == "" {
			return u
		}
		if buf == "" && (r.username != "" || r.password != "" || r.port >= 0) {
			return u
		}
	}
	host, kind, ok := parseHostString(buf, special)
	if !ok {
		return u
	}
	r.hasHost, r.host, r.hostKind = true, host, kind
	if k < len(in) && in[k] == ':' {
		// port state with the state override: the leading digits
		digits := in[k+1:]
		n := 0
		for n < len(digits) && '0' <= digits[n] && digits[n] <= '9' {
			n++
		}
		if port, ok := portValue(digits[:n]); ok {
			r.port = port
			if port == u.scheme.defaultPort() {
				r.port = -1
			}
		}
	}
	return r.url(u.errs)
}

// portValue reads a non-empty string of digits as a port.
func portValue(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > 65535 {
			return 0, false
		}
	}
	return n, true
}

// parseHostString runs the host parser on s and returns the serialized
// host.
func parseHostString(s string, special bool) (string, HostKind, bool) {
	p := newSetterParser(0)
	kind, ok := p.host(s, special, 0, nil)
	if !ok {
		return "", 0, false
	}
	return p.w.string(), kind, true
}

// SetPort sets the port from the leading digits of v, or to null when
// v is empty (the port setter), unless the URL cannot have a port.
func (u URL) SetPort(v string) URL {
	r := u.record()
	if r.cannotHaveCredentials() {
		return u
	}
	if v == "" {
		r.port = -1
		return r.url(u.errs)
	}
	in := stripTabs(v)
	n := 0
	for n < len(in) && '0' <= in[n] && in[n] <= '9' {
		n++
	}
	port, ok := portValue(in[:n])
	if !ok {
		return u
	}
	r.port = port
	if port == u.scheme.defaultPort() {
		r.port = -1
	}
	return r.url(u.errs)
}

// SetPathname replaces the path with v parsed from the path start state
// (the pathname setter), unless the path is opaque.
func (u URL) SetPathname(v string) URL {
	if u.HasOpaquePath() {
		return u
	}
	in := stripTabs(v)
	r := u.record()
	p := newSetterParser(u.scheme)
	p.in, p.w.in = in, in
	i := 0
	c := p.at(0)
	switch {
	case u.scheme.special():
		if c == '/' || c == '\\' {
			i++
		}
		p.path(i, true)
	case c != -1:
		if c == '/' {
			i++
		}
		p.path(i, true)
	case !r.hasHost:
		p.w.byte('/')
	}
	r.path = p.w.string()[p.pathStart:] // after a "/." the path state kept
	return r.url(u.errs)
}

// SetSearch sets the query to v without a leading '?', percent-encoded
// with the (special-)query percent-encode set, or to null when v is
// empty (the search setter).
func (u URL) SetSearch(v string) URL {
	r := u.record()
	if v == "" {
		r.hasQuery, r.query = false, ""
		return r.url(u.errs)
	}
	set := setQuery
	if u.scheme.special() {
		set = setSpecialQuery
	}
	r.hasQuery = true
	r.query = encodeString(stripTabs(strings.TrimPrefix(v, "?")), set, u.scheme)
	return r.url(u.errs)
}

// SetHash sets the fragment to v without a leading '#', percent-encoded
// with the fragment percent-encode set, or to null when v is empty (the
// hash setter).
func (u URL) SetHash(v string) URL {
	r := u.record()
	if v == "" {
		r.hasFragment, r.fragment = false, ""
		return r.url(u.errs)
	}
	r.hasFragment = true
	r.fragment = encodeString(stripTabs(strings.TrimPrefix(v, "#")), setFragment, u.scheme)
	return r.url(u.errs)
}
