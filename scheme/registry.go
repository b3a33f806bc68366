package scheme

import (
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// Registry returns every scheme rule the module knows: those of
// uri.DefaultRegistry (equivalence), the URN syntax and view of RFC 8141
// (urn.Scheme), and this package's views. Its Equal agrees with
// uri.Equal on every input: it adds validation and views, never other
// equivalence rules.
func Registry() uri.Registry { return registry }

var registry = uri.MustRegistry(uri.DefaultRegistry().With(schemes()...))

// schemes returns the Schemes this package contributes.
func schemes() []uri.Scheme {
	return []uri.Scheme{
		urn.Scheme(urn.Options{}),
	}
}
