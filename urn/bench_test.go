package urn

import (
	"testing"

	gourn "github.com/leodido/go-urn"

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
// this package, with uri.Parse (the generic parser) and with
// github.com/leodido/go-urn in its RFC 8141 mode, so that one run gives
// the ratios (see BENCHMARKS.md). Besides ns/op it reports cpu-ns/op,
// the CPU time of the process per URN, which other processes on a busy
// machine do not inflate.
func BenchmarkParseCorpus(b *testing.B) {
	corpus := benchCorpus(b)
	b.Run("urikit", func(b *testing.B) {
		loopCorpus(b, len(corpus), func(i int) {
			if _, err := Parse(corpus[i]); err != nil {
				b.Fatal(err)
			}
		})
	})
	// The generic parser on the same strings: a URN parser that checks
	// more (NID, NSS, r/q/f-components) should cost no more (issue 7,
	// issue 18).
	b.Run("uri.Parse", func(b *testing.B) {
		loopCorpus(b, len(corpus), func(i int) {
			if _, err := uri.Parse(corpus[i]); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("go-urn", func(b *testing.B) {
		in := make([][]byte, len(corpus))
		for i, s := range corpus {
			in[i] = []byte(s)
		}
		opt := gourn.WithParsingMode(gourn.RFC8141Only)
		loopCorpus(b, len(in), func(i int) {
			if _, ok := gourn.Parse(in[i], opt); !ok {
				b.Fatalf("go-urn rejects %q", in[i])
			}
		})
	})
}

// loopCorpus calls fn for each index of the corpus in turn, one per
// iteration, and reports cpu-ns/op.
func loopCorpus(b *testing.B, n int, fn func(i int)) {
	b.ReportAllocs()
	i := 0
	c0 := testshared.CPUTime()
	for b.Loop() {
		fn(i)
		if i++; i == n {
			i = 0
		}
	}
	b.ReportMetric(float64(testshared.CPUTime()-c0)/float64(b.N), "cpu-ns/op")
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
