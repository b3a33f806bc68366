package uri

import "net/url"

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

// FromURL converts a *net/url.URL: it parses v.String() strictly, so it
// fails on what net/url accepts but RFC 3986 does not (such as
// "http://a/{x}" or a space in an opaque part). net/url has already
// lost some distinctions by then: an empty fragment ("a#") is gone, and
// an empty query survives only as ForceQuery.
func FromURL(v *url.URL) (URI, error) { return Parse(v.String()) }

// URL converts u to a *net/url.URL with url.Parse(u.String()). net/url
// may fail where u is valid (an IPvFuture literal such as "[v7.x]", a
// percent-encoded reg-name it does not accept) and changes some things
// on its way back to a string: an empty fragment ("foo://a/b#") cannot
// be represented and is dropped, and encoded characters may be written
// differently (URL.String re-encodes from the decoded parts unless
// RawPath/RawFragment still match).
func (u URI) URL() (*url.URL, error) { return url.Parse(u.s) }
