package uribeam

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/urikit/urikit/surt"
)

func init() {
	// Called once a file: reflection is fast enough.
	beam.RegisterType(reflect.TypeOf((*cdxjFn)(nil)).Elem())
}

// CDXJOptions say how CDXJ indexes.
type CDXJOptions struct {
	// PostAppend folds the method and body of a POST or PUT request into
	// the key of its response (cdxj-indexer's -p/--post-append, which
	// pywb uses when it indexes a collection): see cdxjpost.go.
	PostAppend bool
}

// A CDXJ line, as webrecorder's cdxj-indexer writes it (1.4.6, on
// warcio) and pywb reads it:
//
//	<urlkey> <timestamp> {"url": ..., "mime": ..., "status": ..., "digest": ..., "length": ..., "offset": ..., "filename": ...}
//
// urlkey is the SURT of the WARC-Target-URI under the IA profile
// (surt.Key, as internetarchive/surt keys it; "-" without a target; the
// URI itself when it has no key); timestamp is the WARC-Date as 14
// digits. The JSON object is Python's json.dumps of the fields that
// the record has, in this order, every value a string:
//
//   - url: the WARC-Target-URI, without the "<" ">" that wget 1.19 put
//     around it, and a space written %20 (warcio);
//   - mime: "warc/revisit" for a revisit; for a response, the HTTP
//     Content-Type; for a resource or metadata record, the record's
//     Content-Type; up to the first ";" or blank;
//   - status: the code of the HTTP status line of a response or revisit;
//   - digest: the WARC-Payload-Digest as the record has it ("sha1:"
//     and base32), else, but for a revisit, that of the payload,
//     computed (sha1, base32);
//   - length and offset: of the record in the file as stored: in a
//     .warc.gz, its gzip member; in a .warc, from its version line
//     through its block;
//   - filename: the file's base name;
//   - with PostAppend, for a response to a POST or PUT: requestBody,
//     the query made of the body (null when the request's
//     Content-Length is not a number), and method.
//
// HTTP headers are read for response, request and revisit records whose
// target starts with "http:" or "https:" and whose block is not empty.
// Indexed are the response, revisit, resource and metadata records, but
// a resource or metadata record whose Content-Type is
// application/warc-fields; every other record is skipped, counted by its
// type.

// cdxjIndexed reports whether cdxj-indexer indexes a record of the type
// and record Content-Type (its DEFAULT_RECORDS and filter_record), or
// returns the kind it is skipped as.
func cdxjIndexed(typ, ctype string) (string, bool) {
	switch typ {
	case "response", "revisit":
		return "", true
	case "resource", "metadata":
		if ctype == "application/warc-fields" {
			return typ + " application/warc-fields", false
		}
		return "", true
	}
	if strings.Contains(recordTypes, "|"+typ+"|") {
		return typ, false
	}
	return "unknown type", false
}

// A cdxjRecord is what the indexer keeps of a record until it is
// written: with PostAppend, a request and its response are written
// together.
type cdxjRecord struct {
	offset, length int64
	alone          bool // the record addressed by offset and length is this one
	typ            string
	fields         []field // of the WARC header
	target         string
	hasTarget      bool
	http           bool // HTTP headers were read (warcio's http_headers is not None)
	status         string
	hasStatus      bool
	mime           string
	hasMime        bool
	digest         string
	hasDigest      bool
	// A request's method, Content-Type and Content-Length fields and
	// its body, for PostAppend.
	method, ctype, clen string
	hasLen              bool
	body                []byte
	// Set by the join of a request and its response.
	joined bool
	key    string
	query  postQuery
	// skip is the kind of a record not indexed; err why a record cannot
	// be.
	skip string
	err  string
}

// A cdxjIndexer writes the CDXJ lines of one WARC file.
type cdxjIndexer struct {
	filename   string
	postAppend bool
	max        int64
	line       func(string)
	bad        func(DeadLetter)
	t          *tally
	path       string // for dead letters
	prev       *cdxjRecord
	buf        []byte
}

