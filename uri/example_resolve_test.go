package uri_test

import (
	"errors"
	"fmt"

	"github.com/urikit/urikit/uri"
)

func ExampleURI_Resolve() {
	base := uri.MustParse("http://a/b/c/d;p?q")
	for _, ref := range []string{"g", "../g", "?y", "#s", "../../../g", "//h/p"} {
		fmt.Println(base.Resolve(uri.MustParse(ref)))
	}
	// A path that would read as an authority is kept a path.
	fmt.Println(uri.MustParse("scheme:").Resolve(uri.MustParse("/..//x")))
	// Output:
	// http://a/b/c/g
	// http://a/b/g
	// http://a/b/c/d;p?y
	// http://a/b/c/d;p?q#s
	// http://a/g
	// http://h/p
	// scheme:/.//x
}

func ExampleURI_Resolve2396() {
	base, _ := uri.ParseWith("http://a/b/c/d;p?q", uri.Options{Grammar: uri.RFC2396})
	ref, _ := uri.ParseWith("../../../g", uri.Options{Grammar: uri.RFC2396})
	for _, p := range []uri.DotPolicy{uri.KeepDots, uri.DropDots, uri.RejectDots} {
		r, err := base.Resolve2396(ref, p)
		fmt.Println(r, errors.Is(err, uri.ErrAboveRoot))
	}
	q, _ := uri.ParseWith("?y", uri.Options{Grammar: uri.RFC2396})
	r, _ := base.Resolve2396(q, uri.KeepDots)
	fmt.Println(r)
	// Output:
	// http://a/../g false
	// http://a/g false
	//  true
	// http://a/b/c/?y
}

func ExampleURI_Relativize() {
	base := uri.MustParse("http://example.com/a/b/c")
	for _, t := range []string{
		"http://example.com/a/b/d",
		"http://example.com/a/x/y?q",
		"http://example.com/a/b/c#f",
		"http://other.example/a",
		"ftp://example.com/a",
	} {
		r, relErr := base.Relativize(uri.MustParse(t))
		ok := relErr == nil
		fmt.Printf("%q %v\n", r, ok)
	}
	// Dot segments are removed by every resolution that merges paths.
	_, relErr := base.Relativize(uri.MustParse("http://example.com/a/../b"))
	ok := relErr == nil
	fmt.Println(ok)
	// Output:
	// "d" true
	// "../x/y?q" true
	// "#f" true
	// "//other.example/a" true
	// "ftp://example.com/a" true
	// false
}

func ExampleURI_Relativize2396() {
	base, _ := uri.ParseWith("http://a/b/c/d;p?q", uri.Options{Grammar: uri.RFC2396})
	t, _ := uri.ParseWith("http://a/b/c/d;p?y", uri.Options{Grammar: uri.RFC2396})
	r, relErr := base.Relativize2396(t)
	ok := relErr == nil
	fmt.Println(r, ok)
	// Output:
	// d;p?y true
}
