package htmldoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/chars"

	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
	"golang.org/x/net/html"
)

// Source is the layer a document's base URI comes from (the layers of
// the package doc, the 1998 draft's section 5.1): its value is the name
// `uri links --json` writes.
type Source string

// The sources of a base URI, from the innermost layer out.
const (
	SourceBaseElement     Source = "base-element"     // the href of the document's base element
	SourceContentBase     Source = "content-base"     // the Content-Base header
	SourceContentLocation Source = "content-location" // the Content-Location header
	SourceRetrieval       Source = "retrieval"        // the URI the document was retrieved from
)

// String returns the source's name.
func (s Source) String() string { return string(s) }

// Base is a document's base URI and the layer it came from.
type Base struct {
	URI uri.URI
	// URL is the base as a URL record of the URL Standard, set by
	// BrowserBase and BrowserLinks (URI is then zero), and only there.
	URL    whatwg.URL
	Source Source
}

// A Link is one link of the document.
type Link struct {
	URI uri.URI // resolved against the base
	// URL is the link parsed with the base by the URL Standard, as a
	// browser's a.href: set by BrowserLinks (URI is then zero), and
	// only there.
	URL     whatwg.URL
	Ref     string // the attribute's value as the URL parser reads it (clean)
	Element string // a, area, link, img, script, iframe, form
	Attr    string // href, src or action
	Line    int    // the line of the element's tag, from 1
	// Active marks a javascript:, vbscript: or data: link, in any case:
	// following it runs a script or shows content the link carries
	// itself, not a resource of the web.
	Active bool
	// Err, when not nil, says why Ref is not a URI reference even after
	// repair, or has a host a browser refuses (a *uri.ParseError, its
	// offset in Ref); URI is then zero. From BrowserLinks, it is the
	// *whatwg.ParseError of the URL parser's failure, its offset in Ref.
	// A Ref longer than MaxLinkBytes is not resolved: Err is then
	// ErrLinkTooLong (errors.Is).
	Err error
}

// ErrRetrieval: the retrieval URI must be an absolute URI (RFC 3986 5.1.4).
var ErrRetrieval = errors.New("the retrieval URI must have a scheme")

// outer returns the base of the layers outside the document: the
// Content-Base header, Content-Location resolved against the retrieval
// URI, or the retrieval URI.
func outer(retrieval uri.URI, h http.Header) (Base, error) {
	if !retrieval.HasScheme() {
		return Base{}, ErrRetrieval
	}
	for _, l := range []struct {
		name   string
		source Source
	}{{"Content-Base", SourceContentBase}, {"Content-Location", SourceContentLocation}} {
		if v := strings.TrimSpace(h.Get(l.name)); v != "" {
			if u, err := parseRef(clean(v), retrieval.Scheme()); err == nil {
				return Base{URI: retrieval.Resolve(u).WithoutFragment(), Source: l.source}, nil
			}
		}
	}
	return Base{URI: retrieval.WithoutFragment(), Source: SourceRetrieval}, nil
}

// parseRef reads v, an attribute or header value cleaned by clean, as
// a URI reference: an IRI is mapped (RFC 3987 3.1), and what people
// write in HTML (spaces, backslashes) is repaired as browsers do. A host
// the URL Standard refuses is refused first (see checkHost): repair
// would escape a space there, where a browser fails. baseScheme is the
// scheme v would be resolved with, for a reference without one. The
// error is that of v read as it is, with its offset in v.
func parseRef(v, baseScheme string) (uri.URI, error) {
	if err := checkHost(v, baseScheme); err != nil {
		return uri.URI{}, err
	}
	u, err := uri.Parse(v)
	if err == nil {
		return u, nil
	}
	if u, err := iri.ToURI(v); err == nil {
		return u, nil
	}
	if u, _, err := iri.Repair(v); err == nil {
		return u, nil
	}
	return uri.URI{}, err
}

// special reports whether the URL Standard treats a scheme as special:
// its host is a domain or an IP address, and "\\" is read as "/".
func special(scheme string) bool {
	for _, s := range []string{"http", "https", "ws", "wss", "ftp", "file"} {
		if strings.EqualFold(scheme, s) {
			return true
		}
	}
	return false
}