// index reads the WARC file r. Every record is counted in the tally:
// written as a line, skipped by kind, or a dead letter.
func (x *cdxjIndexer) index(r io.Reader) {
	s := newWARCScanner(r, x.max)
	last := int64(-1) // the offset of the record before, for a shared gzip member
	for {
		raw, err := s.next()
		if err != nil {
			break
		}
		x.t.in++
		progressRecords.Add(1)
		if raw.damage != "" {
			last = raw.offset
			x.flush()
			x.t.dead++
			x.bad(DeadLetter{File: x.path, Offset: raw.offset, Error: "WARC: " + raw.damage})
			continue
		}
		rec := x.read(raw)
		rec.alone = true
		if s.gzipped {
			end, ended := s.memberEnd()
			rec.alone = ended && raw.offset != last
			rec.length = end - raw.offset
		}
		last = raw.offset
		x.add(rec)
	}
	x.flush()
}

// memberEnd returns the offset in the file where the gzip member of the
// record just framed ends, when the record ends it: the member holds
// nothing after it. Reading the member to its end checks its CRC.
func (s *warcScanner) memberEnd() (int64, bool) {
	if !s.gzipped || len(s.rec.peek(1)) > 0 || s.failed() != nil {
		return 0, false
	}
	return s.file.off(), true
}

// add takes a record in: with PostAppend, a request and a response that
// follow each other, with the same target, the second concurrent to
// the first (WARC-Concurrent-To, WARC 1.1 section 5.7), are written
// together, the response keyed with the request's body (cdxj-indexer's
// buffering_record_iter); every other record is written as it comes.
func (x *cdxjIndexer) add(rec *cdxjRecord) {
	if !x.postAppend {
		x.write(rec)
		return
	}
	if p := x.prev; p != nil && rec.err == "" && p.err == "" && concurrent(p, rec) {
		x.prev = nil
		req, resp := p, rec
		if p.typ == "response" {
			req, resp = rec, p
		}
		x.join(req, resp)
		x.write(p)
		x.write(rec)
		return
	}
	x.flush()
	x.prev = rec
}

// flush writes the record held for a join.
func (x *cdxjIndexer) flush() {
	if x.prev != nil {
		x.write(x.prev)
		x.prev = nil
	}
}

// concurrent reports whether a and b are a request and its response, in
// either order, as cdxj-indexer pairs them: the same WARC-Target-URI,
// and b's WARC-Concurrent-To a's WARC-Record-ID (compared as warcio
// gives them: two absent fields are equal).
func concurrent(a, b *cdxjRecord) bool {
	if a.hasTarget != b.hasTarget || a.target != b.target {
		return false
	}
	to, okTo := get(b.fields, "WARC-Concurrent-To")
	id, okID := get(a.fields, "WARC-Record-ID")
	if okTo != okID || to != id {
		return false
	}
	return a.typ == "response" && b.typ == "request" || a.typ == "request" && b.typ == "response"
}

// join keys the response of a POST or PUT request with its body.
func (x *cdxjIndexer) join(req, resp *cdxjRecord) {
	if !req.http {
		return
	}
	m := strings.ToUpper(req.method)
	if m != "POST" && m != "PUT" {
		return
	}
	q := bodyQuery(req.method, req.ctype, req.clen, req.hasLen, req.body)
	resp.joined, resp.query, resp.method = true, q, m
	resp.key = cdxjKey(appendMethodQuery(req.target, req.method, q))
}

// cdxjKey returns the urlkey of a URL: its SURT under the IA profile,
// or the URL itself when it has none (cdxj-indexer's get_url_key).
func cdxjKey(url string) string {
	k, err := surt.Key(url)
	if err != nil {
		return url
	}
	return k
}

