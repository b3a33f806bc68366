package uri

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/parseerr"
	"golang.org/x/net/idna"
)

// Builder makes a URI reference from decoded parts. Each part is
// percent-encoded for its component, so that no input can break the
// structure: a "/" in a segment, a "?" in a path, a "#" or "&" in a query
// value, an "@" or ":" in a user name all come out encoded and read back
// as the same part through the URI's decoded accessors.
//
// The zero Builder builds the empty reference "".
type Builder struct {
	// Scheme is written as given after a syntax check (RFC 3986 3.1);
	// "" builds a relative reference.
	Scheme string

	// Authority forces an authority ("//") even when Host, User and Port
	// are empty, as in "file:///etc". Any of them implies one.
	Authority bool
	// User is the decoded user name; nil means no userinfo. Its ":" is
	// encoded so that it cannot start a password.
	User *string
	// Password is the decoded password, written after User and ":"
	// (RFC 3986 3.2.1 deprecates it). It needs User.
	Password *string
	// Host is the decoded host: an IPv6 address (with or without
	// brackets; a zone "%en0" is written "%25en0" as RFC 6874 says), a
	// bracketed IPvFuture literal, an IPv4 address, or a registered name.
	// A name with non-ASCII characters is converted with IDNA ToASCII
	// (Lookup profile); an ASCII name is percent-encoded as reg-name.
	Host string
	// Port is the port as decimal digits, or "" for none.
	Port string

	// Path is the decoded path, "/" separating its segments; other
	// delimiters in it are encoded. Segments, when not nil, replaces
	// it: each element is one decoded segment ("/" in it is encoded),
	// joined with "/"; a first element "" makes the path absolute.
	// With an authority, a non-empty path is made to start with "/".
	Path     string
	Segments []string

	// Query is the list of decoded key=value pairs, written in order
	// as key=value joined by "&", key and value escaped with
	// QueryValueSet. ForceQuery writes "?" even when Query is empty.
	Query      [][2]string
	ForceQuery bool

	// Fragment is the decoded fragment; nil means none.
	Fragment *string
}

// Reasons of Builder.URI. It returns a *BuildError that names the part
// at fault and wraps one of them (and, where there is one, the cause
// underneath: the *ParseError of an IP literal, the IDNA error of a
// name), so errors.Is(err, uri.ErrBuildHost) works.
var (
	ErrBuildScheme   = errors.New("invalid scheme")
	ErrBuildHost     = errors.New("invalid host")
	ErrBuildPort     = errors.New("port is not decimal digits")
	ErrBuildPassword = errors.New("password without user")
	ErrBuildPath     = errors.New(`path starting with "//" needs an authority`)
	ErrBuildBoth     = errors.New("both Path and Segments set")
)

// BuildError reports the part of a Builder that cannot make a URI.
type BuildError struct {
	Component Component // the part at fault
	Value     string    // its value as given to the Builder
	Reason    error     // one of the ErrBuild values
	Cause     error     // what is wrong underneath, or nil
}

// Error returns a message such as
// `uri: builder: invalid host "1::2::3": invalid IP literal: IPv6
// address has more than one "::" at offset 5 in host`.
func (e *BuildError) Error() string {
	msg := "uri: builder: " + e.Reason.Error() + " " + parseerr.Window(e.Value, 0)
	if e.Cause != nil {
		var pe *ParseError
		if errors.As(e.Cause, &pe) {
			msg += ": " + pe.Message()
		} else {
			msg += ": " + e.Cause.Error()
		}
	}
	return msg
}

// Unwrap returns the reason and the cause.
func (e *BuildError) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Cause}
}

func buildError(c Component, value string, reason, cause error) error {
	return &BuildError{Component: c, Value: value, Reason: reason, Cause: cause}
}

// userSet is userinfo without ":", for the user name part.
var userSet = classSet(chars.UserInfo, "", ":")

