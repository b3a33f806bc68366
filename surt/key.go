package surt

import (
	"slices"
	"strings"

	"github.com/urikit/urikit/whatwg"
)

// Key returns the key of the URL s under the zero Options: the IA profile
// and the URLKey form, the urlkey of Wayback and pywb CDX lines, as
// internetarchive/surt's surt.surt(s):
//
//	Key("http://archive.org/goo/?a=2&b&a=1") == "org,archive)/goo?a=1&a=2&b"
func Key(s string) (string, error) { return Options{}.Key(s) }

// Key returns the key of the URL s: s canonicalized by o.Profile, written
// in o.Form. The URLKey and Heritrix forms pass the archive records that
// are not URLs through as the archive tools do: an empty input is "-", and
// an input that starts with "filedesc" (an ARC file header) or
// "warcinfo" (a WARC file header) is its own key. An input the profile
// cannot read returns an error: a *uri.ParseError for the lax profiles
// (a port that is not a number), the RFC3986 and None profiles, a
// *whatwg.ParseError for WHATWG.
func (o Options) Key(s string) (string, error) {
	var buf [256]byte
	b, err := o.AppendKey(buf[:0], s)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendKey appends the key of s to dst, as Key, and returns the extended
// buffer; on an error it returns dst unchanged. With a reused dst it
// allocates nothing for most URLs: it is the function for keying a
// stream.
func (o Options) AppendKey(dst []byte, s string) ([]byte, error) {
	if o.Form != SSURT {
		if blank(s) {
			return append(dst, '-'), nil
		}
		if strings.HasPrefix(s, "filedesc") || strings.HasPrefix(s, "warcinfo") {
			return append(dst, s...), nil
		}
	}
	st := getState()
	err := st.canonicalize(s, &o)
	if err == nil {
		p := &st.p
		dst = slices.Grow(dst, p.size()) // at once: a long key grows it once
		switch o.Form {
		case Heritrix:
			dst = p.appendHeritrix(dst)
		case SSURT:
			dst = p.appendSSURT(dst)
		default:
			dst = p.appendURLKey(dst, o.TrailingComma)
		}
	}
	putState(st)
	return dst, err
}

// Canonicalize returns the URL s canonicalized by profile p.
//
//	Canonicalize("http://www.Example.com:80/a/../b/?b=2&a=1#top", IA) == "http://example.com/b?a=1&b=2"
func Canonicalize(s string, p Profile) (string, error) {
	return Options{Profile: p}.Canonicalize(s)
}

// Canonicalize returns the URL s canonicalized by o.Profile, with the
// switches of o (o.Form plays no part). The result is a fixed point: it
// canonicalizes to itself, and it has the key of s.
func (o Options) Canonicalize(s string) (string, error) {
	var buf [256]byte
	b, err := o.AppendCanonical(buf[:0], s)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendCanonical appends the canonical URL of s to dst, as Canonicalize,
// and returns the extended buffer; on an error it returns dst unchanged.
func (o Options) AppendCanonical(dst []byte, s string) ([]byte, error) {
	if blank(s) && o.Profile != WHATWG && o.Profile != RFC3986 && o.Profile != None {
		return dst, ErrEmpty
	}
	if o.Profile == WHATWG {
		// The URL Standard's serialization is the canonical form: written
		// as the parser made it, not copied through the components
		// (whose SSURT key ParseSSURT reads back into this, tested).
		u, err := whatwg.Parse(s)
		if err != nil {
			return dst, err
		}
		return append(dst, u.Href()...), nil
	}
	st := getState()
	err := st.canonicalize(s, &o)
	if err == nil {
		dst = slices.Grow(dst, st.p.size())
		dst = st.p.appendURL(dst)
	}
	putState(st)
	return dst, err
}

// appendURLKey writes the URLKey form, as surt's handyurl.geturl_bytes
// with surt=True and with_scheme=False: the host's labels reversed and
// joined by commas (an IPv4 address too, as surt's reverse_ipaddr=True
// default; an IPv6 address without its brackets, as webarchive-commons),
// the port after a ":", an optional trailing comma, ")", then the path
// ("/" when it is empty and a query or fragment follows), the query and
// the fragment. A URL without a host is written scheme ":" path ...,
// as surt writes "mailto:" and "dns:" URLs.
func (p *parts) appendURLKey(dst []byte, trailingComma bool) []byte {
	h := p.get(p.host)
	if !p.host.ok || len(h) == 0 {
		dst = append(dst, p.get(p.scheme)...)
		dst = append(dst, ':')
		return p.appendKeyRest(dst)
	}
	if isIPLiteral(h) {
		dst = append(dst, h[1:len(h)-1]...)
	} else {
		dst = appendReversed(dst, h, false, false)
	}
	if p.port.ok {
		dst = append(dst, ':')
		dst = append(dst, p.get(p.port)...)
	}
	if trailingComma {
		dst = append(dst, ',')
	}
	dst = append(dst, ')')
	return p.appendKeyRest(dst)
}

// appendKeyRest writes path, query and fragment as surt does: "/" for an
// empty path before a query or fragment.
func (p *parts) appendKeyRest(dst []byte) []byte {
	if p.path.len() == 0 && (p.query.ok || p.frag.ok) {
		dst = append(dst, '/')
	}
	return p.appendRest(dst)
}

// appendHeritrix writes the Heritrix form (webarchive-commons
// org.archive.util.SURT.fromURI): scheme "://(" then the host's labels
// reversed, each followed by ","; a dotted-quad IPv4 address or an IP
// literal as it is; then ":" port, "@" userinfo, ")" and the rest as it
// is. A URL without a host is written as its canonical URL.
func (p *parts) appendHeritrix(dst []byte) []byte {
	h := p.get(p.host)
	if !p.host.ok || len(h) == 0 {
		return p.appendURL(dst)
	}
	dst = append(dst, p.get(p.scheme)...)
	dst = append(dst, ":/"+"/("...)
	if isIPLiteral(h) || dottedQuad(h) {
		dst = append(dst, h...)
	} else {
		dst = appendReversed(dst, h, true, false)
	}
	if p.port.ok {
		dst = append(dst, ':')
		dst = append(dst, p.get(p.port)...)
	}
	if p.user.ok {
		dst = append(dst, '@')
		dst = append(dst, p.get(p.user)...)
		if p.pass.ok {
			dst = append(dst, ':')
			dst = append(dst, p.get(p.pass)...)
		}
	}
	dst = append(dst, ')')
	return p.appendRest(dst)
}

// dottedQuad reports whether h is four dot-separated runs of one to
// three digits, Heritrix's test for an address it does not reverse.
func dottedQuad(h []byte) bool {
	parts, run := 0, 0
	for _, c := range h {
		switch {
		case '0' <= c && c <= '9':
			if run++; run > 3 {
				return false
			}
		case c == '.' && run > 0:
			parts++
			run = 0
		default:
			return false
		}
	}
	return parts == 3 && run > 0
}

// appendReversed appends the dot-separated labels of h in reverse order,
// joined by commas, with a comma after the last when trailing. With swap,
// a comma inside a label is written as a dot, which makes the transform
// reversible (urlcanon's reverse_host).
func appendReversed(dst, h []byte, trailing, swap bool) []byte {
	end := len(h)
	for k := len(h) - 1; k >= -1; k-- {
		if k >= 0 && h[k] != '.' {
			continue
		}
		label := h[k+1 : end]
		if swap {
			for _, c := range label {
				if c == ',' {
					c = '.'
				}
				dst = append(dst, c)
			}
		} else {
			dst = append(dst, label...)
		}
		if k >= 0 || trailing {
			dst = append(dst, ',')
		}
		end = k
	}
	return dst
}
