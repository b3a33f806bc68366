package main

import (
	"fmt"
	"strconv"

	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/uri"
)

var encodeCommand = &command{
	name:     "encode",
	summary:  "percent-encode each input for a component",
	synopsis: "--component COMPONENT [--idna] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags: []flagSpec{{long: "component", arg: "COMPONENT", help: `(required) one of:
userinfo     RFC 3986 3.2.1 (":" kept)
host         a reg-name, RFC 3986 3.2.2
segment      one path segment: "/" is encoded
path         a path: "/" kept
query        RFC 3986 3.4
fragment     RFC 3986 3.5
query-value  a key or value of a key=value query:
             "&", "=", "+" and ";" are encoded`, example: "uri encode --component segment 'a/b c'"},
		{long: "idna", help: "with --component host, write a non-ASCII name in the form DNS\nneeds: each label through IDNA (UTS #46, the A-label xn--...)\ninstead of percent-encoded UTF-8",
			example: "uri encode --component host --idna 'münchen.de'"}},
	about: `Percent-encode each input so that it can stand as the given component of
a URI: every byte that the component does not allow as data is written
%XX (uppercase hexadecimal, RFC 3986 2.1), the UTF-8 bytes of non-ASCII
text included. No input fails: every string has an encoding.

A non-ASCII host without --idna is encoded as percent-encoded UTF-8, a
valid reg-name (RFC 3986 3.2.2) that DNS cannot look up: the first one
gets a note on standard error, after where it came from, as the error
lines of --skip-errors ("uri encode: standard input:3: note: ..."); it
is not a failure, and the exit status stays 0.
`,
	output: `Output: the encoded input, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		name := c.str("component", "")
		if name == "" {
			return nil, usagef("flag --component is required")
		}
		set, ok := uri.SetByName(name)
		if !ok {
			return nil, usagef("flag --component: unknown component %s: want userinfo, host, segment, path, query, fragment or query-value", strconv.Quote(name))
		}
		idna := c.has("idna")
		if idna && name != "host" {
			return nil, usagef("flag --idna applies to --component host only")
		}
		noted := false
		return func(in string) (result, error) {
			if name == "host" && !isASCII(in) {
				if idna {
					a, err := iri.HostToASCII(in)
					if err != nil {
						return nil, err
					}
					return c.text(uri.Escape(a, set)), nil
				}
				if !noted {
					// Where the input came from, as every line
					// about one input on standard error says
					// (--skip-errors); not a failure.
					noted = true
					fmt.Fprintf(c.stderr, "uri encode: %s: note: %q is not ASCII: percent-encoded UTF-8 is a valid reg-name (RFC 3986 3.2.2), but DNS needs the IDNA form (xn--...): use --idna\n", c.pos, in)
				}
			}
			return c.text(uri.Escape(in, set)), nil
		}, nil
	},
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
