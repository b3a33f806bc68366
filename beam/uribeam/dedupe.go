package uribeam

import (
	"context"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urikit/urikit/beam/internal/classcount"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Class)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*classcount.Sum)(nil)).Elem())
	// The fast call of keyCountFn.ProcessElement and of
	// spillFn.ProcessElement, once a line.
	register.Function3x0((*keyCountFn)(nil).ProcessElement)
	registerStruct(func(f *keyCountFn) map[string]any {
		return map[string]any{"StartBundle": f.StartBundle, "ProcessElement": f.ProcessElement, "FinishBundle": f.FinishBundle}
	})
	register.Function4x1((*spillFn)(nil).ProcessElement)
	registerStruct(func(f *spillFn) map[string]any {
		return map[string]any{"StartBundle": f.StartBundle, "ProcessElement": f.ProcessElement, "FinishBundle": f.FinishBundle, "Teardown": f.Teardown}
	})
	// Called once a part: reflection is fast enough.
	beam.RegisterType(reflect.TypeOf((*mergeFn)(nil)).Elem())
	register.Function2x1(classOf)
	register.Combiner3[classcount.Sum, classcount.Sum, classcount.Sum](&dedupeFn{})
	register.Emitter2[string, classcount.Sum]()
}

// A Class is one equivalence class of Dedupe: its key, how many input
// lines it holds, and the smallest of them in byte order.
type Class struct {
	Key   string
	Count int64
	Repr  string
}

// String returns the class as uripipe dedupe writes it:
// KEY<TAB>COUNT<TAB>REPR. A valid URI reference holds no tab.
func (c Class) String() string {
	return c.Key + "\t" + strconv.FormatInt(c.Count, 10) + "\t" + c.Repr
}

// maxBundleKeys bounds the keys that keyCountFn holds for one bundle
// (about 200 bytes each with a typical URL as key and input): past it
// the counts so far are emitted, so that memory stays bounded whatever
// the bundle's size.
const maxBundleKeys = 1 << 17

// keyCountFn keys the valid lines and counts them per key within the
// bundle, emitting one KV<key, classcount.Sum> per distinct key and
// bundle. A runner moves every element of a shuffle across its data
// plane, and that costs far more than parsing a line (on Prism, with
// every line an element, parsing and keying took 2.4% of the CPU, Beam
// and Prism the rest): combining here, before the shuffle, divides the
// elements by the lines per key. Beam's own combiner lifting does the
// same but keeps only 2,000 keys, too few for URL lists, whose keys
// mostly occur once per thousands of lines.
type keyCountFn struct {
	tab *classcount.Table
}

func (f *keyCountFn) StartBundle(_ func(string, classcount.Sum), _ func(DeadLetter)) {
	f.tab = classcount.New(maxBundleKeys)
}

func (f *keyCountFn) ProcessElement(line string, emit func(string, classcount.Sum), bad func(DeadLetter)) {
	in, u, err := parseLine(line)
	if err != nil {
		bad(deadLine(in, err))
		return
	}
	f.tab.Add(registry.Key(u), in, emit)
}

func (f *keyCountFn) FinishBundle(emit func(string, classcount.Sum), _ func(DeadLetter)) {
	f.tab.Flush(emit)
}

// dedupeFn merges the partial counts of keyCountFn.
type dedupeFn struct{}

func (dedupeFn) CreateAccumulator() classcount.Sum { return classcount.Sum{} }
func (dedupeFn) AddInput(a, b classcount.Sum) classcount.Sum {
	return a.Add(b)
}
func (dedupeFn) MergeAccumulators(a, b classcount.Sum) classcount.Sum {
	return a.Add(b)
}
func (dedupeFn) ExtractOutput(a classcount.Sum) classcount.Sum { return a }

func classOf(key string, a classcount.Sum) Class {
	return Class{Key: key, Count: a.Count, Repr: a.Min}
}

// Dedupe groups the valid lines by equivalence (their Key) and returns
// one Class per group: a PCollection of Class. The representative is
// the smallest input in byte order, so that the answer does not depend
// on the order in which workers saw the lines. Invalid lines are dead
// letters.
//
// The lines are counted per key within each bundle before the shuffle,
// so that the runner moves about one element per distinct key and
// bundle rather than one per line. The shuffle of a runner that holds it
// in memory (Prism) then grows with the classes; WriteDedupe writes the
// same classes in bounded memory.
func Dedupe(s beam.Scope, lines beam.PCollection) (classes, dead beam.PCollection) {
	s = s.Scope("uribeam.Dedupe")
	partial, dead := beam.ParDo2(s, &keyCountFn{}, lines)
	sums := beam.CombinePerKey(s, &dedupeFn{}, partial)
	return beam.ParDo(s, classOf, sums), dead
}

// The shape of DedupeFiles: how many parts the bundles split their
// sums into, how much memory the keys of one part may take while it is
// merged (bytes, as classcount estimates them: about 170 a typical URL
// key), and into how many parts a part over it is split again, by
// another hash, at most mergeLevels times.
const (
	dedupeParts  = 64
	dedupeBudget = 64 << 20
	dedupeFanout = 16
	mergeLevels  = 8
)

