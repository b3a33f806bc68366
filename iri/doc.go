// Package iri converts between Internationalized Resource Identifiers
// (RFC 3987) and URIs, and repairs what people paste into a valid URI.
//
// ToURI is RFC 3987 section 3.1: an IRI becomes a URI by writing every
// non-ASCII character as the percent-encoding of its UTF-8 bytes (upper
// case hexadecimal), existing escapes kept; the host of a URL whose
// scheme names hosts in the DNS goes through UTS #46 ToASCII instead
// (the options of the nontransitional Lookup profile of
// golang.org/x/net/idna, with the "xn--" label rules of UTS #46 section
// 4 that x/net leaves out), so
// "https://例え.jp/" becomes "https://xn--r8jz45g.jp/". A URI is its own
// IRI: ToURI returns it unchanged.
//
// ToIRI is section 3.2, for display: escapes of unreserved ASCII and
// percent-encoded UTF-8 are decoded, and the A-labels of a DNS host are
// shown in Unicode (UTS #46 ToUnicode), "https://xn--mnchen-3ya.de/"
// reading "https://münchen.de/". What would change the meaning or
// mislead the reader stays encoded: reserved ASCII, invalid UTF-8, and
// every character that hides or passes for another (default-ignorable
// and bidi control characters, spaces, symbols, compatibility
// characters, scripts not recommended for identifiers, a host label that
// mixes scripts; UTS #39). ToURI(ToIRI(s)) is always equivalent to s.
// It does not detect whole-script confusables (a label written only in
// Cyrillic letters that look Latin): that needs UTS #39's confusables
// data.
//
// Parse validates against RFC 3987's grammar (ucschar and iprivate
// ranges as tables), with a *uri.ParseError at the offending byte.
//
// Repair is opt-in leniency: it turns what people paste (spaces, quotes,
// angle brackets, line breaks and tabs, backslashes in paths, "|", "["
// and "]" outside an IP literal, non-ASCII, IDN hosts, a stray "%") into
// a valid URI and lists each repair with its offset. A valid URI is
// never changed.
package iri
