package htmldoc_test

import (
	"fmt"
	"strings"

	"github.com/urikit/urikit/htmldoc"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
)

func ExampleLinks() {
	doc := `<HTML><HEAD><BASE href="http://www.ics.uci.edu/Test/a/b/c"></HEAD>
<BODY>... <A href="../x">a hypertext anchor</A> ...</BODY></HTML>`
	base, _ := htmldoc.Links(strings.NewReader(doc), uri.MustParse("http://elsewhere.example/"), nil, func(l htmldoc.Link) bool {
		fmt.Println(l.Element, l.Ref, l.URI)
		return true
	})
	fmt.Println(base.Source)
	// Output:
	// a ../x http://www.ics.uci.edu/Test/a/x
	// base-element
}

func ExampleBaseOf() {
	b, _ := htmldoc.BaseOf(strings.NewReader("<p>no base element"), uri.MustParse("http://example.com/a/b.html"), nil)
	fmt.Println(b.URI, b.Source)
	// Output: http://example.com/a/b.html retrieval
}

func ExampleLinksWith() {
	// A base element after the links: held within MaxHeld, the links
	// are resolved against it.
	doc := `<a href="a.html">a</a> <a href="b.html">b</a> <base href="http://docs.example/v2/">`
	_, err := htmldoc.LinksWith(strings.NewReader(doc), uri.MustParse("http://elsewhere.example/"), nil, htmldoc.Options{MaxHeld: 2}, func(l htmldoc.Link) bool {
		fmt.Println(l.URI)
		return true
	})
	fmt.Println(err)
	// Output:
	// http://docs.example/v2/a.html
	// http://docs.example/v2/b.html
	// <nil>
}

func ExampleBrowserLinks() {
	// As a browser's a.href: backslashes, IPv4 numbers, IDN, and a host
	// the URL Standard refuses.
	doc := `<base href="HTTPS://Docs.Example/v2/"><a href="\\cdn.example\lib.js">a</a>
<a href="http://0x7f.1/admin">b</a> <a href="http://bücher.example/">c</a> <a href="http://a b/">d</a>`
	base, _ := htmldoc.BrowserLinks(strings.NewReader(doc), whatwg.MustParse("http://elsewhere.example/"), htmldoc.Options{}, func(l htmldoc.Link) bool {
		if l.Err != nil {
			fmt.Println("error:", l.Err)
			return true
		}
		fmt.Println(l.URL)
		return true
	})
	fmt.Println(base.URL, base.Source)
	// Output:
	// https://cdn.example/lib.js
	// http://127.0.0.1/admin
	// http://xn--bcher-kva.example/
	// error: whatwg: domain-to-ASCII at offset 7 of "http://a b/"
	// https://docs.example/v2/ base-element
}

func ExampleBrowserBase() {
	// The first base element fails to parse: the base is the document's
	// URL, never a later base element.
	doc := `<base href="http://[bad/"><base href="http://second.example/">`
	b, _ := htmldoc.BrowserBase(strings.NewReader(doc), whatwg.MustParse("https://example.com/a/b.html"))
	fmt.Println(b.URL, b.Source)
	// Output: https://example.com/a/b.html retrieval
}
