package uri_test

// Benchmarks of package uri against net/url on real-world corpora, in
// the same file so that one run gives the ratios (the third-party peers,
// such as github.com/fredbi/uri, are in the compare module, so that this
// module never requires them). One benchmark iteration handles one URL:
// the loops walk the corpus cyclically, so ns/op, B/op and allocs/op are
// per URL.
//
// The corpora come from internal/testshared.LoadCorpus: the paths in
// URIKIT_BENCH_URLS and URIKIT_BENCH_FILES; when those are unset,
// $URIKIT_SHARED/corpora/urls/{kasztp,node_files}.txt; and when that is
// unset too, the small samples committed in testdata/corpora. A corpus
// is named after its file (kasztp, node_files, kasztp-sample, ...) so
// that results from different inputs are never mixed up. BENCHMARKS.md at
// the root of the module has the numbers and the command.

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// corpus is a list of URL lines: the shared corpus or its sample.
type corpus = testshared.Corpus

// benchCorpora returns both URL corpora.
func benchCorpora(tb testing.TB) []*corpus {
	return []*corpus{testshared.LoadCorpus(tb, "kasztp"), testshared.LoadCorpus(tb, "node_files")}
}

// validLines returns the lines that both uri.Parse and url.Parse accept,
// in order: the inputs of the benchmarks that need a parsed value.
func validLines(c *corpus) []string {
	var out []string
	for _, s := range c.Lines {
		if _, err := uri.Parse(s); err != nil {
			continue
		}
		if _, err := url.Parse(s); err != nil {
			continue
		}
		out = append(out, s)
	}
	return out
}

// Sinks keep the compiler from discarding the work measured.
var (
	sinkURI    uri.URI
	sinkURL    *url.URL
	sinkErr    error
	sinkString string
	sinkInt    int
)

// mallocs returns the number of heap allocations so far.
func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// reportExact reports two metrics per iteration since the counts m0
// (mallocs) and c0 (processCPU): exact-allocs/op, the allocations with
// decimals, because allocs/op is truncated to an integer and would show a
// benchmark that allocates on one URL in a hundred (a rejected line) or on
// every other resolution as 0; and cpu-ns/op, the CPU time of the process
// (the benchmark and the garbage collector), which stays meaningful on a
// machine where other processes compete for the CPUs and ns/op (wall time)
// does not.
func reportExact(b *testing.B, m0 uint64, c0 int64) {
	b.ReportMetric(float64(mallocs()-m0)/float64(b.N), "exact-allocs/op")
	if c1 := processCPU(); c0 >= 0 && c1 >= 0 {
		b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkParse compares uri.Parse with url.Parse on every line of each
// corpus, the lines that some of them reject included (compare's
// BenchmarkParsePeers adds fredbi's ParseReference).
func BenchmarkParse(b *testing.B) {
	for _, c := range benchCorpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			lines := c.Lines
			b.Run("urikit", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(c.AvgLen())
				i := 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					sinkURI, sinkErr = uri.Parse(lines[i])
					if i++; i == len(lines) {
						i = 0
					}
				}
				reportExact(b, m0, c0)
			})
			b.Run("neturl", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(c.AvgLen())
				i := 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					sinkURL, sinkErr = url.Parse(lines[i])
					if i++; i == len(lines) {
						i = 0
					}
				}
				reportExact(b, m0, c0)
			})
		})
	}
}

// BenchmarkParseInspect parses and then reads the scheme, host, path and
// query, on the lines both parsers accept. For urikit this path must not
// allocate at all.
func BenchmarkParseInspect(b *testing.B) {
	for _, c := range benchCorpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			lines := validLines(c)
			b.Run("urikit", func(b *testing.B) {
				b.ReportAllocs()
				i, n := 0, 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					u, err := uri.Parse(lines[i])
					if err == nil {
						n += len(u.Scheme()) + len(u.Host()) + len(u.Path()) + len(u.Query())
					}
					if i++; i == len(lines) {
						i = 0
					}
				}
				reportExact(b, m0, c0)
				sinkInt = n
			})
			b.Run("neturl", func(b *testing.B) {
				b.ReportAllocs()
				i, n := 0, 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					u, err := url.Parse(lines[i])
					if err == nil {
						n += len(u.Scheme) + len(u.Host) + len(u.Path) + len(u.RawQuery)
					}
					if i++; i == len(lines) {
						i = 0
					}
				}
				reportExact(b, m0, c0)
				sinkInt = n
			})
		})
	}
}

