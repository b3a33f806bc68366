package scheme

import (
	"errors"
	"strings"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/uri"
)

// Errors of the views: the reason of a *uri.ParseError whose Offset is
// in the URL and whose Component names the part at fault.
var (
	// ErrNoHost: the scheme needs a host (RFC 9110 4.2.1 for http; RFC
	// 1738 for the others that name an Internet host).
	ErrNoHost = errors.New("the scheme needs a host")
	// ErrNoAuthority: the scheme's URLs start with "//" (RFC 1738 3.1).
	ErrNoAuthority = errors.New(`the scheme needs an authority ("//host")`)
	// ErrSchemeSyntax: a part that the scheme's grammar does not allow
	// there.
	ErrSchemeSyntax = errors.New("not allowed by the scheme's syntax")
	// ErrWrongScheme: the view was asked of a URL of another scheme.
	ErrWrongScheme = errors.New("URL of another scheme")
	// ErrPortRange: a port above 65535, which no TCP or UDP port is
	// (RFC 9293 3.1: a port is a 16-bit number). RFC 3986 3.2.3 allows
	// any digits, so the URI is valid; a client has nowhere to connect.
	ErrPortRange = errors.New("port above 65535")
	// ErrHostName: a registered name that, percent-decoded, names no
	// host: it holds a forbidden domain code point of the URL Standard
	// (a space, a control, "%", "/", "@", ...), which no browser
	// resolves (3.5, host parsing) and curl's trurl calls a bad
	// hostname, or it is not UTF-8 (RFC 3986 3.2.2). RFC 3986 allows
	// any escape in a reg-name, so the URI is valid; a client of a
	// scheme whose host is a DNS name has nothing to look up.
	ErrHostName = errors.New("not a host name")
)

// fail returns the *uri.ParseError of a URL the view cannot read.
func fail(u uri.URI, off int, c uri.Component, reason error) error {
	off = min(max(off, 0), len(u.String()))
	return &uri.ParseError{Input: u.String(), Offset: off, Component: c, Reason: reason}
}

// checkScheme reports whether u's scheme is one of names.
func checkScheme(u uri.URI, names ...string) error {
	for _, n := range names {
		if strings.EqualFold(u.Scheme(), n) {
			return nil
		}
	}
	return fail(u, 0, uri.ComponentScheme, ErrWrongScheme)
}

// needHost checks that u is of one of the schemes names and has an
// authority with a host, as every scheme that names an Internet host
// requires (RFC 1738 3.1).
func needHost(u uri.URI, names ...string) error {
	if err := checkScheme(u, names...); err != nil {
		return err
	}
	if !u.HasAuthority() {
		return fail(u, len(u.Scheme())+1, uri.ComponentHost, ErrNoAuthority)
	}
	if u.Host() == "" {
		return fail(u, hostStart(u), uri.ComponentHost, ErrNoHost)
	}
	return checkHostPort(u)
}

// checkHostPort refuses a host that names no host (ErrHostName) and a
// port above 65535: planned to the default port it would connect where
// the URL does not say (issue 20).
func checkHostPort(u uri.URI) error {
	if err := checkHostName(u); err != nil {
		return err
	}
	if p := u.Port(); p != "" {
		if _, ok := u.PortNumber(); !ok {
			return fail(u, hostStart(u)+len(u.Host())+1, uri.ComponentPort, ErrPortRange)
		}
	}
	return nil
}

// checkHostName refuses a reg-name with an escape that decodes to no
// host name (chars.BadHostName); one without "%" is always a name.
func checkHostName(u uri.URI) error {
	if h := u.Host(); strings.IndexByte(h, '%') >= 0 && h[0] != '[' {
		if i := chars.BadHostName(h); i >= 0 {
			return fail(u, hostStart(u)+i, uri.ComponentHost, ErrHostName)
		}
	}
	return nil
}

// refuseHost refuses a host whose decoded name holds a CR, LF or NUL
// (a reg-name's escape, or one in an IPv6 zone identifier): a client
// would write it into a protocol line or hand it to its resolver.
func refuseHost(u uri.URI) error {
	if off, what := controlIn(u.Host()); off >= 0 {
		return refuse(u, hostStart(u), off, what, "host")
	}
	return nil
}

// pathStart returns the offset of u's path in u.String().
func pathStart(u uri.URI) int {
	n := len(u.String()) - len(u.Path())
	if u.HasQuery() {
		n -= 1 + len(u.Query())
	}
	if u.HasFragment() {
		n -= 1 + len(u.Fragment())
	}
	return n
}

// hostStart returns the offset of u's host in u.String().
func hostStart(u uri.URI) int {
	n := len(u.Scheme()) + 3
	if u.HasUserinfo() {
		n += len(u.Userinfo()) + 1
	}
	return n
}

// decode percent-decodes a part of a valid URI (its triplets are valid).
func decode(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	d, err := uri.Unescape(s)
	if err != nil {
		return s
	}
	return d
}

