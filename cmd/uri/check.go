package main

import "github.com/urikit/urikit/scheme"

var checkCommand = &command{
	name:     "check",
	summary:  "print the inputs that are not URI references, and why",
	synopsis: "[--warn] [--json] [--rfc 3986|2396] [--zone-id] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | grammar | failsOnly | repairs,
	flags: []flagSpec{
		{long: "warn", help: "also print the warnings of valid inputs, from the rules of\ntheir scheme: nondefault-port, reserved-port, password,\nencoded-crlf, encoded-nul (RFC 1738 section 6), reserved-nid,\nignored-part",
			example: "uri check --warn 'ftp://user:secret@example.com:25/'"},
	},
	about: `Check that each input is a URI reference and print only the failures.
A URI whose scheme has rules of its own must follow them too: a "urn:"
input must be a URN of RFC 8141, and a URL of a scheme with a view in
package scheme must be one that view can read (scheme.Check): an http
or https URL needs a host (RFC 9110 4.2.1) that names a host (no
escaped space, control or other character the URL Standard forbids in
a domain), no port may be above 65535, an ftp URL has no query, ...
Every subcommand that reads URIs (parse, normalize, edit, get, equal,
plan, ...) refuses the same inputs with the same error.
`,
	output: `Plain output, one line per failed input:
  INPUT<TAB>error: OFFSET: REASON
REASON holds no tab, so the line splits at its last tab even when the
input holds one. JSON output, one object per failed input: {"input",
"error", "offset"}. Nothing is printed for a valid input, except with
--warn one line per warning of a valid input:
  INPUT<TAB>warning: WARNING
(JSON {"input", "warnings"}), the codes in this order: nondefault-port
(a port other than the scheme's default), reserved-port (one below 1024
as well), password (a password in the URL), encoded-crlf and encoded-nul
(a %0D, %0A or %00 that a client would decode into a protocol line or a
mail header: in telnet, rlogin and tn3270 userinfo, gopher and ftp
parts, mailto header field names and values; a %00 in a URN),
reserved-nid (a URN whose NID may not be assigned, RFC 8141 5.1),
ignored-part (a query or fragment the scheme's URLs do not have, which
a client leaves out: nntp, RFC 5538 2.2).
`,
	start: func(c *call) (each, error) {
		warn := c.has("warn")
		return func(in string) (result, error) {
			u, changes, err := c.parseURI(in) // the scheme's rules too
			if err != nil || !warn {
				return nil, err
			}
			// scheme.ViewOf: every view, URNs included, warns in
			// the same codes.
			sv, err := scheme.ViewOf(u)
			if err != nil || sv == nil {
				return nil, withRepairs(err, changes)
			}
			return c.warnings(sv.Warnings(), nil, changes), nil
		}, nil
	},
}
