package whatwg

import "github.com/urikit/urikit/uri"

// URI returns the href as a uri.URI of RFC 3986. Most hrefs are valid
// URIs; the ones that are not fail with the *uri.ParseError of package
// uri. The URL Standard leaves some code points unencoded that RFC 3986
// does not allow where they are:
//
//   - in a query: '"' (non-special URLs), '[', ']', '\', '^', '`', '{',
//     '|', '}', and "'" (non-special URLs, where it is allowed anyway);
//   - in a fragment: '#', '[', ']', '\', '^', '{', '|', '}';
//   - in a path: '[', ']', '|', and '\' in a URL that is not special;
//   - in an opaque path ("sc:a b"): a space, and every printable ASCII
//     code point RFC 3986 excludes;
//   - in a host: '"', '`', '{', '}' and the like, which are not
//     forbidden domain (or host) code points;
//   - anywhere: a '%' not followed by two hex digits, which the standard
//     keeps as it is.
//
// TestURIOfWPT lists, for every href of the web-platform-tests, which of
// these reasons makes it invalid.
func (u URL) URI() (uri.URI, error) { return uri.Parse(u.s) }

// FromURI reads the URI reference r with the URL parser, as a browser
// reads an href: a relative reference needs ParseRef with a base, and
// fails here with MissingSchemeNonRelativeURL.
func FromURI(r uri.URI) (URL, error) { return Parse(r.String()) }

// FromURIRef reads the URI reference r with the URL parser against base.
func FromURIRef(base URL, r uri.URI) (URL, error) { return ParseRef(base, r.String()) }
