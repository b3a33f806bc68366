package resolver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urikit/urikit/uri"
)

// A location must be an absolute-URI (RFC 3986 section 4.3: a scheme and
// no fragment) whose scheme the resolver allows, with a host. Anything
// else would let a resolver record send clients somewhere other than a
// web resource: "javascript:" and "data:" URIs, relative references such
// as "//evil.example" (an open redirect), or "http://bank@evil.example/"
// (the userinfo trick of RFC 3986 section 7.6).
var (
	errNotAbsolute = errors.New("not an absolute URI (RFC 3986 section 4.3)")
	errFragment    = errors.New("has a fragment: a location is an absolute-URI (RFC 3986 section 4.3), and the URN's f-component is the client's to add")
	errNoHost      = errors.New("has no host")
	errUserinfo    = errors.New("has userinfo, which can make a link look like another host's (RFC 3986 section 7.6)")
)

// checkLocation validates a location and returns its comparison key (the
// L2N lookup key: RFC 3986 section 6 normalization, via uri.Key).
func checkLocation(s string, schemes []string, maxLen int) (key string, err error) {
	if len(s) > maxLen {
		return "", fmt.Errorf("longer than %d bytes", maxLen)
	}
	u, err := uri.Parse(s)
	if err != nil {
		var pe *uri.ParseError
		if errors.As(err, &pe) {
			return "", fmt.Errorf("not a URI: %s at offset %d in %s", reasonOf(pe.Reason), pe.Offset, pe.Component)
		}
		return "", fmt.Errorf("not a URI: %v", err)
	}
	if !u.HasScheme() {
		return "", errNotAbsolute
	}
	if u.HasFragment() {
		return "", errFragment
	}
	scheme := strings.ToLower(u.Scheme())
	ok := false
	for _, allowed := range schemes {
		if scheme == allowed {
			ok = true
			break
		}
	}
	if !ok {
		return "", fmt.Errorf("scheme %q is not allowed (allowed: %s)", u.Scheme(), strings.Join(schemes, ", "))
	}
	if !u.HasAuthority() || u.Host() == "" {
		return "", errNoHost
	}
	if u.HasUserinfo() {
		return "", errUserinfo
	}
	if p := u.Port(); p != "" {
		// RFC 3986 section 3.2.3 allows any digits; a TCP port is 16
		// bits (RFC 9293 section 3.1), and port 0 is reserved (RFC 6335
		// section 6): no client can reach such a location.
		if len(strings.TrimLeft(p, "0")) > 5 {
			return "", fmt.Errorf("port %s is not a TCP port (1 to 65535)", truncate(p, 20))
		}
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("port %s is not a TCP port (1 to 65535)", p)
		}
	}
	return u.Key(), nil
}

func reasonOf(err error) string {
	if err == nil {
		return "invalid"
	}
	return err.Error()
}

// urlKey returns the comparison key of a URL an L2N request names, or
// false when it is not a URI at all.
func urlKey(s string) (string, bool) {
	u, err := uri.Parse(s)
	if err != nil || !u.HasScheme() {
		return "", false
	}
	return u.WithoutFragment().Key(), true
}

// withQComponent copies a URN's q-component into the query of the URL it
// resolves to (RFC 8141 section 2.3.2; 2015 draft section 3.3.1: "copied
// verbatim to the query component of the URL"). When the URL has a query
// already, the two are joined with "&", the separator of the
// application/x-www-form-urlencoded convention most query consumers read.
// Stored locations have no fragment (checkLocation), so the query is at
// the end.
func withQComponent(loc, q string) string {
	if q == "" {
		return loc
	}
	i := strings.IndexByte(loc, '?')
	switch {
	case i < 0:
		return loc + "?" + q
	case i == len(loc)-1:
		return loc + q
	default:
		return loc + "&" + q
	}
}
