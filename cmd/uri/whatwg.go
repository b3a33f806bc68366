package main

import (
	"github.com/urikit/urikit/whatwg"
)

// The --whatwg mode of parse and normalize: the URL Standard's parser
// (package whatwg) instead of RFC 3986, with an optional --base.

// whatwgFlags returns the flags --whatwg and --base of the command name.
func whatwgFlags(name string) []flagSpec {
	return []flagSpec{
		{long: "whatwg", help: "parse with the WHATWG URL Standard, as a browser does (strips,\nrepairs, lowercases, IDNA, IPv4 numbers, default ports)",
			example: "uri " + name + " --whatwg 'HTTP://EXAMPLE.com:80/a/../b c'"},
		{long: "base", arg: "URL", help: "with --whatwg, parse each input against this base URL (new\nURL(input, base)); a base the standard rejects is a usage error",
			example: "uri " + name + " --whatwg --base https://example.com/a/b ../c"},
	}
}

// whatwgStart returns the each of parse (or, with normalize, of
// normalize) in --whatwg mode, or nil when --whatwg is not given.
func whatwgStart(c *call, normalize bool) (each, error) {
	if !c.has("whatwg") {
		if c.has("base") {
			return nil, usagef("flag --base needs --whatwg")
		}
		return nil, nil
	}
	if c.has("rfc") || c.has("zone-id") || c.has("repair") {
		return nil, usagef("flag --whatwg takes none of --rfc, --zone-id, --repair")
	}
	var base whatwg.URL
	if c.has("base") {
		b, err := whatwg.Parse(c.str("base", ""))
		if err != nil {
			return nil, usagef("flag --base: %v", err)
		}
		base = b
	}
	return func(in string) (result, error) {
		u, err := whatwg.ParseRef(base, in)
		if err != nil {
			return c.whatwgRefused(err), errRefused
		}
		if normalize {
			return c.text(u.Href()), nil
		}
		return c.whatwgURL(u), nil
	}, nil
}
