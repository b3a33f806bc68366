package htmldoc

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
)

// TestBrowserBase: the HTML standard's document base URL (2.4.3): "If
// there is no base element that has an href attribute in the Document,
// then return the Document's fallback base URL" (the document's URL);
// "Otherwise, return the frozen base URL of the first base element in
// the Document that has an href attribute, in tree order". The frozen
// base URL (4.2.3) is the href "parsed ... with document's fallback base
// URL", or the fallback when "urlRecord is failure" or "urlRecord's
// scheme is "data" or "javascript"".
func TestBrowserBase(t *testing.T) {
	doc := whatwg.MustParse("http://r.example/dir/page.html?q#f")
	tests := []struct {
		doc, base string
		source    Source
	}{
		// No base element: the fallback, the document's URL, fragment
		// and all (document.baseURI keeps it).
		{`<a href=x>`, "http://r.example/dir/page.html?q#f", SourceRetrieval},
		{`<base target=_top>`, "http://r.example/dir/page.html?q#f", SourceRetrieval},
		// Parsed with the fallback base URL, by the URL Standard.
		{`<base href="sub/">`, "http://r.example/dir/sub/", SourceBaseElement},
		{`<base href="\\other.example\x\">`, "http://other.example/x/", SourceBaseElement},
		{"<base href=\"ht\ttps://B.EXAMPLE:443/a/../b\">", "https://b.example/b", SourceBaseElement},
		{`<base href="http://0x7f.1/">`, "http://127.0.0.1/", SourceBaseElement},
		{`<base href="http://münchen.example/">`, "http://xn--mnchen-3ya.example/", SourceBaseElement},
		// "http:x" against an http URL is relative to it (the URL
		// Standard's special relative or authority state).
		{`<base href="http:x/">`, "http://r.example/dir/x/", SourceBaseElement},
		// An empty href parses to the fallback without its fragment.
		{`<base href="">`, "http://r.example/dir/page.html?q", SourceBaseElement},
		{`<base href=" ">`, "http://r.example/dir/page.html?q", SourceBaseElement},
		// Failure, data: and javascript: give the fallback; a later base
		// element is never tried.
		{`<base href="http://a b/"><base href="http://b2.example/">`, "http://r.example/dir/page.html?q#f", SourceRetrieval},
		{`<base href="http://[bad/">`, "http://r.example/dir/page.html?q#f", SourceRetrieval},
		{`<base href="http://1.2.3.256/">`, "http://r.example/dir/page.html?q#f", SourceRetrieval},
		{`<base href="DATA:,x"><base href="http://b2.example/">`, "http://r.example/dir/page.html?q#f", SourceRetrieval},
		{"<base href=\"java\nscript:x\">", "http://r.example/dir/page.html?q#f", SourceRetrieval},
		// vbscript: is no exception of the standard's.
		{`<base href="vbscript:x">`, "vbscript:x", SourceBaseElement},
		// Not the document's base element: in a template, in SVG.
		{`<template><base href="http://t.example/"></template><a href=x>`, "http://r.example/dir/page.html?q#f", SourceRetrieval},
		{`<svg><base href="http://s.example/"/></svg><base href="http://b.example/">`, "http://b.example/", SourceBaseElement},
	}
	for _, tt := range tests {
		b, err := BrowserBase(strings.NewReader(tt.doc), doc)
		if err != nil || b.URL.Href() != tt.base || b.Source != tt.source || !b.URI.IsZero() {
			t.Errorf("%q: %q %s %v, want %q %s", tt.doc, b.URL.Href(), b.Source, err, tt.base, tt.source)
		}
		// BrowserLinks returns the same base.
		lb, err := BrowserLinks(strings.NewReader(tt.doc), doc, Options{}, func(Link) bool { return true })
		if err != nil || lb != b {
			t.Errorf("%q: BrowserLinks base %v, BrowserBase %v", tt.doc, lb, b)
		}
	}
	if _, err := BrowserBase(strings.NewReader(""), whatwg.URL{}); err != ErrDocumentURL {
		t.Errorf("zero document URL: %v", err)
	}
	if _, err := BrowserLinks(strings.NewReader(""), whatwg.URL{}, Options{}, nil); err != ErrDocumentURL {
		t.Errorf("zero document URL: %v", err)
	}
}

