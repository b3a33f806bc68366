package htmldoc

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
	"golang.org/x/net/html"
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
		source Source
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

// refClean is the reference reading of an attribute value, written
// from the specs apart from clean: the HTML tokenizer turns a NUL into
// U+FFFD ("append a U+FFFD REPLACEMENT CHARACTER character to the
// current attribute's value"), then the URL Standard (4.4) "Remove any
// leading and trailing C0 control or space from input" and "Remove all
// ASCII tab or newline from input".
func refClean(v string) string {
	v = strings.ReplaceAll(v, "\x00", "\uFFFD")
	v = strings.TrimFunc(v, func(r rune) bool { return r <= 0x20 })
	return strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(v)
}

// FuzzLinks compares each link with a reference reading of its href
// (strip, remove tabs and newlines, then resolve by RFC 3986 5.2) where
// the cleaned href is a URI reference; and checks, on any document, that
// every link is resolved or carries its error, that an input read once
// gives what a seekable one gives unless a base came late, and that
// BaseOf and Links agree on the base.
func FuzzLinks(f *testing.F) {
	f.Add(appendixD, "", "")
	f.Add(`<base href="x"><a href="<>">`, "/\t/evil.example/", "ht\ttps://b.example/")
	f.Add(`<svg><base href="http://s/"></svg><a href=y>`, "java\nscript:alert(1)", "data:,x")
	f.Add(`<template><base href=t></template>`, "http://a b/", "http://[bad")
	f.Add("", " \x01HTTP://A.example/%7e?\r\n#f", "//h%2fx/")
	f.Fuzz(func(t *testing.T, doc, href, baseHref string) {
		ret := uri.MustParse("http://r.example/a/b")
		full := `<base href="` + html.EscapeString(baseHref) + `"><a href="` + html.EscapeString(href) + `">` + doc

		// The reference base: the first base element decides. It is
		// defined where the cleaned href is empty or a URI reference.
		b, err := BaseOf(strings.NewReader(full), ret, nil)
		if err != nil {
			t.Fatal(err)
		}
		bc := refClean(baseHref)
		bu, perr := uri.Parse(bc)
		switch {
		case bc == "":
			if b.URI != ret {
				t.Fatalf("empty base href: got %s", b.URI)
			}
		case perr == nil:
			want := ret.Resolve(bu)
			if s := strings.ToLower(want.Scheme()); s == "data" || s == "javascript" {
				want = ret
			}
			// Only a host the URL Standard refuses after decoding may
			// fall back where the strict reading did not.
			if b.URI != want && !(b.URI == ret && strings.Contains(bu.Host(), "%")) {
				t.Fatalf("base %q: got %s, reference %s", baseHref, b.URI, want)
			}
		}

		var links []Link
		lb, err := Links(strings.NewReader(full), ret, nil, func(l Link) bool {
			links = append(links, l)
			return true
		})
		if err != nil || lb != b {
			t.Fatalf("Links base %v (%v), BaseOf %v", lb, err, b)
		}
		if len(links) == 0 {
			t.Fatal("the link is missing")
		}
		l := links[0]
		rc := refClean(href)
		if l.Ref != rc {
			t.Fatalf("ref %q, reference %q", l.Ref, rc)
		}
		if u, err := uri.Parse(rc); err == nil {
			want := b.URI.Resolve(u)
			var pe *uri.ParseError
			switch {
			case l.Err == nil && l.URI != want:
				t.Fatalf("href %q: got %s, reference %s", href, l.URI, want)
			case l.Err != nil && !(errors.As(l.Err, &pe) && pe.Component == uri.ComponentHost && strings.Contains(u.Host(), "%")):
				t.Fatalf("href %q: error %v, reference %s", href, l.Err, want)
			}
			s := strings.ToLower(want.Scheme())
			if l.Active != (s == "javascript" || s == "vbscript" || s == "data") {
				t.Fatalf("href %q: active %v", href, l.Active)
			}
		}
		for _, l := range links {
			if (l.Err == nil) == l.URI.IsZero() || (l.Err == nil && !l.URI.HasScheme()) {
				t.Fatalf("link neither resolved nor failed: %+v", l)
			}
			if l.Err == nil {
				if _, err := uri.Parse(l.URI.String()); err != nil {
					t.Fatalf("invalid URI %q", l.URI)
				}
			}
		}

		// Read once with a small bound: the same links, unless the base
		// came late.
		var once []Link
		_, err = LinksWith(onceReader{strings.NewReader(full)}, ret, nil, Options{MaxHeld: 1}, func(l Link) bool {
			once = append(once, l)
			return true
		})
		var le *LateBaseError
		if !errors.As(err, &le) {
			if err != nil || len(once) != len(links) {
				t.Fatalf("read once: %d links (%v), seekable %d", len(once), err, len(links))
			}
			for i := range once {
				if once[i].URI != links[i].URI || once[i].Ref != links[i].Ref {
					t.Fatalf("read once: link %d %v, seekable %v", i, once[i], links[i])
				}
			}
		}
	})
}

