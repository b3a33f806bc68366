package uri

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/urikit/urikit/internal/chars"
)

// Scheme is what a URI scheme adds to the generic syntax: the rules its
// specification gives on top of RFC 3986 for comparison (section 6.2.3,
// "scheme-based normalization"), for validation, and a typed view of its
// URIs. A Registry holds Schemes; DefaultRegistry holds the rules of
// the schemes this package knows, and packages urn and scheme add
// validation and views to them.
//
// Every field but Name may be left zero: the scheme then adds nothing
// there.
type Scheme struct {
	// Name is the scheme name, in lowercase.
	Name string

	// DefaultPort is the port that a URI of the scheme without a port
	// means (RFC 3986 6.2.3), or 0 when the scheme defines none. An
	// explicit default port is removed by normalization.
	DefaultPort int

	// EmptyPathIsRoot says that an empty path after an authority means
	// "/" (RFC 3986 6.2.3, for http by RFC 9110 4.2.3).
	EmptyPathIsRoot bool

	// Opaque says that the scheme's equivalence neither decodes
	// percent-encoded octets nor removes dot segments: normalization
	// only lowercases the scheme and uppercases hexadecimal digits
	// (RFC 3986 6.2.2.1), as RFC 8141 section 3.1 says for urn.
	Opaque bool

	// Normalize, when not nil, applies the scheme's own rules to u,
	// which is already in the normal form of the fields above. It must
	// be idempotent and keep u's components re-parseable.
	Normalize func(u URI) URI

	// Key, when not nil, returns the equivalence key of v, a URI in
	// normal form: two URIs of the scheme are equivalent exactly when
	// their keys are equal. Nil means v.String(). For urn the key leaves
	// out the r-, q- and f-components (RFC 8141 section 3).
	Key func(v URI) string

	// Validate, when not nil, checks what the scheme's syntax adds to
	// the generic grammar, and returns a *ParseError (or another error)
	// for a URI that breaks it.
	Validate func(u URI) error

	// View, when not nil, returns the scheme's typed view of u, such as
	// a urn.URN or a scheme.FTP, or the error that keeps u from having
	// one.
	View func(u URI) (any, error)
}

// Registry is an immutable set of Schemes, keyed by name without regard
// to case. It is a small value: copies share the same set, and nothing
// changes it once made (With returns a new one).
//
// The zero Registry knows no scheme: its Normalize is the
// syntax-based normalization of RFC 3986 6.2.2 alone.
type Registry struct {
	m map[string]Scheme
	// http and https are m's entries for the schemes of most URLs, or
	// nil: Lookup finds them without hashing a name.
	http, https *Scheme
}

// Errors of NewRegistry and With.
var (
	ErrSchemeName      = errors.New("uri: registry: scheme name is not a lowercase scheme")
	ErrSchemeDuplicate = errors.New("uri: registry: scheme given twice")
)

// NewRegistry returns the registry of the given schemes. It fails when
// a name is not a scheme in lowercase (RFC 3986 3.1) or is given twice.
func NewRegistry(schemes ...Scheme) (Registry, error) {
	return Registry{}.With(schemes...)
}

// With returns a registry with the schemes of r and the given ones; a
// given scheme replaces r's of the same name. r is not changed.
func (r Registry) With(schemes ...Scheme) (Registry, error) {
	m := make(map[string]Scheme, len(r.m)+len(schemes))
	maps.Copy(m, r.m)
	seen := make(map[string]bool, len(schemes))
	for _, s := range schemes {
		if !isScheme(s.Name) || lowerScheme(s.Name) != s.Name {
			return Registry{}, fmt.Errorf("%w: %q", ErrSchemeName, s.Name)
		}
		if seen[s.Name] {
			return Registry{}, fmt.Errorf("%w: %q", ErrSchemeDuplicate, s.Name)
		}
		seen[s.Name] = true
		m[s.Name] = s
	}
	n := Registry{m: m}
	if s, ok := m["http"]; ok {
		n.http = &s
	}
	if s, ok := m["https"]; ok {
		n.https = &s
	}
	return n, nil
}

// MustRegistry is like NewRegistry but panics on error. It is for
// registries written in programs, such as package-level variables.
func MustRegistry(r Registry, err error) Registry {
	if err != nil {
		panic(err)
	}
	return r
}

