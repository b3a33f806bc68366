package uribeam

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
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
	target string      // WARC-Target-URI
	header http.Header // of the HTTP response; nil for a resource record
	html   bool        // an HTML document, else text
	body   io.Reader   // the payload, without transfer and content codings
}

// warcOptions read records as they are, without digest checks: a
// reader that only extracts links has no use for them, and a damaged
// record must not stop the rest of the file.
var warcOptions = []gowarc.WarcRecordOption{
	gowarc.WithSyntaxErrorPolicy(gowarc.ErrWarn),
	gowarc.WithSpecViolationPolicy(gowarc.ErrWarn),
	gowarc.WithUnknownRecordTypePolicy(gowarc.ErrWarn),
	gowarc.WithBlockErrorPolicy(gowarc.ErrIgnore),
}

// eachRecord calls fn for every HTML or text document of the WARC file
// f. A record that cannot be read is a dead letter with the file and
// the record's offset, and reading goes on at the next record that the
// reader finds past it (it scans for the next "WARC/" line or gzip
// member); it stops when no byte was consumed.
func eachRecord(ctx context.Context, f fileio.ReadableFile, bad func(DeadLetter), fn func(document)) {
	name := f.Metadata.Path
	r, err := f.Open(ctx)
	if err != nil {
		bad(DeadLetter{File: name, Offset: -1, Error: err.Error()})
		return
	}
	defer r.Close()
	wr, err := gowarc.NewWarcFileReaderFromStream(r, 0, warcOptions...)
	if err != nil {
		bad(DeadLetter{File: name, Offset: 0, Error: err.Error()})
		return
	}
	defer wr.Close()
	last := int64(-1)
	for {
		rec, err := wr.Next()
		if errors.Is(err, io.EOF) && rec.WarcRecord == nil {
			return
		}
		if err != nil {
			rec.Close()
			bad(DeadLetter{File: name, Offset: rec.Offset, Error: "WARC record: " + err.Error()})
			if rec.Offset <= last || errors.Is(err, io.ErrUnexpectedEOF) {
				return
			}
			last = rec.Offset
			continue
		}
		last = rec.Offset
		if d, ok, err := documentOf(rec); err != nil {
			bad(DeadLetter{File: name, Offset: rec.Offset, Error: "WARC record: " + err.Error()})
		} else if ok {
			fn(d)
		}
		rec.Close()
	}
}

// documentOf returns the document of a response or resource record, or
// false for another record, or a payload that is neither HTML nor text.
func documentOf(rec gowarc.Record) (document, bool, error) {
	wr := rec.WarcRecord
	d := document{offset: rec.Offset}
	h := wr.WarcHeader()
	d.target = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(h.Get(gowarc.WarcTargetURI)), "<"), ">")
	var body io.Reader
	var err error
	switch wr.Type() {
	case gowarc.Response:
		hb, ok := wr.Block().(gowarc.HttpResponseBlock)
		if !ok {
			return d, false, nil // a response of another protocol (dns:, ...)
		}
		// The header as sent: gowarc's HttpHeader leaves out
		// Transfer-Encoding, which says how to read the payload.
		if d.header, err = httpHeader(hb.ProtocolHeaderBytes()); err != nil {
			return d, false, err
		}
		if !isDocument(d.header.Get("Content-Type"), &d) {
			return d, false, nil
		}
		body, err = hb.PayloadBytes()
	case gowarc.Resource:
		if !isDocument(h.Get(gowarc.ContentType), &d) {
			return d, false, nil
		}
		body, err = wr.Block().RawBytes()
	default:
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	d.body, err = decode(body, d.header)
	return d, err == nil, err
}

// isDocument reports whether the media type ctype is HTML (d.html) or
// other text.
func isDocument(ctype string, d *document) bool {
	mt, _, _ := mime.ParseMediaType(ctype)
	d.html = mt == "text/html" || mt == "application/xhtml+xml"
	return d.html || strings.HasPrefix(mt, "text/")
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

// decode removes the transfer coding and the content coding of an HTTP
// payload as a crawler stored it (RFC 9112 7.1, RFC 9110 8.4): chunked,
// gzip and deflate; another coding leaves the payload as it is.
func decode(body io.Reader, h http.Header) (io.Reader, error) {
	if h == nil {
		return body, nil
	}
	if strings.EqualFold(strings.TrimSpace(h.Get("Transfer-Encoding")), "chunked") {
		body = httputil.NewChunkedReader(bufio.NewReader(body))
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding"))) {
	case "gzip", "x-gzip":
		return gzip.NewReader(body)
	case "deflate":
		return flate.NewReader(body), nil
	}
	return body, nil
}
