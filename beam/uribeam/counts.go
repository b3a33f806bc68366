package uribeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.Function2x1(sumCount)
	register.Function2x1(countLine)
	register.Function1x2(countKey)
	// The fast call of countFn.ProcessElement, once an element.
	register.Function2x0((*countFn)(nil).ProcessElement)
	registerStruct(func(f *countFn) map[string]any {
		return map[string]any{"StartBundle": f.StartBundle, "ProcessElement": f.ProcessElement, "FinishBundle": f.FinishBundle}
	})
	// The fast call of sumFn.ProcessElement, once an element.
	register.Function3x0((*sumFn)(nil).ProcessElement)
	registerStruct(func(f *sumFn) map[string]any {
		return map[string]any{"StartBundle": f.StartBundle, "ProcessElement": f.ProcessElement, "FinishBundle": f.FinishBundle}
	})
	beam.RegisterType(reflect.TypeOf((*writeCountsFn)(nil)).Elem())
	register.Emitter2[string, int64]()
	register.Iter1[string]()
}

// The counts of a job, the keys of its counts file. Every record read
// is in "in", and in exactly one of "out", "dead" and "skipped":
//
//	in = out + dead + the sum of skipped
//
// and every dead letter written is one of
//
//	dead_letters = dead + read_errors + link_errors
//
// A record is a line for the jobs over lines, and a document for
// Extract and Links: a plain file, or a record of a WARC file, or a
// damaged stretch of a WARC file (from a record's offset to the next
// record read).
const (
	CountFiles       = "files"        // files read
	CountIn          = "in"           // records read
	CountOut         = "out"          // records whose answer is in the output
	CountDead        = "dead"         // records that are dead letters
	CountSkipped     = "skipped"      // records not for the job, by kind: "skipped/KIND"
	CountReadErrors  = "read_errors"  // dead letters of a file that could not be read to its end
	CountLinkErrors  = "link_errors"  // Links: dead letters of a link that could not be resolved
	CountOutputLines = "output_lines" // lines written into the output shards
	CountDeadLetters = "dead_letters" // lines written into the errors shards
)

// Counts is the counts file of a job, PREFIX-counts.json.
type Counts struct {
	Job         string           `json:"job"`
	Input       string           `json:"input"`
	Files       int64            `json:"files"`
	In          int64            `json:"in"`
	Out         int64            `json:"out"`
	Dead        int64            `json:"dead"`
	Skipped     map[string]int64 `json:"skipped"`
	ReadErrors  int64            `json:"read_errors"`
	LinkErrors  int64            `json:"link_errors"`
	OutputLines int64            `json:"output_lines"`
	DeadLetters int64            `json:"dead_letters"`
}

// ErrUnbalanced: the counts of a job do not add up; a record was lost
// or counted twice.
var ErrUnbalanced = errors.New("uribeam: the counts do not add up")

// SkippedTotal returns the sum of the skipped records.
func (c Counts) SkippedTotal() int64 {
	var n int64
	for _, k := range c.Skipped {
		n += k
	}
	return n
}

// Check reports whether the counts add up, as the constants above say.
func (c Counts) Check() error {
	if c.In != c.Out+c.Dead+c.SkippedTotal() {
		return fmt.Errorf("%w: %d in, %d out + %d dead + %d skipped", ErrUnbalanced, c.In, c.Out, c.Dead, c.SkippedTotal())
	}
	if c.DeadLetters != c.Dead+c.ReadErrors+c.LinkErrors {
		return fmt.Errorf("%w: %d dead letters written, %d dead + %d read errors + %d link errors", ErrUnbalanced, c.DeadLetters, c.Dead, c.ReadErrors, c.LinkErrors)
	}
	return nil
}

// String returns the counts on one line, as uripipe reports them.
func (c Counts) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d files, %d records in: %d out, %d dead", c.Files, c.In, c.Out, c.Dead)
	if len(c.Skipped) > 0 {
		fmt.Fprintf(&b, ", %d skipped (", c.SkippedTotal())
		for i, k := range slices.Sorted(maps.Keys(c.Skipped)) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %d", k, c.Skipped[k])
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, "; %d output lines, %d dead letters", c.OutputLines, c.DeadLetters)
	if c.ReadErrors > 0 {
		fmt.Fprintf(&b, ", of which %d read errors", c.ReadErrors)
	}
	if c.LinkErrors > 0 {
		fmt.Fprintf(&b, ", of which %d unresolvable links", c.LinkErrors)
	}
	return b.String()
}

