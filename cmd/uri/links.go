package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/urikit/urikit/htmldoc"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
)

var (
	flagURL = flagSpec{long: "url", arg: "RETRIEVAL",
		help: "(required) the URI the document was retrieved from: the last\nlayer of the base URI (the 1998 draft's section 5.1)"}
	flagHeader = flagSpec{long: "header", arg: "'NAME: VALUE'", repeat: true,
		help: "a header of the encapsulating entity: Content-Base and\nContent-Location are layers of the base URI"}
	flagNoActive = flagSpec{long: "no-active",
		help: "leave out the active links: javascript:, vbscript: and data:\n(any case), which run a script or carry their own content"}
	flagBrowser = flagSpec{long: "browser",
		help: "as a browser does: the document base by the HTML standard (no\nheaders; RETRIEVAL is the document's URL), each link through the\nWHATWG URL Standard's parser with that base, printed as a.href"}
	flagBrowserBase = flagSpec{long: "browser",
		help: "as a browser does: document.baseURI, the document base URL of the\nHTML standard by the WHATWG URL Standard's parser (no headers;\nRETRIEVAL is the document's URL)"}
)

var linksCommand = &command{
	name:     "links",
	summary:  "print the links of an HTML document, resolved",
	synopsis: "--url RETRIEVAL [--header 'NAME: VALUE']... [--browser] [--no-active] [--skip-errors] [--json] [FILE|-]",
	traits:   jsonOut,
	files:    true,
	flags: []flagSpec{
		withExample(flagURL, "uri links --url https://example.com/docs/ page.html"),
		withExample(flagHeader, "uri links --url https://example.com/a --header 'Content-Location: /b/' page.html"),
		withExample(flagNoActive, "uri links --no-active --url https://example.com/docs/ page.html"),
		withExample(flagBrowser, "uri links --browser --url https://example.com/docs/ page.html"),
		withExample(flagSkip, "uri links --skip-errors --url https://example.com/docs/ page.html"),
	},
	about: `Print the links of the HTML document FILE (standard input without one, or
"-"), in document order, resolved against its base URI: the href of a,
area and link, the src of img, script and iframe, the action of form;
values entity-decoded and read as a browser reads them (the URL
Standard removes leading and trailing C0 controls and spaces and every
tab and newline inside), IRIs mapped to URIs (RFC 3987 3.1).
The base URI is the first base element's href, else Content-Base, else
Content-Location, else the retrieval URI (see "uri base").
With --browser, links resolve as a browser's a.href: the base is the
HTML standard's document base URL (the first base element's href
parsed against the document's URL RETRIEVAL, else RETRIEVAL; headers
do not count), each value goes through the WHATWG URL Standard's
parser with that base (uri parse --whatwg), and the output is its href.
`,
	output: `Plain output: one resolved URI per link. JSON, one object per link:
{"uri", "ref", "element", "attr", "line", "active"}, ref the attribute
as the URL parser reads it (decoded, stripped, tabs and newlines
removed), line the line of the element, active true for a javascript:,
vbscript: or data: link. A link whose value is no URI reference even
after repair, or whose host a browser refuses (a space in it), cannot
be resolved: plain "error: line N: REASON", JSON "uri" null with
"error" (the reason) and "offset" (in ref). With --browser, a link
fails when the URL parser returns failure, REASON the URL Standard's
name of the validation error ("host-invalid-code-point"). A link longer
than 2 MiB as the URL parser reads it (a NUL is U+FFFD, three bytes) is
not resolved either, in both readings: no browser follows it
(Chromium's url::kMaxURLChars; Firefox stops at 1 MiB), and it could
resolve to nine times its length.

Memory stays bounded whatever the size of the document. Links before
the base element are held until it comes; a FILE (or standard input
redirected from a file) is read a second time when more than 1024
links come before any base element. A stream read once (a pipe) is not:
past 1024 links, or when the stream is idle (so that "tail -f | uri
links" prints pages as they arrive), the links held are printed
resolved without the base element, and one that comes after them is
reported (exit 1). Output is flushed when the stream is idle.
`,
	exit: "0, 1 when a link cannot be resolved or a base element comes after\nlinks already printed, or 2 for a usage error or when reading or\nwriting fails.\n",
	whole: func(c *call) int {
		return htmlCommand(c, false)
	},
}

var baseCommand = &command{
	name:     "base",
	summary:  "print the base URI of an HTML document",
	synopsis: "--url RETRIEVAL [--header 'NAME: VALUE']... [--browser] [--json] [FILE|-]",
	traits:   jsonOut,
	files:    true,
	flags: []flagSpec{
		withExample(flagURL, "uri base --url https://example.com/docs/ page.html"),
		withExample(flagHeader, "uri base --url https://example.com/a --header 'Content-Base: https://example.com/b/' page.html"),
		withExample(flagBrowserBase, "uri base --browser --url https://example.com/docs/ page.html"),
	},
	about: `Print the base URI of the HTML document FILE (standard input without one,
or "-"), by the layers of the 1998 draft's section 5.1 and Appendix D
and the HTML standard: the href of the first base element that has one,
resolved against the next layer out (when that href is empty,
unparsable, or a data: or javascript: URL, the base is the next layer
out, never a later base element; a base in a template or in SVG or
MathML does not count), else the Content-Base header, else
Content-Location resolved against the retrieval URI, else the retrieval
URI.
With --browser, the base is a browser's document.baseURI, the HTML
standard's document base URL: the first base element's href parsed by
the WHATWG URL Standard against the document's URL RETRIEVAL (when it
fails or is a data: or javascript: URL, RETRIEVAL), else RETRIEVAL;
Content-Base and Content-Location do not count (--header is refused).
`,
	output: `Output: the base URI; JSON {"base", "source"}, source one of
"base-element", "content-base", "content-location", "retrieval".
`,
	exit: "0, or 2 for a usage error or when reading or writing fails.\n",
	whole: func(c *call) int {
		return htmlCommand(c, true)
	},
}

