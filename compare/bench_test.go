package compare

// BenchmarkParse compares whatwg.Parse with nlnwa/whatwg-url's Parse on
// the corpora of internal/testshared (kasztp, node_files; the committed
// samples without $URIKIT_SHARED), one URL per iteration. cpu-ns/op is
// the process's CPU time per URL, steadier than ns/op on a loaded
// machine. BENCHMARKS.md at the root has the numbers.

import (
	"testing"

	nurl "github.com/nlnwa/whatwg-url/url"
	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/whatwg"
)

var (
	sinkOurs   whatwg.URL
	sinkTheirs *nurl.Url
	sinkErr    error
)

func loop(b *testing.B, lines []string, parse func(string)) {
	b.ReportAllocs()
	c0 := testshared.CPUTime()
	for i := 0; i < b.N; i++ {
		parse(lines[i%len(lines)])
	}
	b.ReportMetric(float64(testshared.CPUTime()-c0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkParse(b *testing.B) {
	for _, name := range []string{"kasztp", "node_files"} {
		c := testshared.LoadCorpus(b, name)
		b.Run(c.Name+"/whatwg", func(b *testing.B) {
			loop(b, c.Lines, func(s string) { sinkOurs, sinkErr = whatwg.Parse(s) })
		})
		b.Run(c.Name+"/nlnwa", func(b *testing.B) {
			loop(b, c.Lines, func(s string) { sinkTheirs, sinkErr = nurl.Parse(s) })
		})
	}
}
