package uri_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

func TestEditor(t *testing.T) {
	tests := []struct {
		in   string
		edit func(e *uri.Editor) *uri.Editor
		want string
	}{
		{"http://a/b?c#d", func(e *uri.Editor) *uri.Editor { return e.SetPort("8080") }, "http://a:8080/b?c#d"},
		{"http://a:80/b", func(e *uri.Editor) *uri.Editor { return e.SetPort("") }, "http://a/b"},
		// RFC 3986 3.2.2: a non-ASCII name as its UTF-8 octets (iri.HostToASCII gives the IDNA form).
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetHost("例え.jp") }, "http://%E4%BE%8B%E3%81%88.jp/b"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetHost("::1") }, "http://[::1]/b"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetHost("fe80::1%en0") }, "http://[fe80::1%25en0]/b"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetUser("me:you") }, "http://me%3Ayou@a/b"},
		{"http://u:p@a/b", func(e *uri.Editor) *uri.Editor { return e.SetUser("v") }, "http://v:p@a/b"},
		{"http://u@a/b", func(e *uri.Editor) *uri.Editor { return e.SetPassword("p w") }, "http://u:p%20w@a/b"},
		{"http://u:p@a/b", func(e *uri.Editor) *uri.Editor { return e.ClearPassword() }, "http://u@a/b"},
		{"http://u:p@a/b", func(e *uri.Editor) *uri.Editor { return e.Clear(uri.PartUserinfo) }, "http://a/b"},
		{"http://a/b?c#d", func(e *uri.Editor) *uri.Editor { return e.SetPath("x y/z") }, "http://a/x%20y/z?c#d"},
		// RFC 3986 3.3: a path after an authority starts with "/".
		{"http://a", func(e *uri.Editor) *uri.Editor { return e.SetPath("x") }, "http://a/x"},
		// The note in 5.2.4: "//" without an authority is written "/.//".
		{"foo:/a", func(e *uri.Editor) *uri.Editor { return e.SetPath("//x") }, "foo:/.//x"},
		{"http://a//x", func(e *uri.Editor) *uri.Editor { return e.Clear(uri.PartHost) }, "http:/.//x"},
		// 4.2: a ":" in the first segment of a relative path.
		{"/a", func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartPath, "a:b") }, "./a:b"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetQuery("") }, "http://a/b?"},
		{"http://a/b?q", func(e *uri.Editor) *uri.Editor { return e.Clear(uri.PartQuery) }, "http://a/b"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetQuery("a b&c=#") }, "http://a/b?a%20b&c=%23"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetFragment("x#y") }, "http://a/b#x%23y"},
		{"http://a/b#f", func(e *uri.Editor) *uri.Editor { return e.Clear(uri.PartFragment) }, "http://a/b"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetScheme("https") }, "https://a/b"},
		{"http://a/b/", func(e *uri.Editor) *uri.Editor { return e.AppendSegment("c/d") }, "http://a/b/c%2Fd"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.AppendSegment("c") }, "http://a/b/c"},
		{"http://a", func(e *uri.Editor) *uri.Editor { return e.AppendSegment("c") }, "http://a/c"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartQuery, "a=%20") }, "http://a/b?a=%20"},
		{"http://a/b", func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartPort, "") }, "http://a:/b"},
		{"mailto:x@y", func(e *uri.Editor) *uri.Editor { return e.SetUser("u") }, "mailto://u@/x@y"},
		{"http://a/b?x=1&utm_source=z&y=2", func(e *uri.Editor) *uri.Editor {
			p := e.Params()
			p.Trim("utm_*")
			return e.SetParams(p)
		}, "http://a/b?x=1&y=2"},
		{"http://a/b?utm_source=z", func(e *uri.Editor) *uri.Editor {
			p := e.Params()
			p.Trim("utm_*")
			return e.SetParams(p)
		}, "http://a/b"},
		// Nothing changed: the text is kept as written.
		{"HTTP://A/%7e?q#f", func(e *uri.Editor) *uri.Editor { return e }, "HTTP://A/%7e?q#f"},
	}
	for _, tt := range tests {
		got, err := tt.edit(uri.MustParse(tt.in).Edit()).URI()
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEditorErrors(t *testing.T) {
	tests := []struct {
		edit   func(e *uri.Editor) *uri.Editor
		comp   uri.Component
		reason error
		offset int // in the value, -1: no *ParseError underneath
	}{
		{func(e *uri.Editor) *uri.Editor { return e.SetScheme("1http") }, uri.ComponentScheme, uri.ErrBuildScheme, -1},
		{func(e *uri.Editor) *uri.Editor { return e.SetPort("8o") }, uri.ComponentPort, uri.ErrBuildPort, -1},
		{func(e *uri.Editor) *uri.Editor { return e.SetHost("1::2::3") }, uri.ComponentHost, uri.ErrBuildHost, -2},
		{func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartPath, "/a b") }, uri.ComponentPath, uri.ErrBuildComponent, 2},
		{func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartPath, "/a?b") }, uri.ComponentPath, uri.ErrBuildComponent, 2},
		{func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartQuery, "a#b") }, uri.ComponentQuery, uri.ErrBuildComponent, 1},
		{func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartHost, "a/b") }, uri.ComponentHost, uri.ErrBuildComponent, 1},
		{func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartUserinfo, "a@b") }, uri.ComponentUserinfo, uri.ErrBuildComponent, 1},
		{func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartFragment, "%zz") }, uri.ComponentFragment, uri.ErrBuildComponent, 1},
		{func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartPort, "8x") }, uri.ComponentPort, uri.ErrBuildComponent, 1},
		// The first error is kept; later edits do nothing.
		{func(e *uri.Editor) *uri.Editor { return e.SetPort("x").SetScheme("1") }, uri.ComponentPort, uri.ErrBuildPort, -1},
	}
	for i, tt := range tests {
		_, err := tt.edit(uri.MustParse("http://a/b?c#d").Edit()).URI()
		var be *uri.BuildError
		if !errors.As(err, &be) {
			t.Errorf("%d: err = %v, want a *BuildError", i, err)
			continue
		}
		if be.Component != tt.comp || !errors.Is(err, tt.reason) {
			t.Errorf("%d: %v: component %v, want %v, reason %v", i, err, be.Component, tt.comp, tt.reason)
		}
		var pe *uri.ParseError
		switch {
		case tt.offset == -1 && errors.As(err, &pe):
			t.Errorf("%d: %v: unexpected *ParseError underneath", i, err)
		case tt.offset >= 0 && (!errors.As(err, &pe) || pe.Offset != tt.offset):
			t.Errorf("%d: %v: want a *ParseError at offset %d", i, err, tt.offset)
		}
	}
}

