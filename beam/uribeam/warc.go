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

// warcOptions parse the header of a record that the scanner framed, as
// it is: gowarc reads its named fields (WARC 1.1 section 4: folded
// lines, encoded words), the scanner has checked its length and end.
// The block is not given to gowarc: without caching it (and computing
// its digests), gowarc reads a block through once, and its payload
// reader then holds only what a buffer kept.
var warcOptions = []gowarc.WarcRecordOption{
	gowarc.WithSyntaxErrorPolicy(gowarc.ErrIgnore),
	gowarc.WithSpecViolationPolicy(gowarc.ErrIgnore),
	gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore),
	gowarc.WithBlockErrorPolicy(gowarc.ErrIgnore),
	gowarc.WithSkipParseBlock(),
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
func eachRecord(ctx context.Context, f inputFile, max int64, html bool, t *tally, bad func(DeadLetter), fn func(document) error) {
	name := f.Path
	r, err := f.open(ctx)
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
		d, skip, err := documentOf(u, raw, max, html)
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
// that is HTML (html set) or other text, or the kind of record it is
// when it is none (its record type, or the type and the kind of its
// media type), or why it cannot be read.
func documentOf(u gowarc.Unmarshaler, raw rawRecord, max int64, html bool) (document, string, error) {
	d := document{offset: raw.offset}
	block := raw.block
	if block == nil {
		block = raw.head
	}
	rec, _, _, err := u.Unmarshal(bufio.NewReader(bytes.NewReader(raw.header)))
	if err != nil {
		return d, "", err
	}
	h := rec.WarcHeader()
	rec.Close()
	typ := strings.ToLower(strings.TrimSpace(h.Get(gowarc.WarcType)))
	d.typ = typ
	d.target = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(h.Get(gowarc.WarcTargetURI)), "<"), ">")
	var media string
	switch typ {
	case "response":
		// WARC 1.1 section 6.3.2: an HTTP response as received, its
		// record's Content-Type "application/http;msgtype=response".
		if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(h.Get(gowarc.ContentType))), "application/http") {
			return d, "response (not HTTP)", nil // dns:, ...
		}
		head, payload, err := httpSplit(block)
		if err != nil {
			return d, "", err
		}
		// The header as sent, Transfer-Encoding included: it says how to
		// read the payload.
		if d.header, err = httpHeader(head); err != nil {
			return d, "", err
		}
		media = d.header.Get("Content-Type")
		block = payload
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
	if d.html != html {
		return d, d.kind(), nil
	}
	if raw.block == nil {
		return d, "", fmt.Errorf("a record of %d bytes, over the limit of %d (--max-record-size)", raw.length, max)
	}
	d.body, err = decode(block, d.header, max)
	return d, "", err
}

// httpSplit splits an HTTP response into its head, the status line and
// the header fields through the empty line that ends them (RFC 9112
// section 2.1; a bare LF ends a line too, 2.2), and its body.
func httpSplit(block []byte) (head, body []byte, err error) {
	if !bytes.HasPrefix(block, []byte("HTTP/")) {
		return nil, nil, fmt.Errorf("the block of an HTTP response record starts with %q, not a status line", block[:min(len(block), 16)])
	}
	for i := 0; i < len(block); {
		j := bytes.IndexByte(block[i:], '\n')
		if j < 0 {
			break
		}
		line := block[i : i+j+1]
		i += j + 1
		if len(line) == 1 || len(line) == 2 && line[0] == '\r' {
			return block[:i], block[i:], nil
		}
	}
	return nil, nil, errors.New("an HTTP response without the empty line that ends its header")
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
// after max+1 bytes. A coded payload is decoded twice, first to check
// its length and its codings, then for the reader: a small record
// cannot make it hold more than it is, and the document's reader
// cannot fail half-way.
func decode(block []byte, h http.Header, max int64) (io.Reader, error) {
	open := func() (io.Reader, bool, error) {
		var body io.Reader = bytes.NewReader(block)
		if h == nil {
			return body, false, nil
		}
		coded := false
		if strings.EqualFold(strings.TrimSpace(h.Get("Transfer-Encoding")), "chunked") {
			body = httputil.NewChunkedReader(bufio.NewReader(body))
			coded = true
		}
		switch strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding"))) {
		case "gzip", "x-gzip":
			z, err := gzip.NewReader(body)
			if err != nil {
				return nil, true, fmt.Errorf("content coding gzip: %w", err)
			}
			return z, true, nil
		case "deflate":
			return flate.NewReader(body), true, nil
		}
		return body, coded, nil
	}
	body, coded, err := open()
	if err != nil || !coded {
		if int64(len(block)) > max {
			return nil, fmt.Errorf("the payload is more than %d bytes (--max-record-size)", max)
		}
		return body, err
	}
	n, err := io.Copy(io.Discard, io.LimitReader(body, max+1))
	if err != nil {
		return nil, fmt.Errorf("decoding the payload: %w", err)
	}
	if n > max {
		return nil, fmt.Errorf("the payload decodes to more than %d bytes (--max-record-size)", max)
	}
	body, _, err = open()
	return body, err
}
