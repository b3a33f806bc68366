package uribeam

import (
	"bufio"
	"container/heap"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	// The fast calls of the methods called once a line.
	register.Function2x0((*sampleFn)(nil).ProcessElement)
	registerStruct(func(f *sampleFn) map[string]any {
		return map[string]any{"StartBundle": f.StartBundle, "ProcessElement": f.ProcessElement, "FinishBundle": f.FinishBundle}
	})
	register.Function4x1((*sortWriteFn)(nil).ProcessElement)
	registerStruct(func(f *sortWriteFn) map[string]any {
		return map[string]any{"StartBundle": f.StartBundle, "ProcessElement": f.ProcessElement, "FinishBundle": f.FinishBundle, "Teardown": f.Teardown}
	})
	// Called once a shard or once: reflection is fast enough.
	beam.RegisterType(reflect.TypeOf((*boundsFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mergeShardFn)(nil)).Elem())
}

// Sorted shards: the lines are split by ranges of their bytes, shard i
// holding the lines from boundary i-1 (included) to boundary i
// (excluded), and each shard is sorted byte-wise, so that the shards
// concatenated in the order of their names are the whole sorted output,
// as LC_ALL=C sort writes it, and each shard is itself a sorted index
// (pywb reads a directory of them, each by binary search).
//
// The boundaries come from a sample of the lines: the sampleSize lines
// of smallest hash (FNV-1a), chosen within each bundle and then among
// those, so that the sample, the boundaries and the shards do not
// depend on how a runner bundled the lines. Each bundle sorts its lines
// in runs of at most SortBuffer bytes written to temporary files
// (PREFIX-tmp-*); each shard is then the merge of its runs.

// sampleSize is the sample of lines that the boundaries of n shards are
// taken from.
func sampleSize(n int) int { return min(256*n, 1<<16) }

// DefaultSortBuffer is the default of the bytes of lines a bundle sorts
// in memory before it writes them out as a run.
const DefaultSortBuffer = 64 << 20

func lineHash(s string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, s)
	return h.Sum64()
}

// A bottomK keeps the k distinct lines of smallest hash (ties by the
// line), in a max-heap: a line costs O(log k).
type bottomK struct {
	k     int
	items []sampled
	in    map[string]struct{}
}

type sampled struct {
	hash uint64
	line string
}

func (a sampled) less(b sampled) bool { return a.hash < b.hash || a.hash == b.hash && a.line < b.line }

type sampleHeap []sampled

func (h sampleHeap) Len() int           { return len(h) }
func (h sampleHeap) Less(i, j int) bool { return h[j].less(h[i]) } // the largest on top
func (h sampleHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sampleHeap) Push(x any)        { *h = append(*h, x.(sampled)) }
func (h *sampleHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (b *bottomK) add(line string) {
	it := sampled{lineHash(line), line}
	full := len(b.items) == b.k
	if full && !it.less(b.items[0]) {
		return
	}
	if _, ok := b.in[line]; ok {
		return
	}
	if b.in == nil {
		b.in = map[string]struct{}{}
	}
	b.in[line] = struct{}{}
	h := (*sampleHeap)(&b.items)
	if !full {
		heap.Push(h, it)
		return
	}
	delete(b.in, b.items[0].line)
	b.items[0] = it
	heap.Fix(h, 0)
}

// lines returns the lines kept, in no order.
func (b *bottomK) lines() []string {
	out := make([]string, len(b.items))
	for i, it := range b.items {
		out[i] = it.line
	}
	return out
}

// sampleFn emits the bottom-K lines of each bundle, under the key 0.
type sampleFn struct {
	K int `json:"k"`
	b bottomK
}

func (f *sampleFn) StartBundle(_ func(int, string)) { f.b = bottomK{k: f.K} }

func (f *sampleFn) ProcessElement(line string, _ func(int, string)) { f.b.add(line) }

func (f *sampleFn) FinishBundle(emit func(int, string)) {
	for _, it := range f.b.items {
		emit(0, it.line)
	}
	f.b = bottomK{}
}

// boundsFn makes the n-1 boundaries of n shards from the samples of the
// bundles: the quantiles of their bottom-K, as one string, LF between
// them (a line holds no LF).
type boundsFn struct {
	K int `json:"k"`
	N int `json:"n"`
}

func (f *boundsFn) ProcessElement(_ int, samples func(*string) bool, emit func(string)) {
	emit(strings.Join(boundaries(samples, f.K, f.N), "\n"))
}

func boundaries(samples func(*string) bool, k, n int) []string {
	b := bottomK{k: k}
	var l string
	for samples(&l) {
		b.add(l)
	}
	s := b.lines()
	slices.Sort(s)
	var out []string
	for i := 1; i < n && len(s) > 0; i++ {
		q := s[i*len(s)/n]
		if len(out) == 0 || q > out[len(out)-1] {
			out = append(out, q)
		}
	}
	return out
}

// shardOfRange returns the shard of a line under the boundaries: the
// number of boundaries at or below it.
func shardOfRange(bounds []string, line string) int {
	return sort.Search(len(bounds), func(i int) bool { return bounds[i] > line })
}

// sortWriteFn sorts the lines of a bundle into runs, one sorted file
// per shard and SortBuffer bytes at most, PREFIX-tmp-RANDOM-SSSSS-R,
// and emits (shard, file) for each at the end of the bundle: a failed
// bundle's files are never named.
type sortWriteFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
	Buffer int64  `json:"buffer"`

	fs     filesystem.Interface
	tag    string
	bounds []string
	shards [][]string // the lines held, by shard
	held   int64
	runs   int
	done   [][2]any // (shard, file) of the runs written
}