// TestEditorMixedSetters: a part a decoded setter keeps from a raw one
// is still checked against its component's grammar. RFC 3986 3.2.1:
//
//	userinfo    = *( unreserved / pct-encoded / sub-delims / ":" )
//
// so a "#", "?", "/" or "@" cannot be in a userinfo as written: "#"
// would end the authority (3.2: "terminated by the next slash ("/"),
// question mark ("?"), or number sign ("#")") and make the text before
// it the host. The error names the userinfo and the offset of the byte
// in it, whatever the parser would have blamed.
func TestEditorMixedSetters(t *testing.T) {
	tests := []struct {
		in     string
		edit   func(e *uri.Editor) *uri.Editor
		comp   uri.Component
		value  string
		offset int
	}{
		// Without the check: "http://evil.example#:x@good.example/p", host evil.example.
		{"http://good.example/p", func(e *uri.Editor) *uri.Editor { return e.SetRawUser("evil.example#").SetPassword("x") },
			uri.ComponentUserinfo, "evil.example#:x", 12},
		{"http://good.example/p", func(e *uri.Editor) *uri.Editor { return e.SetPassword("x").SetRawUser("evil.example#") },
			uri.ComponentUserinfo, "evil.example#:x", 12},
		// Without the check: a panic (the path after the "?" was not there).
		{"a:b", func(e *uri.Editor) *uri.Editor { return e.SetRawPassword("?").SetUser("x") },
			uri.ComponentUserinfo, "x:?", 2},
		// Without the check: the port was blamed ("x" after "u:").
		{"http://h/", func(e *uri.Editor) *uri.Editor { return e.SetRawPassword("x/evil").SetUser("u") },
			uri.ComponentUserinfo, "u:x/evil", 3},
		{"http://h/", func(e *uri.Editor) *uri.Editor { return e.SetRawUser("a@b").ClearPassword() },
			uri.ComponentUserinfo, "a@b", 1},
		// 3.3: a path is segments of pchar and "/"; AppendSegment keeps what SetRaw gave.
		{"http://h/", func(e *uri.Editor) *uri.Editor { return e.SetRaw(uri.PartPath, "/a?b").AppendSegment("c") },
			uri.ComponentPath, "/a?b/c", 2},
		// 3.4: a query ends at "#"; SetParams takes any Params.
		{"http://h/", func(e *uri.Editor) *uri.Editor { return e.SetParams(uri.ParseParams("a=1#frag")) },
			uri.ComponentQuery, "a=1#frag", 3},
		{"http://h/", func(e *uri.Editor) *uri.Editor {
			e.SetRaw(uri.PartQuery, "a#b")
			p := e.Params()
			p.Add("k", "v")
			return e.SetParams(p)
		}, uri.ComponentQuery, "a#b&k=v", 1},
	}
	for i, tt := range tests {
		got, err := tt.edit(uri.MustParse(tt.in).Edit()).URI()
		var be *uri.BuildError
		var pe *uri.ParseError
		if !errors.As(err, &be) || !errors.As(err, &pe) {
			t.Errorf("%d: got %q, %v; want a *BuildError over a *ParseError", i, got, err)
			continue
		}
		if be.Component != tt.comp || be.Value != tt.value || pe.Offset != tt.offset || !errors.Is(err, uri.ErrBuildComponent) {
			t.Errorf("%d: %v: component %v value %q offset %d, want %v %q %d", i, err, be.Component, be.Value, pe.Offset, tt.comp, tt.value, tt.offset)
		}
	}
	// Decoded text needs no such care: it is encoded (3.2.1 "%40" for "@").
	got, err := uri.MustParse("http://good.example/p").Edit().SetUser("evil.example#").SetRawPassword("x").URI()
	if err != nil || got.String() != "http://evil.example%23:x@good.example/p" || got.Host() != "good.example" {
		t.Errorf("decoded user then raw password: %q, %v", got, err)
	}
}

