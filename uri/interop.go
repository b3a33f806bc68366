package uri

import (
	"net/url"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// MarshalText implements encoding.TextMarshaler: the reference exactly
// as parsed (String).
func (u URI) MarshalText() ([]byte, error) { return []byte(u.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler with Parse (strict
// RFC 3986). On error u is left unchanged.
func (u *URI) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// FromURL converts a *net/url.URL. It composes the reference from v's
// components as RFC 3986 section 5.3 recomposes one (scheme ":", "//"
// authority, path, "?" query, "#" fragment), taking the encoded forms
// net/url keeps (EscapedPath, RawQuery, EscapedFragment, User.String),
// and parses the result strictly, so it fails on what net/url accepts
// but RFC 3986 does not (such as "http://a/{x}" or a space in an opaque
// part). It decides, as url.URL.String does, when to write "//": when v
// has a host or userinfo, or a scheme and a path, unless OmitHost is set
// and there is neither host nor userinfo.
//
// It does not trust v.String() for a path that begins with "//" without
// an authority: url.URL{Path: "//evil.example/x"}.String() reads back
// with the host evil.example. RFC 3986 section 3.3 says such a path
// "cannot begin with two slash characters", so FromURL repairs it by
// writing "/." before it ("/.//evil.example/x"), the form Normalize and
// Resolve use too: remove_dot_segments (section 5.2.4) turns it back
// into the same path, and no authority appears. A first segment of a
// relative path holding ":" gets "./" before it (section 4.2), as
// net/url writes it.
//
// net/url has already lost some distinctions by then: an empty fragment
// ("a#") is gone, and an empty query survives only as ForceQuery. Bytes
// outside ASCII in v.Host are percent-encoded (section 3.2.2's
// pct-encoded reg-name), as url.URL.String writes them.
func FromURL(v *url.URL) (URI, error) {
	var b strings.Builder
	if v.Scheme != "" {
		b.WriteString(v.Scheme)
		b.WriteByte(':')
	}
	if v.Opaque != "" {
		// net/url writes Opaque as it is, "//" included: an opaque
		// "//host/path" is its way to give an authority and path
		// verbatim.
		b.WriteString(v.Opaque)
	} else {
		path := v.EscapedPath()
		authority := false
		if v.Scheme != "" || v.Host != "" || v.User != nil {
			if !(v.OmitHost && v.Host == "" && v.User == nil) && (v.Host != "" || path != "" || v.User != nil) {
				authority = true
			}
		}
		if authority {
			b.WriteString("//")
			if v.User != nil {
				b.WriteString(v.User.String())
				b.WriteByte('@')
			}
			writeHostFromURL(&b, v.Host)
			if path != "" && path[0] != '/' {
				b.WriteByte('/')
			}
		} else if strings.HasPrefix(path, "//") {
			b.WriteString("/.")
		} else if b.Len() == 0 {
			if seg, _, _ := strings.Cut(path, "/"); strings.Contains(seg, ":") {
				b.WriteString("./")
			}
		}
		b.WriteString(path)
	}
	if v.ForceQuery || v.RawQuery != "" {
		b.WriteByte('?')
		b.WriteString(v.RawQuery)
	}
	if v.Fragment != "" {
		b.WriteByte('#')
		b.WriteString(v.EscapedFragment())
	}
	return Parse(b.String())
}

// writeHostFromURL writes url.URL.Host with its bytes outside ASCII
// percent-encoded; the rest is left for Parse to judge.
func writeHostFromURL(b *strings.Builder, host string) {
	for i := 0; i < len(host); i++ {
		if c := host[i]; c >= 0x80 {
			b.WriteByte('%')
			b.WriteByte(chars.UpperHex[c>>4])
			b.WriteByte(chars.UpperHex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
}

// URL converts u to a *net/url.URL with url.Parse(u.String()). net/url
// may fail where u is valid (an IPvFuture literal such as "[v7.x]", a
// percent-encoded reg-name it does not accept) and changes some things
// on its way back to a string: an empty fragment ("foo://a/b#") cannot
// be represented and is dropped, and encoded characters may be written
// differently (URL.String re-encodes from the decoded parts unless
// RawPath/RawFragment still match).
func (u URI) URL() (*url.URL, error) { return url.Parse(u.s) }