// forbiddenHost marks the bytes that make the URL Standard's host parser
// fail: the "forbidden host code points" (those the generic syntax
// allows, ":" and "@" and the brackets, are judged where they stand) and,
// for a domain, the "forbidden domain code points": C0 controls, "%",
// DEL. A space in a host is the usual one: "http://a b/" is no URL to a
// browser, where repair would make it "http://a%20b/".
var forbiddenHost = func() (t [256]uint8) {
	for c := 0; c <= ' '; c++ {
		t[c] = 1
	}
	for _, c := range "#/<>?\\^|\x7f" {
		t[c] = 1
	}
	return t
}()

// checkHost fails when v has an authority whose host (with its port) a
// browser's URL parser refuses, although repair would accept it.
func checkHost(v, baseScheme string) error {
	scheme, rest, off := baseScheme, v, 0
	if i := schemeLen(v); i > 0 {
		scheme, rest, off = v[:i], v[i+1:], i+1
	}
	sp := special(scheme)
	slash := func(c byte) bool { return c == '/' || (sp && c == '\\') }
	if len(rest) < 2 || !slash(rest[0]) || !slash(rest[1]) {
		return nil
	}
	off += 2
	end := off
	for end < len(v) && v[end] != '?' && v[end] != '#' && !slash(v[end]) {
		end++
	}
	if at := strings.LastIndexByte(v[off:end], '@'); at >= 0 {
		off += at + 1
	}
	i := off
	if i < end && v[i] == '[' {
		// An IP literal: judged by the parser; what follows is the port.
		if j := strings.IndexByte(v[i:end], ']'); j >= 0 {
			i += j + 1
		}
	}
	for ; i < end; i++ {
		c := v[i]
		switch {
		case forbiddenHost[c] != 0 || c == '[' || c == ']':
			return uri.NewParseError(v, i, uri.ComponentHost, uri.ErrInvalidCharacter)
		case c == '%' && sp:
			// A domain is percent-decoded, then checked again.
			if i+2 >= end || !ishex(v[i+1]) || !ishex(v[i+2]) {
				return uri.NewParseError(v, i, uri.ComponentHost, uri.ErrInvalidPercent)
			}
			if d := unhex(v[i+1])<<4 | unhex(v[i+2]); forbiddenHost[d] != 0 || d == '%' || d == ':' || d == '@' || d == '[' || d == ']' {
				return uri.NewParseError(v, i, uri.ComponentHost, uri.ErrInvalidCharacter)
			}
		}
	}
	return nil
}

func ishex(c byte) bool { return chars.Is(c, chars.Hex) }

// unhex returns the value of the hexadecimal digit c (0 for a byte
// that is none: callers check first).
func unhex(c byte) byte { return byte(max(chars.Unhex(c), 0)) }

// schemeLen returns the length of the scheme v starts with (ALPHA
// *( ALPHA / DIGIT / "+" / "-" / "." ) before ":", RFC 3986 3.1, which
// is also the URL Standard's scheme state), or 0.
func schemeLen(v string) int {
	for i := 0; i < len(v); i++ {
		c := v[i] | 0x20
		switch {
		case 'a' <= c && c <= 'z':
		case i > 0 && ('0' <= v[i] && v[i] <= '9' || v[i] == '+' || v[i] == '-' || v[i] == '.'):
		case i > 0 && v[i] == ':':
			return i
		default:
			return 0
		}
	}
	return 0
}

// baseHref reads the href of the document's base element (the first
// with an href) against the outer base. The HTML standard sets its
// "frozen base URL" to "document's fallback base URL" when "urlRecord
// is failure" or "urlRecord's scheme is "data" or "javascript"", and the
// "document base URL" is the frozen base URL of the first such element:
// a later base element is never tried. An empty href parses to the
// fallback itself.
func baseHref(v string, out Base) Base {
	v = clean(v)
	if v == "" {
		return out
	}
	u, err := parseRef(v, out.URI.Scheme())
	if err != nil {
		return out
	}
	r := out.URI.Resolve(u)
	if s := strings.ToLower(r.Scheme()); s == "data" || s == "javascript" {
		return out
	}
	return Base{URI: r, Source: SourceBaseElement}
}

