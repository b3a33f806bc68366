package uribeam

import (
	"fmt"
	"maps"
	"testing"
)

// TestKeyCountBounded: keyCountFn, which counts lines per key within a
// bundle before Dedupe's shuffle, holds at most maxBundleKeys keys, and
// its partial counts, however often it had to flush them, merge (as
// dedupeFn merges them) into the count and smallest input of every
// class (RFC 3986 6.2.2: "HTTP://a/%7e" and "http://a/~" are one class).
func TestKeyCountBounded(t *testing.T) {
	defer func(n int) { maxBundleKeys = n }(maxBundleKeys)
	var lines []string
	want := map[string]sumMin{}
	for i := range 50 {
		k := fmt.Sprintf("http://a/~%d", i%7)
		for _, in := range []string{fmt.Sprintf("http://a/~%d", i%7), fmt.Sprintf("HTTP://a/%%7e%d", i%7)} {
			lines = append(lines, in)
			want[k] = want[k].add(sumMin{Count: 1, Min: in})
		}
	}
	lines = append(lines, "http://[::1", "") // a dead letter; the empty reference is a class
	want[""] = sumMin{Count: 1, Min: ""}
	for _, limit := range []int{1, 2, 3, 1 << 17} {
		maxBundleKeys = limit
		f := &keyCountFn{}
		got := map[string]sumMin{}
		emits, dead := 0, 0
		emit := func(k string, a sumMin) { emits++; got[k] = dedupeFn{}.MergeAccumulators(got[k], a) }
		bad := func(DeadLetter) { dead++ }
		f.StartBundle(emit, bad)
		for _, l := range lines {
			f.ProcessElement(l, emit, bad)
			if len(f.acc) > limit {
				t.Fatalf("limit %d: %d keys held", limit, len(f.acc))
			}
		}
		f.FinishBundle(emit, bad)
		if !maps.Equal(got, want) || dead != 1 {
			t.Errorf("limit %d: got %v and %d dead, want %v and 1", limit, got, dead, want)
		}
		if limit == 1<<17 && emits != len(want) {
			t.Errorf("%d partial counts for %d classes: the bundle was not combined", emits, len(want))
		}
	}
}