func TestUserPassword(t *testing.T) {
	tests := []struct {
		in          string
		user        string
		hasUser     bool
		password    string
		hasPassword bool
	}{
		{"http://a/", "", false, "", false},
		{"http://@a/", "", true, "", false},
		{"http://u@a/", "u", true, "", false},
		{"http://u:@a/", "u", true, "", true},
		{"http://u:p:q@a/", "u", true, "p:q", true},
		{"ftp://%75:%70@a/", "%75", true, "%70", true},
	}
	for _, tt := range tests {
		u := uri.MustParse(tt.in)
		user, ok := u.User()
		pw, pok := u.Password()
		if user != tt.user || ok != tt.hasUser || pw != tt.password || pok != tt.hasPassword {
			t.Errorf("%q: User() = %q, %v; Password() = %q, %v", tt.in, user, ok, pw, pok)
		}
	}
}

func TestParamsEdits(t *testing.T) {
	const in = "b=2&a=1&utm_source=x&A=%41&a=0&b"
	edit := func(f func(p *uri.Params)) string {
		p := uri.ParseParams(in)
		f(&p)
		return p.Encode()
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"add", edit(func(p *uri.Params) { p.Add("k v", "x&y") }), "b=2&a=1&utm_source=x&A=%41&a=0&b&k%20v=x%26y"},
		{"set existing", edit(func(p *uri.Params) { p.Set("a", "9") }), "b=2&a=9&utm_source=x&A=%41&b"},
		{"set new", edit(func(p *uri.Params) { p.Set("c", "3") }), "b=2&a=1&utm_source=x&A=%41&a=0&b&c=3"},
		{"del", edit(func(p *uri.Params) { p.Del("b") }), "a=1&utm_source=x&A=%41&a=0"},
		{"sort", edit(func(p *uri.Params) { p.Sort() }), "A=%41&a=0&a=1&b&b=2&utm_source=x"},
		{"trim", edit(func(p *uri.Params) { p.Trim("utm_*") }), "b=2&a=1&A=%41&a=0&b"},
		{"keep", edit(func(p *uri.Params) { p.Keep("[ab]") }), "b=2&a=1&a=0&b"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	p := uri.ParseParams(in)
	if err := p.Trim("[a"); !errors.Is(err, uri.ErrBadPattern) {
		t.Errorf("Trim of a malformed pattern: %v", err)
	}
	// Untouched: kept as it is, empty pieces included.
	for _, f := range []func(p *uri.Params){
		func(p *uri.Params) { p.Trim("zz*") }, func(p *uri.Params) { p.Sort() }, func(p *uri.Params) { p.Del("zz") },
	} {
		q := uri.ParseParams("a=1&&b=2&")
		f(&q)
		if q.Encode() != "a=1&&b=2&" {
			t.Errorf("an edit without a match changed the query to %q", q.Encode())
		}
	}
	// A key added reads back as given.
	for _, k := range []string{"a b", "a=b", "a&b", "a+b", "ü", "%41", " + "} {
		var p uri.Params
		p.Add(k, k)
		if q, ok := p.Lookup(k); !ok || q.Value() != k {
			t.Errorf("Add(%q) reads back as %q, %v", k, q.Value(), ok)
		}
	}
}

// TestEditProperty: over the corpora, random edit sequences give a URI
// that parses, and the components no edit touched keep their text byte
// for byte.
func TestEditProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := []string{"", "x", "a b", "/", "//", "a:b", "?", "#", "%", "ü", "@", ":", "[", "1.2.3.4", "::1"}
	n := 0
	for _, name := range testshared.CorpusNames {
		c := testshared.LoadCorpus(t, name)
		for i, line := range c.Lines {
			if c.Full && i%7 != 0 || n > 40000 {
				continue
			}
			u, err := uri.Parse(line)
			if err != nil {
				continue
			}
			n++
			e := u.Edit()
			var touched [7]bool // scheme userinfo host port path query fragment
			for range 1 + rng.IntN(3) {
				v := values[rng.IntN(len(values))]
				switch k := rng.IntN(9); k {
				case 0:
					e.SetUser(v)
					touched[1], touched[2] = true, true
				case 1:
					e.SetPort([]string{"", "80", "8080"}[rng.IntN(3)])
					touched[3], touched[2] = true, true
				case 2:
					e.SetPath(v)
					touched[4] = true
				case 3:
					e.SetQuery(v)
					touched[5] = true
				case 4:
					e.SetFragment(v)
					touched[6] = true
				case 5:
					e.AppendSegment(v)
					touched[4] = true
				case 6:
					p := e.Params()
					p.Trim("utm_*")
					p.Add(v, v)
					p.Sort()
					e.SetParams(p)
					touched[5] = true
				case 7:
					e.Clear(uri.PartFragment)
					touched[6] = true
				case 8:
					e.SetHost([]string{"example.com", "::1", "例え.jp"}[rng.IntN(3)])
					touched[2] = true
				}
			}
			got, err := e.URI()
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if _, err := uri.Parse(got.String()); err != nil {
				t.Fatalf("%q: result %q does not parse: %v", line, got, err)
			}
			check := func(i int, a, b string) {
				if !touched[i] && a != b {
					t.Fatalf("%q -> %q: untouched component %d changed: %q -> %q", line, got, i, a, b)
				}
			}
			check(0, u.Scheme(), got.Scheme())
			check(1, u.Userinfo(), got.Userinfo())
			check(2, u.Host(), got.Host())
			check(3, u.Port(), got.Port())
			if !touched[4] && !touched[2] && got.Path() != u.Path() {
				t.Fatalf("%q -> %q: path changed", line, got)
			}
			check(5, u.Query(), got.Query())
			check(6, u.Fragment(), got.Fragment())
		}
	}
	if n == 0 {
		t.Fatal("no input")
	}
	t.Logf("%d URIs edited", n)
}