// TestBrowserReading: the HTML standard parses a URL attribute with the
// URL Standard's parser, whose first steps (URL Standard, 4.4 URL
// parsing) are "Remove any leading and trailing C0 control or space from
// input" and "Remove all ASCII tab or newline from input". An href is
// read that way, so that a link filter built on Links sees what a
// browser follows (issue 20 item 8).
func TestBrowserReading(t *testing.T) {
	const page = "https://good.example/d/p"
	tests := []struct {
		href, uri string
	}{
		// A tab between the slashes: a network-path reference.
		{"/&#x09;/evil.example/", "https://evil.example/"},
		{"/&#x0A;/evil.example/", "https://evil.example/"},
		{"/&#x0D;/evil.example/", "https://evil.example/"},
		{"java&#x0A;script:alert(2)", "javascript:alert(2)"},
		{"ht&#x09;tps://evil.example/", "https://evil.example/"},
		// Leading and trailing C0 controls and spaces go, inner ones
		// other than tab and newline stay (and are percent-encoded).
		{"&#x01; &#x1F;http://a.example/x&#x0C; ", "http://a.example/x"},
		{"x&#x0C;y", "https://good.example/d/x%0Cy"},
		{"a b", "https://good.example/d/a%20b"},
		// Without any of these, nothing changes.
		{"../q?x#y", "https://good.example/q?x#y"},
	}
	for _, tt := range tests {
		var got []string
		Links(strings.NewReader(`<a href="`+tt.href+`">`), uri.MustParse(page), nil, func(l Link) bool {
			got = append(got, l.URI.String())
			return true
		})
		if len(got) != 1 || got[0] != tt.uri {
			t.Errorf("%q: got %q, want %q", tt.href, got, tt.uri)
		}
	}
	// A base element's href is read the same way: the browser uses it.
	b, err := BaseOf(strings.NewReader(`<base href="ht&#x09;tps://evil.example/">`), uri.MustParse(page), nil)
	if err != nil || b.URI.String() != "https://evil.example/" || b.Source != SourceBaseElement {
		t.Errorf("base with a tab in its scheme: %v %v", b, err)
	}
	b, _ = BaseOf(strings.NewReader("<base href=\"\n/\t/b.example/x\n\">"), uri.MustParse(page), nil)
	if b.URI.String() != "https://b.example/x" {
		t.Errorf("base with newlines: %v", b)
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, out string }{
		{"", ""},
		{" \x00\x1f", ""},
		{"\x7f a \x7f", "\x7f a \x7f"}, // DEL is not a C0 control
		{"\u00a0a", "\u00a0a"},         // nor is NBSP
		{"\ta\tb\nc\rd\t", "abcd"},
		{"a\fb", "a\fb"}, // form feed is a C0 control, but not a tab or newline
	}
	for _, tt := range tests {
		if got := clean(tt.in); got != tt.out {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.out)
		}
	}
}

// TestActive: javascript:, vbscript: and data: links are marked in any
// case and after the URL Standard's stripping (issue 20 item 9); the
// scheme is case-insensitive (RFC 3986 3.1: "schemes are
// case-insensitive").
func TestActive(t *testing.T) {
	tests := []struct {
		href   string
		active bool
	}{
		{"javascript:alert(1)", true},
		{"JaVaScRiPt:alert(1)", true},
		{" &#x01;javascript:alert(1)", true},
		{"java&#x0A;script:alert(2)", true},
		{"j&#x09;a&#x0D;vascript:x", true},
		{"vbscript:msgbox(1)", true},
		{"VBScript:msgbox(1)", true},
		{"data:text/html,<script>alert(1)</script>", true},
		{"DATA:,x", true},
		// Not active: another scheme, a relative reference that only
		// looks like one, an inner character that is not stripped.
		{"http://a.example/javascript:x", false},
		{"./javascript:x", false},
		{"javascripts:x", false},
		{"mailto:a@b.example", false},
		{"#top", false},
	}
	for _, tt := range tests {
		var got []Link
		Links(strings.NewReader(`<a href="`+tt.href+`">`), uri.MustParse("https://p.example/d/"), nil, func(l Link) bool {
			got = append(got, l)
			return true
		})
		if len(got) != 1 || got[0].Active != tt.active {
			t.Errorf("%q: got %+v, want active %v", tt.href, got, tt.active)
		}
	}
}

