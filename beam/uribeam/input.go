package uribeam

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*lineRange)(nil)).Elem())
	// Called once a file or range: reflection is fast enough.
	beam.RegisterType(reflect.TypeOf((*splitFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*readRangeFn)(nil)).Elem())
	register.Emitter1[lineRange]()
}

// DefaultMaxRecord is the default of ReadOptions.MaxRecord: 64 MiB.
const DefaultMaxRecord = 64 << 20

// ReadOptions say how the readers read their files.
type ReadOptions struct {
	// MaxRecord bounds the bytes of one record: a line, or the block and
	// the decoded payload of a WARC record. A record over it is a dead
	// letter (a WARC record of a kind the job skips is still skipped).
	// 0 means DefaultMaxRecord.
	MaxRecord int64
}

func (o ReadOptions) max() int64 {
	if o.MaxRecord <= 0 {
		return DefaultMaxRecord
	}
	return o.MaxRecord
}

// The input of every job is decompressed the same way: a file that
// starts with a gzip member (RFC 1952 section 2.3.1: ID1 ID2 CM=8) is
// gzip, whatever its name, and every member of it is read; any other
// file is read as it is. WARC files are the exception: the WARC scanner
// reads their members one at a time (warcscan.go).

// isGzip reports whether the first bytes of a file are those of a gzip
// member.
func isGzip(first []byte) bool { return bytes.HasPrefix(first, gzipMember) }

// openInput opens a file of text for reading, decompressed when it is
// gzip; the closer closes the file.
func openInput(ctx context.Context, f inputFile) (io.Reader, io.Closer, error) {
	fd, err := f.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	b := bufio.NewReaderSize(fd, 64<<10)
	first, _ := b.Peek(3)
	if !isGzip(first) {
		return b, fd, nil
	}
	z, err := gzip.NewReader(b) // multistream: every member
	if err != nil {
		fd.Close()
		return nil, nil, err
	}
	return z, fd, nil
}

// rangeSize is the size of the ranges a plain file of lines is read
// in, each by its own element, so that a runner can spread a large file
// over workers (a gzip file is read whole).
var rangeSize int64 = 64 << 20

// A lineRange is the lines of a file that start in [Start, End); End -1
// is the end of the file.
type lineRange struct {
	Path       string
	Start, End int64
}

// splitFn splits each file into ranges of lines.
type splitFn struct{}

func (splitFn) ProcessElement(ctx context.Context, f inputFile, emit func(lineRange), count func(string, int64)) {
	count(CountFiles, 1)
	progressFiles.Add(1)
	size := f.Size
	if size < 2*rangeSize || gzipFile(ctx, f) {
		emit(lineRange{Path: f.Path, Start: 0, End: -1})
		return
	}
	for start := int64(0); start < size; start += rangeSize {
		end := start + rangeSize
		if end+rangeSize/4 > size {
			end = -1
		}
		emit(lineRange{Path: f.Path, Start: start, End: end})
		if end < 0 {
			return
		}
	}
}

// gzipFile reports whether the file starts with a gzip member; a file
// that cannot be read is read whole, where the reading reports it.
func gzipFile(ctx context.Context, f inputFile) bool {
	fd, err := f.open(ctx)
	if err != nil {
		return true
	}
	defer fd.Close()
	var first [3]byte
	n, _ := io.ReadFull(fd, first[:])
	return isGzip(first[:n])
}

// readRangeFn reads the lines of a range.
type readRangeFn struct {
	Max int64 `json:"max"`
}

func (fn *readRangeFn) ProcessElement(ctx context.Context, r lineRange, emit func(string), bad func(DeadLetter), count func(string, int64)) {
	long := int64(0)
	n, err := fn.read(ctx, r, emit, func(d DeadLetter) {
		long++
		bad(d)
	})
	count(CountIn, n)
	if long > 0 {
		count(CountDead, long)
	}
	if err != nil {
		count(CountReadErrors, 1)
		bad(DeadLetter{File: r.Path, Offset: -1, Error: err.Error()})
	}
}

