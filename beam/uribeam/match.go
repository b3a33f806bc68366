package uribeam

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// The readers find their files with Beam's file systems directly, not
// with its fileio package: what they need of it is a list and an open,
// and fileio (with transforms/periodic, which it imports for its
// continuous matching) is among the costliest packages of uripipe's
// first build, for its generic DoFn registrations (BENCHMARKS.md, "The
// first build of uripipe").

func init() {
	// Once a glob and once a file: reflection is fast enough.
	beam.RegisterType(reflect.TypeOf((*inputFile)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*matchFn)(nil)).Elem())
	register.Emitter1[inputFile]()
}

// An inputFile is a file that the input glob matched, as its file
// system lists it: an element of the pipeline, which the worker that
// reads the file opens.
type inputFile struct {
	Path string
	Size int64 // -1 when the file system could not say
}

// open opens the file for reading, its bytes as they are stored.
func (f inputFile) open(ctx context.Context) (io.ReadCloser, error) {
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return nil, err
	}
	r, err := fs.OpenRead(ctx, f.Path)
	if err != nil {
		fs.Close()
		return nil, err
	}
	return fsReader{r, fs}, nil
}

// fsReader closes its file system with the file: a client of an object
// store lives as long as the reading.
type fsReader struct {
	io.ReadCloser
	fs filesystem.Interface
}

func (r fsReader) Close() error {
	err := r.ReadCloser.Close()
	if err2 := r.fs.Close(); err == nil {
		err = err2
	}
	return err
}

// matchFn lists the files of its glob. A glob that matches no file is
// an error, which fails the pipeline: a mistyped input is not an empty
// answer (uripipe says so before it builds one). A listed directory of
// an object store (its path ends in "/") is not a file.
type matchFn struct {
	Glob string `json:"glob"`
}

func (fn *matchFn) ProcessElement(ctx context.Context, _ []byte, emit func(inputFile)) error {
	fs, err := filesystem.New(ctx, fn.Glob)
	if err != nil {
		return err
	}
	defer fs.Close()
	paths, err := fs.List(ctx, fn.Glob)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("uribeam: no file matches %q", fn.Glob)
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			continue
		}
		size, err := fs.Size(ctx, p)
		if err != nil {
			// The reader opens it, and makes its failure a dead letter.
			size = -1
		}
		emit(inputFile{Path: p, Size: size})
	}
	return nil
}

// readFiles returns the files of glob, not decompressed: WARC files are
// read record by record by the WARC scanner, other files by openInput.
// A glob that matches no file makes the pipeline fail.
func readFiles(s beam.Scope, glob string) beam.PCollection {
	filesystem.ValidateScheme(glob)
	s = s.Scope("uribeam.readFiles")
	return beam.ParDo(s, &matchFn{Glob: glob}, beam.Impulse(s))
}
