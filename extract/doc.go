// Package extract finds URIs in running text, as the 1998 draft's
// Appendix E recommends reading them, streaming over an io.Reader in
// constant memory.
//
//   - "<" and ">" wrap one URI, with or without the "URL:" prefix of the
//     URL drafts ("<URL:ftp://ds.internic.net/rfc/>"); whitespace inside
//     them, line breaks included, is not part of the URI ("The whitespace
//     should be ignored when extracting the URI"); any valid scheme.
//     They wrap a URI when their content, whitespace removed, is one
//     URI, and it opens with one: after optional whitespace and "URL:",
//     a scheme, ":" and more before the first whitespace
//     ("<gopher://h/00/Information About Gopher>" is
//     "gopher://h/00/InformationAboutGopher": "Using <> angle brackets
//     around each URI is especially recommended as a delimiting style
//     for URIs that contain whitespace"). An HTML tag, prose in brackets
//     ("<see http://x/ for details>"), a "<" never closed, and a blank
//     line inside are text, whose URIs are found as in running text.
//   - Double quotes wrap one URI.
//   - A bare URI needs a scheme registered with IANA (the registry in
//     the repository's data, schemes_table.go) and ends at whitespace,
//     at one of `" < > \ ^ ` { | }`, at a bidirectional formatting
//     character, or at a Unicode quotation mark or bracket; a trailing
//     ".", ",", ";", ":", "!", "?" or "'", and an unbalanced ")" or "]",
//     are punctuation of the text, not part of the URI. A scheme starts
//     at a letter at the start of a word or after punctuation in it, and
//     the longest registered scheme that ends at the ":" starts the URI
//     ("...http://x", "c.http://x" and "git+https://x" give "http://x"
//     and "https://x"; "xhttp://x" gives nothing).
//   - A hyphen at the end of a line inside a URI is kept and the URI goes
//     on after the line break, unless the next line starts a URI of its
//     own; the draft says the hyphen "may or may not actually be part of
//     the URI", so Options.BothReadings also reports the reading without
//     it (Match.Alt).
//   - With Options.Abbrev, Appendix F's abbreviated URLs: "www." and a
//     host with a dot is completed with "http://", "ftp" and optional
//     digits and "." with "ftp://", also inside "<...>"; mail addresses
//     and bare domain names are not URLs.
//   - Text with non-ASCII characters is found too (Match.IRI), and mapped
//     to a URI with Options.Map (such as iri.ToURI).
//
// Every Match has its byte offsets in the input (Raw is exactly the
// input between them), and its line and column.
package extract

//go:generate go run gen_schemes.go