// TestBaseOutOfDocument: the HTML standard's document base URL is "the
// frozen base URL of the first base element in the Document that has an
// href attribute, in tree order". A base in a template is in the
// template contents, a DocumentFragment, not in the Document; a <base>
// in SVG or MathML is a foreign element, not an HTML base element (issue
// 20 item 10). Both ways: the same base elsewhere counts.
func TestBaseOutOfDocument(t *testing.T) {
	const ret = "http://r.example/p"
	tests := []struct {
		doc, base string
	}{
		{`<template><base href="http://t.example/"></template>`, ret},
		{`<template><div><base href="http://t.example/"></div></template><base href="http://ok.example/">`, "http://ok.example/"},
		{`<template><template></template><base href="http://t.example/"></template>`, ret},
		{`<template/><base href="http://t.example/">`, ret}, // template is not void
		{`<svg><base href="http://s.example/"></svg>`, ret},
		{`<svg><g><base href="http://s.example/"/></g></svg><base href="http://ok.example/">`, "http://ok.example/"},
		{`<math><base href="http://m.example/"></math>`, ret},
		{`<svg/><base href="http://ok.example/">`, "http://ok.example/"},
		// An HTML integration point is HTML inside: the base is an HTML
		// element in the Document.
		{`<svg><foreignObject><base href="http://ok.example/"></foreignObject></svg>`, "http://ok.example/"},
		{`<math><mi><base href="http://ok.example/"></mi></math>`, "http://ok.example/"},
		{`<math><annotation-xml encoding="text/html"><base href="http://ok.example/">`, "http://ok.example/"},
		{`<math><annotation-xml><base href="http://m.example/">`, ret},
		{`<math><title><base href="http://m.example/">`, ret}, // a MathML title is no integration point
		// A breakout tag ends foreign content.
		{`<svg><p><base href="http://ok.example/">`, "http://ok.example/"},
		{`<svg></p><base href="http://ok.example/">`, "http://ok.example/"},
		{`<svg><font color=red><base href="http://ok.example/">`, "http://ok.example/"},
		{`<svg><font><base href="http://s.example/">`, ret},
		// Closing the template closes the foreign content inside it.
		{`<template><svg></template><base href="http://ok.example/">`, "http://ok.example/"},
		// Raw text is no markup (noscript as with scripting enabled).
		{`<noscript><base href="http://n.example/"></noscript>`, ret},
		{`<textarea><base href="http://n.example/"></textarea>`, ret},
		{`<!-- <base href="http://n.example/"> -->`, ret},
		{`<svg><![CDATA[ > <base href="http://n.example/"> ]]></svg>`, ret},
		{`<svg><title><base href="http://ok.example/"></title></svg>`, "http://ok.example/"}, // an SVG title is an HTML integration point
		{`<svg><script><base href="http://s.example/"></script></svg>`, ret},
		{`<svg><style><a href="x"></style></svg><base href="http://ok.example/">`, "http://ok.example/"},
	}
	for _, tt := range tests {
		b, err := BaseOf(strings.NewReader(tt.doc), uri.MustParse(ret), nil)
		if err != nil || b.URI.String() != tt.base {
			t.Errorf("%s: base %s, want %s (%v)", tt.doc, b.URI, tt.base, err)
		}
		// Links agrees with BaseOf.
		var got string
		Links(strings.NewReader(tt.doc+`<a href="x">`), uri.MustParse(ret), nil, func(l Link) bool {
			got = l.URI.String()
			return true
		})
		want := uri.MustParse(tt.base).Resolve(uri.MustParse("x")).String()
		if got != want {
			t.Errorf("%s: link %s, want %s", tt.doc, got, want)
		}
	}
}