// FuzzEdit: on any valid reference, an edit with any value gives a
// valid reference or a *BuildError, never a panic, and the components
// the edit does not touch keep their text.
func FuzzEdit(f *testing.F) {
	for _, s := range []string{"http://a/b?c#d", "mailto:x@y", "//h", "a:b", "", "foo://u:p@[::1]:8/p"} {
		f.Add(s, uint8(0), "x")
		f.Add(s, uint8(5), "//a:b")
	}
	f.Fuzz(func(t *testing.T, s string, op uint8, v string) {
		u, err := uri.Parse(s)
		if err != nil {
			return
		}
		e := u.Edit()
		touched := map[uri.Component]bool{}
		switch op % 9 {
		case 0:
			e.SetPath(v)
			touched[uri.ComponentPath] = true
		case 1:
			e.SetQuery(v)
			touched[uri.ComponentQuery] = true
		case 2:
			e.SetFragment(v)
			touched[uri.ComponentFragment] = true
		case 3:
			e.SetUser(v)
			touched[uri.ComponentUserinfo], touched[uri.ComponentHost], touched[uri.ComponentPath] = true, true, true
		case 4:
			e.SetHost(v)
			touched[uri.ComponentHost], touched[uri.ComponentPath] = true, true
		case 5:
			e.SetRaw(uri.PartPath, v)
			touched[uri.ComponentPath] = true
		case 6:
			e.SetRaw(uri.PartQuery, v)
			touched[uri.ComponentQuery] = true
		case 7:
			e.AppendSegment(v)
			touched[uri.ComponentPath] = true
		case 8:
			p := e.Params()
			p.Trim(v)
			p.Add(v, v)
			p.Sort()
			e.SetParams(p)
			touched[uri.ComponentQuery] = true
		}
		r, err := e.URI()
		if err != nil {
			var be *uri.BuildError
			if !errors.As(err, &be) {
				t.Fatalf("%q op %d %q: untyped error %v", s, op%9, v, err)
			}
			return
		}
		// A host set with a zone ("fe80::1%en0") needs AllowZoneID
		// (RFC 6874) to read back.
		if _, err := uri.ParseWith(r.String(), uri.Options{AllowZoneID: strings.Contains(r.Host(), "%25")}); err != nil {
			t.Fatalf("%q op %d %q: %q does not parse: %v", s, op%9, v, r, err)
		}
		check := func(c uri.Component, a, b string) {
			if !touched[c] && a != b {
				t.Fatalf("%q op %d %q -> %q: %v changed %q -> %q", s, op%9, v, r, c, a, b)
			}
		}
		check(uri.ComponentScheme, u.Scheme(), r.Scheme())
		check(uri.ComponentUserinfo, u.Userinfo(), r.Userinfo())
		check(uri.ComponentHost, u.Host(), r.Host())
		check(uri.ComponentPath, u.Path(), r.Path())
		check(uri.ComponentQuery, u.Query(), r.Query())
		check(uri.ComponentFragment, u.Fragment(), r.Fragment())
	})
}