// endpoint is the host and port of a URL with an authority: what a
// client connects to.
type endpoint struct {
	host, rawHost string
	port          int // -1 when the URL names none (or an empty one)
	defPort       int
}

func endpointOf(u uri.URI, defPort int) endpoint {
	e := endpoint{host: decode(u.Hostname()), rawHost: u.Host(), port: -1, defPort: defPort}
	if n, ok := u.PortNumber(); ok {
		e.port = n
	}
	return e
}

// connectPort is the port a client uses.
func (e endpoint) connectPort() int {
	if e.port >= 0 {
		return e.port
	}
	return e.defPort
}

// portWarnings returns the warnings about the port, in order.
func (e endpoint) portWarnings() []Warning {
	var w []Warning
	if e.port >= 0 && e.port != e.defPort {
		w = append(w, WarnNondefaultPort)
		if e.port < 1024 {
			w = append(w, WarnReservedPort)
		}
	}
	return w
}

// userinfo returns the decoded user and password of u, and whether
// each is defined.
func userinfo(u uri.URI) (user, password string, hasUser, hasPassword bool) {
	ru, hasUser := u.User()
	rp, hasPassword := u.Password()
	return decode(ru), decode(rp), hasUser, hasPassword
}

// encodedControls returns the warnings for percent-encoded CR, LF and
// NUL in the raw parts, in order.
func encodedControls(parts ...string) []Warning {
	var c controlScan
	for _, p := range parts {
		c.add(p)
	}
	return c.warnings()
}

// controlScan is encodedControls part by part, for a view that would
// otherwise collect its parts into a slice to check them.
type controlScan struct{ crlf, nul bool }

func (c *controlScan) add(p string) {
	for i := 0; i+2 < len(p); i++ {
		if p[i] != '%' {
			continue
		}
		switch controlTriplet(p[i+1], p[i+2]) {
		case '\r', '\n':
			c.crlf = true
		case 0:
			c.nul = true
		}
	}
}

func (c controlScan) warnings() []Warning {
	var w []Warning
	if c.crlf {
		w = append(w, WarnEncodedCRLF)
	}
	if c.nul {
		w = append(w, WarnEncodedNUL)
	}
	return w
}

// controlTriplet returns the control a triplet "%" h l stands for: CR,
// LF or NUL for "0D", "0A" (either case) or "00", and 0xFF otherwise.
// It compares bytes, so that a long run of triplets allocates nothing.
func controlTriplet(h, l byte) byte {
	if h != '0' {
		return 0xFF
	}
	switch l {
	case 'D', 'd':
		return '\r'
	case 'A', 'a':
		return '\n'
	case '0':
		return 0
	}
	return 0xFF
}

// controlIn returns the offset in raw of the first percent-encoded CR,
// LF or NUL, and what it is, or -1.
func controlIn(raw string) (int, string) {
	for i := 0; i+2 < len(raw); i++ {
		if raw[i] != '%' {
			continue
		}
		switch controlTriplet(raw[i+1], raw[i+2]) {
		case '\r':
			return i, "a percent-encoded CR"
		case '\n':
			return i, "a percent-encoded LF"
		case 0:
			return i, "a percent-encoded NUL"
		}
	}
	return -1, ""
}

// refuse returns the RefusedError of a plan for the control at offset
// off of the part that starts at base in the URL.
func refuse(u uri.URI, base, off int, what, where string) error {
	return &RefusedError{URL: u.String(), Offset: base + off,
		Reason: what + " in the " + where + " would be decoded into a protocol line (RFC 1738 section 6)"}
}

// newObj starts the JSON object of a view (jsonstr.Object, the one
// JSON writer of the module), with room for a typical view.
func newObj() *jsonstr.Object { return newObjSize(0) }

// newObjSize is newObj with room for n more bytes: a view of a long URL
// sizes its object once, since appending to a large slice grows it by a
// quarter at a time, which allocates about five times what it keeps.
func newObjSize(n int) *jsonstr.Object {
	o := &jsonstr.Object{B: make([]byte, 0, 320+n)}
	return o.Open()
}

// newObjOn is newObj written at the end of b (AppendJSON's line), with
// flush called in long arrays (jsonstr.Object.Flush).
func newObjOn(b []byte, flush func([]byte) []byte) *jsonstr.Object {
	o := &jsonstr.Object{B: b, Flush: flush}
	return o.Open()
}

// jsonAppender is a view that writes its JSON object at the end of a
// line in place, flushing it in long arrays: a view of long lists
// (mailto hfields, prospero fields, ftp directories) is neither written
// in a buffer of its own and then copied nor held whole (issue 26).
type jsonAppender interface {
	appendJSON(b []byte, flush func([]byte) []byte) []byte
}

// codes returns the warnings' codes, for the "warnings" member.
func codes(ws []Warning) []string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = string(w)
	}
	return s
}

// done closes the object and returns its bytes.
func done(o *jsonstr.Object) ([]byte, error) { return o.Close().B, nil }

// appendJSONString appends s as a JSON string (internal/jsonstr).
func appendJSONString(b []byte, s string) []byte { return jsonstr.Append(b, s) }
