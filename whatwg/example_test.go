package whatwg_test

import (
	"errors"
	"fmt"

	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
)

func ExampleParse() {
	u, err := whatwg.Parse("  HTTP://EXAMPLE.com:80/a/../b c?q=1#top")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Href())
	fmt.Println(u.Host(), u.Pathname(), u.Search(), u.Hash())
	fmt.Println(u.Errors())
	// Output:
	// http://example.com/b%20c?q=1#top
	// example.com /b%20c ?q=1 #top
	// [invalid-URL-unit]
}

func ExampleParse_failure() {
	_, err := whatwg.Parse("https://exa mple.org/")
	fmt.Println(err)
	fmt.Println(errors.Is(err, whatwg.DomainToASCII))
	// Output:
	// whatwg: domain-to-ASCII at offset 8 of "https://exa mple.org/"
	// true
}

func ExampleParseRef() {
	base := whatwg.MustParse("https://example.com/docs/guide/intro.html")
	for _, href := range []string{"../img/a.png", "//cdn.example.net/x.js", `\\evil.example\x`, "?page=2"} {
		u, _ := whatwg.ParseRef(base, href)
		fmt.Println(u.Href())
	}
	// Output:
	// https://example.com/docs/img/a.png
	// https://cdn.example.net/x.js
	// https://evil.example/x
	// https://example.com/docs/guide/intro.html?page=2
}

func ExampleURL_SetHost() {
	u := whatwg.MustParse("https://example.com:8443/a?b")
	fmt.Println(u.SetHost("EXAMPLE.org:443").Href())
	fmt.Println(u.SetHostname("bücher.de").Href())
	fmt.Println(u.SetPort("80").SetPathname("/x y").SetSearch("").SetHash("f").Href())
	// Output:
	// https://example.org/a?b
	// https://xn--bcher-kva.de:8443/a?b
	// https://example.com:80/x%20y#f
}

func ExampleURL_SearchParams() {
	u := whatwg.MustParse("https://example.com/?q=a+b&lang=en&q=%C3%A9")
	sp := u.SearchParams()
	fmt.Println(sp.GetAll("q"))
	fmt.Println(u.SetSearchParams(sp.Delete("lang").Append("page", "2")).Href())
	// Output:
	// [a b é]
	// https://example.com/?q=a+b&q=%C3%A9&page=2
}

func ExampleURL_URI() {
	u := whatwg.MustParse("http://[::FFFF:127.0.0.1]/a|b")
	r, err := u.URI()
	fmt.Println(u.Href(), err != nil)
	u = whatwg.MustParse("http://0x7f.1/")
	r, err = u.URI()
	fmt.Println(r.Host(), r.HostKind(), err)
	// Output:
	// http://[::ffff:7f00:1]/a|b true
	// 127.0.0.1 ipv4 <nil>
}

func ExampleFromURI() {
	u, err := whatwg.FromURI(uri.MustParse("HTTPS://Example.COM:443/./a"))
	fmt.Println(u.Href(), err)
	// Output:
	// https://example.com/a <nil>
}

func ExampleURL_Origin() {
	for _, s := range []string{"https://u:p@example.com:8080/x", "blob:https://example.com/uuid", "file:///tmp/x", "mailto:a@b"} {
		fmt.Println(whatwg.MustParse(s).Origin())
	}
	// Output:
	// https://example.com:8080
	// https://example.com
	// null
	// null
}

func ExampleParseSearchParams() {
	sp := whatwg.ParseSearchParams("?b=2&a=1&b=1")
	fmt.Println(sp.Sort().String(), sp.Size())
	v, ok := sp.Get("b")
	fmt.Println(v, ok, sp.Has("c"))
	// Output:
	// a=1&b=2&b=1 3
	// 2 true false
}

func ExampleValidationError() {
	u := whatwg.MustParse("http://user@0300.0250.0.1/")
	for _, e := range u.Errors() {
		fmt.Println(e)
	}
	fmt.Println(u.Host())
	// Output:
	// IPv4-non-decimal-part
	// invalid-credentials
	// 192.168.0.1
}
