package whatwg

import (
	"runtime"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// TestParseMemory: a URL whose path or query the parser percent-encodes
// throughout (10 MB of "é" or CJK, 30 MB once encoded) costs about its
// output once, not the five times that growing the output a quarter at
// a time cost (86 MB for 10 MB of CJK; issue 20).
func TestParseMemory(t *testing.T) {
	shapes := []struct{ name, head, unit string }{
		{"é path", "http://a/", "é"},
		{"CJK path", "http://a/", "中文"},
		{"CJK query", "http://a/?", "中文"},
		{"spaces in path", "http://a/", " b"},
		{"é fragment", "http://a/#", "é"},
	}
	const n = 1 << 20
	for _, sh := range shapes {
		in := sh.head + strings.Repeat(sh.unit, n/len(sh.unit))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		u, err := Parse(in)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", sh.name, err)
		}
		out := len(u.Href())
		if got := after.TotalAlloc - before.TotalAlloc; got > uint64(out+out/2+64<<10) {
			t.Errorf("%s: parsing %d bytes into %d allocated %d bytes (more than 1.5 times the output)", sh.name, len(in), out, got)
		}
		testshared.CheckLinearN(t, sh.name, 16<<10, func(n int) string {
			return sh.head + strings.Repeat(sh.unit, n/len(sh.unit))
		}, func(s string) { sinkURL, sinkErr = Parse(s) })
	}
}