// TestEditorParts: issue 31. The Editor's SetRaw, Clear and Part take a
// Part, a type no Component converts to without a cast, so that a
// component the Editor has no part for (the authority, a URN's NID)
// does not compile; each Part names its component, and a value that
// names none is refused (and read as undefined).
func TestEditorParts(t *testing.T) {
	comp := reflect.TypeFor[uri.Component]()
	for _, m := range []any{(*uri.Editor).SetRaw, (*uri.Editor).Clear, (*uri.Editor).Part} {
		if in := reflect.TypeOf(m).In(1); in != reflect.TypeFor[uri.Part]() || comp.AssignableTo(in) {
			t.Errorf("%v takes %v: a Component would compile", reflect.TypeOf(m), in)
		}
	}
	names := []string{"scheme", "userinfo", "host", "port", "path", "query", "fragment"}
	u := uri.MustParse("s://ui@h:1/p?q#f")
	for i, name := range names {
		p := uri.PartScheme + uri.Part(i)
		c, _ := uri.ComponentByName(name)
		if p.String() != name || p.Component() != c {
			t.Errorf("Part %d: %q, %v; want %q", p, p.String(), p.Component(), name)
		}
		got, ok := u.Edit().Part(p)
		if want := map[string]string{"scheme": "s", "userinfo": "ui", "host": "h", "port": "1", "path": "/p", "query": "q", "fragment": "f"}[name]; !ok || got != want {
			t.Errorf("Part(%s) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, p := range []uri.Part{0, uri.PartFragment + 1, 255} {
		if p.String() != "" || p.Component() != uri.ComponentNone {
			t.Errorf("Part(%d) names %q", p, p.String())
		}
		if s, ok := u.Edit().Part(p); ok || s != "" {
			t.Errorf("Part(%d) reads %q, %v", p, s, ok)
		}
		for _, e := range []*uri.Editor{u.Edit().Clear(p), u.Edit().SetRaw(p, "x")} {
			var be *uri.BuildError
			if _, err := e.URI(); !errors.As(err, &be) || !errors.Is(err, uri.ErrBuildComponent) {
				t.Errorf("Part(%d): %v, want ErrBuildComponent", p, err)
			}
		}
	}
}
