package main

var normalizeCommand = &command{
	name:     "normalize",
	summary:  "print the normal form of each URI reference",
	synopsis: "[--json] [--rfc 3986|2396] [--zone-id] [--whatwg [--base URL]] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | grammar | repairs,
	flags:    whatwgFlags("normalize"),
	about: `Print the normal form of each input, the form that equal compares.

The normal form follows RFC 3986 6.2.2 and 6.2.3: scheme and host in
lowercase, an IPv6 address in the text form of RFC 5952, percent-encoding
in uppercase hexadecimal, percent-encoded unreserved characters decoded,
dot segments removed; for the schemes with a known default port (http 80,
https 443, ftp 21, ...) an empty or default port is dropped and an empty
http(s) path becomes "/". Empty query and fragment delimiters are kept.
Normalizing twice changes nothing. A "urn:" input must be a URN and gets
the URN normal form of RFC 8141 section 3.1 ("urn" and the NID in
lowercase, percent-encoding in uppercase, nothing decoded).

With --rfc 2396 the 1998 draft's section 6 applies instead: scheme and
hostname in lowercase, an explicit default port dropped, escapes in
uppercase and escaped unreserved characters (alphanum and "-_.!~*'()")
decoded; dot segments and empty paths are left as they are, since that
draft does not make them equivalent (its resolution keeps "/./g").

With --whatwg, print the href the WHATWG URL Standard gives each input
(against --base URL when given), as a browser's new URL(input).href.
`,
	output: `Output: the normal form, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		if fn, err := whatwgStart(c, true); fn != nil || err != nil {
			return fn, err
		}
		return func(in string) (result, error) {
			u, changes, err := c.parseURI(in)
			if err != nil {
				return nil, err
			}
			return c.uriText(c.reg.Normalize(u), changes), nil
		}, nil
	},
}
