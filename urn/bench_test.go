package urn

import (
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// benchCorpus returns the URNs to benchmark: the 20,000 of
// $URIKIT_SHARED/corpora/urns/urns.txt, or the committed sample (200
// lines of it) when that is not available (testshared.LoadCorpus).
func benchCorpus(b *testing.B) []string {
	c := testshared.LoadCorpus(b, "urns")
	b.Logf("corpus %s: %d URNs", c.Name, len(c.Lines))
	return c.Lines
}

// BenchmarkParseCorpus parses one URN of the corpus per iteration, with
// this package and with uri.Parse (the generic parser), so that one run
// gives the ratio; the comparison with github.com/leodido/go-urn is in
// the compare module, which alone requires it (see BENCHMARKS.md). Besides ns/op it reports cpu-ns/op,
// the CPU time of the process per URN, which other processes on a busy
// machine do not inflate.
func BenchmarkParseCorpus(b *testing.B) {
	corpus := benchCorpus(b)
	b.Run("urikit", func(b *testing.B) {
		testshared.BenchLoop(b, len(corpus), func(i int) {
			if _, err := Parse(corpus[i]); err != nil {
				b.Fatal(err)
			}
		})
	})
	// The generic parser on the same strings: a URN parser that checks
	// more (NID, NSS, r/q/f-components) should cost no more (issue 7,
	// issue 18).
	b.Run("uri.Parse", func(b *testing.B) {
		testshared.BenchLoop(b, len(corpus), func(i int) {
			if _, err := uri.Parse(corpus[i]); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkKey measures the equivalence key, which allocates the key.
func BenchmarkKey(b *testing.B) {
	corpus := benchCorpus(b)
	urns := make([]URN, len(corpus))
	for i, s := range corpus {
		urns[i] = MustParse(s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = urns[i%len(urns)].Key()
	}
}

// BenchmarkEqual measures Equal, which builds no key.
func BenchmarkEqual(b *testing.B) {
	corpus := benchCorpus(b)
	urns := make([]URN, len(corpus))
	for i, s := range corpus {
		urns[i] = MustParse(s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = Equal(urns[i%len(urns)], urns[(i+1)%len(urns)])
	}
}