// htmlCommand runs links or base.
func htmlCommand(c *call, baseOnly bool) int {
	name := c.cmd.name
	fail := func(msg string) int {
		return c.cmd.usage(c.stderr, msg)
	}
	if !c.has("url") {
		return fail("flag --url is required")
	}
	browser := c.has("browser")
	var ret uri.URI
	var doc whatwg.URL
	var err error
	if browser {
		if c.has("header") {
			return fail("flag --header does not go with --browser: a browser's document base is the base element's or the document's URL")
		}
		if doc, err = whatwg.Parse(c.str("url", "")); err != nil {
			return fail(fmt.Sprintf("flag --url: %v", err))
		}
	} else if ret, err = uri.Parse(c.str("url", "")); err != nil || !ret.HasScheme() {
		return fail(fmt.Sprintf("flag --url: %q is not an absolute URI", c.str("url", "")))
	}
	h := http.Header{}
	for _, kv := range c.vals["header"] {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			return fail(fmt.Sprintf("flag --header: want 'NAME: VALUE', not %q", kv))
		}
		h.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	if len(c.params) > 1 {
		return fail("one FILE at most")
	}
	var r io.Reader = c.stdin
	if len(c.params) == 1 && c.params[0] != "-" {
		f, err := os.Open(c.params[0])
		if err != nil {
			fmt.Fprintf(c.stderr, "uri %s: %v\n", name, err)
			return 2
		}
		defer f.Close()
		r = f
	}
	w := newWriter(c.stdout, c.json)
	c.out = w
	failed := false
	if baseOnly {
		var b htmldoc.Base
		if browser {
			b, err = htmldoc.BrowserBase(r, doc)
		} else {
			b, err = htmldoc.BaseOf(r, ret, h)
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "uri %s: %v\n", name, err)
			return 2
		}
		base := b.URI.String()
		if browser {
			base = b.URL.Href()
		}
		write(w, baseResult{base, b.Source.String()})
	} else {
		noActive, skip := c.has("no-active"), c.has("skip-errors")
		docName := "standard input"
		if len(c.params) == 1 && c.params[0] != "-" {
			docName = c.params[0]
		}
		var o htmldoc.Options
		var in *idleInput
		if !canSeek(r) {
			// A pipe: read it in the background to know when it is
			// idle, and then print what has come (tail -f | uri links).
			in = newIdleInput(r)
			defer in.stop()
			r = in
			o.Idle = func() bool {
				if in.idle() {
					w.flush()
					return true
				}
				return false
			}
		}
		fn := func(l htmldoc.Link) bool {
			if noActive && l.Active {
				return true
			}
			if l.Err != nil {
				failed = true
				if skip {
					// --skip-errors: the error line to standard
					// error, after where the document came from.
					e := newWriter(c.stderr, false)
					e.text("uri " + name + ": " + docName + ": ")
					write(e, linkResult{l})
					e.close()
					return true
				}
			}
			write(w, linkResult{l})
			if !w.flushLine() {
				return false
			}
			if in != nil && in.idle() {
				w.flush()
			}
			return w.err == nil
		}
		if browser {
			_, err = htmldoc.BrowserLinks(r, doc, o, fn)
		} else {
			_, err = htmldoc.LinksWith(r, ret, h, o, fn)
		}
		var late *htmldoc.LateBaseError
		switch {
		case errors.As(err, &late):
			fmt.Fprintf(c.stderr, "uri %s: line %d: the base element comes after %d links printed without it (standard input is read once; give the document as FILE)\n", name, late.Line, late.Released)
			failed = true
		case err != nil:
			fmt.Fprintf(c.stderr, "uri %s: %v\n", name, err)
			return 2
		}
	}
	w.flushLine()
	if err := w.close(); err != nil {
		fmt.Fprintf(c.stderr, "uri %s: writing standard output: %v\n", name, err)
		return 2
	}
	if failed {
		return 1
	}
	return 0
}

// canSeek reports whether r can be read twice (a file, not a pipe).
func canSeek(r io.Reader) bool {
	s, ok := r.(io.Seeker)
	if !ok {
		return false
	}
	_, err := s.Seek(0, io.SeekCurrent)
	return err == nil
}

// idleInput reads a stream in a goroutine, a few blocks ahead, so that
// it can tell whether the next read would wait: the input is idle.
type idleInput struct {
	ch   chan inputBlock
	done chan struct{}
	cur  []byte
	err  error
}

type inputBlock struct {
	b   []byte
	err error
}

func newIdleInput(r io.Reader) *idleInput {
	in := &idleInput{ch: make(chan inputBlock, 4), done: make(chan struct{})}
	go func() {
		for {
			b := make([]byte, 64<<10)
			n, err := r.Read(b)
			select {
			case in.ch <- inputBlock{b[:n], err}:
			case <-in.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

func (in *idleInput) Read(p []byte) (int, error) {
	for len(in.cur) == 0 {
		if in.err != nil {
			return 0, in.err
		}
		blk := <-in.ch
		in.cur, in.err = blk.b, blk.err
	}
	n := copy(p, in.cur)
	in.cur = in.cur[n:]
	return n, nil
}

// idle reports whether a read would wait for the writer of the stream.
func (in *idleInput) idle() bool { return len(in.cur) == 0 && in.err == nil && len(in.ch) == 0 }

// stop lets the reading goroutine end once its read returns.
func (in *idleInput) stop() { close(in.done) }