// write writes the line of a record, or counts it skipped or dead.
func (x *cdxjIndexer) write(rec *cdxjRecord) {
	dead := func(why string) {
		x.t.dead++
		x.bad(DeadLetter{File: x.path, Offset: rec.offset, Error: "WARC record: " + why})
	}
	switch {
	case rec.skip != "":
		x.t.skip(rec.skip)
		return
	case rec.err != "":
		dead(rec.err)
		return
	case !rec.alone:
		dead("it shares its gzip member with another record: a CDXJ offset and length address a whole member (WARC 1.1 Annex D.2: one record a member; warcio recompress rewrites the file so)")
		return
	}
	date, _ := get(rec.fields, "WARC-Date")
	ts, ok := timestamp14(date)
	if !ok {
		dead(fmt.Sprintf("WARC-Date %q is not a date and time (WARC 1.1 section 5.4: YYYY-MM-DDThh:mm:ssZ)", date))
		return
	}
	key := rec.key
	if !rec.joined {
		key = cdxjKey(rec.target)
	}
	b := x.buf[:0]
	b = append(b, key...)
	b = append(b, ' ')
	b = append(b, ts...)
	b = append(b, " {"...)
	sep := ""
	str := func(name, v string) {
		b = append(b, sep...)
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `": `...)
		b = appendPyString(b, v)
		sep = ", "
	}
	if rec.hasTarget {
		str("url", rec.target)
	}
	if rec.hasMime {
		str("mime", rec.mime)
	}
	if rec.hasStatus {
		str("status", rec.status)
	}
	if rec.hasDigest {
		str("digest", rec.digest)
	}
	str("length", strconv.FormatInt(rec.length, 10))
	str("offset", strconv.FormatInt(rec.offset, 10))
	str("filename", x.filename)
	if rec.joined {
		if rec.query.ok {
			str("requestBody", rec.query.text)
		} else {
			b = append(b, `, "requestBody": null`...)
		}
		str("method", rec.method)
	}
	b = append(b, '}')
	x.buf = b
	x.t.out++
	x.line(string(b))
}

// read reads what the indexer needs of a record the scanner framed:
// its block is valid only until the scanner's next record.
func (x *cdxjIndexer) read(raw rawRecord) *cdxjRecord {
	rec := &cdxjRecord{offset: raw.offset, length: int64(len(raw.header)) + raw.length}
	_, rec.fields, _, _ = headerFields(raw.header)
	rec.typ, _ = get(rec.fields, "WARC-Type")
	rec.target, rec.hasTarget = get(rec.fields, "WARC-Target-URI")
	if len(rec.target) >= 2 && rec.target[0] == '<' && rec.target[len(rec.target)-1] == '>' {
		rec.target = rec.target[1 : len(rec.target)-1]
	}
	rec.target = strings.ReplaceAll(rec.target, " ", "%20")
	ctype, hasCtype := get(rec.fields, "Content-Type")
	kind, indexed := cdxjIndexed(rec.typ, ctype)
	request := rec.typ == "request" && x.postAppend
	if !indexed && !request {
		rec.skip = kind
		return rec
	}
	block := raw.block
	if block == nil {
		block = raw.head
	}
	payload := block
	if (rec.typ == "response" || rec.typ == "request" || rec.typ == "revisit") &&
		(strings.HasPrefix(rec.target, "http:") || strings.HasPrefix(rec.target, "https:")) && raw.length > 0 {
		first, hf, end, complete := headerFields(block)
		if !complete && raw.block == nil {
			rec.err = fmt.Sprintf("a record of %d bytes, over the limit of %d (--max-record-size), whose HTTP header is not within its first %d bytes", raw.length, x.max, len(raw.head))
			return rec
		}
		rec.http = true
		payload = block[end:]
		proto, statusline, _ := strings.Cut(first, " ")
		statusline = strings.Trim(statusline, pyWhitespace)
		if statusline != "" || len(hf) > 0 { // warcio's StatusAndHeaders is true
			if rec.typ != "request" {
				rec.status, _, _ = strings.Cut(statusline, " ")
				rec.hasStatus = true
			}
			rec.mime, rec.hasMime = get(hf, "Content-Type")
		}
		if request {
			rec.method = proto
			rec.ctype, _ = get(hf, "Content-Type")
			rec.clen, rec.hasLen = get(hf, "Content-Length")
			if m := strings.ToUpper(proto); m == "POST" || m == "PUT" {
				if raw.block == nil {
					rec.err = fmt.Sprintf("a POST or PUT request of %d bytes, over the limit of %d (--max-record-size): its body cannot be folded into the key of its response", raw.length, x.max)
					return rec
				}
				// A copy: the scanner's block is overwritten by the
				// next record, and the request waits for its response.
				rec.body = bytes.Clone(requestBody(hf, payload, x.max))
			}
		}
	}
	if !indexed {
		rec.skip = kind
		return rec
	}
	switch rec.typ {
	case "revisit":
		rec.mime, rec.hasMime = "warc/revisit", true
	case "resource", "metadata":
		rec.mime, rec.hasMime = ctype, hasCtype
	}
	if rec.hasMime {
		if i := strings.IndexAny(rec.mime, ";"+pyWhitespace); i >= 0 {
			rec.mime = rec.mime[:i]
		}
		rec.mime = strings.Trim(rec.mime, pyWhitespace)
	}
	rec.digest, rec.hasDigest = get(rec.fields, "WARC-Payload-Digest")
	if !rec.hasDigest && rec.typ != "revisit" {
		if raw.block == nil {
			rec.err = fmt.Sprintf("a record of %d bytes, over the limit of %d (--max-record-size), without a WARC-Payload-Digest to index", raw.length, x.max)
			return rec
		}
		sum := sha1.Sum(payload)
		rec.digest, rec.hasDigest = "sha1:"+base32.StdEncoding.EncodeToString(sum[:]), true
	}
	return rec
}

