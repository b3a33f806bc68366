package uribeam

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urikit/urikit/extract"
	"github.com/urikit/urikit/htmldoc"
	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/uri"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Found)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Mapping)(nil)).Elem())
	// DoFns called once a file: reflection is fast enough, and spares
	// compiling Beam's generic wrappers for them.
	beam.RegisterType(reflect.TypeOf((*extractFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*linksFn)(nil)).Elem())
	register.Emitter1[Found]()
}

// A Found is one URI that Extract found in a text.
type Found struct {
	File   string // the file, or for a WARC record FILE@OFFSET, OFFSET that of the record in the file
	Offset int64  // the byte offset of the URI's first byte in the text (the decompressed file, the record's payload)
	URI    string // as "uri extract" prints it
}

// String returns f as uripipe extract writes it: FILE<TAB>OFFSET<TAB>URI.
func (f Found) String() string {
	return f.File + "\t" + strconv.FormatInt(f.Offset, 10) + "\t" + f.URI
}

// A Mapping gives the retrieval URI of a file from its path: a file
// whose path starts with one of the path prefixes was retrieved from
// the URL prefix paired with it, followed by the rest of its path,
// percent-encoded as a path (RFC 3986 3.3). The longest prefix wins. It
// is a small value, copied into the pipeline.
type Mapping struct {
	Paths []string // the path prefixes
	URLs  []string // the URL prefix of each, an absolute URI
}

// ErrMapping: the URL prefix of a Mapping must be an absolute URI.
var ErrMapping = errors.New("uribeam: the URL prefix must be an absolute URI")

// Add maps the files under the path prefix p to the URL prefix u.
func (m *Mapping) Add(p, u string) error {
	if v, err := uri.Parse(u); err != nil || !v.HasScheme() {
		return ErrMapping
	}
	m.Paths = append(m.Paths, p)
	m.URLs = append(m.URLs, u)
	return nil
}

// Len returns the number of path prefixes.
func (m *Mapping) Len() int { return len(m.Paths) }

// Retrieval returns the retrieval URI of the file at path: by the
// longest path prefix of m that path starts with; else a path that is
// already an absolute URI (gs://bucket/page.html) is its own; else the
// file: URL of its absolute path (RFC 8089).
func (m Mapping) Retrieval(path string) (uri.URI, error) {
	best := -1
	for i, p := range m.Paths {
		if strings.HasPrefix(path, p) && (best < 0 || len(p) > len(m.Paths[best])) {
			best = i
		}
	}
	if best >= 0 {
		return uri.Parse(m.URLs[best] + uri.Escape(path[len(m.Paths[best]):], uri.PathSet))
	}
	if u, err := uri.Parse(path); err == nil && u.HasScheme() && len(u.Scheme()) > 1 {
		return u, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return uri.URI{}, err
	}
	return uri.Parse("file://" + uri.Escape(filepath.ToSlash(abs), uri.PathSet))
}

// isWARC reports whether path names a WARC file.
func isWARC(path string) bool {
	return strings.HasSuffix(path, ".warc") || strings.HasSuffix(path, ".warc.gz")
}

// eachDocument calls fn with the documents of the file f: the file
// itself, decompressed, or the HTML (html set) or other text records of
// a WARC file, each counted in t; a document that cannot be read, or
// for which fn fails, is a dead letter.
func eachDocument(ctx context.Context, f inputFile, max int64, html bool, t *tally, bad func(DeadLetter), fn func(document) error) {
	progressFiles.Add(1)
	name := f.Path
	if isWARC(name) {
		eachRecord(ctx, f, max, html, t, bad, fn)
		return
	}
	t.in++
	progressRecords.Add(1)
	r, c, err := openInput(ctx, f)
	if err == nil {
		defer c.Close()
		err = fn(document{offset: -1, target: name, html: html, body: r})
	}
	if err != nil {
		t.dead++
		bad(DeadLetter{File: name, Offset: -1, Error: err.Error()})
		return
	}
	t.out++
}

// extractOptions are those of "uri extract": IRIs mapped to URIs.
var extractOptions = extract.Options{Map: iri.ToURI}

type extractFn struct {
	Max int64 `json:"max"`
}

