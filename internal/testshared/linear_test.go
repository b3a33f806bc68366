package testshared

import (
	"strings"
	"testing"
	"time"
)

// failRecorder records whether Errorf was called.
type failRecorder struct {
	testing.TB
	failed bool
}

func (f *failRecorder) Errorf(string, ...any) { f.failed = true }
func (f *failRecorder) Logf(string, ...any)   {}
func (f *failRecorder) Helper()               {}

// TestCheckLinearCatchesQuadratic: the check must fail a quadratic run
// (in CPU and in allocations) and pass a linear one, or it proves nothing.
func TestCheckLinearCatchesQuadratic(t *testing.T) {
	gen := func(n int) string { return strings.Repeat("a", n) }
	linear := func(s string) { _ = strings.Count(s, "b") }
	quadCPU := func(s string) {
		k := 0
		for i := 0; i < len(s); i += 8 {
			k += strings.Count(s[i:], "b")
		}
		_ = k
	}
	quadAlloc := func(s string) {
		var out []string
		for i := 0; i < len(s); i += 256 {
			out = append(out, strings.Clone(s[i:]))
		}
		_ = out
	}
	for _, c := range []struct {
		name string
		run  func(string)
		fail bool
	}{{"linear", linear, false}, {"quadratic CPU", quadCPU, true}, {"quadratic memory", quadAlloc, true}} {
		r := &failRecorder{TB: t}
		CheckLinearN(r, c.name, 16<<10, gen, c.run)
		if r.failed != c.fail {
			t.Errorf("%s: failed %v, want %v", c.name, r.failed, c.fail)
		}
	}
}

// TestMeasureRepeatsCheapRuns: a run far cheaper than MinWork is
// repeated until the repetitions reach it, and the cost is per run (the
// flake of issue 26 came from timing one 40 µs run).
func TestMeasureRepeatsCheapRuns(t *testing.T) {
	calls := 0
	c := measure("abc", func(s string) {
		calls++
		_ = strings.Repeat(s, 100) // 300 bytes allocated per run
	})
	if calls < 2 {
		t.Fatalf("a cheap run was measured %d times, want it repeated", calls)
	}
	if total := c.cpu * time.Duration(calls); total < MinWork/2 {
		t.Errorf("%d runs of %v: %v of CPU in all, want about MinWork (%v)", calls, c.cpu, total, MinWork)
	}
	if c.bytes < 300 || c.bytes > 2*300+1 {
		t.Errorf("allocated %d bytes per run, want about 300 (the total divided by %d runs)", c.bytes, calls)
	}
}
