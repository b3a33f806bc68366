package main

import "github.com/urikit/urikit/iri"

var iriToURICommand = &command{
	name:     "iri-to-uri",
	summary:  "map each IRI to a URI (RFC 3987 3.1)",
	synopsis: "[--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	about: `Map each input, an IRI reference (RFC 3987), to a URI reference (section
3.1): non-ASCII characters become percent-encoded UTF-8 (upper case), the
existing escapes are kept, and the host of a network scheme goes through
UTS #46 ToASCII ("https://例え.jp/" gives "https://xn--r8jz45g.jp/"). A
URI is returned as it is.
`,
	output: `Output: the URI, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		return func(in string) error {
			s, err := iri.ToURI(in)
			if err != nil {
				return err
			}
			c.out.result(s)
			return nil
		}, nil
	},
}

var uriToIRICommand = &command{
	name:     "uri-to-iri",
	summary:  "map each URI to an IRI for display (RFC 3987 3.2)",
	synopsis: "[--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | repairs,
	about: `Map each input, a URI reference, to an IRI for display (RFC 3987 section
3.2): percent-encoded UTF-8 of characters IRIs allow is decoded; ASCII
escapes, invalid UTF-8, bidirectional formatting characters and
private-use characters outside the query stay encoded, so that the IRI
maps back to the same URI.
`,
	output: `Output: the IRI, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		return func(in string) error {
			in, err := c.repaired(in)
			if err != nil {
				return err
			}
			s, err := iri.ToIRI(in)
			if err != nil {
				return err
			}
			c.out.decodedResult(s)
			return nil
		}, nil
	},
}
