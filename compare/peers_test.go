package compare_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fredbi "github.com/fredbi/uri"
	gourn "github.com/leodido/go-urn"
	"mvdan.cc/xurls/v2"

	"github.com/urikit/urikit/extract"
	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// The benchmarks against third-party peers live here, in a module of
// their own, so that the library's go.mod requires none of them. Each
// runs urikit and the peer in the same benchmark, so that one run gives
// the ratio (BENCHMARKS.md).

var (
	sinkURI    uri.URI
	sinkFredbi fredbi.URI
	sinkErr    error
)

// BenchmarkParsePeers: uri.Parse and github.com/fredbi/uri's
// ParseReference (both parse a URI reference) on every line of the URL
// corpora, the lines either rejects included.
func BenchmarkParsePeers(b *testing.B) {
	for _, name := range []string{"kasztp", "node_files"} {
		c := testshared.LoadCorpus(b, name)
		b.Run(c.Name, func(b *testing.B) {
			b.Run("urikit", func(b *testing.B) {
				b.SetBytes(c.AvgLen())
				testshared.BenchLoop(b, len(c.Lines), func(i int) { sinkURI, sinkErr = uri.Parse(c.Lines[i]) })
			})
			b.Run("fredbi", func(b *testing.B) {
				b.SetBytes(c.AvgLen())
				testshared.BenchLoop(b, len(c.Lines), func(i int) { sinkFredbi, sinkErr = fredbi.ParseReference(c.Lines[i]) })
			})
		})
	}
}

// BenchmarkURNParsePeers: urn.Parse and github.com/leodido/go-urn in
// its RFC 8141 mode on the URN corpus.
func BenchmarkURNParsePeers(b *testing.B) {
	corpus := testshared.LoadCorpus(b, "urns").Lines
	b.Run("urikit", func(b *testing.B) {
		testshared.BenchLoop(b, len(corpus), func(i int) {
			if _, err := urn.Parse(corpus[i]); err != nil {
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
		testshared.BenchLoop(b, len(in), func(i int) {
			if _, ok := gourn.Parse(in[i], opt); !ok {
				b.Fatalf("go-urn rejects %q", in[i])
			}
		})
	})
}

// BenchmarkExtractPeers: extract.Scanner and mvdan.cc/xurls' Strict
// regexp on the same running text (the seeds, repeated to about 4 MB).
func BenchmarkExtractPeers(b *testing.B) {
	text := seedText(b)
	b.Run("urikit", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			s := extract.NewScanner(strings.NewReader(text), extract.Options{})
			for s.Scan() {
			}
		}
	})
	b.Run("xurls-strict", func(b *testing.B) {
		re := xurls.Strict()
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			_ = re.FindAllStringIndex(text, -1)
		}
	})
}

// seedText is the seeds concatenated and repeated to about 4 MB, or the
// package docs of extract when the shared directory is not there.
func seedText(b *testing.B) string {
	var parts []string
	if d := os.Getenv(testshared.EnvVar); d != "" {
		files, _ := filepath.Glob(filepath.Join(d, "seeds", "*.txt"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				parts = append(parts, string(data))
			}
		}
	}
	if len(parts) == 0 {
		data, err := os.ReadFile(filepath.Join("..", "extract", "doc.go"))
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, string(data))
	}
	one := strings.Join(parts, "\n")
	return strings.Repeat(one, 4<<20/len(one)+1)
}