// keyHash hashes keys into parts: the FNV-1a hash (64 bits) of the
// key, the same on every worker, as the parts of the bundles must be;
// mixed with the level by the finalizer of SplitMix64 (Steele, Lea and
// Flood, "Fast splittable pseudorandom number generators", 2014), so
// that each level splits a part anew: FNV's own bits at one level would
// follow from those at the level before.
type keyHash struct {
	h   hash.Hash64
	buf []byte
}

// part returns the part of key at the level, of n.
func (k *keyHash) part(key string, level, n int) int {
	if k.h == nil {
		k.h = fnv.New64a()
	}
	k.buf = append(k.buf[:0], key...)
	k.h.Reset()
	k.h.Write(k.buf)
	x := k.h.Sum64() + uint64(level)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return int((x >> 32) * uint64(n) >> 32)
}

// spillFn keys the valid lines and writes the record of each, its key
// with a count of 1, into a temporary file per part of the keys; it
// emits (part, file) for each file at the end of the bundle. It does not
// count the lines per key first, as keyCountFn does: the merge of a part
// does it anyway, and on lines that are mostly distinct a table of the
// bundle's keys costs a lookup in a large map per line for nothing.
type spillFn struct {
	Prefix string `json:"prefix"`
	Parts  int    `json:"parts"`

	files bundleFiles
	hash  keyHash
	buf   []byte
}

func (f *spillFn) StartBundle(ctx context.Context, _ func(int, string), _ func(DeadLetter)) error {
	return f.files.start(ctx, f.Prefix, "d")
}

func (f *spillFn) ProcessElement(ctx context.Context, line string, _ func(int, string), bad func(DeadLetter)) error {
	in, u, err := parseLine(line)
	if err != nil {
		bad(deadLine(in, err))
		return nil
	}
	key := registry.Key(u)
	w, err := f.files.writer(ctx, f.hash.part(key, 0, f.Parts))
	if err != nil {
		return err
	}
	f.buf = classcount.AppendRecord(f.buf[:0], key, classcount.Sum{Count: 1, Min: in})
	_, err = w.Write(f.buf)
	return err
}

func (f *spillFn) FinishBundle(_ context.Context, emit func(int, string), _ func(DeadLetter)) error {
	return f.files.finish(emit)
}

func (f *spillFn) Teardown() error { return f.files.close() }

// mergeFn merges the files of each part into its classes, writes
// them as the lines of the output shards into temporary files (as
// bundleWriteFn does: one per shard, emitted as KV<shard, file>), counts
// them (CountOut, CountOutputLines) and removes the part's files. A part
// whose keys would take more than Budget bytes is split into Fanout
// parts through files, each merged in turn.
type mergeFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
	Budget int64  `json:"budget"`
	Fanout int    `json:"fanout"`
}

// classWriter writes classes as lines into the temporary files of the
// shards, and counts them.
type classWriter struct {
	ctx        context.Context
	files      bundleFiles
	n          int
	hash       hash.Hash32
	line       []byte
	out, lines int64
	err        error
}

func (c *classWriter) write(key string, s classcount.Sum) {
	if c.err != nil {
		return
	}
	// Class.String, without a string.
	c.line = append(c.line[:0], key...)
	c.line = append(c.line, '\t')
	c.line = strconv.AppendInt(c.line, s.Count, 10)
	c.line = append(c.line, '\t')
	c.line = append(c.line, s.Min...)
	w, err := c.files.writer(c.ctx, shardOf(c.hash, c.line, c.n))
	if err == nil {
		c.line = append(c.line, '\n')
		_, err = w.Write(c.line)
	}
	c.err = err
	c.out += s.Count
	c.lines++
}

func (f *mergeFn) ProcessElement(ctx context.Context, _ int, temps func(*string) bool, emit func(int, string), count func(string, int64)) error {
	var names []string
	var t string
	for temps(&t) {
		names = append(names, t)
	}
	slices.Sort(names)
	fs, err := filesystem.New(ctx, f.Prefix)
	if err != nil {
		return err
	}
	defer fs.Close()
	c := &classWriter{ctx: ctx, n: f.N, hash: fnv.New32a(), files: bundleFiles{fs: fs}}
	if err := c.files.start(ctx, f.Prefix, ""); err != nil {
		return err
	}
	err = f.merge(ctx, fs, names, 1, c)
	if ferr := c.files.finish(emit); err == nil {
		err = ferr
	}
	if err == nil {
		err = c.err
	}
	if err != nil {
		return err
	}
	count(CountOut, c.out)
	count(CountOutputLines, c.lines)
	return removeFiles(ctx, fs, names)
}

