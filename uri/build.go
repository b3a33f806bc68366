package uri

import (
	"errors"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// Reasons of Editor.URI. It returns a *BuildError that names the part
// at fault and wraps one of them (and, where there is one, the cause
// underneath: the *ParseError of an IP literal or of raw text), so
// errors.Is(err, uri.ErrBuildHost) works.
var (
	ErrBuildScheme = errors.New("invalid scheme")
	ErrBuildHost   = errors.New("invalid host")
	ErrBuildPort   = errors.New("port is not decimal digits")
)

// BuildError reports the part given to an Editor that cannot be in a
// URI reference. It is not a ParseError: the value was given as a part,
// not read from a reference.
type BuildError struct {
	Component Component // the part at fault
	Value     string    // its value as given to the Editor
	Reason    error     // one of the ErrBuild values
	Cause     error     // what is wrong underneath, or nil
}

// Error returns a message such as
// `uri: edit: invalid host "1::2::3": invalid IP literal: IPv6
// address has more than one "::" at offset 5 in host`.
func (e *BuildError) Error() string {
	msg := "uri: edit: " + e.Reason.Error() + " " + window(e.Value, 0)
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
	// A name: percent-encoded as a reg-name, non-ASCII characters as
	// their UTF-8 octets (RFC 3986 3.2.2). The form DNS needs, IDNA's
	// A-labels, is package iri's (HostToASCII): RFC 3986 leaves the
	// choice to the producer, and IDNA is not this package's business.
	return Escape(h, HostSet), false, nil
}
