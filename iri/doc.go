// Package iri converts between Internationalized Resource Identifiers
// (RFC 3987) and URIs, and repairs what people paste into a valid URI.
//
// ToURI is RFC 3987 section 3.1: an IRI becomes a URI by writing every
// non-ASCII character as the percent-encoding of its UTF-8 bytes (upper
// case hexadecimal), existing escapes kept; the host of a URL whose
// scheme names hosts in the DNS goes through UTS #46 ToASCII instead
// (the nontransitional Lookup profile of golang.org/x/net/idna), so
// "https://例え.jp/" becomes "https://xn--r8jz45g.jp/". A URI is its own
// IRI: ToURI returns it unchanged.
//
// ToIRI is section 3.2, for display: percent-encoded UTF-8 of
// characters that IRIs allow is decoded; what would change the meaning
// stays encoded (ASCII, reserved characters, bidirectional formatting
// characters, invalid UTF-8, private-use characters outside the query).
//
// Parse validates against RFC 3987's grammar (ucschar and iprivate
// ranges as tables), with a *uri.ParseError at the offending byte.
//
// Repair is opt-in leniency: it turns what people paste (spaces, quotes,
// angle brackets, backslashes in paths, "|", non-ASCII, IDN hosts, a
// stray "%") into a valid URI and lists each repair with its offset. A
// valid URI is never changed.
package iri
