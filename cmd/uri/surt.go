package main

import (
	"errors"

	"github.com/urikit/urikit/surt"
)

// The keys of web archives and crawlers (package surt, issue 28): "uri
// surt" writes the key a URL is filed under, "uri canon" the URL a
// profile canonicalizes it to. Both read every line as the archive tools
// read crawl logs; the command holds no rule of its own.

// The flags of the keys, shared by surt and canon.
var (
	flagProfile = flagSpec{long: "profile", arg: "P",
		help: "the canonicalization profile: ia (the default: Wayback,\n" +
			"pywb, Heritrix), google (Safe Browsing), whatwg (the URL\n" +
			"Standard), semantic-precise or aggressive (iipc/urlcanon),\n" +
			"rfc3986 (as normalize), none (the URL as written)"}
	flagKeepWWW = flagSpec{long: "keep-www",
		help: "keep a leading \"www\" or \"wwwN\" label that ia and\naggressive strip (www and www2 stay apart)"}
	flagWWWTwoLabels = flagSpec{long: "www-two-labels",
		help: "strip \"www\"/\"wwwN\" only where two labels follow it\n(www1355544.com stays itself, not \"com\")"}
	flagKeepSlash = flagSpec{long: "keep-trailing-slash",
		help: "keep the final \"/\" of a path that ia and aggressive drop"}
)

var surtCommand = &command{
	name:     "surt",
	summary:  "print the SURT key a web archive files each URL under",
	synopsis: "[--with-scheme | --ssurt] [--profile P] [--keep-www] [--www-two-labels] [--keep-trailing-slash] [--trailing-comma] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags: []flagSpec{
		{long: "with-scheme", help: "the Heritrix form: the scheme kept, the authority in\nparentheses, a comma after each label:\n\"http://(org,archive,)/\"",
			example: "uri surt --with-scheme 'http://www.archive.org/goo/'"},
		{long: "ssurt", help: "urlcanon's reversible SSURT: the reversed host, \"//\",\nport, scheme and userinfo, then the rest:\n\"org,archive,//http:/goo\"",
			example: "uri surt --ssurt 'http://www.archive.org:81/goo/?b&a#f'"},
		withExample(flagProfile, "uri surt --profile aggressive 'https://www.archive.org/Goo/?sid=0123456789abcdef0123'"),
		withExample(flagKeepWWW, "uri surt --keep-www 'http://www2.archive.org/'"),
		withExample(flagWWWTwoLabels, "uri surt --www-two-labels 'http://www1355544.com/'"),
		withExample(flagKeepSlash, "uri surt --keep-trailing-slash 'http://archive.org/goo/'"),
		{long: "trailing-comma", help: "end the host of the key with a comma (\"org,archive,)/\"),\nas surt's trailing_comma (--with-scheme and --ssurt\nalways do)",
			example: "uri surt --trailing-comma 'http://archive.org/'"},
	},
	about: `Print the key of each input URL: the URL canonicalized by a profile,
then written host first (a SURT, "Sort-friendly URI Reordering
Transform"), so that the captures of a site, a host and its subdomains
sort together. The default key is the "urlkey" of Wayback, pywb and
cdxj-indexer CDX lines, internetarchive/surt's surt.surt(url):

  http://www.archive.org/goo/?a=2&b&a=1   org,archive)/goo?a=1&a=2&b

The scheme is dropped; an empty line is "-"; "dns:" URLs and the
"filedesc"/"warcinfo" header records of ARC and WARC files are their own
key. --with-scheme gives Heritrix's form, --ssurt urlcanon's SSURT, which
reads back into the canonical URL. The lax profiles (ia, google,
semantic-precise, aggressive) read any line and fail only on a port that
is not a number; whatwg fails where the URL Standard does, rfc3986 and
none on what is not an absolute RFC 3986 URI. Package surt documents
each profile rule by rule, with its source.
`,
	output: `Output: the key, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		o, err := c.surtOptions(true)
		if err != nil {
			return nil, err
		}
		r := &keyResult{}
		return func(in string) (result, error) {
			b, err := o.AppendKey(r.b[:0], in)
			if err != nil {
				return nil, err
			}
			r.b = b
			return r, nil
		}, nil
	},
}

var canonCommand = &command{
	name:     "canon",
	summary:  "print each URL canonicalized by an archive's profile",
	synopsis: "[--profile P] [--keep-www] [--www-two-labels] [--keep-trailing-slash] [--json] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut,
	flags: []flagSpec{
		withExample(flagProfile, "uri canon --profile google 'http://host/%25%32%35'"),
		withExample(flagKeepWWW, "uri canon --keep-www 'http://www.example.com/a/'"),
		withExample(flagWWWTwoLabels, "uri canon --www-two-labels 'http://www1355544.com/'"),
		withExample(flagKeepSlash, "uri canon --keep-trailing-slash 'http://example.com/a/'"),
	},
	about: `Print each input URL canonicalized by a profile: the rules an archive,
a crawler or a blocklist pins so that the spellings of one URL share one
form (and one "uri surt" key). The profiles:

  ia                the Internet Archive's default (Wayback, pywb):
                    Safe Browsing's rules, then lowercase, "www"/"wwwN."
                    stripped, userinfo, default port, session ids,
                    fragment and trailing slash dropped, query sorted
  google            Google Safe Browsing v4: repeated unescaping, dotted,
                    octal and hex IPv4, TAB/CR/LF removed, no fragment
  whatwg            the URL Standard, as a browser's new URL(url).href
  semantic-precise  iipc/urlcanon: WHATWG plus decoding, dot clean-up,
                    collapsed slashes, no userinfo, query sorted
  aggressive        iipc/urlcanon: semantic-precise plus http for https,
                    "www" stripped, lowercase, session ids dropped
  rfc3986, none     RFC 3986 6.2.2-6.2.3 (as normalize), or unchanged

The result is a fixed point: canonicalized again, it is itself. An empty
line fails (it names no URL), under whatwg, rfc3986 and none as the input
of those parsers.
`,
	output: `Output: the canonical URL, one line per input; JSON {"input", "result"}.
`,
	start: func(c *call) (each, error) {
		o, err := c.surtOptions(false)
		if err != nil {
			return nil, err
		}
		r := &keyResult{}
		return func(in string) (result, error) {
			b, err := o.AppendCanonical(r.b[:0], in)
			if err != nil {
				return nil, err
			}
			r.b = b
			return r, nil
		}, nil
	},
}

// surtOptions returns the options the flags select; key says that they
// are those of a key (surt), which has a form.
func (c *call) surtOptions(key bool) (surt.Options, error) {
	var o surt.Options
	if c.has("profile") {
		p, err := surt.ParseProfile(c.str("profile", ""))
		if err != nil {
			var pe *surt.ProfileError
			if errors.As(err, &pe) {
				return o, usagef("flag --profile: want one of ia, google, whatwg, semantic-precise, aggressive, rfc3986, none; not %q", pe.Name)
			}
			return o, err
		}
		o.Profile = p
	}
	o.KeepWWW = c.has("keep-www")
	o.WWWTwoLabels = c.has("www-two-labels")
	o.KeepTrailingSlash = c.has("keep-trailing-slash")
	if !key {
		return o, nil
	}
	o.TrailingComma = c.has("trailing-comma")
	switch {
	case c.has("with-scheme") && c.has("ssurt"):
		return o, usagef("flags --with-scheme and --ssurt are two forms of the key: give one")
	case c.has("with-scheme"):
		o.Form = surt.Heritrix
	case c.has("ssurt"):
		o.Form = surt.SSURT
	}
	return o, nil
}
