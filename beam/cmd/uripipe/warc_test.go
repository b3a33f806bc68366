package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	gowarc "github.com/nlnwa/gowarc/v3"
)

// A test record: a WARC record type, its target, and for an HTTP
// response its header lines and body.
type testRecord struct {
	typ     gowarc.RecordType
	target  string
	headers []string // HTTP response headers ("Name: value")
	body    string   // the HTTP payload as sent (chunked when a header says so)
	decoded string   // the payload without its transfer coding, if it has one
	ctype   string   // the record's Content-Type, for a resource record
}

// The pages of the test crawl: HTML with the outer layers of the base
// (Content-Location, Content-Base), a chunked response, text for
// extract, and records that are not documents.
var crawl = []testRecord{
	{typ: gowarc.Warcinfo, body: "software: urikit test\r\n"},
	{typ: gowarc.Response, target: "https://example.com/dir/page.html",
		headers: []string{"Content-Type: text/html; charset=utf-8", "Content-Location: /moved/here.html"},
		body:    `<a href="a.html">a</a> <a href="../up">up</a> <img src="//cdn.example.net/i.png"> <a href="https://Other.example:443/x">x</a>`},
	{typ: gowarc.Response, target: "http://example.org/",
		headers: []string{"Content-Type: text/html", "Content-Base: http://base.example/b/"},
		body:    `<html><body><a href="rel">rel</a><form action="?q=1"></form></body></html>`},
	{typ: gowarc.Response, target: "http://example.org/chunked",
		headers: []string{"Content-Type: text/html", "Transfer-Encoding: chunked"},
		body:    "1a\r\n<a href=\"one.html\">1</a> <\r\n18\r\na href=\"/two.html\">2</a>\r\n0\r\n\r\n",
		decoded: `<a href="one.html">1</a> <a href="/two.html">2</a>`},
	{typ: gowarc.Response, target: "http://example.org/notes.txt",
		headers: []string{"Content-Type: text/plain"},
		body:    "See <URL:ftp://ftp.example.org/pub/> and http://example.com/x.\nAlso \"http://quoted.example/a b\"\n"},
	{typ: gowarc.Request, target: "http://example.org/",
		body: "GET / HTTP/1.1\r\nHost: example.org\r\n\r\n"},
	{typ: gowarc.Resource, target: "file:///archive/readme.txt", ctype: "text/plain",
		body: "Resource text with https://resource.example/r.\n"},
	{typ: gowarc.Response, target: "http://example.org/image.png",
		headers: []string{"Content-Type: image/png"}, body: "\x89PNG <a href=\"no\">"},
}