// read emits the lines of the range and returns how many it read (the
// over-long ones, dead letters, included).
func (fn *readRangeFn) read(ctx context.Context, r lineRange, emit func(string), bad func(DeadLetter)) (int64, error) {
	fs, err := filesystem.New(ctx, r.Path)
	if err != nil {
		return 0, err
	}
	defer fs.Close()
	fd, err := fs.OpenRead(ctx, r.Path)
	if err != nil {
		return 0, err
	}
	defer fd.Close()
	var in io.Reader = fd
	if r.Start > 0 {
		// The line that starts at Start, if one does, is this range's:
		// skip to the byte before it, and to the end of that line.
		if sk, ok := fd.(io.Seeker); ok {
			_, err = sk.Seek(r.Start-1, io.SeekStart)
		} else {
			_, err = io.CopyN(io.Discard, fd, r.Start-1)
		}
		if err != nil {
			return 0, err
		}
	} else {
		b := bufio.NewReaderSize(fd, 64<<10)
		in = b
		if first, _ := b.Peek(3); isGzip(first) {
			z, err := gzip.NewReader(b)
			if err != nil {
				return 0, err
			}
			in = z
		}
	}
	var n int64
	err = eachLine(in, r.Start, r.End, fn.Max, func(line []byte, long bool) {
		n++
		if n&1023 == 0 {
			progressRecords.Add(1024)
		}
		if long {
			bad(DeadLetter{Input: string(line), Offset: -1,
				Error: fmt.Sprintf("a line of more than %d bytes (--max-record-size); the input is its first %d", fn.Max, len(line))})
			return
		}
		emit(string(line))
	})
	progressRecords.Add(n & 1023)
	return n, err
}

// longLinePrefix is how much of an over-long line its dead letter keeps.
const longLinePrefix = 1024

// eachLine calls fn for each line of r (without its "\n"; a final line
// without one is a line, there is none after a final "\n") that starts
// in [start, end) of the stream, r reading from start-1 when start > 0
// (end < 0: to the end). A line over max bytes is given by its first
// longLinePrefix bytes, long set.
func eachLine(r io.Reader, start, end, max int64, fn func(line []byte, long bool)) error {
	b := bufio.NewReaderSize(r, 64<<10)
	pos := start
	if start > 0 {
		// Skip the rest of the line that holds the byte before start.
		pos = start - 1
		for {
			chunk, err := b.ReadSlice('\n')
			pos += int64(len(chunk))
			if err == nil {
				break
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
	var line []byte
	for end < 0 || pos < end {
		line = line[:0]
		long := false
		var size int64
		var err error
		for {
			var chunk []byte
			chunk, err = b.ReadSlice('\n')
			size += int64(len(chunk))
			if !long {
				line = append(line, chunk...)
				if int64(len(line)) > max+1 { // with its "\n"
					long = true
					line = line[:min(len(line), longLinePrefix)]
				}
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("at byte %d of the decompressed text: %w", pos, err)
		}
		if size == 0 {
			return nil // the end, after a final "\n"
		}
		pos += size
		if !long {
			line = bytes.TrimSuffix(line, []byte("\n"))
			long = int64(len(line)) > max
			if long {
				line = line[:min(len(line), longLinePrefix)]
			}
		}
		fn(line, long)
		if err != nil {
			return nil // the end, a final line without "\n"
		}
	}
	return nil
}

// ReadLines returns the lines of the files of glob: every line an
// input, as the uri command reads them (the final "\r" is left to the
// transforms, which drop it), the files decompressed by their content.
// It also returns a DeadLetter for each file that could not be read to
// its end (the lines before the failure are read) and for each line
// over o.MaxRecord, and the counts (files, in, read errors) for
// WriteCounts. A glob that matches no file makes the pipeline fail: a
// mistyped input is an error, not an empty answer.
func ReadLines(s beam.Scope, glob string, o ReadOptions) (lines, dead, counts beam.PCollection) {
	s = s.Scope("uribeam.ReadLines")
	files := readFiles(s, glob)
	ranges, fileCounts := beam.ParDo2(s, splitFn{}, files)
	lines, dead, lineCounts := beam.ParDo3(s, &readRangeFn{Max: o.max()}, beam.Reshuffle(s, ranges))
	return lines, dead, beam.Flatten(s, fileCounts, lineCounts)
}