// clean reads an attribute value as a browser hands it to the URL
// parser. The HTML standard parses a URL attribute with the URL
// Standard's basic URL parser, whose first steps are: "Remove any
// leading and trailing C0 control or space from input" and "Remove all
// ASCII tab or newline from input" (URL Standard, 4.4 URL parsing). So
// "/\t/evil.example/" is "//evil.example/", a network-path reference,
// and "java\nscript:" is "javascript:".
func clean(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	s = s[i:j]
	if strings.IndexAny(s, "\t\n\r") < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for k := 0; k < len(s); k++ {
		if c := s[k]; c != '\t' && c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	return string(b)
}

// linkAttrs maps an element to its link attribute.
var linkAttrs = map[string]string{
	"a": "href", "area": "href", "link": "href",
	"img": "src", "script": "src", "iframe": "src",
	"form": "action",
}

// BaseOf returns the base URI of the HTML document r retrieved from
// retrieval with the header h (which may be nil).
func BaseOf(r io.Reader, retrieval uri.URI, h http.Header) (Base, error) {
	out, err := outer(retrieval, h)
	if err != nil {
		return Base{}, err
	}
	base := out
	err = walk(r, func(v string, _ int) bool {
		base = baseHref(v, out)
		return false
	}, nil)
	return base, err
}

// walker tokenizes a document and hands out its base elements and
// links.
type walker struct {
	z     *html.Tokenizer
	scope scope
	attrs [][2][]byte // the current tag's attributes, in the tokenizer's buffer
}

// attr returns the value of the attribute key of the current tag: the
// first one, since the HTML tokenizer drops a repeated attribute.
func (w *walker) attr(key string) (string, bool) {
	for _, a := range w.attrs {
		if string(a[0]) == key {
			return string(a[1]), true
		}
	}
	return "", false
}

// walk calls onBase for each base element in the document (see scope)
// that has an href, and onLink, when not nil, for each link, with the
// attribute values entity-decoded and the line of the tag. It stops
// when a function returns false, at the end of r, or at a read error,
// which it returns.
func walk(r io.Reader, onBase func(href string, line int) bool, onLink func(el, key, val string, line int) bool) error {
	w := &walker{z: html.NewTokenizer(r)}
	z := w.z
	line := 1
	for {
		// "<![CDATA[" opens a CDATA section only in foreign content
		// (HTML standard, markup declaration open state).
		z.AllowCDATA(w.scope.inForeign())
		tt := z.Next()
		tagLine := line
		line += bytes.Count(z.Raw(), newline)
		switch tt {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				return z.Err()
			}
			return nil
		case html.EndTagToken:
			name, _ := z.TagName()
			w.scope.end(name)
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			w.attrs = w.attrs[:0]
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				w.attrs = append(w.attrs, [2][]byte{k, v})
			}
			html := w.scope.start(name, tt == html.SelfClosingTagToken, w.attr)
			if !html {
				// An SVG title or script holds markup, not text.
				z.NextIsNotRawText()
			}
			if string(name) == "base" {
				if !html || w.scope.template > 0 {
					continue // not the document's: an SVG or MathML element, or in a template
				}
				if v, ok := w.attr("href"); ok && !onBase(v, tagLine) {
					return nil
				}
				continue
			}
			if onLink == nil {
				continue
			}
			key, ok := linkAttrs[string(name)]
			if !ok {
				continue
			}
			if v, ok := w.attr(key); ok && !onLink(string(name), key, v, tagLine) {
				return nil
			}
		}
	}
}

var newline = []byte{'\n'}

// Links calls fn for every link of the HTML document r, in document
// order, resolved against the document's base, and returns the base.
// It stops when fn returns false. It is LinksWith with the zero Options.
func Links(r io.Reader, retrieval uri.URI, h http.Header, fn func(Link) bool) (Base, error) {
	return LinksWith(r, retrieval, h, Options{}, fn)
}

// DefaultMaxHeld is how many links LinksWith holds, at most, on an input
// it cannot read twice, while no base element has come.
const DefaultMaxHeld = 1024

// maxHeldBytes bounds the text of the links held, whatever their number.
const maxHeldBytes = 1 << 20

