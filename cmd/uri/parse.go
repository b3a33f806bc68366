package main

import (
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

var parseCommand = &command{
	name:     "parse",
	summary:  "split each input into its components",
	synopsis: "[--json] [--rfc 3986|2396] [--zone-id] [--whatwg [--base URL]] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | grammar | repairs,
	flags:    whatwgFlags("parse"),
	about: `Parse each input as a URI reference (an absolute URI or a relative
reference) and print its components. A URI whose scheme has rules of its
own must follow them too, the rules uri check applies: a "urn:" input
must be a URN of RFC 8141, an http URL needs a host name (RFC 9110
4.2.1), no port may be above 65535, ... An input that breaks them fails
with the error uri check gives it, as in every subcommand that reads
URIs: one input, one verdict.
`,
	output: `Plain output, one line per input: the defined components as KEY=VALUE
separated by spaces, in this order:
  scheme=S userinfo=U host=H host_type=T port=P path=P query=Q fragment=F
An undefined component is left out; an empty one is written "KEY=" (so
"foo://a/b?#" prints "... path=/b query= fragment=", and "foo://a/b" has
no query and no fragment). The path is always there, possibly empty.
Values are as written (not decoded); a valid URI holds no space.
host_type is ipv4, ipv6, ipvfuture or reg-name; host keeps the brackets
of an IP literal.

JSON output, one object per input:
  {"input", "scheme", "userinfo", "host", "host_type", "port", "path",
   "query", "fragment", "params", "scheme_data"}
with null for an undefined component and "" for an empty one (host and
host_type are null without an authority; path is never null). Values
are as written; "port" is the port as written, a string ("" for an
empty port, null for none). "params" is the query read as key=value
pairs, in order: an array of [name, value], decoded as HTML forms
decode them ("+" is a space), or null without a query.
"scheme_data" is what the URL means in its scheme, for the classic
schemes of the URL drafts (http, https, ftp, gopher, mailto, news, nntp,
telnet, rlogin, tn3270, wais, prospero, file, mid, cid) and for urn: for
example {"host", "port", "default_port", "request_target", ...} for
http, {"urn", "nid", "nss", "warnings"} for urn, with decoded values and
a password written "xxxxx" (the "userinfo" component has it as
written); null for other schemes.

With --whatwg: JSON {"input", "href", "origin", "protocol", "username",
"password", "host", "hostname", "port", "pathname", "search", "hash",
"errors"}, strings as the standard's URL getters return them, and
"errors" the names of the validation errors the parser met (the
repairs it made); plain "href=H origin=O ... hash=H errors=E1,E2". An
input the standard rejects prints {"input", "error"} (plain "error:
OFFSET: NAME"), with the name of the failing validation error.
`,
	start: func(c *call) (each, error) {
		if fn, err := whatwgStart(c, false); fn != nil || err != nil {
			return fn, err
		}
		return func(in string) (result, error) {
			u, err := c.parseURI(in)
			if err != nil {
				return nil, err
			}
			return c.components(u), nil
		}, nil
	},
}

// params writes "params": the query's key=value pairs in order, each
// [name, value] decoded as HTML forms decode them ("+" is a space;
// uri.Params), or null when there is no query. A pair without "=" has
// the value "".
func (w *writer) params(u uri.URI) {
	w.Key("params")
	if !u.HasQuery() {
		w.B = append(w.B, "null"...)
		return
	}
	w.B = append(w.B, '[')
	for i, q := range u.QueryParams().All() {
		if i > 0 {
			w.B = append(w.B, ',')
		}
		w.B = append(w.B, '[')
		w.B = appendJSONString(w.B, q.Key())
		w.B = append(w.B, ',')
		w.B = appendJSONString(w.B, q.Value())
		w.B = append(w.B, ']')
		w.spill()
	}
	w.B = append(w.B, ']')
}

// schemeData writes "scheme_data", the typed view of the URL's scheme
// (package scheme: http, ftp, gopher, mailto, urn, ...), or null for a
// scheme without one. The view reads every URL the command accepts
// (parseURI checked its rules, which are the view's); should it not,
// null and "scheme_error" with the reason say so rather than nothing.
func (w *writer) schemeData(u uri.URI) {
	w.Key("scheme_data")
	b, err := scheme.AppendJSON(w.B, u)
	if err != nil {
		w.B = append(w.B, "null"...)
		_, reason := describe(u.String(), err)
		w.Str("scheme_error", reason)
		return
	}
	w.B = b
}

// components writes the components of u: plain "scheme=S ... path=P
// ...", undefined components left out; JSON with null for them.
func (w *writer) components(u uri.URI) {
	if w.json {
		if u.String() == w.in {
			// The common case: the components are slices of the
			// input, and a string that parsed as a URI reference
			// needs no JSON escaping (no control, no non-ASCII, no
			// '"' or '\' in either grammar: RFC 3986 2, the 1998
			// draft's 2.4.3), so the parse proved it already
			// (TestParsedIsJSONSafe).
			b := append(w.B, `{"input":"`...)
			b = append(b, w.in...)
			b = append(b, '"')
			if len(b) > blockSize { // a long line: no copy held whole
				w.Written(b)
				w.spill()
				b = w.B
			}
			b = appendSafe(b, `,"scheme":`, u.Scheme(), u.HasScheme())
			b = appendSafe(b, `,"userinfo":`, u.Userinfo(), u.HasUserinfo())
			b = appendSafe(b, `,"host":`, u.Host(), u.HasAuthority())
			b = appendSafe(b, `,"host_type":`, u.HostKind().String(), u.HasAuthority())
			b = appendSafe(b, `,"port":`, u.Port(), u.HasPort())
			b = appendSafe(b, `,"path":`, u.Path(), true)
			w.Written(b)
			w.spill()
			b = appendSafe(w.B, `,"query":`, u.Query(), u.HasQuery())
			b = appendSafe(b, `,"fragment":`, u.Fragment(), u.HasFragment())
			w.Written(b)
			w.spill()
			w.params(u)
			w.spill()
			w.schemeData(u)
			w.end()
			return
		}
		// A repaired input, or an edited URI: each part may be long.
		w.begin()
		w.Opt("scheme", u.Scheme(), u.HasScheme())
		w.longOpt("userinfo", u.Userinfo(), u.HasUserinfo())
		w.longOpt("host", u.Host(), u.HasAuthority())
		w.Opt("host_type", u.HostKind().String(), u.HasAuthority())
		w.longOpt("port", u.Port(), u.HasPort())
		w.longStr("path", u.Path())
		w.longOpt("query", u.Query(), u.HasQuery())
		w.longOpt("fragment", u.Fragment(), u.HasFragment())
		w.params(u)
		w.spill()
		w.schemeData(u)
		w.spill()
		w.end()
		return
	}
	sep := false
	kv := func(key, val string) {
		if sep {
			w.B = append(w.B, ' ')
		}
		sep = true
		w.B = append(w.B, key...)
		w.B = append(w.B, '=')
		w.B = append(w.B, val...)
	}
	if u.HasScheme() {
		kv("scheme", u.Scheme())
	}
	if u.HasUserinfo() {
		kv("userinfo", u.Userinfo())
	}
	if u.HasAuthority() {
		kv("host", u.Host())
		kv("host_type", u.HostKind().String())
	}
	if u.HasPort() {
		kv("port", u.Port())
	}
	kv("path", u.Path())
	if u.HasQuery() {
		kv("query", u.Query())
	}
	if u.HasFragment() {
		kv("fragment", u.Fragment())
	}
	w.B = append(w.B, '\n')
}
