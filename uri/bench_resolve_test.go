package uri_test

// Benchmarks of the Resolver (issue 18): parse a reference, resolve it
// against a base, take the result's text, the job of a crawler or an
// HTML tool, with net/url's ResolveReference in the same benchmark.
// BENCHMARKS.md has the numbers; scripts/bench-ada.sh times ada on the
// same base and references (testdata/resolve-refs.txt).

import (
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// oneBase reads testdata/resolve-refs.txt: a base on its first line,
// then one reference per line (an empty line is the empty reference).
func oneBase(b *testing.B) (string, []string) {
	data, err := os.ReadFile("testdata/resolve-refs.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	return lines[0], lines[1:]
}

// BenchmarkParseResolveOneBase parses each reference of
// testdata/resolve-refs.txt, resolves it against the file's base and
// takes the text of the result: with URI.Resolve (one allocation per
// result), Resolver.Resolve (one per block of results), AppendResolve
// into a reused buffer (none), and net/url.
func BenchmarkParseResolveOneBase(b *testing.B) {
	base, refs := oneBase(b)
	benchParseResolve(b, []string{base}, refs)
}

// BenchmarkParseResolveCorpus is BenchmarkParseResolveOneBase with every
// absolute URL of each corpus as a base in turn, as pages of a crawl:
// each base resolves every reference, then the next base comes (the
// Resolver variants Reset one Resolver, and that is timed too).
func BenchmarkParseResolveCorpus(b *testing.B) {
	_, refs := oneBase(b)
	for _, c := range benchCorpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			var bases []string
			for _, s := range validLines(c) {
				if u := uri.MustParse(s); u.HasScheme() {
					bases = append(bases, s)
				}
			}
			if len(bases) == 0 {
				b.Skip("no absolute URL in the corpus")
			}
			benchParseResolve(b, bases, refs)
		})
	}
}

func benchParseResolve(b *testing.B, bases, refs []string) {
	ubases := make([]uri.URI, len(bases))
	nbases := make([]*url.URL, len(bases))
	for i, s := range bases {
		ubases[i] = uri.MustParse(s)
		var err error
		if nbases[i], err = url.Parse(s); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("urikit-Resolve", func(b *testing.B) {
		pages(b, len(ubases), len(refs), nil, func(i, j int) {
			if ref, err := uri.Parse(refs[j]); err == nil {
				sinkString = ubases[i].Resolve(ref).String()
			}
		})
	})
	b.Run("urikit-Resolver", func(b *testing.B) {
		var r uri.Resolver
		pages(b, len(ubases), len(refs), func(i int) { r.Reset(ubases[i]) }, func(i, j int) {
			if ref, err := uri.Parse(refs[j]); err == nil {
				sinkString = r.Resolve(ref).String()
			}
		})
	})
	b.Run("urikit-AppendResolve", func(b *testing.B) {
		var r uri.Resolver
		buf := make([]byte, 0, 4096)
		n := 0
		pages(b, len(ubases), len(refs), func(i int) { r.Reset(ubases[i]) }, func(i, j int) {
			if ref, err := uri.Parse(refs[j]); err == nil {
				buf = r.AppendResolve(buf[:0], ref)
				n += len(buf)
			}
		})
		sinkInt = n
	})
	// AppendResolve, then a string of the result's size: what URI.Resolve
	// costs at least when it must allocate, the cost of the allocation
	// set apart (issue 32: Resolve's time over AppendResolve's is this
	// allocation's).
	b.Run("urikit-AppendResolve-string", func(b *testing.B) {
		var r uri.Resolver
		buf := make([]byte, 0, 4096)
		pages(b, len(ubases), len(refs), func(i int) { r.Reset(ubases[i]) }, func(i, j int) {
			if ref, err := uri.Parse(refs[j]); err == nil {
				buf = r.AppendResolve(buf[:0], ref)
				sinkString = string(buf)
			}
		})
	})
	b.Run("neturl", func(b *testing.B) {
		pages(b, len(nbases), len(refs), nil, func(i, j int) {
			if ref, err := url.Parse(refs[j]); err == nil {
				sinkString = nbases[i].ResolveReference(ref).String()
			}
		})
	})
}

// pages runs fn(i, j) once per iteration for base i and reference j:
// every reference of base i, then base i+1 (after page(i+1), if not
// nil), cyclically; it reports the exact allocations and CPU.
func pages(b *testing.B, n, m int, page func(i int), fn func(i, j int)) {
	b.ReportAllocs()
	i, j := 0, 0
	m0, c0 := mallocs(), processCPU()
	if page != nil {
		page(0)
	}
	for b.Loop() {
		fn(i, j)
		if j++; j == m {
			j = 0
			if i++; i == n {
				i = 0
			}
			if page != nil {
				page(i)
			}
		}
	}
	reportExact(b, m0, c0)
}
