package uribeam

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	// Local paths always work; a program adds the other file systems
	// it needs (beamx brings gs://).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	// The fast call of bundleWriteFn.ProcessElement, once a line.
	register.Function3x1((*bundleWriteFn)(nil).ProcessElement)
	registerStruct(func(f *bundleWriteFn) map[string]any {
		return map[string]any{"StartBundle": f.StartBundle, "ProcessElement": f.ProcessElement, "FinishBundle": f.FinishBundle, "Teardown": f.Teardown}
	})
	register.Function1x2(shardSelf)
	// Called once a shard: reflection is fast enough.
	beam.RegisterType(reflect.TypeOf((*joinShardFn)(nil)).Elem())
	register.Emitter2[int, string]()
	register.Iter1[string]()
	register.Iter1[int]()
}

// ShardName returns the name of shard i of n: PREFIX-SSSSS-of-NNNNN.
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d", prefix, i, n)
}

// shardOf returns the shard of a line (without its "\n"): by its
// FNV-1a hash, so that the shards do not depend on how the runner
// bundled the lines. h is the caller's, reused from line to line.
func shardOf(h hash.Hash32, line []byte, n int) int {
	h.Reset()
	h.Write(line)
	return int(h.Sum32() % uint32(n))
}

// bundleFiles are the temporary files of one bundle, one per part it
// has records for: PREFIX-tmp-TAG-KINDPPPPP, TAG random, KIND the kind
// of records ("" for the lines of a shard), PPPPP the part. A failed
// bundle's files are never named downstream, so a retry cannot double
// them.
type bundleFiles struct {
	fs     filesystem.Interface
	prefix string
	kind   string
	tag    string
	files  map[int]*tempFile
}

type tempFile struct {
	name string
	fd   io.WriteCloser
	w    *bufio.Writer
}

// start begins the files of a bundle (or of any other stretch of work),
// with a new tag.
func (b *bundleFiles) start(ctx context.Context, prefix, kind string) error {
	var r [8]byte
	rand.Read(r[:])
	b.prefix, b.kind, b.tag = prefix, kind, hex.EncodeToString(r[:])
	b.files = map[int]*tempFile{}
	if b.fs != nil {
		return nil
	}
	fs, err := filesystem.New(ctx, prefix)
	b.fs = fs
	return err
}

// writer returns the writer of part i, creating its file.
func (b *bundleFiles) writer(ctx context.Context, i int) (*bufio.Writer, error) {
	if t := b.files[i]; t != nil {
		return t.w, nil
	}
	name := fmt.Sprintf("%s-tmp-%s-%s%05d", b.prefix, b.tag, b.kind, i)
	fd, err := b.fs.OpenWrite(ctx, name)
	if err != nil {
		return nil, err
	}
	t := &tempFile{name: name, fd: fd, w: bufio.NewWriterSize(fd, 64<<10)}
	b.files[i] = t
	return t.w, nil
}

// finish closes every file and gives emit its part and name.
func (b *bundleFiles) finish(emit func(int, string)) error {
	var err error
	for i, t := range b.files {
		ferr := t.w.Flush()
		if cerr := t.fd.Close(); ferr == nil {
			ferr = cerr
		}
		if ferr != nil {
			if err == nil {
				err = ferr
			}
			continue
		}
		emit(i, t.name)
	}
	b.files = nil
	return err
}

// close closes the file system.
func (b *bundleFiles) close() error {
	if b.fs == nil {
		return nil
	}
	return b.fs.Close()
}

// bundleWriteFn writes the lines of a bundle into one temporary file
// per shard they fall in, and emits (shard, file) for each at the end of
// the bundle. The lines themselves never cross the runner's shuffle:
// only the names of the files do.
type bundleWriteFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`

	files bundleFiles
	hash  hash.Hash32
	buf   []byte
}

func (f *bundleWriteFn) StartBundle(ctx context.Context, _ func(int, string)) error {
	return f.files.start(ctx, f.Prefix, "")
}

func (f *bundleWriteFn) ProcessElement(ctx context.Context, line string, _ func(int, string)) error {
	if f.hash == nil {
		f.hash = fnv.New32a()
	}
	f.buf = append(f.buf[:0], line...)
	w, err := f.files.writer(ctx, shardOf(f.hash, f.buf, f.N))
	if err != nil {
		return err
	}
	w.WriteString(line)
	return w.WriteByte('\n')
}

func (f *bundleWriteFn) FinishBundle(_ context.Context, emit func(int, string)) error {
	return f.files.finish(emit)
}

func (f *bundleWriteFn) Teardown() error { return f.files.close() }

func shardSelf(i int) (int, int) { return i, i }

// joinShardFn writes shard i from the temporary files of the bundles
// that had lines for it, then removes them.
type joinShardFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
}

func (f *joinShardFn) ProcessElement(ctx context.Context, i int, temps func(*string) bool, _ func(*int) bool) error {
	return writeShard(ctx, ShardName(f.Prefix, i, f.N), temps, func(fs filesystem.Interface, w io.Writer, names []string) error {
		for _, t := range names {
			if err := appendFile(ctx, fs, w, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeShard writes the shard name from the temporary files its parts
// iterates over, in the order of their names (write does it), then
// removes them.
func writeShard(ctx context.Context, name string, parts func(*string) bool, write func(fs filesystem.Interface, w io.Writer, names []string) error) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	var names []string
	var t string
	for parts(&t) {
		names = append(names, t)
	}
	slices.Sort(names)
	fd, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	if err := write(fs, fd, names); err != nil {
		fd.Close()
		return err
	}
	if err := fd.Close(); err != nil {
		return err
	}
	return removeFiles(ctx, fs, names)
}

// removeFiles removes the files, on a file system that can.
func removeFiles(ctx context.Context, fs filesystem.Interface, names []string) error {
	if rm, ok := fs.(filesystem.Remover); ok {
		for _, t := range names {
			if err := rm.Remove(ctx, t); err != nil {
				return err
			}
		}
	}
	return nil
}

func appendFile(ctx context.Context, fs filesystem.Interface, w io.Writer, name string) error {
	r, err := fs.OpenRead(ctx, name)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}

// WriteShards writes the strings of lines, one a line, into n text
// files (n at least 1) named PREFIX-SSSSS-of-NNNNN, on any file system
// Beam knows (local paths, gs://, ...). Every shard is written, empty or
// not; the order of the lines in a shard is not defined, the shard of a
// line is (a hash of the line).
//
// Each bundle writes its lines into temporary files PREFIX-tmp-*, one
// per shard, which are then joined into the shards and removed: the
// lines are not shuffled, only the names of the files are.
func WriteShards(s beam.Scope, prefix string, n int, lines beam.PCollection) {
	s = s.Scope("uribeam.WriteShards")
	if n < 1 {
		n = 1
	}
	filesystem.ValidateScheme(prefix)
	joinShards(s, prefix, n, beam.ParDo(s, &bundleWriteFn{Prefix: prefix, N: n}, lines))
}

// joinShards writes the n shards PREFIX-SSSSS-of-NNNNN, every one, from
// the temporary files of temps (KV<shard, file>), and removes them.
func joinShards(s beam.Scope, prefix string, n int, temps beam.PCollection) {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	shards := beam.ParDo(s, shardSelf, beam.CreateList(s, ids))
	beam.ParDo0(s, &joinShardFn{Prefix: prefix, N: n}, beam.CoGroupByKey(s, temps, shards))
}
