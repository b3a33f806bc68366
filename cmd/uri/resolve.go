package main

import (
	"strings"

	"github.com/urikit/urikit/uri"
)

var flagBase = flagSpec{long: "base", arg: "BASE", help: "(required) the base URI: it must have a scheme (RFC 3986 5.1);\nits fragment is ignored"}

// flagDots is --dots of resolve and edit --redirect.
var flagDots = flagSpec{long: "dots", arg: "keep|drop|reject", help: "with --rfc 2396, what to do with a \"..\" above the root, the\nthree choices of the draft's step 6g: keep (the default,\n\"http://a/../g\" as Appendix C.2 shows), drop (\"http://a/g\"),\nreject (an error at the offset of that \"..\")"}

var resolveCommand = &command{
	name:     "resolve",
	summary:  "resolve each reference against a base URI",
	synopsis: "--base BASE [--json] [--rfc 3986|2396] [--dots keep|drop|reject] [--zone-id] [-f FILE]... [REFERENCE...]",
	traits:   inputs | jsonOut | grammar | repairs,
	flags: []flagSpec{
		withExample(flagBase, "uri resolve --base http://a/b/c/d ../g"),
		withExample(flagDots, "uri resolve --rfc 2396 --dots drop --base http://a/b/c/d ../../../g"),
	},
	about: `Resolve each reference against BASE and print the target URI: RFC 3986
section 5.2 (strict: a reference with a scheme is absolute), or the 1998
draft's section 5.2 with --rfc 2396 ("../../../g" against
"http://a/b/c/d;p?q" gives "http://a/../g", as its Appendix C says). The
empty reference names the base without its fragment. Resolution is the
generic algorithm of section 5: neither the references nor the target
are held to their scheme's rules, which section 5.4.2's own "http:g"
breaks (uri check the output to apply them).
`,
	output: `Output: the target URI, one line per reference; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		b, err := c.base()
		if err != nil {
			return nil, err
		}
		policy, err := c.dotPolicy()
		if err != nil {
			return nil, err
		}
		return func(in string) (result, error) {
			ref, changes, err := c.parseRef(in)
			if err != nil {
				return nil, err
			}
			if c.opts.Grammar == uri.RFC2396 {
				t, err := b.Resolve2396(ref, policy)
				if err != nil {
					return nil, withRepairs(err, changes)
				}
				return c.uriText(t, changes), nil
			}
			return c.uriText(b.Resolve(ref), changes), nil
		}, nil
	},
}

// dotPolicy returns the policy --dots names, KeepDots by default: the
// draft's Appendix C.2 keeps the excess "..".
func (c *call) dotPolicy() (uri.DotPolicy, error) {
	if !c.has("dots") {
		return uri.KeepDots, nil
	}
	if c.opts.Grammar != uri.RFC2396 {
		return 0, usagef("flag --dots applies to --rfc 2396 only")
	}
	switch strings.ToLower(c.str("dots", "")) {
	case "keep":
		return uri.KeepDots, nil
	case "drop":
		return uri.DropDots, nil
	case "reject":
		return uri.RejectDots, nil
	}
	return 0, usagef("flag --dots: want keep, drop or reject, not %q", c.str("dots", ""))
}

// base parses --base, which must be given and be a URI with a scheme
// (RFC 3986 5.1) in the call's grammar.
func (c *call) base() (uri.URI, error) {
	if !c.has("base") {
		return uri.URI{}, usagef("flag --base is required")
	}
	s := c.str("base", "")
	b, err := uri.ParseWith(s, c.opts)
	if err != nil {
		off, reason := describe(s, err)
		return b, usagef("invalid base %q: error: %d: %s", s, off, reason)
	}
	if !b.HasScheme() {
		return b, usagef("invalid base %q: a base URI must have a scheme", s)
	}
	return b, nil
}
