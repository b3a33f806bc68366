package urn

import "github.com/urikit/urikit/uri"

// Scheme returns the rules of the "urn" scheme for a uri.Registry: the
// equivalence of RFC 8141 section 3 that uri.DefaultRegistry already
// holds (so uri.Equal and Equal agree on every URN), plus the URN
// syntax of the dialect o selects (Validate returns the *ParseError of
// ParseWith) and the URN as the typed view (View returns a URN).
func Scheme(o Options) uri.Scheme {
	s, _ := uri.DefaultRegistry().Lookup("urn")
	s.Validate = func(u uri.URI) error {
		_, err := ParseWith(u.String(), o)
		return err
	}
	s.View = func(u uri.URI) (any, error) {
		v, err := ParseWith(u.String(), o)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
	return s
}

// MarshalText implements encoding.TextMarshaler: the URN exactly as
// parsed (String). The zero URN gives "".
func (u URN) MarshalText() ([]byte, error) { return []byte(u.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler with Parse (RFC
// 8141). On error u is left unchanged.
func (u *URN) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*u = v
	return nil
}
