package main

import (
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// Issue 7, defect 1: "uri urn show" (and "uri urn parse") took quadratic
// time on a long URN mixing scripts (75 s for 1 MB): the line was built
// with += and Display warned once per letter. The test times the command
// on inputs of n and 8n bytes (testshared.CheckLinearN, in CPU time
// and allocated bytes), and each kind of look-alike reported once with its count.
func TestURNShowLinear(t *testing.T) {
	const unit = "p%D0%B0yp" // Latin letters with a Cyrillic U+0430 among them
	input := func(size int) string {
		return "urn:example:" + strings.Repeat(unit, size/len(unit)) + "\n"
	}
	for _, sub := range []string{"show", "parse"} {
		testshared.CheckLinearN(t, "urn "+sub, 128<<10, input, func(in string) {
			code, out, errOut := runURNTest([]string{sub}, in)
			if code != 0 || errOut != "" {
				t.Fatalf("uri urn %s on %d bytes: exit %d, stderr %q", sub, len(in), code, errOut)
			}
			if sub == "show" && strings.Count(out, "\twarning: ") != 1 {
				t.Fatalf("uri urn show on %d bytes: %d warnings, want one per kind of letter", len(in), strings.Count(out, "\twarning: "))
			}
		})
	}
	_, out, _ := runURNTest([]string{"show"}, input(9*1000))
	if want := "among Latin letters, 1000 times\n"; !strings.HasSuffix(out, want) {
		t.Errorf("uri urn show: warning %q, want one with the count (%q)", out[strings.Index(out, "\t"):], want)
	}
}