// BenchmarkString turns an already parsed value back into text: urikit
// keeps the input, net/url rebuilds it from its fields.
func BenchmarkString(b *testing.B) {
	for _, c := range benchCorpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			lines := validLines(c)
			b.Run("urikit", func(b *testing.B) {
				us := make([]uri.URI, len(lines))
				for k, s := range lines {
					us[k], _ = uri.Parse(s)
				}
				b.ReportAllocs()
				i := 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					sinkString = us[i].String()
					if i++; i == len(us) {
						i = 0
					}
				}
				reportExact(b, m0, c0)
			})
			b.Run("neturl", func(b *testing.B) {
				us := make([]*url.URL, len(lines))
				for k, s := range lines {
					us[k], _ = url.Parse(s)
				}
				b.ReportAllocs()
				i := 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					sinkString = us[i].String()
					if i++; i == len(us) {
						i = 0
					}
				}
				reportExact(b, m0, c0)
			})
		})
	}
}

// resolveRefs is the fixed mix of references resolved against every base:
// the RFC 3986 5.4 kinds (parent, sibling, absolute path, query only,
// fragment only, network-path, dot segments, same document).
var resolveRefs = []string{"../a/b?c", "g", "/x/y", "?q", "#f", "//h/p", "g/./h/../i", ""}

// resolveInputs returns the corpus lines that both parsers accept and that
// have a scheme (a base URI must), parsed by each side once.
func resolveInputs(c *corpus) ([]uri.URI, []*url.URL) {
	var us []uri.URI
	var ns []*url.URL
	for _, s := range validLines(c) {
		u, _ := uri.Parse(s)
		n, _ := url.Parse(s)
		if !u.HasScheme() || n.Scheme == "" {
			continue
		}
		us = append(us, u)
		ns = append(ns, n)
	}
	return us, ns
}

// BenchmarkResolve compares base.Resolve(ref) with net/url's
// base.ResolveReference(ref). Bases (every corpus URL) and references are
// parsed outside the timed loop; one iteration is one resolution.
func BenchmarkResolve(b *testing.B) {
	benchResolve(b, false)
}

// BenchmarkResolveString is BenchmarkResolve plus the result's text, which
// is what a caller usually wants: urikit's result already holds it,
// net/url rebuilds it from fields.
func BenchmarkResolveString(b *testing.B) {
	benchResolve(b, true)
}

func benchResolve(b *testing.B, text bool) {
	urefs := make([]uri.URI, len(resolveRefs))
	nrefs := make([]*url.URL, len(resolveRefs))
	for k, s := range resolveRefs {
		urefs[k] = uri.MustParse(s)
		var err error
		if nrefs[k], err = url.Parse(s); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range benchCorpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			ubases, nbases := resolveInputs(c)
			if len(ubases) == 0 {
				b.Skip("no absolute URL in the corpus")
			}
			b.Run("urikit", func(b *testing.B) {
				b.ReportAllocs()
				i, j := 0, 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					r := ubases[i].Resolve(urefs[j])
					if text {
						sinkString = r.String()
					} else {
						sinkURI = r
					}
					if i++; i == len(ubases) {
						i = 0
					}
					if j++; j == len(urefs) {
						j = 0
					}
				}
				reportExact(b, m0, c0)
			})
			b.Run("neturl", func(b *testing.B) {
				b.ReportAllocs()
				i, j := 0, 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					r := nbases[i].ResolveReference(nrefs[j])
					if text {
						sinkString = r.String()
					} else {
						sinkURL = r
					}
					if i++; i == len(nbases) {
						i = 0
					}
					if j++; j == len(nrefs) {
						j = 0
					}
				}
				reportExact(b, m0, c0)
			})
		})
	}
}

// BenchmarkNormalize measures Normalize (RFC 3986 6.2.2 and 6.2.3) of
// parsed values; Key and Equal are built on it. net/url has no
// normalization to compare with, so urikit runs alone.
func BenchmarkNormalize(b *testing.B) {
	for _, c := range benchCorpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			lines := validLines(c)
			us := make([]uri.URI, len(lines))
			for k, s := range lines {
				us[k], _ = uri.Parse(s)
			}
			b.Run("urikit", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				m0, c0 := mallocs(), processCPU()
				for b.Loop() {
					sinkURI = us[i].Normalize()
					if i++; i == len(us) {
						i = 0
					}
				}
				reportExact(b, m0, c0)
			})
		})
	}
}

