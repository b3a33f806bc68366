package scheme

import (
	"github.com/urikit/urikit/internal/chars"

	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// Registry returns every scheme rule the module knows: those of
// uri.DefaultRegistry (equivalence), the URN syntax and view of RFC 8141
// (urn.Scheme), and this package's views. Its Equal agrees with
// uri.Equal on every input: it adds validation and views, never other
// equivalence rules. Its Check is Check: each scheme's Validate is the
// error of its view.
func Registry() uri.Registry { return registry }

var registry = uri.MustRegistry(uri.DefaultRegistry().With(schemes()...))

// schemes returns the Schemes this package contributes: each is the
// DefaultRegistry's entry (its equivalence rules) with the view added.
func schemes() []uri.Scheme {
	return []uri.Scheme{
		urn.Scheme(urn.Options{}),
		withView("http", ParseHTTP),
		withView("https", ParseHTTP),
		withView("ftp", ParseFTP),
		withView("gopher", ParseGopher),
		withView("mailto", ParseMailto),
		withView("news", ParseNews),
		withView("snews", ParseNews),
		withView("nntp", ParseNNTP),
		withView("telnet", ParseTelnet),
		withView("rlogin", ParseTelnet),
		withView("tn3270", ParseTelnet),
		withView("wais", ParseWAIS),
		withView("prospero", ParseProspero),
		withView("file", ParseFile),
		withView("mid", ParseMessageID),
		withView("cid", ParseMessageID),
	}
}

// withView returns the default entry of the scheme with view as its
// View, and the view's error as its Validate: the rules of the scheme
// beyond the generic syntax are the ones its view reads by, so that
// Registry().Check and Check give one verdict (an http URL without a
// host, a port above 65535, a news URL without a group...). The URL
// stays a valid URI reference; the error says why the scheme cannot
// read it.
func withView[V any](name string, view func(uri.URI) (V, error)) uri.Scheme {
	s, ok := uri.DefaultRegistry().Lookup(name)
	if !ok {
		s = uri.Scheme{Name: name}
	}
	s.View = func(u uri.URI) (any, error) {
		v, err := view(u)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
	s.Validate = func(u uri.URI) error {
		_, err := view(u)
		return err
	}
	if chars.IsHTTP(name) {
		s.Validate = checkHTTP // ParseHTTP's error, without building the view
	}
	return s
}

// ports are the default ports of the schemes with an Endpoint view,
// read once from their entries in uri.DefaultRegistry: the one place a
// default port is written (uri/schemes.go, each with its RFC), so that
// a view, its JSON and the registry's normalization cannot disagree.
var ports = struct {
	http, https, ftp, gopher, news, snews, nntp, telnet, tn3270, rlogin, wais, prospero int
}{
	http: registryPort("http"), https: registryPort("https"), ftp: registryPort("ftp"),
	gopher: registryPort("gopher"), news: registryPort("news"), snews: registryPort("snews"),
	nntp: registryPort("nntp"), telnet: registryPort("telnet"), tn3270: registryPort("tn3270"),
	rlogin: registryPort("rlogin"), wais: registryPort("wais"), prospero: registryPort("prospero"),
}

// registryPort returns the default port of the scheme name in
// uri.DefaultRegistry. Every scheme with an Endpoint view has one: a
// registry without it is a fault of this module, found at start-up.
func registryPort(name string) int {
	p, ok := uri.DefaultPort(name)
	if !ok {
		panic("scheme: no default port for " + name + " in uri.DefaultRegistry")
	}
	return p
}