// add adds n under the key k.
func (c *Counts) add(k string, n int64) {
	if kind, ok := strings.CutPrefix(k, CountSkipped+"/"); ok {
		if c.Skipped == nil {
			c.Skipped = map[string]int64{}
		}
		c.Skipped[kind] += n
		return
	}
	switch k {
	case CountFiles:
		c.Files += n
	case CountIn:
		c.In += n
	case CountOut:
		c.Out += n
	case CountDead:
		c.Dead += n
	case CountReadErrors:
		c.ReadErrors += n
	case CountLinkErrors:
		c.LinkErrors += n
	case CountOutputLines:
		c.OutputLines += n
	case CountDeadLetters:
		c.DeadLetters += n
	}
}

// CountsPath returns the path of the counts file of the output prefix.
func CountsPath(prefix string) string { return prefix + "-counts.json" }

// ReadCounts reads the counts file at path.
func ReadCounts(ctx context.Context, path string) (Counts, error) {
	var c Counts
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return c, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return c, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	return c, err
}

// countFn counts the elements of a bundle, emitting the count under
// each of its keys at the end of the bundle: one element a bundle, not
// one a record, crosses the shuffle.
type countFn struct {
	Keys []string `json:"keys"`
	n    int64
}

func (f *countFn) StartBundle(_ func(string, int64)) { f.n = 0 }

func (f *countFn) ProcessElement(string, func(string, int64)) { f.n++ }

func (f *countFn) FinishBundle(emit func(string, int64)) {
	if f.n > 0 {
		for _, k := range f.Keys {
			emit(k, f.n)
		}
	}
}

// CountLines counts the strings of lines under each of the keys: a
// PCollection of KV<string, int64> for WriteCounts.
func CountLines(s beam.Scope, lines beam.PCollection, keys ...string) beam.PCollection {
	s = s.Scope("uribeam.CountLines")
	return beam.ParDo(s, &countFn{Keys: keys}, lines)
}

// sumFn sums counts per key within a bundle, and emits the sums at its
// end: the counts a transform gives per record (one per class of
// Dedupe, per host of Hosts) cross the shuffle once a bundle, and so
// do they when the runner does not lift the combine of WriteCounts
// (Prism does not lift it through the Flatten of the counts).
type sumFn struct {
	sums map[string]int64
}

func (f *sumFn) StartBundle(_ func(string, int64)) { f.sums = map[string]int64{} }

func (f *sumFn) ProcessElement(k string, n int64, _ func(string, int64)) { f.sums[k] += n }

func (f *sumFn) FinishBundle(emit func(string, int64)) {
	for k, n := range f.sums {
		emit(k, n)
	}
}

func sumCount(a, b int64) int64 { return a + b }

func countLine(k string, n int64) string { return k + "\t" + strconv.FormatInt(n, 10) }

func countKey(line string) (int, string) { return 0, line }

// writeCountsFn writes the counts file from the lines KEY<TAB>N.
type writeCountsFn struct {
	Path  string `json:"path"`
	Job   string `json:"job"`
	Input string `json:"input"`
}

func (f *writeCountsFn) ProcessElement(ctx context.Context, _ int, lines func(*string) bool) error {
	c := Counts{Job: f.Job, Input: f.Input, Skipped: map[string]int64{}}
	var line string
	for lines(&line) {
		k, v, _ := strings.Cut(line, "\t")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return err
		}
		c.add(k, n)
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, f.Path)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// WriteCounts sums the counts (PCollections of KV<string, int64>, under
// the keys above) and writes them into the counts file at path, one JSON
// object (Counts), for the job over the input glob. Every key is
// written, zero or not.
func WriteCounts(s beam.Scope, path, job, glob string, counts ...beam.PCollection) {
	s = s.Scope("uribeam.WriteCounts")
	filesystem.ValidateScheme(path)
	zero := beam.Create(s, countLine(CountIn, 0))
	summed := make([]beam.PCollection, len(counts))
	for i, c := range counts {
		summed[i] = beam.ParDo(s, &sumFn{}, c)
	}
	sums := beam.CombinePerKey(s, sumCount, beam.Flatten(s, summed...))
	lines := beam.Flatten(s, zero, beam.ParDo(s, countLine, sums))
	beam.ParDo0(s, &writeCountsFn{Path: path, Job: job, Input: glob}, beam.GroupByKey(s, beam.ParDo(s, countKey, lines)))
}

// The progress of the readers of this process, for a progress line:
// they count as they read, on whatever worker runs them, so only a
// runner that runs the workers in this process (Prism, in process)
// shows it.
var progressFiles, progressRecords atomic.Int64

// Progress returns how many files and records the readers in this
// process have read so far.
func Progress() (files, records int64) { return progressFiles.Load(), progressRecords.Load() }