// merge writes the classes of the records of the files. It sums them
// per key in memory until the keys would take more than the budget;
// then it writes the sums so far, and every record after them, into
// files by the part of their key at the level, and merges each of those
// at the next level (removing it).
func (f *mergeFn) merge(ctx context.Context, fs filesystem.Interface, names []string, level int, c *classWriter) error {
	budget := f.Budget
	if level > mergeLevels {
		budget = math.MaxInt64 // only keys of one hash at every level are left
	}
	// Room for as many keys as the files can hold (a record is longer
	// than its key, about 50 bytes for a URL), within the budget: a
	// merge of distinct keys then never grows its index.
	var size int64
	for _, name := range names {
		if n, err := fs.Size(ctx, name); err == nil {
			size += n
		}
	}
	g := classcount.NewMerge(budget, int(min(size/48, math.MaxInt32)))
	var sub *bundleFiles
	var h keyHash
	var buf []byte
	spill := func(key string, s classcount.Sum) error {
		if sub == nil {
			sub = &bundleFiles{fs: fs}
			if err := sub.start(ctx, f.Prefix, "d"+strconv.Itoa(level)+"-"); err != nil {
				return err
			}
		}
		w, err := sub.writer(ctx, h.part(key, level, f.Fanout))
		if err == nil {
			buf = classcount.AppendRecord(buf[:0], key, s)
			_, err = w.Write(buf)
		}
		return err
	}
	var err error
	for _, name := range names {
		err = eachSum(ctx, fs, name, func(key, in []byte, count int64) error {
			if sub == nil && g.Add(key, in, count) {
				return nil
			}
			if sub == nil {
				// Full: what it holds goes to the files, then all
				// that follows.
				var serr error
				g.Each(func(k string, s classcount.Sum) {
					if serr == nil {
						serr = spill(k, s)
					}
				})
				g = nil
				if serr != nil {
					return serr
				}
			}
			return spill(string(key), classcount.Sum{Count: count, Min: string(in)})
		})
		if err != nil {
			err = fmt.Errorf("uribeam: dedupe part %s: %w", name, err)
			break
		}
	}
	if sub == nil {
		if err == nil {
			g.Each(c.write)
		}
		return err
	}
	parts := map[int]string{}
	if ferr := sub.finish(func(i int, name string) { parts[i] = name }); err == nil {
		err = ferr
	}
	for _, i := range slices.Sorted(maps.Keys(parts)) {
		if err == nil {
			err = f.merge(ctx, fs, []string{parts[i]}, level+1, c)
		}
	}
	// The files of this level: merged, or left by a failure.
	if rerr := removeFiles(ctx, fs, slices.Collect(maps.Values(parts))); err == nil {
		err = rerr
	}
	return err
}

// eachSum calls fn with each record of sums of the file, until fn fails.
func eachSum(ctx context.Context, fs filesystem.Interface, name string, fn func(key, in []byte, count int64) error) error {
	fd, err := fs.OpenRead(ctx, name)
	if err != nil {
		return err
	}
	defer fd.Close()
	r := classcount.NewReader(fd)
	for {
		key, in, count, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(key, in, count); err != nil {
			return err
		}
	}
}

// WriteDedupe writes the classes of Dedupe over lines into n text
// shards (n at least 1) PREFIX-SSSSS-of-NNNNN, a line KEY<TAB>COUNT<TAB>REPR
// (Class.String) for each class, in the shard WriteShards would put that
// line in. It returns the dead letters of the lines that are not valid
// URI references, and the counts for WriteCounts: CountOut (the lines
// in the classes) and CountOutputLines (the classes).
//
// It works in bounded memory on every runner: its data goes through
// temporary files PREFIX-tmp-* (on any file system Beam knows, shared
// by the workers), not through the runner's shuffle, which carries only
// the names of the files. Each bundle writes the key of each line into
// a file per part of the keys (a hash of the key, 16 parts); each part
// is then merged on its own, in memory while its keys take less than 64
// MB, else split again by another hash through files, and written into
// the shards; the temporary files are removed. Use Dedupe where the
// classes are to be transformed further and the runner's shuffle
// spills to disk (Flink, Spark, Dataflow); Prism holds each shuffled
// element in memory, about 5 KB a class.
func WriteDedupe(s beam.Scope, lines beam.PCollection, prefix string, n int) (dead, counts beam.PCollection) {
	return writeDedupe(s, lines, prefix, n, dedupeParts, dedupeBudget)
}

// writeDedupe is WriteDedupe with its parts and budget given.
func writeDedupe(s beam.Scope, lines beam.PCollection, prefix string, n, parts int, budget int64) (dead, counts beam.PCollection) {
	s = s.Scope("uribeam.WriteDedupe")
	n = max(n, 1)
	filesystem.ValidateScheme(prefix)
	spilled, dead := beam.ParDo2(s, &spillFn{Prefix: prefix, Parts: parts}, lines)
	temps, counts := beam.ParDo2(s, &mergeFn{Prefix: prefix, N: n, Budget: budget, Fanout: dedupeFanout}, beam.GroupByKey(s, spilled))
	joinShards(s, prefix, n, temps)
	return dead, counts
}
