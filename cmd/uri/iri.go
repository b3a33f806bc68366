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
		return func(in string) (result, error) {
			u, err := iri.ToURI(in)
			if err != nil {
				return nil, err
			}
			return c.uriText(u, nil), nil
		}, nil
	},
}

var uriToIRICommand = &command{
	name:     "uri-to-iri",
	summary:  "map each URI to an IRI for display (RFC 3987 3.2)",
	synopsis: "[--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | repairs,
	about: `Map each input, a URI reference, to an IRI for display (RFC 3987 section
3.2): escapes of unreserved ASCII ("%7E") and percent-encoded UTF-8 are
decoded, and the A-labels of a DNS host are shown in Unicode (UTS #46
ToUnicode: "https://xn--mnchen-3ya.de/" gives "https://münchen.de/").
What would change the meaning or mislead stays encoded: reserved ASCII,
"%2E" in a path or host, invalid UTF-8, and every character that hides
or passes for another (zero-width and other default-ignorable
characters, bidi controls, spaces, the lock emoji, full-width forms,
look-alikes of "/" and the other delimiters); symbols, emoji and every
script are shown in a path, query and fragment, as browsers show them.
A host, a userinfo and the domains of a mailto address are shown in
Unicode only when UTS #39 finds no spoof: one script (or Latin with the
Chinese, Japanese or Korean scripts), no whole-script confusable ("аррӏе"
in Cyrillic reads "apple"), no overlay mark; otherwise they keep their
A-label or percent-encoded form. iri-to-uri maps
the result back to an equivalent URI.
`,
	output: `Output: the IRI, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		return func(in string) (result, error) {
			in, changes, err := c.repaired(in)
			if err != nil {
				return nil, err
			}
			s, err := iri.ToIRI(in)
			if err != nil {
				return nil, withRepairs(err, changes)
			}
			return c.repairedText(s, changes), nil
		}, nil
	},
}
