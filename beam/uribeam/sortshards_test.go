package uribeam_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/urikit/urikit/beam/uribeam"
)

// TestWriteSortedShards: the shards, concatenated in the order of their
// names, are the lines sorted byte-wise (LC_ALL=C sort, a line being
// smaller than any line it is a prefix of, whatever byte follows);
// each holds a range of about its share; a sort buffer far smaller
// than the lines makes every bundle write many runs, which the shards
// merge; no temporary file is left.
func TestWriteSortedShards(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	var lines []string
	for i := range 3000 {
		l := fmt.Sprintf("com,example)/%d %014d {}", r.IntN(500), r.IntN(1000))
		switch i % 10 {
		case 0:
			l = strings.Replace(l, " ", "\t", 1) // a byte below LF
		case 1:
			l = l[:r.IntN(len(l))] // prefixes of other lines
		case 2:
			l = "org,\u00e9xample)/" + l // past ASCII
		}
		lines = append(lines, l)
	}
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	uribeam.WriteSortedShards(s, filepath.Join(dir, "s"), 4, 2000, beam.CreateList(s, lines))
	uribeam.WriteSortedShards(s, filepath.Join(dir, "one"), 1, 0, beam.CreateList(s, lines))
	uribeam.WriteSortedShards(s, filepath.Join(dir, "e"), 3, 0, beam.CreateList(s, []string{}))
	if err := beamRun(p); err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(lines))
	read := func(prefix string, n int) ([]string, []int) {
		var all []string
		var sizes []int
		for i := range n {
			b, err := os.ReadFile(uribeam.ShardName(filepath.Join(dir, prefix), i, n))
			if err != nil {
				t.Fatal(err)
			}
			shard := strings.SplitAfter(string(b), "\n")
			shard = shard[:len(shard)-1] // after the last LF
			for j := range shard {
				shard[j] = strings.TrimSuffix(shard[j], "\n")
			}
			all = append(all, shard...)
			sizes = append(sizes, len(shard))
		}
		return all, sizes
	}
	for _, c := range []struct {
		prefix string
		n      int
		want   []string
	}{{"s", 4, want}, {"one", 1, want}, {"e", 3, nil}} {
		got, sizes := read(c.prefix, c.n)
		if !slices.Equal(got, c.want) {
			i := 0
			for i < min(len(got), len(c.want)) && got[i] == c.want[i] {
				i++
			}
			t.Errorf("%s: %d lines, want %d sorted; they differ at line %d", c.prefix, len(got), len(c.want), i)
		}
		for i, n := range sizes {
			if c.want != nil && (n < len(lines)/c.n/2 || n > 2*len(lines)/c.n) {
				t.Errorf("%s: shard %d of %d holds %d of %d lines", c.prefix, i, c.n, n, len(lines))
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}
