package main

import (
	"github.com/urikit/urikit/uri"
)

var decodeCommand = &command{
	name:     "decode",
	summary:  "decode the percent-encoding of each input",
	synopsis: "[--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	about: `Decode every %XX triplet of each input into its byte (RFC 3986 2.1);
the other bytes are kept. A "%" not followed by two hexadecimal digits is
an error at the offset of the first byte that cannot be there.
`,
	output: `Output: the decoded bytes, one line per input; JSON {"input", "result"}.
So that every input keeps one line, plain output writes a decoded line
feed as the two characters \n and a carriage return as \r; JSON holds the
real string (bytes that are not UTF-8 become U+FFFD there).
`,
	start: func(c *call) (each, error) {
		return func(in string) error {
			s, err := uri.Unescape(in)
			if err != nil {
				return err
			}
			c.out.decodedResult(s)
			return nil
		}, nil
	},
}

// decodedResult writes a result that decoding may have given line
// breaks or other controls: plain output escapes them (appendPlain), so
// that every input keeps one line; JSON holds the real string.
func (w *writer) decodedResult(s string) { w.result(s) }
