package main

import (
	"strconv"

	"github.com/urikit/urikit/uri"
)

var encodeCommand = &command{
	name:     "encode",
	summary:  "percent-encode each input for a component",
	synopsis: "--component COMPONENT [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags: []flagSpec{{long: "component", arg: "C", help: `(required) one of:
userinfo     RFC 3986 3.2.1 (":" kept)
host         a reg-name, RFC 3986 3.2.2
segment      one path segment: "/" is encoded
path         a path: "/" kept
query        RFC 3986 3.4
fragment     RFC 3986 3.5
query-value  a key or value of a key=value query:
             "&", "=" and "+" are encoded`, example: "uri encode --component segment 'a/b c'"}},
	about: `Percent-encode each input so that it can stand as the given component of
a URI: every byte that the component does not allow as data is written
%XX (uppercase hexadecimal, RFC 3986 2.1), the UTF-8 bytes of non-ASCII
text included.
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
		return func(in string) error {
			c.out.result(uri.Escape(in, set))
			return nil
		}, nil
	},
}
