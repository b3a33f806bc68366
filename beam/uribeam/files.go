package uribeam

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urikit/urikit/extract"
	"github.com/urikit/urikit/htmldoc"
	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/uri"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Found)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Mapping)(nil)).Elem())
	register.Function4x0(extractFn)
	// A DoFn called once a file: reflection is fast enough, and spares
	// compiling Beam's generic wrappers for it.
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

func init() { register.Function1x0(ignoreFile) }

func ignoreFile(fileio.FileMetadata) {}

// ReadLines returns the lines of the files of glob, as textio.Read reads
// them (".gz" files decompressed), and makes the pipeline fail when a
// glob without a wildcard names no file: a mistyped input is an error,
// not an empty answer.
func ReadLines(s beam.Scope, glob string) beam.PCollection {
	s = s.Scope("uribeam.ReadLines")
	beam.ParDo0(s, ignoreFile, fileio.MatchFiles(s, glob, fileio.MatchEmptyAllowIfWildcard()))
	return textio.Read(s, glob)
}

// isWARC reports whether path names a WARC file.
func isWARC(path string) bool {
	return strings.HasSuffix(path, ".warc") || strings.HasSuffix(path, ".warc.gz")
}

// readFiles returns the files of glob, not decompressed: WARC files are
// read record by record (each record of a .warc.gz is a gzip member of
// its own, whose offset is the record's).
func readFiles(s beam.Scope, glob string) beam.PCollection {
	return fileio.ReadMatches(s, fileio.MatchFiles(s, glob, fileio.MatchEmptyAllowIfWildcard()), fileio.ReadUncompressed())
}

// openText opens a file that is not a WARC file, decompressing ".gz".
func openText(ctx context.Context, f fileio.ReadableFile) (io.ReadCloser, error) {
	r, err := f.Open(ctx)
	if err != nil || !strings.HasSuffix(f.Metadata.Path, ".gz") {
		return r, err
	}
	z, err := gzip.NewReader(r)
	if err != nil {
		r.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{z, r}, nil
}

// extractOptions are those of "uri extract": IRIs mapped to URIs.
var extractOptions = extract.Options{Map: iri.ToURI}

func extractFn(ctx context.Context, f fileio.ReadableFile, emit func(Found), bad func(DeadLetter)) {
	name := f.Metadata.Path
	if isWARC(name) {
		eachRecord(ctx, f, bad, func(d document) {
			if d.html {
				return
			}
			file := name + "@" + strconv.FormatInt(d.offset, 10)
			if err := extractText(file, d.body, emit); err != nil {
				bad(DeadLetter{File: name, Offset: d.offset, Error: err.Error()})
			}
		})
		return
	}
	r, err := openText(ctx, f)
	if err != nil {
		bad(DeadLetter{File: name, Offset: -1, Error: err.Error()})
		return
	}
	defer r.Close()
	if err := extractText(name, r, emit); err != nil {
		bad(DeadLetter{File: name, Offset: -1, Error: err.Error()})
	}
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

// Extract returns the URIs found in the text files of glob (".gz" files
// decompressed) and in the text records of its WARC files, as "uri
// extract" finds them (the 1998 draft's Appendix E, IRIs mapped to
// URIs): a PCollection of Found. A file or a WARC record that cannot be
// read is a DeadLetter with the file and the record's offset.
func Extract(s beam.Scope, glob string) (found, dead beam.PCollection) {
	s = s.Scope("uribeam.Extract")
	return beam.ParDo2(s, extractFn, readFiles(s, glob))
}

type linksFn struct {
	Map Mapping `json:"map"`
}

func (fn *linksFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emit func(string, string), bad func(DeadLetter)) {
	name := f.Metadata.Path
	if isWARC(name) {
		eachRecord(ctx, f, bad, func(d document) {
			if !d.html {
				return
			}
			ret, err := uri.Parse(d.target)
			if err == nil && !ret.HasScheme() {
				err = htmldoc.ErrRetrieval
			}
			if err == nil {
				err = links(d.body, ret, d.header, emit, func(msg string) {
					bad(DeadLetter{File: name, Offset: d.offset, Error: msg})
				})
			}
			if err != nil {
				bad(DeadLetter{File: name, Offset: d.offset, Error: err.Error()})
			}
		})
		return
	}
	ret, err := fn.Map.Retrieval(name)
	if err != nil {
		bad(DeadLetter{File: name, Offset: -1, Error: "retrieval URI: " + err.Error()})
		return
	}
	r, err := openText(ctx, f)
	if err == nil {
		defer r.Close()
		err = links(r, ret, nil, emit, func(msg string) {
			bad(DeadLetter{File: name, Offset: -1, Error: msg})
		})
	}
	if err != nil {
		bad(DeadLetter{File: name, Offset: -1, Error: err.Error()})
	}
}

// links emits the links of the HTML document r as "uri links" prints
// them, each paired with the document's retrieval URI; a link that
// cannot be resolved goes to bad with the message "uri links" prints
// after "error: " ("line 2: invalid character ' ' at offset 8 in host
// of ...").
func links(r io.Reader, ret uri.URI, h http.Header, emit func(string, string), bad func(string)) error {
	page := ret.String()
	_, err := htmldoc.Links(r, ret, h, func(l htmldoc.Link) bool {
		if l.Err != nil {
			bad("line " + strconv.Itoa(l.Line) + ": " + strings.TrimPrefix(l.Err.Error(), "uri: "))
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
// and LINK as "uri links --url PAGE" prints it. A plain file (".gz"
// decompressed) is one document, retrieved from the URI m gives its
// path; in a WARC file every HTML response or resource record is one,
// retrieved from its WARC-Target-URI with the headers of its HTTP
// response. A file or record that cannot be read is a DeadLetter.
func Links(s beam.Scope, glob string, m *Mapping) (links, dead beam.PCollection) {
	s = s.Scope("uribeam.Links")
	fn := &linksFn{}
	if m != nil {
		fn.Map = *m
	}
	return beam.ParDo2(s, fn, readFiles(s, glob))
}