// TestSamplesRoundTrip checks the committed samples on every go test run,
// with or without the shared corpora: each line that parses gives back
// its input byte for byte, and parsing and reading the components
// allocates nothing.
func TestSamplesRoundTrip(t *testing.T) {
	for _, name := range []string{"kasztp", "node_files"} {
		p := filepath.Join(testshared.SampleDir(), name+"-sample.txt")
		lines, err := testshared.ReadLines(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) < 100 {
			t.Fatalf("%s: %d lines, want a few hundred", p, len(lines))
		}
		valid := 0
		for _, s := range lines {
			u, err := uri.Parse(s)
			if err != nil {
				continue
			}
			valid++
			if got := u.String(); got != s {
				t.Errorf("%s: Parse(%q).String() = %q", p, s, got)
			}
			allocs := testing.AllocsPerRun(10, func() {
				v, err := uri.Parse(s)
				if err == nil {
					sinkInt = len(v.Scheme()) + len(v.Host()) + len(v.Path()) + len(v.Query()) + len(v.Fragment())
				}
			})
			if allocs != 0 {
				t.Errorf("%s: Parse(%q) and accessors: %v allocs, want 0", p, s, allocs)
			}
		}
		// The samples are real web and file: URLs; almost all are valid.
		if valid < len(lines)*9/10 {
			t.Errorf("%s: only %d of %d lines parse", p, valid, len(lines))
		}
	}
}

var writeSamples = flag.Bool("write-samples", false,
	"rewrite testdata/corpora/*-sample.txt from the corpora under $URIKIT_SHARED")

