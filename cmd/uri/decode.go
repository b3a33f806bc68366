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
		return func(in string) (result, error) {
			s, err := uri.Unescape(in)
			if err != nil {
				return nil, err
			}
			return c.text(s), nil // plain output escapes what decoding gave
		}, nil
	},
}
