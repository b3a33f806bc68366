package uri

import (
	"errors"
	"strings"

	"github.com/urikit/urikit/internal/chars"
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

// Errors of Builder.URI, wrapped with the part at fault.
var (
	ErrBuildScheme   = errors.New("uri: builder: invalid scheme")
	ErrBuildHost     = errors.New("uri: builder: invalid host")
	ErrBuildPort     = errors.New("uri: builder: port is not decimal digits")
	ErrBuildPassword = errors.New("uri: builder: password without user")
	ErrBuildPath     = errors.New("uri: builder: path starting with \"//\" needs an authority")
	ErrBuildBoth     = errors.New("uri: builder: both Path and Segments set")
)

// userSet is userinfo without ":", for the user name part.
var userSet = classSet(chars.UserInfo, "", ":")

// URI returns the reference the builder describes. It fails when the
// scheme or port has the wrong syntax, the host is not a valid address or
// name, a password has no user, or a path without an authority would
// start with "//" (which would read as an authority; write "/.//" then).
func (b Builder) URI() (URI, error) {
	var s strings.Builder
	mode := RFC3986
	if b.Scheme != "" {
		if !isScheme(b.Scheme) {
			return URI{}, ErrBuildScheme
		}
		s.WriteString(b.Scheme)
		s.WriteByte(':')
	}
	auth := b.Authority || b.Host != "" || b.User != nil || b.Port != ""
	if b.Password != nil && b.User == nil {
		return URI{}, ErrBuildPassword
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
			return URI{}, err
		}
		if zone {
			mode |= AllowZoneID
		}
		s.WriteString(h)
		if b.Port != "" {
			for i := 0; i < len(b.Port); i++ {
				if !chars.Is(b.Port[i], chars.Digit) {
					return URI{}, ErrBuildPort
				}
			}
			s.WriteByte(':')
			s.WriteString(b.Port)
		}
	}
	var path string
	switch {
	case b.Segments != nil && b.Path != "":
		return URI{}, ErrBuildBoth
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
		return URI{}, ErrBuildPath
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
	return ParseWith(s.String(), mode)
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
// an IPv6 zone identifier.
func buildHost(h string) (string, bool, error) {
	switch {
	case h == "":
		return "", false, nil
	case h[0] == '[':
		// An IP literal as written: it must be one, whole.
		j, _, err := parseIPLiteral(h, 0, AllowZoneID)
		if err != nil || j != len(h) {
			return "", false, ErrBuildHost
		}
		return h, strings.Contains(h, "%25"), nil
	case strings.IndexByte(h, ':') >= 0:
		// An IPv6 address, with an optional zone "%zone" (RFC 6874 2).
		addr, zone, hasZone := strings.Cut(h, "%")
		lit := "[" + addr
		if hasZone {
			if zone == "" {
				return "", false, ErrBuildHost
			}
			lit += "%25" + Escape(zone, nil)
		}
		lit += "]"
		j, _, err := parseIPLiteral(lit, 0, AllowZoneID)
		if err != nil || j != len(lit) {
			return "", false, ErrBuildHost
		}
		return lit, hasZone, nil
	}
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			a, err := idna.Lookup.ToASCII(h)
			if err != nil {
				return "", false, errors.Join(ErrBuildHost, err)
			}
			return Escape(a, HostSet), false, nil
		}
	}
	return Escape(h, HostSet), false, nil
}