// TestBrowserLinks: each link is "the result of encoding-parsing a URL
// given this element's href content attribute value, relative to this
// element's node document" (HTML standard, 4.6.6 "url" of
// HTMLHyperlinkElementUtils), and a.href is that URL serialized. Where
// the URL Standard and RFC 3986 differ, the RFC 3986 result of
// LinksWith is given too: the two modes do differ.
func TestBrowserLinks(t *testing.T) {
	doc := whatwg.MustParse("https://r.example/d/p")
	tests := []struct {
		href    string
		browser string // a.href, or "" when the parser fails
		off     int    // the failure's offset in the cleaned href
		name    whatwg.ValidationError
		rfc     string // LinksWith's URI, or "" when it fails
	}{
		{"../a", "https://r.example/a", 0, 0, "https://r.example/a"},
		{"/\t/evil.example/", "https://evil.example/", 0, 0, "https://evil.example/"},
		// A backslash is a slash in a special URL (and the RFC 3986
		// reading repairs it alike).
		{`\\evil.example\x`, "https://evil.example/x", 0, 0, "https://evil.example/x"},
		{`/\evil.example/`, "https://evil.example/", 0, 0, "https://evil.example/"},
		// IPv4 numbers in every form.
		{"http://0x7f.1/", "http://127.0.0.1/", 0, 0, "http://0x7f.1/"},
		{"http://2130706433/", "http://127.0.0.1/", 0, 0, "http://2130706433/"},
		{"http://0177.0.0.1/", "http://127.0.0.1/", 0, 0, "http://0177.0.0.1/"},
		{"http://1.2.3.256/", "", 7, whatwg.IPv4OutOfRangePart, "http://1.2.3.256/"},
		// IDN, default ports, case.
		{"HTTP://Bücher.EXAMPLE:80/ä", "http://xn--bcher-kva.example/%C3%A4", 0, 0, "HTTP://xn--bcher-kva.example:80/%C3%A4"},
		// A special scheme without "//", against a base of that scheme.
		{"https:x", "https://r.example/d/x", 0, 0, "https:x"},
		{"http:x", "http://x/", 0, 0, "http:x"},
		// Failures: a space in the host, an unclosed IPv6 literal, no
		// host.
		{"http://a b/", "", 7, whatwg.DomainToASCII, ""},
		{"http://[bad", "", 7, whatwg.IPv6Unclosed, ""},
		{"https://", "", 8, whatwg.HostMissing, "https://"},
		// C0 controls at the ends are stripped; inside, a path encodes
		// them.
		{"\x01/a\x01b\x1f", "https://r.example/a%01b", 0, 0, "https://r.example/a%01b"},
	}
	for _, tt := range tests {
		page := `<a href="` + tt.href + `">x</a>`
		var got []Link
		_, err := BrowserLinks(strings.NewReader(page), doc, Options{}, func(l Link) bool {
			got = append(got, l)
			return true
		})
		if err != nil || len(got) != 1 {
			t.Fatalf("%q: %d links, %v", tt.href, len(got), err)
		}
		l := got[0]
		if tt.browser != "" {
			if l.Err != nil || l.URL.Href() != tt.browser || !l.URI.IsZero() {
				t.Errorf("%q: %q (%v), want %q", tt.href, l.URL.Href(), l.Err, tt.browser)
			}
		} else {
			var pe *whatwg.ParseError
			if !errors.As(l.Err, &pe) || pe.Offset != tt.off || pe.Input != l.Ref || !errors.Is(l.Err, tt.name) || !l.URL.IsZero() {
				t.Errorf("%q: %q, %v; want %v at %d", tt.href, l.URL.Href(), l.Err, tt.name, tt.off)
			}
		}
		// The RFC 3986 reading of the same document.
		var rfc Link
		LinksWith(strings.NewReader(page), uri.MustParse(doc.Href()), nil, Options{}, func(l Link) bool { rfc = l; return true })
		if r := rfc.URI.String(); r != tt.rfc || (tt.rfc == "") != (rfc.Err != nil) {
			t.Errorf("%q: LinksWith %q (%v), want %q", tt.href, r, rfc.Err, tt.rfc)
		}
	}
}

// TestBrowserActive: a javascript:, vbscript: or data: link is Active,
// the scheme read from the URL (or from the value when it fails).
func TestBrowserActive(t *testing.T) {
	doc := whatwg.MustParse("https://r.example/")
	for _, tt := range []struct {
		href   string
		active bool
	}{
		{"JavaScript:alert(1)", true}, {"java\tscript:x", true}, {"vbscript:x", true}, {"data:,x", true},
		{"http://x/", false}, {"javascript-not:x", false}, {"/data:x", false},
	} {
		var got Link
		BrowserLinks(strings.NewReader(`<a href="`+tt.href+`">`), doc, Options{}, func(l Link) bool { got = l; return true })
		if got.Active != tt.active {
			t.Errorf("%q: active %v, want %v", tt.href, got.Active, tt.active)
		}
	}
}

// TestBrowserHolding: the links before a late base element are parsed
// with it (the document base URL is the first base element's,
// wherever it stands), on a seekable input past the bound too, and on
// an input read once past the bound a LateBaseError says which were
// not.
func TestBrowserHolding(t *testing.T) {
	doc := whatwg.MustParse("http://r.example/d/")
	page := strings.Repeat(`<a href="x">`, 10) + `<base href="http://b.example/">` + `<a href="y">`
	collect := func(r io.Reader, o Options) ([]string, error) {
		var got []string
		_, err := BrowserLinks(r, doc, o, func(l Link) bool {
			got = append(got, l.URL.Href())
			return true
		})
		return got, err
	}
	want := strings.Repeat("http://b.example/x ", 10) + "http://b.example/y "
	for _, max := range []int{0, 3} {
		got, err := collect(strings.NewReader(page), Options{MaxHeld: max})
		if err != nil || strings.Join(got, " ")+" " != want {
			t.Errorf("seekable, MaxHeld %d: %v %v", max, got, err)
		}
	}
	got, err := collect(onceReader{strings.NewReader(page)}, Options{MaxHeld: 9})
	var le *LateBaseError
	if !errors.As(err, &le) || le.Released != 10 || le.Base.URL.Href() != "http://b.example/" ||
		got[0] != "http://r.example/d/x" || got[10] != "http://b.example/y" {
		t.Errorf("read once, past the bound: %v %v", got, err)
	}
}

// TestBrowserLinksLinear: BrowserLinks costs linear work on many links
// and on one huge hostile href.
func TestBrowserLinksLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	doc := whatwg.MustParse("http://a/")
	count := func(page string) {
		k := 0
		BrowserLinks(onceReader{strings.NewReader(page)}, doc, Options{}, func(Link) bool { k++; return true })
		if k != strings.Count(page, "<a ") {
			t.Fatalf("%d links", k)
		}
	}
	testshared.CheckLinearN(t, "many links", 1<<14, func(n int) string {
		return strings.Repeat(`<a href="../p/./q?x=1#\">t</a>`, n)
	}, count)
	testshared.CheckLinearN(t, "one long href", 1<<14, func(n int) string {
		return `<a href="` + strings.Repeat("/..\t/%2e\\a", n) + `">`
	}, count)
}
