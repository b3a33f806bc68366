package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunnerFlag: --runner dataflow needs the Dataflow runner built in
// (-tags dataflow); without it, it is a usage error that says how.
func TestRunnerFlag(t *testing.T) {
	code, stderr := runCommand("dedupe", "--input", "x", "--output", "y", "--runner", "dataflow")
	if withDataflow {
		if msg := checkRunner("dataflow"); msg != "" {
			t.Errorf("built with the Dataflow runner, --runner dataflow: %s", msg)
		}
		return
	}
	if code != 2 || !strings.Contains(stderr, "-tags dataflow") {
		t.Errorf("--runner dataflow without the tag: exit %d\n%s", code, stderr)
	}
	for _, r := range []string{"prism", "universal", "flink", "spark"} {
		if msg := checkRunner(r); msg != "" {
			t.Errorf("--runner %s: %s", r, msg)
		}
	}
}

// TestBuildDeps guards the cost of the first build (BENCHMARKS.md,
// "The first build of uripipe"): without -tags dataflow, uripipe
// compiles neither the Dataflow runner and its API client nor Beam's
// fileio (and the transforms/periodic it imports); with the tag, it
// has the Dataflow runner.
func TestBuildDeps(t *testing.T) {
	const beam = "github.com/apache/beam/sdks/v2/go/pkg/beam/"
	heavy := []string{
		beam + "runners/dataflow",
		"google.golang.org/api/dataflow/v1b3",
		beam + "io/fileio",
		beam + "transforms/periodic",
		beam + "x/beamx",
	}
	deps := func(tags string) []string {
		out, err := exec.Command("go", "list", "-tags", tags, "-deps", ".").Output()
		if err != nil {
			t.Fatalf("go list -tags %q -deps: %v", tags, err)
		}
		return strings.Fields(string(out))
	}
	plain := deps("")
	for _, p := range heavy {
		if slices.Contains(plain, p) {
			t.Errorf("uripipe without -tags dataflow compiles %s", p)
		}
	}
	for _, p := range []string{beam + "runners/prism", beam + "runners/universal"} {
		if !slices.Contains(plain, p) {
			t.Errorf("uripipe does not have %s", p)
		}
	}
	if !slices.Contains(deps("dataflow"), beam+"runners/dataflow") {
		t.Errorf("uripipe with -tags dataflow has no Dataflow runner")
	}
}

// TestRelativePaths: local paths are made absolute when the job is
// submitted, so that workers in other directories find the same files.
// In the portable mode uripipe runs in dir while the workers run in this
// process's directory, where a relative glob would match nothing.
func TestRelativePaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "in", "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "in", "a.txt"), []byte("HTTP://Example.COM/a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "in", "site", "p.html"), []byte(`<a href="q.html">q</a>`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"normalize", "--input", "in/*.txt", "--output", "out/n"}, "http://example.com/a"},
		{[]string{"links", "--input", "in/site/*.html", "--map", "in/=https://example.com/", "--output", "out/l"},
			"https://example.com/site/p.html\thttps://example.com/site/q.html"},
	} {
		jobIn(t, dir, tc.args...)
		out := filepath.Join(dir, tc.args[len(tc.args)-1])
		c := checkCounts(t, tc.args[0], out, 1, 1)
		if in := filepath.Join(dir, tc.args[2]); c.Input != in {
			t.Errorf("%s: input %q, want %q", tc.args[0], c.Input, in)
		}
		if got := shardLines(t, out, 1); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %q, want %q", tc.args[0], got, tc.want)
		}
	}
}
