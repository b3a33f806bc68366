package main

import (
	"strings"
	"testing"
	"time"
)

// Issue 7, defect 1: "uri urn show" (and "uri urn parse") took quadratic
// time on a long URN mixing scripts (75 s for 1 MB): the line was built
// with += and Display warned once per letter. The test times the command
// on inputs of n and 8n bytes and wants a ratio far from the 64 of a
// quadratic, and each kind of look-alike reported once with its count.
func TestURNShowLinear(t *testing.T) {
	const unit = "p%D0%B0yp" // Latin letters with a Cyrillic U+0430 among them
	input := func(size int) string {
		return "urn:example:" + strings.Repeat(unit, size/len(unit)) + "\n"
	}
	small, large := input(128<<10), input(1<<20)
	for _, sub := range []string{"show", "parse"} {
		timeOf := func(in string) time.Duration {
			best := time.Duration(1 << 62)
			for range 3 {
				start := time.Now()
				code, out, errOut := runURNTest([]string{sub}, in)
				d := time.Since(start)
				if code != 0 || errOut != "" {
					t.Fatalf("uri urn %s on %d bytes: exit %d, stderr %q", sub, len(in), code, errOut)
				}
				if sub == "show" && strings.Count(out, "\twarning: ") != 1 {
					t.Fatalf("uri urn show on %d bytes: %d warnings, want one per kind of letter", len(in), strings.Count(out, "\twarning: "))
				}
				best = min(best, d)
			}
			return best
		}
		ts, tl := timeOf(small), timeOf(large)
		// Linear: 8; quadratic: 64. Allow noise of a shared machine.
		if ratio := float64(tl) / float64(max(ts, time.Millisecond/10)); ratio > 24 {
			t.Errorf("uri urn %s: %v for %d bytes, %v for %d bytes: ratio %.1f, want linear (about 8)", sub, ts, len(small), tl, len(large), ratio)
		}
	}
	_, out, _ := runURNTest([]string{"show"}, input(9*1000))
	if want := "among Latin letters, 1000 times\n"; !strings.HasSuffix(out, want) {
		t.Errorf("uri urn show: warning %q, want one with the count (%q)", out[strings.Index(out, "\t"):], want)
	}
}
