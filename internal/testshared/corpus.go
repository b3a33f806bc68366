package testshared

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Corpus is a real-world corpus of identifiers, one per line: the full
// file under $URIKIT_SHARED/corpora when it is there, else the sample of
// a few hundred lines committed in testdata/corpora, so that a test that
// reads a corpus runs on every clone. It is the one corpus loader of the
// module's tests and benchmarks.
type Corpus struct {
	Name  string // "kasztp", or "kasztp-sample" for the sample: results never mix
	Path  string
	Lines []string
	Size  int64 // total bytes of the lines
	Full  bool  // the shared corpus rather than the sample
}

// AvgLen returns the mean line length, for b.SetBytes.
func (c *Corpus) AvgLen() int64 {
	if len(c.Lines) == 0 {
		return 0
	}
	return c.Size / int64(len(c.Lines))
}

// corpusFiles maps a corpus name to its file under $URIKIT_SHARED and the
// variable that may name another file (scripts/bench.sh).
var corpusFiles = map[string][2]string{
	"kasztp":     {"corpora/urls/kasztp.txt", "URIKIT_BENCH_URLS"},
	"node_files": {"corpora/urls/node_files.txt", "URIKIT_BENCH_FILES"},
	"urns":       {"corpora/urns/urns.txt", "URIKIT_BENCH_URNS"},
}

// CorpusNames are the corpora LoadCorpus knows.
var CorpusNames = []string{"kasztp", "node_files", "urns"}

var (
	corpusMu    sync.Mutex
	corpusCache = map[string]*Corpus{}
)

// SampleDir returns the directory of the committed samples,
// testdata/corpora at the root of the module.
func SampleDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "corpora")
}

// LoadCorpus returns the corpus called name (one of CorpusNames), read
// once per test binary. It fails the test when the file cannot be read.
func LoadCorpus(tb testing.TB, name string) *Corpus {
	tb.Helper()
	spec, ok := corpusFiles[name]
	if !ok {
		tb.Fatalf("testshared: unknown corpus %q", name)
	}
	path, label, full := filepath.Join(SampleDir(), name+"-sample.txt"), name+"-sample", false
	if p := os.Getenv(spec[1]); p != "" {
		path, label, full = p, strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), true
	} else if d := os.Getenv(EnvVar); d != "" {
		if p := filepath.Join(d, spec[0]); fileExists(p) {
			path, label, full = p, name, true
		}
	}
	corpusMu.Lock()
	defer corpusMu.Unlock()
	if c, ok := corpusCache[path]; ok {
		return c
	}
	lines, err := ReadLines(path)
	if err != nil {
		tb.Fatalf("corpus %s: %v", name, err)
	}
	if len(lines) == 0 {
		tb.Fatalf("corpus %s (%s) is empty", name, path)
	}
	c := &Corpus{Name: label, Path: path, Lines: lines, Full: full}
	for _, l := range lines {
		c.Size += int64(len(l))
	}
	corpusCache[path] = c
	return c
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// ReadLines returns the lines of a corpus file, one identifier each: a
// leading byte order mark is dropped (kasztp.txt starts with one), so
// are a final "\r" and empty lines.
func ReadLines(p string) ([]string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	s := strings.TrimPrefix(string(data), "\ufeff")
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSuffix(l, "\r"); l != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}

// MustReadLines is ReadLines for a test: it fails the test on an error.
func MustReadLines(tb testing.TB, p string) []string {
	tb.Helper()
	lines, err := ReadLines(p)
	if err != nil {
		tb.Fatal(err)
	}
	return lines
}