// Lookup returns the scheme called name, compared without regard to
// case. It allocates nothing.
func (r Registry) Lookup(name string) (Scheme, bool) {
	if p := r.httpEntry(name); p != nil {
		return *p, true
	}
	if r.m == nil {
		return Scheme{}, false
	}
	if len(name) > 32 {
		// Registered names can be longer ("microsoft.windows.camera.
		// multipicker" is 37 bytes): lowercase them the slow way.
		s, ok := r.m[lowerScheme(name)]
		return s, ok
	}
	var buf [32]byte
	for i := 0; i < len(name); i++ {
		buf[i] = chars.Lower(name[i])
	}
	s, ok := r.m[string(buf[:len(name)])]
	return s, ok
}

// httpEntry returns r's entry for name when name is "http" or "https"
// in any case and r has it, and nil otherwise.
func (r Registry) httpEntry(name string) *Scheme {
	switch {
	case !chars.IsHTTP(name):
		return nil
	case len(name) == 4:
		return r.http
	}
	return r.https
}

// Schemes returns the schemes of r, sorted by name.
func (r Registry) Schemes() []Scheme {
	names := slices.Sorted(maps.Keys(r.m))
	out := make([]Scheme, len(names))
	for i, n := range names {
		out[i] = r.m[n]
	}
	return out
}

// DefaultPort returns the default port of scheme in r.
func (r Registry) DefaultPort(scheme string) (int, bool) {
	s, ok := r.Lookup(scheme)
	if !ok || s.DefaultPort == 0 {
		return 0, false
	}
	return s.DefaultPort, true
}

// AddDefaultPort returns u with its scheme's default port written when
// it has an authority and no port (or an empty one): "https://a/" gives
// "https://a:443/". It returns u itself for a scheme without a default
// port in r.
func (r Registry) AddDefaultPort(u URI) (URI, error) {
	def, ok := r.DefaultPort(u.Scheme())
	if !ok || !u.HasAuthority() || u.Port() != "" {
		return u, nil
	}
	return u.Edit().SetPort(strconv.Itoa(def)).URI()
}

// DropDefaultPort returns u without a port that is its scheme's default
// (or empty): "http://a:80/" gives "http://a/", which RFC 3986 6.2.3
// says is the same resource. Other ports stay.
func (r Registry) DropDefaultPort(u URI) (URI, error) {
	def, ok := r.DefaultPort(u.Scheme())
	if !ok || !u.HasPort() {
		return u, nil
	}
	if n, isNum := u.PortNumber(); u.Port() == "" || isNum && n == def {
		return u.Edit().Clear(PartPort).URI()
	}
	return u, nil
}

// Normalize returns the normal form of u under r's schemes: the
// syntax-based normalization of RFC 3986 6.2.2 (see URI.Normalize), then
// the scheme-based one of 6.2.3 that u's scheme defines in r. It is
// idempotent and allocates nothing when u is already normal.
func (r Registry) Normalize(u URI) URI {
	s, ok := r.Lookup(u.Scheme())
	if !ok {
		s = Scheme{}
	}
	if u.flags()&grammar2396 != 0 {
		return u.normalize2396(s.DefaultPort)
	}
	var v URI
	if s.Opaque {
		v = u.normalizeCase()
	} else {
		v = u.normalizeSyntax(s.DefaultPort, s.EmptyPathIsRoot)
	}
	if s.Normalize != nil {
		v = s.Normalize(v)
	}
	return v
}

// Key returns the comparison key of u under r: Key(a) == Key(b) exactly
// when r.Equal(a, b). It is the normal form's string, or what the
// scheme's Key makes of it.
func (r Registry) Key(u URI) string {
	v := r.Normalize(u)
	if s, ok := r.Lookup(u.Scheme()); ok && s.Key != nil {
		return s.Key(v)
	}
	return v.s
}

// Equal reports whether a and b are equivalent under r: RFC 3986 6.2.2
// and the scheme-based rules of 6.2.3 that r holds.
func (r Registry) Equal(a, b URI) bool { return r.Key(a) == r.Key(b) }

// Check returns the error of the scheme's Validate for u, or nil when u
// has no scheme, its scheme is not in r, or the scheme validates
// nothing. u itself is valid by the generic grammar already.
func (r Registry) Check(u URI) error {
	s, ok := r.Lookup(u.Scheme())
	if !ok || s.Validate == nil {
		return nil
	}
	return s.Validate(u)
}

// View returns the scheme's typed view of u, or nil and nil when r has
// no view for u's scheme.
func (r Registry) View(u URI) (any, error) {
	s, ok := r.Lookup(u.Scheme())
	if !ok || s.View == nil {
		return nil, nil
	}
	return s.View(u)
}

// lowerScheme returns s in ASCII lowercase.
func lowerScheme(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = chars.Lower(b[j])
			}
			return string(b)
		}
	}
	return s
}
