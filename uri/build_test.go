package uri

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEditorBuild makes references from decoded parts with the zero
// Editor: each part is percent-encoded for its component.
func TestEditorBuild(t *testing.T) {
	tests := []struct {
		edit func(e *Editor) *Editor
		want string
	}{
		// RFC 3986 1.1.2 example, from its parts.
		{func(e *Editor) *Editor {
			return e.SetScheme("http").SetHost("www.ietf.org").SetPath("/rfc/rfc2396.txt")
		}, "http://www.ietf.org/rfc/rfc2396.txt"},
		// RFC 3986 1.1.2: IPv6 literal gets brackets; 3.4: "?" stays in a query.
		{func(e *Editor) *Editor {
			return e.SetScheme("ldap").SetHost("2001:db8::7").SetPath("/c=GB").SetQuery("objectClass?one")
		}, "ldap://[2001:db8::7]/c=GB?objectClass?one"},
		// RFC 3986 3.2.1: "@" and ":" of a user name encoded, ":" kept before the password.
		{func(e *Editor) *Editor { return e.SetScheme("ftp").SetUser("a@b:c").SetPassword("p:w@").SetHost("h") }, "ftp://a%40b%3Ac:p:w%40@h"},
		// RFC 3986 3.3: "/" inside a segment is data.
		{func(e *Editor) *Editor {
			return e.SetScheme("foo").SetHost("h").AppendSegment("a/b").AppendSegment("c?d")
		}, "foo://h/a%2Fb/c%3Fd"},
		// RFC 3986 3.3: "?" and "#" in a path.
		{func(e *Editor) *Editor { return e.SetPath("/x?y#z") }, "/x%3Fy%23z"},
		// RFC 3986 3.4: "&", "=", "#", "+" in query keys and values.
		{func(e *Editor) *Editor {
			var p Params
			p.Add("k&=", "v#+ ")
			p.Add("k", "2")
			return e.SetScheme("http").SetHost("a").SetPath("/").SetParams(p)
		}, "http://a/?k%26%3D=v%23%2B%20&k=2"},
		// RFC 3986 3.5: "#" in the fragment; defined but empty.
		{func(e *Editor) *Editor { return e.SetFragment("a#b") }, "#a%23b"},
		{func(e *Editor) *Editor { return e.SetFragment("") }, "#"},
		{func(e *Editor) *Editor { return e.SetQuery("") }, "?"},
		// RFC 3986 4.2: a colon in the first segment of a relative path.
		{func(e *Editor) *Editor { return e.SetPath("a:b/c:d") }, "./a:b/c:d"},
		// RFC 3986 3.2.2: "]" and ":" in a reg-name.
		{func(e *Editor) *Editor { return e.SetScheme("x").SetHost("a]b") }, "x://a%5Db"},
		// RFC 8089 2: file URI with an empty authority.
		{func(e *Editor) *Editor { return e.SetScheme("file").SetHost("").SetPath("/etc/hosts") }, "file:///etc/hosts"},
		// With an authority a rootless path gets its "/" (RFC 3986 3.3).
		{func(e *Editor) *Editor { return e.SetScheme("http").SetHost("a").SetPort("8080").SetPath("b") }, "http://a:8080/b"},
		// RFC 3986 3.2.2: IPvFuture as written.
		{func(e *Editor) *Editor { return e.SetScheme("http").SetHost("[v7.x]") }, "http://[v7.x]"},
		// RFC 6874 2: zone identifier "%" written "%25".
		{func(e *Editor) *Editor { return e.SetScheme("http").SetHost("fe80::1%en0") }, "http://[fe80::1%25en0]"},
		// RFC 3986 3.2.2: a non-ASCII name as percent-encoded UTF-8 (the
		// IDNA form is package iri's).
		{func(e *Editor) *Editor { return e.SetScheme("http").SetHost("bücher.example") }, "http://b%C3%BCcher.example"},
		// RFC 3986 3.3: a path starting with "//" without an authority.
		{func(e *Editor) *Editor { return e.SetPath("//x") }, "/.//x"},
		{func(e *Editor) *Editor { return e }, ""},
	}
	for _, tt := range tests {
		var e Editor
		u, err := tt.edit(&e).URI()
		if err != nil || u.String() != tt.want {
			t.Errorf("got %q, %v; want %q", u, err, tt.want)
		}
	}
}

