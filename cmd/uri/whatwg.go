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
			return render(func(w *writer) { w.whatwgFailure(err) }), errRefused
		}
		switch {
		case normalize:
			return c.text(u.Href()), nil
		case c.json:
			return render(func(w *writer) { w.whatwgJSON(u) }), nil
		}
		return render(func(w *writer) { w.whatwgPlain(u) }), nil
	}, nil
}

// whatwgJSON writes {"input", "href", "origin", "protocol", "username",
// "password", "host", "hostname", "port", "pathname", "search", "hash",
// "errors"}: the getters of the standard's URL class, and the names of
// the validation errors.
func (w *writer) whatwgJSON(u whatwg.URL) {
	w.begin()
	// Any of them may be as long as the input, or three times as long
	// percent-encoded: each is written a block at a time (longStr).
	w.longStr("href", u.Href())
	w.longStr("origin", u.Origin())
	w.Str("protocol", u.Protocol())
	w.longStr("username", u.Username())
	w.longStr("password", u.Password())
	w.longStr("host", u.Host())
	w.longStr("hostname", u.Hostname())
	w.Str("port", u.Port())
	w.longStr("pathname", u.Pathname())
	w.longStr("search", u.Search())
	w.longStr("hash", u.Hash())
	errs := u.Errors()
	names := make([]string, len(errs))
	for i, e := range errs {
		names[i] = e.String()
	}
	w.Strs("errors", names)
	w.end()
}

// whatwgPlain writes "href=H origin=O ... errors=E1,E2" on one line.
func (w *writer) whatwgPlain(u whatwg.URL) {
	kv := func(key, val string) {
		if key != "href" {
			w.B = append(w.B, ' ')
		}
		w.B = append(w.B, key...)
		w.B = append(w.B, '=')
		w.raw(val) // a block at a time
	}
	kv("href", u.Href())
	kv("origin", u.Origin())
	kv("protocol", u.Protocol())
	kv("username", u.Username())
	kv("password", u.Password())
	kv("host", u.Host())
	kv("hostname", u.Hostname())
	kv("port", u.Port())
	kv("pathname", u.Pathname())
	kv("search", u.Search())
	kv("hash", u.Hash())
	w.B = append(w.B, " errors="...)
	for i, e := range u.Errors() {
		if i > 0 {
			w.B = append(w.B, ',')
		}
		w.B = append(w.B, e.String()...)
	}
	w.B = append(w.B, '\n')
}

// whatwgFailure writes the line of an input the standard rejects:
// JSON {"input", "error"} with the validation error's name, or plain
// "error: OFFSET: NAME".
func (w *writer) whatwgFailure(err error) {
	name, off := err.Error(), -1
	if pe, ok := err.(*whatwg.ParseError); ok {
		name, off = pe.Err.String(), pe.Offset
	}
	w.dropLine()
	if w.json {
		w.begin()
		w.Str("error", name)
		w.end()
		return
	}
	w.errorLine(off, name)
}