func (fn *extractFn) ProcessElement(ctx context.Context, f inputFile, emit func(Found), bad func(DeadLetter), count func(string, int64)) {
	var t tally
	eachDocument(ctx, f, fn.Max, false, &t, bad, func(d document) error {
		file := d.target
		if d.offset >= 0 {
			file = f.Path + "@" + strconv.FormatInt(d.offset, 10)
		}
		return extractText(file, d.body, emit)
	})
	t.emit(count)
}

// extractText emits the URIs of the text r, as "uri extract" finds them.
func extractText(file string, r io.Reader, emit func(Found)) error {
	sc := extract.NewScanner(r, extractOptions)
	for sc.Scan() {
		m := sc.Match()
		emit(Found{File: file, Offset: m.Start, URI: m.URI})
	}
	return sc.Err()
}

// Extract returns the URIs found in the text files of glob (gzip files
// decompressed) and in the text records of its WARC files, as "uri
// extract" finds them (the 1998 draft's Appendix E, IRIs mapped to
// URIs): a PCollection of Found. A file or a WARC record that cannot be
// read, a damaged stretch of a WARC file, and a record over
// o.MaxRecord are DeadLetters with the file and the record's offset.
// The counts (WriteCounts) count documents: a plain file, or a WARC
// record; HTML and other records are skipped, counted by kind.
func Extract(s beam.Scope, glob string, o ReadOptions) (found, dead, counts beam.PCollection) {
	s = s.Scope("uribeam.Extract")
	return beam.ParDo3(s, &extractFn{Max: o.max()}, readFiles(s, glob))
}

type linksFn struct {
	Map Mapping `json:"map"`
	Max int64   `json:"max"`
}

func (fn *linksFn) ProcessElement(ctx context.Context, f inputFile, emit func(string, string), bad func(DeadLetter), count func(string, int64)) {
	var t tally
	name := f.Path
	eachDocument(ctx, f, fn.Max, true, &t, bad, func(d document) error {
		var ret uri.URI
		var err error
		if d.offset < 0 {
			if ret, err = fn.Map.Retrieval(name); err != nil {
				return errors.New("retrieval URI: " + err.Error())
			}
		} else if ret, err = uri.Parse(d.target); err == nil && !ret.HasScheme() {
			err = htmldoc.ErrRetrieval
		}
		if err != nil {
			return err
		}
		return links(d.body, ret, d.header, emit, func(l htmldoc.Link) {
			t.linkErrors++
			bad(DeadLetter{File: name, Offset: d.offset, Input: l.Ref,
				Error: "line " + strconv.Itoa(l.Line) + ": " + strings.TrimPrefix(l.Err.Error(), "uri: ")})
		})
	})
	t.emit(count)
}

// links emits the links of the HTML document r as "uri links" prints
// them, each paired with the document's retrieval URI; a link that
// cannot be resolved goes to bad, whose dead letter's error is the
// message "uri links" prints after "error: " ("line 2: invalid
// character ' ' at offset 8 in host of ...").
func links(r io.Reader, ret uri.URI, h http.Header, emit func(string, string), bad func(htmldoc.Link)) error {
	page := ret.String()
	_, err := htmldoc.Links(r, ret, h, func(l htmldoc.Link) bool {
		if l.Err != nil {
			bad(l)
			return true
		}
		emit(page, l.URI.String())
		return true
	})
	return err
}

// Links returns the links of the HTML documents of glob, resolved
// against their base (base element, Content-Base, Content-Location,
// retrieval URI: the 1998 draft's section 5.1), each paired with the
// document's retrieval URI: a PCollection of KV<string, string>, PAGE
// and LINK as "uri links --url PAGE" prints it. A plain file (gzip
// decompressed) is one document, retrieved from the URI m gives its
// path; in a WARC file every HTML response or resource record is one,
// retrieved from its WARC-Target-URI with the headers of its HTTP
// response. A file or record that cannot be read, a damaged stretch of
// a WARC file, a record over o.MaxRecord, and a link that cannot be
// resolved (its Input the attribute's value) are DeadLetters. The
// counts (WriteCounts) count documents, as Extract's do, and the links
// that could not be resolved.
func Links(s beam.Scope, glob string, m *Mapping, o ReadOptions) (links, dead, counts beam.PCollection) {
	s = s.Scope("uribeam.Links")
	fn := &linksFn{Max: o.max()}
	if m != nil {
		fn.Map = *m
	}
	return beam.ParDo3(s, fn, readFiles(s, glob))
}