// requestBody returns the payload of a request without its transfer and
// content codings as warcio's content_stream reads it: chunked when
// Transfer-Encoding is "chunked", then gzip or deflate by
// Content-Encoding; a payload that does not decode from its first byte
// is taken as it is, one that fails later is cut there. It reads at most
// max bytes.
func requestBody(h []field, payload []byte, max int64) []byte {
	body := payload
	if te, _ := get(h, "Transfer-Encoding"); te == "chunked" {
		body = dechunk(payload)
	}
	enc, _ := get(h, "Content-Encoding")
	var r io.Reader
	switch strings.ToLower(enc) {
	case "gzip":
		z, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return body
		}
		r = z
	case "deflate":
		z, err := zlib.NewReader(bytes.NewReader(body))
		if err != nil {
			r = flate.NewReader(bytes.NewReader(body)) // warcio's deflate_alt
		} else {
			r = z
		}
	default:
		return body
	}
	out, err := io.ReadAll(io.LimitReader(r, max))
	if err != nil && len(out) == 0 {
		return body
	}
	return out
}

// dechunk decodes a chunked payload (RFC 9112 section 7.1) as warcio's
// ChunkedDataReader does: from a chunk whose size line cannot be read
// on, the rest is taken as it is; a payload cut short ends there.
func dechunk(b []byte) []byte {
	var out []byte
	for len(b) > 0 {
		nl := bytes.IndexByte(b[:min(len(b), 64)], '\n')
		if nl < 1 || b[nl-1] != '\r' {
			return append(out, b...)
		}
		sz, _, _ := strings.Cut(string(b[:nl-1]), ";")
		n, err := strconv.ParseInt(strings.Trim(sz, pyWhitespace), 16, 64)
		if err != nil || n < 0 || n > 1<<31 {
			return append(out, b...)
		}
		rest := b[nl+1:]
		if n == 0 {
			return out
		}
		if int64(len(rest)) <= n {
			return append(out, rest...)
		}
		if !bytes.HasPrefix(rest[n:], []byte("\r\n")) {
			return append(out, b...)
		}
		out = append(out, rest[:n]...)
		b = rest[n+2:]
	}
	return out
}

type cdxjFn struct {
	Max        int64 `json:"max"`
	PostAppend bool  `json:"post_append"`
}

func (fn *cdxjFn) ProcessElement(ctx context.Context, f inputFile, emit func(string), bad func(DeadLetter), count func(string, int64)) {
	progressFiles.Add(1)
	var t tally
	name := f.Path
	x := &cdxjIndexer{
		filename: path.Base(filepath.ToSlash(name)), postAppend: fn.PostAppend, max: fn.Max,
		line: emit, bad: bad, t: &t, path: name,
	}
	r, err := f.open(ctx)
	if err != nil {
		t.in++
		t.dead++
		bad(DeadLetter{File: name, Offset: -1, Error: err.Error()})
	} else {
		x.index(r)
		r.Close()
	}
	t.emit(count)
}

// CDXJ returns the CDXJ lines of the WARC files of glob (plain or
// gzipped, one record a gzip member), one line a capture as
// cdxj-indexer writes them (see above), not sorted: WriteSortedShards
// sorts them. Every record is counted: a line, skipped by type
// (warcinfo, request, ...), or a DeadLetter with its file and offset: a
// damaged stretch of the file, a record over o.MaxRecord whose line
// needs its block, a record without a valid WARC-Date, a record that
// shares its gzip member with another (its offset and length cannot
// address it).
func CDXJ(s beam.Scope, glob string, o ReadOptions, c CDXJOptions) (lines, dead, counts beam.PCollection) {
	s = s.Scope("uribeam.CDXJ")
	return beam.ParDo3(s, &cdxjFn{Max: o.max(), PostAppend: c.PostAppend}, readFiles(s, glob))
}