// TestDeepForeign: nesting deeper than scope keeps by name costs no
// memory beyond it, and still ends where the tags end.
func TestDeepForeign(t *testing.T) {
	doc := "<svg>" + strings.Repeat("<g>", 10*maxForeign) + `<base href="http://s.example/">` +
		strings.Repeat("</g>", 10*maxForeign) + `</svg><base href="http://ok.example/">`
	b, _ := BaseOf(strings.NewReader(doc), uri.MustParse("http://r.example/"), nil)
	if b.URI.String() != "http://ok.example/" {
		t.Errorf("base %s", b.URI)
	}
	testshared.CheckLinearN(t, "svg nesting", 20000, func(n int) string {
		return "<svg>" + strings.Repeat("<g><a href=x>", n) + strings.Repeat("</g>", n)
	}, func(doc string) {
		BaseOf(strings.NewReader(doc), uri.MustParse("http://a/"), nil)
	})
}

// TestFirstBaseCounts: the HTML standard's "document base URL" is "the
// frozen base URL of the first base element in the Document that has an
// href attribute, in tree order", and the frozen base URL is "document's
// fallback base URL" when "urlRecord is failure" or "urlRecord's scheme
// is "data" or "javascript"". So the first base element with an href
// decides, even when it is unusable: the base is then the next layer
// out, never a later base element (issue 16 item 7). A host with a space
// is failure to the URL Standard ("forbidden host code point").
func TestFirstBaseCounts(t *testing.T) {
	const ret = "http://r.example/dir/page.html"
	cl := http.Header{"Content-Location": {"/cl/x"}}
	tests := []struct {
		doc    string
		header http.Header
		base   string
		source Source
	}{
		{`<base href=""><base href="http://b2.example/">`, nil, ret, SourceRetrieval},
		{`<base href="  &#x09; "><base href="http://b2.example/">`, nil, ret, SourceRetrieval},
		{`<base href="http://[bad"><base href="http://b2.example/">`, nil, ret, SourceRetrieval},
		{`<base href="http://a b/"><base href="http://b2.example/">`, nil, ret, SourceRetrieval},
		{`<base href="data:,x"><base href="http://b2.example/">`, nil, ret, SourceRetrieval},
		{`<base href="JavaScript:x"><base href="http://b2.example/">`, nil, ret, SourceRetrieval},
		{`<base href="java&#x0A;script:x"><base href="http://b2.example/">`, nil, ret, SourceRetrieval},
		// The next layer out is Content-Location when there is one.
		{`<base href="data:,x"><base href="http://b2.example/">`, cl, "http://r.example/cl/x", SourceContentLocation},
		{`<base href=""><base href="http://b2.example/">`, http.Header{"Content-Base": {"http://cb.example/"}}, "http://cb.example/", SourceContentBase},
		// A base element without an href does not count; a later one does.
		{`<base target="_blank"><base href="http://b2.example/">`, nil, "http://b2.example/", SourceBaseElement},
		// The other way: a usable first href is the base.
		{`<base href="http://b1.example/"><base href="">`, nil, "http://b1.example/", SourceBaseElement},
		{`<base href="vbscript:x">`, nil, "vbscript:x", SourceBaseElement},     // not among the HTML standard's two
		{`<base href="http://a%20b.example/">`, nil, ret, SourceRetrieval},     // decoded, a space
		{`<base href="foo://a%20b/">`, nil, "foo://a%20b/", SourceBaseElement}, // an opaque host keeps it
	}
	for _, tt := range tests {
		b, err := BaseOf(strings.NewReader(tt.doc), uri.MustParse(ret), tt.header)
		if err != nil || b.URI.String() != tt.base || b.Source != tt.source {
			t.Errorf("%s %v: got %s (%s) %v, want %s (%s)", tt.doc, tt.header, b.URI, b.Source, err, tt.base, tt.source)
		}
	}
}

