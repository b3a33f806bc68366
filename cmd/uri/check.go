package main

var checkCommand = &command{
	name:     "check",
	summary:  "print the inputs that are not URI references, and why",
	synopsis: "[--json] [--rfc 3986|2396] [--zone-id] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | grammar | failsOnly,
	about: `Check that each input is a URI reference and print only the failures.
A URI whose scheme has rules of its own must follow them too: a "urn:"
input must be a URN of RFC 8141.
`,
	output: `Plain output, one line per failed input:
  INPUT<TAB>error: OFFSET: REASON
REASON holds no tab, so the line splits at its last tab even when the
input holds one. JSON output, one object per failed input: {"input",
"error", "offset"}. Nothing is printed for a valid input.
`,
	start: func(c *call) (each, error) {
		return func(in string) error {
			_, err := c.parseURI(in)
			return err
		}, nil
	},
}
