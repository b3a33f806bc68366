package htmldoc

import (
	"errors"
	"io"

	"github.com/urikit/urikit/whatwg"
)

// The base and the links as a browser reads them: the HTML standard's
// document base URL (section 2.4.3, "Document base URLs", and the base
// element's "frozen base URL", 4.2.3) and each URL attribute through the
// URL Standard's parser with that base (package whatwg), which is what
// a.href returns.

// ErrDocumentURL: BrowserBase and BrowserLinks need the document's URL.
var ErrDocumentURL = errors.New("htmldoc: the document's URL is the zero URL")

// BrowserBase returns the document base URL of the HTML document r
// whose URL is doc, as a browser's document.baseURI: the frozen base
// URL of the first base element with an href (see package doc for which
// elements count), else the fallback base URL, doc itself. The base is
// in Base.URL; Base.URI is zero. Source is SourceBaseElement or
// SourceRetrieval: a browser reads neither Content-Base nor
// Content-Location.
func BrowserBase(r io.Reader, doc whatwg.URL) (Base, error) {
	if doc.IsZero() {
		return Base{}, ErrDocumentURL
	}
	out := Base{URL: doc, Source: SourceRetrieval}
	base := out
	err := walk(r, func(v string, _ int) bool {
		base = browserBaseHref(v, out)
		return false
	}, nil)
	return base, err
}

// BrowserLinks is LinksWith as a browser resolves links: the base is
// BrowserBase's, and each link's value is parsed by the URL Standard's
// parser with that base (its "encoding-parse a URL", the query in
// UTF-8). Link.URL is then what the element's href (or src, action)
// IDL attribute returns; Link.URI is zero. A value the parser rejects
// is handed out with Err, the *whatwg.ParseError, where a browser's
// a.href returns the attribute's value as it is. Holding, Options and
// the LateBaseError are those of LinksWith.
func BrowserLinks(r io.Reader, doc whatwg.URL, o Options, fn func(Link) bool) (Base, error) {
	if doc.IsZero() {
		return Base{}, ErrDocumentURL
	}
	return links(r, Base{URL: doc, Source: SourceRetrieval}, true, o, fn)
}

// browserBaseHref sets a base element's frozen base URL (HTML standard,
// 4.2.3): "Let urlRecord be the result of parsing the value of element's
// href content attribute with document's fallback base URL", and "If
// ... urlRecord is failure; urlRecord's scheme is "data" or
// "javascript" ... set element's frozen base URL to document's fallback
// base URL". An empty href parses to the fallback without its fragment,
// as the parser says; the parser strips v itself.
func browserBaseHref(v string, out Base) Base {
	u, err := whatwg.ParseRef(out.URL, v)
	if err != nil {
		return out
	}
	if s := u.Scheme(); s == "data" || s == "javascript" {
		return out
	}
	return Base{URL: u, Source: SourceBaseElement}
}

// parseURL parses l with the base by the URL Standard, as a browser's
// a.href.
func (st *linkState) parseURL(l *Link) {
	u, err := whatwg.ParseRef(st.base.URL, l.Ref)
	if err != nil {
		l.Err = err
		l.Active = isActive(st.refScheme(l.Ref))
		return
	}
	l.URL = u
	l.Active = isActive(u.Scheme())
}
