package uribeam

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// indexWARC indexes the WARC file b as the cdxj job does, and returns
// its lines in file order, its dead letters and its tally.
func indexWARC(t *testing.T, name string, b []byte, postAppend bool, max int64) ([]string, []DeadLetter, tally) {
	t.Helper()
	var lines []string
	var dead []DeadLetter
	var tl tally
	x := &cdxjIndexer{filename: name, postAppend: postAppend, max: max, t: &tl, path: name,
		line: func(s string) { lines = append(lines, s) },
		bad:  func(d DeadLetter) { dead = append(dead, d) }}
	x.index(bytes.NewReader(b))
	if tl.in != tl.out+tl.dead+sum(tl.skipped) {
		t.Errorf("%s: %d in, %d out, %d dead, skipped %v: the counts do not add up", name, tl.in, tl.out, tl.dead, tl.skipped)
	}
	return lines, dead, tl
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// A cdxjVector is one test of cdxj-indexer: its WARC file, whether it
// folds POST bodies, and the lines it writes (in file order).
type cdxjVector struct {
	test, file string
	post       bool
	want       []string
}

// cdxjVectors reads the expected lines of cdxj-indexer's tests
// (testdata/conformance/cdxj-indexer/expected.txt).
func cdxjVectors(t *testing.T) []cdxjVector {
	var vs []cdxjVector
	for _, l := range testshared.Lines(t, "conformance", "cdxj-indexer", "expected.txt") {
		switch {
		case strings.HasPrefix(l, "## "):
			f := strings.Fields(l[3:])
			vs = append(vs, cdxjVector{test: f[0], file: f[1], post: len(f) > 2 && f[2] == "post-append"})
		case strings.HasPrefix(l, "#") || l == "":
		default:
			vs[len(vs)-1].want = append(vs[len(vs)-1].want, l)
		}
	}
	if len(vs) < 7 {
		t.Fatalf("%d tests in expected.txt", len(vs))
	}
	return vs
}

// TestCDXJIndexerVectors: the lines of cdxj-indexer's tests, byte for
// byte, and every other record of its WARCs skipped by type.
func TestCDXJIndexerVectors(t *testing.T) {
	for _, v := range cdxjVectors(t) {
		b, err := os.ReadFile(testshared.Path(t, "conformance", "cdxj-indexer", v.file))
		if err != nil {
			t.Fatal(err)
		}
		lines, dead, tl := indexWARC(t, v.file, b, v.post, DefaultMaxRecord)
		if !slices.Equal(lines, v.want) {
			t.Errorf("%s (%s):\ngot\n%s\nwant\n%s", v.test, v.file, strings.Join(lines, "\n"), strings.Join(v.want, "\n"))
		}
		if len(dead) > 0 {
			t.Errorf("%s: dead letters %v", v.test, dead)
		}
		t.Logf("%s: %d records, %d lines, skipped %v", v.file, tl.in, tl.out, tl.skipped)
	}
}

// BenchmarkCDXJIndex indexes cdxj-indexer's gzipped test WARCs
// concatenated 200 times (3,000 records a loop), with POST bodies
// folded: the indexer alone, without Beam. It reports records a second.
func BenchmarkCDXJIndex(b *testing.B) {
	var one []byte
	for _, f := range []string{"example.warc.gz", "post-test.warc.gz", "cc.warc.gz"} {
		w, err := os.ReadFile(testshared.Path(b, "conformance", "cdxj-indexer", f))
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, w...)
	}
	file := bytes.Repeat(one, 200)
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	var records int64
	for b.Loop() {
		var tl tally
		x := &cdxjIndexer{filename: "f", postAppend: true, max: DefaultMaxRecord, t: &tl, path: "f",
			line: func(string) {}, bad: func(DeadLetter) { b.Fatal("dead letter") }}
		x.index(bytes.NewReader(file))
		records += tl.in
	}
	b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
}
