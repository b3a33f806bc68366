package htmldoc_test

import (
	"fmt"
	"strings"

	"github.com/urikit/urikit/htmldoc"
	"github.com/urikit/urikit/uri"
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
