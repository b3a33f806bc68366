package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

var editCommand = &command{
	name:     "edit",
	summary:  "change components of each input: set, clear, query operations",
	synopsis: "[OPERATIONS] [--query-separator C] [--json] [--rfc 3986|2396] [--dots keep|drop|reject] [--zone-id] [-f FILE]... [INPUT...]\n       uri edit --new [OPERATIONS] [--json]",
	traits:   inputs | jsonOut | grammar | repairs,
	flags: []flagSpec{
		{long: "set", arg: "COMPONENT=VALUE", repeat: true,
			help:    "set a component to VALUE, decoded text that is percent-encoded\nas the component needs; COMPONENT:=VALUE takes VALUE as\nwritten, and fails if it is not valid there. COMPONENT is\nscheme, user, password, userinfo, host, port, path, query or\nfragment; \"port=\" removes the port, \"query=\" makes the\nquery empty",
			example: "uri edit --set port=8080 --set 'path=/a b' http://example.com/"},
		{long: "clear", arg: "COMPONENT", repeat: true,
			help:    "remove a component (undefined, not empty); clearing host\nremoves the whole authority",
			example: "uri edit --clear fragment --clear password 'http://u:pw@example.com/#top'"},
		{long: "append", arg: "path=SEGMENT|query=KEY=VALUE", repeat: true,
			help:    "add one path segment (encoded, a \"/\" in it too), or one\nkey=value pair at the end of the query",
			example: "uri edit --append path=v2 --append 'query=lang=en us' http://example.com/api"},
		{long: "replace", arg: "query=KEY=VALUE", repeat: true,
			help:    "put KEY=VALUE in place of the first pair with that decoded key\nand remove the other pairs of that key, or add it at the end\nwhen there is none (trurl's --replace and --replace-append)",
			example: "uri edit --replace query=page=4 'http://example.com/list?x=1&page=3&y=2'"},
		{long: "trim", arg: "query=GLOB", repeat: true,
			help:    "remove every query pair whose decoded key matches the shell\nwildcard GLOB (* ? [...])",
			example: "uri edit --trim 'query=utm_*' 'http://example.com/?id=7&utm_source=mail'"},
		{long: "keep", arg: "query=GLOB", repeat: true,
			help:    "keep only the query pairs whose decoded key matches GLOB",
			example: "uri edit --keep query=id 'http://example.com/?id=7&ref=x'"},
		{long: "sort-query",
			help:    "sort the query pairs by key, then value (stable: equal pairs\nkeep their order)",
			example: "uri edit --sort-query 'http://example.com/?b=2&a=1'"},
		{long: "default-port",
			help:    "write the scheme's default port when there is none",
			example: "uri edit --default-port https://example.com/"},
		{long: "no-default-port",
			help:    "remove a port that is the scheme's default",
			example: "uri edit --no-default-port http://example.com:80/"},
		{long: "redirect", arg: "REF",
			help:    "follow REF as an HTTP client follows a Location header (RFC\n9110 10.2.2): resolve it against the edited URI (RFC 3986 5.2,\nor the 1998 draft with --rfc 2396, as uri resolve does); a REF\nwithout a fragment inherits the input's; a result that is not\nan http or https URL with a host fails the input, unless\n--allow-any-scheme",
			example: "uri edit --redirect ../c http://example.com/a/b#top"},
		withExample(flagDots, "uri edit --rfc 2396 --dots drop --redirect ../../../g http://a/b/c/d"),
		{long: "allow-any-scheme",
			help:    "with --redirect, accept a result of any scheme",
			example: "uri edit --allow-any-scheme --redirect ftp://f.example/x http://example.com/"},
		{long: "query-separator", arg: "C",
			help:    "the character between query pairs for --replace, --append,\n--trim, --keep and --sort-query (\"&\" by default; \";\" for\nqueries such as \"search=fool;page=5\")",
			example: "uri edit --query-separator ';' --trim query=search 'https://curl.se/?search=fool;page=5'"},
		{long: "new",
			help:    "no inputs: build one URI from the operations alone, starting\nfrom the empty reference",
			example: "uri edit --new --set scheme=ftp --set host=example.com --set path=/pub/f.txt"},
	},
	about: `Edit each input and print the result. The operations apply in this
order, whatever their order on the command line: --set (in the order
given), --clear, --trim, --keep, --replace, --append, --sort-query,
--default-port or --no-default-port, --redirect. So "--trim query=page
--append query=page=4" ends with page=4. Components that no operation
touches keep their text byte for byte. Query pairs are decoded as HTML
forms decode them ("+" is a space).

The result is always a valid URI reference: where an edit would break the
grammar, the reference is composed the way RFC 3986 section 5.3 does and
repaired (a path after an authority gets its leading "/"; a path starting
with "//" without an authority gets "/." in front; a relative path whose
first segment holds a ":" gets "./"). An input that is not a URI
reference, or an edit that cannot apply to it, fails that input.
`,
	output: `Output: the edited URI, one line per input. JSON: the object of
"uri parse --json" for the edited URI (with "input" the input as given).
`,
	start: startEdit,
}

