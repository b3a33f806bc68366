package htmldoc

import (
	"net/http"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// appendixD is the example document of the 1998 draft's Appendix D.
const appendixD = `<!doctype html public "-//IETF//DTD HTML//EN">
<HTML><HEAD>
<TITLE>An example HTML document</TITLE>
<BASE href="http://www.ics.uci.edu/Test/a/b/c">
</HEAD><BODY>
... <A href="../x">a hypertext anchor</A> ...
</BODY></HTML>
`

// TestAppendixD: "A parser reading the example document should
// interpret the given relative URI "../x" as representing the absolute
// URI <http://www.ics.uci.edu/Test/a/x> regardless of the context in
// which the example document was obtained."
func TestAppendixD(t *testing.T) {
	for _, retrieval := range []string{"http://elsewhere.example/doc.html", "file:///tmp/x.html"} {
		var links []Link
		b, err := Links(strings.NewReader(appendixD), uri.MustParse(retrieval), http.Header{"Content-Base": {"http://cb.example/"}}, func(l Link) bool {
			links = append(links, l)
			return true
		})
		if err != nil || b.Source != SourceBaseElement || b.URI.String() != "http://www.ics.uci.edu/Test/a/b/c" {
			t.Fatalf("base %v %v", b, err)
		}
		if len(links) != 1 || links[0].URI.String() != "http://www.ics.uci.edu/Test/a/x" || links[0].Element != "a" || links[0].Line != 6 {
			t.Fatalf("links %+v", links)
		}
	}
}

func TestBaseLayers(t *testing.T) {
	ret := uri.MustParse("http://r.example/dir/page.html#f")
	tests := []struct {
		doc    string
		header http.Header
		base   string
		source string
	}{
		{`<a href=x>`, nil, "http://r.example/dir/page.html", SourceRetrieval},
		{`<a href=x>`, http.Header{"Content-Location": {"other/p.html"}}, "http://r.example/dir/other/p.html", SourceContentLocation},
		{`<a href=x>`, http.Header{"Content-Base": {"http://cb.example/b/"}, "Content-Location": {"/cl"}}, "http://cb.example/b/", SourceContentBase},
		// A relative href is resolved against the next layer out.
		{`<base href="sub/">`, http.Header{"Content-Location": {"/cl/x"}}, "http://r.example/cl/sub/", SourceBaseElement},
		// The first base with an href wins, anywhere in the document.
		{`<p><base target=_top><base href=" http://b1.example/ "><base href="http://b2.example/">`, nil, "http://b1.example/", SourceBaseElement},
		// Empty, data: and javascript: hrefs fall back.
		{`<base href="">`, nil, "http://r.example/dir/page.html", SourceRetrieval},
		{`<base href="javascript:void(0)"><base href="data:text/plain,x">`, nil, "http://r.example/dir/page.html", SourceRetrieval},
		// Entities are decoded.
		{`<base href="http://e.example/?a=1&amp;b=2">`, nil, "http://e.example/?a=1&b=2", SourceBaseElement},
	}
	for _, tt := range tests {
		b, err := BaseOf(strings.NewReader(tt.doc), ret, tt.header)
		if err != nil || b.URI.String() != tt.base || b.Source != tt.source {
			t.Errorf("%q %v: got %s (%s), %v; want %s (%s)", tt.doc, tt.header, b.URI, b.Source, err, tt.base, tt.source)
		}
	}
	if _, err := BaseOf(strings.NewReader(""), uri.MustParse("/rel"), nil); err == nil {
		t.Error("relative retrieval URI: no error")
	}
}

func TestLinks(t *testing.T) {
	doc := `<html><head><link rel=stylesheet href=" /css/a.css ">
<script src="js/app.js"></script></head>
<body><a href="../up.html">up</a> <img src="images/ü.png">
<form action="?q=1"></form><iframe src="//cdn.example/f"></iframe>
<area href="#map"><a name=x>no href</a><a href="page 2.html">sp</a>
<base href="http://late.example/root/">
</body></html>`
	var got []string
	b, err := Links(strings.NewReader(doc), uri.MustParse("http://r.example/d/p.html"), nil, func(l Link) bool {
		got = append(got, l.Element+" "+l.Attr+" "+l.URI.String())
		return true
	})
	want := []string{
		"link href http://late.example/css/a.css",
		"script src http://late.example/root/js/app.js",
		"a href http://late.example/up.html",
		"img src http://late.example/root/images/%C3%BC.png",
		"form action http://late.example/root/?q=1",
		"iframe src http://cdn.example/f",
		"area href http://late.example/root/#map",
		"a href http://late.example/root/page%202.html",
	}
	if err != nil || b.Source != SourceBaseElement || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %v (%v)\n%s\nwant\n%s", b, err, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDeepNesting: linear time on deeply nested HTML.
func TestDeepNesting(t *testing.T) {
	testshared.CheckLinearN(t, "nesting", 20000, func(n int) string {
		return strings.Repeat("<div><a href=x>", n) + strings.Repeat("</a></div>", n)
	}, func(doc string) {
		k, n := 0, strings.Count(doc, "<a ")
		Links(strings.NewReader(doc), uri.MustParse("http://a/"), nil, func(Link) bool { k++; return true })
		if k != n {
			t.Fatalf("%d links, want %d", k, n)
		}
	})
}

func FuzzLinks(f *testing.F) {
	f.Add(appendixD)
	f.Add(`<base href="x"><a href="<>">`)
	f.Fuzz(func(t *testing.T, doc string) {
		base := uri.MustParse("http://r.example/a/b")
		Links(strings.NewReader(doc), base, nil, func(l Link) bool {
			if !l.URI.HasScheme() {
				t.Fatalf("unresolved link %+v", l)
			}
			return true
		})
		BaseOf(strings.NewReader(doc), base, nil)
	})
}
