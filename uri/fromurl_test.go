package uri

import (
	"net/url"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// Issue 7, defect 5: FromURL parsed v.String(), which is ambiguous: a
// path beginning with "//" and no host came back as an authority.
func TestFromURLComponents(t *testing.T) {
	tests := []struct {
		v    url.URL
		want string // "" for an error
	}{
		{url.URL{Path: "//evil.example/x"}, "/.//evil.example/x"},                                    // RFC 3986 3.3: no "//" without authority
		{url.URL{Scheme: "foo", Path: "//evil.example/x", OmitHost: true}, "foo:/.//evil.example/x"}, // the same with a scheme
		{url.URL{Scheme: "http", Host: "a", Path: "//b"}, "http://a//b"},                             // with an authority "//" is a path
		{url.URL{Scheme: "file", Path: "/x"}, "file:///x"},                                           // as url.URL.String: empty host
		{url.URL{Scheme: "foo", Path: "/x", OmitHost: true}, "foo:/x"},                               // OmitHost: no authority
		{url.URL{Path: "a:b"}, "./a:b"},                                                              // RFC 3986 4.2
		{url.URL{Scheme: "http", Host: "a", Path: "b"}, "http://a/b"},                                // url.URL.String adds "/"
		{url.URL{Scheme: "http", User: url.UserPassword("u", "p@"), Host: "h:8080", Path: "/"}, "http://u:p%40@h:8080/"},
		{url.URL{Scheme: "http", Host: "ü.example", Path: "/"}, "http://%C3%BC.example/"},
		{url.URL{Scheme: "http", Host: "a", Path: "/b c", RawQuery: "q", Fragment: "f g"}, "http://a/b%20c?q#f%20g"},
		{url.URL{Scheme: "http", Host: "a", ForceQuery: true}, "http://a?"},
		{url.URL{Scheme: "mailto", Opaque: "a@b"}, "mailto:a@b"},
		{url.URL{Scheme: "http", Host: "a]"}, ""},                 // net/url keeps it, RFC 3986 does not
		{url.URL{Scheme: "http", Host: "a", RawQuery: "{x}"}, ""}, // RawQuery is taken as encoded
	}
	for _, tt := range tests {
		u, err := FromURL(&tt.v)
		if tt.want == "" {
			if err == nil {
				t.Errorf("FromURL(%#v) = %q, want an error", tt.v, u)
			}
			continue
		}
		if err != nil || u.String() != tt.want {
			t.Errorf("FromURL(%#v) = %q, %v; want %q", tt.v, u, err, tt.want)
		}
	}
	// The host of the example is not a host.
	u, err := FromURL(&url.URL{Path: "//evil.example/x"})
	if err != nil || u.HasAuthority() || u.Path() != "/.//evil.example/x" {
		t.Errorf("FromURL(Path //evil.example/x) = %q (authority %v), %v", u, u.HasAuthority(), err)
	}
}

// sameURL compares the components of two url.URLs that FromURL must
// keep, allowing for the "/." repair of a "//" path without a host.
func sameURL(v, back *url.URL) bool {
	// FromURL's two prefixes, which remove_dot_segments (RFC 3986 5.2.4)
	// takes away again: "/." before a "//" path without a host, "./"
	// before a relative path whose first segment holds a ":" (as
	// url.URL.String writes it too).
	path := v.Path == back.Path ||
		back.Host == "" && v.Host == "" && strings.HasPrefix(v.Path, "//") && back.Path == "/."+v.Path ||
		v.Scheme == "" && v.Host == "" && back.Path == "./"+v.Path
	return v.Scheme == back.Scheme && v.Opaque == back.Opaque && v.User.String() == back.User.String() &&
		v.Host == back.Host && path && v.RawQuery == back.RawQuery && v.Fragment == back.Fragment
}

// FuzzFromURL: whatever net/url parses, FromURL either refuses it or
// gives a reference with an authority exactly when v has a host or
// userinfo (or an opaque "//"), and that net/url reads back with the
// same components.
func FuzzFromURL(f *testing.F) {
	for _, s := range []string{"//evil.example/x", "http://a/b?c#d", "foo:/x", "file:///x", "a:b", "./a:b", "/.//x", "http://u:p@h:1/%2F", "mailto:a@b", "http://a/b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := url.Parse(s)
		if err != nil {
			return
		}
		for _, w := range []*url.URL{v, {Path: v.Path}, {Scheme: v.Scheme, Path: v.Path, OmitHost: true}} {
			u, err := FromURL(w)
			if err != nil {
				continue
			}
			if w.Opaque == "" && w.Host == "" && w.User == nil && u.HasAuthority() && u.Host() != "" {
				t.Fatalf("FromURL(%#v) = %q: a host out of nowhere", w, u)
			}
			back, err := url.Parse(u.String())
			if err != nil {
				t.Fatalf("FromURL(%#v) = %q, which net/url rejects: %v", w, u, err)
			}
			if w.Opaque == "" && !sameURL(w, back) {
				t.Fatalf("FromURL(%#v) = %q; net/url reads %#v", w, u, back)
			}
		}
	})
}

// A differential test against net/url over the corpora: for every line
// net/url parses, FromURL either fails (the URL is not RFC 3986) or gives
// a reference that net/url reads back with the same components; and it
// agrees with url.URL.String whenever that string is unambiguous (parses
// back to the same components).
func TestFromURLDifferential(t *testing.T) {
	n, agree := 0, 0
	for _, name := range []string{"kasztp", "node_files", "urns"} {
		c := testshared.LoadCorpus(t, name)
		lines := c.Lines
		if testing.Short() && len(lines) > 20000 {
			lines = lines[:20000]
		}
		for _, line := range lines {
			v, err := url.Parse(line)
			if err != nil {
				continue
			}
			n++
			u, err := FromURL(v)
			if err != nil {
				continue
			}
			back, err := url.Parse(u.String())
			if err != nil {
				t.Errorf("%q: FromURL gave %q, which net/url rejects: %v", line, u, err)
				continue
			}
			if !sameURL(v, back) {
				t.Errorf("%q: FromURL gave %q; net/url reads %#v, want %#v", line, u, back, v)
				continue
			}
			s := v.String()
			if w, err := url.Parse(s); err == nil && sameURL(v, w) && !strings.HasPrefix(w.Path, "/.//") {
				if u.String() != s {
					t.Errorf("%q: FromURL gave %q, url.URL.String %q", line, u, s)
				}
				agree++
			}
		}
	}
	t.Logf("%d URLs net/url parses; %d checked against url.URL.String", n, agree)
}