// An editOp is one operation of the command line, checked once.
type editOp struct {
	kind  string // set, clear, append-path, append-query, trim, keep, replace
	comp  string // set, clear: the component name
	raw   bool   // set: COMPONENT:=VALUE
	value string
	key   string // append-query
}

// editComponents are the components --set and --clear name: the
// names of the Editor's parts, and user and password inside the
// userinfo.
var editComponents = func() map[string]uri.Part {
	m := map[string]uri.Part{"user": uri.PartUserinfo, "password": uri.PartUserinfo}
	for p := uri.PartScheme; p <= uri.PartFragment; p++ {
		m[p.String()] = p
	}
	return m
}()

func startEdit(c *call) (each, error) {
	var ops []editOp
	for _, s := range c.vals["set"] {
		name, val, ok := strings.Cut(s, "=")
		if !ok {
			return nil, usagef("flag --set: want COMPONENT=VALUE or COMPONENT:=VALUE, not %q", s)
		}
		op := editOp{kind: "set", comp: name, value: val}
		if n, isRaw := strings.CutSuffix(name, ":"); isRaw {
			op.comp, op.raw = n, true
		}
		if _, ok := editComponents[op.comp]; !ok {
			return nil, usagef("flag --set: unknown component %q (want scheme, user, password, userinfo, host, port, path, query or fragment)", op.comp)
		}
		ops = append(ops, op)
	}
	for _, s := range c.vals["clear"] {
		if _, ok := editComponents[s]; !ok {
			return nil, usagef("flag --clear: unknown component %q", s)
		}
		ops = append(ops, editOp{kind: "clear", comp: s})
	}
	for _, kind := range []string{"trim", "keep"} {
		for _, s := range c.vals[kind] {
			g, ok := strings.CutPrefix(s, "query=")
			if !ok {
				return nil, usagef("flag --%s: want query=GLOB, not %q", kind, s)
			}
			var p uri.Params
			if err := p.Trim(g); err != nil {
				return nil, usagef("flag --%s: %v: %q", kind, err, g)
			}
			ops = append(ops, editOp{kind: kind, value: g})
		}
	}
	for _, s := range c.vals["replace"] {
		kv, ok := strings.CutPrefix(s, "query=")
		if !ok {
			return nil, usagef("flag --replace: want query=KEY=VALUE, not %q", s)
		}
		k, v, _ := strings.Cut(kv, "=")
		ops = append(ops, editOp{kind: "replace", key: k, value: v})
	}
	for _, s := range c.vals["append"] {
		switch name, val, _ := strings.Cut(s, "="); name {
		case "path":
			ops = append(ops, editOp{kind: "append-path", value: val})
		case "query":
			k, v, _ := strings.Cut(val, "=")
			ops = append(ops, editOp{kind: "append-query", key: k, value: v})
		default:
			return nil, usagef("flag --append: want path=SEGMENT or query=KEY=VALUE, not %q", s)
		}
	}
	var sep byte
	if c.has("query-separator") {
		v := c.str("query-separator", "")
		if len(v) != 1 || !validQuerySep(v[0]) {
			return nil, usagef("flag --query-separator: want one of ! $ & ' ( ) * + , ; : @ / ?, not %q", v)
		}
		sep = v[0]
	}
	if c.has("allow-any-scheme") && !c.has("redirect") {
		return nil, usagef("flag --allow-any-scheme applies to --redirect only")
	}
	if c.has("dots") && !c.has("redirect") {
		return nil, usagef("flag --dots applies to --redirect only")
	}
	dots, err := c.dotPolicy()
	if err != nil {
		return nil, err
	}
	if c.has("default-port") && c.has("no-default-port") {
		return nil, usagef("flags --default-port and --no-default-port exclude each other")
	}
	var redirect *uri.URI
	if c.has("redirect") {
		r, err := uri.ParseWith(c.str("redirect", ""), c.opts)
		if err != nil {
			off, reason := describe(c.str("redirect", ""), err)
			return nil, usagef("flag --redirect: invalid reference: error: %d: %s", off, reason)
		}
		redirect = &r
	}
	if c.has("new") {
		if len(c.args) > 0 || len(c.files) > 0 {
			return nil, usagef("flag --new takes no inputs")
		}
		c.args = []string{""} // one input: the empty reference
	}
	// The values do not depend on the input: check them once, on the
	// empty reference, so that a bad one is a usage error.
	if _, err := applyEdits(uri.URI{}.Edit(), ops, false, sep); err != nil {
		var be *uri.BuildError
		if errors.As(err, &be) {
			return nil, usagef("flag --set: %s", strings.TrimPrefix(err.Error(), "uri: edit: "))
		}
		return nil, usagef("%v", err)
	}
	var e uri.Editor
	sortQuery := c.has("sort-query")
	portOps := c.has("default-port") || c.has("no-default-port")
	// queryOnly says that the operations only trim, keep or sort query
	// pairs, which leaves a URI without a query as it is.
	queryOnly := !portOps && redirect == nil
	for _, op := range ops {
		queryOnly = queryOnly && (op.kind == "trim" || op.kind == "keep")
	}
	// apply makes the URI the operations make of u.
	apply := func(u uri.URI) (uri.URI, error) {
		if queryOnly && !u.HasQuery() {
			return u, nil // the input, which parseURI has checked
		}
		e.Reset(u)
		v, err := applyEdits(&e, ops, sortQuery, sep)
		if err != nil {
			return v, err
		}
		if portOps {
			if v, err = portEdits(c, v); err != nil {
				return v, err
			}
		}
		if redirect != nil {
			if v, err = followRedirect(c, v, *redirect, dots); err != nil {
				return v, err
			}
		}
		// The result must follow the rules of its scheme as an input
		// must ("--set scheme=https" on a reference without a host
		// gives no https URL): the one check of a new URI, what uri
		// check refuses (a URN's syntax included). A result that is
		// the input as it was (a --trim that found nothing to trim)
		// is no new URI: parseURI has checked it.
		if v.String() == u.String() {
			return v, nil
		}
		if err := scheme.Check(v); err != nil {
			return v, fmt.Errorf("the result %s: %w", quoteOther(v.String(), 0), err)
		}
		return v, nil
	}
	return func(in string) (result, error) {
		u, changes, err := c.parseURI(in)
		if err != nil {
			return nil, err
		}
		v, err := apply(u)
		if err != nil {
			return nil, withRepairs(err, changes)
		}
		return c.edited(v, changes), nil
	}, nil
}

