package main

import (
	"os/exec"
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
// "The first build"): without -tags dataflow, uripipe compiles neither
// the Dataflow runner and its API client nor Beam's fileio (and the
// transforms/periodic it imports), the costliest package of the build;
// with the tag, it has the Dataflow runner.
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
