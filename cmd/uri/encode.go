package main

import (
	"io"
	"strconv"

	"github.com/urikit/urikit/uri"
)

var encodeCommand = &command{
	name:    "encode",
	summary: "percent-encode each input for a component",
	help:    encodeHelp,
	run:     runEncode,
}

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("encode", encodeHelp, false)
	var name string
	o.fs.StringVar(&name, "component", "", "")
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	if name == "" {
		return o.usageError(stderr, "--component is required")
	}
	set, ok := uri.SetByName(name)
	if !ok {
		return o.usageError(stderr, "unknown component "+strconv.Quote(name)+
			": want userinfo, host, segment, path, query, fragment or query-value")
	}
	return o.loop(args, stdin, stdout, stderr, func(in string) (result, error) {
		return result{out: outResult, s: uri.Escape(in, set)}, nil
	})
}

const encodeHelp = `Usage: uri encode --component COMPONENT [--json] [INPUT...]

Percent-encode each input so that it can stand as the given component of
a URI: every byte that the component does not allow as data is written
%XX (uppercase hexadecimal, RFC 3986 2.1), the UTF-8 bytes of non-ASCII
text included. Inputs are the arguments or, when there are none, the
lines of standard input (the empty line is an input; a final "\r" is
dropped).

Flags:
  --component C  (required) one of:
                 userinfo     RFC 3986 3.2.1 (":" kept)
                 host         a reg-name, RFC 3986 3.2.2
                 segment      one path segment: "/" is encoded
                 path         a path: "/" kept
                 query        RFC 3986 3.4
                 fragment     RFC 3986 3.5
                 query-value  a key or value of a key=value query:
                              "&", "=" and "+" are encoded
  --json         print JSON Lines

Output: the encoded input, one line per input; JSON {"input", "result"}.

Exit status: 0 on success, 2 for a usage error.
`
