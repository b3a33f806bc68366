package main

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
		// The URI and its repairs go straight into the result's box,
		// not into a composite value first (the copy of that loads
		// what was just stored, in other widths, and stalls).
		r := &c.box.components
		return func(in string) (result, error) {
			var err error
			if r.u, r.repairs, err = c.parseURI(in); err != nil {
				return nil, err
			}
			return r, nil
		}, nil
	},
}