// TestHostRefused: a host the URL Standard's host parser refuses (a
// "forbidden host code point", or for a domain a "forbidden domain code
// point" after percent-decoding) makes the href unparsable, where repair
// would have escaped it; the link is reported with the error and its
// offset (issue 16 items 7 and 10).
func TestHostRefused(t *testing.T) {
	tests := []struct {
		href string
		off  int // -1: no error
		uri  string
	}{
		{"http://a b/", 8, ""},
		{"//a b/x", 3, ""},
		{"http://u@a b/", 10, ""},
		{"http://a<b/", 8, ""},
		{"http://a|b/", 8, ""},
		{"http://a^b/", 8, ""},
		{"http://a%zz/", 8, ""},
		{"http://a%2Fb/", 8, ""},
		{"http://a%20b/", 8, ""},
		{"http://a]b/", 8, ""},
		{`http:\\a b\`, 8, ""},
		{"http://[bad", 7, ""},
		{"http://[::1", 7, ""},
		// Both ways: what is fine in a host, and a space elsewhere.
		{"http://a%41b/", -1, "http://a%41b/"},
		{"http://u%20v@a/", -1, "http://u%20v@a/"},
		{"http://[::1]:8080/a b", -1, "http://[::1]:8080/a%20b"},
		{"http://a/b c?d e#f g", -1, "http://a/b%20c?d%20e#f%20g"},
		{"foo://a%zzb/", -1, "foo://a%25zzb/"}, // an opaque host is not decoded
		{"a b", -1, "https://p.example/d/a%20b"},
	}
	for _, tt := range tests {
		var got []Link
		Links(strings.NewReader(`<a href="`+tt.href+`">`), uri.MustParse("https://p.example/d/"), nil, func(l Link) bool {
			got = append(got, l)
			return true
		})
		if len(got) != 1 {
			t.Errorf("%q: %d links", tt.href, len(got))
			continue
		}
		l := got[0]
		var pe *uri.ParseError
		if tt.off < 0 {
			if l.Err != nil || l.URI.String() != tt.uri {
				t.Errorf("%q: got %s, %v; want %s", tt.href, l.URI, l.Err, tt.uri)
			}
		} else if !errors.As(l.Err, &pe) || pe.Offset != tt.off || !l.URI.IsZero() {
			t.Errorf("%q: got %s, %v; want an error at %d", tt.href, l.URI, l.Err, tt.off)
		}
	}
}

// onceReader hides the Seek of a reader: an input read once, a pipe.
type onceReader struct{ r io.Reader }

func (o onceReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestBoundedHolding: links before the base element are held in bounded
// memory (issue 18, issue 20 item 11). On an input that can seek, the
// answer does not depend on the bound; on one read once, past the bound
// the links go out against the outer base and a later base element is a
// LateBaseError; both ways.
func TestBoundedHolding(t *testing.T) {
	ret := uri.MustParse("http://r.example/d/")
	doc := strings.Repeat(`<a href="x">`, 10) + `<base href="http://b.example/">` + `<a href="y">`
	collect := func(r io.Reader, o Options) ([]string, Base, error) {
		var got []string
		b, err := LinksWith(r, ret, nil, o, func(l Link) bool {
			got = append(got, l.URI.String())
			return true
		})
		return got, b, err
	}
	want := strings.Repeat("http://b.example/x ", 10) + "http://b.example/y "
	for _, max := range []int{0, 3, -1} {
		got, b, err := collect(strings.NewReader(doc), Options{MaxHeld: max})
		if err != nil || b.URI.String() != "http://b.example/" || strings.Join(got, " ")+" " != want {
			t.Errorf("seekable, MaxHeld %d: %v %v %v", max, got, b, err)
		}
	}
	// Read once, within the bound: the same answer.
	got, _, err := collect(onceReader{strings.NewReader(doc)}, Options{MaxHeld: 10})
	if err != nil || strings.Join(got, " ")+" " != want {
		t.Errorf("read once, within the bound: %v %v", got, err)
	}
	// Read once, past the bound: the links before the base element are
	// resolved without it, and the error says so.
	got, b, err := collect(onceReader{strings.NewReader(doc)}, Options{MaxHeld: 9})
	var le *LateBaseError
	if !errors.As(err, &le) || le.Released != 10 || le.Line != 1 || b.URI.String() != "http://b.example/" ||
		got[0] != "http://r.example/d/x" || got[10] != "http://b.example/y" {
		t.Errorf("read once, past the bound: %v %v %v", got, b, err)
	}
	// Without a base element, no error and the outer base.
	got, b, err = collect(onceReader{strings.NewReader(strings.Repeat(`<a href="x">`, 100))}, Options{MaxHeld: 9})
	if err != nil || len(got) != 100 || b.Source != SourceRetrieval {
		t.Errorf("read once, no base: %d links, %v, %v", len(got), b, err)
	}
	// The text held is bounded too.
	long := `<a href="` + strings.Repeat("a", maxHeldBytes/2) + `">`
	got, _, err = collect(onceReader{strings.NewReader(long + long + long + `<base href="http://b.example/">`)}, Options{})
	if !errors.As(err, &le) || le.Released != 3 || len(got) != 3 {
		t.Errorf("held text bounded: %d links, %v", len(got), err)
	}
	// An input that seeks is read again from where it started.
	r := strings.NewReader("<p>skipped" + doc)
	r.Seek(int64(len("<p>skipped")), io.SeekStart)
	got, _, err = collect(r, Options{MaxHeld: 3})
	if err != nil || strings.Join(got, " ")+" " != want {
		t.Errorf("seekable from an offset: %v %v", got, err)
	}
	// fn stopping stops both ways.
	for _, r := range []io.Reader{strings.NewReader(doc), onceReader{strings.NewReader(doc)}} {
		n := 0
		LinksWith(r, ret, nil, Options{MaxHeld: 3}, func(Link) bool { n++; return n < 2 })
		if n != 2 {
			t.Errorf("%T: fn called %d times after it asked to stop", r, n)
		}
	}
}

// scripted serves one chunk per read; "" marks a moment the input is
// idle, which Idle reports (and passes).
type scripted struct {
	chunks []string
	reads  int
}

func (s *scripted) Read(p []byte) (int, error) {
	if len(s.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.chunks[0])
	s.chunks[0] = s.chunks[0][n:]
	if s.chunks[0] == "" {
		s.chunks = s.chunks[1:]
	}
	s.reads++
	return n, nil
}

func (s *scripted) Idle() bool {
	if len(s.chunks) > 0 && s.chunks[0] == "" {
		s.chunks = s.chunks[1:]
		return true
	}
	return false
}

// TestIdle: on an input read once, the links held go out when the input
// is idle, so that a stream of pages is printed as it arrives; a base
// element after them is reported. Both ways: not idle, they are held.
func TestIdle(t *testing.T) {
	run := func(chunks ...string) ([]string, []int, error) {
		s := &scripted{chunks: chunks}
		var got []string
		var at []int
		_, err := LinksWith(s, uri.MustParse("http://r.example/"), nil, Options{Idle: s.Idle}, func(l Link) bool {
			got = append(got, l.URI.String())
			at = append(at, s.reads)
			return true
		})
		return got, at, err
	}
	got, at, err := run(`<a href="p1">`, "", `<a href="p2">`, `<base href="http://late.example/">`)
	var le *LateBaseError
	if len(got) != 2 || got[0] != "http://r.example/p1" || at[0] != 1 || got[1] != "http://late.example/p2" ||
		!errors.As(err, &le) || le.Released != 1 {
		t.Errorf("idle: %v at reads %v, %v", got, at, err)
	}
	got, at, err = run(`<a href="p1">`, `<a href="p2">`, `<base href="http://late.example/">`)
	if len(got) != 2 || got[0] != "http://late.example/p1" || at[0] != 3 || err != nil {
		t.Errorf("not idle: %v at reads %v, %v", got, at, err)
	}
}

// TestManyLinks: a million links cost linear work and bounded holding
// (issue 20 item 11: "1M links take 311 MB and print nothing before
// EOF").
func TestManyLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	testshared.CheckLinearN(t, "1M links", 1<<17, func(n int) string {
		return strings.Repeat(`<a href="/p/q?x=1">t</a>`, n)
	}, func(doc string) {
		k := 0
		LinksWith(onceReader{strings.NewReader(doc)}, uri.MustParse("http://a/"), nil, Options{}, func(Link) bool { k++; return true })
		if k != strings.Count(doc, "<a ") {
			t.Fatalf("%d links", k)
		}
	})
	// A seekable input without a base element is read twice.
	testshared.CheckLinearN(t, "read twice", 1<<14, func(n int) string {
		return strings.Repeat(`<a href="/p/q?x=1">t</a>`, n)
	}, func(doc string) {
		k := 0
		Links(strings.NewReader(doc), uri.MustParse("http://a/"), nil, func(Link) bool { k++; return true })
		if k != strings.Count(doc, "<a ") {
			t.Fatalf("%d links", k)
		}
	})
}
