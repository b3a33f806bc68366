package uribeam

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/textproto"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	gowarc "github.com/nlnwa/gowarc/v3"
)

// A document is the payload of one response or resource record of a
// WARC file (ISO 28500:2017 sections 6.3 and 6.4), with what Links and
// Extract need of it.
type document struct {
	offset int64       // of the record in the file
	typ    string      // the record type, response or resource
	target string      // WARC-Target-URI
	header http.Header // of the HTTP response; nil for a resource record
	html   bool        // an HTML document, else text
	body   io.Reader   // the payload, without transfer and content codings
}

// warcOptions parse a record that the scanner framed as it is, without
// digest checks (a reader that only extracts links has no use for
// them) and without caching its block: the scanner already checked its
// length and its end.
var warcOptions = []gowarc.WarcRecordOption{
	gowarc.WithSyntaxErrorPolicy(gowarc.ErrIgnore),
	gowarc.WithSpecViolationPolicy(gowarc.ErrIgnore),
	gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore),
	gowarc.WithBlockErrorPolicy(gowarc.ErrIgnore),
}

// A tally counts the records of one file, for WriteCounts.
type tally struct {
	in, out, dead, linkErrors int64
	skipped                   map[string]int64
}

func (t *tally) skip(kind string) {
	if t.skipped == nil {
		t.skipped = map[string]int64{}
	}
	t.skipped[kind]++
}

func (t *tally) emit(count func(string, int64)) {
	count(CountFiles, 1)
	count(CountIn, t.in)
	count(CountOut, t.out)
	count(CountDead, t.dead)
	if t.linkErrors > 0 {
		count(CountLinkErrors, t.linkErrors)
	}
	for k, n := range t.skipped {
		count(CountSkipped+"/"+k, n)
	}
}

// eachRecord calls fn for every document of the WARC file f that is
// HTML when html is set, other text when it is not. Every other record
// is skipped, counted in t by its kind; a damaged stretch of the file,
// or a record that cannot be read, or over max bytes, is a dead letter
// with the file and the record's offset; so is a document for which fn
// fails. The scanner resynchronises after a damaged record (warcscan.go).
func eachRecord(ctx context.Context, f fileio.ReadableFile, max int64, html bool, t *tally, bad func(DeadLetter), fn func(document) error) {
	name := f.Metadata.Path
	r, err := f.Open(ctx)
	if err != nil {
		t.in++
		t.dead++
		bad(DeadLetter{File: name, Offset: -1, Error: err.Error()})
		return
	}
	defer r.Close()
	s := newWARCScanner(r, max)
	u := gowarc.NewUnmarshaler(warcOptions...)
	for {
		raw, err := s.next()
		if err != nil {
			return // io.EOF: the scanner reports a failure as a damaged stretch
		}
		t.in++
		progressRecords.Add(1)
		if raw.damage != "" {
			t.dead++
			bad(DeadLetter{File: name, Offset: raw.offset, Error: "WARC: " + raw.damage})
			continue
		}
		d, skip, err := documentOf(u, raw, max)
		if err == nil && skip == "" && d.html != html {
			skip = d.kind()
		}
		if err == nil && skip == "" {
			err = fn(d)
		}
		switch {
		case err != nil:
			t.dead++
			bad(DeadLetter{File: name, Offset: raw.offset, Error: "WARC record: " + err.Error()})
		case skip != "":
			t.skip(skip)
		default:
			t.out++
		}
	}
}

// recordTypes are the record types of WARC 1.1 section 6 that hold no
// document, "|" around each.
const recordTypes = "|warcinfo|request|metadata|revisit|conversion|continuation|"