// Options tune LinksWith.
type Options struct {
	// MaxHeld is how many links are held, at most, while no base element
	// has come, on an input that cannot be read twice: 0 means
	// DefaultMaxHeld, a negative number none. Their text is held up to
	// 1 MiB whatever the number.
	MaxHeld int
	// Idle, when not nil, is called before each read from the input: it
	// reports whether the input is idle (the read would wait). On an
	// input that cannot be read twice, the links held then go to fn at
	// once, resolved against the base known so far, so that a stream
	// of pages is printed as it arrives.
	Idle func() bool
}

// A LateBaseError reports a base element that came after links were
// already handed out, resolved against the outer layers: on an input
// that cannot be read twice, past Options.MaxHeld links or when the
// input was idle. The links after it are resolved against it; the
// Released ones before it were not, though a browser would have.
type LateBaseError struct {
	Line     int  // the line of the base element
	Base     Base // the base it gives
	Released int  // the links handed out before it
}

func (e *LateBaseError) Error() string {
	return "htmldoc: the base element at line " + strconv.Itoa(e.Line) + " comes after " + strconv.Itoa(e.Released) +
		" links already resolved without it"
}

// LinksWith calls fn for every link of the HTML document r, in document
// order, resolved against the document's base, and returns the base.
// It stops when fn returns false.
//
// The base element may come after links, and its href is the base of
// them all. So the links before it are held until it comes, in bounded
// memory. When r is an io.Seeker that can seek (a file), past
// o.MaxHeld links LinksWith only looks for the base element, then reads
// r again from where it started and hands out every link: the answer is
// the same, for twice the reading. Otherwise, past o.MaxHeld links (or
// when o.Idle says the input is idle) the links are handed out resolved
// against the base known so far, the next layer out; a base element
// after them is a *LateBaseError, returned at the end with the base.
func LinksWith(r io.Reader, retrieval uri.URI, h http.Header, o Options, fn func(Link) bool) (Base, error) {
	out, err := outer(retrieval, h)
	if err != nil {
		return Base{}, err
	}
	return links(r, out, false, o, fn)
}

// links is LinksWith, and BrowserLinks when browser is set, given the
// base of the layers outside the document.
func links(r io.Reader, out Base, browser bool, o Options, fn func(Link) bool) (Base, error) {
	maxHeld := o.MaxHeld
	if maxHeld == 0 {
		maxHeld = DefaultMaxHeld
	}
	seeker, start, seekable := seekerOf(r)
	st := &linkState{out: out, base: out, browser: browser, fn: fn, maxHeld: maxHeld, seekable: seekable}
	src := r
	if o.Idle != nil {
		src = &idleReader{r: r, idle: o.Idle, st: st}
	}
	err := walk(src, st.onBase, st.onLink)
	switch {
	case st.stopped:
		return st.base, nil
	case err != nil:
		return st.base, err
	case st.scanOnly:
		// Read again, with the base now known.
		if _, err := seeker.Seek(start, io.SeekStart); err != nil {
			return st.base, err
		}
		st.scanOnly, st.known = false, true
		err = walk(r, func(string, int) bool { return true }, st.onLink)
		if st.stopped {
			return st.base, nil
		}
		return st.base, err
	}
	if !st.known {
		st.release()
	}
	if st.late != nil {
		return st.base, st.late
	}
	return st.base, nil
}

// seekerOf returns r as a seeker and its offset, if it can seek (a pipe
// is an *os.File that cannot).
func seekerOf(r io.Reader) (io.Seeker, int64, bool) {
	s, ok := r.(io.Seeker)
	if !ok {
		return nil, 0, false
	}
	off, err := s.Seek(0, io.SeekCurrent)
	return s, off, err == nil
}

// linkState is the state of LinksWith.
type linkState struct {
	out, base Base
	browser   bool // BrowserLinks: the URL Standard, Base.URL and Link.URL
	fn        func(Link) bool
	maxHeld   int
	seekable  bool
	known     bool   // the base element has come (or there is none)
	held      []Link // links before the base element
	heldBytes int
	scanOnly  bool // held too many on a seekable input: looking for the base only
	streaming bool // held too many on an input read once: handing links out
	released  int  // links handed out before the base was known
	late      *LateBaseError
	stopped   bool // fn returned false
}

