// Package whatwg implements the URL Standard of the WHATWG
// (https://url.spec.whatwg.org/): what a browser does with the string in
// an href, a Location header or new URL(). Package uri implements RFC
// 3986, the grammar of identifiers; use this package where the result
// must agree with a browser (crawlers, link checkers, web archives), and
// package uri where an identifier must be valid as written.
//
// Parse and ParseRef run the basic URL parser (section 4.4): they strip
// and repair the input (C0 controls and spaces at the ends, tabs and
// newlines, backslashes in special URLs, percent-encoding, dot
// segments, default ports), parse the host (domains to ASCII by UTS #46,
// IPv4 numbers in every form the standard accepts, IPv6 compression,
// opaque hosts) and return a URL, or a *ParseError when the standard
// returns failure.
//
//	u, err := whatwg.Parse("HTTP://EXAMPLE.com:80/a/../b c")
//	// u.Href() == "http://example.com/b%20c"
//
// A URL holds its serialization (Href) and the offsets of its
// components; its getters are named as the standard's API (Protocol,
// Username, Password, Host, Hostname, Port, Pathname, Search, Hash,
// Origin) and slice the href. Parsing an input that is already in
// serialized form allocates nothing: the href is the input. Any other
// input costs one buffer. The most common such input, an http(s), ws(s),
// ftp or file URL with a lowercase ASCII domain and nothing to repair,
// takes a single table-driven pass that proves it is serialized; all
// else takes the state machine, and both give the same URL.
//
// The standard's validation errors (section 1.3) are kept as a set:
// URL.Errors lists those the parse met, by the standard's names
// ("invalid-URL-unit", "IPv4-non-decimal-part", ...), so that a caller
// can tell what was repaired. A ParseError names the validation error
// that made the parse fail; errors.Is(err, whatwg.HostMissing) tests it.
//
// The setters (SetProtocol, SetHost, SetPathname, ...) are those of the
// URL class (section 6.1), with the state overrides of the parser; they
// return a new URL. SearchParams reads the query as
// application/x-www-form-urlencoded (section 5) in order.
//
// URL.URI converts a URL to a uri.URI of package uri; FromURI reads a
// uri.URI with the URL parser.
//
// # What is implemented, and what is not
//
// Everything the web-platform-tests of the URL Standard test, and they
// all pass (testdata/conformance/whatwg: urltestdata.json,
// setters_tests.json, toascii.json, percent-encoding.json). The query
// is always encoded as UTF-8, as new URL() does: the legacy encodings
// of HTML documents are not implemented. Blob URL entries (a browser's
// store) are not either; Origin reads a blob URL's origin from its path.
//
// Domains go through golang.org/x/net/idna set to the standard's UTS #46
// flags. Its tables follow the Unicode version of the Go release (15.0
// under Go 1.26), older than the standard's; a generated table
// (idna_table.go, from the IDNA Mapping Table 17.0.0) applies the
// mappings that changed since, and refuses the characters assigned
// since, which x/net would otherwise turn into U+FFFD. x/net maps and
// validates; internal/uts46 decodes and encodes the Punycode (RFC 3492)
// in O(n log n) time, without x/net's limit of 1,023 code points, and
// refuses the "xn--" labels x/net takes against UTS #46 section 4 step
// 4: empty after the prefix, or with a non-ASCII code point. The
// standard sets no length limit on a domain: a host of 60 KB is one.
//
// The query read as a form (SearchParams, ParseSearchParams) is decoded
// as the Encoding Standard's UTF-8 decoder does, one U+FFFD per error.
package whatwg