// URI returns the reference the builder describes. It fails when the
// scheme or port has the wrong syntax, the host is not a valid address or
// name, a password has no user, or a path without an authority would
// start with "//" (which would read as an authority; write "/.//" then).
func (b Builder) URI() (URI, error) {
	var s strings.Builder
	var opts Options
	if b.Scheme != "" {
		if !isScheme(b.Scheme) {
			return URI{}, buildError(ComponentScheme, b.Scheme, ErrBuildScheme, nil)
		}
		s.WriteString(b.Scheme)
		s.WriteByte(':')
	}
	auth := b.Authority || b.Host != "" || b.User != nil || b.Port != ""
	if b.Password != nil && b.User == nil {
		return URI{}, buildError(ComponentUserinfo, *b.Password, ErrBuildPassword, nil)
	}
	if auth {
		s.WriteString("//")
		if b.User != nil {
			s.WriteString(Escape(*b.User, userSet))
			if b.Password != nil {
				s.WriteByte(':')
				s.WriteString(Escape(*b.Password, UserinfoSet))
			}
			s.WriteByte('@')
		}
		h, zone, err := buildHost(b.Host)
		if err != nil {
			return URI{}, buildError(ComponentHost, b.Host, ErrBuildHost, err)
		}
		opts.AllowZoneID = zone
		s.WriteString(h)
		if b.Port != "" {
			for i := 0; i < len(b.Port); i++ {
				if !chars.Is(b.Port[i], chars.Digit) {
					return URI{}, buildError(ComponentPort, b.Port, ErrBuildPort, nil)
				}
			}
			s.WriteByte(':')
			s.WriteString(b.Port)
		}
	}
	var path string
	switch {
	case b.Segments != nil && b.Path != "":
		return URI{}, buildError(ComponentPath, b.Path, ErrBuildBoth, nil)
	case b.Segments != nil:
		var p strings.Builder
		for i, seg := range b.Segments {
			if i > 0 {
				p.WriteByte('/')
			}
			p.WriteString(Escape(seg, SegmentSet))
		}
		path = p.String()
	default:
		path = Escape(b.Path, PathSet)
	}
	if auth && path != "" && path[0] != '/' {
		path = "/" + path
	}
	if !auth && strings.HasPrefix(path, "//") {
		return URI{}, buildError(ComponentPath, path, ErrBuildPath, nil)
	}
	if b.Scheme == "" && !auth {
		// RFC 3986 4.2: a ":" in the first segment of a relative path
		// would read as a scheme delimiter; encode it.
		first, rest, found := strings.Cut(path, "/")
		if strings.IndexByte(first, ':') >= 0 {
			path = strings.ReplaceAll(first, ":", "%3A")
			if found {
				path += "/" + rest
			}
		}
	}
	s.WriteString(path)
	if len(b.Query) > 0 || b.ForceQuery {
		s.WriteByte('?')
		for i, kv := range b.Query {
			if i > 0 {
				s.WriteByte('&')
			}
			s.WriteString(Escape(kv[0], QueryValueSet))
			s.WriteByte('=')
			s.WriteString(Escape(kv[1], QueryValueSet))
		}
	}
	if b.Fragment != nil {
		s.WriteByte('#')
		s.WriteString(Escape(*b.Fragment, FragmentSet))
	}
	return ParseWith(s.String(), opts)
}

// isScheme reports whether s matches
// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986 3.1).
func isScheme(s string) bool {
	if s == "" || !chars.Is(s[0], chars.Alpha) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !chars.Is(s[i], chars.Scheme) {
			return false
		}
	}
	return true
}

// buildHost returns the host h as written in a URI, and whether it has
// an IPv6 zone identifier. Its error is the cause underneath
// ErrBuildHost.
func buildHost(h string) (string, bool, error) {
	switch {
	case h == "":
		return "", false, nil
	case h[0] == '[':
		// An IP literal as written: it must be one, whole.
		j, _, err := parseIPLiteral(h, 0, true)
		if err != nil {
			return "", false, err
		}
		if j != len(h) {
			return "", false, fail(h, j, ComponentHost, ErrInvalidCharacter)
		}
		return h, strings.Contains(h, "%25"), nil
	case strings.IndexByte(h, ':') >= 0:
		// An IPv6 address, with an optional zone "%zone" (RFC 6874 2).
		addr, zone, hasZone := strings.Cut(h, "%")
		lit := "[" + addr
		if hasZone {
			if zone == "" {
				return "", false, fail(h, len(h), ComponentHost, ipZoneEmpty)
			}
			lit += "%25" + Escape(zone, nil)
		}
		lit += "]"
		j, _, err := parseIPLiteral(lit, 0, true)
		if err != nil {
			return "", false, err
		}
		if j != len(lit) {
			return "", false, fail(lit, j, ComponentHost, ErrInvalidCharacter)
		}
		return lit, hasZone, nil
	}
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			// IDNA's Punycode encoder takes time in the product of a
			// label's length and its distinct code points, so the DNS
			// length limits are checked first.
			if err := checkDNSLengths(h); err != nil {
				return "", false, err
			}
			a, err := idna.Lookup.ToASCII(h)
			if err != nil {
				return "", false, err
			}
			return Escape(a, HostSet), false, nil
		}
	}
	return Escape(h, HostSet), false, nil
}

// Errors of the DNS length limits of a non-ASCII name.
var (
	errNameTooLong  = errors.New("name longer than 253 bytes (RFC 1034 3.1)")
	errLabelTooLong = errors.New("label longer than 63 bytes (RFC 1034 3.1)")
)

// checkDNSLengths rejects a non-ASCII name that cannot be a DNS name
// after IDNA (RFC 1034 3.1: 63 octets a label, 253 a name written as
// text; RFC 5890 2.3.2.1 keeps the limits for A-labels). The limits are
// applied to code points, not bytes: an A-label ("xn--" and Punycode)
// has at least one character per code point of its U-label, so a label
// over 63 code points cannot fit, while one of 40 "é" (80 bytes) still
// can.
func checkDNSLengths(h string) error {
	if utf8.RuneCountInString(h) > 253 {
		return errNameTooLong
	}
	for label := range strings.SplitSeq(h, ".") {
		if utf8.RuneCountInString(label) > 63 {
			return errLabelTooLong
		}
	}
	return nil
}