// documentOf returns the document of a response or resource record
// that is text, or the kind of record it is when it is none (its
// record type, or the type and the kind of its media type), or why it
// cannot be read.
func documentOf(u gowarc.Unmarshaler, raw rawRecord, max int64) (document, string, error) {
	d := document{offset: raw.offset}
	block := raw.block
	if block == nil {
		block = raw.head
	}
	rec, _, _, err := u.Unmarshal(bufio.NewReader(io.MultiReader(bytes.NewReader(raw.header), bytes.NewReader(block), bytes.NewReader(crlfcrlf))))
	if err != nil {
		return d, "", err
	}
	defer rec.Close()
	h := rec.WarcHeader()
	typ := strings.ToLower(strings.TrimSpace(h.Get(gowarc.WarcType)))
	d.typ = typ
	d.target = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(h.Get(gowarc.WarcTargetURI)), "<"), ">")
	var media string
	switch typ {
	case "response":
		hb, ok := rec.Block().(gowarc.HttpResponseBlock)
		if !ok {
			return d, "response (not HTTP)", nil // dns:, ...
		}
		// The header as sent: gowarc's HttpHeader leaves out
		// Transfer-Encoding, which says how to read the payload.
		if d.header, err = httpHeader(hb.ProtocolHeaderBytes()); err != nil {
			return d, "", err
		}
		media = d.header.Get("Content-Type")
	case "resource":
		media = h.Get(gowarc.ContentType)
	default:
		if strings.Contains(recordTypes, "|"+typ+"|") {
			return d, typ, nil
		}
		return d, "unknown type", nil
	}
	if kind, ok := d.classify(media); !ok {
		return d, kind, nil
	}
	if raw.block == nil {
		return d, "", fmt.Errorf("a record of %d bytes, over the limit of %d (--max-record-size)", raw.length, max)
	}
	var body io.Reader
	if hb, ok := rec.Block().(gowarc.HttpResponseBlock); ok {
		body, err = hb.PayloadBytes()
	} else {
		body, err = rec.Block().RawBytes()
	}
	if err != nil {
		return d, "", err
	}
	b, err := decode(body, d.header, max)
	d.body = bytes.NewReader(b)
	return d, "", err
}

// kind returns the kind of a document that the job does not read.
func (d document) kind() string {
	if d.html {
		return d.typ + " html"
	}
	return d.typ + " text"
}

// topTypes are the top-level media types of the IANA registry (RFC 6838
// section 4.2), "|" around each: the kinds a skipped record is counted
// by, any other being "other".
const topTypes = "|application|audio|example|font|haptics|image|message|model|multipart|text|video|"

// classify sets d.html from the media type of the document and reports
// whether it is text; when it is not, it returns the record's kind:
// its type and the top-level media type.
func (d *document) classify(ctype string) (string, bool) {
	mt, _, err := mime.ParseMediaType(ctype)
	d.html = mt == "text/html" || mt == "application/xhtml+xml"
	if d.html || strings.HasPrefix(mt, "text/") {
		return "", true
	}
	top, _, _ := strings.Cut(mt, "/")
	switch {
	case ctype == "":
		return d.typ + " (no media type)", false
	case err != nil || !strings.Contains(topTypes, "|"+top+"|"):
		return d.typ + " other", false
	}
	return d.typ + " " + top + "/*", false
}

// httpHeader reads the header fields of an HTTP response head: the
// status line, then the fields (RFC 9112 section 2.1).
func httpHeader(head []byte) (http.Header, error) {
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(head)))
	if _, err := r.ReadLine(); err != nil {
		return nil, err
	}
	h, err := r.ReadMIMEHeader()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return http.Header(h), nil
}

// decode returns the payload without the transfer coding and the
// content coding a crawler stored it with (RFC 9112 7.1, RFC 9110 8.4):
// chunked, gzip and deflate; another coding leaves the payload as it
// is. A payload that decodes to more than max bytes is an error, found
// after max+1 bytes: a small record cannot make it hold more.
func decode(body io.Reader, h http.Header, max int64) ([]byte, error) {
	if h != nil {
		if strings.EqualFold(strings.TrimSpace(h.Get("Transfer-Encoding")), "chunked") {
			body = httputil.NewChunkedReader(bufio.NewReader(body))
		}
		switch strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding"))) {
		case "gzip", "x-gzip":
			z, err := gzip.NewReader(body)
			if err != nil {
				return nil, fmt.Errorf("content coding gzip: %w", err)
			}
			body = z
		case "deflate":
			body = flate.NewReader(body)
		}
	}
	b, err := io.ReadAll(io.LimitReader(body, max+1))
	if err != nil {
		return nil, fmt.Errorf("decoding the payload: %w", err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("the payload decodes to more than %d bytes (--max-record-size)", max)
	}
	return b, nil
}
