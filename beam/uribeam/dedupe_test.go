package uribeam

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/urikit/urikit/beam/internal/classcount"
)

func init() {
	beam.RegisterFunction(classText)
}

func classText(c Class) string { return c.String() }

// dedupeLines are lines with classes of one line and of many (case,
// percent-encoding, default port, dot-segments, URNs with r-, q- and
// f-components), CRLF lines, the empty line, and invalid lines.
func dedupeLines() []string {
	var lines []string
	for i := range 1500 {
		lines = append(lines,
			fmt.Sprintf("http://example.com/p%d", i%400),
			fmt.Sprintf("HTTP://Example.COM:80/a/../p%d", i%400),
			fmt.Sprintf("http://example.com/%%7e%d\r", i),
			fmt.Sprintf("urn:example:a%d?+r#f", i%50),
			fmt.Sprintf("http://a b/%d", i%7), // invalid
		)
	}
	return append(lines, "", "", "//", "%zz", "urn:example:a1")
}

// shards returns the sorted lines of each of the n shards of prefix.
func shards(t *testing.T, prefix string, n int) [][]string {
	t.Helper()
	var all [][]string
	for i := range n {
		b, err := os.ReadFile(ShardName(prefix, i, n))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		if lines[len(lines)-1] != "" {
			t.Errorf("%s: the last line has no newline", ShardName(prefix, i, n))
		}
		lines = lines[:len(lines)-1]
		slices.Sort(lines)
		all = append(all, lines)
	}
	return all
}

// TestWriteDedupeAsDedupe: the shards of WriteDedupe are those of
// Dedupe's classes written by WriteShards, line for line in each shard,
// whether each part is merged in memory or split again and again
// because its keys pass a budget of a few hundred bytes; the counts are
// the lines in the classes and the classes; the dead letters are
// Dedupe's; no temporary file is left.
func TestWriteDedupeAsDedupe(t *testing.T) {
	lines := dedupeLines()
	for _, tc := range []struct {
		parts  int
		budget int64
	}{
		{1, 1 << 30}, // one part, in memory
		{64, 1 << 30},
		{3, 600},     // split at every level
		{1, 1 << 14}, // one part split in two levels
	} {
		t.Run(fmt.Sprintf("parts=%d,budget=%d", tc.parts, tc.budget), func(t *testing.T) {
			dir := t.TempDir()
			p, s := beam.NewPipelineWithRoot()
			in := beam.CreateList(s, lines)
			wantClasses, wantDead := Dedupe(s, in)
			WriteShards(s, filepath.Join(dir, "want"), 3, beam.ParDo(s, classText, wantClasses))
			WriteShards(s, filepath.Join(dir, "want-errors"), 1, beam.ParDo(s, deadText, wantDead))
			dead, counts := writeDedupe(s, in, filepath.Join(dir, "got"), 3, tc.parts, tc.budget)
			WriteShards(s, filepath.Join(dir, "got-errors"), 1, beam.ParDo(s, deadText, dead))
			WriteCounts(s, CountsPath(filepath.Join(dir, "got")), "dedupe", "", counts)
			if _, err := beam.Run(context.Background(), "prism", p); err != nil {
				t.Fatal(err)
			}
			want, got := shards(t, filepath.Join(dir, "want"), 3), shards(t, filepath.Join(dir, "got"), 3)
			classes := 0
			for i := range want {
				classes += len(want[i])
				if !slices.Equal(got[i], want[i]) {
					t.Errorf("shard %d: %d lines, want %d", i, len(got[i]), len(want[i]))
				}
			}
			if classes < 1500 {
				t.Fatalf("%d classes: the input does not test much", classes)
			}
			if w, g := shards(t, filepath.Join(dir, "want-errors"), 1), shards(t, filepath.Join(dir, "got-errors"), 1); !slices.Equal(g[0], w[0]) || len(w[0]) == 0 {
				t.Errorf("%d dead letters, want %d", len(g[0]), len(w[0]))
			}
			c, err := ReadCounts(context.Background(), CountsPath(filepath.Join(dir, "got")))
			if err != nil {
				t.Fatal(err)
			}
			nDead := int64(len(shards(t, filepath.Join(dir, "want-errors"), 1)[0]))
			if c.Out+nDead != int64(len(lines)) || c.OutputLines != int64(classes) {
				t.Errorf("counts: %d out + %d dead of %d lines, %d output lines of %d classes", c.Out, nDead, len(lines), c.OutputLines, classes)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*-tmp-*")); len(left) > 0 {
				t.Errorf("temporary files left: %q", left)
			}
		})
	}
}

