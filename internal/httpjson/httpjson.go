// Package httpjson writes the JSON of the most common http and https
// URLs, the "scheme_data" of uri parse --json that package scheme's
// HTTP view writes (scheme.AppendJSON), from the URL's text and
// components: package scheme, and the uri command, which holds them
// already, call it without passing the URI again. The keys, their order
// and the values are scheme's; its tests check this writer against the
// view's accessors for every form of URL.
package httpjson

import (
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/uri"
)

// The default ports of http and https, from uri.DefaultRegistry (the
// one place they are written), and the runs of the JSON that hold
// them: from "default_port" to the request target's opening quote, and
// the same after a null port.
var (
	HTTPPort, HTTPSPort = registryPort("http"), registryPort("https")
	HTTPDefault         = defaultPortJSON(HTTPPort)
	HTTPSDefault        = defaultPortJSON(HTTPSPort)
	HTTPNoPort          = `,"port":null` + HTTPDefault
	HTTPSNoPort         = `,"port":null` + HTTPSDefault
)

func registryPort(name string) int {
	p, ok := uri.DefaultPort(name)
	if !ok {
		panic("httpjson: no default port for " + name + " in uri.DefaultRegistry")
	}
	return p
}

func defaultPortJSON(port int) string {
	return `,"default_port":` + strconv.Itoa(port) + `,"request_target":"`
}

// IsSearch reports whether the query q is a search of the 1993 URL
// draft ("http://host/path?search", words separated by "+"): not
// empty, and no "=" or "&", which make it a form's pairs.
func IsSearch(q string) bool { return q != "" && strings.IndexAny(q, "=&") < 0 }

// AppendName appends the JSON of an http or https URL with a host name
// (a reg-name that is not empty) and no userinfo, port or fragment,
// given its text s and its scheme, host, path and query as written:
// its parts are written as they stand in s (AppendAsIs), after one
// growth for them all. It reports false, having written nothing, when
// the URL is not of that kind: not IsName, an escape in the host, or a
// query of search words. The caller has checked the rest.
func AppendName(b []byte, s, scheme, host, path, query string, hasQuery bool) ([]byte, bool) {
	if !IsName(scheme, host, path) || IsSearch(query) || strings.IndexByte(host, '%') >= 0 {
		return b, false
	}
	return AppendNameGrown(jsonstr.Grow(b, NameSize(s)), s, scheme, host, path, query, hasQuery), true
}

// IsName reports whether an http URL of this scheme, host and path, with
// no userinfo, port or fragment, is one AppendName writes when its host
// holds no escape and its query is not a search: the scheme "http" or
// "https" in lowercase, a host and a path.
func IsName(scheme, host, path string) bool {
	return (scheme == "http" || scheme == "https") && host != "" && path != ""
}

// NameSize is the room AppendNameGrown needs for a URL of text s.
func NameSize(s string) int { return 3*len(s) + 200 }

// AppendNameGrown is AppendName for a URL that the caller found to be of
// its kind, on a b with NameSize(s) bytes of room.
func AppendNameGrown(b []byte, s, scheme, host, path, query string, hasQuery bool) []byte {
	b = append(b, `{"host":"`...)
	b = append(b, host...)
	b = append(b, '"')
	if len(scheme) == 5 {
		b = append(b, HTTPSNoPort...)
	} else {
		b = append(b, HTTPNoPort...)
	}
	b = AppendAsIs(b, s, scheme, path, query, hasQuery)
	// (The constants are cut to 16 bytes at most: the compiler copies
	// those inline.)
	b = append(b, `","search_words"`...)
	b = append(b, `:null,"warnings"`...)
	return append(b, `:[]}`...)
}

// AppendAsIs appends the request target, then "absolute_form" and
// "host_header", of an http URL whose text s is its absolute form: its
// scheme in lowercase, no userinfo, no fragment, a path, no zone
// identifier, no empty port. The target (path and query) ends s; the
// Host header is what comes between "://" and the target.
func AppendAsIs(b []byte, s, scheme, path, query string, hasQuery bool) []byte {
	target := len(path)
	if hasQuery {
		target += 1 + len(query)
	}
	b = append(b, s[len(s)-target:]...)
	b = append(b, `","absolute_form`...)
	b = append(b, `":"`...)
	b = append(b, s...)
	b = append(b, `","host_header"`...)
	b = append(b, `:"`...)
	return append(b, s[len(scheme)+len("://"):len(s)-target]...)
}
