package whatwg

// Benchmarks of whatwg.Parse against uri.Parse (RFC 3986) on the
// real-world corpora of internal/testshared (kasztp, node_files; the
// committed samples without $URIKIT_SHARED). One iteration parses one
// line: ns/op and allocs/op are per URL. The comparison with
// nlnwa/whatwg-url is in the compare module. BENCHMARKS.md has the
// numbers and the command.

import (
	"fmt"
	"slices"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

var (
	sinkURL URL
	sinkURI uri.URI
	sinkErr error
)

func benchCorpora(tb testing.TB) []*testshared.Corpus {
	return []*testshared.Corpus{testshared.LoadCorpus(tb, "kasztp"), testshared.LoadCorpus(tb, "node_files")}
}

// serialized returns the lines that are their own href.
func serialized(lines []string) []string {
	var out []string
	for _, s := range lines {
		if u, err := Parse(s); err == nil && u.Href() == s {
			out = append(out, s)
		}
	}
	return out
}

// loop parses the lines cyclically with parse, one per iteration, and
// reports cpu-ns/op, the process's CPU time per URL, which a loaded
// machine disturbs less than the wall clock of ns/op.
func loop(b *testing.B, lines []string, parse func(string)) {
	b.ReportAllocs()
	c0 := testshared.CPUTime()
	for i := 0; i < b.N; i++ {
		parse(lines[i%len(lines)])
	}
	b.ReportMetric(float64(testshared.CPUTime()-c0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkParse(b *testing.B) {
	for _, c := range benchCorpora(b) {
		lines := c.Lines
		ser := serialized(lines)
		b.Logf("%s: %d lines, %d in serialized form", c.Name, len(lines), len(ser))
		b.Run(c.Name+"/whatwg", func(b *testing.B) {
			loop(b, lines, func(s string) { sinkURL, sinkErr = Parse(s) })
		})
		b.Run(c.Name+"/uri", func(b *testing.B) {
			loop(b, lines, func(s string) { sinkURI, sinkErr = uri.Parse(s) })
		})
		b.Run(c.Name+"/whatwg-serialized", func(b *testing.B) {
			loop(b, ser, func(s string) { sinkURL, sinkErr = Parse(s) })
		})
	}
}

// TestSerializedNoAlloc: parsing a URL already in serialized form
// allocates nothing (the href is the input), whatever its components.
func TestSerializedNoAlloc(t *testing.T) {
	for _, s := range []string{
		"https://example.com/",
		"http://user:pass@example.com:8080/a/b;c?d=e&f#g",
		"http://127.0.0.1/",
		"http://[2001:db8::1]/x",
		"file:///C:/Windows/x",
		"mailto:someone@example.com",
		"sc://opaque.host/a?b#c",
		"sc:/.//p",
		"https://xn--bcher-kva.de/?q=%C3%BC",
	} {
		u := MustParse(s)
		if u.Href() != s {
			t.Fatalf("%q is not serialized: %q", s, u.Href())
		}
		if n := testing.AllocsPerRun(100, func() { sinkURL, sinkErr = Parse(s) }); n != 0 {
			t.Errorf("Parse(%q): %v allocations, want 0", s, n)
		}
	}
	// And one buffer (the href) when the input is not serialized.
	for _, s := range []string{"HTTP://EXAMPLE.COM", "http://a/b/../c d", "http://0x7f.1"} {
		if n := testing.AllocsPerRun(100, func() { sinkURL, sinkErr = Parse(s) }); n != 1 {
			t.Errorf("Parse(%q): %v allocations, want 1", s, n)
		}
	}
}

// BenchmarkLongHost parses hosts of 1 to 60 KB of distinct code points
// (distinctHost, three bytes each): "encode" is "http://" + host + "/",
// whose host Punycode encodes; "decode" is that URL's A-label beside
// "ß", which is decoded, checked and kept; "decode-rev" is the same
// with the code points of the host in decreasing order, so that each
// one the decoder inserts goes first (in increasing order, each goes
// last). scripts/bench-punycode.sh runs it against Node's URL on the
// same strings.
func BenchmarkLongHost(b *testing.B) {
	for _, kb := range []int{1, 2, 4, 8, 16, 32, 60} {
		h := distinctHost(kb << 10 / 3)
		rs := []rune(h)
		slices.Reverse(rs)
		enc := "http://" + h + "/"
		dec := "http://" + MustParse(enc).Host() + ".ß/"
		rev := "http://" + MustParse("http://"+string(rs)+"/").Host() + ".ß/"
		for _, c := range []struct{ op, in string }{{"encode", enc}, {"decode", dec}, {"decode-rev", rev}} {
			b.Run(fmt.Sprintf("%s/%dKB", c.op, kb), func(b *testing.B) {
				loop(b, []string{c.in}, func(s string) {
					if sinkURL, sinkErr = Parse(s); sinkErr != nil {
						b.Fatal(sinkErr)
					}
				})
			})
		}
	}
}