// buildRecord returns the record r as a gowarc record.
func buildRecord(t *testing.T, r testRecord) gowarc.WarcRecord {
	t.Helper()
	rb := gowarc.NewRecordBuilder(r.typ, gowarc.WithAddMissingRecordId(true),
		gowarc.WithAddMissingContentLength(true), gowarc.WithAddMissingDigest(true))
	rb.AddWarcHeaderTime(gowarc.WarcDate, time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	if r.target != "" {
		rb.AddWarcHeader(gowarc.WarcTargetURI, r.target)
	}
	switch r.typ {
	case gowarc.Response:
		rb.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=response")
		rb.WriteString("HTTP/1.1 200 OK\r\n" + strings.Join(r.headers, "\r\n") + "\r\n\r\n" + r.body)
	case gowarc.Request:
		rb.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=request")
		rb.WriteString(r.body)
	case gowarc.Warcinfo:
		rb.AddWarcHeader(gowarc.ContentType, "application/warc-fields")
		rb.WriteString(r.body)
	default:
		rb.AddWarcHeader(gowarc.ContentType, r.ctype)
		rb.WriteString(r.body)
	}
	rec, _, err := rb.Build()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// writeWARC writes the records into a WARC file, each record a gzip
// member of its own when gz (as crawlers write .warc.gz), and returns
// the offset of each record.
func writeWARC(t *testing.T, path string, recs []testRecord, gz bool) []int64 {
	t.Helper()
	var file bytes.Buffer
	var offsets []int64
	m := gowarc.NewMarshaler()
	for _, r := range recs {
		offsets = append(offsets, int64(file.Len()))
		rec := buildRecord(t, r)
		var w io.Writer = &file
		var z *gzip.Writer
		if gz {
			z = gzip.NewWriter(&file)
			w = z
		}
		if _, _, err := m.Marshal(w, rec, 0); err != nil {
			t.Fatal(err)
		}
		if z != nil {
			z.Close()
		}
		rec.Close()
	}
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return offsets
}

// payload returns the HTTP payload of r as uri links and uri extract
// get it: without the transfer coding.
func (r testRecord) payload() string {
	if r.decoded != "" {
		return r.decoded
	}
	return r.body
}

func (r testRecord) header(name string) (string, bool) {
	for _, h := range r.headers {
		if k, v, _ := strings.Cut(h, ": "); strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// isHTML and isText say what the pipeline must make of r.
func (r testRecord) isHTML() bool {
	ct, _ := r.header("Content-Type")
	return r.typ == gowarc.Response && strings.HasPrefix(ct, "text/html")
}

func (r testRecord) isText() bool {
	ct, _ := r.header("Content-Type")
	return r.typ == gowarc.Response && strings.HasPrefix(ct, "text/plain") || r.typ == gowarc.Resource
}

// TestWARCLinksAndExtract: links and extract over a .warc.gz and a .warc
// give what uri links and uri extract give on the same pages, with the
// headers of each HTTP response as the outer layers of the base.
func TestWARCLinksAndExtract(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "crawl")
	os.MkdirAll(in, 0o755)
	var wantLinks, wantFound []string
	for _, name := range []string{"a.warc.gz", "b.warc"} {
		path := filepath.Join(in, name)
		offsets := writeWARC(t, path, crawl, strings.HasSuffix(name, ".gz"))
		for i, r := range crawl {
			if r.isHTML() {
				args := []string{"links", "--url", r.target}
				for _, h := range []string{"Content-Base", "Content-Location"} {
					if v, ok := r.header(h); ok {
						args = append(args, "--header", h+": "+v)
					}
				}
				for _, l := range uriLines(t, []byte(r.payload()), args...) {
					wantLinks = append(wantLinks, r.target+"\t"+l)
				}
			}
			if r.isText() {
				file := path + "@" + strconv.FormatInt(offsets[i], 10)
				for _, j := range uriLines(t, []byte(r.payload()), "extract", "--json") {
					wantFound = append(wantFound, file+"\t"+jsonField(t, j, "start")+"\t"+jsonField(t, j, "uri"))
				}
			}
		}
	}
	out := filepath.Join(dir, "out")
	job(t, "links", "--input", filepath.Join(in, "*"), "--output", filepath.Join(out, "l"))
	sameMultiset(t, "links", shardLines(t, filepath.Join(out, "l"), 1), wantLinks)
	sameMultiset(t, "links errors", shardLines(t, filepath.Join(out, "l-errors"), 1), nil)
	job(t, "extract", "--input", filepath.Join(in, "*"), "--output", filepath.Join(out, "x"))
	sameMultiset(t, "extract", shardLines(t, filepath.Join(out, "x"), 1), wantFound)
	if len(wantLinks) != 2*8 || len(wantFound) != 2*4 {
		t.Errorf("%d links and %d URIs in text: the test crawl is missing", len(wantLinks), len(wantFound))
	}
	for _, l := range wantLinks {
		if strings.Contains(l, "http://example.org/\thttp://base.example/b/rel") {
			return
		}
	}
	t.Errorf("Content-Base was not the base of http://example.org/: %q", wantLinks)
}

// TestWARCDeadLetters: a record that cannot be read is a dead letter with
// its file and offset; the records after it are still read, and the
// pipeline succeeds.
func TestWARCDeadLetters(t *testing.T) {
	dir := t.TempDir()
	recs := crawl[1:3] // two HTML pages
	recs = append(recs, crawl[1])
	path := filepath.Join(dir, "damaged.warc.gz")
	offsets := writeWARC(t, path, recs, true)
	b, _ := os.ReadFile(path)
	// Damage the deflate data of the second record's gzip member.
	for i := offsets[1] + 30; i < offsets[1]+60; i++ {
		b[i] ^= 0x55
	}
	os.WriteFile(path, b, 0o644)
	out := filepath.Join(dir, "out")
	job(t, "links", "--input", path, "--output", out)
	dead := shardLines(t, out+"-errors", 1)
	if len(dead) == 0 || jsonField(t, dead[0], "file") != path || jsonField(t, dead[0], "offset") != strconv.FormatInt(offsets[1], 10) {
		t.Errorf("dead letters %q, want one for %s at offset %d", dead, path, offsets[1])
	}
	t.Logf("dead letters: %q", dead)
	pages := map[string]int{}
	for _, l := range shardLines(t, out, 1) {
		p, _, _ := strings.Cut(l, "\t")
		pages[p]++
	}
	if pages[recs[0].target] != 2*4 {
		t.Errorf("links of the records around the damaged one: %v, want 8 of %s", pages, recs[0].target)
	}
}
