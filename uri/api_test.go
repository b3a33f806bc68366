package uri_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/urikit/urikit/uri"
)

// TestPackageTables: what the command used to hold (issue 22) is the
// package's: grammar and component names, raw user and password edits,
// default ports.
func TestPackageTables(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want uri.Grammar
		ok   bool
	}{{"3986", uri.RFC3986, true}, {"RFC 3986", uri.RFC3986, true}, {"rfc2396", uri.RFC2396, true}, {"2396", uri.RFC2396, true}, {"1808", 0, false}, {"", 0, false}} {
		g, err := uri.ParseGrammar(tt.in)
		if (err == nil) != tt.ok || tt.ok && g != tt.want || !tt.ok && !errors.Is(err, uri.ErrInvalidOptions) {
			t.Errorf("ParseGrammar(%q) = %v, %v", tt.in, g, err)
		}
	}
	for c := uri.ComponentScheme; c <= uri.ComponentF; c++ {
		if got, ok := uri.ComponentByName(c.String()); !ok || got != c {
			t.Errorf("ComponentByName(%q) = %v, %v", c.String(), got, ok)
		}
	}
	if c, ok := uri.ComponentByName("HOST"); !ok || c != uri.ComponentHost {
		t.Errorf("ComponentByName(HOST) = %v, %v", c, ok)
	}
	if _, ok := uri.ComponentByName(""); ok {
		t.Error(`ComponentByName("") found a component`)
	}
	edits := []struct {
		in   string
		edit func(e *uri.Editor) *uri.Editor
		want string
	}{
		{"http://u:p@h/", func(e *uri.Editor) *uri.Editor { return e.SetRawUser("%41") }, "http://%41:p@h/"},
		{"http://u@h/", func(e *uri.Editor) *uri.Editor { return e.SetRawPassword("p%3A") }, "http://u:p%3A@h/"},
		{"http://h/", func(e *uri.Editor) *uri.Editor { return e.SetRawPassword("p") }, "http://:p@h/"},
	}
	for _, tt := range edits {
		if u, err := tt.edit(uri.MustParse(tt.in).Edit()).URI(); err != nil || u.String() != tt.want {
			t.Errorf("%q: %q, %v; want %q", tt.in, u, err, tt.want)
		}
	}
	// RFC 3986 3.2.1: a ":" in the user name would start the password.
	if _, err := uri.MustParse("http://h/").Edit().SetRawUser("a:b").URI(); !errors.Is(err, uri.ErrBuildComponent) {
		t.Errorf("SetRawUser(a:b): %v", err)
	}
	if _, err := uri.MustParse("http://h/").Edit().SetRawPassword("a b").URI(); !errors.Is(err, uri.ErrBuildComponent) {
		t.Errorf("SetRawPassword(a b): %v", err)
	}
	r := uri.DefaultRegistry()
	for _, tt := range []struct{ in, add, drop string }{
		{"https://a/", "https://a:443/", "https://a/"}, // RFC 3986 6.2.3
		{"http://a:80/", "http://a:80/", "http://a/"},
		{"http://a:/", "http://a:80/", "http://a/"},
		{"http://a:8080/", "http://a:8080/", "http://a:8080/"},
		{"foo://a/", "foo://a/", "foo://a/"},
		{"mailto:a@b", "mailto:a@b", "mailto:a@b"},
	} {
		add, err1 := r.AddDefaultPort(uri.MustParse(tt.in))
		drop, err2 := r.DropDefaultPort(uri.MustParse(tt.in))
		if err1 != nil || err2 != nil || add.String() != tt.add || drop.String() != tt.drop {
			t.Errorf("%q: add %q %v, drop %q %v", tt.in, add, err1, drop, err2)
		}
	}
}

func ExampleParseGrammar() {
	g, err := uri.ParseGrammar("RFC 2396")
	fmt.Println(g, err)
	// Output: RFC 2396 <nil>
}

func ExampleComponentByName() {
	c, ok := uri.ComponentByName("fragment")
	fmt.Println(c == uri.ComponentFragment, ok)
	// Output: true true
}

func ExampleEditor_SetRawUser() {
	u, err := uri.MustParse("ftp://anonymous:me@ftp.example/").Edit().SetRawUser("ftp%2Duser").URI()
	fmt.Println(u, err)
	// Output: ftp://ftp%2Duser:me@ftp.example/ <nil>
}

func ExampleEditor_SetRawPassword() {
	u, err := uri.MustParse("ftp://anonymous@ftp.example/").Edit().SetRawPassword("me%40example.org").URI()
	fmt.Println(u, err)
	// Output: ftp://anonymous:me%40example.org@ftp.example/ <nil>
}

func ExampleRegistry_AddDefaultPort() {
	u, _ := uri.DefaultRegistry().AddDefaultPort(uri.MustParse("https://example.com/"))
	fmt.Println(u)
	// Output: https://example.com:443/
}

func ExampleRegistry_DropDefaultPort() {
	u, _ := uri.DefaultRegistry().DropDefaultPort(uri.MustParse("http://example.com:80/"))
	fmt.Println(u)
	// Output: http://example.com/
}
