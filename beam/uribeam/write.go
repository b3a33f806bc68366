package uribeam

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	// Local paths always work; a program adds the other file systems
	// it needs (beamx brings gs://).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn1x2[string, int, string](&shardOfFn{})
	register.Function1x2(shardSelf)
	register.DoFn4x1[context.Context, int, func(*string) bool, func(*int) bool, error](&writeShardFn{})
	register.Iter1[string]()
	register.Iter1[int]()
}

// ShardName returns the name of shard i of n: PREFIX-SSSSS-of-NNNNN.
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d", prefix, i, n)
}

type shardOfFn struct {
	N int `json:"n"`
}

// ProcessElement puts a line in the shard of its hash, so that the
// shards do not depend on how the runner bundled the lines.
func (f *shardOfFn) ProcessElement(line string) (int, string) {
	h := fnv.New32a()
	h.Write([]byte(line))
	return int(h.Sum32() % uint32(f.N)), line
}

func shardSelf(i int) (int, int) { return i, i }

type writeShardFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
}

func (f *writeShardFn) ProcessElement(ctx context.Context, i int, lines func(*string) bool, _ func(*int) bool) error {
	name := ShardName(f.Prefix, i, f.N)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	fd, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fd, 1<<20)
	var line string
	for lines(&line) {
		w.WriteString(line)
		if err := w.WriteByte('\n'); err != nil {
			fd.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		fd.Close()
		return err
	}
	return fd.Close()
}

// WriteShards writes the strings of lines, one a line, into n text
// files (n at least 1) named PREFIX-SSSSS-of-NNNNN, on any file system
// Beam knows (local paths, gs://, ...). Every shard is written, empty or
// not; the order of the lines in a shard is not defined.
func WriteShards(s beam.Scope, prefix string, n int, lines beam.PCollection) {
	s = s.Scope("uribeam.WriteShards")
	if n < 1 {
		n = 1
	}
	filesystem.ValidateScheme(prefix)
	keyed := beam.ParDo(s, &shardOfFn{N: n}, lines)
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	shards := beam.ParDo(s, shardSelf, beam.CreateList(s, ids))
	beam.ParDo0(s, &writeShardFn{Prefix: prefix, N: n}, beam.CoGroupByKey(s, keyed, shards))
}