func TestEditorBuildErrors(t *testing.T) {
	tests := []struct {
		edit func(e *Editor) *Editor
		want error
	}{
		{func(e *Editor) *Editor { return e.SetScheme("1http") }, ErrBuildScheme},          // RFC 3986 3.1: starts with ALPHA
		{func(e *Editor) *Editor { return e.SetScheme("ht tp") }, ErrBuildScheme},          // RFC 3986 3.1
		{func(e *Editor) *Editor { return e.SetHost("h").SetPort("8o") }, ErrBuildPort},    // RFC 3986 3.2.3: *DIGIT
		{func(e *Editor) *Editor { return e.SetHost("1::2::3") }, ErrBuildHost},            // RFC 3986 3.2.2: one "::"
		{func(e *Editor) *Editor { return e.SetHost("[v7.x") }, ErrBuildHost},              // RFC 3986 3.2.2
		{func(e *Editor) *Editor { return e.SetRaw(PartQuery, "a#b") }, ErrBuildComponent}, // RFC 3986 3.4
	}
	for _, tt := range tests {
		var e Editor
		_, err := tt.edit(&e).URI()
		var be *BuildError
		if !errors.Is(err, tt.want) || !errors.As(err, &be) {
			t.Errorf("error %v, want %v", err, tt.want)
		}
	}
}

// TestEditorBuildProperty: for random decoded parts the built URI
// parses and every decoded accessor gives the part back.
func TestEditorBuildProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "Z", "0", "/", "?", "#", "@", ":", "[", "]", "%", "%41", "&", "=", "+", " ", "é", ".", "..", "\x00", "\xff"}
	str := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 20000 {
		var e Editor
		if r.IntN(4) != 0 {
			e.SetScheme("s")
		}
		user := strings.ReplaceAll(str(4), ":", "") // SetUser encodes ":", SetUserinfo would not
		hasUser := r.IntN(2) == 0
		if hasUser {
			e.SetUser(user)
		}
		host := strings.Map(func(c rune) rune { // a reg-name, not an IP literal
			if c == '[' || c == ':' {
				return 'x'
			}
			return c
		}, str(4))
		hasAuth := hasUser || host != "" || r.IntN(2) == 0
		if hasAuth {
			e.SetHost(host)
		}
		path := str(6)
		e.SetPath(path)
		key, val := str(3), str(3)
		var p Params
		p.Add(key, val)
		e.SetParams(p)
		frag := str(4)
		e.SetFragment(frag)
		u, err := e.URI()
		if err != nil {
			t.Fatalf("%v", err)
		}
		if _, err := Parse(u.String()); err != nil {
			t.Fatalf("%q does not parse: %v", u, err)
		}
		wantPath := path
		switch {
		case hasAuth && path != "" && path[0] != '/':
			wantPath = "/" + path
		case !hasAuth && strings.HasPrefix(path, "//"):
			wantPath = "/." + path
		case !hasAuth && !u.HasScheme() && strings.Contains(strings.SplitN(path, "/", 2)[0], ":"):
			wantPath = "./" + path
		}
		if hasUser && u.DecodedUserinfo() != user {
			t.Fatalf("%q: user %q, want %q", u, u.DecodedUserinfo(), user)
		}
		if hasAuth && u.DecodedHost() != host {
			t.Fatalf("%q: host %q, want %q", u, u.DecodedHost(), host)
		}
		if u.DecodedPath() != wantPath {
			t.Fatalf("%q: path %q, want %q", u, u.DecodedPath(), wantPath)
		}
		if u.DecodedFragment() != frag {
			t.Fatalf("%q: fragment %q, want %q", u, u.DecodedFragment(), frag)
		}
		q, ok := u.QueryParams().Lookup(key)
		if !ok || q.Value() != val || u.QueryParams().Len() != 1 {
			t.Fatalf("%q: pair %q=%q, want %q=%q", u, q.Key(), q.Value(), key, val)
		}
	}
}