// TestWriteSamples regenerates the committed samples when run with
// -write-samples: go test ./uri -run TestWriteSamples -write-samples.
// The pick is deterministic: the first line of each shape (see
// sampleShape), then evenly spaced lines up to sampleSize, in corpus order.
func TestWriteSamples(t *testing.T) {
	if !*writeSamples {
		t.Skip("run with -write-samples to regenerate the samples")
	}
	if os.Getenv("URIKIT_SHARED") == "" {
		t.Fatal("URIKIT_SHARED is not set")
	}
	for _, name := range []string{"kasztp", "node_files"} {
		p := filepath.Join(os.Getenv("URIKIT_SHARED"), "corpora", "urls", name+".txt")
		lines, err := testshared.ReadLines(p)
		if err != nil {
			t.Fatal(err)
		}
		picked := pickSample(lines, sampleSize)
		out := filepath.Join(testshared.SampleDir(), name+"-sample.txt")
		if err := os.WriteFile(out, []byte(strings.Join(picked, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d lines from %s", out, len(picked), p)
	}
}

const sampleSize = 300

// pickSample returns about n lines of lines in their original order: the
// first line of every shape, then every k-th line until n are picked.
func pickSample(lines []string, n int) []string {
	chosen := make(map[int]bool)
	seen := make(map[string]bool)
	for i, l := range lines {
		if sh := sampleShape(l); !seen[sh] {
			seen[sh] = true
			chosen[i] = true
		}
	}
	if rest := n - len(chosen); rest > 0 {
		step := len(lines) / rest
		for i := step / 2; i < len(lines) && len(chosen) < n; i += max(step, 1) {
			for j := i; j < len(lines); j++ {
				if !chosen[j] {
					chosen[j] = true
					break
				}
			}
		}
	}
	idx := make([]int, 0, len(chosen))
	for i := range chosen {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = lines[i]
	}
	return out
}

// sampleShape describes a line by plain string features, independent of
// any parser: scheme, userinfo/port/IP host, path depth, trailing slash,
// file extension, query (with "&"), fragment, percent-encoding and a
// length bucket; all lines with bytes outside RFC 3986 are one shape.
func sampleShape(s string) string {
	// Lines with bytes outside RFC 3986 (a space, a backslash, a quote,
	// non-ASCII) are one shape, so that the few invalid lines of a corpus stay few in
	// the sample.
	if strings.IndexFunc(s, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune("\"<>\\^`{|}", r)
	}) >= 0 {
		return "odd"
	}
	var b strings.Builder
	rest := s
	if i := strings.IndexAny(s, ":/?#"); i > 0 && s[i] == ':' {
		b.WriteString(strings.ToLower(s[:i]))
		rest = s[i+1:]
	}
	b.WriteByte('|')
	if strings.HasPrefix(rest, "//") {
		a := rest[2:]
		e := strings.IndexAny(a, "/?#")
		if e < 0 {
			e = len(a)
		}
		auth := a[:e]
		rest = a[e:]
		if strings.Contains(auth, "@") {
			b.WriteString("user,")
		}
		h := auth[strings.LastIndex(auth, "@")+1:]
		if strings.HasPrefix(h, "[") {
			b.WriteString("ip6,")
		} else if c := strings.LastIndex(h, ":"); c >= 0 {
			b.WriteString("port,")
			h = h[:c]
		}
		switch {
		case h == "":
			b.WriteString("nohost,")
		case strings.Trim(h, "0123456789.") == "":
			b.WriteString("ip4,")
		}
	}
	b.WriteByte('|')
	p, q, f := rest, "", ""
	if i := strings.IndexByte(p, '#'); i >= 0 {
		f, p = p[i:], p[:i]
	}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		q, p = p[i:], p[:i]
	}
	fmt.Fprintf(&b, "depth%d,", min(strings.Count(p, "/"), 4))
	if strings.HasSuffix(p, "/") {
		b.WriteString("slash,")
	}
	if strings.Contains(p[strings.LastIndex(p, "/")+1:], ".") {
		b.WriteString("ext,")
	}
	if q != "" {
		b.WriteString("query,")
		if strings.Contains(q, "&") {
			b.WriteString("amp,")
		}
	}
	if f != "" {
		b.WriteString("frag,")
	}
	if strings.Contains(s, "%") {
		b.WriteString("pct,")
	}
	buckets := []int{25, 50, 100, 200}
	l := len(buckets)
	for k, m := range buckets {
		if len(s) < m {
			l = k
			break
		}
	}
	fmt.Fprintf(&b, "|len%d", l)
	return b.String()
}

// BenchmarkParseResolve is the job of a crawler or an HTML tool: the
// base is parsed once, each reference is parsed from its text and
// resolved, and the result's text is taken (issue 7: ≥ 5x net/url).
// References cycle through resolveRefs and relative references from
// real pages (relativeRefs).
func BenchmarkParseResolve(b *testing.B) {
	refs := append(append([]string(nil), resolveRefs...), relativeRefs...)
	for _, c := range benchCorpora(b) {
		b.Run(c.Name, func(b *testing.B) {
			ubases, nbases := resolveInputs(c)
			if len(ubases) == 0 {
				b.Skip("no absolute URL in the corpus")
			}
			b.Run("urikit", func(b *testing.B) {
				cycle(b, len(ubases), len(refs), func(i, j int) {
					if ref, err := uri.Parse(refs[j]); err == nil {
						sinkString = ubases[i].Resolve(ref).String()
					}
				})
			})
			b.Run("neturl", func(b *testing.B) {
				cycle(b, len(nbases), len(refs), func(i, j int) {
					if ref, err := url.Parse(refs[j]); err == nil {
						sinkString = nbases[i].ResolveReference(ref).String()
					}
				})
			})
		})
	}
}

// cycle runs fn(i, j) once per iteration, i cycling through n bases and
// j through m references, and reports the exact allocations and CPU.
func cycle(b *testing.B, n, m int, fn func(i, j int)) {
	b.ReportAllocs()
	i, j := 0, 0
	m0, c0 := mallocs(), processCPU()
	for b.Loop() {
		fn(i, j)
		if i++; i == n {
			i = 0
		}
		if j++; j == m {
			j = 0
		}
	}
	reportExact(b, m0, c0)
}

// relativeRefs are relative references of the kinds found in the links
// of real pages: sibling files, parent directories, absolute paths with
// queries, fragments.
var relativeRefs = []string{
	"index.html", "../css/style.css?v=3", "/search?q=uri&page=2", "images/logo.png",
	"#section-2", "./about/", "/", "../../", "page.php?id=17&lang=en", "//cdn.example.com/lib.js",
}
