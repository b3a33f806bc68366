package scheme

import (
	"strings"

	"github.com/urikit/urikit/uri"
)

// WAIS is the view of a wais URL (RFC 4156; RFC 1738 3.9; the 1994
// draft's grammar):
//
//	waisindex = "wais://" hostport "/" database [ "?" search ]
//	waisdoc   = "wais://" hostport "/" database "/" wtype "/" wpath
type WAIS struct {
	ref              // the URL: String, Redacted and Format
	end              endpoint
	form             string
	database, search string
	wtype, wpath     string
	warnings         []Warning
}

// The forms of a wais URL.
const (
	WAISDatabase = "database" // wais://host/database
	WAISSearch   = "search"   // wais://host/database?search
	WAISDocument = "document" // wais://host/database/wtype/wpath
)

// ParseWAIS reads a wais URL.
func ParseWAIS(u uri.URI) (WAIS, error) {
	if err := needHost(u, "wais"); err != nil {
		return WAIS{}, err
	}
	v := WAIS{end: endpointOf(u, ports.wais)}
	v.warnings = v.end.portWarnings()
	p := strings.TrimPrefix(u.Path(), "/")
	base := pathStart(u) + 1
	parts := strings.SplitN(p, "/", 3)
	if parts[0] == "" {
		return WAIS{}, fail(u, base, uri.ComponentPath, ErrSchemeSyntax)
	}
	v.database = decode(parts[0])
	switch len(parts) {
	case 1:
		v.form = WAISDatabase
		if u.HasQuery() {
			v.form, v.search = WAISSearch, decode(u.Query())
		}
	case 3:
		if parts[1] == "" || u.HasQuery() {
			return WAIS{}, fail(u, base+len(parts[0])+1, uri.ComponentPath, ErrSchemeSyntax)
		}
		v.form, v.wtype, v.wpath = WAISDocument, decode(parts[1]), decode(parts[2])
	default:
		return WAIS{}, fail(u, base+len(p), uri.ComponentPath, ErrSchemeSyntax)
	}
	v.ref = ref{u}
	return v, nil
}

// Host returns the host, decoded.
func (v WAIS) Host() string { return v.end.host }

// Port returns the port the URL names, or -1.
func (v WAIS) Port() int { return v.end.port }

// DefaultPort returns 210 (RFC 4156 2).
func (v WAIS) DefaultPort() int { return v.end.defPort }

// ConnectPort returns the port a client connects to (Endpoint).
func (v WAIS) ConnectPort() int { return v.end.connectPort() }

// Form returns WAISDatabase, WAISSearch or WAISDocument.
func (v WAIS) Form() string { return v.form }

// Database returns the database name, decoded.
func (v WAIS) Database() string { return v.database }

// Search returns the search of the search form, decoded.
func (v WAIS) Search() string { return v.search }

// WType and WPath return the type and the document path of the
// document form, decoded.
func (v WAIS) WType() string { return v.wtype }

// WPath returns the document path of the document form, decoded.
func (v WAIS) WPath() string { return v.wpath }

// Warnings implements View.
func (v WAIS) Warnings() []Warning { return v.warnings }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v WAIS) MarshalJSON() ([]byte, error) {
	return done(newObj().Str("host", v.end.host).Int("port", v.end.port).Int("default_port", v.end.defPort).
		Str("form", v.form).Str("database", v.database).Opt("search", v.search, v.form == WAISSearch).
		Opt("wtype", v.wtype, v.form == WAISDocument).Opt("wpath", v.wpath, v.form == WAISDocument).
		Strs("warnings", codes(v.warnings)))
}
