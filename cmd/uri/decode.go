package main

import (
	"io"

	"github.com/urikit/urikit/uri"
)

var decodeCommand = &command{
	name:    "decode",
	summary: "decode the percent-encoding of each input",
	help:    decodeHelp,
	run:     runDecode,
}

func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := newOptions("decode", decodeHelp, false)
	args, code, done := o.parse(args, stdout, stderr)
	if done {
		return code
	}
	return o.loop(args, stdin, stdout, stderr, func(in string) (result, error) {
		s, err := uri.Unescape(in)
		return result{out: outResult, s: s}, err
	})
}

const decodeHelp = `Usage: uri decode [--json] [INPUT...]

Decode every %XX triplet of each input into its byte (RFC 3986 2.1);
the other bytes are kept. Inputs are the arguments or, when there are
none, the lines of standard input (the empty line is an input; a final
"\r" is dropped).

Flags:
  --json   print JSON Lines

Output: the decoded bytes, one line per input; JSON {"input", "result"}.
Plain output writes the bytes as they are, so a decoded "%0A" ends the
line early; JSON escapes it, but replaces bytes that are not UTF-8 with
U+FFFD.

A "%" not followed by two hexadecimal digits prints "error: OFFSET:
REASON" (JSON: {"input", "error", "offset"}), OFFSET being that of the
first byte that cannot be there, and processing goes on.

Exit status: 0 when every input was decoded, 1 when any failed, 2 for a
usage error.
`