// validQuerySep reports whether c can separate query pairs (the
// delimiters uri.Params.WithSeparator takes).
func validQuerySep(c byte) bool { return strings.IndexByte("!$&'()*+,;:@/?", c) >= 0 }

// followRedirect resolves the Location loc against the request URI v as
// RFC 9110 10.2.2 says a client does, including its rule that a Location
// without a fragment inherits the request's fragment; a result a client
// would not follow (not http or https, or without a host: RFC 9110 4.2.1
// and 4.2.2 say such an http URI is invalid) fails the input unless
// --allow-any-scheme. With --rfc 2396 it resolves as the draft's
// section 5.2 does, a ".." above the root as dots says (kept by
// default, as its Appendix C.2 shows: "../../../g" against
// "http://a/b/c/d;p?q" gives "http://a/../g"), the same as uri resolve.
func followRedirect(c *call, v, loc uri.URI, dots uri.DotPolicy) (uri.URI, error) {
	if !v.HasScheme() {
		return v, errors.New("--redirect needs an input with a scheme (RFC 3986 5.1)")
	}
	var r uri.URI
	if c.opts.Grammar == uri.RFC2396 {
		var err error
		if r, err = v.Resolve2396(loc, dots); err != nil {
			return v, err
		}
	} else {
		r = v.Resolve(loc)
	}
	if !loc.HasFragment() && v.HasFragment() && !r.HasFragment() {
		var err error
		if r, err = r.Edit().SetRaw(uri.PartFragment, v.Fragment()).URI(); err != nil {
			return v, err
		}
	}
	if !c.has("allow-any-scheme") {
		switch s := strings.ToLower(r.Scheme()); {
		case s != "http" && s != "https":
			return v, fmt.Errorf("--redirect: the result %s is not an http or https URL (RFC 9110 10.2.2; --allow-any-scheme follows it)", quoteOther(r.String(), 0))
		case !r.HasAuthority() || r.Host() == "":
			return v, fmt.Errorf("--redirect: the result %s has no host (RFC 9110 4.2.1: an http URI without a host is invalid)", quoteOther(r.String(), 0))
		}
	}
	return r, nil
}

