package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// benchText is real running text: the seeds (the URL and URI drafts,
// full of URIs in prose) when ../shared is there, else this package's
// doc and tests, repeated to about 4 MB.
func benchText(b *testing.B) string {
	var parts []string
	if d := os.Getenv("URIKIT_SHARED"); d != "" {
		files, _ := filepath.Glob(filepath.Join(d, "seeds", "*.txt"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				parts = append(parts, string(data))
			}
		}
	}
	if len(parts) == 0 {
		for _, f := range []string{"doc.go", "scanner_test.go"} {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			parts = append(parts, string(data))
		}
	}
	one := strings.Join(parts, "\n")
	return strings.Repeat(one, 4<<20/len(one)+1)
}

// BenchmarkExtract measures the Scanner on running text (BENCHMARKS.md;
// the comparison with mvdan.cc/xurls is in the compare module, which
// alone requires it).
func BenchmarkExtract(b *testing.B) {
	text := benchText(b)
	for _, bc := range []struct {
		name string
		o    Options
	}{{"urikit", Options{}}, {"urikit-abbrev", Options{Abbrev: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			c0 := testshared.CPUTime()
			for b.Loop() {
				s := NewScanner(strings.NewReader(text), bc.o)
				n := 0
				for s.Scan() {
					n++
				}
			}
			// CPU time, which does not grow while other processes hold
			// the CPUs (wall time does, on a shared machine).
			cpu := testshared.CPUTime() - c0
			b.ReportMetric(float64(len(text))*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
		})
	}
}
