package main

import (
	"strconv"
	"strings"

	"github.com/urikit/urikit/surt"
	"github.com/urikit/urikit/uri"
)

var getCommand = &command{
	name:     "get",
	summary:  "print components of each input through a template",
	synopsis: "TEMPLATE [--json] [--rfc 3986|2396] [--zone-id] [-f FILE]... [INPUT...]",
	traits:   inputs | jsonOut | grammar | repairs,
	params:   []string{"TEMPLATE"},
	about: `Print TEMPLATE once per input, its placeholders filled in with the
input's components (the placeholders of curl's trurl, which many know):

  {scheme} {user} {password} {userinfo} {host} {port} {path} {query}
  {fragment}     the component, percent-decoded
  {:scheme} ... {:fragment}
                 the component exactly as written
  {url}          the whole reference as written
  {query:KEY}    the first value of KEY in the query, decoded ("+" is a
                 space, as in HTML forms)
  {query-all:KEY}
                 every value of KEY, joined by a space
  {default:port} the port, or the scheme's default port (http 80, ...)
  {site}         the host's registrable domain (its public suffix and one
                 label more: "a.b.github.io" is "b.github.io"), under the
                 whole Public Suffix List, as browsers use it
  {site:icann}   the same under the list's ICANN section alone
                 ("a.b.github.io" is "github.io")
  {suffix} {suffix:icann}
                 the host's public suffix ("github.io", "io")
  {{ and }}      a literal "{" and "}"

An undefined component, a KEY that the query does not have, and the site
of a host that has none (an IP address, a public suffix itself: "co.uk")
give the empty string. The list is the one compiled into
golang.org/x/net/publicsuffix; a host is read decoded, without case, an
IDN in either form. A "urn:" input must be a URN of RFC 8141.
`,
	output: `Plain output: the filled-in template, one line per input; a decoded line
feed is written as the two characters \n and a carriage return as \r, so
that every input keeps one line. JSON output, one object per input: "input",
then one key per placeholder of the template, named as in it ("host",
":host", "query:KEY", ...), with null where the plain output has the empty
string for something undefined.
`,
	start: func(c *call) (each, error) {
		t, err := parseTemplate(c.params[0])
		if err != nil {
			return nil, err
		}
		return func(in string) (result, error) {
			u, changes, err := c.parseURI(in)
			if err != nil {
				return nil, err
			}
			return c.filled(t, u, changes), nil
		}, nil
	},
}

// A template is literal text and placeholders, in order.
type template struct {
	pieces []tpiece
	keys   []tpiece // the distinct placeholders, for JSON
}

type tpiece struct {
	lit  string // literal text, when name is ""
	name string // the placeholder as written inside the braces
	kind tkind
	arg  string // the KEY of query:KEY
}

type tkind uint8

const (
	tLiteral tkind = iota
	tScheme
	tUser
	tPassword
	tUserinfo
	tHost
	tPort
	tPath
	tQuery
	tFragment
	tURL
	tQueryKey
	tQueryAll
	tDefaultPort
	tSite
	tSiteICANN
	tSuffix
	tSuffixICANN
)

var placeholders = map[string]tkind{
	"scheme": tScheme, "user": tUser, "password": tPassword, "userinfo": tUserinfo,
	"host": tHost, "port": tPort, "path": tPath, "query": tQuery, "fragment": tFragment,
	"url": tURL, "default:port": tDefaultPort,
	"site": tSite, "site:icann": tSiteICANN, "suffix": tSuffix, "suffix:icann": tSuffixICANN,
}

// parseTemplate reads a template; an unknown placeholder or a lone
// brace is a usage error.
func parseTemplate(s string) (*template, error) {
	t := &template{}
	var lit strings.Builder
	seen := map[string]bool{}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' && i+1 < len(s) && s[i+1] == '{', c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte(c)
			i++
		case c == '}':
			return nil, usagef("template: a lone \"}\" at offset %d (write \"}}\" for a brace)", i)
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, usagef("template: unclosed \"{\" at offset %d", i)
			}
			name := s[i+1 : i+end]
			p, err := placeholder(name)
			if err != nil {
				return nil, err
			}
			if lit.Len() > 0 {
				t.pieces = append(t.pieces, tpiece{lit: lit.String()})
				lit.Reset()
			}
			t.pieces = append(t.pieces, p)
			if !seen[name] {
				seen[name] = true
				t.keys = append(t.keys, p)
			}
			i += end
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 {
		t.pieces = append(t.pieces, tpiece{lit: lit.String()})
	}
	return t, nil
}