// applyEdits applies the operations, in their order, to e; sep, when not
// 0, separates the query pairs.
func applyEdits(e *uri.Editor, ops []editOp, sortQuery bool, sep byte) (uri.URI, error) {
	params := func() uri.Params {
		if sep != 0 {
			return e.Params().WithSeparator(sep)
		}
		return e.Params()
	}
	for _, op := range ops {
		switch op.kind {
		case "set":
			setComponent(e, op)
		case "clear":
			switch op.comp {
			case "password":
				e.ClearPassword()
			case "user":
				e.Clear(uri.PartUserinfo)
			default:
				e.Clear(editComponents[op.comp])
			}
		case "append-path":
			e.AppendSegment(op.value)
		case "append-query":
			p := params()
			p.Add(op.key, op.value)
			e.SetParams(p)
		case "replace":
			p := params()
			p.Set(op.key, op.value)
			e.SetParams(p)
		case "trim":
			p := params()
			p.Trim(op.value)
			e.SetParams(p)
		case "keep":
			p := params()
			p.Keep(op.value)
			e.SetParams(p)
		}
	}
	if sortQuery {
		p := params()
		p.Sort()
		e.SetParams(p)
	}
	return e.URI()
}

// setComponent applies one --set.
func setComponent(e *uri.Editor, op editOp) {
	if op.raw {
		switch op.comp {
		case "user":
			e.SetRawUser(op.value)
		case "password":
			e.SetRawPassword(op.value)
		default:
			e.SetRaw(editComponents[op.comp], op.value)
		}
		return
	}
	switch op.comp {
	case "scheme":
		e.SetScheme(op.value)
	case "user":
		e.SetUser(op.value)
	case "password":
		e.SetPassword(op.value)
	case "userinfo":
		e.SetUserinfo(op.value)
	case "host":
		// A DNS name: the IDNA form RFC 3986 3.2.2 recommends (a name
		// iri cannot map, and an address, go to the editor as given).
		if a, err := iri.HostToASCII(op.value); err == nil && !isASCII(op.value) {
			op.value = a
		}
		e.SetHost(op.value)
	case "port":
		e.SetPort(op.value)
	case "path":
		e.SetPath(op.value)
	case "query":
		e.SetQuery(op.value)
	case "fragment":
		e.SetFragment(op.value)
	}
}

// portEdits applies --default-port or --no-default-port, with the
// default port of the edited URI's scheme.
func portEdits(c *call, v uri.URI) (uri.URI, error) {
	if c.has("default-port") {
		return c.reg.AddDefaultPort(v)
	}
	return c.reg.DropDefaultPort(v)
}