func (f *sortWriteFn) StartBundle(ctx context.Context, bounds func(*string) bool, _ func(int, string)) error {
	var r [8]byte
	rand.Read(r[:])
	f.tag = hex.EncodeToString(r[:])
	f.bounds = nil
	var b string
	for bounds(&b) {
		if b != "" {
			f.bounds = strings.Split(b, "\n")
		}
	}
	f.shards = make([][]string, f.N)
	f.held, f.runs, f.done = 0, 0, nil
	if f.fs != nil {
		return nil
	}
	fs, err := filesystem.New(ctx, f.Prefix)
	f.fs = fs
	return err
}

func (f *sortWriteFn) ProcessElement(ctx context.Context, line string, _ func(*string) bool, _ func(int, string)) error {
	i := shardOfRange(f.bounds, line)
	f.shards[i] = append(f.shards[i], line)
	f.held += int64(len(line)) + 16
	if f.held > f.Buffer {
		return f.spill(ctx)
	}
	return nil
}

// spill writes the lines held, sorted, as one run per shard.
func (f *sortWriteFn) spill(ctx context.Context) error {
	for i, lines := range f.shards {
		if len(lines) == 0 {
			continue
		}
		slices.Sort(lines)
		name := fmt.Sprintf("%s-tmp-%s-%05d-%d", f.Prefix, f.tag, i, f.runs)
		fd, err := f.fs.OpenWrite(ctx, name)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(fd, 64<<10)
		for _, l := range lines {
			w.WriteString(l)
			w.WriteByte('\n')
		}
		err = w.Flush()
		if cerr := fd.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		f.done = append(f.done, [2]any{i, name})
		f.shards[i] = lines[:0]
	}
	f.held = 0
	f.runs++
	return nil
}

func (f *sortWriteFn) FinishBundle(ctx context.Context, _ func(*string) bool, emit func(int, string)) error {
	if err := f.spill(ctx); err != nil {
		return err
	}
	for _, d := range f.done {
		emit(d[0].(int), d[1].(string))
	}
	f.shards, f.done = nil, nil
	return nil
}

func (f *sortWriteFn) Teardown() error {
	if f.fs == nil {
		return nil
	}
	return f.fs.Close()
}

// mergeShardFn writes shard i, the merge of its sorted runs, then
// removes them.
type mergeShardFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
}

func (f *mergeShardFn) ProcessElement(ctx context.Context, i int, runs func(*string) bool, _ func(*int) bool) error {
	return writeShard(ctx, ShardName(f.Prefix, i, f.N), runs, func(fs filesystem.Interface, w io.Writer, names []string) error {
		return mergeRuns(ctx, fs, w, names)
	})
}

// A run is one sorted file being merged, at its current line.
type run struct {
	r    *bufio.Reader
	c    io.Closer
	line string
}

type runHeap []*run

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].line < h[j].line }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*run)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// next reads the run's next line; false at its end.
func (r *run) next() (bool, error) {
	l, err := r.r.ReadString('\n')
	if err == io.EOF && l == "" {
		return false, nil
	}
	if err != nil && err != io.EOF {
		return false, err
	}
	r.line = strings.TrimSuffix(l, "\n")
	return true, nil
}

// mergeRuns writes the lines of the sorted files into w, sorted.
func mergeRuns(ctx context.Context, fs filesystem.Interface, w io.Writer, names []string) error {
	h := make(runHeap, 0, len(names))
	defer func() {
		for _, r := range h {
			r.c.Close()
		}
	}()
	for _, n := range names {
		rc, err := fs.OpenRead(ctx, n)
		if err != nil {
			return err
		}
		r := &run{r: bufio.NewReaderSize(rc, 64<<10), c: rc}
		ok, err := r.next()
		if err != nil || !ok {
			rc.Close()
			if err != nil {
				return err
			}
			continue
		}
		h = append(h, r)
	}
	heap.Init(&h)
	bw := bufio.NewWriterSize(w, 64<<10)
	for len(h) > 0 {
		r := h[0]
		bw.WriteString(r.line)
		bw.WriteByte('\n')
		ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			r.c.Close()
			heap.Pop(&h)
		}
	}
	return bw.Flush()
}

// WriteSortedShards writes the strings of lines, one a line, into n
// text files PREFIX-SSSSS-of-NNNNN (n at least 1) as WriteShards does,
// but sorted byte-wise: each shard is sorted, and the shards hold
// consecutive ranges of lines, so that their concatenation in the order
// of their names is sorted too (LC_ALL=C sort). A bundle sorts at most
// buffer bytes of lines in memory at a time (0: DefaultSortBuffer),
// writing each sorted run to a temporary file PREFIX-tmp-*; each shard
// merges its runs, and they are removed.
func WriteSortedShards(s beam.Scope, prefix string, n int, buffer int64, lines beam.PCollection) {
	s = s.Scope("uribeam.WriteSortedShards")
	n = max(n, 1)
	if buffer <= 0 {
		buffer = DefaultSortBuffer
	}
	filesystem.ValidateScheme(prefix)
	k := sampleSize(n)
	bounds := beam.ParDo(s, &boundsFn{K: k, N: n}, beam.GroupByKey(s, beam.ParDo(s, &sampleFn{K: k}, lines)))
	runs := beam.ParDo(s, &sortWriteFn{Prefix: prefix, N: n, Buffer: buffer}, lines, beam.SideInput{Input: bounds})
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	shards := beam.ParDo(s, shardSelf, beam.CreateList(s, ids))
	beam.ParDo0(s, &mergeShardFn{Prefix: prefix, N: n}, beam.CoGroupByKey(s, runs, shards))
}