func deadText(d DeadLetter) string { return d.JSON() }

func init() { beam.RegisterFunction(deadText) }

// runMerge merges the record files of one part as the pipeline does,
// and returns the shard files it emitted and the counts.
func runMerge(t *testing.T, f *mergeFn, names []string) (map[int]string, map[string]int64, error) {
	t.Helper()
	i := 0
	temps := func(s *string) bool {
		if i == len(names) {
			return false
		}
		*s = names[i]
		i++
		return true
	}
	emitted := map[int]string{}
	counts := map[string]int64{}
	err := f.ProcessElement(context.Background(), 0, temps,
		func(shard int, name string) { emitted[shard] = name },
		func(k string, n int64) { counts[k] += n })
	return emitted, counts, err
}

// writeRecords writes a file of records.
func writeRecords(t *testing.T, name string, recs ...any) {
	t.Helper()
	var b []byte
	for i := 0; i < len(recs); i += 2 {
		b = classcount.AppendRecord(b, recs[i].(string), recs[i+1].(classcount.Sum))
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMergeDamagedPart: a part whose file is cut inside a record, or
// missing, fails the merge with an error that names the file and the
// record's offset, and leaves the part's files in place (nothing is
// removed that was not merged); a whole part is merged, counted and
// removed.
func TestMergeDamagedPart(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "o")
	a, b := prefix+"-tmp-a-d00000", prefix+"-tmp-b-d00000"
	writeRecords(t, a, "http://x/", classcount.Sum{Count: 2, Min: "HTTP://x"}, "http://y/", classcount.Sum{Count: 1, Min: "http://y/"})
	writeRecords(t, b, "http://x/", classcount.Sum{Count: 3, Min: "http://X"})
	f := &mergeFn{Prefix: prefix, N: 2, Budget: 1 << 20, Fanout: 4}

	whole, _ := os.ReadFile(b)
	os.WriteFile(b, whole[:len(whole)-2], 0o644)
	_, _, err := runMerge(t, f, []string{a, b})
	if err == nil || !strings.Contains(err.Error(), b) || !strings.Contains(err.Error(), "record at byte 0") {
		t.Errorf("a cut part: %v", err)
	}
	os.Remove(b)
	if _, _, err := runMerge(t, f, []string{a, b}); err == nil || !strings.Contains(err.Error(), b) {
		t.Errorf("a missing part: %v", err)
	}
	if _, err := os.Stat(a); err != nil {
		t.Errorf("the part's other file was removed after a failure: %v", err)
	}

	os.WriteFile(b, whole, 0o644)
	emitted, counts, err := runMerge(t, f, []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range emitted {
		data, _ := os.ReadFile(name)
		out = append(out, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	slices.Sort(out)
	want := []string{"http://x/\t5\tHTTP://x", "http://y/\t1\thttp://y/"}
	if !slices.Equal(out, want) {
		t.Errorf("merged: %q, want %q", out, want)
	}
	if counts[CountOut] != 6 || counts[CountOutputLines] != 2 {
		t.Errorf("counts %v, want out 6, output_lines 2", counts)
	}
	for _, name := range []string{a, b} {
		if _, err := os.Stat(name); !os.IsNotExist(err) {
			t.Errorf("%s not removed: %v", name, err)
		}
	}
}

// TestKeyHashLevels: each level splits the keys of a part anew: the
// keys of one part at level 0 spread over the parts at level 1.
func TestKeyHashLevels(t *testing.T) {
	var h keyHash
	seen := map[int]int{}
	for i := range 20000 {
		key := fmt.Sprintf("http://example.com/%d", i)
		if h.part(key, 0, 16) != 3 {
			continue
		}
		seen[h.part(key, 1, 16)]++
	}
	for p := range 16 {
		if seen[p] < 40 {
			t.Errorf("part 3 at level 0 gives %d keys to part %d at level 1: %v", seen[p], p, seen)
		}
	}
}