func (st *linkState) onBase(v string, line int) bool {
	if st.known || st.stopped {
		return !st.stopped
	}
	if st.browser {
		st.base = browserBaseHref(v, st.out)
	} else {
		st.base = baseHref(v, st.out)
	}
	st.known = true
	if st.scanOnly {
		return false
	}
	if st.released > 0 {
		st.late = &LateBaseError{Line: line, Base: st.base, Released: st.released}
	}
	st.release()
	return !st.stopped
}

func (st *linkState) onLink(el, key, v string, line int) bool {
	if st.stopped {
		return false
	}
	l := Link{Ref: clean(v), Element: el, Attr: key, Line: line}
	switch {
	case st.known:
		st.emit(l)
	case st.scanOnly:
	case st.streaming:
		st.released++
		st.emit(l)
	default:
		st.held = append(st.held, l)
		st.heldBytes += len(l.Ref)
		if len(st.held) > st.maxHeld || st.heldBytes > maxHeldBytes {
			if st.seekable {
				st.scanOnly, st.held = true, nil
			} else {
				st.streaming = true
				st.release()
			}
		}
	}
	return !st.stopped
}

// release hands out the links held, against the base known so far.
func (st *linkState) release() {
	if !st.known {
		st.released += len(st.held)
	}
	for i, l := range st.held {
		st.held[i] = Link{}
		if !st.stopped {
			st.emit(l)
		}
	}
	st.held, st.heldBytes = st.held[:0], 0
}

// MaxLinkBytes is the longest link read: 2 MiB, the longest URL
// Chromium handles (url::kMaxURLChars); Firefox refuses a URL over
// 1 MiB (network.standard-url.max-length). No browser follows a longer
// href, and resolving it could write nine times its length (a NUL in an
// attribute is read as U+FFFD, then written %EF%BF%BD).
const MaxLinkBytes = 2 << 20

// ErrLinkTooLong is a Link's Err when its Ref is longer than
// MaxLinkBytes; the link is not resolved.
var ErrLinkTooLong = errors.New("link longer than 2 MiB, which no browser follows")

// emit resolves a link against the base and hands it to fn.
func (st *linkState) emit(l Link) {
	switch {
	case len(l.Ref) > MaxLinkBytes:
		l.Err = fmt.Errorf("%w (%d bytes)", ErrLinkTooLong, len(l.Ref))
		l.Active = isActive(st.refScheme(l.Ref))
	case st.browser:
		st.parseURL(&l)
	default:
		st.parseURI(&l)
	}
	if !st.fn(l) {
		st.stopped = true
	}
}

// refScheme is the scheme a link that failed is taken to have: its
// own, or the base's.
func (st *linkState) refScheme(ref string) string {
	if n := schemeLen(ref); n > 0 {
		return ref[:n]
	}
	if st.browser {
		return st.base.URL.Scheme()
	}
	return st.base.URI.Scheme()
}

// parseURI resolves l against the base by RFC 3986.
func (st *linkState) parseURI(l *Link) {
	u, err := parseRef(l.Ref, st.base.URI.Scheme())
	if err != nil {
		l.Err = err
		l.Active = isActive(st.refScheme(l.Ref))
		return
	}
	l.URI = st.base.URI.Resolve(u)
	l.Active = isActive(l.URI.Scheme())
}

// idleReader asks Options.Idle before each read, and releases the held
// links when the input is idle and cannot be read twice.
type idleReader struct {
	r    io.Reader
	idle func() bool
	st   *linkState
}

// errStopped ends the tokenizer's reading when fn has asked to stop.
var errStopped = errors.New("stopped")

func (ir *idleReader) Read(p []byte) (int, error) {
	if ir.idle() && !ir.st.seekable && !ir.st.known && !ir.st.scanOnly {
		ir.st.release()
	}
	if ir.st.stopped {
		return 0, errStopped
	}
	return ir.r.Read(p)
}

// isActive reports whether a scheme is one whose URL runs in the page
// rather than naming a resource: javascript: and vbscript: run a
// script, and a data: URL carries its own content (a script, an HTML
// document) inline. A link filter treats them apart.
func isActive(scheme string) bool {
	return strings.EqualFold(scheme, "javascript") || strings.EqualFold(scheme, "vbscript") || strings.EqualFold(scheme, "data")
}