func placeholder(name string) (tpiece, error) {
	p := tpiece{name: name}
	if k, ok := strings.CutPrefix(name, "query:"); ok {
		p.kind, p.arg = tQueryKey, k
		return p, nil
	}
	if k, ok := strings.CutPrefix(name, "query-all:"); ok {
		p.kind, p.arg = tQueryAll, k
		return p, nil
	}
	raw := strings.HasPrefix(name, ":")
	kind, ok := placeholders[strings.TrimPrefix(name, ":")]
	if !ok || raw && (kind == tURL || kind >= tDefaultPort) {
		return p, usagef("template: unknown placeholder {%s}", name)
	}
	p.kind, p.arg = kind, map[bool]string{true: "raw"}[raw]
	return p, nil
}

// value returns the placeholder's text for u, and whether it is defined.
func (p tpiece) value(c *call, u uri.URI) (string, bool) {
	raw := p.arg == "raw"
	dec := func(s string, ok bool) (string, bool) {
		if raw || strings.IndexByte(s, '%') < 0 {
			return s, ok
		}
		d, err := uri.Unescape(s)
		if err != nil {
			return s, ok
		}
		return d, ok
	}
	switch p.kind {
	case tScheme:
		return u.Scheme(), u.HasScheme()
	case tUser:
		return dec(u.User())
	case tPassword:
		return dec(u.Password())
	case tUserinfo:
		return dec(u.Userinfo(), u.HasUserinfo())
	case tHost:
		return dec(u.Host(), u.HasAuthority())
	case tPort:
		return u.Port(), u.HasPort()
	case tPath:
		return dec(u.Path(), true)
	case tQuery:
		return dec(u.Query(), u.HasQuery())
	case tFragment:
		return dec(u.Fragment(), u.HasFragment())
	case tURL:
		return u.String(), true
	case tDefaultPort:
		if u.HasPort() && u.Port() != "" {
			return u.Port(), true
		}
		if n, ok := c.reg.DefaultPort(u.Scheme()); ok {
			return strconv.Itoa(n), true
		}
		return "", false
	case tSite, tSiteICANN, tSuffix, tSuffixICANN:
		return hostKey(p.kind, u)
	case tQueryKey:
		q, ok := u.QueryParams().Lookup(p.arg)
		return q.Value(), ok
	case tQueryAll:
		// Joined as they come, in one string no longer than the query
		// (a value decoded is no longer than written, a space takes
		// the place of an "&"), not collected first: a query of a
		// million pairs is not a million strings (issue 26).
		var b strings.Builder
		found := false
		for _, q := range u.QueryParams().All() {
			if q.Key() == p.arg {
				if !found {
					b.Grow(len(u.Query()))
				} else {
					b.WriteByte(' ')
				}
				found = true
				b.WriteString(q.Value())
			}
		}
		return b.String(), found
	}
	return "", false
}

// hostKey returns the registrable domain or the public suffix of u's
// host (package surt, on the Public Suffix List), decoded, and whether it
// has one: an IP address, an empty host or a host that is a public
// suffix itself has no site, and only a domain name has a suffix.
func hostKey(kind tkind, u uri.URI) (string, bool) {
	if !u.HasAuthority() {
		return "", false
	}
	h := u.Host()
	if strings.IndexByte(h, '%') >= 0 {
		d, err := uri.Unescape(h)
		if err != nil {
			return "", false
		}
		h = d
	}
	switch kind {
	case tSite:
		return surt.Site(h)
	case tSiteICANN:
		return surt.SiteICANN(h)
	case tSuffix:
		s, _ := surt.PublicSuffix(h)
		return s, s != ""
	}
	s := surt.PublicSuffixICANN(h)
	return s, s != ""
}
