package uri_test

import (
	"fmt"

	"github.com/urikit/urikit/uri"
)

func ExampleNewResolver() {
	// The links of one page: the base's directory is found once.
	r := uri.NewResolver(uri.MustParse("http://a/b/c/d;p?q#top"))
	fmt.Println(r.Base()) // the base without its fragment (RFC 3986 5.1)
	for _, ref := range []string{"g", "../g", "?y", "#s", "//h/p"} {
		fmt.Println(r.Resolve(uri.MustParse(ref)))
	}
	// Output:
	// http://a/b/c/d;p?q
	// http://a/b/c/g
	// http://a/b/g
	// http://a/b/c/d;p?y
	// http://a/b/c/d;p?q#s
	// http://h/p
}

func ExampleResolver_AppendResolve() {
	r := uri.NewResolver(uri.MustParse("https://example.com/docs/guide/"))
	// One buffer for every result: no allocation once it is large enough.
	buf := make([]byte, 0, 256)
	for _, s := range []string{"intro.html", "../api/?v=2", "/", "./a/../b#c"} {
		ref, err := uri.Parse(s)
		if err != nil {
			continue
		}
		buf = r.AppendResolve(buf[:0], ref)
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// https://example.com/docs/guide/intro.html
	// https://example.com/docs/api/?v=2
	// https://example.com/
	// https://example.com/docs/guide/b#c
}

func ExampleResolver_Resolve() {
	r := uri.NewResolver(uri.MustParse("http://example.com/a/b"))
	// Results are URIs, written into blocks the Resolver shares among
	// them: they stay valid, and read like any other.
	u := r.Resolve(uri.MustParse("c/./d?x=1"))
	v := r.Resolve(uri.MustParse("//other.example:8080/"))
	fmt.Println(u, u.Path(), u.Query())
	fmt.Println(v, v.Host(), v.Port())
	// Output:
	// http://example.com/a/c/d?x=1 /a/c/d x=1
	// http://other.example:8080/ other.example 8080
}

func ExampleResolver_Reset() {
	// One Resolver for page after page.
	var r uri.Resolver
	for _, page := range []string{"http://a.example/x/y", "file:///home/me/doc.html"} {
		r.Reset(uri.MustParse(page))
		fmt.Println(r.Resolve(uri.MustParse("../img.png")))
	}
	// Output:
	// http://a.example/img.png
	// file:///home/img.png
}
