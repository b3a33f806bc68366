package surt

import (
	"errors"
	"strings"

	"github.com/urikit/urikit/uri"
)

// SSURT, urlcanon's "Superior SURT" (ssurt.rst of iipc/urlcanon):
//
//	scheme://userinfo@domain.tld:port/path?query#fragment
//	tld,domain,//port:scheme@userinfo:/path?query#fragment
//
// The host comes first, reversed, each label followed by a comma and the
// commas inside a label written as dots; an IPv4 address, an IP literal
// and an empty host stay as they are. Then "//", the port and ":" when
// the URL has a port, the scheme, "@" and the userinfo when it has one,
// ":" and the rest as it is. A URL without an authority is written as it
// is. Unlike the Heritrix form it keeps every component, so it can be
// read back (ParseSSURT), and a prefix of it selects a host with its
// subdomains whatever the scheme ("au,gov,nla," matches *.nla.gov.au).

// appendSSURT writes the SSURT form.
func (p *parts) appendSSURT(dst []byte) []byte {
	if !p.host.ok {
		return p.appendURL(dst)
	}
	h := p.get(p.host)
	if _, ip := parseIPv4(h, true); len(h) == 0 || ip || h[0] == '[' {
		dst = append(dst, h...)
	} else {
		dst = appendReversed(dst, h, true, true)
	}
	dst = append(dst, '/', '/')
	if p.port.ok {
		dst = append(dst, p.get(p.port)...)
		dst = append(dst, ':')
	}
	dst = append(dst, p.get(p.scheme)...)
	if p.user.ok {
		dst = append(dst, '@')
		dst = append(dst, p.get(p.user)...)
		if p.pass.ok {
			dst = append(dst, ':')
			dst = append(dst, p.get(p.pass)...)
		}
	}
	dst = append(dst, ':')
	return p.appendRest(dst)
}

// ErrSSURT is the reason of ParseSSURT's errors.
var ErrSSURT = errors.New("not an SSURT")

// ParseSSURT returns the URL that the SSURT key was made of: the inverse
// of the SSURT form. For every URL s that a profile accepts,
// ParseSSURT of its SSURT key is its canonical URL (Options.Canonicalize).
//
// The key is read from the left: the host ends at the first "/" or ":"
// (after the "]" of an IP literal) and is followed by "//", or the key
// has no authority and is its own URL ("mailto:x"). After "//" a run
// followed by ":" and a letter is the port; the scheme runs to "@" or
// ":"; a userinfo runs from "@" to the ":" before the path, which starts
// with "/", "?", "#" or is empty. A key that does not fit returns a
// *uri.ParseError with the offset where it stops fitting and ErrSSURT.
func ParseSSURT(key string) (string, error) {
	fail := func(off int, c uri.Component) (string, error) {
		return "", uri.NewParseError(key, off, c, ErrSSURT)
	}
	h := 0
	if strings.HasPrefix(key, "[") {
		h = strings.IndexByte(key, ']')
		if h < 0 {
			return fail(len(key), uri.ComponentHost)
		}
		h++
	} else {
		for h < len(key) && key[h] != '/' && key[h] != ':' {
			h++
		}
	}
	if !strings.HasPrefix(key[h:], "//") {
		// No authority: the key is scheme ":" rest.
		if e := schemeEnd(key); e < 0 {
			return fail(0, uri.ComponentScheme)
		}
		return key, nil
	}
	host := key[:h]
	i := h + 2
	j := i
	for j < len(key) && key[j] != ':' && key[j] != '@' {
		j++
	}
	if j == len(key) {
		return fail(j, uri.ComponentScheme)
	}
	port, hasPort := "", false
	if key[j] == ':' && j+1 < len(key) && isAlpha(key[j+1]) {
		port, hasPort = key[i:j], true
		i = j + 1
		for j = i; j < len(key) && key[j] != ':' && key[j] != '@'; j++ {
		}
		if j == len(key) {
			return fail(j, uri.ComponentScheme)
		}
	}
	scheme := key[i:j]
	if schemeEnd(scheme+":") != len(scheme) {
		return fail(i, uri.ComponentScheme)
	}
	userinfo, hasUser := "", false
	rest := j + 1
	if key[j] == '@' {
		r := j + 1
		for r < len(key) && key[r] != '/' && key[r] != '?' && key[r] != '#' {
			r++
		}
		if r-1 < j+1 || key[r-1] != ':' {
			return fail(r, uri.ComponentUserinfo)
		}
		userinfo, hasUser = key[j+1:r-1], true
		rest = r
	}
	if rest < len(key) && key[rest] != '/' && key[rest] != '?' && key[rest] != '#' {
		return fail(rest, uri.ComponentPath)
	}
	var b strings.Builder
	b.Grow(len(key) + 4)
	b.WriteString(scheme)
	b.WriteString("://")
	if hasUser {
		b.WriteString(userinfo)
		b.WriteByte('@')
	}
	if strings.HasSuffix(host, ",") {
		b.Write(unreverse([]byte(host[:len(host)-1])))
	} else {
		b.WriteString(host)
	}
	if hasPort {
		b.WriteByte(':')
		b.WriteString(port)
	}
	b.WriteString(key[rest:])
	return b.String(), nil
}

// unreverse undoes appendReversed with swap: "org,example,a.b" (without
// the final comma) is "a,b.example.org".
func unreverse(r []byte) []byte {
	out := make([]byte, 0, len(r))
	end := len(r)
	for k := len(r) - 1; k >= -1; k-- {
		if k >= 0 && r[k] != ',' {
			continue
		}
		for _, c := range r[k+1 : end] {
			if c == '.' {
				c = ','
			}
			out = append(out, c)
		}
		if k >= 0 {
			out = append(out, '.')
		}
		end = k
	}
	return out
}
