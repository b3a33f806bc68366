package uribeam

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
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

// shardOf returns the shard of a line: by its hash, so that the shards
// do not depend on how the runner bundled the lines.
func shardOf(line string, n int) int {
	h := fnv.New32a()
	io.WriteString(h, line)
	return int(h.Sum32() % uint32(n))
}

// bundleWriteFn writes the lines of a bundle into one temporary file
// per shard they fall in, PREFIX-tmp-RANDOM-SSSSS, and emits (shard,
// file) for each at the end of the bundle. The lines themselves never
// cross the runner's shuffle: only the names of the files do, and a
// failed bundle's files are never named, so a retry cannot double them.
type bundleWriteFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`

	fs    filesystem.Interface
	tag   string
	files map[int]*tempFile
}

type tempFile struct {
	name string
	fd   io.WriteCloser
	w    *bufio.Writer
}

func (f *bundleWriteFn) StartBundle(ctx context.Context, _ func(int, string)) error {
	var b [8]byte
	rand.Read(b[:])
	f.tag = hex.EncodeToString(b[:])
	f.files = map[int]*tempFile{}
	if f.fs != nil {
		return nil
	}
	fs, err := filesystem.New(ctx, f.Prefix)
	f.fs = fs
	return err
}

func (f *bundleWriteFn) ProcessElement(ctx context.Context, line string, _ func(int, string)) error {
	i := shardOf(line, f.N)
	t := f.files[i]
	if t == nil {
		name := fmt.Sprintf("%s-tmp-%s-%05d", f.Prefix, f.tag, i)
		fd, err := f.fs.OpenWrite(ctx, name)
		if err != nil {
			return err
		}
		t = &tempFile{name: name, fd: fd, w: bufio.NewWriterSize(fd, 64<<10)}
		f.files[i] = t
	}
	t.w.WriteString(line)
	return t.w.WriteByte('\n')
}

func (f *bundleWriteFn) FinishBundle(_ context.Context, emit func(int, string)) error {
	for i, t := range f.files {
		err := t.w.Flush()
		if cerr := t.fd.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		emit(i, t.name)
	}
	f.files = nil
	return nil
}

func (f *bundleWriteFn) Teardown() error {
	if f.fs == nil {
		return nil
	}
	return f.fs.Close()
}

func shardSelf(i int) (int, int) { return i, i }

// joinShardFn writes shard i from the temporary files of the bundles
// that had lines for it, then removes them.
type joinShardFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
}

func (f *joinShardFn) ProcessElement(ctx context.Context, i int, temps func(*string) bool, _ func(*int) bool) error {
	name := ShardName(f.Prefix, i, f.N)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	var names []string
	var t string
	for temps(&t) {
		names = append(names, t)
	}
	slices.Sort(names)
	fd, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	for _, t := range names {
		if err := appendFile(ctx, fs, fd, t); err != nil {
			fd.Close()
			return err
		}
	}
	if err := fd.Close(); err != nil {
		return err
	}
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
	temps := beam.ParDo(s, &bundleWriteFn{Prefix: prefix, N: n}, lines)
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	shards := beam.ParDo(s, shardSelf, beam.CreateList(s, ids))
	beam.ParDo0(s, &joinShardFn{Prefix: prefix, N: n}, beam.CoGroupByKey(s, temps, shards))
}
