package main

import "github.com/urikit/urikit/uri"

var relativizeCommand = &command{
	name:     "relativize",
	summary:  "print the shortest reference from a base URI to each target",
	synopsis: "--base BASE [--json] [--rfc 3986|2396] [--zone-id] [-f FILE]... [TARGET...]",
	traits:   inputs | jsonOut | grammar | repairs,
	flags:    []flagSpec{withExample(flagBase, "uri relativize --base http://a/b/c/d http://a/b/g")},
	about: `For each target URI, print the shortest reference that resolves back to
the target against BASE ("uri resolve --base BASE" is its inverse, with
the same --rfc). A target whose path has a "." or ".." segment can only be
reached by a reference that keeps the base's path; otherwise it fails at
the offset of that segment.
`,
	output: `Output: the reference, one line per target; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		b, err := c.base()
		if err != nil {
			return nil, err
		}
		return func(in string) (result, error) {
			t, changes, err := c.parseRef(in)
			if err != nil {
				return nil, err
			}
			var ref uri.URI
			if c.opts.Grammar == uri.RFC2396 {
				ref, err = b.Relativize2396(t)
			} else {
				ref, err = b.Relativize(t)
			}
			if err != nil {
				return nil, withRepairs(err, changes)
			}
			return c.uriText(ref, changes), nil
		}, nil
	},
}
